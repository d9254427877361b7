package ratings_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"kisen/migrations"
	"kisen/office"
	"kisen/office/ratings"
	"kisen/store"
)

// ratingBenchStore is a SQLite database with players and games, every
// game with a confirmed result, in published events of 100 games each.
func ratingBenchStore(b *testing.B, players, games int) (*office.Office, *store.Store) {
	b.Helper()
	ctx := context.Background()
	s, err := store.Open(ctx, store.Options{SQLitePath: filepath.Join(b.TempDir(), "kisen.db")})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = s.Close() })
	if err := migrations.Up(ctx, s.SQL(), string(s.Dialect())); err != nil {
		b.Fatal(err)
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	rng := rand.New(rand.NewPCG(7, 11))
	err = s.Tx(ctx, func(tx *store.Store) error {
		u := store.User{Login: "admin", DisplayName: "admin", PasswordHash: "x", IsAdmin: true, CreatedAt: now, UpdatedAt: now}
		if err := tx.DB(ctx).Create(&u).Error; err != nil {
			return err
		}
		org := store.Organiser{Name: "連盟", Kind: office.OrganiserFederation, Settings: "{}", CreatedAt: now, UpdatedAt: now}
		if err := tx.CreateOrganiser(ctx, &org); err != nil {
			return err
		}
		ps := make([]*store.Player, players)
		for i := range ps {
			ps[i] = &store.Player{Name: fmt.Sprintf("棋士%d", i), Reading: "きし", Kind: store.PlayerProfessional, CreatedAt: now, UpdatedAt: now}
		}
		if err := tx.CreatePlayers(ctx, ps); err != nil {
			return err
		}
		var ev store.Event
		for i := range games {
			if i%100 == 0 {
				ev = store.Event{OrganiserID: org.ID, Name: fmt.Sprintf("棋戦%d", i/100), Kind: office.EventLeague, StartDate: "2026-01-01",
					EndDate: "2026-12-31", Status: office.StatusPublished, CreatedBy: u.ID, CreatedAt: now, UpdatedAt: now}
				if err := tx.CreateEvent(ctx, &ev); err != nil {
					return err
				}
			}
			a, c := rng.IntN(players), rng.IntN(players-1)
			if c >= a {
				c++
			}
			day := now.AddDate(0, 0, i/10).Format(office.DateLayout)
			g := store.Game{EventID: ev.ID, SentePlayerID: &ps[a].ID, GotePlayerID: &ps[c].ID, Handicap: "平手", ScheduledOn: &day, CreatedAt: now, UpdatedAt: now}
			if err := tx.CreateGame(ctx, &g); err != nil {
				return err
			}
			res := office.ResultSenteWin
			if rng.IntN(2) == 0 {
				res = office.ResultGoteWin
			}
			r := store.GameResult{GameID: g.ID, Result: res, Reason: "resignation", Outcome: "{}", EnteredBy: u.ID, EnteredAt: now}
			if err := tx.AppendResult(ctx, &r); err != nil {
				return err
			}
			if err := tx.ConfirmResult(ctx, &store.GameResultConfirmation{GameResultID: r.ID, ConfirmedBy: u.ID, ConfirmedAt: now}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return office.New(s, func() time.Time { return now }), s
}

// BenchmarkRatingsRefreshCurrent is what the worker pays on every tick
// when nothing changed: the state row.
func BenchmarkRatingsRefreshCurrent(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("games=%d", n), func(b *testing.B) {
			o, _ := ratingBenchStore(b, 200, n)
			ctx := context.Background()
			if _, err := ratings.New(o).RecomputeRatings(ctx); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for b.Loop() {
				sum, err := ratings.New(o).RefreshRatingsIfStale(ctx)
				if err != nil || sum.Recomputed {
					b.Fatalf("refresh: %+v %v", sum, err)
				}
			}
		})
	}
}

// BenchmarkRatingsRecompute is the full recompute after a new result:
// read every game and result, rate, replace the tables.
func BenchmarkRatingsRecompute(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("games=%d", n), func(b *testing.B) {
			o, _ := ratingBenchStore(b, 200, n)
			ctx := context.Background()
			b.ResetTimer()
			for b.Loop() {
				if _, err := ratings.New(o).RecomputeRatings(ctx); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
