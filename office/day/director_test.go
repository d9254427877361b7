package day_test

import (
	"errors"
	"sort"
	"sync"
	"testing"
	"time"

	"kisen/office"
	"kisen/office/day"
	"kisen/store"
	"kisen/store/storetest"
)

// The director's view of a 2勝通過2敗失格 class of eight: boards playing
// with minutes from the round's draw or the game's own start, who waits
// (finished and still in the preliminary, recomputed here from the stored
// boards), and the start button only once the round is complete.
func TestDayDirector_RoundsBoardsAndWaiting(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		c := &clock{t: time.Date(2026, 5, 3, 1, 0, 0, 0, time.UTC)}
		f.o = office.New(s, c.Now)
		f.d = day.New(f.o)
		cl := f.class(f.classInput("A級", day.FormatPools))
		f.present(8, "初段", cl.ID)
		view := func() day.DirectorClass {
			t.Helper()
			v, err := f.d.DirectorView(f.ctx, f.admin, f.event.ID)
			if err != nil {
				t.Fatal(err)
			}
			return v.Classes[0]
		}
		if d := view(); d.Round != 0 || !d.CanStart || len(d.Playing) != 0 {
			t.Fatalf("before round 1: %+v", d)
		}
		f.drawRound(cl.ID, 3)
		cv, _ := f.d.ClassView(f.ctx, f.admin, cl.ID)
		boards := cv.Rounds[0].Boards
		c.mu.Lock()
		c.t = c.t.Add(25 * time.Minute)
		c.mu.Unlock()
		if err := s.MarkGameStarted(f.ctx, boards[0].Last.ID, cv.Rounds[0].DrawnAt.Add(10*time.Minute)); err != nil {
			t.Fatal(err)
		}
		d := view()
		if d.Round != 1 || d.CanStart || d.Complete || len(d.Playing) != 4 || len(d.Waiting) != 0 {
			t.Fatalf("round 1 just drawn: round %d start %v playing %d waiting %v", d.Round, d.CanStart, len(d.Playing), d.Waiting)
		}
		minutes := map[int]int{}
		for _, p := range d.Playing {
			minutes[p.Board] = p.Minutes
		}
		if minutes[boards[0].Board] != 15 || minutes[boards[1].Board] != 25 {
			t.Fatalf("minutes %v: want 15 from the game's start, 25 from the draw", minutes)
		}
		// Three boards decided: their six players wait, one board plays.
		for _, b := range boards[:3] {
			if err := f.d.EnterBoardResult(f.ctx, f.admin, day.BoardResultInput{ClassID: cl.ID, Round: 1, Board: b.Board, GameID: b.Last.ID, Version: b.Version, Result: office.ResultSenteWin}); err != nil {
				t.Fatal(err)
			}
		}
		d = view()
		if len(d.Playing) != 1 || len(d.Waiting) != 6 || d.CanStart {
			t.Fatalf("three decided: playing %d waiting %d start %v", len(d.Playing), len(d.Waiting), d.CanStart)
		}
		f.finishRound(cl.ID)
		if d = view(); !d.CanStart || !d.Complete || len(d.Waiting) != 8 {
			t.Fatalf("round 1 complete: start %v waiting %d", d.CanStart, len(d.Waiting))
		}
		f.drawRound(cl.ID, 4)
		f.finishRound(cl.ID)
		// After round 2: those with two wins or two losses are done.
		cv, _ = f.d.ClassView(f.ctx, f.admin, cl.ID)
		wins, losses := map[int64]int{}, map[int64]int{}
		for _, r := range cv.Rounds {
			for _, b := range r.Boards {
				loser := b.Sente
				if b.Winner == b.Sente {
					loser = b.Gote
				}
				wins[b.Winner]++
				losses[loser]++
			}
		}
		var want []string
		for _, b := range cv.Rounds[1].Boards {
			for _, id := range []int64{b.Sente, b.Gote} {
				if wins[id] < 2 && losses[id] < 2 {
					want = append(want, cv.Names[id])
				}
			}
		}
		d = view()
		got := append([]string(nil), d.Waiting...)
		sort.Strings(got)
		sort.Strings(want)
		if len(want) != 4 || len(got) != len(want) {
			t.Fatalf("after round 2 waiting %v, want %v", got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("after round 2 waiting %v, want %v", got, want)
			}
		}
		if !d.CanStart || d.Finished {
			t.Fatalf("round 3 (the 1–1 players) cannot start: %+v", d)
		}
	})
}

// The desk and the two players race on one board: the desk's entry and
// agreeing reports arrive at once. Exactly one result version is stored;
// every loser of the race is a stale entry (409) or a closed link.
func TestDayReport_DeskAndPlayersRaceOneResult(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		p := newPaperFixture(t, s)
		l := p.links()[1]
		if _, err := p.report(l, l.sente, l.sente); err != nil {
			t.Fatal(err)
		}
		cv, _ := p.d.ClassView(p.ctx, p.admin, p.class.ID)
		b := cv.Rounds[0].Boards[0]
		var wg sync.WaitGroup
		errs := make([]error, 10)
		for i := range errs {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				if i%2 == 0 {
					errs[i] = p.d.EnterBoardResult(p.ctx, p.admin, day.BoardResultInput{ClassID: p.class.ID, Round: 1, Board: b.Board, GameID: b.Last.ID, Version: b.Version, Result: office.ResultGoteWin})
				} else {
					_, errs[i] = p.report(l, l.gote, l.sente)
				}
			}(i)
		}
		wg.Wait()
		for i, err := range errs {
			var stale *office.StaleError
			var closed *day.ReportClosedError
			if err != nil && !errors.As(err, &stale) && !errors.As(err, &closed) {
				t.Errorf("call %d: %v", i, err)
			}
		}
		if got := p.results(l.game); len(got) != 1 {
			t.Fatalf("%d result versions: %+v", len(got), got)
		}
	})
}
