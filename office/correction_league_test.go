package office_test

import (
	"errors"
	"testing"

	"kisen/office"
	"kisen/store"
	"kisen/store/storetest"
)

// TestCorrectionLeague_PlayoffGameFromChangedStandings: an A-class term
// whose 順位 2, 3, 4 tie; playoff game 1 (3 v 4 by 順位) is played and
// confirmed. Correcting a league game so that 順位 4 loses to player 0
// leaves only 2 and 3 tied: game 1 no longer matches the stepladder. The
// correction is refused without a reason and the void choice; with them,
// game 1 is void and a new game 1 between the two still tied is created.
func TestCorrectionLeague_PlayoffGameFromChangedStandings(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		l := newLeagueFixture(t, s, 6)
		c := l.addClass("A", 0)
		if _, err := l.o.GenerateSchedule(l.ctx, l.sched, office.ScheduleInput{ClassID: c.ID, Seed: "11", DrawDate: "2026-05-01"}); err != nil {
			t.Fatal(err)
		}
		if err := l.o.PublishSchedule(l.ctx, l.sched, c.ID); err != nil {
			t.Fatal(err)
		}
		idx := map[int64]int{}
		for i, p := range l.players {
			idx[p.ID] = i
		}
		beats := func(a, b int) bool {
			top := func(i int) bool { return i >= 1 && i <= 3 }
			if top(a) != top(b) {
				return top(a)
			}
			cycle := map[[2]int]bool{{1, 2}: true, {2, 3}: true, {3, 1}: true, {0, 4}: true, {4, 5}: true, {5, 0}: true}
			return cycle[[2]int{a, b}]
		}
		st, err := l.o.Standings(l.ctx, l.sched, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		var g30 office.LeagueGameView
		for _, g := range st.Games {
			res := office.ResultGoteWin
			if beats(idx[g.Sente], idx[g.Gote]) {
				res = office.ResultSenteWin
			}
			if err := l.o.EnterLeagueResult(l.ctx, l.sched, office.LeagueResultInput{GameID: g.GameID, Result: res}); err != nil {
				t.Fatal(err)
			}
			if a, b := idx[g.Sente], idx[g.Gote]; a == 3 && b == 0 || a == 0 && b == 3 {
				g30 = g
			}
		}
		p := func(i int) int64 { return l.players[i].ID }
		g1, err := l.o.CreatePlayoffGame(l.ctx, l.sched, office.PlayoffGameInput{ClassID: c.ID})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.o.RecordResult(l.ctx, l.recorder, g1.ID, office.ResultInput{Result: office.ResultSenteWin, Reason: "resignation"}); err != nil {
			t.Fatal(err)
		}
		// Player 0 beat 3 after all.
		res := office.ResultSenteWin
		if idx[g30.Gote] == 0 {
			res = office.ResultGoteWin
		}
		in := office.ResultInput{Result: res, Reason: "resignation", Note: "記入誤り", Version: 1} // g30 has one version
		affected, err := l.o.PreviewCorrection(l.ctx, l.recorder, office.CorrectionChange{GameID: g30.GameID, Result: &in})
		if err != nil || len(affected) != 1 || affected[0].GameID != g1.ID || !affected[0].Confirmed {
			t.Fatalf("preview %+v %v", affected, err)
		}
		var need *office.CorrectionNeeded
		if _, err := l.o.RecordResult(l.ctx, l.recorder, g30.GameID, in); !errors.As(err, &need) || !need.MissingReason || !need.MissingVoid {
			t.Fatalf("without consent: %v", err)
		}
		ctx := office.WithCorrection(l.ctx, l.recorder, office.CorrectionConsent{Reason: "記入誤り", Void: true, GameID: g30.GameID})
		if _, err := l.o.RecordResult(ctx, l.recorder, g30.GameID, in); err != nil {
			t.Fatal(err)
		}
		if _, v, _ := s.GameVoidOf(l.ctx, g1.ID); !v {
			t.Fatal("playoff game 1 is void")
		}
		st, err = l.o.Standings(l.ctx, l.sched, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		if st.Playoff == nil || st.Playoff.State.Next != 1 || st.Playoff.NextHigher != p(1) || st.Playoff.NextLower != p(2) {
			t.Fatalf("playoff after the correction: %+v", st.Playoff)
		}
		n1, err := l.o.CreatePlayoffGame(l.ctx, l.sched, office.PlayoffGameInput{ClassID: c.ID})
		if err != nil {
			t.Fatal(err)
		}
		if n1.ID == g1.ID || *n1.SentePlayerID != p(2) || *n1.GotePlayerID != p(1) {
			t.Fatalf("new game 1: %+v", n1)
		}
	})
}
