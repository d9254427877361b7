package office_test

import (
	"errors"
	"testing"

	"kisen/office"
	"kisen/store"
	"kisen/store/storetest"
)

func TestRoles_GrantRevokeAndRequire(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		_, admin := f.user("root", "root-password", true)
		dirU, director := f.user("director", "director-pass", false)
		arbU, arbiter := f.user("arbiter", "arbiter-pass", false)
		_, stranger := f.user("stranger", "stranger-pass", false)
		org := f.organiser("{}")
		ev := f.event(admin, org.ID, "竜王戦")
		other := f.event(admin, org.ID, "名人戦")

		// Only admins (and directors) grant. Both events are drafts, so a
		// user without a role there is told they do not exist (visibility.go).
		grant := office.RoleGrant{EventID: ev.ID, UserID: dirU.ID, Role: office.RoleDirector}
		if err := f.o.GrantEventRole(f.ctx, stranger, grant); !errors.Is(err, office.ErrNotFound) {
			t.Fatalf("stranger grants: %v", err)
		}
		if err := f.o.GrantEventRole(f.ctx, admin, grant); err != nil {
			t.Fatal(err)
		}
		if err := f.o.GrantEventRole(f.ctx, admin, grant); fieldCodes(err)["user"] != "events.err.role_held" {
			t.Fatalf("granting twice: %v", err)
		}
		// The director may now grant in their event, not in another.
		arb := office.RoleGrant{EventID: ev.ID, UserID: arbU.ID, Role: office.RoleArbiter}
		if err := f.o.GrantEventRole(f.ctx, director, arb); err != nil {
			t.Fatalf("director grants: %v", err)
		}
		if err := f.o.GrantEventRole(f.ctx, director, office.RoleGrant{EventID: other.ID, UserID: arbU.ID, Role: office.RoleArbiter}); !errors.Is(err, office.ErrNotFound) {
			t.Fatalf("director grants in another event: %v", err)
		}
		if err := f.o.GrantEventRole(f.ctx, admin, office.RoleGrant{EventID: ev.ID, UserID: arbU.ID, Role: "king"}); fieldCodes(err)["role"] != "events.err.role" {
			t.Fatalf("unknown role: %v", err)
		}
		if err := f.o.GrantEventRole(f.ctx, admin, office.RoleGrant{EventID: 424242, UserID: arbU.ID, Role: office.RoleArbiter}); !errors.Is(err, office.ErrNotFound) {
			t.Fatalf("unknown event: %v", err)
		}

		for _, tc := range []struct {
			name  string
			actor office.Actor
			event int64
			roles []string
			ok    bool
			want  error // when refused: ErrForbidden, or ErrNotFound for a draft the actor may not see
		}{
			{"admin always", admin, ev.ID, []string{office.RoleRecorder}, true, nil},
			{"admin in any event", admin, other.ID, []string{office.RoleArbiter}, true, nil},
			{"arbiter as arbiter", arbiter, ev.ID, []string{office.RoleArbiter}, true, nil},
			{"arbiter among several", arbiter, ev.ID, []string{office.RoleDirector, office.RoleArbiter}, true, nil},
			{"arbiter is not director", arbiter, ev.ID, []string{office.RoleDirector}, false, office.ErrForbidden},
			{"arbiter elsewhere", arbiter, other.ID, []string{office.RoleArbiter}, false, office.ErrNotFound},
			{"stranger", stranger, ev.ID, []string{office.RoleArbiter, office.RoleRecorder}, false, office.ErrNotFound},
			{"public", office.Actor{}, ev.ID, []string{office.RoleArbiter}, false, office.ErrNotFound},
			{"no roles asked", arbiter, ev.ID, nil, false, office.ErrForbidden},
		} {
			err := f.o.RequireEventRole(f.ctx, tc.actor, tc.event, tc.roles...)
			if tc.ok && err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
			if !tc.ok && !errors.Is(err, tc.want) {
				t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
			}
		}

		holders, err := f.o.EventRoles(f.ctx, admin, ev.ID)
		if err != nil || len(holders) != 2 {
			t.Fatalf("EventRoles: %v %v", holders, err)
		}
		mine, err := f.o.UserEventRoles(f.ctx, arbiter, arbU.ID)
		if err != nil || len(mine) != 1 || mine[0].EventName != "竜王戦" || mine[0].Role != office.RoleArbiter {
			t.Fatalf("UserEventRoles: %+v %v", mine, err)
		}
		if _, err := f.o.UserEventRoles(f.ctx, stranger, arbU.ID); !errors.Is(err, office.ErrForbidden) {
			t.Fatalf("someone else's roles: %v", err)
		}

		// Revoke: the arbiter loses the power at once.
		if err := f.o.RevokeEventRole(f.ctx, arbiter, arb); !errors.Is(err, office.ErrForbidden) {
			t.Fatalf("arbiter revokes: %v", err)
		}
		if err := f.o.RevokeEventRole(f.ctx, director, arb); err != nil {
			t.Fatal(err)
		}
		// With no role left, the draft is hidden from the arbiter again.
		if err := f.o.RequireEventRole(f.ctx, arbiter, ev.ID, office.RoleArbiter); !errors.Is(err, office.ErrNotFound) {
			t.Fatalf("revoked arbiter still passes: %v", err)
		}
		if err := f.o.RevokeEventRole(f.ctx, director, arb); !errors.Is(err, office.ErrNotFound) {
			t.Fatalf("revoking twice: %v", err)
		}
	})
}
