package league

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// games lists every game as (round index, sente, gote).
type flatGame struct {
	round       int
	sente, gote string
}

func flatten(s Schedule) []flatGame {
	var out []flatGame
	for r, rd := range s.Rounds {
		for _, g := range rd.Games {
			out = append(out, flatGame{r, g.Sente, g.Gote})
		}
	}
	return out
}

// nth is the 0-based number of id's game in round r, and id's game count.
func nth(s Schedule, id string, r int) (int, int) {
	k, at := 0, -1
	for _, g := range flatten(s) {
		if g.sente == id || g.gote == id {
			if g.round == r {
				at = k
			}
			k++
		}
	}
	return at, k
}

func generate(t *testing.T, d Draw) Schedule {
	t.Helper()
	s, _, err := Generate(d)
	if err != nil {
		t.Fatalf("%s %s %d players seed %d: %v", d.Kind, d.Class, len(d.Players), d.Seed, err)
	}
	if bad := oracle(d, s); len(bad) > 0 {
		t.Fatalf("oracle: %v", bad)
	}
	return s
}

func masterOf(d Draw) map[string]string {
	m := map[string]string{}
	for _, p := range d.Players {
		m[p.ID] = p.Master
	}
	return m
}

func TestDefaultSettings_FollowDomain(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		kind       Kind
		class      Class
		roundRobin bool
		msNever    bool
		prev       PreviousTermPolicy
		third      bool
	}{
		{KindJunisen, ClassA, true, false, PreviousAllow, false},
		{KindJunisen, ClassB1, true, false, PreviousAllow, false},
		{KindJunisen, ClassB2, false, true, PreviousAvoid, true},
		{KindJunisen, ClassC1, false, true, PreviousAvoid, true},
		{KindJunisen, ClassC2, false, true, PreviousForbid, true},
		{KindLeague, "", true, false, PreviousAllow, false},
	} {
		s, err := DefaultSettings(tc.kind, tc.class)
		if err != nil {
			t.Fatal(err)
		}
		if s.RoundRobin != tc.roundRobin || s.MasterStudent.Never != tc.msNever || s.PreviousTerm != tc.prev || s.NoThirdConsecutive != tc.third {
			t.Errorf("%s %s: %+v", tc.kind, tc.class, s)
		}
		if s.SenteGote.MaxRun != 2 || !s.SenteGote.SplitFirstTwo || !s.SenteGote.SplitLastTwo {
			t.Errorf("%s %s: D-B2 defaults %+v", tc.kind, tc.class, s.SenteGote)
		}
		if !s.RoundRobin && s.GamesPerPlayer != 10 {
			t.Errorf("%s: %d games, DOMAIN says 10", tc.class, s.GamesPerPlayer)
		}
	}
	for _, bad := range []struct {
		k Kind
		c Class
	}{{KindJunisen, ""}, {KindLeague, ClassA}, {"cup", ""}} {
		if _, err := DefaultSettings(bad.k, bad.c); !errors.Is(err, ErrInvalid) {
			t.Errorf("%q %q: want ErrInvalid, got %v", bad.k, bad.c, err)
		}
	}
}

func TestDraw_RoundStructure_FullAndPartial(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		class          Class
		n, rounds      int
		restsPerPlayer int
	}{
		{ClassA, 10, 9, 0},   // 10 players, 9 rounds
		{ClassB1, 13, 13, 1}, // 13 rounds, one rest each
		{ClassB2, 24, 10, 0}, // even: R rounds, no rest
		{ClassC1, 35, 11, 1}, // odd: R+1 rounds, one 抜け番 each
		{ClassC2, 61, 11, 1},
	} {
		s := generate(t, classDraw(t, tc.class, tc.n, 9))
		if len(s.Rounds) != tc.rounds {
			t.Errorf("%s %d: %d rounds, want %d", tc.class, tc.n, len(s.Rounds), tc.rounds)
		}
		rests := map[string]int{}
		for _, rd := range s.Rounds {
			for _, id := range rd.Rests {
				rests[id]++
			}
		}
		for i := 1; i <= tc.n; i++ {
			if got := rests[fmt.Sprintf("p%02d", i)]; got != tc.restsPerPlayer {
				t.Errorf("%s: p%02d rests %d times, want %d", tc.class, i, got, tc.restsPerPlayer)
			}
		}
	}
}

