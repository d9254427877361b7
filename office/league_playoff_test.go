package office_test

import (
	"errors"
	"testing"

	"kisen/league"
	"kisen/office"
	"kisen/store"
	"kisen/store/storetest"
)

// An A-class term whose top three (順位 2, 3, 4) finish level: the
// stepladder runs in 順位 order, one game at a time — 3 v 4 first, the
// winner meets 2 — and the table marks the last winner challenger.
func TestLeaguePlayoff_A_ClassStepladderInJunniOrder(t *testing.T) {
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
		if _, err := l.o.CreatePlayoffGame(l.ctx, l.sched, office.PlayoffGameInput{ClassID: c.ID}); !errors.Is(err, office.ErrConflict) {
			t.Fatalf("playoff before the table is final: %v", err)
		}
		idx := map[int64]int{}
		for i, p := range l.players {
			idx[p.ID] = i
		}
		// Players 1, 2, 3 beat 0, 4, 5 and go round in a circle among
		// themselves (1 > 2 > 3 > 1); 0 > 4 > 5 > 0. Top three: 4–1 each.
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
		for _, g := range st.Games {
			res := office.ResultGoteWin
			if beats(idx[g.Sente], idx[g.Gote]) {
				res = office.ResultSenteWin
			}
			if err := l.o.EnterLeagueResult(l.ctx, l.sched, office.LeagueResultInput{GameID: g.GameID, Result: res}); err != nil {
				t.Fatal(err)
			}
		}
		st, _ = l.o.Standings(l.ctx, l.sched, c.ID)
		p := func(i int) int64 { return l.players[i].ID }
		if st.Playoff == nil || st.Playoff.State.Next != 1 || st.Playoff.NextHigher != p(2) || st.Playoff.NextLower != p(3) {
			t.Fatalf("playoff %+v, want game 1: %d (higher) v %d", st.Playoff, p(2), p(3))
		}
		if _, err := l.o.CreatePlayoffGame(l.ctx, l.recorder, office.PlayoffGameInput{ClassID: c.ID}); !errors.Is(err, office.ErrForbidden) {
			t.Errorf("recorder creates a playoff game: %v", err)
		}
		g1, err := l.o.CreatePlayoffGame(l.ctx, l.sched, office.PlayoffGameInput{ClassID: c.ID, Date: "2027-03-10"})
		if err != nil {
			t.Fatal(err)
		}
		if *g1.SentePlayerID != p(3) || *g1.GotePlayerID != p(2) {
			t.Errorf("game 1 seats %d v %d", *g1.SentePlayerID, *g1.GotePlayerID)
		}
		// One game at a time: game 2 waits for game 1's winner.
		if _, err := l.o.CreatePlayoffGame(l.ctx, l.sched, office.PlayoffGameInput{ClassID: c.ID}); !errors.Is(err, office.ErrConflict) {
			t.Fatalf("second game before the first is decided: %v", err)
		}
		// 順位 4 wins (sente), through the league page's quick form.
		if err := l.o.EnterLeagueResult(l.ctx, l.recorder, office.LeagueResultInput{GameID: g1.ID, Result: office.ResultSenteWin}); err != nil {
			t.Fatal(err)
		}
		st, _ = l.o.Standings(l.ctx, l.sched, c.ID)
		if st.Playoff.State.Next != 2 || st.Playoff.NextHigher != p(1) || st.Playoff.NextLower != p(3) {
			t.Fatalf("after game 1: %+v", st.Playoff)
		}
		next := office.NextTermInput{EventID: l.event.ID, Name: "第86期", StartDate: "2027-06-01", EndDate: "2028-03-31"}
		if _, err := l.o.RollOver(l.ctx, l.sched, next); !errors.Is(err, office.ErrInvalid) {
			t.Errorf("roll-over with the playoff open: %v", err)
		}
		g2, err := l.o.CreatePlayoffGame(l.ctx, l.sched, office.PlayoffGameInput{ClassID: c.ID})
		if err != nil {
			t.Fatal(err)
		}
		if err := l.o.EnterLeagueResult(l.ctx, l.recorder, office.LeagueResultInput{GameID: g2.ID, Result: office.ResultGoteWin}); err != nil {
			t.Fatal(err)
		}
		st, _ = l.o.Standings(l.ctx, l.sched, c.ID)
		if st.Playoff.Challenger != p(1) {
			t.Fatalf("challenger %d, want %d", st.Playoff.Challenger, p(1))
		}
		for _, r := range st.Rows {
			want := league.OutcomeStays
			switch idx[r.PlayerID] {
			case 1:
				want = league.OutcomeChallenger
			case 0, 5, 4:
				// the bottom two by record then 順位: 0, 4, 5 are 1–4; 4 and 5 go down
				if idx[r.PlayerID] != 0 {
					want = league.OutcomeDemoted
				}
			}
			if r.Row.Outcome != want {
				t.Errorf("player %d: %s, want %s", idx[r.PlayerID], r.Row.Outcome, want)
			}
		}
		if _, err := l.o.CreatePlayoffGame(l.ctx, l.sched, office.PlayoffGameInput{ClassID: c.ID}); !errors.Is(err, office.ErrConflict) {
			t.Errorf("a playoff game after the challenger is known: %v", err)
		}
		if _, err := l.o.RollOver(l.ctx, l.sched, next); err != nil {
			t.Errorf("roll-over once the playoff is over: %v", err)
		}
	})
}
