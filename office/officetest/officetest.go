// Package officetest holds the test fixtures shared by office's tests and
// the tests of the rooms under office/ (office/ratings, …): an office over
// one test database with a clock tests move by hand, users, an organiser
// and events, and the game and knockout scenes many tests start from. It
// is imported by tests only.
package officetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"kisen/office"
	"kisen/store"
)

// CheapParams keeps tests fast; it is passed explicitly to
// AccountsWithParams, never set globally.
var CheapParams = office.PasswordParams{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}

// Clock is a test clock tests move by hand.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock starts at 2026-04-01 09:00 UTC.
func NewClock() *Clock { return &Clock{t: time.Date(2026, 4, 1, 9, 0, 0, 0, time.UTC)} }

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock on by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// Fixture is an office over one test database with a movable clock.
type Fixture struct {
	T     *testing.T
	Ctx   context.Context
	S     *store.Store
	Clock *Clock
	O     *office.Office
	Acc   office.Accounts
}

// New returns a fixture over s.
func New(t *testing.T, s *store.Store) *Fixture {
	c := NewClock()
	o := office.New(s, c.Now)
	return &Fixture{T: t, Ctx: context.Background(), S: s, Clock: c, O: o, Acc: o.AccountsWithParams(CheapParams)}
}

// User inserts a user with password pw (hashed cheaply) and returns it
// with its Actor.
func (f *Fixture) User(login, pw string, admin bool) (store.User, office.Actor) {
	f.T.Helper()
	h, err := office.HashPassword(pw, CheapParams, nil)
	if err != nil {
		f.T.Fatal(err)
	}
	now := f.Clock.Now()
	u := store.User{Login: login, DisplayName: "名前 " + login, PasswordHash: h, IsAdmin: admin, CreatedAt: now, UpdatedAt: now}
	if err := f.S.CreateUser(f.Ctx, &u); err != nil {
		f.T.Fatal(err)
	}
	return u, office.Actor{UserID: u.ID, Login: u.Login, DisplayName: u.DisplayName, Admin: admin}
}

// Organiser makes an organiser with settings.
func (f *Fixture) Organiser(settings string) store.Organiser {
	f.T.Helper()
	now := f.Clock.Now()
	org := store.Organiser{Name: "日本将棋連盟", NameEn: "Japan Shogi Association", Kind: office.OrganiserFederation, Settings: settings, CreatedAt: now, UpdatedAt: now}
	if err := f.S.CreateOrganiser(f.Ctx, &org); err != nil {
		f.T.Fatal(err)
	}
	return org
}

// Event makes a draft knockout event of organiser orgID.
func (f *Fixture) Event(admin office.Actor, orgID int64, name string) store.Event {
	f.T.Helper()
	e, err := f.O.CreateEvent(f.Ctx, admin, office.EventInput{
		OrganiserID: orgID, Name: name, Kind: office.EventKnockout, StartDate: "2026-05-01", EndDate: "2026-06-30",
	})
	if err != nil {
		f.T.Fatal(err)
	}
	return e
}

// FieldCodes lists the (field, code) pairs of a validation error.
func FieldCodes(err error) map[string]string {
	out := map[string]string{}
	if ve, ok := err.(*office.ValidationError); ok {
		for _, fe := range ve.Fields {
			out[fe.Field] = fe.Code
		}
	}
	return out
}

// GameFixture: an admin, an event, two players, and a recorder and an
// arbiter with their roles in the event.
type GameFixture struct {
	*Fixture
	Admin, Recorder, Arbiter, Outsider office.Actor
	Event                              store.Event
	Sente, Gote                        store.Player
}

