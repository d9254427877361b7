package rating

import (
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

type modelCase struct {
	name     string
	settings Settings
	spec     histSpec
	// mayReorder: per-event periods can interleave, so Apply may answer
	// ErrOutOfOrder and the caller recomputes.
	mayReorder bool
}

func modelCases() []modelCase {
	glickoMonth := DefaultSettings(ModelGlicko2)
	glickoEvent := DefaultSettings(ModelGlicko2)
	glickoEvent.Glicko2.Period = PeriodEvent
	glickoQuarter := DefaultSettings(ModelGlicko2)
	glickoQuarter.Glicko2.Period = PeriodExplicit
	glickoQuarter.Glicko2.Tau = 0.3
	eloProv := DefaultSettings(ModelElo)
	eloProv.Elo.ProvisionalGames, eloProv.Elo.ProvisionalK = 5, 48
	eloHandicap := DefaultSettings(ModelElo)
	eloHandicap.RateHandicap = true
	spec := histSpec{players: 30, games: 400, days: 400, noise: true}
	seq := spec
	seq.sequentialEvents = true
	return []modelCase{
		{"elo", DefaultSettings(ModelElo), spec, false},
		{"elo provisional", eloProv, spec, false},
		{"elo handicap rated", eloHandicap, spec, false},
		{"glicko2 month", glickoMonth, spec, false},
		{"glicko2 event sequential", glickoEvent, seq, false},
		{"glicko2 explicit quarters", glickoQuarter, spec, false},
		{"glicko2 event interleaved", glickoEvent, spec, true},
	}
}

func recompute(t *testing.T, s Settings, n int, games []Game) *State {
	t.Helper()
	st, err := Recompute(s, ids(n), games)
	if err != nil {
		t.Fatalf("Recompute: %v", err)
	}
	return st
}

func TestRecompute_ShuffledInputSameResult(t *testing.T) {
	t.Parallel()
	for _, mc := range modelCases() {
		t.Run(mc.name, func(t *testing.T) {
			for seed := range uint64(5) {
				rng := rand.New(rand.NewPCG(seed, 1))
				games := randomHistory(rng, mc.spec)
				want := recompute(t, mc.settings, mc.spec.players, games).Report()
				for range 3 {
					rng.Shuffle(len(games), func(i, j int) { games[i], games[j] = games[j], games[i] })
					if got := recompute(t, mc.settings, mc.spec.players, games).Report(); !reflect.DeepEqual(got, want) {
						t.Fatalf("seed %d: shuffled input gives a different report", seed)
					}
				}
			}
		})
	}
}

// applyInBatches applies games cut at the given points (canonical order),
// each batch shuffled; on ErrOutOfOrder it recomputes as a caller would.
func applyInBatches(t *testing.T, rng *rand.Rand, mc modelCase, sorted []Game, cuts []int) (*State, int) {
	t.Helper()
	st, err := NewState(mc.settings, ids(mc.spec.players))
	if err != nil {
		t.Fatal(err)
	}
	reordered, from := 0, 0
	for _, to := range append(cuts, len(sorted)) {
		batch := slices.Clone(sorted[from:to])
		rng.Shuffle(len(batch), func(i, j int) { batch[i], batch[j] = batch[j], batch[i] })
		before := st.Report()
		err := st.Apply(batch)
		switch {
		case err == nil:
		case errors.Is(err, ErrOutOfOrder) && mc.mayReorder:
			if !reflect.DeepEqual(st.Report(), before) {
				t.Fatalf("a rejected batch changed the state")
			}
			reordered++
			st = recompute(t, mc.settings, mc.spec.players, sorted[:to])
		default:
			t.Fatalf("Apply(games %d..%d): %v", from, to, err)
		}
		from = to
	}
	return st, reordered
}

func TestApply_BatchesEqualRecompute(t *testing.T) {
	t.Parallel()
	for _, mc := range modelCases() {
		t.Run(mc.name, func(t *testing.T) {
			for seed := range uint64(8) {
				rng := rand.New(rand.NewPCG(seed, 2))
				games := randomHistory(rng, mc.spec)
				want := recompute(t, mc.settings, mc.spec.players, games).Report()
				sorted := slices.Clone(games)
				slices.SortFunc(sorted, CompareGames)
				// One random split, then several.
				splits := [][]int{{rng.IntN(len(sorted) + 1)}}
				var many []int
				for range 1 + rng.IntN(12) {
					many = append(many, rng.IntN(len(sorted)+1))
				}
				slices.Sort(many)
				splits = append(splits, many)
				for _, cuts := range splits {
					st, _ := applyInBatches(t, rng, mc, sorted, cuts)
					if got := st.Report(); !reflect.DeepEqual(got, want) {
						t.Fatalf("seed %d cuts %v: incremental result differs from recompute", seed, cuts)
					}
				}
			}
		})
	}
}

func TestApply_GameByGameEqualsRecompute(t *testing.T) {
	t.Parallel()
	for _, mc := range modelCases() {
		t.Run(mc.name, func(t *testing.T) {
			spec := mc.spec
			spec.games = 150
			mc.spec = spec
			rng := rand.New(rand.NewPCG(7, 3))
			games := randomHistory(rng, spec)
			want := recompute(t, mc.settings, spec.players, games).Report()
			sorted := slices.Clone(games)
			slices.SortFunc(sorted, CompareGames)
			var cuts []int
			for i := 1; i < len(sorted); i++ {
				cuts = append(cuts, i)
			}
			st, reordered := applyInBatches(t, rng, mc, sorted, cuts)
			if got := st.Report(); !reflect.DeepEqual(got, want) {
				t.Fatal("game-by-game result differs from recompute")
			}
			if !mc.mayReorder && reordered > 0 {
				t.Errorf("%d batches were refused as out of order", reordered)
			}
			if mc.mayReorder && reordered == 0 {
				t.Error("overlapping events never reopened a closed period; the fallback path went untested")
			}
		})
	}
}

func TestApply_OutOfOrderRejectedStateUnchanged(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		s     Settings
		first []Game
		late  Game
	}{
		{"elo: before the last rated game", DefaultSettings(ModelElo),
			[]Game{win("g1", day(2026, 4, 1), "a", "b"), win("g2", day(2026, 4, 9), "b", "a")},
			win("g0", day(2026, 4, 5), "a", "b")},
		{"glicko2: into a closed month", DefaultSettings(ModelGlicko2),
			[]Game{win("g1", day(2026, 4, 1), "a", "b"), win("g2", day(2026, 5, 9), "b", "a")},
			win("g0", day(2026, 4, 20), "a", "b")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := recompute(t, tc.s, 0, nil)
			if err := st.AddPlayers([]string{"a", "b"}); err != nil {
				t.Fatal(err)
			}
			if err := st.Apply(tc.first); err != nil {
				t.Fatal(err)
			}
			before := st.Report()
			if err := st.Apply([]Game{tc.late}); !errors.Is(err, ErrOutOfOrder) {
				t.Fatalf("err = %v, want ErrOutOfOrder", err)
			}
			if !reflect.DeepEqual(st.Report(), before) {
				t.Error("a rejected batch changed the state")
			}
			// A skipped game (unconfirmed) may arrive late: it changes no rating.
			late := tc.late
			late.Confirmed = false
			if err := st.Apply([]Game{late}); err != nil {
				t.Errorf("late unconfirmed game: %v", err)
			}
		})
	}
}

