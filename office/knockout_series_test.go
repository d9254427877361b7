package office_test

import (
	"strconv"
	"testing"

	"kisen/office"
	"kisen/pairing"
	"kisen/store"
	"kisen/store/storetest"
)

// TestKnockoutSeries_D_F_D_R1_BestOfSeven plays a 七番勝負 through office:
// game 1 by 振り駒; game k's sente is game k−1's first-attempt gote; a
// 千日手 in game 2 is replayed with colours swapped (D-R1) and keeps the
// number (000 第8条第7項); at 3–3 the deciding game 7 is by 振り駒 again;
// after it the series stops. The expected seats are derived here from the
// stored games, not from pairing.
func TestKnockoutSeries_D_F_D_R1_BestOfSeven(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		k := newKnockoutFixture(t, s)
		ev, err := k.o.CreateEvent(k.ctx, k.admin, office.EventInput{OrganiserID: k.event.OrganiserID, Name: "竜王戦七番勝負", Kind: office.EventTitleMatch, StartDate: "2026-10-01", EndDate: "2026-12-31"})
		if err != nil {
			t.Fatal(err)
		}
		st, err := k.o.CreateStage(k.ctx, k.admin, office.StageInput{EventID: ev.ID, Name: "七番勝負", Kind: office.StageSeries, BestOf: 7})
		if err != nil {
			t.Fatal(err)
		}
		holder, challenger := k.players[0].ID, k.players[1].ID
		for i, p := range []int64{holder, challenger} {
			if _, err := k.o.AddEntrant(k.ctx, k.admin, office.EntrantInput{StageID: st.ID, PlayerID: p, Seed: i + 1}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := k.o.DrawStage(k.ctx, k.admin, office.DrawInput{StageID: st.ID, Seed: "19", DrawDate: "2026-09-01"}); err != nil {
			t.Fatal(err)
		}
		if err := k.o.PublishStage(k.ctx, k.admin, st.ID); err != nil {
			t.Fatal(err)
		}
		games := func() []store.KnockoutGame {
			kgs, err := s.KnockoutGamesOfStage(k.ctx, st.ID)
			if err != nil {
				t.Fatal(err)
			}
			return kgs
		}
		game := func(id int64) store.Game {
			g, err := s.GameByID(k.ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			return g
		}
		win := func(g store.Game, winner int64) {
			t.Helper()
			r := office.ResultSenteWin
			if *g.GotePlayerID == winner {
				r = office.ResultGoteWin
			}
			if _, err := k.o.RecordResult(k.ctx, k.admin, g.ID, office.ResultInput{Result: r, Reason: "resignation"}); err != nil {
				t.Fatal(err)
			}
		}
		// Winners of games 1..7; game 2 is a 千日手 first, then its redo.
		winners := []int64{holder, challenger, holder, challenger, holder, challenger, holder}
		for n, w := range winners {
			kgs := games()
			if len(kgs) != n+1 {
				t.Fatalf("before game %d: %d series games exist", n+1, len(kgs))
			}
			kg := kgs[n]
			if kg.BracketGame != "S"+strconv.Itoa(n+1) {
				t.Fatalf("game %d is %q", n+1, kg.BracketGame)
			}
			first := game(kg.GameID)
			switch n + 1 {
			case 1, 7: // D-F: game 1 and the deciding game by 振り駒
				if kg.SenteBy != pairing.SenteByFurigoma || kg.Furigoma == "{}" {
					t.Fatalf("game %d: sente by %q, want a 振り駒", n+1, kg.SenteBy)
				}
			default: // alternation from the previous game's first attempt
				prev := game(kgs[n-1].GameID)
				if *first.SentePlayerID != *prev.GotePlayerID || kg.SenteBy != pairing.SenteBySeries {
					t.Fatalf("game %d: sente %d by %q, want %d (game %d's gote)", n+1, *first.SentePlayerID, kg.SenteBy, *prev.GotePlayerID, n)
				}
			}
			if n+1 != 2 {
				win(first, w)
				continue
			}
			// 千日手: no result, the game count stays, nothing new is created.
			if _, err := k.o.RecordResult(k.ctx, k.admin, first.ID, office.ResultInput{Result: office.ResultRedo, Reason: "sennichite"}); err != nil {
				t.Fatal(err)
			}
			redo, err := k.o.CreateRedoGameFromRemaining(k.ctx, k.admin, first.ID, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			if *redo.SentePlayerID != *first.GotePlayerID || *redo.GotePlayerID != *first.SentePlayerID {
				t.Fatal("D-R1: the redo game does not swap colours")
			}
			if got := len(games()); got != 2 {
				t.Fatalf("a 千日手 advanced the series to %d games", got)
			}
			win(redo, w)
		}
		if got := len(games()); got != 7 {
			t.Fatalf("the series went on to %d games after being decided", got)
		}
		eb, err := k.o.EventBrackets(k.ctx, office.Actor{}, ev.ID)
		if err != nil {
			t.Fatal(err)
		}
		sv := eb.Stages[0].Series
		if sv == nil || !sv.State.Over || sv.State.Champion != strconv.FormatInt(holder, 10) || sv.State.Wins != [2]int{4, 3} {
			t.Fatalf("series state %+v", sv)
		}
	})
}