func TestDraw_D_A2_NoMasterStudentBelowB1(t *testing.T) {
	t.Parallel()
	for _, c := range []Class{ClassB2, ClassC1, ClassC2} {
		d := c2Draw(3)
		d.Class = c
		d.Settings, _ = DefaultSettings(KindJunisen, c)
		m := masterOf(d)
		s := generate(t, d)
		for _, g := range flatten(s) {
			if m[g.sente] == g.gote || m[g.gote] == g.sente {
				t.Errorf("%s: 師弟 %s–%s in round %d", c, g.sente, g.gote, g.round+1)
			}
		}
	}
}

// TestDraw_D_A3_MasterStudentInTheMiddle: A and B1 師弟 games are never a
// player's first game nor one of their last three.
func TestDraw_D_A3_MasterStudentInTheMiddle(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		c Class
		n int
	}{{ClassA, 10}, {ClassB1, 13}} {
		for seed := uint64(0); seed < 20; seed++ {
			d := classDraw(t, tc.c, tc.n, seed)
			m := masterOf(d)
			s := generate(t, d)
			found := 0
			for _, g := range flatten(s) {
				if m[g.sente] != g.gote && m[g.gote] != g.sente {
					continue
				}
				found++
				for _, id := range []string{g.sente, g.gote} {
					k, n := nth(s, id, g.round)
					if k == 0 || k >= n-3 {
						t.Errorf("%s seed %d: 師弟 %s–%s is %s's game %d of %d", tc.c, seed, g.sente, g.gote, id, k+1, n)
					}
				}
			}
			if found == 0 {
				t.Fatalf("%s: the class has no 師弟 game to test", tc.c)
			}
		}
	}
}

// TestDraw_D_A3_WindowIsASetting: a custom window (not the first two, not
// the last two) is respected.
func TestDraw_D_A3_WindowIsASetting(t *testing.T) {
	t.Parallel()
	d := classDraw(t, ClassA, 10, 1)
	d.Settings.MasterStudent = PairRule{NotFirst: 2, NotLast: 2}
	m := masterOf(d)
	s := generate(t, d)
	for _, g := range flatten(s) {
		if m[g.sente] == g.gote || m[g.gote] == g.sente {
			for _, id := range []string{g.sente, g.gote} {
				if k, n := nth(s, id, g.round); k < 2 || k >= n-2 {
					t.Errorf("師弟 %s–%s is %s's game %d of %d", g.sente, g.gote, id, k+1, n)
				}
			}
		}
	}
}

func TestDraw_D_A4_NoFellowDisciplesInFinalRound(t *testing.T) {
	t.Parallel()
	for _, c := range []Class{ClassA, ClassB1, ClassB2, ClassC1, ClassC2} {
		n := map[Class]int{ClassA: 10, ClassB1: 13, ClassB2: 26, ClassC1: 33, ClassC2: 61}[c]
		d := classDraw(t, c, n, 2)
		// Switch off the practice window so only D-A4 keeps them apart.
		d.Settings.FellowDisciples = PairRule{NotFinalRound: true}
		m := masterOf(d)
		s := generate(t, d)
		last := len(s.Rounds) - 1
		for _, g := range s.Rounds[last].Games {
			if m[g.Sente] != "" && m[g.Sente] == m[g.Gote] {
				t.Errorf("%s: 兄弟弟子 %s–%s in the final round", c, g.Sente, g.Gote)
			}
		}
	}
}

func TestDraw_D_A5_OtherLeagueNoMasterStudentInFinalRound(t *testing.T) {
	t.Parallel()
	players := []Player{{ID: "a"}, {ID: "b", Master: "a"}, {ID: "c", Master: "a"}, {ID: "d"}, {ID: "e", Master: "d"}, {ID: "f"}, {ID: "g", Master: "f"}}
	for seed := uint64(0); seed < 30; seed++ {
		d, err := NewDraw(KindLeague, "", seed, players)
		if err != nil {
			t.Fatal(err)
		}
		s := generate(t, d)
		if len(s.Rounds) != 7 {
			t.Fatalf("7-player league: %d rounds", len(s.Rounds))
		}
		m := masterOf(d)
		for _, g := range s.Rounds[6].Games {
			if m[g.Sente] == g.Gote || m[g.Gote] == g.Sente {
				t.Errorf("seed %d: 師弟 %s–%s in the final round", seed, g.Sente, g.Gote)
			}
		}
	}
}

