package rating

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestEligible_D_R3_RedoChainCountsOnce(t *testing.T) {
	t.Parallel()
	// 000 第8条第7項 / 第9条第9項: 千日手 and 持将棋 games are not games;
	// the match is the redo that is decided. Colours swap each time (D-R1).
	d := day(2026, 5, 10)
	chain := []Game{
		{ID: "g3", EventID: "e1", Date: d, Sente: "a", Gote: "b", Outcome: GoteWin, Confirmed: true, RedoOf: "g2"},
		{ID: "g1", EventID: "e1", Date: d, Sente: "a", Gote: "b", Outcome: Sennichite, Confirmed: true},
		{ID: "g2", EventID: "e1", Date: d, Sente: "b", Gote: "a", Outcome: Jishogi, Confirmed: true, RedoOf: "g1"},
	}
	for _, m := range []Model{ModelElo, ModelGlicko2} {
		rated, skipped, err := Eligible(DefaultSettings(m), []string{"a", "b"}, chain)
		if err != nil {
			t.Fatal(err)
		}
		if len(rated) != 1 || rated[0].ID != "g3" {
			t.Fatalf("%s: rated %v, want only the deciding game g3", m, rated)
		}
		want := []Skip{{Game: "g1", Reason: SkipRedone, RedoneBy: "g2"}, {Game: "g2", Reason: SkipRedone, RedoneBy: "g3"}}
		if !reflect.DeepEqual(skipped, want) {
			t.Errorf("%s: skipped %+v, want %+v", m, skipped, want)
		}
		full, err := Recompute(DefaultSettings(m), []string{"a", "b"}, chain)
		if err != nil {
			t.Fatal(err)
		}
		alone, err := Recompute(DefaultSettings(m), []string{"a", "b"}, chain[:1:1])
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(full.Ratings(), alone.Ratings()) {
			t.Errorf("%s: the chain rates %+v, the deciding game alone %+v", m, full.Ratings(), alone.Ratings())
		}
		if b := mustRating(t, full, "b"); b.Games != 1 || b.Wins != 1 {
			t.Errorf("%s: b = %+v, want one game, one win", m, b)
		}
	}
}

func TestEligible_D_R3_RedoAcrossBatches(t *testing.T) {
	t.Parallel()
	d := day(2026, 5, 10)
	st, err := NewState(DefaultSettings(ModelElo), []string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Apply([]Game{{ID: "g1", Date: d, Sente: "a", Gote: "b", Outcome: Sennichite, Confirmed: true}}); err != nil {
		t.Fatal(err)
	}
	if got := st.Skipped(); len(got) != 1 || got[0].Reason != SkipNoResult {
		t.Fatalf("skipped %+v, want g1 as no_result while no redo is known", got)
	}
	if err := st.Apply([]Game{{ID: "g2", Date: d, Sente: "b", Gote: "a", Outcome: SenteWin, Confirmed: true, RedoOf: "g1"}}); err != nil {
		t.Fatal(err)
	}
	if got := st.Skipped(); len(got) != 1 || got[0].Reason != SkipRedone || got[0].RedoneBy != "g2" {
		t.Errorf("skipped %+v, want g1 redone by g2", got)
	}
	// A redo naming a decided game is inconsistent, whichever arrives first.
	err = st.Apply([]Game{{ID: "g4", Date: d.AddDate(0, 0, 1), Sente: "a", Gote: "b", Outcome: SenteWin, Confirmed: true, RedoOf: "g3"}})
	if err != nil {
		t.Fatal(err)
	}
	err = st.Apply([]Game{{ID: "g3", Date: d.AddDate(0, 0, 1), Sente: "a", Gote: "b", Outcome: GoteWin, Confirmed: true}})
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), `"g3"`) {
		t.Errorf("decided game g3 arriving after its redo g4: err = %v, want ErrInvalid naming g3", err)
	}
}

