package adjudication

import (
	"slices"
	"testing"
)

// D-J1 through Decide: points from the record win over reported ones.
func TestDecide_D_J1_AgreementUsesTheRecordsPoints(t *testing.T) {
	t.Parallel()
	f := ended(EndJishogiAgreement, nil)
	f.Points = &Points{Sente: 30, Gote: 24}
	o := mustDecide(t, DefaultSettings(), f)
	wantRedo(t, o, ReasonJishogiRedo)
	wantRules(t, o, "D-J1", "D-R1")

	f.Findings = completeRecord(240)
	f.Findings.Points = &Points{Sente: 31, Gote: 23}
	o = mustDecide(t, DefaultSettings(), f)
	wantWin(t, o, Sente, ReasonJishogiPoints)
	if o.Points == nil || *o.Points != (Points{31, 23}) || len(o.Notes) == 0 {
		t.Fatalf("points %+v notes %+v", o.Points, o.Notes)
	}
}

func TestDecide_D_J1_AgreementNeedsPoints(t *testing.T) {
	t.Parallel()
	_, err := Decide(DefaultSettings(), ended(EndJishogiAgreement, nil))
	wantFieldErr(t, err, "points")
	f := ended(EndJishogiAgreement, nil)
	f.Points = &Points{Sente: 30, Gote: 30}
	_, err = Decide(DefaultSettings(), f)
	wantFieldErr(t, err, "points")
}

// D-J2 through Decide, and only in amateur events.
func TestDecide_D_J2_TwentySevenPointRule(t *testing.T) {
	t.Parallel()
	s := amateur()
	s.Jishogi = Jishogi27
	f := ended(EndJishogiAgreement, nil)
	f.Points = &Points{Sente: 27, Gote: 27}
	o := mustDecide(t, s, f)
	wantWin(t, o, Gote, ReasonJishogiTieGote)
	wantRules(t, o, "D-J2")
	wantArticle(t, o, "004")

	s.Kind = EventOfficial
	_, err := Decide(s, f)
	wantFieldErr(t, err, "settings.jishogi")
}

// D-J3 through Decide: the position comes from the record, on the
// declarer's own turn.
func TestDecide_D_J3_DeclarationFromTheRecord(t *testing.T) {
	t.Parallel()
	f := ended(EndDeclaration, sp(Gote))
	f.Findings = completeRecord(251) // gote to move
	f.Findings.Declaration = &DeclarationFacts{KingInCamp: true, PiecesInCamp: 11, Points: 33}
	o := mustDecide(t, DefaultSettings(), f)
	wantWin(t, o, Gote, ReasonDeclarationWin)
	wantRules(t, o, "D-J3")
	if o.DeclaredPoints == nil || *o.DeclaredPoints != 33 {
		t.Fatalf("declared points %v", o.DeclaredPoints)
	}

	f.Findings.Declaration.Points = 27
	o = mustDecide(t, DefaultSettings(), f)
	wantRedo(t, o, ReasonDeclarationRedo)
	if o.Redo == nil {
		t.Fatal("a 24–30 declaration is a 持将棋 redo")
	}

	f.Findings.Declaration.InCheck = true
	o = mustDecide(t, DefaultSettings(), f)
	wantWin(t, o, Sente, ReasonDeclarationFail)
	if !slices.Equal(o.FailedConditions, []string{CondInCheck}) {
		t.Fatalf("failed %v", o.FailedConditions)
	}

	f.Ending.By = sp(Sente) // not sente's turn
	_, err := Decide(DefaultSettings(), f)
	wantFieldErr(t, err, "ending.by")
}

func TestDecide_D_J3_DeclarationRules(t *testing.T) {
	t.Parallel()
	f := ended(EndDeclaration, sp(Sente))
	f.Ending.Ply = 300
	f.Declaration = &DeclarationFacts{KingInCamp: true, PiecesInCamp: 10, Points: 28}
	s27 := amateur()
	s27.Declaration = Declaration27
	o := mustDecide(t, s27, f)
	wantWin(t, o, Sente, ReasonDeclarationWin)
	wantArticle(t, o, "004")

	no := false
	f.Ending.TimeLeft = &no
	o = mustDecide(t, s27, f)
	wantWin(t, o, Gote, ReasonDeclarationFail)
	if !slices.Equal(o.FailedConditions, []string{CondNoTimeLeft}) {
		t.Fatalf("failed %v", o.FailedConditions)
	}

	f.Ending.TimeLeft = nil
	o = mustDecide(t, DefaultSettings(), f) // federation: 28 is a redo
	wantRedo(t, o, ReasonDeclarationRedo)

	none := DefaultSettings()
	none.Declaration = DeclarationNone
	_, err := Decide(none, f)
	wantFieldErr(t, err, "ending.kind")

	f.Declaration = nil
	_, err = Decide(DefaultSettings(), f)
	wantFieldErr(t, err, "declaration")
}

// D-J4: reported 500-move 持将棋, and a record that went past the rule.
func TestDecide_D_J4_FiveHundredMoves(t *testing.T) {
	t.Parallel()
	f := ended(EndMaxMoves, nil)
	f.Ending.Ply = 500
	f.Points = &Points{Sente: 44, Gote: 10} // points do not matter
	o := mustDecide(t, DefaultSettings(), f)
	wantRedo(t, o, ReasonMaxMoves)
	wantRules(t, o, "D-J4", "D-R1")

	f.Ending.Ply = 499
	_, err := Decide(DefaultSettings(), f)
	wantFieldErr(t, err, "ending.ply")

	r := ended(EndResign, sp(Gote))
	r.Findings = completeRecord(530)
	r.Findings.MaxMovesPly = 504
	o = mustDecide(t, DefaultSettings(), r)
	wantRedo(t, o, ReasonMaxMoves)
	if o.Ply != 504 || len(o.Notes) == 0 {
		t.Fatalf("ply %d notes %+v", o.Ply, o.Notes)
	}

	short := ended(EndMaxMoves, nil)
	short.Findings = completeRecord(300)
	_, err = Decide(DefaultSettings(), short)
	wantFieldErr(t, err, "ending.kind")
}

// D-J4: mate on move 500 itself is still mate.
func TestDecide_D_J4_MateOnMoveFiveHundred(t *testing.T) {
	t.Parallel()
	f := ended(EndMate, nil)
	f.Findings = completeRecord(500)
	f.Findings.MaxMovesPly = 500
	f.Findings.Mate = true
	o := mustDecide(t, DefaultSettings(), f)
	wantWin(t, o, Gote, ReasonCheckmate)
}
