package day_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"testing"
	"time"

	"kisen/office"
	"kisen/office/day"
	"kisen/store"
	"kisen/store/storetest"
)

// Issue 21 item 5: each player has their own secret. These tests check the
// property from the stored rows, not from the report code's bookkeeping.

// A secret reports only as its own player: sente's link, used again and
// again and naming either winner, never stores a report by gote and never
// makes an agreement; each link knows whose it is; the secrets are 128
// random bits and differ.
func TestDayReport_SecretReportsOnlyAsItsPlayer(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		p := newPaperFixture(t, s)
		l := p.links()[1]
		st, gt := l.tokens[l.sente], l.tokens[l.gote]
		for _, tok := range []string{st, gt} {
			if b, err := base64.RawURLEncoding.DecodeString(tok); err != nil || len(b) != 16 {
				t.Fatalf("token %q: %d bytes, %v", tok, len(b), err)
			}
		}
		if st == gt {
			t.Fatal("both players got the same secret")
		}
		for tok, want := range map[string]int64{st: l.sente, gt: l.gote} {
			b, err := p.d.ReportLink(p.ctx, tok, "192.0.2.1")
			if err != nil || b.Me != want {
				t.Fatalf("link of %d reads as %d: %v", want, b.Me, err)
			}
		}
		// One phone with sente's link: "sente won", then "gote won" twice.
		for _, w := range []int64{l.sente, l.gote, l.gote} {
			out, _, err := p.d.Report(p.ctx, day.ReportInput{Token: st, IP: "192.0.2.1", Winner: w})
			if err != nil || out != day.ReportWaiting {
				t.Fatalf("sente's link naming %d: %q %v", w, out, err)
			}
		}
		reps, err := s.DayReportsOfGame(p.ctx, l.game)
		if err != nil || len(reps) != 3 {
			t.Fatalf("reports %+v %v", reps, err)
		}
		for _, r := range reps {
			if r.ReporterID != l.sente || !r.OwnSecret || r.ResultID != nil {
				t.Fatalf("a report through sente's link stored as %+v", r)
			}
		}
		if got := p.results(l.game); len(got) != 0 {
			t.Fatalf("one player's reports entered %+v", got)
		}
		// Gote's own report of the same winner is the agreement.
		if out, err := p.report(l, l.gote, l.gote); err != nil || out != day.ReportAgreed {
			t.Fatalf("gote's report: %q %v", out, err)
		}
		if got := p.results(l.game); len(got) != 1 || got[0].Result != office.ResultGoteWin {
			t.Fatalf("stored %+v", got)
		}
	})
}

// Reports made through the single board link of 00130 (own_secret false)
// do not count: gote's own report naming the same winner only waits. A
// token of such a slip is closed as an old slip, with no game in the
// answer, and nothing is appended.
func TestDayReport_OldSingleLinkSlipsRefused(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		p := newPaperFixture(t, s)
		l := p.links()[1]
		old := store.DayReport{GameID: l.game, ReporterID: l.sente, WinnerID: l.gote, At: p.clock.Now()}
		if err := s.AddDayReport(p.ctx, &old); err != nil {
			t.Fatal(err)
		}
		if out, err := p.report(l, l.gote, l.gote); err != nil || out != day.ReportWaiting {
			t.Fatalf("gote after an old-link report: %q %v", out, err)
		}
		if got := p.results(l.game); len(got) != 0 {
			t.Fatalf("an old-link report made an agreement: %+v", got)
		}
		const oldToken = "old-slip-token-0000000"
		sum := sha256Hex(oldToken)
		if err := s.SaveDayReportLink(p.ctx, store.DayReportLink{GameID: l.game, TokenHash: sum, IssuedBy: p.admin.UserID, IssuedAt: p.clock.Now()}); err != nil {
			t.Fatal(err)
		}
		var closed *day.ReportClosedError
		if _, err := p.d.ReportLink(p.ctx, oldToken, "192.0.2.1"); !errors.As(err, &closed) || closed.Why != day.ClosedOldSlip {
			t.Fatalf("old slip's page: %v", err)
		}
		before, _ := s.DayReportsOfGame(p.ctx, l.game)
		if _, _, err := p.d.Report(p.ctx, day.ReportInput{Token: oldToken, IP: "192.0.2.1", Winner: l.sente}); !errors.As(err, &closed) || closed.Why != day.ClosedOldSlip {
			t.Fatalf("old slip's report: %v", err)
		}
		if after, _ := s.DayReportsOfGame(p.ctx, l.game); len(after) != len(before) {
			t.Fatalf("old slip appended a report: %d → %d", len(before), len(after))
		}
	})
}