func TestEligible_WhatCounts(t *testing.T) {
	t.Parallel()
	d := day(2026, 6, 1)
	base := Game{EventID: "e1", Date: d, Sente: "a", Gote: "b", Outcome: SenteWin, Confirmed: true}
	with := func(id string, f func(*Game)) Game { g := base; g.ID = id; f(&g); return g }
	games := []Game{
		with("ok", func(*Game) {}),
		with("pending", func(g *Game) { g.Confirmed = false }),
		with("bye", func(g *Game) { g.Forfeit = true }),       // 不戦勝
		with("komaochi", func(g *Game) { g.Handicap = true }), // 駒落ち
		with("void", func(g *Game) { g.Outcome = NoResult }),  // no result, ignored
		with("pending-void", func(g *Game) { g.Outcome = Jishogi; g.Confirmed = false }),
	}
	for _, tc := range []struct {
		name         string
		rateHandicap bool
		rated        []string
		skipped      map[string]SkipReason
	}{
		{"handicap unrated by default", false, []string{"ok"}, map[string]SkipReason{
			"pending": SkipUnconfirmed, "bye": SkipForfeit, "komaochi": SkipHandicap, "void": SkipNoResult, "pending-void": SkipUnconfirmed}},
		{"handicap rated when set", true, []string{"komaochi", "ok"}, map[string]SkipReason{
			"pending": SkipUnconfirmed, "bye": SkipForfeit, "void": SkipNoResult, "pending-void": SkipUnconfirmed}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := DefaultSettings(ModelElo)
			s.RateHandicap = tc.rateHandicap
			rated, skipped, err := Eligible(s, []string{"a", "b"}, games)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, g := range rated {
				got = append(got, g.ID)
			}
			if !reflect.DeepEqual(got, tc.rated) {
				t.Errorf("rated %v, want %v (canonical order: same date and event, so by id)", got, tc.rated)
			}
			gotSkip := map[string]SkipReason{}
			for _, s := range skipped {
				gotSkip[s.Game] = s.Reason
			}
			if !reflect.DeepEqual(gotSkip, tc.skipped) {
				t.Errorf("skipped %v, want %v", gotSkip, tc.skipped)
			}
		})
	}
}

func TestEligible_RejectsBadGames(t *testing.T) {
	t.Parallel()
	d := day(2026, 6, 1)
	ok := func(id string) Game {
		return Game{ID: id, EventID: "e1", Date: d, Sente: "a", Gote: "b", Outcome: SenteWin, Confirmed: true}
	}
	edit := func(g Game, f func(*Game)) Game { f(&g); return g }
	for _, tc := range []struct {
		name   string
		model  Model
		period PeriodRule
		games  []Game
		want   []string // each must appear in the message
	}{
		{"self game", ModelElo, "", []Game{edit(ok("g1"), func(g *Game) { g.Gote = "a" })}, []string{`"g1"`, `"a"`, "themself"}},
		{"unknown sente", ModelElo, "", []Game{edit(ok("g1"), func(g *Game) { g.Sente = "zz" })}, []string{`"g1"`, "sente", `"zz"`, "not a known player"}},
		{"empty gote", ModelElo, "", []Game{edit(ok("g1"), func(g *Game) { g.Gote = "" })}, []string{`"g1"`, "gote is empty"}},
		{"empty id", ModelElo, "", []Game{edit(ok(""), func(*Game) {})}, []string{"game #1", "id is empty"}},
		{"duplicate id", ModelElo, "", []Game{ok("g1"), ok("g1")}, []string{`"g1"`, "twice"}},
		{"no date", ModelElo, "", []Game{edit(ok("g1"), func(g *Game) { g.Date = Game{}.Date })}, []string{`"g1"`, "date"}},
		{"bad outcome", ModelElo, "", []Game{edit(ok("g1"), func(g *Game) { g.Outcome = "draw" })}, []string{`"g1"`, `"draw"`}},
		{"forfeit without winner", ModelElo, "", []Game{edit(ok("g1"), func(g *Game) { g.Forfeit, g.Outcome = true, NoResult })}, []string{`"g1"`, "forfeit"}},
		{"redo of a decided game", ModelElo, "", []Game{ok("g1"), edit(ok("g2"), func(g *Game) { g.RedoOf = "g1" })}, []string{`"g2"`, `"g1"`, "has a result"}},
		{"redo between other players", ModelElo, "", []Game{
			edit(ok("g1"), func(g *Game) { g.Outcome = Sennichite }),
			edit(ok("g2"), func(g *Game) { g.RedoOf, g.Gote = "g1", "c" })}, []string{`"g2"`, "other players"}},
		{"redo of itself", ModelElo, "", []Game{edit(ok("g1"), func(g *Game) { g.RedoOf = "g1" })}, []string{`"g1"`, "itself"}},
		{"two redos of one game", ModelElo, "", []Game{
			edit(ok("g1"), func(g *Game) { g.Outcome = Sennichite }),
			edit(ok("g2"), func(g *Game) { g.RedoOf = "g1" }),
			edit(ok("g3"), func(g *Game) { g.RedoOf = "g1" })}, []string{`"g1"`, "also replayed"}},
		{"redo cycle", ModelElo, "", []Game{
			edit(ok("g1"), func(g *Game) { g.Outcome, g.RedoOf = Sennichite, "g2" }),
			edit(ok("g2"), func(g *Game) { g.Outcome, g.RedoOf = Jishogi, "g1" })}, []string{"cycle"}},
		{"event period without event", ModelGlicko2, PeriodEvent, []Game{edit(ok("g1"), func(g *Game) { g.EventID = "" })}, []string{`"g1"`, "event_id"}},
		{"explicit period missing", ModelGlicko2, PeriodExplicit, []Game{ok("g1")}, []string{`"g1"`, "period is empty"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := DefaultSettings(tc.model)
			if tc.period != "" {
				s.Glicko2.Period = tc.period
			}
			_, _, err := Eligible(s, []string{"a", "b", "c"}, tc.games)
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("err = %v, want ErrInvalid", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("message %q does not mention %s", err, w)
				}
			}
			if _, err := Recompute(s, []string{"a", "b", "c"}, tc.games); !errors.Is(err, ErrInvalid) {
				t.Errorf("Recompute err = %v, want ErrInvalid", err)
			}
		})
	}
}

