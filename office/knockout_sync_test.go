package office_test

import (
	"slices"
	"strconv"
	"testing"

	"kisen/office"
	"kisen/pairing"
	"kisen/store"
	"kisen/store/storetest"
)

// readyGames lists the bracket games that have a game and wait for a result.
func readyGames(t *testing.T, k *knockoutFixture) []office.BracketGame {
	t.Helper()
	eb, err := k.o.EventBrackets(k.ctx, k.director, k.event.ID)
	if err != nil {
		t.Fatal(err)
	}
	var out []office.BracketGame
	for _, round := range eb.Stages[0].Rounds {
		for _, g := range round {
			if g.Status == pairing.StatusReady && g.GameID != 0 {
				out = append(out, g)
			}
		}
	}
	return out
}

// gamesOfPlayer counts the games rows in which a player sits.
func gamesOfPlayer(t *testing.T, k *knockoutFixture, s *store.Store, pid int64) int {
	t.Helper()
	var n int64
	if err := s.DB(k.ctx).Model(&store.Game{}).Where("event_id = ? AND (sente_player_id = ? OR gote_player_id = ?)", k.event.ID, pid, pid).Count(&n).Error; err != nil {
		t.Fatal(err)
	}
	return int(n)
}

// TestKnockoutSync_D_R3_RecordResultAdvancesWinner: a result entered with
// office.RecordResult (the path of /games/:id, not the quick form) creates
// the winner's next game in the same call, once both round-1 games that
// feed it are decided; ConfirmResult does the same when the event requires
// confirmation.
func TestKnockoutSync_D_R3_RecordResultAdvancesWinner(t *testing.T) {
	t.Parallel()
	for _, confirm := range []bool{false, true} {
		t.Run("require_confirmation="+strconv.FormatBool(confirm), func(t *testing.T) {
			t.Parallel() // its own databases
			storetest.Each(t, func(t *testing.T, s *store.Store) {
				k := newKnockoutFixture(t, s)
				if confirm {
					if err := s.DB(k.ctx).Model(&store.Event{}).Where("id = ?", k.event.ID).Update("settings", `{"require_confirmation": true}`).Error; err != nil {
						t.Fatal(err)
					}
				}
				// 8 players: no byes, so R2-G1 is fed by R1-G1 and R1-G2.
				st, err := k.o.CreateStage(k.ctx, k.director, office.StageInput{EventID: k.event.ID, Name: "本戦", Kind: "main"})
				if err != nil {
					t.Fatal(err)
				}
				for _, p := range k.players[4:] {
					if _, err := k.o.AddEntrant(k.ctx, k.director, office.EntrantInput{StageID: st.ID, PlayerID: p.ID}); err != nil {
						t.Fatal(err)
					}
				}
				k.draw(st.ID, "3")
				if err := k.o.PublishStage(k.ctx, k.director, st.ID); err != nil {
					t.Fatal(err)
				}
				byID := map[string]office.BracketGame{}
				for _, g := range readyGames(t, k) {
					byID[g.ID] = g
				}
				if len(byID) != 4 {
					t.Fatalf("8 players give 4 round-1 games, got %d", len(byID))
				}
				var winners []int64
				for _, id := range []string{"R1-G1", "R1-G2"} {
					g := byID[id]
					rv, err := k.o.RecordResult(k.ctx, k.director, g.GameID, office.ResultInput{Result: office.ResultGoteWin, Reason: "resignation"})
					if err != nil {
						t.Fatal(err)
					}
					if confirm {
						if err := k.o.ConfirmResult(k.ctx, k.admin, rv.ID); err != nil {
							t.Fatal(err)
						}
					}
					winners = append(winners, g.GoteID)
				}
				// Independent oracle: the games table itself, not the bracket view.
				for _, w := range winners {
					if n := gamesOfPlayer(t, k, s, w); n != 2 {
						t.Fatalf("winner %d sits in %d games, want 2 (round 1 and round 2)", w, n)
					}
				}
				next := readyGames(t, k)
				i := slices.IndexFunc(next, func(g office.BracketGame) bool { return g.ID == "R2-G1" })
				if i < 0 {
					t.Fatalf("R2-G1 not created: %+v", next)
				}
				got := []int64{next[i].SenteID, next[i].GoteID}
				slices.Sort(got)
				slices.Sort(winners)
				if !slices.Equal(got, winners) {
					t.Fatalf("R2-G1 seats %v, want the round-1 winners %v", got, winners)
				}
			})
		})
	}
}

// TestKnockoutSync_UnconfirmedResultDoesNotAdvance: with confirmation
// required, an entered but unconfirmed result creates nothing.
func TestKnockoutSync_D_R3_UnconfirmedResultDoesNotAdvance(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		k := newKnockoutFixture(t, s)
		if err := s.DB(k.ctx).Model(&store.Event{}).Where("id = ?", k.event.ID).Update("settings", `{"require_confirmation": true}`).Error; err != nil {
			t.Fatal(err)
		}
		st := k.stage()
		k.draw(st.ID, "9")
		if err := k.o.PublishStage(k.ctx, k.director, st.ID); err != nil {
			t.Fatal(err)
		}
		var before int64
		s.DB(k.ctx).Model(&store.Game{}).Where("event_id = ?", k.event.ID).Count(&before)
		for _, g := range readyGames(t, k) {
			if _, err := k.o.RecordResult(k.ctx, k.director, g.GameID, office.ResultInput{Result: office.ResultSenteWin, Reason: "resignation"}); err != nil {
				t.Fatal(err)
			}
		}
		var after int64
		s.DB(k.ctx).Model(&store.Game{}).Where("event_id = ?", k.event.ID).Count(&after)
		if after != before {
			t.Fatalf("unconfirmed results created %d games", after-before)
		}
	})
}

// TestKnockoutByes_NoGameRows: publishing a 12-player bracket (16 places,
// 4 byes) creates one games row per round-1 pair of two players and none
// for a bye, counted from the stored slots, not from the bracket view.
func TestKnockoutByes_NoGameRows(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		k := newKnockoutFixture(t, s)
		st := k.stage()
		slots := slotsOf(t, k.draw(st.ID, "77"))
		if len(slots) != 16 {
			t.Fatalf("12 players fill %d places, want 16", len(slots))
		}
		if err := k.o.PublishStage(k.ctx, k.director, st.ID); err != nil {
			t.Fatal(err)
		}
		want, byes := 0, 0
		for i := 0; i < len(slots); i += 2 {
			switch {
			case slots[i] != "" && slots[i+1] != "":
				want++
			case slots[i] != "" || slots[i+1] != "":
				byes++
			}
		}
		var n int64
		if err := s.DB(k.ctx).Model(&store.Game{}).Where("event_id = ?", k.event.ID).Count(&n).Error; err != nil {
			t.Fatal(err)
		}
		if byes != 4 || int(n) != want {
			t.Fatalf("%d games rows for %d two-player pairs (%d byes)", n, want, byes)
		}
		for i, id := range slots {
			if id == "" {
				continue
			}
			pid, _ := strconv.ParseInt(id, 10, 64)
			opp := slots[i^1]
			if got := gamesOfPlayer(t, k, s, pid); (opp == "") != (got == 0) {
				t.Fatalf("player %s (opponent %q) sits in %d games", id, opp, got)
			}
		}
	})
}
