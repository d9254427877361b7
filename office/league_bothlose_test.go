package office_test

import (
	"testing"

	"kisen/adjudication"
	"kisen/office"
	"kisen/store"
	"kisen/store/storetest"
)

// A league game where neither player came (both_lose, entered on the game
// page) counts as a loss for each side and decides the game.
func TestLeagueStandings_BothLoseIsALossForEach(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		l := newLeagueFixture(t, s, 11)
		c := l.drawAndPublish("C2", 4)
		st, err := l.o.Standings(l.ctx, l.sched, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		g := st.Games[0]
		if _, err := l.o.RecordResult(l.ctx, l.recorder, g.GameID, office.ResultInput{Result: office.ResultBothLose, Reason: string(adjudication.ReasonDoubleForfeit)}); err != nil {
			t.Fatal(err)
		}
		after, err := l.o.Standings(l.ctx, l.sched, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !after.Games[0].Decided || !after.Games[0].BothLose || after.Games[0].Winner != 0 {
			t.Fatalf("game view %+v", after.Games[0])
		}
		for _, r := range after.Rows {
			isSide := r.PlayerID == g.Sente || r.PlayerID == g.Gote
			wantLosses := 0
			if isSide {
				wantLosses = 1
			}
			if r.Row.Losses != wantLosses || r.Row.Wins != 0 {
				t.Errorf("player %d: %d–%d, want 0–%d", r.PlayerID, r.Row.Wins, r.Row.Losses, wantLosses)
			}
			marked := 0
			for _, cell := range r.Cells {
				if cell.Result == office.ResultBothLose {
					marked++
					if cell.GameID != g.GameID {
						t.Errorf("player %d: both_lose on game %d, want %d", r.PlayerID, cell.GameID, g.GameID)
					}
				}
			}
			if (marked == 1) != isSide || marked > 1 {
				t.Errorf("player %d: %d both_lose cells", r.PlayerID, marked)
			}
			if isSide && r.Row.Unplayed != 3 {
				t.Errorf("player %d: %d unplayed, want 3 (the both_lose game is decided)", r.PlayerID, r.Row.Unplayed)
			}
		}
	})
}
