package adjudication

import "testing"

// D-S1 (000 第8条第1項): the 4th occurrence at the last move is 千日手.
func TestDecide_D_S1_FourthOccurrenceIsSennichite(t *testing.T) {
	t.Parallel()
	f := ended(EndSennichite, nil)
	f.Findings = completeRecord(120)
	f.Findings.FinalOccurrences = 4
	f.Findings.Sennichite = []SennichiteFinding{{Ply: 120}}
	o := mustDecide(t, DefaultSettings(), f)
	wantRedo(t, o, ReasonSennichite)
	wantRules(t, o, "D-S1", "D-R1")
	if o.Ply != 120 || o.Redo == nil || o.Redo.Players.Sente != f.Players.Gote {
		t.Fatalf("ply %d redo %+v", o.Ply, o.Redo)
	}
}

// D-S1 without a record: the report stands.
func TestDecide_D_S1_ReportedSennichiteWithoutRecord(t *testing.T) {
	t.Parallel()
	o := mustDecide(t, DefaultSettings(), ended(EndSennichite, nil))
	wantRedo(t, o, ReasonSennichite)
	wantArticle(t, o, "000 第8条第4項")
}

// D-S1: the record is authoritative; a 4th occurrence at the last move
// makes 千日手 even when a resignation was reported.
func TestDecide_D_S1_RecordOverridesReportedResignation(t *testing.T) {
	t.Parallel()
	f := ended(EndResign, sp(Sente))
	f.Findings = completeRecord(90)
	f.Findings.FinalOccurrences = 4
	f.Findings.Sennichite = []SennichiteFinding{{Ply: 90}}
	o := mustDecide(t, DefaultSettings(), f)
	wantRedo(t, o, ReasonSennichite)
	if len(o.Notes) == 0 || o.Notes[0].Code != "record_overrides_report" {
		t.Fatalf("notes %+v", o.Notes)
	}
}

// D-S2 (000 第8条第2項): agreement inside a cycle, before the 4th
// occurrence; a position seen only once is not a cycle.
func TestDecide_D_S2_AgreedInsideTheCycle(t *testing.T) {
	t.Parallel()
	f := ended(EndSennichite, nil)
	f.Findings = completeRecord(70)
	f.Findings.FinalOccurrences = 2
	o := mustDecide(t, DefaultSettings(), f)
	wantRedo(t, o, ReasonSennichite)
	wantRules(t, o, "D-S2")

	f.Findings.FinalOccurrences = 1
	_, err := Decide(DefaultSettings(), f)
	wantFieldErr(t, err, "ending.kind")
}

// D-S3 (000 第8条第3項): play went on after a 4th occurrence, so it was
// broken; the later resignation decides.
func TestDecide_D_S3_ContinuedPlayBreaksSennichite(t *testing.T) {
	t.Parallel()
	f := ended(EndResign, sp(Gote))
	f.Findings = completeRecord(131)
	f.Findings.Sennichite = []SennichiteFinding{{Ply: 80}}
	o := mustDecide(t, DefaultSettings(), f)
	wantWin(t, o, Sente, ReasonResignation)
	if o.Redo != nil {
		t.Fatal("no redo after a broken 千日手")
	}
}

// D-S4 (000 第10条第10項): perpetual check at the last move: the checker
// loses, whatever was reported, and whether the final position has the
// check on or just answered (the record's finding says who checked).
func TestDecide_D_S4_PerpetualCheckLoses(t *testing.T) {
	t.Parallel()
	for _, reported := range []Ending{
		{Kind: EndSennichite},
		{Kind: EndSennichite, PerpetualCheckBy: sp(Sente)}, // wrong side reported
		{Kind: EndResign, By: sp(Sente)},
	} {
		for _, plies := range []int{87, 88} {
			f := ended(reported.Kind, reported.By)
			f.Ending.PerpetualCheckBy = reported.PerpetualCheckBy
			f.Findings = completeRecord(plies)
			f.Findings.FinalOccurrences = 4
			f.Findings.Sennichite = []SennichiteFinding{{Ply: plies, Perpetual: true, Loser: sp(Gote)}}
			o := mustDecide(t, DefaultSettings(), f)
			wantWin(t, o, Sente, ReasonPerpetualCheck)
			wantRules(t, o, "D-S4", "D-X1")
			if o.Foul != FoulPerpetualCheck || o.Redo != nil || !o.MatchComplete {
				t.Fatalf("%+v", o)
			}
		}
	}
}

// D-S4 without a record: the reported checker loses.
func TestDecide_D_S4_ReportedPerpetualCheck(t *testing.T) {
	t.Parallel()
	f := ended(EndSennichite, nil)
	f.Ending.PerpetualCheckBy = sp(Sente)
	o := mustDecide(t, DefaultSettings(), f)
	wantWin(t, o, Gote, ReasonPerpetualCheck)
}

// D-S4 with D-X3: a perpetual check play went on from is a foul found
// after the game; 投了優先 lets the result stand.
func TestDecide_D_S4_PerpetualCheckFoundAfterTheGame(t *testing.T) {
	t.Parallel()
	f := ended(EndResign, sp(Sente))
	f.Findings = completeRecord(150)
	f.Findings.Sennichite = []SennichiteFinding{{Ply: 101, Perpetual: true, Loser: sp(Gote)}}
	o := mustDecide(t, DefaultSettings(), f)
	wantWin(t, o, Sente, ReasonFoulAfterGame)
	wantRules(t, o, "D-S4", "D-X3")
	if o.Ply != 101 {
		t.Fatalf("ply %d", o.Ply)
	}
	s := DefaultSettings()
	s.ResignationPriority = true
	o = mustDecide(t, s, f)
	wantWin(t, o, Gote, ReasonResignation)
	if len(o.Rejected) != 1 || o.Rejected[0].Claim != -1 || o.Rejected[0].Code != "resignation_priority" {
		t.Fatalf("rejected %+v", o.Rejected)
	}
}
