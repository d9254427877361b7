package adjudication

import (
	"testing"
)

func claim(kind FoulKind, offender Side, ply int, found Found) FoulClaim {
	return FoulClaim{Kind: kind, Offender: sp(offender), Ply: ply, Found: found}
}

// D-X1 (000 第10条第1項): every listed foul, pointed out during play,
// loses at once, citing its own item.
func TestDecide_D_X1_EveryFoulLosesAtOnce(t *testing.T) {
	t.Parallel()
	items := map[FoulKind]string{
		FoulNifu: "一", FoulDeadPiece: "二", FoulUchifuzume: "三", FoulIgnoredCheck: "四",
		FoulPerpetualCheck: "五", FoulWrongStart: "六", FoulTwoMoves: "七", FoulMatta: "八",
		FoulTimeForfeit: "九", FoulClockBeforeMove: "十", FoulAdvice: "十一",
		FoulIllegalMovement: "十二", FoulIllegalPromotion: "十二", FoulWrongSide: "十二", FoulRefusedRuling: "十三",
	}
	for kind, item := range items {
		f := ended(EndFoul, sp(Gote))
		f.Ending.Foul = kind
		f.Ending.Ply = 61
		o := mustDecide(t, DefaultSettings(), f)
		wantWin(t, o, Sente, ReasonFoul)
		wantRules(t, o, "D-X1", "D-X2")
		wantArticle(t, o, "000 第10条第1項"+item)
		if o.Foul != kind || o.Ply != 61 {
			t.Fatalf("%s: foul %s ply %d", kind, o.Foul, o.Ply)
		}
	}
}

// D-X2 (000 第10条第2項): found during the game, the game is wound back
// to the foul: the record's illegal move decides even though the players
// played on, and the earliest foul counts.
func TestDecide_D_X2_WoundBackToTheFoul(t *testing.T) {
	t.Parallel()
	f := ended(EndFoul, nil)
	f.Findings = &Findings{Plies: 77, Foul: &FoulFinding{Ply: 40, Kind: FoulNifu, Offender: Sente}}
	o := mustDecide(t, DefaultSettings(), f)
	wantWin(t, o, Gote, ReasonFoul)
	if o.Ply != 40 || o.Foul != FoulNifu {
		t.Fatalf("ply %d foul %s", o.Ply, o.Foul)
	}

	// A claim during play overrides the later resignation.
	r := ended(EndResign, sp(Gote))
	r.Ending.Ply = 80
	r.Fouls = []FoulClaim{claim(FoulTwoMoves, Sente, 30, FoundDuring)}
	o = mustDecide(t, DefaultSettings(), r)
	wantWin(t, o, Gote, ReasonFoul)
	wantRules(t, o, "D-X2")

	// Two fouls: the earlier decides.
	r.Fouls = append(r.Fouls, claim(FoulNifu, Gote, 20, FoundDuring))
	o = mustDecide(t, DefaultSettings(), r)
	wantWin(t, o, Sente, ReasonFoul)
	if o.Ply != 20 {
		t.Fatalf("ply %d", o.Ply)
	}
}

func TestDecide_D_X2_UnorderableFoulsAreBadInput(t *testing.T) {
	t.Parallel()
	f := ended(EndResign, sp(Gote))
	f.Fouls = []FoulClaim{claim(FoulNifu, Sente, 0, FoundDuring), claim(FoulMatta, Gote, 0, FoundDuring)}
	_, err := Decide(DefaultSettings(), f)
	wantFieldErr(t, err, "fouls")

	f.Ending.Ply = 50
	f.Fouls = []FoulClaim{claim(FoulNifu, Sente, 51, FoundDuring)}
	_, err = Decide(DefaultSettings(), f)
	wantFieldErr(t, err, "fouls[0].ply")

	noOffender := ended(EndFoul, nil)
	_, err = Decide(DefaultSettings(), noOffender)
	wantFieldErr(t, err, "ending.by")
}

