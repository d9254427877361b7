package office_test

import (
	"context"
	"testing"

	"kisen/office"
	"kisen/office/officetest"
	"kisen/store"
)

// The fixtures live in office/officetest, shared with the rooms' tests;
// these adapters give office's own tests their short names.

var cheapParams = officetest.CheapParams

// clock is a test clock tests move by hand.
type clock = officetest.Clock

func newClock() *clock { return officetest.NewClock() }

// fixture is an office over one test database with a movable clock
// (officetest.Fixture under the names office's tests use).
type fixture struct {
	ot    *officetest.Fixture
	t     *testing.T
	ctx   context.Context
	s     *store.Store
	clock *clock
	o     *office.Office
	acc   office.Accounts
}

func newFixture(t *testing.T, s *store.Store) *fixture { return adapt(officetest.New(t, s)) }

func adapt(f *officetest.Fixture) *fixture {
	return &fixture{ot: f, t: f.T, ctx: f.Ctx, s: f.S, clock: f.Clock, o: f.O, acc: f.Acc}
}

// user inserts a user with password pw (hashed cheaply) and returns it
// with its Actor.
func (f *fixture) user(login, pw string, admin bool) (store.User, office.Actor) {
	f.t.Helper()
	return f.ot.User(login, pw, admin)
}

// organiser and event make an organiser with settings and a draft event.
func (f *fixture) organiser(settings string) store.Organiser {
	f.t.Helper()
	return f.ot.Organiser(settings)
}

func (f *fixture) event(admin office.Actor, orgID int64, name string) store.Event {
	f.t.Helper()
	return f.ot.Event(admin, orgID, name)
}

// fieldCodes lists the (field, code) pairs of a validation error.
func fieldCodes(err error) map[string]string { return officetest.FieldCodes(err) }