func TestDraw_D_B1_FinalRoundOnOneDay(t *testing.T) {
	t.Parallel()
	d := classDraw(t, ClassB2, 30, 5)
	day := time.Date(2026, 6, 2, 0, 0, 0, 0, time.UTC)
	for r := 0; r < 10; r++ {
		ds := []time.Time{day.AddDate(0, 0, 14*r)}
		if r < 9 {
			ds = append(ds, day.AddDate(0, 0, 14*r+1), day.AddDate(0, 0, 14*r+2))
		}
		d.Dates = append(d.Dates, ds)
	}
	s := generate(t, d)
	final := s.Rounds[9]
	for _, g := range final.Games {
		if !g.Date.Equal(day.AddDate(0, 0, 126)) {
			t.Errorf("final-round game %s–%s on %v", g.Sente, g.Gote, g.Date)
		}
	}
	spread := map[time.Time]bool{}
	for _, g := range s.Rounds[0].Games {
		spread[g.Date] = true
	}
	if len(spread) != 3 {
		t.Errorf("round 1 games use %d of its 3 dates", len(spread))
	}
	d.Dates[9] = append(d.Dates[9], day)
	if _, _, err := Generate(d); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "D-B1") {
		t.Errorf("two dates for the final round: want ErrInvalid citing D-B1, got %v", err)
	}
}

// TestDraw_D_B2_SenteGotePlan: 10 games → 5/5, 9 → 4/5 or 5/4, never
// three in a row (over the player's own games, rests skipped), games 1–2
// and the last two split.
func TestDraw_D_B2_SenteGotePlan(t *testing.T) {
	t.Parallel()
	for _, d := range []Draw{classDraw(t, ClassA, 10, 8), classDraw(t, ClassC2, 41, 8), classDraw(t, ClassB1, 13, 8)} {
		s := generate(t, d)
		seq := map[string][]bool{}
		for _, g := range flatten(s) {
			seq[g.sente] = append(seq[g.sente], true)
			seq[g.gote] = append(seq[g.gote], false)
		}
		for id, xs := range seq {
			sente := 0
			for k, x := range xs {
				if x {
					sente++
				}
				if k >= 2 && xs[k-1] == x && xs[k-2] == x {
					t.Errorf("%s %s: three on one side ending at game %d", d.Class, id, k+1)
				}
			}
			if g := len(xs); sente != g/2 && sente != (g+1)/2 {
				t.Errorf("%s %s: %d sente in %d games", d.Class, id, sente, g)
			}
			if xs[0] == xs[1] || xs[len(xs)-1] == xs[len(xs)-2] {
				t.Errorf("%s %s: first or last two not split: %v", d.Class, id, xs)
			}
		}
	}
}

func TestDraw_D_C1_NeverThreeTermsRunning(t *testing.T) {
	t.Parallel()
	d := c2Draw(4)
	d.Class = ClassB2
	d.Settings, _ = DefaultSettings(KindJunisen, ClassB2)
	both := map[Pair]bool{}
	older := map[Pair]bool{}
	for _, p := range d.PreviousTerms[1] {
		older[normPair(p[0], p[1])] = true
	}
	for _, p := range d.PreviousTerms[0] {
		if older[normPair(p[0], p[1])] {
			both[normPair(p[0], p[1])] = true
		}
	}
	if len(both) == 0 {
		t.Fatal("test data has no pair that met in both terms")
	}
	s := generate(t, d)
	for _, g := range flatten(s) {
		if both[normPair(g.sente, g.gote)] {
			t.Errorf("%s–%s meet a third term running", g.sente, g.gote)
		}
	}
}

// TestDraw_D_C1_PreviousOpponentsOnlyWhenNeeded: with room, no rematch;
// when p01 met all but 7 classmates last term and plays 10, exactly three
// of last term's opponents are needed (all for p01), and no more are used.
func TestDraw_D_C1_PreviousOpponentsOnlyWhenNeeded(t *testing.T) {
	t.Parallel()
	d := classDraw(t, ClassC1, 24, 6)
	for i := 2; i <= 24; i++ {
		d.Players[i-1].Master = ""
	}
	for i := 2; i <= 17; i++ { // p01 met p02..p17: 16 of 23
		d.PreviousTerms = append(d.PreviousTerms, nil)
		d.PreviousTerms[0] = append(d.PreviousTerms[0], Pair{"p01", fmt.Sprintf("p%02d", i)})
	}
	d.PreviousTerms = d.PreviousTerms[:1]
	for seed := uint64(0); seed < 10; seed++ {
		d.Seed = seed
		s, rep, err := Generate(d)
		if err != nil {
			t.Fatal(err)
		}
		if bad := oracle(d, s); len(bad) > 0 {
			t.Fatal(bad)
		}
		if got := rematches(d, s); got != 3 {
			t.Errorf("seed %d: %d rematches, the fewest possible is 3", seed, got)
		}
		if rep.RematchLowerBound != 3 {
			t.Errorf("lower bound %d, want 3", rep.RematchLowerBound)
		}
	}
	d2 := c2Draw(11)
	d2.Class = ClassC1
	d2.Settings, _ = DefaultSettings(KindJunisen, ClassC1)
	if s := generate(t, d2); rematches(d2, s) != 0 {
		t.Errorf("a roomy C1 class got %d rematches", rematches(d2, s))
	}
}

