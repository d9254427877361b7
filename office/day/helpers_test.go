package day_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"kisen/office"
	"kisen/office/day"
	"kisen/store"
)

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// fixture is an amateur day over one test database: an administrator, an
// amateur organiser and a day event.
type fixture struct {
	t     *testing.T
	ctx   context.Context
	s     *store.Store
	o     *office.Office
	d     *day.Day
	admin office.Actor
	event store.Event
	n     int
}

func newFixture(t *testing.T, s *store.Store) *fixture {
	t.Helper()
	c := &clock{t: time.Date(2026, 5, 3, 0, 30, 0, 0, time.UTC)}
	o := office.New(s, c.Now)
	f := &fixture{t: t, ctx: context.Background(), s: s, o: o, d: day.New(o)}
	now := c.Now()
	u := store.User{Login: "director", DisplayName: "大会責任者", PasswordHash: "x", IsAdmin: true, CreatedAt: now, UpdatedAt: now}
	if err := s.CreateUser(f.ctx, &u); err != nil {
		t.Fatal(err)
	}
	f.admin = office.Actor{UserID: u.ID, Login: u.Login, Admin: true}
	org := store.Organiser{Name: "県将棋連盟", Kind: office.OrganiserAmateur, Settings: "{}", CreatedAt: now, UpdatedAt: now}
	if err := s.CreateOrganiser(f.ctx, &org); err != nil {
		t.Fatal(err)
	}
	e, err := f.d.CreateDay(f.ctx, f.admin, office.EventInput{OrganiserID: org.ID, Name: "県名人戦", StartDate: "2026-05-03", EndDate: "2026-05-03"})
	if err != nil {
		t.Fatal(err)
	}
	f.event = e
	return f
}

// classInput is a valid class form with the defaults; edit what a test
// needs.
func (f *fixture) classInput(name, format string) day.ClassInput {
	return day.InputOf(f.event.ID, name, "", 0, format, day.DefaultSettings())
}

func (f *fixture) class(in day.ClassInput) day.Class {
	f.t.Helper()
	c, err := f.d.CreateClass(f.ctx, f.admin, in)
	if err != nil {
		f.t.Fatalf("create class %s: %v", in.Name, err)
	}
	return c
}

// player registers a player with a rank and club.
func (f *fixture) player(rank, club string) store.Player {
	f.t.Helper()
	f.n++
	now := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	p := store.Player{Name: fmt.Sprintf("選手%03d", f.n), Reading: fmt.Sprintf("せんしゅ%03d", f.n), Kind: store.PlayerAmateur, Rank: rank, Affiliation: club, CreatedAt: now, UpdatedAt: now}
	if err := f.s.CreatePlayer(f.ctx, &p); err != nil {
		f.t.Fatal(err)
	}
	return p
}

// present enters n players of rank in class c (0: by rank) and checks
// them in.
func (f *fixture) present(n int, rank string, classID int64) []store.Player {
	f.t.Helper()
	var out []store.Player
	for i := 0; i < n; i++ {
		p := f.player(rank, fmt.Sprintf("クラブ%d", i%5))
		if _, err := f.d.Enter(f.ctx, f.admin, day.EntryInput{EventID: f.event.ID, PlayerID: p.ID, ClassID: classID}); err != nil {
			f.t.Fatal(err)
		}
		if err := f.d.CheckIn(f.ctx, f.admin, f.event.ID, p.ID, store.CheckinPresent); err != nil {
			f.t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// drawRound previews and confirms the next round of a class.
func (f *fixture) drawRound(classID int64, seed uint64) day.RoundPreview {
	f.t.Helper()
	p, err := f.d.PreviewRound(f.ctx, f.admin, classID, seed)
	if err != nil {
		f.t.Fatalf("preview: %v", err)
	}
	got, err := f.d.ConfirmRound(f.ctx, f.admin, day.ConfirmInput{ClassID: classID, Round: p.Round, Seed: seed, Fingerprint: p.Fingerprint})
	if err != nil {
		f.t.Fatalf("confirm round %d: %v", p.Round, err)
	}
	return got
}

// finishRound enters a result on every open board of the class's last
// round: sente wins on odd boards, gote on even ones.
func (f *fixture) finishRound(classID int64) {
	f.t.Helper()
	v, err := f.d.ClassView(f.ctx, f.admin, classID)
	if err != nil {
		f.t.Fatal(err)
	}
	r := v.Rounds[len(v.Rounds)-1]
	for _, b := range r.Boards {
		if b.Decided {
			continue
		}
		res := office.ResultSenteWin
		if b.Board%2 == 0 {
			res = office.ResultGoteWin
		}
		if err := f.d.EnterBoardResult(f.ctx, f.admin, day.BoardResultInput{ClassID: classID, Round: r.Number, Board: b.Board, GameID: b.Last.ID, Version: b.Version, Result: res}); err != nil {
			f.t.Fatalf("board %d: %v", b.Board, err)
		}
	}
}

func fieldCodes(err error) map[string]string {
	out := map[string]string{}
	var ve *office.ValidationError
	if errors.As(err, &ve) {
		for _, fe := range ve.Fields {
			out[fe.Field] = fe.Code
		}
	}
	return out
}
