package day_test

import (
	"testing"
	"time"

	"kisen/office"
	"kisen/office/day"
	"kisen/store"
	"kisen/store/storetest"
)

// Issue 23 §5, the start page's desk lines read back from the store: a run
// of check-ins by one person to one state in one event is one line naming
// at most office.StartDayNames players (newest first) and counting all;
// another state or another person starts a new line; a draw says its
// round, boards and byes; a walk-in and a withdrawal name their player;
// the waiting games carry their class, round and board.
func TestDay_StartPageTellsTheDesk(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		in := f.classInput("A級", day.FormatSwiss)
		in.Club = "ignore"
		c := f.class(in)
		ps := f.present(7, "初段", c.ID) // 7 present by the director: one line
		now := time.Date(2026, 5, 3, 0, 0, 0, 0, time.UTC)
		u := store.User{Login: "desk2", DisplayName: "受付係", PasswordHash: "x", CreatedAt: now, UpdatedAt: now}
		if err := s.CreateUser(f.ctx, &u); err != nil {
			t.Fatal(err)
		}
		if err := f.o.GrantEventRole(f.ctx, f.admin, office.RoleGrant{EventID: f.event.ID, UserID: u.ID, Role: office.RoleDirector}); err != nil {
			t.Fatal(err)
		}
		desk2 := office.Actor{UserID: u.ID, Login: u.Login}
		if err := f.d.CheckIn(f.ctx, desk2, f.event.ID, ps[0].ID, store.CheckinLate); err != nil { // another person, another state
			t.Fatal(err)
		}
		if err := f.d.CheckIn(f.ctx, f.admin, f.event.ID, ps[1].ID, store.CheckinLate); err != nil { // the director again, late
			t.Fatal(err)
		}
		f.drawRound(c.ID, 5) // 7 players: 3 boards and a bye
		if _, err := f.d.Withdraw(f.ctx, f.admin, f.event.ID, ps[2].ID); err != nil {
			t.Fatal(err)
		}
		v, err := f.o.Start(f.ctx, f.admin)
		if err != nil {
			t.Fatal(err)
		}
		var got []office.DayChange
		for _, ch := range v.Changes {
			if ch.Kind == office.ChangeDay {
				got = append(got, *ch.Day)
			}
		}
		if len(got) != 5 {
			t.Fatalf("%d desk lines, want 5 (withdrawal, draw, late, late, 7 present): %+v", len(got), got)
		}
		if got[0].Action != office.DayLogWithdraw || got[0].Players[0] != ps[2].Name || got[0].ClassName != "A級" {
			t.Errorf("withdrawal: %+v", got[0])
		}
		if got[1].Action != office.DayLogDraw || got[1].Round != 1 || got[1].Boards != 3 || got[1].Byes != 1 {
			t.Errorf("draw: %+v", got[1])
		}
		if got[2].State != store.CheckinLate || got[2].Count != 1 || got[2].Players[0] != ps[1].Name ||
			got[3].State != store.CheckinLate || got[3].Count != 1 || got[3].Players[0] != ps[0].Name {
			t.Errorf("late check-ins by two people: %+v %+v", got[2], got[3])
		}
		if p := got[4]; p.State != store.CheckinPresent || p.Count != 7 || len(p.Players) != office.StartDayNames || p.Players[0] != ps[6].Name {
			t.Errorf("7 present by one person: %+v", p)
		}
		n := 0
		for _, g := range v.Waiting {
			if pl, ok := v.Places[g.GameID]; ok && pl.ClassName == "A級" && pl.Round == 1 && pl.Board >= 1 {
				n++
			}
		}
		if n == 0 || n != len(v.Waiting) {
			t.Errorf("%d of %d waiting games with their class, round and board", n, len(v.Waiting))
		}
	})
}