// closedFor asserts that both links of l are closed for why, on the page
// and on a report, and that the refused report wrote nothing.
func (p *paperFixture) closedFor(l boardLink, why string) {
	p.t.Helper()
	before, _ := p.s.DayReportsOfGame(p.ctx, l.game)
	for who, tok := range l.tokens {
		var closed *day.ReportClosedError
		if _, err := p.d.ReportLink(p.ctx, tok, "192.0.2.1"); !errors.As(err, &closed) || closed.Why != why {
			p.t.Fatalf("page of %d's link: %v, want closed for %s", who, err, why)
		}
		if _, _, err := p.d.Report(p.ctx, day.ReportInput{Token: tok, IP: "192.0.2.1", Winner: who}); !errors.As(err, &closed) || closed.Why != why {
			p.t.Fatalf("report on %d's link: %v, want closed for %s", who, err, why)
		}
	}
	if after, _ := p.s.DayReportsOfGame(p.ctx, l.game); len(after) != len(before) {
		p.t.Fatalf("a closed link appended a report: %d → %d", len(before), len(after))
	}
	if got := p.results(l.game); len(got) != 0 && why != day.ClosedResult && why != day.ClosedRound {
		p.t.Fatalf("a closed link entered %+v", got)
	}
}

// The round closes: the event is finished with a board still open, or a
// later round is drawn and a correction reopens a board of the earlier
// one. Either way the earlier round's links take no report.
func TestDayReport_LinkClosesWithTheRound(t *testing.T) {
	t.Parallel()
	t.Run("event finished", func(t *testing.T) {
		t.Parallel() // its own databases
		storetest.Each(t, func(t *testing.T, s *store.Store) {
			p := newPaperFixture(t, s)
			l := p.links()[1]
			if err := s.SetEventStatus(p.ctx, p.event.ID, p.event.Status, office.StatusFinished, p.admin.UserID, p.clock.Now()); err != nil {
				t.Fatal(err)
			}
			p.closedFor(l, day.ClosedRound)
		})
	})
	t.Run("later round drawn", func(t *testing.T) {
		t.Parallel() // its own databases
		storetest.Each(t, func(t *testing.T, s *store.Store) {
			p := newPaperFixture(t, s)
			l := p.links()[1]
			p.finishRound(p.class.ID)
			p.drawRound(p.class.ID, 8)
			// The desk corrects board 1 of round 1 to "pending": undecided
			// again, but its round is over.
			vs := p.results(l.game)
			if _, err := p.o.RecordResult(p.ctx, p.admin, l.game, office.ResultInput{Result: office.ResultPending, Reason: "arbiter", Version: vs[len(vs)-1].Version}); err != nil {
				t.Fatal(err)
			}
			n := len(p.results(l.game))
			p.closedFor(l, day.ClosedRound)
			if len(p.results(l.game)) != n {
				t.Fatal("a closed link entered a result")
			}
		})
	})
}

