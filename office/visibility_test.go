package office_test

import (
	"errors"
	"slices"
	"testing"

	"kisen/office"
	"kisen/store"
	"kisen/store/storetest"
)

// TestVisibility_DraftEventOneRule: every reader of an event (Event,
// Events, Stages, Stage, EventBrackets, EventSettingsState, EventHandicap,
// ClockAt, EventRoles) answers a draft by the one rule — administrators and
// any role holder see it, everyone else gets ErrNotFound — and so does a
// write's refusal: ErrNotFound for whoever may not see the draft,
// ErrForbidden for a role holder with the wrong role. Once published the
// public sees it and a refused outsider gets ErrForbidden.
func TestVisibility_DraftEventOneRule(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		_, admin := f.user("root", "root-password", true)
		_, outsider := f.user("outsider", "outsider-pass", false)
		org := f.organiser("{}")
		ev := f.event(admin, org.ID, "下書き戦")
		actors := map[string]office.Actor{"public": {}, "outsider": outsider, "admin": admin}
		for _, role := range office.EventRoleNames {
			u, a := f.user(role, role+"-password", false)
			if err := f.o.GrantEventRole(f.ctx, admin, office.RoleGrant{EventID: ev.ID, UserID: u.ID, Role: role}); err != nil {
				t.Fatal(err)
			}
			actors[role] = a
		}
		st, err := f.o.CreateStage(f.ctx, admin, office.StageInput{EventID: ev.ID, Name: "本戦", Kind: office.StageKinds[2]})
		if err != nil {
			t.Fatal(err)
		}
		p1, err := f.o.CreatePlayer(f.ctx, admin, office.PlayerInput{Name: "甲 一", Reading: "こう", Kind: "professional", Rank: "四段"})
		if err != nil {
			t.Fatal(err)
		}
		p2, err := f.o.CreatePlayer(f.ctx, admin, office.PlayerInput{Name: "乙 二", Reading: "おつ", Kind: "professional", Rank: "四段"})
		if err != nil {
			t.Fatal(err)
		}
		g, err := f.o.CreateGame(f.ctx, admin, office.GameInput{EventID: ev.ID, Label: "1", SenteID: &p1.ID, GoteID: &p2.ID, AllowanceMinutes: 60})
		if err != nil {
			t.Fatal(err)
		}
		readers := map[string]func(a office.Actor) error{
			"Event":              func(a office.Actor) error { _, err := f.o.Event(f.ctx, a, ev.ID); return err },
			"Stages":             func(a office.Actor) error { _, err := f.o.Stages(f.ctx, a, ev.ID); return err },
			"Stage":              func(a office.Actor) error { _, err := f.o.Stage(f.ctx, a, st.ID); return err },
			"EventBrackets":      func(a office.Actor) error { _, err := f.o.EventBrackets(f.ctx, a, ev.ID); return err },
			"EventSettingsState": func(a office.Actor) error { _, err := f.o.EventSettingsState(f.ctx, a, ev.ID); return err },
			"EventHandicap":      func(a office.Actor) error { _, err := f.o.EventHandicap(f.ctx, a, ev.ID); return err },
			"ClockAt":            func(a office.Actor) error { _, err := f.o.ClockAt(f.ctx, a, g.ID, 0); return err },
			"EventRoles":         func(a office.Actor) error { _, err := f.o.EventRoles(f.ctx, a, ev.ID); return err },
		}
		for name, a := range actors {
			sees := name != "public" && name != "outsider"
			for rname, read := range readers {
				err := read(a)
				if sees && err != nil {
					t.Errorf("%s as %s: %v", rname, name, err)
				}
				if !sees && !errors.Is(err, office.ErrNotFound) {
					t.Errorf("%s as %s: %v, want ErrNotFound", rname, name, err)
				}
			}
			list, err := f.o.Events(f.ctx, a)
			if err != nil {
				t.Fatal(err)
			}
			listed := slices.ContainsFunc(list, func(e store.Event) bool { return e.ID == ev.ID })
			if listed != sees {
				t.Errorf("Events as %s lists the draft: %v", name, listed)
			}
			// A write: the director's status change.
			err = f.o.SetEventStatus(f.ctx, a, ev.ID, office.StatusFinished)
			switch {
			case !sees && !errors.Is(err, office.ErrNotFound):
				t.Errorf("status change as %s: %v, want ErrNotFound", name, err)
			case sees && name != "director" && name != "admin" && !errors.Is(err, office.ErrForbidden):
				t.Errorf("status change as %s: %v, want ErrForbidden", name, err)
			}
			if ok := f.o.CanSeeEvent(f.ctx, a, ev); ok != sees {
				t.Errorf("CanSeeEvent as %s: %v", name, ok)
			}
		}
		if err := f.o.SetEventStatus(f.ctx, admin, ev.ID, office.StatusPublished); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"public", "outsider"} {
			if _, err := f.o.Event(f.ctx, actors[name], ev.ID); err != nil {
				t.Errorf("published event as %s: %v", name, err)
			}
		}
		if err := f.o.SetEventStatus(f.ctx, outsider, ev.ID, office.StatusFinished); !errors.Is(err, office.ErrForbidden) {
			t.Errorf("outsider on a published event: %v, want ErrForbidden", err)
		}
	})
}