// D-X3 (000 第10条第3〜5項): after the game the offender loses whatever
// the result, unless 投了優先 or the next game had started.
func TestDecide_D_X3_FoulAfterGame(t *testing.T) {
	t.Parallel()
	base := ended(EndResign, sp(Gote))
	base.Ending.Ply = 95
	cases := []struct {
		name     string
		s        func(*Settings)
		f        func(*Facts)
		winner   Side
		reason   Reason
		rejected string
	}{
		{"offender loses whatever the result", nil,
			func(f *Facts) { f.Fouls = []FoulClaim{claim(FoulNifu, Sente, 41, FoundAfter)} },
			Gote, ReasonFoulAfterGame, ""},
		{"resignation priority", func(s *Settings) { s.ResignationPriority = true },
			func(f *Facts) { f.Fouls = []FoulClaim{claim(FoulNifu, Sente, 41, FoundAfter)} },
			Sente, ReasonResignation, "resignation_priority"},
		{"next game had started (claim)", nil,
			func(f *Facts) {
				c := claim(FoulNifu, Sente, 41, FoundAfter)
				c.NextGameStarted = true
				f.Fouls = []FoulClaim{c}
			},
			Sente, ReasonResignation, "next_game_started"},
		{"record foul nobody noticed", nil,
			func(f *Facts) {
				f.Ending.Ply = 0
				f.Findings = &Findings{Plies: 95, Foul: &FoulFinding{Ply: 12, Kind: FoulUchifuzume, Offender: Sente}}
			},
			Gote, ReasonFoulAfterGame, ""},
		{"record foul after the next game started", nil,
			func(f *Facts) {
				f.Ending.Ply = 0
				f.NextGameStarted = true
				f.Findings = &Findings{Plies: 95, Foul: &FoulFinding{Ply: 12, Kind: FoulUchifuzume, Offender: Sente}}
			},
			Sente, ReasonResignation, "next_game_started"},
		{"the winner's own foul overturns the resignation", nil,
			func(f *Facts) { f.Fouls = []FoulClaim{claim(FoulIgnoredCheck, Sente, 0, FoundAfter)} },
			Gote, ReasonFoulAfterGame, ""},
	}
	for _, c := range cases {
		s := DefaultSettings()
		if c.s != nil {
			c.s(&s)
		}
		f := base
		c.f(&f)
		o := mustDecide(t, s, f)
		wantWin(t, o, c.winner, c.reason)
		wantRules(t, o, "D-X3")
		if c.rejected == "" {
			if len(o.Rejected) != 0 {
				t.Fatalf("%s: rejected %+v", c.name, o.Rejected)
			}
			continue
		}
		if len(o.Rejected) != 1 || o.Rejected[0].Code != c.rejected {
			t.Fatalf("%s: rejected %+v", c.name, o.Rejected)
		}
	}
}

// D-X3: "whatever the result" includes no result: a redo becomes a loss.
func TestDecide_D_X3_FoulAfterGameOverturnsRedo(t *testing.T) {
	t.Parallel()
	f := ended(EndSennichite, nil)
	f.Ending.Ply = 90
	f.Fouls = []FoulClaim{claim(FoulDeadPiece, Gote, 33, FoundAfter)}
	o := mustDecide(t, DefaultSettings(), f)
	wantWin(t, o, Sente, ReasonFoulAfterGame)
	if o.Redo != nil || !o.MatchComplete {
		t.Fatalf("%+v", o)
	}
}

