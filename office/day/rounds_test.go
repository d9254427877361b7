package day_test

import (
	"testing"

	"kisen/office/day"
	"kisen/store"
	"kisen/store/storetest"
)

// A player who checks in late (遅刻) after round 1 is drawn from the next
// round in a Swiss class; a pools preliminary (either mode) goes on
// without them, and they may still move class since they were never
// drawn.
func TestDay_LateArrivalDrawnFromTheNextRound(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		rec := f.classInput("B級", day.FormatPools)
		rec.PoolMode = "records"
		for _, in := range []day.ClassInput{f.classInput("A級", day.FormatSwiss), rec} {
			c := f.class(in)
			f.present(4, "初段", c.ID)
			f.drawRound(c.ID, 1)
			f.finishRound(c.ID)
			late := f.player("初段", "")
			if _, err := f.d.Enter(f.ctx, f.admin, day.EntryInput{EventID: f.event.ID, PlayerID: late.ID, ClassID: c.ID}); err != nil {
				t.Fatal(err)
			}
			if err := f.d.CheckIn(f.ctx, f.admin, f.event.ID, late.ID, store.CheckinLate); err != nil {
				t.Fatal(err)
			}
			p, err := f.d.PreviewRound(f.ctx, f.admin, c.ID, 2)
			if err != nil {
				t.Fatalf("%s: round 2 with a late arrival: %v", in.Name, err)
			}
			seated := false
			for _, b := range p.Boards {
				seated = seated || b.Sente == late.ID || b.Gote == late.ID
			}
			for _, id := range p.Byes {
				seated = seated || id == late.ID
			}
			if wantSeat := in.Format == day.FormatSwiss; seated != wantSeat {
				t.Fatalf("%s: the late arrival seated in round 2: %v, want %v", in.Name, seated, wantSeat)
			}
			if in.Format == day.FormatPools {
				other := f.class(f.classInput("遅刻組", day.FormatSwiss))
				if err := f.d.MoveEntrant(f.ctx, f.admin, f.event.ID, late.ID, other.ID); err != nil {
					t.Fatalf("move the late arrival: %v", err)
				}
			}
		}
	})
}

// 3勝通過3敗失格 by records, to the end: no pair meets twice (read from the
// stored games), and every player ends with three wins or three losses
// (stored results and byes).
func TestDay_PoolsRecordsNoRematch(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		in := f.classInput("C級", day.FormatPools)
		in.Wins, in.Losses, in.PoolMode = "3", "3", "records"
		c := f.class(in)
		ps := f.present(12, "5級", c.ID)
		for r := 1; r <= 5; r++ {
			if _, err := f.d.PreviewRound(f.ctx, f.admin, c.ID, uint64(r)); fieldCodes(err)["round"] == "day.err.finished" {
				break
			}
			f.drawRound(c.ID, uint64(r))
			f.finishRound(c.ID)
		}
		gs, err := s.GamesOfEvent(f.ctx, f.event.ID)
		if err != nil {
			t.Fatal(err)
		}
		met := map[[2]int64]bool{}
		wins, losses := map[int64]int{}, map[int64]int{}
		for _, g := range gs {
			a, b := *g.SentePlayerID, *g.GotePlayerID
			k := [2]int64{min(a, b), max(a, b)}
			if met[k] {
				t.Errorf("rematch: %s", g.Label)
			}
			met[k] = true
			rv, ok, err := s.EffectiveResult(f.ctx, g.ID)
			if err != nil || !ok {
				t.Fatalf("%s: no result", g.Label)
			}
			if rv.Result == "gote_win" {
				a, b = b, a
			}
			wins[a]++
			losses[b]++
		}
		v, _ := f.d.ClassView(f.ctx, f.admin, c.ID)
		for _, r := range v.Rounds {
			for _, id := range r.Byes {
				wins[id]++
			}
		}
		for _, p := range ps {
			if wins[p.ID] != 3 && losses[p.ID] != 3 {
				t.Errorf("%s ends %d-%d", p.Name, wins[p.ID], losses[p.ID])
			}
		}
	})
}
