package league

import (
	"errors"
	"reflect"
	"testing"
	"time"
)

var zero time.Time

func sched(rounds ...[]Game) Schedule {
	s := Schedule{}
	for r, gs := range rounds {
		s.Rounds = append(s.Rounds, Round{Number: r + 1, Games: gs})
	}
	return s
}

// TestStandings_RestsAndRedos: a rest is neither a win nor a loss; a
// 千日手 game has no result and only the deciding redo counts (D-R3).
func TestStandings_RestsAndRedos(t *testing.T) {
	t.Parallel()
	s := sched(
		[]Game{{Sente: "a", Gote: "b"}},
		[]Game{{Sente: "c", Gote: "a"}},
		[]Game{{Sente: "b", Gote: "c"}},
	)
	s.Rounds[0].Rests = []string{"c"}
	s.Rounds[1].Rests = []string{"b"}
	s.Rounds[2].Rests = []string{"a"}
	results := []Result{
		{Round: 1, Sente: "a", Gote: "b"},              // 千日手
		{Round: 1, Sente: "b", Gote: "a", Winner: "b"}, // redo, sides swapped
		{Round: 2, Sente: "c", Gote: "a", Winner: "a"},
	}
	tab, err := Standings(Term{Class: ClassB1, Players: []string{"a", "b", "c"}, Schedule: s, Results: results})
	if err != nil {
		t.Fatal(err)
	}
	want := []Row{
		{Place: 1, ID: "b", Junni: 2, Wins: 1, Losses: 0, Rests: 1, Unplayed: 1, Outcome: OutcomeStays},
		{Place: 2, ID: "a", Junni: 1, Wins: 1, Losses: 1, Rests: 1, Unplayed: 0, Outcome: OutcomeStays},
		{Place: 3, ID: "c", Junni: 3, Wins: 0, Losses: 1, Rests: 1, Unplayed: 1, Outcome: OutcomeStays},
	}
	if !reflect.DeepEqual(tab.Rows, want) {
		t.Errorf("rows\n got %+v\nwant %+v", tab.Rows, want)
	}
	if tab.Final {
		t.Error("round 3 is unplayed, the table cannot be final")
	}
}

func TestStandings_BadResults(t *testing.T) {
	t.Parallel()
	s := sched([]Game{{Sente: "a", Gote: "b"}})
	players := []string{"a", "b"}
	for name, rs := range map[string][]Result{
		"not scheduled":  {{Round: 2, Sente: "a", Gote: "b", Winner: "a"}},
		"winner outside": {{Round: 1, Sente: "a", Gote: "b", Winner: "z"}},
		"decided twice":  {{Round: 1, Sente: "a", Gote: "b", Winner: "a"}, {Round: 1, Sente: "b", Gote: "a", Winner: "b"}},
	} {
		if _, err := Standings(Term{Players: players, Schedule: s, Results: rs}); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: want ErrInvalid, got %v", name, err)
		}
	}
}

// roundRobinResults plays a round robin in which the player listed earlier
// in strength always wins, except for the upsets given.
func roundRobinResults(s Schedule, strength []string, upsets map[Pair]bool) []Result {
	rank := map[string]int{}
	for i, id := range strength {
		rank[id] = i
	}
	var out []Result
	for r, rd := range s.Rounds {
		for _, g := range rd.Games {
			w, l := g.Sente, g.Gote
			if rank[l] < rank[w] {
				w, l = l, w
			}
			if upsets[Pair{w, l}] {
				w = l
			}
			out = append(out, Result{Round: r + 1, Sente: g.Sente, Gote: g.Gote, Winner: w})
		}
	}
	return out
}

func aClass(t *testing.T) (Draw, Schedule) {
	t.Helper()
	d := classDraw(t, ClassA, 10, 11)
	s, _, err := Generate(d)
	if err != nil {
		t.Fatal(err)
	}
	return d, s
}

func ids(d Draw) []string {
	out := make([]string, len(d.Players))
	for i, p := range d.Players {
		out[i] = p.ID
	}
	return out
}

