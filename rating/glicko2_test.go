package rating

import (
	"math"
	"testing"
)

// The worked example of M. E. Glickman, "Example of the Glicko-2 system",
// Boston University (glicko.net/glicko/glicko2.pdf): a player rated 1500,
// RD 200, σ 0.06, τ 0.5, beats 1400/30 and loses to 1550/100 and 1700/300.
// Published figures (steps 5 and 8): σ' = 0.05999, μ' = −0.2069,
// φ' = 0.8722, r' = 1464.06, RD' = 151.52. The paper carries rounded
// intermediates (v = 1.7785, Δ = −0.4834 against 1.77898 and −0.48393
// unrounded) and derives r' and RD' from the rounded μ' and φ', so μ' and
// φ' are checked to half a unit in their fourth decimal, r' and RD' to
// 0.01, and σ' (0.0599960 unrounded, printed as 0.05999) to 0.00001.
var glickmanExample = struct {
	player  Glicko2Rating
	results []Glicko2Result
}{
	player: Glicko2Rating{Rating: 1500, RD: 200, Volatility: 0.06},
	results: []Glicko2Result{
		{Opponent: Glicko2Rating{Rating: 1400, RD: 30, Volatility: 0.06}, Score: 1},
		{Opponent: Glicko2Rating{Rating: 1550, RD: 100, Volatility: 0.06}, Score: 0},
		{Opponent: Glicko2Rating{Rating: 1700, RD: 300, Volatility: 0.06}, Score: 0},
	},
}

func TestGlicko2_GlickmanWorkedExample(t *testing.T) {
	t.Parallel()
	got := Glicko2Period(glickmanExample.player, glickmanExample.results, 0.5)
	near(t, "σ'", got.Volatility, 0.05999, 0.00001)
	near(t, "r'", got.Rating, 1464.06, 0.01)
	near(t, "RD'", got.RD, 151.52, 0.01)
	near(t, "μ'", (got.Rating-1500)/173.7178, -0.2069, 0.00005)
	near(t, "φ'", got.RD/173.7178, 0.8722, 0.00005)
}

// The same example through Recompute: opponents are rated against the
// player's pre-period rating, all in one period.
func TestGlicko2_GlickmanExampleThroughState(t *testing.T) {
	t.Parallel()
	s := DefaultSettings(ModelGlicko2)
	st, err := NewState(s, []string{"p", "o1", "o2", "o3"})
	if err != nil {
		t.Fatal(err)
	}
	set := func(id string, r Glicko2Rating) {
		p := st.players[id]
		p.rating, p.rd, p.vol, p.rated, p.period = r.Rating, r.RD, r.Volatility, true, monthIndex(day(2026, 3, 1))
	}
	set("p", glickmanExample.player)
	for i, r := range glickmanExample.results {
		set([]string{"o1", "o2", "o3"}[i], r.Opponent)
	}
	err = st.Apply([]Game{
		win("g1", day(2026, 4, 3), "p", "o1"),
		win("g2", day(2026, 4, 10), "o2", "p"),
		win("g3", day(2026, 4, 20), "o3", "p"),
	})
	if err != nil {
		t.Fatal(err)
	}
	r := mustRating(t, st, "p")
	near(t, "r'", r.Rating, 1464.06, 0.01)
	near(t, "RD'", r.RD, 151.52, 0.01)
	near(t, "σ'", r.Volatility, 0.05999, 0.00001)
	h := st.History("p")
	if len(h) != 3 {
		t.Fatalf("history has %d entries, want 3", len(h))
	}
	for _, e := range h {
		if e.Before != 1500 || e.RDBefore != 200 || e.After != r.Rating || e.Period != "2026-04" {
			t.Errorf("history entry %+v: want before 1500/200, after the period's rating, period 2026-04", e)
		}
	}
}

func TestGlicko2_NoGamesOnlyRDGrows(t *testing.T) {
	t.Parallel()
	// φ = 200/173.7178 = 1.1512925, σ = 0.06: √(φ² + σ²)·173.7178 =
	// √(1.3254744 + 0.0036)·173.7178 = 200.271417.
	got := Glicko2Period(Glicko2Rating{Rating: 1620, RD: 200, Volatility: 0.06}, nil, 0.5)
	if got.Rating != 1620 || got.Volatility != 0.06 {
		t.Errorf("rating or volatility changed without games: %+v", got)
	}
	near(t, "RD", got.RD, 200.271417, 1e-5)
}

func TestGlicko2_IdlePeriodsGrowRD(t *testing.T) {
	t.Parallel()
	// a and b play in January; c and d play in April. a's RD at the end of
	// April has grown for February, March and April: φ'² + 3σ'².
	st, err := Recompute(DefaultSettings(ModelGlicko2), []string{"a", "b", "c", "d"}, []Game{
		win("g1", day(2026, 1, 10), "a", "b"),
		win("g2", day(2026, 4, 10), "c", "d"),
	})
	if err != nil {
		t.Fatal(err)
	}
	h := st.History("a")
	jan := h[0].RDAfter / 173.7178
	sigma := mustRating(t, st, "a").Volatility
	want := math.Sqrt(jan*jan+3*sigma*sigma) * 173.7178
	near(t, "a's RD in April", mustRating(t, st, "a").RD, want, 1e-9)
	if mustRating(t, st, "a").RD <= h[0].RDAfter {
		t.Error("RD did not grow over idle months")
	}
	// c's RD is as of its own period, April: no idle growth.
	if got := mustRating(t, st, "c"); got.RD != st.History("c")[0].RDAfter {
		t.Errorf("c's RD %v, want its April value %v", got.RD, st.History("c")[0].RDAfter)
	}
}

func TestGlicko2_FirstPeriodFromInitialValues(t *testing.T) {
	t.Parallel()
	// Two newcomers, one game: both start at 1500/350/0.06 and move by the
	// same amount in opposite directions.
	st, err := Recompute(DefaultSettings(ModelGlicko2), []string{"a", "b"}, []Game{win("g1", day(2026, 4, 1), "a", "b")})
	if err != nil {
		t.Fatal(err)
	}
	a, b := mustRating(t, st, "a"), mustRating(t, st, "b")
	near(t, "symmetry", (a.Rating-1500)+(b.Rating-1500), 0, 1e-9)
	if a.Rating <= 1500 || a.RD >= 350 || a.RD != b.RD {
		t.Errorf("a = %+v, b = %+v: want a above 1500, equal RDs below 350", a, b)
	}
	if h := st.History("a"); h[0].Before != 1500 || h[0].RDBefore != 350 {
		t.Errorf("a's first entry %+v, want before 1500/350", h[0])
	}
}

// Step 3 of the same example prints g(φj) and E(μ, μj, φj) per opponent.
func TestGlicko2_GlickmanExampleStep3(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		rating, rd float64
		g, e       float64
	}{
		{1400, 30, 0.9955, 0.639},
		{1550, 100, 0.9531, 0.432},
		{1700, 300, 0.7242, 0.303},
	} {
		g := g2g(tc.rd / 173.7178)
		near(t, "g", g, tc.g, 0.00005)
		near(t, "E", g2e(0, (tc.rating-1500)/173.7178, g), tc.e, 0.0005)
	}
}
