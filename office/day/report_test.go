package day_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"kisen/office"
	"kisen/office/day"
	"kisen/store"
	"kisen/store/storetest"
)

// paperFixture is a day with one Swiss class of four present players, QR
// slips on, round 1 drawn, and a clock the test moves.
type paperFixture struct {
	*fixture
	clock *clock
	class day.Class
}

func newPaperFixture(t *testing.T, s *store.Store) *paperFixture {
	t.Helper()
	f := newFixture(t, s)
	c := &clock{t: time.Date(2026, 5, 3, 1, 0, 0, 0, time.UTC)}
	f.o = office.New(s, c.Now)
	f.d = day.New(f.o)
	p := &paperFixture{fixture: f, clock: c}
	p.class = f.class(f.classInput("A級", day.FormatSwiss))
	f.present(4, "初段", p.class.ID)
	if err := f.d.SetPaper(f.ctx, f.admin, day.PaperInput{ClassID: p.class.ID, QR: true, WaitMinutes: "10"}); err != nil {
		t.Fatal(err)
	}
	f.drawRound(p.class.ID, 7)
	return p
}

func (p *paperFixture) advance(d time.Duration) {
	p.clock.mu.Lock()
	p.clock.t = p.clock.t.Add(d)
	p.clock.mu.Unlock()
}

// links issues round 1's slip links and returns them by board number with
// each board's players.
func (p *paperFixture) links() map[int]boardLink {
	p.t.Helper()
	toks, err := p.d.IssueSlipLinks(p.ctx, p.admin, p.class.ID, 1)
	if err != nil {
		p.t.Fatal(err)
	}
	v, err := p.d.ClassView(p.ctx, p.admin, p.class.ID)
	if err != nil {
		p.t.Fatal(err)
	}
	out := map[int]boardLink{}
	for _, b := range v.Rounds[0].Boards {
		sec := toks[b.Root.ID]
		out[b.Board] = boardLink{tokens: map[int64]string{b.Sente: sec.Sente, b.Gote: sec.Gote}, sente: b.Sente, gote: b.Gote, game: b.Last.ID}
	}
	if len(out) != 2 || len(toks) != 2 {
		p.t.Fatalf("links for %d boards, %d tokens; want 2", len(out), len(toks))
	}
	return out
}

// boardLink is a board's two secrets, by player.
type boardLink struct {
	tokens      map[int64]string
	sente, gote int64
	game        int64
}

// report taps winner on reporter's own link.
func (p *paperFixture) report(l boardLink, reporter, winner int64) (string, error) {
	out, _, err := p.d.Report(p.ctx, day.ReportInput{Token: l.tokens[reporter], IP: "192.0.2.1", Winner: winner})
	return out, err
}

// results reads the stored result versions of a game straight from the
// store, independent of the report code's bookkeeping.
func (p *paperFixture) results(gameID int64) []store.ResultVersion {
	p.t.Helper()
	gs, err := p.s.GameSetOfEvent(p.ctx, p.event.ID)
	if err != nil {
		p.t.Fatal(err)
	}
	return gs.Versions[gameID]
}

func (p *paperFixture) director() day.DirectorClass {
	p.t.Helper()
	v, err := p.d.DirectorView(p.ctx, p.admin, p.event.ID)
	if err != nil {
		p.t.Fatal(err)
	}
	return v.Classes[0]
}

// Both players name the same winner, each through their own secret: one
// result version, gote wins, reason "players' report", its source the two
// reports (entered_by holds the issuing director only because the column
// must name a user).
func TestDayReport_AgreeEntersTheResult(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		p := newPaperFixture(t, s)
		l := p.links()[1]
		if out, err := p.report(l, l.sente, l.gote); err != nil || out != day.ReportWaiting {
			t.Fatalf("first report: %s %v", out, err)
		}
		if got := p.results(l.game); len(got) != 0 {
			t.Fatalf("one report entered a result: %+v", got)
		}
		if out, err := p.report(l, l.gote, l.gote); err != nil || out != day.ReportAgreed {
			t.Fatalf("second report: %s %v", out, err)
		}
		got := p.results(l.game)
		if len(got) != 1 || got[0].Result != office.ResultGoteWin || got[0].Reason != day.ReasonPlayersReport || got[0].EnteredBy != p.admin.UserID || !got[0].Confirmed() {
			t.Fatalf("stored %+v", got)
		}
		reps, err := s.DayReportsOfGame(p.ctx, l.game)
		if err != nil || len(reps) != 2 || reps[1].ResultID == nil || *reps[1].ResultID != got[0].ID || reps[0].ResultID != nil {
			t.Fatalf("reports %+v %v", reps, err)
		}
		// Attributed to the two reports, not to a person.
		src, err := s.DayReportResultsOf(p.ctx, []int64{got[0].ID})
		r := src[got[0].ID]
		if err != nil || r.SenteReportID == nil || *r.SenteReportID != reps[0].ID || r.GoteReportID == nil || *r.GoteReportID != reps[1].ID || r.ConfirmedBy != nil {
			t.Fatalf("source %+v %v", src, err)
		}
		if d := p.director(); len(d.Desk) != 0 || len(d.Playing) != 1 {
			t.Fatalf("director: desk %+v playing %+v", d.Desk, d.Playing)
		}
	})
}