// TestStandings_AClassChallengerAndDemotion: A class, top is the
// challenger and the bottom two go down (DOMAIN.md defaults).
func TestStandings_AClassChallengerAndDemotion(t *testing.T) {
	t.Parallel()
	d, s := aClass(t)
	strength := []string{"p07", "p02", "p10", "p01", "p03", "p04", "p05", "p06", "p08", "p09"}
	rules, _ := DefaultClassRules(ClassA)
	tab, err := Standings(Term{Class: ClassA, Players: ids(d), Schedule: s, Results: roundRobinResults(s, strength, nil), Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	if !tab.Final {
		t.Fatal("every game has a result")
	}
	for i, r := range tab.Rows {
		if r.ID != strength[i] || r.Wins != 9-i || r.Losses != i {
			t.Fatalf("place %d: got %s %d-%d, want %s %d-%d", i+1, r.ID, r.Wins, r.Losses, strength[i], 9-i, i)
		}
	}
	want := map[string]Outcome{"p07": OutcomeChallenger, "p08": OutcomeDemoted, "p09": OutcomeDemoted, "p02": OutcomeStays, "p06": OutcomeStays}
	for _, r := range tab.Rows {
		if w, ok := want[r.ID]; ok && r.Outcome != w {
			t.Errorf("%s: %s, want %s", r.ID, r.Outcome, w)
		}
	}
}

// TestStandings_AClassTieGoesToStepladder: three players tied on 7-2 for
// the top → パラマス in 順位 order.
func TestStandings_AClassTieGoesToStepladder(t *testing.T) {
	t.Parallel()
	d, s := aClass(t)
	// Strength alone gives p09 9-0, p05 8-1, p02 7-2, p01 6-3, p03 5-4,
	// p04 4-5. The upsets (winner listed first in each pair loses):
	//   p09 loses to p05 and p02          → p09 7-2
	//   p05 beats p09, loses to p02, p01  → p05 7-2
	//   p02 beats p09, p05, loses to p03, p04 → p02 7-2
	//   p01 beats p05, loses to p06       → p01 6-3
	// so p09, p05 and p02 tie for the top on 7-2.
	strength := []string{"p09", "p05", "p02", "p01", "p03", "p04", "p06", "p07", "p08", "p10"}
	upsets := map[Pair]bool{
		{"p09", "p05"}: true, {"p09", "p02"}: true, {"p05", "p02"}: true, {"p05", "p01"}: true,
		{"p02", "p03"}: true, {"p02", "p04"}: true, {"p01", "p06"}: true,
	}
	rules, _ := DefaultClassRules(ClassA)
	tab, err := Standings(Term{Class: ClassA, Players: ids(d), Schedule: s, Results: roundRobinResults(s, strength, upsets), Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"p02", "p05", "p09"}; !reflect.DeepEqual(tab.Playoff, want) {
		t.Fatalf("playoff %v, want %v (順位 order)", tab.Playoff, want)
	}
	for _, r := range tab.Rows[:3] {
		if r.Outcome != OutcomePlayoff || r.Wins != 7 {
			t.Errorf("%s: %s with %d wins, want playoff at 7", r.ID, r.Outcome, r.Wins)
		}
	}
	games, err := Stepladder(tab.Playoff)
	if err != nil {
		t.Fatal(err)
	}
	want := []PlayoffGame{{Number: 1, Higher: "p05", Lower: "p09"}, {Number: 2, Higher: "p02", LowerFrom: 1}}
	if !reflect.DeepEqual(games, want) {
		t.Errorf("stepladder %+v, want %+v", games, want)
	}
}

func TestStepladder(t *testing.T) {
	t.Parallel()
	games, err := Stepladder([]string{"w", "x", "y", "z"})
	if err != nil {
		t.Fatal(err)
	}
	want := []PlayoffGame{{1, "y", "z", 0}, {2, "x", "", 1}, {3, "w", "", 2}}
	if !reflect.DeepEqual(games, want) {
		t.Errorf("got %+v, want %+v", games, want)
	}
	for _, bad := range [][]string{nil, {"a"}, {"a", "a"}} {
		if _, err := Stepladder(bad); !errors.Is(err, ErrInvalid) {
			t.Errorf("Stepladder(%v): want ErrInvalid, got %v", bad, err)
		}
	}
}

// TestStandings_AllWinsAlwaysPromoted: B2/C1/C2 — a player who wins every
// game goes up even beyond the promotion places.
func TestStandings_AllWinsAlwaysPromoted(t *testing.T) {
	t.Parallel()
	s := sched(
		[]Game{{"a", "b", zero}, {"c", "d", zero}, {"e", "f", zero}, {"g", "h", zero}},
		[]Game{{"a", "c", zero}, {"b", "d", zero}, {"e", "g", zero}, {"f", "h", zero}},
	)
	res := []Result{
		{Round: 1, Sente: "a", Gote: "b", Winner: "a"}, {Round: 1, Sente: "c", Gote: "d", Winner: "c"}, {Round: 1, Sente: "e", Gote: "f", Winner: "e"}, {Round: 1, Sente: "g", Gote: "h", Winner: "g"},
		{Round: 2, Sente: "a", Gote: "c", Winner: "a"}, {Round: 2, Sente: "b", Gote: "d", Winner: "b"}, {Round: 2, Sente: "e", Gote: "g", Winner: "e"}, {Round: 2, Sente: "f", Gote: "h", Winner: "f"},
	}
	players := []string{"c", "e", "b", "a", "d", "f", "g", "h"}
	tab, err := Standings(Term{Class: ClassC1, Players: players, Schedule: s, Results: res, Rules: ClassRules{Promote: 1, AllWinsPromote: true}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Outcome{}
	for _, r := range tab.Rows {
		got[r.ID] = r.Outcome
	}
	if got["e"] != OutcomePromoted || got["a"] != OutcomePromoted || got["c"] != OutcomeStays {
		t.Errorf("e (2-0, higher 順位) and a (2-0) must go up, c (1-1) stays: %v", got)
	}
	if tab.Rows[0].ID != "e" || tab.Rows[1].ID != "a" {
		t.Errorf("equal records are ordered by 順位: got %s, %s", tab.Rows[0].ID, tab.Rows[1].ID)
	}
}

// TestStandings_DemotionPoints: the bottom fifth get a 降級点, a winning
// record erases one, and the second (B2, C1) or third (C2) sends a player
// down.
func TestStandings_DemotionPoints(t *testing.T) {
	t.Parallel()
	// 10 players, 9 rounds of a round robin decided by strength: the
	// strength order is the final order, wins 9..0.
	d := classDraw(t, ClassB2, 10, 4)
	d.Settings.RoundRobin = true
	d.Settings.MasterStudent, d.Settings.Relatives = PairRule{}, PairRule{}
	s, _, err := Generate(d)
	if err != nil {
		t.Fatal(err)
	}
	strength := []string{"p01", "p02", "p03", "p04", "p05", "p06", "p07", "p08", "p09", "p10"}
	res := roundRobinResults(s, strength, nil)
	for _, tc := range []struct {
		class Class
		prior map[string]int
		want  map[string]Row // only the fields checked
	}{
		{ClassB2, map[string]int{"p09": 1, "p04": 1, "p07": 1},
			map[string]Row{
				"p10": {NewPoint: true, Points: 1, Outcome: OutcomeStays},
				"p09": {NewPoint: true, Points: 0, Outcome: OutcomeDemoted}, // second point in B2
				"p04": {Erased: 1, Points: 0, Outcome: OutcomeStays},        // 6-3 erases one
				"p07": {Points: 1, Outcome: OutcomeStays},                   // 3-6, not bottom fifth
				"p01": {Outcome: OutcomePromoted},
				"p03": {Outcome: OutcomePromoted},
			}},
		{ClassC2, map[string]int{"p09": 1, "p10": 2},
			map[string]Row{
				"p09": {NewPoint: true, Points: 2, Outcome: OutcomeStays},   // second point: C2 needs three
				"p10": {NewPoint: true, Points: 0, Outcome: OutcomeDemoted}, // third: フリークラス
			}},
	} {
		rules, _ := DefaultClassRules(tc.class)
		tab, err := Standings(Term{Class: tc.class, Players: strength, Schedule: s, Results: res, Points: tc.prior, Rules: rules})
		if err != nil {
			t.Fatal(err)
		}
		points := 0
		for _, r := range tab.Rows {
			if r.NewPoint {
				points++
			}
			w, ok := tc.want[r.ID]
			if !ok {
				continue
			}
			if r.NewPoint != w.NewPoint || r.Points != w.Points || r.Erased != w.Erased || r.Outcome != w.Outcome {
				t.Errorf("%s %s: got new=%v points=%d erased=%d %s, want new=%v points=%d erased=%d %s",
					tc.class, r.ID, r.NewPoint, r.Points, r.Erased, r.Outcome, w.NewPoint, w.Points, w.Erased, w.Outcome)
			}
		}
		if points != 2 { // 10 players × 1/5
			t.Errorf("%s: %d new 降級点, want 2", tc.class, points)
		}
	}
}

func TestNextOrder(t *testing.T) {
	t.Parallel()
	row := func(id string, junni, w, l int, o Outcome, newPoint bool, pts int) Row {
		return Row{ID: id, Junni: junni, Wins: w, Losses: l, Outcome: o, NewPoint: newPoint, Points: pts}
	}
	above := Table{Class: ClassB2, Final: true, Rows: []Row{
		row("u1", 1, 8, 2, OutcomePromoted, false, 0),
		row("u2", 5, 2, 8, OutcomeDemoted, true, 0),
		row("u3", 2, 2, 8, OutcomeDemoted, true, 0),
	}}
	this := Table{Class: ClassC1, Final: true, Rows: []Row{
		row("t1", 4, 9, 1, OutcomePromoted, false, 0),
		row("t2", 3, 6, 4, OutcomeStays, false, 0),
		row("t3", 1, 6, 4, OutcomeStays, false, 1),
		row("t4", 2, 7, 3, OutcomeStays, false, 0),
		row("t5", 6, 2, 8, OutcomeStays, true, 1),
		row("t6", 5, 2, 8, OutcomeStays, true, 1),
		row("t7", 7, 1, 9, OutcomeDemoted, true, 0),
	}}
	below := Table{Class: ClassC2, Final: true, Rows: []Row{
		row("b1", 9, 10, 0, OutcomePromoted, false, 0),
		row("b2", 2, 9, 1, OutcomePromoted, false, 0),
		row("b3", 1, 5, 5, OutcomeStays, false, 0),
	}}
	got, err := NextOrder(this, &above, &below)
	if err != nil {
		t.Fatal(err)
	}
	want := []NextPlayer{
		{"u3", GroupDemotedFromAbove, 0}, {"u2", GroupDemotedFromAbove, 0}, // 2-8 both: 順位 2 before 5
		{"t4", GroupStayed, 0}, {"t3", GroupStayed, 1}, {"t2", GroupStayed, 0}, // 7-3, then 6-4 by 順位
		{"b1", GroupPromotedFromBelow, 0}, {"b2", GroupPromotedFromBelow, 0}, // record before 順位
		{"t6", GroupStayedWithPoint, 1}, {"t5", GroupStayedWithPoint, 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("next order\n got %v\nwant %v", got, want)
	}
	this.Final = false
	if _, err := NextOrder(this, nil, nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("unfinished table: want ErrInvalid, got %v", err)
	}
}

func TestNextHistory_KeepsPairingsForD_C1(t *testing.T) {
	t.Parallel()
	s := sched([]Game{{"a", "b", zero}}, []Game{{"a", "c", zero}})
	terms, final := NextHistory([]Schedule{s}, [][]Pair{{{"x", "y"}}, {{"old", "older"}}})
	want := [][]Pair{{{"a", "b"}, {"a", "c"}}, {{"x", "y"}}}
	if !reflect.DeepEqual(terms, want) || !reflect.DeepEqual(final, []Pair{{"a", "c"}}) {
		t.Errorf("history %v final %v", terms, final)
	}
}
