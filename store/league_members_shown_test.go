package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"kisen/store"
	"kisen/store/storetest"
)

// Issue 12: LeagueMembersShown reads the members LeagueMembers reads, in
// the same order, and their players as PlayersByIDs reads them (every
// column a page shows), on both databases.
func TestLeagueMembersShown_SameAsFullReads(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 27, 4, 0, 0, 0, time.UTC)
		u := store.User{Login: "sato", DisplayName: "佐藤", PasswordHash: "x", CreatedAt: now, UpdatedAt: now}
		if err := s.CreateUser(ctx, &u); err != nil {
			t.Fatal(err)
		}
		org := store.Organiser{Name: "連盟", Kind: "federation", CreatedAt: now, UpdatedAt: now}
		if err := s.CreateOrganiser(ctx, &org); err != nil {
			t.Fatal(err)
		}
		e := store.Event{OrganiserID: org.ID, Name: "順位戦", Kind: "league", StartDate: "2026-04-01", EndDate: "2027-03-31", Status: "draft", CreatedBy: u.ID, CreatedAt: now, UpdatedAt: now}
		if err := s.CreateEvent(ctx, &e); err != nil {
			t.Fatal(err)
		}
		var ps []*store.Player
		for i := range 7 {
			p := &store.Player{Name: fmt.Sprintf("棋士 %d", i), Reading: fmt.Sprintf("きし %d", i), Kind: "professional", Rank: "四段", Class: "C2",
				Affiliation: "関西", CreatedAt: now, UpdatedAt: now}
			if i%2 == 0 {
				num := fmt.Sprintf("9%03d", i)
				p.Number, p.BirthDate = &num, store.NewCivilDate(1990+i, 4, 1+i)
			}
			ps = append(ps, p)
		}
		if err := s.CreatePlayers(ctx, ps); err != nil {
			t.Fatal(err)
		}
		// Junni not in id order, so the order is the read's and not the rows'.
		var members []store.LeagueMember
		for i, p := range ps[:6] {
			members = append(members, store.LeagueMember{PlayerID: p.ID, Junni: 6 - i, Points: i % 3})
		}
		c := store.LeagueClass{EventID: e.ID, Class: "C2", CreatedAt: now, UpdatedAt: now}
		if err := s.CreateLeagueClass(ctx, &c, members); err != nil {
			t.Fatal(err)
		}
		other := store.LeagueClass{EventID: e.ID, Class: "C1", CreatedAt: now, UpdatedAt: now}
		if err := s.CreateLeagueClass(ctx, &other, []store.LeagueMember{{PlayerID: ps[6].ID, Junni: 1}}); err != nil {
			t.Fatal(err)
		}
		empty := store.LeagueClass{EventID: e.ID, Class: "B2", CreatedAt: now, UpdatedAt: now}
		if err := s.CreateLeagueClass(ctx, &empty, nil); err != nil {
			t.Fatal(err)
		}
		for _, cl := range []store.LeagueClass{c, other, empty} {
			want, err := s.LeagueMembers(ctx, cl.ID)
			if err != nil {
				t.Fatal(err)
			}
			ids := make([]int64, 0, len(want))
			for _, m := range want {
				ids = append(ids, m.PlayerID)
			}
			wantPlayers, err := s.PlayersByIDs(ctx, ids)
			if err != nil {
				t.Fatal(err)
			}
			got, players, err := s.LeagueMembersShown(ctx, cl.ID)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) || len(players) != len(wantPlayers) {
				t.Fatalf("class %s: %d members and %d players, want %d and %d", cl.Class, len(got), len(players), len(want), len(wantPlayers))
			}
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("class %s member %d: %+v, want %+v", cl.Class, i, got[i], want[i])
				}
			}
			for id, w := range wantPlayers {
				g, ok := players[id]
				if !ok || g.ID != w.ID || g.Name != w.Name || g.Reading != w.Reading || g.Kind != w.Kind || g.Rank != w.Rank || g.Class != w.Class ||
					g.Affiliation != w.Affiliation || g.BirthDate != w.BirthDate || g.SearchKey != "" || !g.CreatedAt.IsZero() || !g.UpdatedAt.IsZero() ||
					(g.Number == nil) != (w.Number == nil) || (g.Number != nil && *g.Number != *w.Number) {
					t.Errorf("class %s player %d: joined %+v, full %+v", cl.Class, id, g, w)
				}
			}
		}
	})
}
