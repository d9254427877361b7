package store_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"kisen/store"
	"kisen/store/storetest"
)

// Issue 12: GameSetOfLeagueClass reads the set GameSetOfEventLean reads
// and the league games LeagueGames reads (void ones left out, round then id
// order, other classes' left out), in one statement fewer, on both
// databases.
func TestGameSetOfLeagueClass_SameAsSeparateReads(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		db := s.DB(ctx)
		now := time.Date(2026, 11, 27, 4, 0, 0, 0, time.UTC)
		create := func(v any) {
			t.Helper()
			if err := db.Create(v).Error; err != nil {
				t.Fatalf("create %T: %v", v, err)
			}
		}
		u := store.User{Login: "director", DisplayName: "大会 責任者", PasswordHash: "x"}
		create(&u)
		org := store.Organiser{Name: "棋戦協会", Kind: "federation"}
		create(&org)
		var ps [4]store.Player
		for i := range ps {
			ps[i] = store.Player{Name: "棋士", Reading: "きし", Kind: "professional", SearchKey: "きし", CreatedAt: now, UpdatedAt: now}
			create(&ps[i])
		}
		var ev, other store.Event
		for _, e := range []*store.Event{&ev, &other} {
			*e = store.Event{OrganiserID: org.ID, Name: "順位戦", Kind: "league", StartDate: "2026-04-01", EndDate: "2027-03-31", CreatedBy: u.ID, CreatedAt: now, UpdatedAt: now}
			create(e)
		}
		classA := store.LeagueClass{EventID: ev.ID, Class: "C1", CreatedAt: now, UpdatedAt: now}
		create(&classA)
		classB := store.LeagueClass{EventID: ev.ID, Class: "C2", CreatedAt: now, UpdatedAt: now}
		create(&classB)
		classX := store.LeagueClass{EventID: other.ID, Class: "C1", CreatedAt: now, UpdatedAt: now}
		create(&classX)
		day := "2026-06-01"
		game := func(e store.Event, sente, gote int, redoOf *int64, n int) store.Game {
			at := now.Add(time.Hour)
			g := store.Game{EventID: e.ID, Label: "R1", SentePlayerID: &ps[sente].ID, GotePlayerID: &ps[gote].ID, Handicap: "平手",
				ScheduledOn: &day, SenteAllowanceS: 3600, GoteAllowanceS: 3600, RedoOfID: redoOf, RedoNumber: n, StartedAt: &at, CreatedAt: now, UpdatedAt: now}
			create(&g)
			return g
		}
		scheduled := func(c store.LeagueClass, round int, g store.Game) {
			create(&store.LeagueGame{ClassID: c.ID, Round: round, GameID: g.ID})
		}
		result := func(g store.Game, version int, res string, confirm bool) {
			r := store.GameResult{GameID: g.ID, Version: version, Result: res, Reason: "resignation", EnteredBy: u.ID, EnteredAt: now}
			create(&r)
			if confirm {
				create(&store.GameResultConfirmation{GameResultID: r.ID, ConfirmedBy: u.ID, ConfirmedAt: now})
			}
		}
		// Class A: round 2 scheduled before round 1 (so the order is the
		// read's), a 千日手 chain (its redo game is no league game), a game
		// made void; class B beside it in the same event; class X in
		// another event.
		a2 := game(ev, 0, 1, nil, 0)
		scheduled(classA, 2, a2)
		result(a2, 1, "sente_win", true)
		a1 := game(ev, 2, 3, nil, 0)
		scheduled(classA, 1, a1)
		result(a1, 1, "redo", true)
		redo := game(ev, 3, 2, &a1.ID, 1)
		result(redo, 1, "gote_win", false)
		a1b := game(ev, 0, 2, nil, 0)
		scheduled(classA, 1, a1b)
		voided := game(ev, 1, 3, nil, 0)
		scheduled(classA, 1, voided)
		create(&store.GameVoid{GameID: voided.ID, VoidedBy: u.ID, VoidedAt: now})
		b1 := game(ev, 0, 3, nil, 0)
		scheduled(classB, 1, b1)
		x1 := game(other, 0, 1, nil, 0)
		scheduled(classX, 1, x1)
		result(x1, 1, "sente_win", true)

		wantSet, err := s.GameSetOfEventLean(ctx, ev.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []store.LeagueClass{classA, classB, classX} {
			want, err := s.LeagueGames(ctx, c.ID)
			if err != nil {
				t.Fatal(err)
			}
			gs, got, err := s.GameSetOfLeagueClass(ctx, c.EventID, c.ID)
			if err != nil {
				t.Fatal(err)
			}
			if c.ID == classA.ID && len(want) != 3 {
				t.Fatalf("fixture: class A has %d league games, want 3", len(want))
			}
			if len(got) != len(want) {
				t.Fatalf("class %d: %d league games, want %d: %+v", c.ID, len(got), len(want), got)
			}
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("class %d league game %d: %+v, want %+v", c.ID, i, got[i], want[i])
				}
			}
			ws := wantSet
			if c.EventID != ev.ID {
				if ws, err = s.GameSetOfEventLean(ctx, c.EventID); err != nil {
					t.Fatal(err)
				}
			}
			if !reflect.DeepEqual(gs, ws) {
				t.Errorf("class %d: set %+v, want GameSetOfEventLean's %+v", c.ID, gs, ws)
			}
		}
	})
}