func TestSettings_Validate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		edit  func(*Settings)
		field string
	}{
		{"unknown model", func(s *Settings) { s.Model = "trueskill" }, "model"},
		{"zero K", func(s *Settings) { s.Elo.K = 0 }, "elo.k"},
		{"provisional without K", func(s *Settings) { s.Elo.ProvisionalGames = 5 }, "elo.provisional_k"},
		{"negative provisional games", func(s *Settings) { s.Elo.ProvisionalGames = -1 }, "elo.provisional_games"},
		{"NaN initial", func(s *Settings) { s.Elo.Initial = nan() }, "elo.initial"},
		{"zero tau", func(s *Settings) { s.Model = ModelGlicko2; s.Glicko2.Tau = 0 }, "glicko2.tau"},
		{"zero RD", func(s *Settings) { s.Model = ModelGlicko2; s.Glicko2.InitialRD = 0 }, "glicko2.initial_rd"},
		{"zero volatility", func(s *Settings) { s.Model = ModelGlicko2; s.Glicko2.InitialVolatility = 0 }, "glicko2.initial_volatility"},
		{"unknown period", func(s *Settings) { s.Model = ModelGlicko2; s.Glicko2.Period = "week" }, "glicko2.period"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := DefaultSettings(ModelElo)
			tc.edit(&s)
			err := s.Validate()
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.field) {
				t.Errorf("err = %v, want ErrInvalid naming %s", err, tc.field)
			}
			if _, err := NewState(s, nil); !errors.Is(err, ErrInvalid) {
				t.Errorf("NewState err = %v, want ErrInvalid", err)
			}
		})
	}
	for _, m := range []Model{ModelElo, ModelGlicko2} {
		if err := DefaultSettings(m).Validate(); err != nil {
			t.Errorf("defaults for %s: %v", m, err)
		}
	}
}

func TestNewState_RejectsBadRoster(t *testing.T) {
	t.Parallel()
	for _, roster := range [][]string{{"a", ""}, {"a", "b", "a"}} {
		if _, err := NewState(DefaultSettings(ModelElo), roster); !errors.Is(err, ErrInvalid) {
			t.Errorf("roster %q: err = %v, want ErrInvalid", roster, err)
		}
	}
}

func TestEligible_LongRedoChainIsLinear(t *testing.T) {
	t.Parallel()
	// 20,000 千日手 in a row, then a decided game: validation must not walk
	// the chain once per game.
	const n = 20000
	d := day(2026, 7, 1)
	games := make([]Game, 0, n+1)
	for i := range n + 1 {
		g := Game{ID: fmt.Sprintf("g%05d", i), Date: d, Sente: "a", Gote: "b", Outcome: Sennichite, Confirmed: true}
		if i%2 == 1 {
			g.Sente, g.Gote = "b", "a"
		}
		if i > 0 {
			g.RedoOf = fmt.Sprintf("g%05d", i-1)
		}
		if i == n {
			g.Outcome = SenteWin
		}
		games = append(games, g)
	}
	rated, skipped, err := Eligible(DefaultSettings(ModelElo), []string{"a", "b"}, games)
	if err != nil {
		t.Fatal(err)
	}
	if len(rated) != 1 || rated[0].ID != fmt.Sprintf("g%05d", n) || len(skipped) != n {
		t.Errorf("rated %d (first %v), skipped %d; want only the last game rated", len(rated), rated[0].ID, len(skipped))
	}
}
