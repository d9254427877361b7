package office_test

import (
	"errors"
	"testing"

	"kisen/office"
	"kisen/store"
	"kisen/store/storetest"
)

// With require_confirmation on, 千日手 from the league page's quick form
// behaves like the game page: the redo game (colours swapped, D-R1) exists
// at once, the game waits for confirmation, and once the redo is decided
// and confirmed the pairing counts once (D-R3).
func TestLeagueResult_D_R1_D_R3_RedoWithConfirmation(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		l := newLeagueFixture(t, s, 11)
		if err := s.DB(l.ctx).Model(&store.Event{}).Where("id = ?", l.event.ID).Update("settings", `{"require_confirmation": true}`).Error; err != nil {
			t.Fatal(err)
		}
		c := l.drawAndPublish("C2", 4)
		st, err := l.o.Standings(l.ctx, l.sched, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		g := st.Games[0]
		if err := l.o.EnterLeagueResult(l.ctx, l.recorder, office.LeagueResultInput{GameID: g.GameID, Result: office.ResultRedo}); err != nil {
			t.Fatal(err)
		}
		redos, err := s.RedoGames(l.ctx, g.GameID)
		if err != nil || len(redos) != 1 {
			t.Fatalf("redo games before confirmation: %d %v", len(redos), err)
		}
		redo := redos[0]
		if *redo.SentePlayerID != g.Gote || *redo.GotePlayerID != g.Sente {
			t.Errorf("D-R1: redo %d v %d, scheduled %d v %d", *redo.SentePlayerID, *redo.GotePlayerID, g.Sente, g.Gote)
		}
		st, _ = l.o.Standings(l.ctx, l.sched, c.ID)
		if !st.Games[0].Pending || st.Games[0].Decided {
			t.Fatalf("unconfirmed redo: %+v", st.Games[0])
		}
		confirm := func(gameID int64) {
			t.Helper()
			vs, err := s.ResultHistory(l.ctx, gameID)
			if err != nil || len(vs) == 0 {
				t.Fatalf("history of %d: %v", gameID, err)
			}
			if err := l.o.ConfirmResult(l.ctx, l.admin, vs[len(vs)-1].ID); err != nil {
				t.Fatal(err)
			}
		}
		confirm(g.GameID)
		st, _ = l.o.Standings(l.ctx, l.sched, c.ID)
		if st.Games[0].Current != redo.ID || st.Games[0].Redos != 1 {
			t.Fatalf("after confirmation the chain goes on at the redo: %+v", st.Games[0])
		}
		// The row's game is now the redo game (issue 11): a result posted
		// for the scheduled game is stale.
		if err := l.o.EnterLeagueResult(l.ctx, l.recorder, office.LeagueResultInput{GameID: g.GameID, Version: 1, Result: office.ResultSenteWin}); !errors.Is(err, office.ErrConflict) {
			t.Fatalf("result for the replaced game: %v", err)
		}
		// The redo's sente (the scheduled gote) wins; confirmed by another.
		if err := l.o.EnterLeagueResult(l.ctx, l.recorder, office.LeagueResultInput{GameID: st.Games[0].Current, Version: st.Games[0].Version, Result: office.ResultSenteWin}); err != nil {
			t.Fatal(err)
		}
		confirm(redo.ID)
		st, _ = l.o.Standings(l.ctx, l.sched, c.ID)
		if gv := st.Games[0]; !gv.Decided || gv.Winner != g.Gote {
			t.Fatalf("decided %v winner %d, want %d", gv.Decided, gv.Winner, g.Gote)
		}
		for _, r := range st.Rows {
			switch r.PlayerID {
			case g.Gote:
				if r.Row.Wins != 1 || r.Row.Losses != 0 {
					t.Errorf("winner %d–%d", r.Row.Wins, r.Row.Losses)
				}
			case g.Sente:
				if r.Row.Wins != 0 || r.Row.Losses != 1 {
					t.Errorf("loser %d–%d", r.Row.Wins, r.Row.Losses)
				}
			}
		}
	})
}
