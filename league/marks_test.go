package league

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// marksTerm is a round robin of n players p1…pn (one game a round per
// pair, so pairs are unique), with the given rules and 降級点 held.
func marksTerm(n int, r ClassRules, points map[string]int) Term {
	t := Term{Class: ClassC2, Rules: r, Points: points}
	for i := 1; i <= n; i++ {
		t.Players = append(t.Players, fmt.Sprintf("p%d", i))
	}
	round := 0
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			round++
			t.Schedule.Rounds = append(t.Schedule.Rounds, Round{Number: round, Games: []Game{{Sente: t.Players[i], Gote: t.Players[j]}}})
		}
	}
	return t
}

type rowMark struct {
	outcome  Outcome
	newPoint bool
	erased   int
}

func marksOf(t *testing.T, term Term) (Table, map[string]rowMark) {
	t.Helper()
	tab, err := Standings(term)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]rowMark{}
	for _, r := range tab.Rows {
		out[r.ID] = rowMark{r.Outcome, r.NewPoint, r.Erased}
	}
	return tab, out
}

// TestMarks_NoneBeforeAnyGameProvisionalThenDecided: no mark before any
// game (a table at 0勝0敗 promotes nobody), provisional marks while the
// remaining games can change them, all decided once the table is final.
func TestMarks_NoneBeforeAnyGameProvisionalThenDecided(t *testing.T) {
	t.Parallel()
	rules := ClassRules{Promote: 1, PointsNum: 1, PointsDen: 5, PointsToDemote: 2}
	term := marksTerm(5, rules, nil)
	tab, _ := marksOf(t, term)
	for id, s := range Marks(tab, rules) {
		if s != MarkHidden {
			t.Errorf("%s before any game: state %d, want hidden", id, s)
		}
	}
	// One game: p1 beats p2. Nothing can be decided yet.
	term.Results = []Result{{Round: 1, Sente: "p1", Gote: "p2", Winner: "p1"}}
	tab, _ = marksOf(t, term)
	for id, s := range Marks(tab, rules) {
		if s != MarkProvisional {
			t.Errorf("%s after one game: state %d, want provisional", id, s)
		}
	}
	// Every game: sente wins. Final: every mark decided.
	term.Results = nil
	for _, rd := range term.Schedule.Rounds {
		g := rd.Games[0]
		term.Results = append(term.Results, Result{Round: rd.Number, Sente: g.Sente, Gote: g.Gote, Winner: g.Sente})
	}
	tab, _ = marksOf(t, term)
	for id, s := range Marks(tab, rules) {
		if s != MarkDecided {
			t.Errorf("%s in a final table: state %d, want decided", id, s)
		}
	}
}

// TestMarks_DecidedBeforeTheEndWhenNoResultCanChangeIt: p1 has won all
// four of its games and nobody else can reach four wins, so p1's 昇級 is
// decided with games still to play.
func TestMarks_DecidedBeforeTheEndWhenNoResultCanChangeIt(t *testing.T) {
	t.Parallel()
	rules := ClassRules{Promote: 1, Demote: 1}
	term := marksTerm(5, rules, nil)
	// p1 beats everyone (rounds 1–4); p2 loses to p3 (round 5).
	for r := 1; r <= 4; r++ {
		g := term.Schedule.Rounds[r-1].Games[0]
		term.Results = append(term.Results, Result{Round: r, Sente: g.Sente, Gote: g.Gote, Winner: "p1"})
	}
	term.Results = append(term.Results, Result{Round: 5, Sente: "p2", Gote: "p3", Winner: "p3"})
	tab, _ := marksOf(t, term)
	m := Marks(tab, rules)
	if m["p1"] != MarkDecided {
		t.Errorf("p1 (4–0, nobody can catch up): state %d, want decided", m["p1"])
	}
	if m["p3"] != MarkProvisional {
		t.Errorf("p3 (1–1, three to play): state %d, want provisional", m["p3"])
	}
}

// TestMarks_DecidedIsNeverWrong: for random part-played terms of a small
// class, every row whose marks are called decided keeps the same outcome,
// 降級点 and erasure in every way the remaining games can end (the oracle
// enumerates them all).
func TestMarks_DecidedIsNeverWrong(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(13, 7))
	rulesets := []ClassRules{
		{Promote: 2, PointsNum: 1, PointsDen: 3, PointsToDemote: 2, ErasedByWinningRecord: 1, AllWinsPromote: true},
		{Challengers: 1, Playoff: true, Demote: 2},
		{Promote: 1, Demote: 1},
	}
	decided := 0
	for iter := 0; iter < 1000; iter++ {
		rules := rulesets[iter%len(rulesets)]
		n := 5 + iter%2
		term := marksTerm(n, rules, map[string]int{"p4": 1, "p5": 1})
		var open []Round
		for _, rd := range term.Schedule.Rounds {
			g := rd.Games[0]
			if rng.IntN(10) < 7 {
				w := g.Sente
				if rng.IntN(2) == 0 {
					w = g.Gote
				}
				term.Results = append(term.Results, Result{Round: rd.Number, Sente: g.Sente, Gote: g.Gote, Winner: w})
			} else {
				open = append(open, rd)
			}
		}
		if len(open) > 9 {
			continue
		}
		tab, now := marksOf(t, term)
		marks := Marks(tab, rules)
		base := term.Results
		for mask := 0; mask < 1<<len(open); mask++ {
			term.Results = append(base[:len(base):len(base)], nil...)
			for k, rd := range open {
				g := rd.Games[0]
				w := g.Sente
				if mask&(1<<k) != 0 {
					w = g.Gote
				}
				term.Results = append(term.Results, Result{Round: rd.Number, Sente: g.Sente, Gote: g.Gote, Winner: w})
			}
			_, end := marksOf(t, term)
			for id, s := range marks {
				if s == MarkDecided && end[id] != now[id] {
					t.Fatalf("iteration %d: %s called decided at %+v, ends %+v (results %+v)", iter, id, now[id], end[id], term.Results)
				}
			}
		}
		for _, s := range marks {
			if s == MarkDecided {
				decided++
			}
		}
	}
	if decided == 0 {
		t.Fatal("no row was ever called decided: the test proves nothing")
	}
	t.Logf("%d rows called decided before the end, all confirmed", decided)
}