// The director who printed the slips loses the role, or their account is
// disabled: the links stop working. A director (not an administrator)
// issues them here.
func TestDayReport_LinkClosesWhenTheIssuerLosesTheRole(t *testing.T) {
	t.Parallel()
	for _, how := range []string{"revoked", "disabled"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel() // its own databases
			storetest.Each(t, func(t *testing.T, s *store.Store) {
				p := newPaperFixture(t, s)
				now := p.clock.Now()
				u := store.User{Login: "desk-" + how, DisplayName: "本部 " + how, PasswordHash: "x", CreatedAt: now, UpdatedAt: now}
				if err := s.CreateUser(p.ctx, &u); err != nil {
					t.Fatal(err)
				}
				if err := s.GrantEventRole(p.ctx, &store.EventRole{EventID: p.event.ID, UserID: u.ID, Role: office.RoleDirector, GrantedBy: p.admin.UserID, CreatedAt: now}); err != nil {
					t.Fatal(err)
				}
				director := office.Actor{UserID: u.ID, Login: u.Login}
				toks, err := p.d.IssueSlipLinks(p.ctx, director, p.class.ID, 1)
				if err != nil {
					t.Fatal(err)
				}
				v, _ := p.d.ClassView(p.ctx, p.admin, p.class.ID)
				b := v.Rounds[0].Boards[0]
				l := boardLink{tokens: map[int64]string{b.Sente: toks[b.Root.ID].Sente, b.Gote: toks[b.Root.ID].Gote}, sente: b.Sente, gote: b.Gote, game: b.Last.ID}
				if _, err := p.d.ReportLink(p.ctx, l.tokens[l.sente], "192.0.2.1"); err != nil {
					t.Fatalf("while the issuer directs: %v", err)
				}
				if out, err := p.report(l, l.sente, l.sente); err != nil || out != day.ReportWaiting {
					t.Fatalf("sente: %q %v", out, err)
				}
				switch how {
				case "revoked":
					if _, err := s.RevokeEventRole(p.ctx, p.event.ID, u.ID, office.RoleDirector); err != nil {
						t.Fatal(err)
					}
				case "disabled":
					yes := true
					if err := s.UpdateUser(p.ctx, u.ID, store.UserUpdate{Disabled: &yes}, now); err != nil {
						t.Fatal(err)
					}
				}
				p.closedFor(l, day.ClosedIssuer)
				if got := p.results(l.game); len(got) != 0 {
					t.Fatalf("gote's agreeing report after the issuer lost the role entered %+v", got)
				}
			})
		})
	}
}

// One player's report alone is not a result; after the wait the desk sees
// it and may confirm it. The result is attributed to that report and the
// person confirming (entered_by is that person, the source names the
// report); a report of another board is 404 and a stale version 409.
func TestDayReport_DeskConfirmsALoneReport(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		p := newPaperFixture(t, s)
		ls := p.links()
		l, other := ls[1], ls[2]
		if _, err := p.report(l, l.gote, l.gote); err != nil {
			t.Fatal(err)
		}
		if _, err := p.report(other, other.sente, other.sente); err != nil {
			t.Fatal(err)
		}
		p.advance(11 * time.Minute)
		var desk day.DeskReport
		for _, d := range p.director().Desk {
			if d.Board == 1 {
				desk = d
			}
		}
		if desk.ReportID == 0 || desk.GameID != l.game || desk.ReporterName == "" || desk.WinnerName != desk.ReporterName {
			t.Fatalf("desk row %+v", desk)
		}
		now := p.clock.Now()
		u := store.User{Login: "recorder", DisplayName: "記録係", PasswordHash: "x", CreatedAt: now, UpdatedAt: now}
		if err := s.CreateUser(p.ctx, &u); err != nil {
			t.Fatal(err)
		}
		if err := s.GrantEventRole(p.ctx, &store.EventRole{EventID: p.event.ID, UserID: u.ID, Role: office.RoleRecorder, GrantedBy: p.admin.UserID, CreatedAt: now}); err != nil {
			t.Fatal(err)
		}
		rec := office.Actor{UserID: u.ID, Login: u.Login}
		in := day.LoneReportInput{ClassID: p.class.ID, Round: 1, Board: 1, ReportID: desk.ReportID, GameID: desk.GameID, Version: desk.Version}
		// Board 2's report on board 1's form: not found, nothing written.
		otherReps, _ := s.DayReportsOfGame(p.ctx, other.game)
		bad := in
		bad.ReportID = otherReps[0].ID
		if err := p.d.ConfirmLoneReport(p.ctx, rec, bad); !errors.Is(err, office.ErrNotFound) {
			t.Fatalf("another board's report: %v", err)
		}
		stale := in
		stale.Version = 3
		var se *office.StaleError
		if err := p.d.ConfirmLoneReport(p.ctx, rec, stale); !errors.As(err, &se) {
			t.Fatalf("stale version: %v", err)
		}
		if got := p.results(l.game); len(got) != 0 {
			t.Fatalf("refused confirmations wrote %+v", got)
		}
		if err := p.d.ConfirmLoneReport(p.ctx, rec, in); err != nil {
			t.Fatal(err)
		}
		got := p.results(l.game)
		if len(got) != 1 || got[0].Result != office.ResultGoteWin || got[0].Reason != day.ReasonPlayerReportConfirmed || got[0].EnteredBy != u.ID {
			t.Fatalf("stored %+v", got)
		}
		src, err := s.DayReportResultsOf(p.ctx, []int64{got[0].ID})
		r := src[got[0].ID]
		if err != nil || r.ConfirmedBy == nil || *r.ConfirmedBy != u.ID || r.GoteReportID == nil || *r.GoteReportID != desk.ReportID || r.SenteReportID != nil {
			t.Fatalf("source %+v %v", src, err)
		}
		// Confirming again: the board is decided, nothing more is written.
		if err := p.d.ConfirmLoneReport(p.ctx, rec, in); err == nil {
			t.Fatal("a second confirmation was accepted")
		}
		if got := p.results(l.game); len(got) != 1 {
			t.Fatalf("second confirmation wrote %+v", got)
		}
	})
}

