package office_test

import (
	"errors"
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

// TestKnockoutSeries_000_9_9_JishogiCounted plays a 七番勝負 whose game 4
// is a 持将棋, once with the event counting it (the title's rules, 000 第9条
// 第9項, 001 第6条4; RedoCountsAsGame) and once without (D-R3, 001 第6条4):
//   - counted: game 4 is a game with no winner, no redo game may be made
//     for it, game 5 follows with game 4's gote as sente, the series can
//     last 8 games, a 千日手 in game 2 is still replayed and not counted
//     (000 第8条第7項); at 3–3 game 8 is by 振り駒 and decides the title;
//   - not counted: game 4 waits for its redo game (colours swapped), whose
//     winner takes game 4; the series stays at seven games.
func TestKnockoutSeries_000_9_9_JishogiCounted(t *testing.T) {
	t.Parallel()
	for _, counted := range []bool{true, false} {
		t.Run(map[bool]string{true: "counted", false: "not_counted"}[counted], func(t *testing.T) {
			t.Parallel()
			storetest.Each(t, func(t *testing.T, s *store.Store) {
				k := newKnockoutFixture(t, s)
				ev, err := k.o.CreateEvent(k.ctx, k.admin, office.EventInput{OrganiserID: k.event.OrganiserID, Name: "王位戦七番勝負", Kind: office.EventTitleMatch, StartDate: "2026-07-01", EndDate: "2026-09-30"})
				if err != nil {
					t.Fatal(err)
				}
				form := office.FormOf(office.DefaultEventSettings())
				form.RedoCountsAsGame = counted
				if err := k.o.SetEventSettings(k.ctx, k.admin, ev.ID, form); err != nil {
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
				if _, err := k.o.DrawStage(k.ctx, k.admin, office.DrawInput{StageID: st.ID, Seed: "7", DrawDate: "2026-06-20"}); err != nil {
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
				record := func(g store.Game, result, reason string) {
					t.Helper()
					if _, err := k.o.RecordResult(k.ctx, k.admin, g.ID, office.ResultInput{Result: result, Reason: reason}); err != nil {
						t.Fatal(err)
					}
				}
				win := func(g store.Game, winner int64) {
					t.Helper()
					r := office.ResultSenteWin
					if *g.GotePlayerID == winner {
						r = office.ResultGoteWin
					}
					record(g, r, "resignation")
				}
				// latest is the last game of chain n (1-based), its redo games followed.
				latest := func(n int) store.Game {
					g := game(games()[n-1].GameID)
					for {
						redos, err := s.RedoGames(k.ctx, g.ID)
						if err != nil {
							t.Fatal(err)
						}
						if len(redos) == 0 {
							return g
						}
						g = redos[0]
					}
				}
				series := func() office.SeriesView {
					eb, err := k.o.EventBrackets(k.ctx, office.Actor{}, ev.ID)
					if err != nil {
						t.Fatal(err)
					}
					return *eb.Stages[0].Series
				}
				// wins of holder and challenger, read by name.
				wins := func(sv office.SeriesView) (int, int) {
					if sv.Players[0] == strconv.FormatInt(holder, 10) {
						return sv.State.Wins[0], sv.State.Wins[1]
					}
					return sv.State.Wins[1], sv.State.Wins[0]
				}

				win(latest(1), holder)
				// Game 2: a 千日手 first — replayed, never counted (000 第8条第7項).
				g2 := latest(2)
				record(g2, office.ResultRedo, "sennichite")
				if _, err := k.o.CreateRedoGameFromRemaining(k.ctx, k.admin, g2.ID, 0, 0); err != nil {
					t.Fatalf("千日手 redo refused: %v", err)
				}
				if sv := series(); sv.State.Draws != 0 || len(games()) != 2 || !sv.Waiting {
					t.Fatalf("after the 千日手: draws %d, %d games, waiting %v", sv.State.Draws, len(games()), sv.Waiting)
				}
				win(latest(2), challenger)
				win(latest(3), holder)
				// Game 4: 持将棋.
				g4 := latest(4)
				if counted {
					// Ended on the board (both 24 points or more, 001 第6条B): no redo game is created.
					// No clocks are asked for: no redo game will use them.
					end, err := k.o.EndGame(k.ctx, k.admin, g4.ID, office.EndInput{Kind: "jishogi_agreement", PointsSente: "27", PointsGote: "27"})
					if err != nil || end.Redo != nil || end.Outcome.Reason != "jishogi_redo" {
						t.Fatalf("EndGame of a counted 持将棋: %v, redo %+v, outcome %+v", err, end.Redo, end.Outcome)
					}
				} else {
					// Replayed: the redo game's clocks need each side's time left (D-R2).
					var ve *office.ValidationError
					if _, err := k.o.PreviewEnd(k.ctx, k.admin, g4.ID, office.EndInput{Kind: "jishogi_agreement", PointsSente: "27", PointsGote: "27"}); !errors.As(err, &ve) || ve.Fields[0].Field != "remaining_sente" {
						t.Fatalf("a replayed 持将棋 without clocks: %v, want the remaining time asked for", err)
					}
					record(g4, office.ResultRedo, "jishogi_redo")
				}
				sv := series()
				h, c := wins(sv)
				if h != 2 || c != 1 || sv.State.Need != 4 {
					t.Fatalf("after game 4: %d–%d, need %d", h, c, sv.State.Need)
				}
				if counted {
					if sv.State.Draws != 1 || sv.State.MaxGames != 8 || sv.State.NextGame != 5 || sv.State.NextIsRedo {
						t.Fatalf("counted 持将棋: %+v waiting %v", sv.State, sv.Waiting)
					}
					if len(games()) != 5 {
						t.Fatalf("after a counted 持将棋 %d series games exist, want game 5 created", len(games()))
					}
					g5 := game(games()[4].GameID)
					if *g5.SentePlayerID != *g4.GotePlayerID {
						t.Fatal("game 5's sente is not game 4's gote (alternation)")
					}
					_, err := k.o.CreateRedoGameFromRemaining(k.ctx, k.admin, g4.ID, 0, 0)
					var ve *office.ValidationError
					if !errors.As(err, &ve) {
						t.Fatalf("a redo game for a counted 持将棋: %v, want refused", err)
					}
					if redos, _ := s.RedoGames(k.ctx, g4.ID); len(redos) != 0 {
						t.Fatal("a redo game was created for a counted 持将棋")
					}
					win(g5, holder)            // 3–1
					win(latest(6), challenger) // 3–2
					win(latest(7), challenger) // 3–3: game 8 decides
					kgs := games()
					if len(kgs) != 8 || kgs[7].SenteBy != pairing.SenteByFurigoma {
						t.Fatalf("at 3–3 after a counted 持将棋: %d games, game 8 sente by %q; want game 8 by 振り駒", len(kgs), kgs[len(kgs)-1].SenteBy)
					}
					if sv := series(); sv.State.Over || sv.State.Need-sv.State.Wins[0] != 1 || sv.State.Need-sv.State.Wins[1] != 1 {
						t.Fatalf("before game 8: %+v", sv.State)
					}
					win(latest(8), holder)
					sv = series()
					if h, c := wins(sv); !sv.State.Over || sv.State.Champion != strconv.FormatInt(holder, 10) || h != 4 || c != 3 || len(games()) != 8 {
						t.Fatalf("after game 8: %d–%d over %v, %d games", h, c, sv.State.Over, len(games()))
					}
					for _, g := range sv.Games {
						if g.Counted != (g.GameID == g4.ID) || (g.GameID == g4.ID && g.Number != 4) {
							t.Fatalf("game %d (number %d) counted %v; only game 4's 持将棋 is", g.GameID, g.Number, g.Counted)
						}
					}
					return
				}
				// Not counted: game 4 waits for its redo, which decides it.
				if sv.State.Draws != 0 || sv.State.MaxGames != 7 || !sv.Waiting || len(games()) != 4 {
					t.Fatalf("uncounted 持将棋: %+v waiting %v, %d games", sv.State, sv.Waiting, len(games()))
				}
				redo, err := k.o.CreateRedoGameFromRemaining(k.ctx, k.admin, g4.ID, 0, 0)
				if err != nil {
					t.Fatal(err)
				}
				if *redo.SentePlayerID != *g4.GotePlayerID {
					t.Fatal("D-R1: the redo does not swap colours")
				}
				win(redo, holder) // 3–1, game 4 decided by its redo
				sv = series()
				if h, c := wins(sv); h != 3 || c != 1 || sv.State.NextGame != 5 || sv.State.MaxGames != 7 || len(games()) != 5 {
					t.Fatalf("after game 4's redo: %d–%d next %d max %d, %d games", h, c, sv.State.NextGame, sv.State.MaxGames, len(games()))
				}
				win(latest(5), holder)
				sv = series()
				if h, c := wins(sv); !sv.State.Over || h != 4 || c != 1 || len(games()) != 5 {
					t.Fatalf("after game 5: %d–%d over %v, %d games", h, c, sv.State.Over, len(games()))
				}
			})
		})
	}
}
