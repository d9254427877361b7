package adjudication

import (
	"slices"
	"testing"
)

func checksAt(n int, plies ...int) []bool {
	c := make([]bool, n)
	for _, p := range plies {
		c[p-1] = true
	}
	return c
}

// D-J4 (000 第9条第6項): move 500 makes 持将棋; a check on move 500
// carries on until the checking side stops checking.
func TestMaxMovesPly_D_J4(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		checks []bool
		want   int
	}{
		{"short game", checksAt(499), 0},
		{"move 500 without check", checksAt(500), 500},
		{"longer record, move 500 without check", checksAt(520, 501, 503), 500},
		{"check on 500, then 502 checks, 504 does not", checksAt(510, 500, 502), 504},
		{"the defender's checks do not matter", checksAt(510, 500, 501, 503), 502},
		{"checks go on to the end of the record", checksAt(506, 500, 502, 504, 506), 0},
	}
	for _, c := range cases {
		if got := MaxMovesPly(c.checks); got != c.want {
			t.Fatalf("%s: %d, want %d", c.name, got, c.want)
		}
	}
}

// D-J1 / D-J2 (000 第9条第4項, 004).
func TestJishogiAgreement_D_J1_D_J2(t *testing.T) {
	t.Parallel()
	s24 := DefaultSettings()
	s27 := amateur()
	s27.Jishogi = Jishogi27
	s27redo := s27
	s27redo.JishogiTie27 = TieRedo
	cases := []struct {
		name   string
		s      Settings
		p      Points
		result Result
		reason Reason
		rule   string
	}{
		{"D-J1 both 24 or more", s24, Points{24, 30}, Redo, ReasonJishogiRedo, "D-J1"},
		{"D-J1 27-27", s24, Points{27, 27}, Redo, ReasonJishogiRedo, "D-J1"},
		{"D-J1 sente 23 loses", s24, Points{23, 31}, GoteWin, ReasonJishogiPoints, "D-J1"},
		{"D-J1 gote 20 loses", s24, Points{34, 20}, SenteWin, ReasonJishogiPoints, "D-J1"},
		{"D-J2 sente 28 wins", s27, Points{28, 26}, SenteWin, ReasonJishogiPoints, "D-J2"},
		{"D-J2 gote 28 wins", s27, Points{26, 28}, GoteWin, ReasonJishogiPoints, "D-J2"},
		{"D-J2 27-27 gote wins", s27, Points{27, 27}, GoteWin, ReasonJishogiTieGote, "D-J2"},
		{"D-J2 27-27 redo", s27redo, Points{27, 27}, Redo, ReasonJishogiRedo, "D-J2"},
	}
	for _, c := range cases {
		o := JishogiAgreement(c.s, c.p)
		if o.Result != c.result || o.Reason != c.reason || !slices.Contains(o.Rules, c.rule) {
			t.Fatalf("%s: %s %s %v", c.name, o.Result, o.Reason, o.Rules)
		}
	}
}

// D-J3: each condition on its own, for both rules.
func TestJudgeDeclaration_D_J3(t *testing.T) {
	t.Parallel()
	good := DeclarationFacts{KingInCamp: true, PiecesInCamp: 10, Points: 31}
	cases := []struct {
		name     string
		rule     DeclarationRule
		by       Side
		f        DeclarationFacts
		ply      int
		timeLeft bool
		result   string
		failed   []string
	}{
		{"federation 31 wins", DeclarationFederation, Sente, good, 200, true, "win", nil},
		{"federation 30 redo", DeclarationFederation, Gote, DeclarationFacts{true, 12, 30, false}, 200, true, "redo", nil},
		{"federation 24 redo", DeclarationFederation, Sente, DeclarationFacts{true, 10, 24, false}, 200, true, "redo", nil},
		{"federation 23 loses", DeclarationFederation, Sente, DeclarationFacts{true, 10, 23, false}, 200, true, "lose", []string{CondTooFewPoints}},
		{"king outside the camp", DeclarationFederation, Sente, DeclarationFacts{false, 10, 35, false}, 200, true, "lose", []string{CondKingNotInCamp}},
		{"nine pieces", DeclarationFederation, Sente, DeclarationFacts{true, 9, 35, false}, 200, true, "lose", []string{CondTooFewPieces}},
		{"in check", DeclarationFederation, Sente, DeclarationFacts{true, 10, 35, true}, 200, true, "lose", []string{CondInCheck}},
		{"move 500 reached", DeclarationFederation, Sente, good, 500, true, "lose", []string{CondNotBefore500}},
		{"move 499 is still before 500", DeclarationFederation, Gote, good, 499, true, "win", nil},
		{"federation ignores the clock", DeclarationFederation, Sente, good, 200, false, "win", nil},
		{"27 rule sente 28 wins", Declaration27, Sente, DeclarationFacts{true, 10, 28, false}, 200, true, "win", nil},
		{"27 rule sente 27 loses", Declaration27, Sente, DeclarationFacts{true, 10, 27, false}, 200, true, "lose", []string{CondTooFewPoints}},
		{"27 rule gote 27 wins", Declaration27, Gote, DeclarationFacts{true, 10, 27, false}, 200, true, "win", nil},
		{"27 rule without time left", Declaration27, Gote, DeclarationFacts{true, 10, 30, false}, 200, false, "lose", []string{CondNoTimeLeft}},
		{"several failures", Declaration27, Sente, DeclarationFacts{false, 3, 5, true}, 200, false, "lose",
			[]string{CondKingNotInCamp, CondTooFewPieces, CondInCheck, CondNoTimeLeft, CondTooFewPoints}},
	}
	for _, c := range cases {
		v := JudgeDeclaration(c.rule, c.by, c.f, c.ply, c.timeLeft)
		if v.Result != c.result || !slices.Equal(v.Failed, c.failed) {
			t.Fatalf("%s: %s %v, want %s %v", c.name, v.Result, v.Failed, c.result, c.failed)
		}
		if v.Points != c.f.Points || v.InCamp != c.f.PiecesInCamp {
			t.Fatalf("%s: verdict counts %d/%d", c.name, v.Points, v.InCamp)
		}
	}
}