func sha256Hex(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// When the event requires a second person to confirm results, the agreed
// players' report waits, and the director who issued the secrets may
// confirm it: they did not enter it (entered_by names them only because
// the column must name a user). A result a person entered stays
// unconfirmable by that person.
func TestDayReport_IssuerMayConfirmTheAgreedReport(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		p := newPaperFixture(t, s)
		if err := s.DB(p.ctx).Model(&store.Event{}).Where("id = ?", p.event.ID).Update("settings", `{"require_confirmation": true}`).Error; err != nil {
			t.Fatal(err)
		}
		ls := p.links()
		l := ls[1]
		if _, err := p.report(l, l.sente, l.sente); err != nil {
			t.Fatal(err)
		}
		if out, err := p.report(l, l.gote, l.sente); err != nil || out != day.ReportAgreed {
			t.Fatalf("agreement: %q %v", out, err)
		}
		got := p.results(l.game)
		if len(got) != 1 || got[0].Confirmed() {
			t.Fatalf("agreed version %+v, want one waiting for confirmation", got)
		}
		if err := p.o.ConfirmResult(p.ctx, p.admin, got[0].ID); err != nil {
			t.Fatalf("the issuer confirming the players' report: %v", err)
		}
		if got := p.results(l.game); !got[0].Confirmed() || *got[0].ConfirmedBy != p.admin.UserID {
			t.Fatalf("after confirmation %+v", got)
		}
		// The desk's own entry on board 2: its enterer still may not confirm it.
		v, _ := p.d.ClassView(p.ctx, p.admin, p.class.ID)
		b := v.Rounds[0].Boards[1]
		if err := p.d.EnterBoardResult(p.ctx, p.admin, day.BoardResultInput{ClassID: p.class.ID, Round: 1, Board: b.Board, GameID: b.Last.ID, Version: b.Version, Result: office.ResultSenteWin}); err != nil {
			t.Fatal(err)
		}
		own := p.results(b.Last.ID)
		if err := p.o.ConfirmResult(p.ctx, p.admin, own[0].ID); fieldCodes(err)["result"] == "" {
			t.Fatalf("self-confirmation of a desk entry: %v", err)
		}
	})
}