func TestApply_GlickoReopensOpenPeriod(t *testing.T) {
	t.Parallel()
	// A game added to the current month re-rates the month from its start:
	// the result equals rating the whole month at once.
	games := []Game{
		win("g1", day(2026, 4, 1), "a", "b"),
		win("g2", day(2026, 4, 5), "b", "c"),
		win("g3", day(2026, 4, 9), "c", "a"),
	}
	all := recompute(t, DefaultSettings(ModelGlicko2), 0, nil)
	_ = all.AddPlayers([]string{"a", "b", "c"})
	if err := all.Apply(games); err != nil {
		t.Fatal(err)
	}
	inc := recompute(t, DefaultSettings(ModelGlicko2), 0, nil)
	_ = inc.AddPlayers([]string{"a", "b", "c"})
	for _, g := range games {
		if err := inc.Apply([]Game{g}); err != nil {
			t.Fatal(err)
		}
	}
	if !reflect.DeepEqual(inc.Report(), all.Report()) {
		t.Fatal("adding games one at a time to an open period differs from rating it at once")
	}
	// Every April entry of a player shares the pre-period rating.
	for _, e := range inc.History("a") {
		if e.Before != 1500 || e.RDBefore != 350 {
			t.Errorf("entry %+v: want the period's starting 1500/350", e)
		}
	}
}

