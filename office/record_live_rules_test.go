package office

import (
	"testing"

	"kisen/adjudication"
	"kisen/rules"
)

func usiMoves(t *testing.T, usi ...string) []rules.Move {
	t.Helper()
	out := make([]rules.Move, len(usi))
	for i, s := range usi {
		m, err := rules.ParseUSIMove(s)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = m
	}
	return out
}

func hasFact(facts []LiveFact, code string) (LiveFact, bool) {
	for _, f := range facts {
		if f.Code == code {
			return f, true
		}
	}
	return LiveFact{}, false
}

// D-S4 (000 第10条第10項): a side that checks with every move of the cycle
// is named while the position repeats, and loses at the 4th occurrence.
func TestLiveFacts_D_S4_PerpetualCheckNamedThenAlerted(t *testing.T) {
	t.Parallel()
	start, err := rules.ParseSFEN("8k/9/6R2/9/9/9/9/9/4K4 b - 1")
	if err != nil {
		t.Fatal(err)
	}
	cycle := []string{"3a3b", "1b1a", "3b3a", "1a1b"}
	usi := []string{"3c3a", "1a1b"}
	for len(usi) < 13 {
		usi = append(usi, cycle[(len(usi)-2)%4])
	}
	moves := usiMoves(t, usi...)
	s := adjudication.DefaultSettings()
	for n := 1; n <= 13; n++ {
		facts, _ := liveFacts(start, rules.Even, moves[:n], s, nil)
		_, checking := hasFact(facts, "recorder.fact.checking.sente")
		if want := n >= 5 && n < 13; checking != want {
			t.Fatalf("ply %d: sente's checks named %v, want %v (%v)", n, checking, want, facts)
		}
		if _, ok := hasFact(facts, "recorder.fact.checking.gote"); ok {
			t.Fatalf("ply %d: gote named as checking: %v", n, facts)
		}
		p, ok := hasFact(facts, "recorder.fact.perpetual.sente")
		if ok != (n == 13) || (ok && !p.Alert) {
			t.Fatalf("ply %d: perpetual %v (%v)", n, ok, facts)
		}
	}
}

// D-J4 (000 第9条第6項): move 500 is counted down from 480 and, reached
// without check, is 持将棋 for the arbiter.
func TestLiveFacts_D_J4_FiveHundredMoves(t *testing.T) {
	t.Parallel()
	walk := []string{"5i5h", "5a5b", "5h5i", "5b5a"}
	usi := make([]string, 500)
	for i := range usi {
		usi[i] = walk[i%4]
	}
	moves := usiMoves(t, usi...)
	start := rules.NewPosition(rules.Even)
	s := adjudication.DefaultSettings()
	facts, _ := liveFacts(start, rules.Even, moves[:479], s, nil)
	if _, ok := hasFact(facts, "recorder.fact.max_moves_near"); ok {
		t.Fatalf("ply 479 counted down: %v", facts)
	}
	facts, _ = liveFacts(start, rules.Even, moves[:485], s, nil)
	if f, ok := hasFact(facts, "recorder.fact.max_moves_near"); !ok || f.Args["Left"] != 15 {
		t.Fatalf("ply 485: %v", facts)
	}
	facts, _ = liveFacts(start, rules.Even, moves, s, nil)
	if f, ok := hasFact(facts, "recorder.fact.max_moves"); !ok || !f.Alert || f.Args["Ply"] != 500 {
		t.Fatalf("ply 500: %v", facts)
	}
}

// D-J2 (004): under the 27-point rule the count names the side that loses
// by agreement (27–27: gote wins by default).
func TestLiveFacts_D_J2_PointsUnderTheOrganisersRule(t *testing.T) {
	t.Parallel()
	s := adjudication.DefaultSettings()
	s.Kind, s.Jishogi = adjudication.EventAmateur, adjudication.Jishogi27
	facts, pts := liveFacts(rules.NewPosition(rules.Even), rules.Even, usiMoves(t, "7g7f"), s, nil)
	f, ok := hasFact(facts, "recorder.fact.jishogi.loses.sente")
	if !ok || f.Args["Rule"] != 27 || pts.Sente != 27 || pts.Gote != 27 {
		t.Fatalf("27-point count: %v %+v", facts, pts)
	}
}

// D-J3: the declaration count on demand counts both sides, each over its
// pieces in the enemy camp (the king left out) and in hand, with what the
// organiser's rule asks of that side to win.
func TestDeclarationCounts_D_J3_BothSidesUnderTheOrganisersRule(t *testing.T) {
	t.Parallel()
	p, err := rules.ParseSFEN("k8/9/PPPPPPPPK/9/9/9/9/9/9 w RB2Gp 1")
	if err != nil {
		t.Fatal(err)
	}
	c := declarationCounts(p, rules.Even, adjudication.DeclarationFederation)
	if s := c[0]; !s.KingInCamp || s.InCamp != 8 || s.Points != 20 || s.Need != 31 {
		t.Fatalf("sente: %+v", s)
	}
	if g := c[1]; g.KingInCamp || g.InCamp != 0 || g.Points != 1 || g.Need != 31 {
		t.Fatalf("gote: %+v", g)
	}
	c = declarationCounts(p, rules.Even, adjudication.Declaration27)
	if c[0].Need != 28 || c[1].Need != 27 {
		t.Fatalf("27-point rule: %+v", c)
	}
}
