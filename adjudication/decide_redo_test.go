package adjudication

import "testing"

func sennichiteFacts(redoCount int) Facts {
	f := ended(EndSennichite, nil)
	f.RedoCount = redoCount
	f.Remaining = &Times{Sente: dur("2h10m"), Gote: dur("40m")}
	return f
}

// D-R1 / D-R2 through Decide: swapped colours, each player's own time
// topped up so the lower has an hour.
func TestDecide_D_R1_D_R2_RedoGame(t *testing.T) {
	t.Parallel()
	f := sennichiteFacts(0)
	o := mustDecide(t, DefaultSettings(), f)
	wantRedo(t, o, ReasonSennichite)
	wantRules(t, o, "D-R1", "D-R2", "D-R3")
	g := o.Redo
	if g == nil || g.Number != 1 || g.Players.Sente != f.Players.Gote || g.Players.Gote != f.Players.Sente {
		t.Fatalf("redo %+v", g)
	}
	// The old gote (40m) is the new sente: 1h; the old sente 2h10m+20m.
	if g.Allowance == nil || g.Allowance.Sente != dur("1h") || g.Allowance.Gote != dur("2h30m") {
		t.Fatalf("allowance %+v", g.Allowance)
	}
	if o.CountsAsGame {
		t.Fatal("a 千日手 game is not counted (D-R3)")
	}

	f.Remaining = nil
	o = mustDecide(t, DefaultSettings(), f)
	if o.Redo == nil || o.Redo.Allowance != nil || len(o.Notes) == 0 {
		t.Fatalf("without remaining times: %+v", o)
	}
}

// D-R3 (000 第8条第6・7項, 第9条第8・9項): a redo of a redo is a redo;
// title matches may count redo games.
func TestDecide_D_R3_RedoOfRedoAndCounting(t *testing.T) {
	t.Parallel()
	o := mustDecide(t, DefaultSettings(), sennichiteFacts(2))
	wantRedo(t, o, ReasonSennichite)
	wantArticle(t, o, "000 第8条第6項")
	if o.Redo.Number != 3 {
		t.Fatalf("redo number %d", o.Redo.Number)
	}
	title := DefaultSettings()
	title.RedoCountsAsGame = true
	jishogi := ended(EndMaxMoves, nil) // D-J4: 持将棋 at move 500
	jishogi.Ending.Ply = 500
	o = mustDecide(t, title, jishogi)
	if !o.CountsAsGame || o.MatchComplete {
		t.Fatalf("title match, 持将棋: counts %v complete %v", o.CountsAsGame, o.MatchComplete)
	}
	wantArticle(t, o, "000 第9条第9項")
	// 000 第8条第7項: a 千日手 is never a game, whatever the title's rules.
	o = mustDecide(t, title, sennichiteFacts(0))
	if o.CountsAsGame || o.MatchComplete {
		t.Fatalf("title match, 千日手: counts %v complete %v", o.CountsAsGame, o.MatchComplete)
	}
	wantArticle(t, o, "000 第8条第7項")

	// The chain completes when a redo game is decided.
	r := ended(EndResign, sp(Sente))
	r.RedoCount = 3
	o = mustDecide(t, DefaultSettings(), r)
	if !o.MatchComplete || !o.CountsAsGame {
		t.Fatalf("decided redo game: %+v", o)
	}
}

// D-R4 (000 第8条第5項): the amateur event's policy after N redos.
func TestDecide_D_R4_RepeatedRedoPolicy(t *testing.T) {
	t.Parallel()
	cases := []struct {
		then      RedoPolicy
		redoCount int
		result    Result
		reason    Reason
		decidedBy string
	}{
		{RedoGoteWins, 0, Redo, ReasonSennichite, ""},
		{RedoGoteWins, 1, GoteWin, ReasonRedoLimitGote, ""},
		{RedoGoteWins, 4, GoteWin, ReasonRedoLimitGote, ""},
		{RedoFurigoma, 1, Pending, ReasonRedoLimitToss, "furigoma"},
		{RedoArbiterRules, 1, Pending, ReasonRedoLimitArbiter, "arbiter"},
		{RedoAgain, 9, Redo, ReasonSennichite, ""},
	}
	for _, c := range cases {
		s := amateur()
		s.RepeatedRedo = RepeatedRedo{After: 1, Then: c.then}
		if c.then == RedoAgain {
			s.RepeatedRedo.After = 0
		}
		o := mustDecide(t, s, sennichiteFacts(c.redoCount))
		if o.Result != c.result || o.Reason != c.reason || o.DecidedBy != c.decidedBy {
			t.Fatalf("%s after %d: %s %s %s", c.then, c.redoCount, o.Result, o.Reason, o.DecidedBy)
		}
		if c.reason != ReasonSennichite {
			wantRules(t, o, "D-R4")
			if o.Redo != nil {
				t.Fatal("no further redo once the policy applies")
			}
		}
	}
	// Jishogi redos count the same way.
	s := amateur()
	s.RepeatedRedo = RepeatedRedo{After: 2, Then: RedoGoteWins}
	f := ended(EndMaxMoves, nil)
	f.Ending.Ply, f.RedoCount = 500, 2
	o := mustDecide(t, s, f)
	wantWin(t, o, Gote, ReasonRedoLimitGote)
}

// D-R4 is an amateur setting; official games always redo again.
func TestSettings_D_R4_OfficialGamesRedoAgain(t *testing.T) {
	t.Parallel()
	s := DefaultSettings()
	s.RepeatedRedo = RepeatedRedo{After: 1, Then: RedoGoteWins}
	wantFieldErr(t, s.Validate(), "repeated_redo.then")
	s.Kind = EventAmateur
	s.RepeatedRedo.After = 0
	wantFieldErr(t, s.Validate(), "repeated_redo.after")
}
