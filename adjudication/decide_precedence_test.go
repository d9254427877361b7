package adjudication

import (
	"strings"
	"testing"
)

// The precedence of Decide's steps, one pair at a time.
func TestDecide_Precedence(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		s      func(*Settings)
		f      func() Facts
		winner Side
		reason Reason
	}{
		{"record mate beats the reported resignation of the mating side", nil, func() Facts {
			f := ended(EndResign, sp(Sente))
			f.Findings = completeRecord(81) // gote to move
			f.Findings.Mate = true
			return f
		}, Sente, ReasonCheckmate},
		{"the mated side resigning is a resignation", nil, func() Facts {
			f := ended(EndResign, sp(Gote))
			f.Findings = completeRecord(81)
			f.Findings.Mate = true
			return f
		}, Sente, ReasonResignation},
		{"a foul during play beats a later mate", nil, func() Facts {
			f := ended(EndMate, nil)
			f.Findings = completeRecord(81)
			f.Findings.Mate = true
			f.Fouls = []FoulClaim{claim(FoulTwoMoves, Sente, 50, FoundDuring)}
			return f
		}, Gote, ReasonFoul},
		{"投了優先 does not shield a foul found during play", func(s *Settings) { s.ResignationPriority = true }, func() Facts {
			f := ended(EndResign, sp(Gote))
			f.Fouls = []FoulClaim{claim(FoulNifu, Sente, 20, FoundDuring)}
			return f
		}, Gote, ReasonFoul},
		{"a foul after the decisive foul does not count", nil, func() Facts {
			f := ended(EndFoul, sp(Sente))
			f.Ending.Ply = 60
			f.Fouls = []FoulClaim{claim(FoulNifu, Sente, 30, FoundDuring), claim(FoulNifu, Gote, 50, FoundAfter)}
			return f
		}, Gote, ReasonFoul},
		{"an earlier foul found after the game beats the foul that ended it", nil, func() Facts {
			f := ended(EndFoul, sp(Sente))
			f.Ending.Ply = 60
			f.Fouls = []FoulClaim{claim(FoulNifu, Sente, 50, FoundDuring), claim(FoulNifu, Gote, 30, FoundAfter)}
			return f
		}, Sente, ReasonFoulAfterGame},
		{"the record's foul beats a report at the same ply", nil, func() Facts {
			f := ended(EndFoul, sp(Gote))
			f.Findings = &Findings{Plies: 41, Foul: &FoulFinding{Ply: 41, Kind: FoulIgnoredCheck, Offender: Sente}}
			return f
		}, Gote, ReasonFoul},
		{"time forfeit reported, but the record ends in mate", nil, func() Facts {
			f := ended(EndTimeForfeit, sp(Sente))
			f.Findings = completeRecord(100) // sente to move, mated
			f.Findings.Mate = true
			return f
		}, Gote, ReasonCheckmate},
	}
	for _, c := range cases {
		s := DefaultSettings()
		if c.s != nil {
			c.s(&s)
		}
		o, err := Decide(s, c.f())
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if o.Winner == nil || *o.Winner != c.winner || o.Reason != c.reason {
			t.Fatalf("%s: %s %s, want %s to win by %s", c.name, o.Result, o.Reason, c.winner, c.reason)
		}
	}
}

func TestDecide_Forfeit(t *testing.T) {
	t.Parallel()
	o := mustDecide(t, DefaultSettings(), ended(EndForfeit, sp(Gote)))
	wantWin(t, o, Sente, ReasonForfeit)
	wantArticle(t, o, "000 第1条第2項")
	f := ended(EndForfeit, nil)
	f.Ending.BothAbsent = true
	o = mustDecide(t, DefaultSettings(), f)
	if o.Result != BothLose || o.Winner != nil || !o.MatchComplete {
		t.Fatalf("%+v", o)
	}
	bad := ended(EndForfeit, sp(Gote))
	bad.Fouls = []FoulClaim{claim(FoulNifu, Sente, 0, FoundAfter)}
	_, err := Decide(DefaultSettings(), bad)
	wantFieldErr(t, err, "fouls")
	bad = ended(EndForfeit, sp(Gote))
	bad.Findings = completeRecord(3)
	_, err = Decide(DefaultSettings(), bad)
	wantFieldErr(t, err, "ending.kind")
	bad = ended(EndForfeit, nil)
	_, err = Decide(DefaultSettings(), bad)
	wantFieldErr(t, err, "ending.by")
}