// D-X4 (000 第10条第6項): 待った and time forfeit cannot be claimed after
// the game; during it they count.
func TestDecide_D_X4_NotClaimableAfterTheGame(t *testing.T) {
	t.Parallel()
	for _, kind := range []FoulKind{FoulMatta, FoulTimeForfeit} {
		f := ended(EndResign, sp(Sente))
		f.Fouls = []FoulClaim{claim(kind, Gote, 10, FoundAfter)}
		o := mustDecide(t, DefaultSettings(), f)
		wantWin(t, o, Gote, ReasonResignation)
		wantRules(t, o, "D-X4")
		if len(o.Rejected) != 1 || o.Rejected[0].Code != "not_claimable_after_game" || o.Rejected[0].Claim != 0 {
			t.Fatalf("%s: rejected %+v", kind, o.Rejected)
		}
		f.Fouls[0].Found = FoundDuring
		o = mustDecide(t, DefaultSettings(), f)
		wantWin(t, o, Sente, ReasonFoul)
	}
}

// D-X5 (000 第10条第7項・第9項): a third party may point out a foul; a
// disputed foul goes to the arbiter.
func TestDecide_D_X5_ThirdPartyAndDisputes(t *testing.T) {
	t.Parallel()
	f := ended(EndResign, sp(Gote))
	c := claim(FoulNifu, Sente, 44, FoundDuring)
	c.ClaimedBy = ClaimByThirdParty
	f.Fouls = []FoulClaim{c}
	o := mustDecide(t, DefaultSettings(), f)
	wantWin(t, o, Gote, ReasonFoul)
	wantRules(t, o, "D-X5")

	f.Fouls[0].Disputed = true
	o = mustDecide(t, DefaultSettings(), f)
	if o.Result != Pending || o.DecidedBy != "arbiter" || o.Reason != ReasonDisputedFoul || o.MatchComplete {
		t.Fatalf("%+v", o)
	}

	// The arbiter's foul-loss ruling settles the dispute.
	r := ruling("r1", RulingFoulLoss, 0)
	r.Player = sp(Sente)
	f.Rulings = []Ruling{r}
	o = mustDecide(t, DefaultSettings(), f)
	wantWin(t, o, Gote, ReasonArbiterFoulLoss)
}

// D-X6 (000 第10条第12項, 004): the clock hand is a warning first, or an
// immediate loss where the organiser says so; not announcing 王手 is
// never a foul.
func TestDecide_D_X6_ClockHandAndCheckCall(t *testing.T) {
	t.Parallel()
	f := ended(EndResign, sp(Gote))
	f.Fouls = []FoulClaim{claim(FoulClockHand, Sente, 30, FoundDuring)}
	o := mustDecide(t, DefaultSettings(), f)
	wantWin(t, o, Sente, ReasonResignation)
	wantRules(t, o, "D-X6")
	if len(o.Warnings) != 1 || o.Warnings[0].Side != Sente {
		t.Fatalf("warnings %+v", o.Warnings)
	}

	f.Fouls[0].PriorWarnings = 1
	o = mustDecide(t, DefaultSettings(), f)
	if o.Result != SenteWin || len(o.Warnings) != 1 || o.Warnings[0].Message == "" {
		t.Fatalf("%+v", o)
	}

	s := amateur()
	s.ClockHand = ClockHandImmediateLoss
	f.Fouls[0].PriorWarnings = 0
	o = mustDecide(t, s, f)
	wantWin(t, o, Gote, ReasonFoul)
	wantRules(t, o, "D-X6")

	f.Fouls = []FoulClaim{claim(FoulNoCheckCall, Sente, 30, FoundDuring)}
	o = mustDecide(t, DefaultSettings(), f)
	wantWin(t, o, Sente, ReasonResignation)
	if len(o.Rejected) != 1 || o.Rejected[0].Code != "not_a_foul" {
		t.Fatalf("rejected %+v", o.Rejected)
	}
}

