package office_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"kisen/office"
	"kisen/office/ratings"
	"kisen/office/seed"
	"kisen/store"
	"kisen/store/storetest"
)

// TestViewCache_NeverServesAStaleBracketOrTable: an office that keeps
// computed brackets, league tables and players' records under their
// revisions answers
// exactly what a fresh office computes from the database, read after every
// write made through another office (as another process sharing the
// database would make it): results, a confirmation-free correction of a
// decided game, a league result. Both databases.
func TestViewCache_NeverServesAStaleBracketOrTable(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 25, 3, 0, 0, 0, time.UTC)
		clock := func() time.Time { return now }
		cached, writer := office.New(s, clock), office.New(s, clock)
		f, err := seed.New(ctx, writer, s, now)
		if err != nil {
			t.Fatal(err)
		}
		ev, st, err := f.Knockout(ctx, 16, 0)
		if err != nil {
			t.Fatal(err)
		}
		_, class, err := f.League(ctx, 11, 0)
		if err != nil {
			t.Fatal(err)
		}
		check := func(step string) {
			t.Helper()
			for range 2 { // the second read is the one served from the cache
				got, err := cached.EventBrackets(ctx, f.Admin, ev.ID)
				if err != nil {
					t.Fatal(err)
				}
				want, err := office.New(s, clock).EventBrackets(ctx, f.Admin, ev.ID)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s: the kept bracket differs from a fresh one", step)
				}
				gotT, err := cached.Standings(ctx, office.Actor{}, class.ID)
				if err != nil {
					t.Fatal(err)
				}
				wantT, err := office.New(s, clock).Standings(ctx, office.Actor{}, class.ID)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(gotT, wantT) {
					t.Fatalf("%s: the kept league table differs from a fresh one", step)
				}
				for _, m := range wantT.Members[:2] {
					gotR, err := ratings.New(cached).PlayerRecord(ctx, m.PlayerID, 1)
					if err != nil {
						t.Fatal(err)
					}
					wantR, err := ratings.New(office.New(s, clock)).PlayerRecord(ctx, m.PlayerID, 1)
					if err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(gotR, wantR) {
						t.Fatalf("%s: the kept record of player %d differs from a fresh one", step, m.PlayerID)
					}
				}
			}
		}
		check("before any result")
		for r := 1; r <= 2; r++ {
			eb, err := writer.EventBrackets(ctx, f.Admin, ev.ID)
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range eb.Stages[0].Rounds[r-1] {
				if g.DecidingGameID == 0 || g.Result != "" {
					continue
				}
				if err := writer.QuickResult(ctx, f.Admin, office.QuickResultInput{StageID: st.ID, BracketGame: g.ID, WinnerID: g.SenteID,
					Reason: office.ReasonResignation, GameID: g.DecidingGameID}); err != nil {
					t.Fatal(err)
				}
				check("after result " + g.ID)
			}
		}
		lt, err := writer.Standings(ctx, f.Admin, class.ID)
		if err != nil {
			t.Fatal(err)
		}
		// A member renamed: the registry's revision moves every event's.
		for id, p := range lt.Players {
			in := office.PlayerInput{Number: *p.Number, Name: p.Name + "改", Reading: p.Reading, Kind: string(p.Kind), Rank: p.Rank, Class: string(p.Class)}
			if _, err := writer.UpdatePlayer(ctx, f.Admin, id, in); err != nil {
				t.Fatal(err)
			}
			break
		}
		check("after a rename")
		lt, err = writer.Standings(ctx, f.Admin, class.ID)
		if err != nil {
			t.Fatal(err)
		}
		for i, g := range lt.Games {
			if i == 5 {
				break
			}
			if err := writer.EnterLeagueResult(ctx, f.Admin, office.LeagueResultInput{GameID: g.Current, Version: g.Version, Result: office.ResultGoteWin}); err != nil {
				t.Fatal(err)
			}
			check("after league result")
		}
		// The ratings recomputed: the kept rating history moves with them.
		if _, err := ratings.New(writer).RefreshRatingsIfStale(ctx); err != nil {
			t.Fatal(err)
		}
		check("after the ratings were recomputed")
	})
}
