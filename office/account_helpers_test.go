package office_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"kisen/office"
	"kisen/store"
)

// cheapParams keeps tests fast; it is passed explicitly to
// AccountsWithParams, never set globally.
var cheapParams = office.PasswordParams{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}

// clock is a test clock tests move by hand.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 4, 1, 9, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// fixture is an office over one test database with a movable clock.
type fixture struct {
	t     *testing.T
	ctx   context.Context
	s     *store.Store
	clock *clock
	o     *office.Office
	acc   office.Accounts
}

func newFixture(t *testing.T, s *store.Store) *fixture {
	c := newClock()
	o := office.New(s, c.Now)
	return &fixture{t: t, ctx: context.Background(), s: s, clock: c, o: o, acc: o.AccountsWithParams(cheapParams)}
}

// user inserts a user with password pw (hashed cheaply) and returns it
// with its Actor.
func (f *fixture) user(login, pw string, admin bool) (store.User, office.Actor) {
	f.t.Helper()
	h, err := office.HashPassword(pw, cheapParams, nil)
	if err != nil {
		f.t.Fatal(err)
	}
	now := f.clock.Now()
	u := store.User{Login: login, DisplayName: "名前 " + login, PasswordHash: h, IsAdmin: admin, CreatedAt: now, UpdatedAt: now}
	if err := f.s.CreateUser(f.ctx, &u); err != nil {
		f.t.Fatal(err)
	}
	return u, office.Actor{UserID: u.ID, Login: u.Login, DisplayName: u.DisplayName, Admin: admin}
}

// organiser and event make an organiser with settings and a draft event.
func (f *fixture) organiser(settings string) store.Organiser {
	f.t.Helper()
	now := f.clock.Now()
	org := store.Organiser{Name: "日本将棋連盟", NameEn: "Japan Shogi Association", Kind: office.OrganiserFederation, Settings: settings, CreatedAt: now, UpdatedAt: now}
	if err := f.s.CreateOrganiser(f.ctx, &org); err != nil {
		f.t.Fatal(err)
	}
	return org
}

func (f *fixture) event(admin office.Actor, orgID int64, name string) store.Event {
	f.t.Helper()
	e, err := f.o.CreateEvent(f.ctx, admin, office.EventInput{
		OrganiserID: orgID, Name: name, Kind: office.EventKnockout, StartDate: "2026-05-01", EndDate: "2026-06-30",
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return e
}

// fieldCodes lists the (field, code) pairs of a validation error.
func fieldCodes(err error) map[string]string {
	out := map[string]string{}
	if ve, ok := err.(*office.ValidationError); ok {
		for _, fe := range ve.Fields {
			out[fe.Field] = fe.Code
		}
	}
	return out
}