func TestDecide_BadFoulClaimsNameTheField(t *testing.T) {
	t.Parallel()
	cases := []struct {
		field string
		c     FoulClaim
	}{
		{"fouls[0].kind", FoulClaim{Kind: "rudeness", Offender: sp(Sente), Found: FoundAfter}},
		{"fouls[0].offender", FoulClaim{Kind: FoulNifu, Found: FoundAfter}},
		{"fouls[0].found", FoulClaim{Kind: FoulNifu, Offender: sp(Sente), Found: "later"}},
		{"fouls[0].ply", FoulClaim{Kind: FoulNifu, Offender: sp(Sente), Found: FoundAfter, Ply: -3}},
		{"fouls[0].next_game_started", FoulClaim{Kind: FoulNifu, Offender: sp(Sente), Found: FoundDuring, NextGameStarted: true}},
		{"fouls[0].claimed_by", FoulClaim{Kind: FoulNifu, Offender: sp(Sente), Found: FoundAfter, ClaimedBy: "crowd"}},
		{"fouls[0].prior_warnings", FoulClaim{Kind: FoulNifu, Offender: sp(Sente), Found: FoundAfter, PriorWarnings: 2}},
		// 000 第10条第5項: how next_game_started was settled.
		{"fouls[0].next_game.reason", FoulClaim{Kind: FoulNifu, Offender: sp(Sente), Found: FoundAfter,
			NextGame: &NextGameBasis{Source: NextGameOverridden, Found: true, GameID: "7", Reason: " "}}},
		{"fouls[0].next_game.found", FoulClaim{Kind: FoulNifu, Offender: sp(Sente), Found: FoundAfter, NextGameStarted: true,
			NextGame: &NextGameBasis{Source: NextGameDerived}}},
		{"fouls[0].next_game.source", FoulClaim{Kind: FoulNifu, Offender: sp(Sente), Found: FoundAfter, NextGame: &NextGameBasis{Source: "guessed"}}},
		{"fouls[0].next_game.game_id", FoulClaim{Kind: FoulNifu, Offender: sp(Sente), Found: FoundAfter, NextGameStarted: true,
			NextGame: &NextGameBasis{Source: NextGameDerived, Found: true}}},
	}
	for _, c := range cases {
		f := ended(EndResign, sp(Sente))
		f.Fouls = []FoulClaim{c.c}
		_, err := Decide(DefaultSettings(), f)
		wantFieldErr(t, err, c.field)
	}
}

// The record is authoritative (D-K3: the recorder keeps it): a claimed
// illegal move or perpetual check the record does not show is rejected;
// one it shows, or one beyond what the engine could check, stands.
func TestDecide_D_K3_RecordJudgesClaimedMoveFouls(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		findings *Findings
		c        FoulClaim
		rejected bool
	}{
		{"nifu claimed, record clean", completeRecord(80), claim(FoulNifu, Sente, 41, FoundAfter), true},
		{"nifu claimed without ply, record clean", completeRecord(80), claim(FoulNifu, Sente, 0, FoundAfter), true},
		{"perpetual claimed, record shows none", completeRecord(80), claim(FoulPerpetualCheck, Gote, 60, FoundAfter), true},
		{"nifu the record shows", &Findings{Plies: 80, Foul: &FoulFinding{Ply: 41, Kind: FoulNifu, Offender: Sente}}, claim(FoulNifu, Sente, 41, FoundAfter), false},
		{"after the record's foul nothing was checked", &Findings{Plies: 80, Foul: &FoulFinding{Ply: 30, Kind: FoulNifu, Offender: Gote}}, claim(FoulNifu, Sente, 41, FoundAfter), false},
		{"a foul the record cannot show", completeRecord(80), claim(FoulTwoMoves, Sente, 41, FoundAfter), false},
	}
	for _, c := range cases {
		f := ended(EndResign, sp(Gote))
		f.Findings = c.findings
		f.Fouls = []FoulClaim{c.c}
		o := mustDecide(t, DefaultSettings(), f)
		got := len(o.Rejected) == 1 && o.Rejected[0].Code == "record_shows_no_foul"
		if got != c.rejected {
			t.Fatalf("%s: rejected %+v", c.name, o.Rejected)
		}
		if c.rejected && o.Reason != ReasonResignation {
			t.Fatalf("%s: a rejected claim changed the result: %+v", c.name, o)
		}
	}
}