// NewGameFixture builds the game scene over s; settings are the
// organiser's.
func NewGameFixture(t *testing.T, s *store.Store, settings string) *GameFixture {
	f := New(t, s)
	g := &GameFixture{Fixture: f}
	_, g.Admin = f.User("admin", "correct horse battery", true)
	_, g.Recorder = f.User("recorder", "correct horse battery", false)
	_, g.Arbiter = f.User("arbiter", "correct horse battery", false)
	_, g.Outsider = f.User("outsider", "correct horse battery", false)
	g.Event = f.Event(g.Admin, f.Organiser(settings).ID, "テスト棋戦")
	for _, r := range []struct {
		a    office.Actor
		role string
	}{{g.Recorder, office.RoleRecorder}, {g.Arbiter, office.RoleArbiter}} {
		if err := f.O.GrantEventRole(f.Ctx, g.Admin, office.RoleGrant{EventID: g.Event.ID, UserID: r.a.UserID, Role: r.role}); err != nil {
			t.Fatal(err)
		}
	}
	var err error
	g.Sente, err = f.O.CreatePlayer(f.Ctx, g.Admin, office.PlayerInput{Name: "先手 太郎", Reading: "せんて たろう", Kind: "professional", Rank: "四段"})
	if err != nil {
		t.Fatal(err)
	}
	g.Gote, err = f.O.CreatePlayer(f.Ctx, g.Admin, office.PlayerInput{Name: "後手 次郎", Reading: "ごて じろう", Kind: "professional", Rank: "五段"})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// Game creates a first-round game between Sente and Gote in Event.
func (g *GameFixture) Game() store.Game {
	g.T.Helper()
	gm, err := g.O.CreateGame(g.Ctx, g.Admin, office.GameInput{EventID: g.Event.ID, Label: "1回戦", SenteID: &g.Sente.ID, GoteID: &g.Gote.ID, AllowanceMinutes: 180})
	if err != nil {
		g.T.Fatal(err)
	}
	return gm
}

// KnockoutFixture: an administrator, a director and an outsider, a
// knockout event and twelve players, two of them 師弟 pairs since 2000
// (1→2, 3→4) and one pair formed only after the draw date (5→6 from
// 2026-06-01).
type KnockoutFixture struct {
	*Fixture
	Admin, Director, Outsider office.Actor
	Event                     store.Event
	Players                   []store.Player
}

// DrawDay is the day the knockout fixture's brackets are drawn.
const DrawDay = "2026-05-01"

// KanaNames are the readings' second words of the knockout fixture's
// twelve players, in order.
var KanaNames = []string{"あ", "い", "う", "え", "お", "か", "き", "く", "け", "こ", "さ", "し"}

// NewKnockoutFixture builds the knockout scene over s.
func NewKnockoutFixture(t *testing.T, s *store.Store) *KnockoutFixture {
	f := New(t, s)
	k := &KnockoutFixture{Fixture: f}
	_, k.Admin = f.User("admin", "correct horse battery", true)
	_, k.Director = f.User("director", "correct horse battery", false)
	_, k.Outsider = f.User("outsider", "correct horse battery", false)
	k.Event = f.Event(k.Admin, f.Organiser("{}").ID, "トーナメント棋戦")
	if err := f.O.GrantEventRole(f.Ctx, k.Admin, office.RoleGrant{EventID: k.Event.ID, UserID: k.Director.UserID, Role: office.RoleDirector}); err != nil {
		t.Fatal(err)
	}
	for i := range 12 {
		p, err := f.O.CreatePlayer(f.Ctx, k.Admin, office.PlayerInput{Name: fmt.Sprintf("棋士 %02d", i+1), Reading: "きし " + KanaNames[i], Kind: "professional", Rank: "四段"})
		if err != nil {
			t.Fatal(err)
		}
		k.Players = append(k.Players, p)
	}
	for _, m := range []struct {
		master, disciple int
		from             string
	}{{0, 1, "2000-01-01"}, {2, 3, "2000-01-01"}, {4, 5, "2026-06-01"}} {
		if err := f.O.AddMasterPeriod(f.Ctx, k.Admin, k.Players[m.disciple].ID, office.MasterRef{PlayerID: k.Players[m.master].ID}, m.from, ""); err != nil {
			t.Fatal(err)
		}
	}
	return k
}

// Stage creates a first preliminary with every player entered, unseeded.
func (k *KnockoutFixture) Stage() store.KnockoutStage {
	k.T.Helper()
	st, err := k.O.CreateStage(k.Ctx, k.Director, office.StageInput{EventID: k.Event.ID, Name: "一次予選", Kind: "first_preliminary", RoundDates: "2026-05-10 2026-05-20 2026-05-30 2026-06-10"})
	if err != nil {
		k.T.Fatal(err)
	}
	for _, p := range k.Players {
		if _, err := k.O.AddEntrant(k.Ctx, k.Director, office.EntrantInput{StageID: st.ID, PlayerID: p.ID}); err != nil {
			k.T.Fatal(err)
		}
	}
	return st
}

// Draw draws stage stageID with seed on DrawDay as the director.
func (k *KnockoutFixture) Draw(stageID int64, seed string) store.KnockoutStage {
	k.T.Helper()
	st, err := k.O.DrawStage(k.Ctx, k.Director, office.DrawInput{StageID: stageID, Seed: seed, DrawDate: DrawDay})
	if err != nil {
		k.T.Fatal(err)
	}
	return st
}
