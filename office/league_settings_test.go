package office_test

import (
	"errors"
	"slices"
	"testing"

	"kisen/league"
	"kisen/office"
	"kisen/store"
	"kisen/store/storetest"
)

func TestLeagueSettings_SeedRulesCannotBeSwitchedOff_D_A2_D_C2(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		l := newLeagueFixture(t, s, 11)
		c := l.addClass("C2", 4)
		d, _ := l.o.LeagueClass(l.ctx, l.sched, c.ID)
		bad := d.Settings
		bad.MasterStudent = league.PairRule{NotFirst: 1}
		bad.PreviousTerm = league.PreviousAvoid
		bad.GamesPerPlayer = 11
		_, err := l.o.UpdateClassSettings(l.ctx, l.sched, office.ClassSettingsInput{ClassID: c.ID, Settings: bad})
		var v *office.ValidationError
		if !errors.As(err, &v) {
			t.Fatalf("err %v", err)
		}
		got := map[string]any{}
		for _, f := range v.Fields {
			got[f.Field] = f.Args["Rule"]
		}
		want := map[string]any{"master_student.never": "D-A2", "previous_term": "D-C2", "games_per_player": nil}
		for k, rule := range want {
			if r, ok := got[k]; !ok || r != rule {
				t.Errorf("field %s: rule %v (present %v), want %v", k, r, ok, rule)
			}
		}
		after, _ := l.o.LeagueClass(l.ctx, l.sched, c.ID)
		if after.Settings != d.Settings {
			t.Error("refused settings were written")
		}
		if _, err := l.o.UpdateClassSettings(l.ctx, l.recorder, office.ClassSettingsInput{ClassID: c.ID, Settings: d.Settings}); !errors.Is(err, office.ErrForbidden) {
			t.Errorf("recorder: %v", err)
		}
	})
}

// A wider D-A3 window is used by the next draw; on a drawn schedule the
// report shows what the new window breaks; once published nothing changes.
func TestLeagueSettings_D_A3_WindowIsASetting(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		l := newLeagueFixture(t, s, 11)
		c := l.addClass("A", 0)
		d, _ := l.o.LeagueClass(l.ctx, l.sched, c.ID)
		wide := d.Settings
		wide.MasterStudent.NotFirst, wide.MasterStudent.NotLast = 3, 4
		if _, err := l.o.UpdateClassSettings(l.ctx, l.sched, office.ClassSettingsInput{ClassID: c.ID, Settings: wide}); err != nil {
			t.Fatal(err)
		}
		master, student := l.id(0), l.id(1)
		for _, seed := range []string{"1", "42", "20260401"} {
			if _, err := l.o.GenerateSchedule(l.ctx, l.sched, office.ScheduleInput{ClassID: c.ID, Seed: seed, DrawDate: "2026-05-01"}); err != nil {
				t.Fatal(err)
			}
			sched := l.schedule(c)
			r := meetRound(sched, master, student)
			for _, id := range []string{master, student} {
				own := ownGames(sched, id)
				k := slices.Index(own, r) + 1
				if k <= 3 || k > len(own)-4 {
					t.Errorf("seed %s: 師弟 game is %s's game %d of %d, window 3/4", seed, id, k, len(own))
				}
			}
		}
		// Narrow the window to the fifth game only and judge the drawn
		// schedule by hand: it breaks D-A3 unless the pair already meets
		// in both players' fifth game.
		narrow := wide
		narrow.MasterStudent.NotFirst, narrow.MasterStudent.NotLast = 4, 5
		rep, err := l.o.UpdateClassSettings(l.ctx, l.sched, office.ClassSettingsInput{ClassID: c.ID, Settings: narrow})
		if err != nil {
			t.Fatal(err)
		}
		sched := l.schedule(c)
		r := meetRound(sched, master, student)
		inWindow := true
		for _, id := range []string{master, student} {
			own := ownGames(sched, id)
			k := slices.Index(own, r) + 1
			inWindow = inWindow && k > 4 && k <= len(own)-5
		}
		broke := slices.ContainsFunc(rep.Violations, func(v league.Violation) bool { return v.Rule == league.RuleMasterStudentMid })
		if broke == inWindow {
			t.Errorf("window 4/5: report breaks D-A3 = %v, but the pair is in the window = %v", broke, inWindow)
		}
		stored, _ := l.o.LeagueClass(l.ctx, l.sched, c.ID)
		if stored.Settings.MasterStudent != narrow.MasterStudent || len(stored.Report.Violations) != len(rep.Violations) {
			t.Errorf("stored settings %+v, report %d violations", stored.Settings.MasterStudent, len(stored.Report.Violations))
		}
		if stored.Log[len(stored.Log)-1].Action != "settings" {
			t.Errorf("last log action %q", stored.Log[len(stored.Log)-1].Action)
		}
		// Draw again under the narrow window, publish: settings are locked.
		if _, err := l.o.GenerateSchedule(l.ctx, l.sched, office.ScheduleInput{ClassID: c.ID, Seed: "5", DrawDate: "2026-05-01"}); err != nil {
			t.Fatal(err)
		}
		if err := l.o.PublishSchedule(l.ctx, l.sched, c.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := l.o.UpdateClassSettings(l.ctx, l.sched, office.ClassSettingsInput{ClassID: c.ID, Settings: wide}); !errors.Is(err, office.ErrConflict) {
			t.Errorf("settings after publication: %v", err)
		}
	})
}