func TestDraw_D_C2_NoOpponentFromLastTerm(t *testing.T) {
	t.Parallel()
	for seed := uint64(0); seed < 10; seed++ {
		d := c2Draw(seed)
		s := generate(t, d)
		if got := rematches(d, s); got != 0 {
			t.Errorf("seed %d: %d games against last term's opponents", seed, got)
		}
	}
}

// TestDraw_NoSchedule_NamesRulesAndPlayers: p01 in C2 met 20 of 25
// classmates last term, leaving 5 for 10 games.
func TestDraw_NoSchedule_NamesRulesAndPlayers(t *testing.T) {
	t.Parallel()
	d := classDraw(t, ClassC2, 26, 1)
	var last []Pair
	for i := 2; i <= 21; i++ {
		last = append(last, Pair{"p01", fmt.Sprintf("p%02d", i)})
	}
	d.PreviousTerms = [][]Pair{last}
	_, _, err := Generate(d)
	var none *NoScheduleError
	if !errors.As(err, &none) || !none.Proven {
		t.Fatalf("want a proven NoScheduleError, got %v", err)
	}
	c := none.Conflicts[0]
	if c.Rule != RulePreviousForbid || c.Players[0] != "p01" || !slices.Contains(c.Players, "p21") {
		t.Errorf("conflict %+v should name D-C2, p01 and the opponents it rules out", c)
	}
}

func TestDraw_Practice_PreviousFinalPairNotInRoundOne(t *testing.T) {
	t.Parallel()
	d := classDraw(t, ClassB1, 13, 0)
	for seed := uint64(0); seed < 20; seed++ {
		d.Seed = seed
		// Last term's final round: every 1st round pair of this draw
		// without the rule, so the rule has something to move.
		free := d
		free.Settings.PreviousFinalNotRoundOne = false
		s0 := generate(t, free)
		d.PreviousFinalRound = nil
		for _, g := range s0.Rounds[0].Games {
			d.PreviousFinalRound = append(d.PreviousFinalRound, Pair{g.Gote, g.Sente})
		}
		s := generate(t, d)
		banned := map[Pair]bool{}
		for _, p := range d.PreviousFinalRound {
			banned[normPair(p[0], p[1])] = true
		}
		for _, g := range s.Rounds[0].Games {
			if banned[normPair(g.Sente, g.Gote)] {
				t.Errorf("seed %d: %s–%s met in last term's final round and again in round 1", seed, g.Sente, g.Gote)
			}
		}
	}
}

func TestDraw_Practice_RelativesNeverInB2(t *testing.T) {
	t.Parallel()
	d := classDraw(t, ClassB2, 24, 3)
	for i := 1; i < 24; i += 2 {
		d.Relatives = append(d.Relatives, Pair{fmt.Sprintf("p%02d", i), fmt.Sprintf("p%02d", i+1)})
	}
	rel := map[Pair]bool{}
	for _, p := range d.Relatives {
		rel[normPair(p[0], p[1])] = true
	}
	for _, g := range flatten(generate(t, d)) {
		if rel[normPair(g.sente, g.gote)] {
			t.Errorf("relatives %s–%s meet", g.sente, g.gote)
		}
	}
}