// The two players name different winners: no result, the board is on the
// desk's list with what each said.
func TestDayReport_DisagreeGoesToTheDesk(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		p := newPaperFixture(t, s)
		l := p.links()[2]
		if out, err := p.report(l, l.sente, l.sente); err != nil || out != day.ReportWaiting {
			t.Fatalf("first: %s %v", out, err)
		}
		if out, err := p.report(l, l.gote, l.gote); err != nil || out != day.ReportDisagree {
			t.Fatalf("second: %s %v", out, err)
		}
		if got := p.results(l.game); len(got) != 0 {
			t.Fatalf("a disagreement entered %+v", got)
		}
		d := p.director()
		if len(d.Desk) != 1 || !d.Desk[0].Disagree || d.Desk[0].Board != 2 || d.Desk[0].SenteSaid == d.Desk[0].GoteSaid || d.Desk[0].SenteSaid == "" {
			t.Fatalf("desk %+v", d.Desk)
		}
		// The desk settles it through the board page; the board leaves the list.
		v, _ := p.d.ClassView(p.ctx, p.admin, p.class.ID)
		b := v.Rounds[0].Boards[1]
		if err := p.d.EnterBoardResult(p.ctx, p.admin, day.BoardResultInput{ClassID: p.class.ID, Round: 1, Board: b.Board, GameID: b.Last.ID, Version: b.Version, Result: office.ResultSenteWin}); err != nil {
			t.Fatal(err)
		}
		if d := p.director(); len(d.Desk) != 0 {
			t.Fatalf("settled board still on the desk: %+v", d.Desk)
		}
	})
}

// One side reports and the other does not within the class's wait: the
// board goes to the desk only once the wait has passed.
func TestDayReport_OneSideAloneGoesToTheDeskAfterTheWait(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		p := newPaperFixture(t, s)
		l := p.links()[1]
		if _, err := p.report(l, l.gote, l.sente); err != nil {
			t.Fatal(err)
		}
		p.advance(9 * time.Minute)
		if d := p.director(); len(d.Desk) != 0 {
			t.Fatalf("on the desk before the wait: %+v", d.Desk)
		}
		p.advance(2 * time.Minute)
		d := p.director()
		if len(d.Desk) != 1 || d.Desk[0].Disagree || d.Desk[0].Minutes != 11 || d.Desk[0].GoteSaid == "" || d.Desk[0].SenteSaid != "" {
			t.Fatalf("desk after the wait: %+v", d.Desk)
		}
	})
}

// After a result in force neither link takes a report and both say so;
// nothing is appended.
func TestDayReport_TokenAfterResultRefused(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		p := newPaperFixture(t, s)
		l := p.links()[1]
		p.finishRound(p.class.ID)
		_, err := p.report(l, l.sente, l.sente)
		var closed *day.ReportClosedError
		if !errors.As(err, &closed) || !errors.Is(err, office.ErrConflict) || closed.Why != day.ClosedResult {
			t.Fatalf("report after the result: %v", err)
		}
		for _, tok := range l.tokens {
			if _, err := p.d.ReportLink(p.ctx, tok, "192.0.2.1"); !errors.As(err, &closed) || closed.Why != day.ClosedResult {
				t.Fatalf("link page after the result: %v", err)
			}
		}
		if reps, _ := s.DayReportsOfGame(p.ctx, l.game); len(reps) != 0 {
			t.Fatalf("refused report stored: %+v", reps)
		}
	})
}

