package office_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"kisen/office"
	"kisen/office/seed"
	"kisen/pairing"
	"kisen/store"
	"kisen/store/storetest"
)

// TestPublicationVisibility_UnpublishedPartsAreNotFoundBeforeAnyOtherAnswer
// (issue 21 item 2): office is where the rule lives. For whoever is not the
// event's staff, an unpublished league class and a game it played (void
// since its publication was taken back) read as ErrNotFound — like a
// missing id — in every read, the overview leaves the class out, and a
// write to it is ErrNotFound, not the
// ErrForbidden a published one answers, so an id cannot be probed. The
// event's staff read it all; a staff member without the right role gets
// ErrForbidden. Both databases.
func TestPublicationVisibility_UnpublishedPartsAreNotFoundBeforeAnyOtherAnswer(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 28, 3, 0, 0, 0, time.UTC)
		o := office.New(s, func() time.Time { return now })
		f, err := seed.New(ctx, o, s, now)
		if err != nil {
			t.Fatal(err)
		}
		term, cA, err := f.League(ctx, 11, 1)
		if err != nil {
			t.Fatal(err)
		}
		ps, err := f.Players(ctx, 11, store.PlayerClassC1)
		if err != nil {
			t.Fatal(err)
		}
		var members string
		for _, p := range ps {
			members += *p.Number + "\n"
		}
		cB, err := o.AddLeagueClass(ctx, f.Admin, office.LeagueClassInput{EventID: term.ID, Class: "C1", Members: members, AllowanceMinutes: 360})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := o.GenerateSchedule(ctx, f.Admin, office.ScheduleInput{ClassID: cB.ID, Seed: "7", DrawDate: "2026-06-01"}); err != nil {
			t.Fatal(err)
		}
		if err := o.PublishSchedule(ctx, f.Admin, cB.ID); err != nil {
			t.Fatal(err)
		}
		stB, err := o.Standings(ctx, f.Admin, cB.ID)
		if err != nil {
			t.Fatal(err)
		}
		gameB := stB.Games[0].GameID
		if err := o.UnpublishSchedule(ctx, f.Admin, cB.ID, "日程の誤り"); err != nil {
			t.Fatal(err)
		}
		ko, _, err := f.Knockout(ctx, 4, 1)
		if err != nil {
			t.Fatal(err)
		}
		setup, err := o.CreateStage(ctx, f.Admin, office.StageInput{EventID: ko.ID, Name: "二次予選", Kind: string(pairing.SecondPreliminary)})
		if err != nil {
			t.Fatal(err)
		}
		user := func(login string) office.Actor {
			u := store.User{Login: login, DisplayName: login, PasswordHash: "x", CreatedAt: now, UpdatedAt: now}
			if err := s.DB(ctx).Create(&u).Error; err != nil {
				t.Fatal(err)
			}
			return office.Actor{UserID: u.ID, Login: login}
		}
		recorder, outsider := user("recorder"), user("outsider")
		for _, ev := range []int64{term.ID, ko.ID} {
			if err := s.GrantEventRole(ctx, &store.EventRole{EventID: ev, UserID: recorder.UserID, Role: office.RoleRecorder, GrantedBy: f.Admin.UserID, CreatedAt: now}); err != nil {
				t.Fatal(err)
			}
		}

		reads := map[string]func(a office.Actor) error{
			"LeagueClass": func(a office.Actor) error { _, err := o.LeagueClass(ctx, a, cB.ID); return err },
			"Standings":   func(a office.Actor) error { _, err := o.Standings(ctx, a, cB.ID); return err },
			"ClassOf":     func(a office.Actor) error { _, err := o.ClassOf(ctx, a, cB.ID); return err },
			"Game":        func(a office.Actor) error { _, _, err := o.Game(ctx, a, gameB); return err },
			"GameEventOf": func(a office.Actor) error { _, err := o.GameEventOf(ctx, a, gameB); return err },
			"ClockAt":     func(a office.Actor) error { _, err := o.ClockAt(ctx, a, gameB, 0); return err },
			"StageEventOf": func(a office.Actor) error {
				_, err := o.StageEventOf(ctx, a, setup.ID)
				return err
			},
		}
		for name, read := range reads {
			for who, a := range map[string]office.Actor{"anonymous": {}, "outsider": outsider} {
				if err := read(a); !errors.Is(err, office.ErrNotFound) {
					t.Errorf("%s as %s: %v, want ErrNotFound", name, who, err)
				}
			}
			if err := read(recorder); err != nil {
				t.Errorf("%s as the event's recorder: %v", name, err)
			}
		}
		for who, a := range map[string]office.Actor{"anonymous": {}, "outsider": outsider, "recorder": recorder, "admin": f.Admin} {
			ov, err := o.League(ctx, a, term.ID)
			if err != nil {
				t.Fatal(err)
			}
			listed := false
			for _, c := range ov.Classes {
				listed = listed || c.ID == cB.ID
			}
			if staff := who == "recorder" || who == "admin"; listed != staff {
				t.Errorf("League as %s lists the unpublished class: %v", who, listed)
			}
			if _, ok := ov.Counts[cB.ID]; ok && !listed {
				t.Errorf("League as %s counts the unpublished class's members", who)
			}
		}

		// Writes: hidden → ErrNotFound (as a missing id), seen but not
		// allowed → ErrForbidden. (Stage writes follow the same rule through
		// requireStageRole, issue 21 item 4, tested with it.)
		writes := map[string]func(a office.Actor, class int64) error{
			"GenerateSchedule": func(a office.Actor, c int64) error {
				_, err := o.GenerateSchedule(ctx, a, office.ScheduleInput{ClassID: c, Seed: "x"})
				return err
			},
			"PublishSchedule": func(a office.Actor, c int64) error { return o.PublishSchedule(ctx, a, c) },
			"PreviewSchedulePublication": func(a office.Actor, c int64) error {
				_, err := o.PreviewSchedulePublication(ctx, a, c)
				return err
			},
			"UpdateClassSettings": func(a office.Actor, c int64) error {
				_, err := o.UpdateClassSettings(ctx, a, office.ClassSettingsInput{ClassID: c})
				return err
			},
		}
		for name, w := range writes {
			if err := w(outsider, cB.ID); !errors.Is(err, office.ErrNotFound) {
				t.Errorf("%s on the hidden part as an outsider: %v, want ErrNotFound", name, err)
			}
			if err := w(outsider, 99999999); !errors.Is(err, office.ErrNotFound) {
				t.Errorf("%s on a missing id as an outsider: %v, want ErrNotFound", name, err)
			}
			if err := w(recorder, cB.ID); !errors.Is(err, office.ErrForbidden) {
				t.Errorf("%s on the hidden part as its event's recorder: %v, want ErrForbidden", name, err)
			}
		}
		// A published class is seen: refusing it is ErrForbidden.
		if err := o.PublishSchedule(ctx, outsider, cA.ID); !errors.Is(err, office.ErrForbidden) {
			t.Errorf("PublishSchedule on a published class as an outsider: %v, want ErrForbidden", err)
		}

		// Published again, the class is public.
		if err := o.PublishSchedule(ctx, f.Admin, cB.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := o.Standings(ctx, office.Actor{}, cB.ID); err != nil {
			t.Errorf("Standings of the published class as anonymous: %v", err)
		}
	})
}