func TestClone_IsIndependent(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(11, 4))
	spec := histSpec{players: 12, games: 200, days: 90, noise: true}
	games := randomHistory(rng, spec)
	slices.SortFunc(games, CompareGames)
	for _, m := range []Model{ModelElo, ModelGlicko2} {
		st := recompute(t, DefaultSettings(m), spec.players, games[:150])
		want := st.Report()
		c := st.Clone()
		if err := c.Apply(games[150:]); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(st.Report(), want) {
			t.Errorf("%s: applying to a clone changed the original", m)
		}
		if err := st.Apply(games[150:]); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(st.Report(), c.Report()) {
			t.Errorf("%s: clone and original differ after the same games", m)
		}
	}
}

// Properties checked from the input alone, not from the generator.
func TestRecompute_Invariants(t *testing.T) {
	t.Parallel()
	for _, mc := range modelCases() {
		t.Run(mc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(5, 5))
			games := randomHistory(rng, mc.spec)
			st := recompute(t, mc.settings, mc.spec.players, games)
			checkInvariants(t, mc.settings, games, st)
		})
	}
}

func checkInvariants(t *testing.T, s Settings, games []Game, st *State) {
	t.Helper()
	// Rated: confirmed, decided, not a forfeit, handicap only if allowed.
	want := map[string]int{}
	for _, g := range games {
		if g.Confirmed && g.Outcome.Decisive() && !g.Forfeit && (!g.Handicap || s.RateHandicap) {
			want[g.Sente]++
			want[g.Gote]++
		}
	}
	// Periods per event may overlap in time; then a history follows the
	// periods, not the calendar.
	calendar := s.Model == ModelElo || s.Glicko2.Period == PeriodMonth
	sum := 0.0
	for _, r := range st.Ratings() {
		sum += r.Rating
		if r.Games != want[r.Player] || r.Wins+r.Losses != r.Games {
			t.Errorf("%s: %d games (%d–%d), want %d", r.Player, r.Games, r.Wins, r.Losses, want[r.Player])
		}
		if !finite(r.Rating) || (s.Model == ModelGlicko2 && (!(r.RD > 0) || !finite(r.RD) || !(r.Volatility > 0))) {
			t.Errorf("%s: not a usable rating: %+v", r.Player, r)
		}
		h := st.History(r.Player)
		if len(h) != r.Games {
			t.Errorf("%s: %d history entries for %d games", r.Player, len(h), r.Games)
		}
		for i := 1; i < len(h); i++ {
			if calendar && h[i].Date.Before(h[i-1].Date) {
				t.Errorf("%s: history goes back in time at %s", r.Player, h[i].Game)
			}
			samePeriod := s.Model == ModelGlicko2 && h[i].Period == h[i-1].Period
			if samePeriod && (h[i].Before != h[i-1].Before || h[i].After != h[i-1].After) {
				t.Errorf("%s: games %s and %s of one period disagree on before/after", r.Player, h[i-1].Game, h[i].Game)
			}
			if !samePeriod && h[i].Before != h[i-1].After {
				t.Errorf("%s: game %s starts at %v, the previous ended at %v", r.Player, h[i].Game, h[i].Before, h[i-1].After)
			}
		}
		if n := len(h); n > 0 && h[n-1].After != r.Rating {
			t.Errorf("%s: last entry ends at %v, rating is %v", r.Player, h[n-1].After, r.Rating)
		}
	}
	// Elo with one K for everybody moves points from loser to winner.
	if s.Model == ModelElo && s.Elo.ProvisionalGames == 0 {
		n := float64(len(st.Ratings()))
		if math.Abs(sum-n*s.Elo.Initial) > 1e-6 {
			t.Errorf("Elo ratings sum to %v, want %v", sum, n*s.Elo.Initial)
		}
	}
}