// Both players of a board, each on several phones, report the same winner
// at once: exactly one result version, and every call either agreed,
// waited, or was refused because the result was in.
func TestDayReport_ConcurrentReportsOneResult(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		p := newPaperFixture(t, s)
		l := p.links()[1]
		var wg sync.WaitGroup
		outs := make([]string, 16)
		errs := make([]error, 16)
		for i := range outs {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				who := l.sente
				if i%2 == 1 {
					who = l.gote
				}
				outs[i], errs[i] = p.report(l, who, l.sente)
			}(i)
		}
		wg.Wait()
		agreed := 0
		for i, err := range errs {
			var closed *day.ReportClosedError
			switch {
			case err == nil && outs[i] == day.ReportAgreed:
				agreed++
			case err == nil && outs[i] == day.ReportWaiting:
			case errors.As(err, &closed):
			default:
				t.Errorf("call %d: %q %v", i, outs[i], err)
			}
		}
		got := p.results(l.game)
		if agreed != 1 || len(got) != 1 || got[0].Result != office.ResultSenteWin {
			t.Fatalf("%d agreed, versions %+v", agreed, got)
		}
	})
}

// Wrong tokens: refused as unknown, and after MaxMisses from one address
// even a good token is refused for the window; another address is not.
func TestDayReport_WrongTokensRateLimited(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		p := newPaperFixture(t, s)
		l := p.links()[1]
		tok := l.tokens[l.sente]
		for i := 0; i < day.MaxMisses; i++ {
			if _, err := p.d.ReportLink(p.ctx, "AAAAAAAAAAAAAAAAAAAAAA", "198.51.100.7"); !errors.Is(err, day.ErrBadToken) {
				t.Fatalf("miss %d: %v", i, err)
			}
		}
		if _, err := p.d.ReportLink(p.ctx, tok, "198.51.100.7"); !errors.Is(err, day.ErrTooManyMisses) {
			t.Fatalf("after %d misses: %v", day.MaxMisses, err)
		}
		if _, _, err := p.d.Report(p.ctx, day.ReportInput{Token: tok, IP: "198.51.100.7", Winner: l.sente}); !errors.Is(err, day.ErrTooManyMisses) {
			t.Fatalf("report after misses: %v", err)
		}
		if _, err := p.d.ReportLink(p.ctx, tok, "192.0.2.1"); err != nil {
			t.Fatalf("another address: %v", err)
		}
		p.advance(day.MissWindow + time.Minute)
		if _, err := p.d.ReportLink(p.ctx, tok, "198.51.100.7"); err != nil {
			t.Fatalf("after the window: %v", err)
		}
	})
}

// A winner who is not one of the board's players, and a wait that is not
// 1–240 minutes, are field errors; printing again replaces both of the old
// slip's codes.
func TestDayReport_BadInputAndReprint(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		p := newPaperFixture(t, s)
		ls := p.links()
		l, other := ls[1], ls[2]
		if _, err := p.report(l, l.sente, other.gote); fieldCodes(err)["winner"] == "" {
			t.Fatalf("stranger winning: %v", err)
		}
		for _, w := range []string{"", "0", "241", "x", "1.5"} {
			err := p.d.SetPaper(p.ctx, p.admin, day.PaperInput{ClassID: p.class.ID, QR: true, WaitMinutes: w})
			if fieldCodes(err)["wait_minutes"] == "" {
				t.Errorf("wait %q: %v", w, err)
			}
		}
		again := p.links()[1]
		for who, tok := range l.tokens {
			if again.tokens[who] == tok {
				t.Fatal("reprint kept a token")
			}
			if _, err := p.report(boardLink{tokens: l.tokens}, who, l.sente); !errors.Is(err, day.ErrBadToken) {
				t.Fatalf("old slip: %v", err)
			}
		}
		if _, err := p.report(again, again.sente, again.sente); err != nil {
			t.Fatalf("new slip: %v", err)
		}
		// Reports are a record: the database refuses to change one.
		err := s.DB(context.Background()).Exec("UPDATE day_reports SET winner_id = reporter_id").Error
		if !errors.Is(store.AppendOnly(err), store.ErrAppendOnly) {
			t.Fatalf("update of a report: %v", err)
		}
	})
}
