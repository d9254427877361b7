package office_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"kisen/adjudication"
	"kisen/office"
	"kisen/store"
	"kisen/store/storetest"
)

func TestSettings_DefaultsAreTheFederationRules(t *testing.T) {
	t.Parallel()
	s, err := office.ParseEventSettings("{}")
	if err != nil {
		t.Fatal(err)
	}
	// D-J1 24点法, D-J3 federation declaration, no 投了優先 (D-X3), six
	// hours with the one-hour redo top-up (D-R2), results self-confirm.
	if s.Jishogi != adjudication.Jishogi24 || s.Declaration != adjudication.DeclarationFederation ||
		s.ResignationPriority || !s.Time.RedoTopUp || s.Time.Allowance.D() != 6*time.Hour || s.RequireConfirmation {
		t.Fatalf("%+v", s)
	}
	if _, err := office.ParseEventSettings(`{"kind":"official","jishogi":"27"}`); !errors.Is(err, adjudication.ErrInvalid) {
		t.Fatalf("27点法 in an official event must be refused: %v", err)
	}
}

func TestSettingsForm_ValidationNamesTheField(t *testing.T) {
	t.Parallel()
	base := office.FormOf(office.DefaultEventSettings())
	cases := []struct {
		name  string
		edit  func(f *office.SettingsForm)
		field string
	}{
		{"D-J2 27 points only for amateurs", func(f *office.SettingsForm) { f.Jishogi = "27" }, "jishogi"},
		{"D-J3 27 declaration only for amateurs", func(f *office.SettingsForm) { f.Declaration = "27" }, "declaration"},
		{"D-R4 official games redo again", func(f *office.SettingsForm) { f.RedoThen = "gote_wins"; f.RedoAfter = "2" }, "redo_then"},
		{"allowance not a number", func(f *office.SettingsForm) { f.AllowanceMinutes = "six" }, "allowance"},
		{"D-T1 stopwatch needs 60s", func(f *office.SettingsForm) { f.Timing = "stopwatch"; f.Byoyomi = "30s" }, "byoyomi"},
		{"unknown kind", func(f *office.SettingsForm) { f.Kind = "club" }, "kind"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := base
			c.edit(&f)
			_, err := f.Settings()
			if codes := fieldCodes(err); codes[c.field] == "" {
				t.Fatalf("want an error on %s, got %v", c.field, err)
			}
		})
	}
	amateur := base
	amateur.Kind, amateur.Jishogi, amateur.Declaration, amateur.RedoThen, amateur.RedoAfter = "amateur", "27", "27", "gote_wins", "2"
	s, err := amateur.Settings()
	if err != nil || s.RepeatedRedo.After != 2 || s.Jishogi != adjudication.Jishogi27 {
		t.Fatalf("%+v %v", s, err)
	}
	if office.FormOf(s) != amateur {
		t.Fatalf("form round trip: %+v != %+v", office.FormOf(s), amateur)
	}
}

func TestSettings_EventCopiesOrganiserAndLocks(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		_, admin := f.user("admin", "correct horse battery", true)
		_, director := f.user("director", "correct horse battery", false)
		org := f.organiser(`{"pairing_note":"kept"}`)
		form := office.FormOf(office.DefaultEventSettings())
		form.ResignationPriority = true
		form.AllowanceMinutes = "90"
		if err := f.o.SetOrganiserSettings(f.ctx, director, org.ID, form); !errors.Is(err, office.ErrForbidden) {
			t.Fatalf("only administrators set organiser settings: %v", err)
		}
		if err := f.o.SetOrganiserSettings(f.ctx, admin, org.ID, form); err != nil {
			t.Fatal(err)
		}
		stored, _ := s.OrganiserByID(f.ctx, org.ID)
		for _, key := range []string{`"pairing_note":"kept"`, `"resignation_priority":true`, `"allowance":"1h30m0s"`, `"require_confirmation":false`, `"jishogi":"24"`} {
			if !strings.Contains(stored.Settings, key) {
				t.Fatalf("organiser settings %s lack %s", stored.Settings, key)
			}
		}
		e := f.event(admin, org.ID, "第1期テスト戦")
		if err := f.o.GrantEventRole(f.ctx, admin, office.RoleGrant{EventID: e.ID, UserID: director.UserID, Role: office.RoleDirector}); err != nil {
			t.Fatal(err)
		}
		// A later change of the organiser does not reach the event.
		form.ResignationPriority = false
		if err := f.o.SetOrganiserSettings(f.ctx, admin, org.ID, form); err != nil {
			t.Fatal(err)
		}
		st, err := f.o.EventSettingsState(f.ctx, director, e.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !st.Settings.ResignationPriority || st.Settings.Time.Allowance.D() != 90*time.Minute || st.Locked {
			t.Fatalf("event settings %+v", st)
		}
		// Before the first game starts the director edits freely.
		ev := office.FormOf(st.Settings)
		ev.RequireConfirmation = true
		if err := f.o.SetEventSettings(f.ctx, director, e.ID, ev); err != nil {
			t.Fatal(err)
		}
		// A game starts: locked.
		gm := store.Game{EventID: e.ID, Handicap: "平手", CreatedAt: f.clock.Now(), UpdatedAt: f.clock.Now()}
		if err := s.CreateGame(f.ctx, &gm); err != nil {
			t.Fatal(err)
		}
		if err := s.MarkGameStarted(f.ctx, gm.ID, f.clock.Now()); err != nil {
			t.Fatal(err)
		}
		ev.RequireConfirmation = false
		if err := f.o.SetEventSettings(f.ctx, director, e.ID, ev); fieldCodes(err)[""] != "adjudication.err.settings_locked" {
			t.Fatalf("locked after the first game started: %v", err)
		}
		if err := f.o.UnlockEventSettings(f.ctx, director, e.ID, "誤り"); !errors.Is(err, office.ErrForbidden) {
			t.Fatalf("only administrators unlock: %v", err)
		}
		if err := f.o.UnlockEventSettings(f.ctx, admin, e.ID, "  "); fieldCodes(err)["reason"] == "" {
			t.Fatalf("an unlock needs a reason: %v", err)
		}
		f.clock.Advance(time.Hour)
		if err := f.o.UnlockEventSettings(f.ctx, admin, e.ID, "持ち時間の入力誤り"); err != nil {
			t.Fatal(err)
		}
		if err := f.o.SetEventSettings(f.ctx, director, e.ID, ev); err != nil {
			t.Fatalf("after the unlock: %v", err)
		}
		// The unlock is used up.
		if err := f.o.SetEventSettings(f.ctx, director, e.ID, ev); fieldCodes(err)[""] != "adjudication.err.settings_locked" {
			t.Fatalf("one change per unlock: %v", err)
		}
		st, _ = f.o.EventSettingsState(f.ctx, director, e.ID)
		if len(st.Unlocks) != 1 || st.Unlocks[0].Reason != "持ち時間の入力誤り" || st.Unlocks[0].UnlockedBy != admin.UserID {
			t.Fatalf("unlock log %+v", st.Unlocks)
		}
		if len(st.Changes) != 2 || st.Changes[0].UnlockID != nil || st.Changes[1].UnlockID == nil || *st.Changes[1].UnlockID != st.Unlocks[0].ID {
			t.Fatalf("change log %+v", st.Changes)
		}
	})
}