// TestCheck_FindsEachBrokenRule changes the lineage or history under a
// valid schedule, or the schedule itself, and expects both Check and the
// tests' oracle to object, naming the rule.
func TestCheck_FindsEachBrokenRule(t *testing.T) {
	t.Parallel()
	base := classDraw(t, ClassC2, 30, 12)
	base.Dates = nil
	s := generate(t, base)
	final := s.Rounds[len(s.Rounds)-1].Games[0]
	first := s.Rounds[0].Games[0]
	clone := func(s Schedule) Schedule {
		out := Schedule{}
		for _, r := range s.Rounds {
			r.Games = slices.Clone(r.Games)
			r.Rests = slices.Clone(r.Rests)
			out.Rounds = append(out.Rounds, r)
		}
		return out
	}
	for _, tc := range []struct {
		name string
		rule string
		edit func(d *Draw, s *Schedule)
	}{
		{"master-student in C2", RuleNoMasterStudent, func(d *Draw, s *Schedule) {
			for i := range d.Players {
				if d.Players[i].ID == first.Gote {
					d.Players[i].Master = first.Sente
				}
			}
		}},
		{"fellow disciples in the final round", RuleFellowFinalRound, func(d *Draw, s *Schedule) {
			for i := range d.Players {
				if id := d.Players[i].ID; id == final.Sente || id == final.Gote {
					d.Players[i].Master = "newmaster"
				}
			}
		}},
		{"last term's opponent in C2", RulePreviousForbid, func(d *Draw, s *Schedule) {
			d.PreviousTerms = [][]Pair{{{first.Sente, first.Gote}}}
		}},
		{"third term running in C1", RuleThirdTerm, func(d *Draw, s *Schedule) {
			d.Class = ClassC1
			d.Settings, _ = DefaultSettings(KindJunisen, ClassC1)
			d.PreviousTerms = [][]Pair{{{first.Sente, first.Gote}}, {{first.Gote, first.Sente}}}
		}},
		{"final round on two days", RuleFinalRoundOneDay, func(d *Draw, s *Schedule) {
			s.Rounds[len(s.Rounds)-1].Games[1].Date = time.Date(2027, 3, 1, 0, 0, 0, 0, time.UTC)
		}},
		{"sides swapped", RuleSenteGoteSplit, func(d *Draw, s *Schedule) {
			g := &s.Rounds[0].Games[0]
			g.Sente, g.Gote = g.Gote, g.Sente
		}},
		{"a game played twice", RuleStructure, func(d *Draw, s *Schedule) {
			s.Rounds[1].Games = append(s.Rounds[1].Games, first)
		}},
	} {
		d := base
		d.Players = slices.Clone(base.Players)
		ss := clone(s)
		tc.edit(&d, &ss)
		rep, err := Check(d, ss)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !slices.ContainsFunc(rep.Violations, func(v Violation) bool { return v.Rule == tc.rule }) {
			t.Errorf("%s: Check missed %s: %+v", tc.name, tc.rule, rep.Violations)
		}
		if len(oracle(d, ss)) == 0 {
			t.Errorf("%s: the oracle missed it", tc.name)
		}
	}
	rep, err := Check(base, s)
	if err != nil || len(rep.Violations) != 0 {
		t.Errorf("the untouched schedule: %v %+v", err, rep.Violations)
	}
}

// TestCheck_AgreesWithOracle mutates drawn schedules at random (sides
// flipped, opponents exchanged within a round, rounds swapped) and expects
// Check and the tests' oracle to agree on whether a rule is broken.
// Slow under -race (~20 s; 2 s plain): every mutation is judged twice.
func TestCheck_AgreesWithOracle(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 5))
	broken, agreed := 0, 0
	for i := 0; i < 300; i++ {
		d := randomDraw(rng, uint64(i))
		s, _, err := Generate(d)
		if err != nil {
			continue
		}
		for k := 0; k < 1+rng.IntN(3); k++ {
			r := rng.IntN(len(s.Rounds))
			gs := s.Rounds[r].Games
			switch rng.IntN(3) {
			case 0:
				g := &gs[rng.IntN(len(gs))]
				g.Sente, g.Gote = g.Gote, g.Sente
			case 1:
				if len(gs) >= 2 {
					a, b := rng.IntN(len(gs)), rng.IntN(len(gs))
					gs[a].Gote, gs[b].Gote = gs[b].Gote, gs[a].Gote
				}
			default:
				q := rng.IntN(len(s.Rounds))
				s.Rounds[r].Games, s.Rounds[q].Games = s.Rounds[q].Games, s.Rounds[r].Games
				s.Rounds[r].Rests, s.Rounds[q].Rests = s.Rounds[q].Rests, s.Rounds[r].Rests
			}
		}
		rep, err := Check(d, s)
		if err != nil {
			t.Fatal(err)
		}
		bad := oracle(d, s)
		if (len(rep.Violations) > 0) != (len(bad) > 0) {
			t.Errorf("%s %s %d players seed %d: Check %+v, oracle %v", d.Kind, d.Class, len(d.Players), d.Seed, rep.Violations, bad)
		}
		agreed++
		if len(bad) > 0 {
			broken++
		}
	}
	t.Logf("%d of %d mutated schedules break a rule", broken, agreed)
	if broken == 0 || broken == agreed {
		t.Errorf("mutations broke %d of %d schedules: the test does not discriminate", broken, agreed)
	}
}
