package adjudication

import (
	"testing"
)

// D-K1 (000 第11条第5項六, 第8項): a foul loss the arbiter declared
// decides the game over the ending, fouls and 投了優先.
func TestDecide_D_K1_ArbiterFoulLossDecides(t *testing.T) {
	t.Parallel()
	f := ended(EndResign, sp(Sente))
	f.Fouls = []FoulClaim{claim(FoulNifu, Sente, 12, FoundDuring)}
	f.Rulings = []Ruling{ruling("r1", RulingFoulLoss, 0)} // against gote
	s := DefaultSettings()
	s.ResignationPriority = true
	o := mustDecide(t, s, f)
	wantWin(t, o, Sente, ReasonArbiterFoulLoss)
	wantRules(t, o, "D-K1")
	if len(o.Rejected) != 1 || o.Rejected[0].Code != "arbiter_ruled" {
		t.Fatalf("rejected %+v", o.Rejected)
	}
}

// D-K1: an appeal superseding the foul loss takes it out of force.
func TestDecide_D_K1_AppealSupersedesFoulLoss(t *testing.T) {
	t.Parallel()
	f := ended(EndResign, sp(Sente))
	appeal := ruling("r2", RulingOther, 90)
	appeal.Supersedes = "r1"
	f.Rulings = []Ruling{ruling("r1", RulingFoulLoss, 0), appeal}
	o := mustDecide(t, DefaultSettings(), f)
	wantWin(t, o, Gote, ReasonResignation)
}

func TestDecide_D_K1_ConflictingFoulLosses(t *testing.T) {
	t.Parallel()
	f := ended(EndArbiterFoulLoss, sp(Sente))
	f.Rulings = []Ruling{ruling("r1", RulingFoulLoss, 0)} // against gote
	_, err := Decide(DefaultSettings(), f)
	wantFieldErr(t, err, "rulings")

	f.Rulings = nil
	o := mustDecide(t, DefaultSettings(), f)
	wantWin(t, o, Gote, ReasonArbiterFoulLoss)

	f.Ending.By = nil
	_, err = Decide(DefaultSettings(), f)
	wantFieldErr(t, err, "ending.by")

	f.Rulings = []Ruling{ruling("r1", RulingFoulLoss, 0)}
	f.Rulings[0].GameID = "other"
	_, err = Decide(DefaultSettings(), f)
	wantFieldErr(t, err, "rulings[0].game_id")
}

// D-K2 (000 第11条第10項): the organiser's ruling where there is no arbiter.
func TestDecide_D_K2_OrganiserRuling(t *testing.T) {
	t.Parallel()
	f := ended(EndResign, sp(Sente))
	r := ruling("r1", RulingFoulLoss, 0)
	r.ByOrganiser, r.Arbiter = true, Player{Name: "大会責任者"}
	f.Rulings = []Ruling{r}
	o := mustDecide(t, amateur(), f)
	wantWin(t, o, Sente, ReasonArbiterFoulLoss)
	wantRules(t, o, "D-K1", "D-K2")
}

// D-K3 (000 第12条第2項): the recorder keeps the record and need not rule
// on 千日手, 持将棋 or fouls; the record it keeps decides them, with no
// confirmation from anyone, and a foul the recorder points out counts.
func TestDecide_D_K3_TheRecordDecidesWithoutTheRecordersWord(t *testing.T) {
	t.Parallel()
	f := ended(EndResign, sp(Gote))
	f.Findings = completeRecord(64)
	f.Findings.FinalOccurrences = 4
	f.Findings.Sennichite = []SennichiteFinding{{Ply: 64}}
	o := mustDecide(t, DefaultSettings(), f)
	wantRedo(t, o, ReasonSennichite)

	r := ended(EndResign, sp(Gote))
	c := claim(FoulTwoMoves, Sente, 7, FoundDuring)
	c.ClaimedBy = ClaimByRecorder
	r.Fouls = []FoulClaim{c}
	o = mustDecide(t, DefaultSettings(), r)
	wantWin(t, o, Gote, ReasonFoul)
}

// D-T1..T3 through Decide: a time forfeit cites the timing rules.
func TestDecide_D_T_TimeForfeit(t *testing.T) {
	t.Parallel()
	s := DefaultSettings()
	s.Time = stopwatch("6h")
	o := mustDecide(t, s, ended(EndTimeForfeit, sp(Sente)))
	wantWin(t, o, Gote, ReasonTimeForfeit)
	wantRules(t, o, "D-X1", "D-T1", "D-T3")
	o = mustDecide(t, DefaultSettings(), ended(EndTimeForfeit, sp(Gote)))
	wantRules(t, o, "D-T2", "D-T3")
}