func TestDecide_BadFactsNameTheField(t *testing.T) {
	t.Parallel()
	cases := []struct {
		field string
		f     func(*Facts)
	}{
		{"ending.kind", func(f *Facts) { f.Ending.Kind = "draw" }},
		{"ending.by", func(f *Facts) { f.Ending.Kind, f.Ending.By = EndResign, nil }},
		{"ending.by", func(f *Facts) { f.Ending.Kind = EndSennichite }},
		{"ending.ply", func(f *Facts) { f.Ending.Ply = -1 }},
		{"ending.foul", func(f *Facts) { f.Ending.Foul = FoulNifu }},
		{"ending.time_left", func(f *Facts) { b := true; f.Ending.TimeLeft = &b }},
		{"ending.both_absent", func(f *Facts) { f.Ending.BothAbsent = true }},
		{"redo_count", func(f *Facts) { f.RedoCount = -1 }},
		{"remaining.gote", func(f *Facts) { f.Remaining = &Times{Gote: dur("-1s")} }},
		{"declaration.pieces_in_camp", func(f *Facts) { f.Declaration = &DeclarationFacts{PiecesInCamp: 40} }},
		{"findings.plies", func(f *Facts) { f.Findings = &Findings{Plies: -1} }},
		{"findings.foul.ply", func(f *Facts) { f.Findings = &Findings{Plies: 3, Foul: &FoulFinding{Ply: 4, Kind: FoulNifu}} }},
		{"findings.sennichite[0].loser", func(f *Facts) {
			f.Findings = &Findings{Plies: 9, Sennichite: []SennichiteFinding{{Ply: 9, Perpetual: true}}}
		}},
		{"findings.max_moves_ply", func(f *Facts) { f.Findings = &Findings{Plies: 600, MaxMovesPly: 400} }},
		{"findings.points", func(f *Facts) { f.Findings = &Findings{Plies: 600, Complete: true, Points: &Points{Sente: -1}} }},
		{"findings.points", func(f *Facts) {
			f.Ending = Ending{Kind: EndJishogiAgreement}
			f.Findings = &Findings{Plies: 300, Complete: true, FinalOccurrences: 1, Points: &Points{Sente: 20, Gote: 20}}
		}},
		{"ending.ply", func(f *Facts) { f.Ending.Ply = 5; f.Findings = completeRecord(6) }},
		{"settings.time.byoyomi", nil},
	}
	for _, c := range cases {
		f := ended(EndResign, sp(Sente))
		s := DefaultSettings()
		if c.f == nil {
			s.Time.Byoyomi = "45s"
		} else {
			c.f(&f)
		}
		_, err := Decide(s, f)
		wantFieldErr(t, err, c.field)
		if !strings.Contains(err.Error(), c.field) {
			t.Fatalf("message %q does not name %s", err, c.field)
		}
	}
}

func BenchmarkDecide(b *testing.B) {
	f := ended(EndResign, sp(Sente))
	f.Findings = completeRecord(150)
	f.Findings.Sennichite = []SennichiteFinding{{Ply: 101, Perpetual: true, Loser: sp(Gote)}}
	f.Fouls = []FoulClaim{claim(FoulNifu, Sente, 41, FoundAfter), claim(FoulClockHand, Gote, 0, FoundDuring)}
	f.Remaining = &Times{Sente: dur("10m"), Gote: dur("2h")}
	s := DefaultSettings()
	for b.Loop() {
		if _, err := Decide(s, f); err != nil {
			b.Fatal(err)
		}
	}
}
