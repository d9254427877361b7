package office_test

import (
	"testing"
	"time"

	"kisen/office"
	"kisen/store"
	"kisen/store/storetest"
)

// byoyomiRecord: 10 minutes each, chess clock with 60 s byoyomi. Sente
// uses 6:00 then 4:30 (4:00 left, so 30 s into byoyomi, D-T2/D-T3); gote
// uses 5:00 and 1:00; sente's 5th move takes 1:00 in byoyomi and loses on
// time (001 第5条1: reaching the limit loses).
const byoyomiRecord = `手合割：平手
手数----指手---------消費時間--
   1 ７六歩(77)   ( 6:00/00:06:00)
   2 ３四歩(33)   ( 5:00/00:05:00)
   3 ２六歩(27)   ( 4:30/00:10:30)
   4 ８四歩(83)   ( 1:00/00:06:00)
   5 ２五歩(26)   ( 1:00/00:11:30)
`

func TestClockAt_D_T2_D_T3_RecordTimesIntoByoyomi(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		g := newGameFixture(t, s, "{}")
		gm, err := g.o.CreateGame(g.ctx, g.admin, office.GameInput{EventID: g.event.ID, SenteID: &g.sente.ID, GoteID: &g.gote.ID, AllowanceMinutes: 10})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := g.o.SaveRecord(g.ctx, g.recorder, gm.ID, office.RecordInput{Text: byoyomiRecord, Format: "kif"}); err != nil {
			t.Fatal(err)
		}
		m := time.Minute
		for _, tc := range []struct {
			ply               int
			sente, gote       time.Duration
			senteByo, goteByo bool
			wantForfei        bool
		}{
			{0, 10 * m, 10 * m, false, false, false},
			{1, 4 * m, 10 * m, false, false, false},
			{2, 4 * m, 5 * m, false, false, false},
			{3, 0, 5 * m, true, false, false},
			{4, 0, 4 * m, true, false, false},
			{5, 0, 4 * m, true, false, true},
			{99, 0, 4 * m, true, false, true}, // past the end: the last move
		} {
			c, err := g.o.ClockAt(g.ctx, g.admin, gm.ID, tc.ply)
			if err != nil {
				t.Fatal(err)
			}
			st := c.State
			if !c.Timed || st.Remaining.Sente.D() != tc.sente || st.Remaining.Gote.D() != tc.gote ||
				st.InByoyomi.Sente != tc.senteByo || st.InByoyomi.Gote != tc.goteByo || (st.Forfeited != nil) != tc.wantForfei {
				t.Errorf("ply %d: %+v; want sente %v gote %v byoyomi %v/%v forfeit %v", tc.ply, c, tc.sente, tc.gote, tc.senteByo, tc.goteByo, tc.wantForfei)
			}
		}
		// D-K1: five minutes given back to sente take them out of byoyomi;
		// a superseded adjustment no longer counts.
		r, _, err := g.o.AddRuling(g.ctx, g.arbiter, gm.ID, office.RulingInput{Kind: "time_adjust", Player: "sente", DeltaMinutes: "3", Reason: "時計の故障"})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := g.o.AddRuling(g.ctx, g.arbiter, gm.ID, office.RulingInput{Kind: "time_adjust", Player: "sente", DeltaMinutes: "5", Reason: "3分は誤り", Supersedes: r.ID}); err != nil {
			t.Fatal(err)
		}
		c, err := g.o.ClockAt(g.ctx, g.admin, gm.ID, 3)
		if err != nil {
			t.Fatal(err)
		}
		if c.State.Remaining.Sente.D() != 5*m || c.State.InByoyomi.Sente || c.Adjusted.Sente.D() != 5*m {
			t.Fatalf("after +5 for sente at ply 3: %+v", c)
		}
	})
}

func TestClockAt_UntimedRecordShowsAllowances(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		g := newGameFixture(t, s, "{}")
		gm := g.game() // 180 minutes
		if _, _, err := g.o.SaveRecord(g.ctx, g.recorder, gm.ID, office.RecordInput{Text: resigned}); err != nil {
			t.Fatal(err)
		}
		c, err := g.o.ClockAt(g.ctx, g.admin, gm.ID, 2)
		if err != nil {
			t.Fatal(err)
		}
		if c.Timed || c.State.Remaining.Sente.D() != 180*time.Minute || c.State.Remaining.Gote.D() != 180*time.Minute {
			t.Fatalf("untimed record: %+v", c)
		}
	})
}
