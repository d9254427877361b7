package store_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"kisen/store"
	"kisen/store/storetest"
)

// TestRatingRevision_EveryInputBumpsItInItsTransaction: migration 00098's
// triggers bump rating_state.input_revision on every change to what a
// recompute reads (result versions, confirmations, voids, the rating
// columns of games, event status, the roster, the rating settings), in the
// writer's transaction, and leave it alone for everything else.
func TestRatingRevision_EveryInputBumpsItInItsTransaction(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		db := s.DB(ctx)
		now := time.Date(2026, 4, 1, 9, 0, 0, 0, time.UTC)
		rev := func() int64 {
			t.Helper()
			st, ok, err := s.RatingStateRow(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				return 0
			}
			return st.InputRevision
		}
		step := func(name string, bump bool, write func() error) {
			t.Helper()
			before := rev()
			if err := write(); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if after := rev(); (after > before) != bump {
				t.Errorf("%s: input revision %d → %d, want bumped %v", name, before, after, bump)
			}
		}
		create := func(v any) func() error { return func() error { return db.Create(v).Error } }
		update := func(model any, col string, v any) func() error {
			return func() error { return db.Model(model).Update(col, v).Error }
		}

		u := store.User{Login: "arbiter", DisplayName: "立会人", PasswordHash: "x"}
		step("a user", false, create(&u))
		o := store.Organiser{Name: "棋戦協会", Kind: "federation"}
		step("an organiser", false, create(&o))
		ev := store.Event{OrganiserID: o.ID, Name: "王座戦", Kind: "knockout", StartDate: "2026-04-01", EndDate: "2026-04-30", CreatedBy: u.ID}
		step("an event (draft)", false, create(&ev))
		if _, ok, _ := s.RatingStateRow(ctx); ok {
			t.Fatal("the state row exists before any input changed")
		}
		a := store.Player{Name: "甲", Reading: "こう", Kind: "professional"}
		step("a player", true, create(&a))
		if st, ok, _ := s.RatingStateRow(ctx); !ok || st.Computed() || !st.Stale() {
			t.Fatalf("state row created by the trigger: %+v (ok %v), want stale and never computed", st, ok)
		}
		b := store.Player{Name: "乙", Reading: "おつ", Kind: "professional"}
		step("another player", true, create(&b))
		c := store.Player{Name: "丙", Reading: "へい", Kind: "amateur"}
		step("a third player", true, create(&c))
		step("a player's name", false, update(&c, "name", "丙野"))
		step("a player removed", true, func() error { return db.Delete(&c).Error })

		g := store.Game{EventID: ev.ID, Label: "R1-G1", Handicap: "平手"}
		step("a game", true, create(&g))
		step("a game's label", false, update(&g, "label", "一回戦"))
		step("a game's allowance", false, update(&g, "sente_allowance_s", 3600))
		step("a game's sente", true, update(&g, "sente_player_id", a.ID))
		step("a game's gote", true, update(&g, "gote_player_id", b.ID))
		step("a game's day", true, update(&g, "scheduled_on", "2026-04-02"))
		step("a game's handicap", true, update(&g, "handicap", "香落ち"))
		step("a game's start", true, update(&g, "started_at", now))
		step("a game's day set again to the same", false, update(&g, "scheduled_on", "2026-04-02"))
		redo := store.Game{EventID: ev.ID, Label: "R1-G1 指し直し", Handicap: "平手"}
		step("a second game", true, create(&redo))
		step("a redo link", true, func() error {
			return db.Model(&redo).Updates(map[string]any{"redo_of_id": g.ID, "redo_number": 1}).Error
		})

		r := store.GameResult{GameID: g.ID, Version: 1, Result: "redo", Reason: "sennichite", EnteredBy: u.ID, EnteredAt: now}
		step("a result version", true, create(&r))
		step("its confirmation", true, create(&store.GameResultConfirmation{GameResultID: r.ID, ConfirmedBy: u.ID, ConfirmedAt: now}))
		step("a void", true, create(&store.GameVoid{GameID: redo.ID, VoidedBy: u.ID, VoidedAt: now}))

		step("the event's name", false, update(&ev, "name", "第1期王座戦"))
		step("the event published", true, update(&ev, "status", "published"))
		step("the event finished", true, update(&ev, "status", "finished"))

		step("another setting", false, func() error { return s.PutSetting(ctx, "setup.token", "x", now) })
		step("the rating settings", true, func() error { return s.PutSetting(ctx, "rating.settings", `{"model":"elo"}`, now) })
		step("the rating settings changed", true, func() error { return s.PutSetting(ctx, "rating.settings", `{"model":"glicko2"}`, now) })
		step("the rating settings removed", true, func() error { return s.DeleteSetting(ctx, "rating.settings") })

		spare := store.Game{EventID: ev.ID, Label: "予備", Handicap: "平手"}
		step("a spare game", true, create(&spare))
		step("the spare game removed", true, func() error { return db.Delete(&spare).Error })

		// A write that rolls back leaves the revision where it was.
		before := rev()
		rollback := errors.New("rollback")
		err := s.Tx(ctx, func(tx *store.Store) error {
			if err := tx.DB(ctx).Create(&store.Game{EventID: ev.ID, Label: "幻", Handicap: "平手"}).Error; err != nil {
				return err
			}
			return rollback
		})
		if !errors.Is(err, rollback) {
			t.Fatalf("rolled back write: %v", err)
		}
		if after := rev(); after != before {
			t.Errorf("a rolled back game moved the revision %d → %d", before, after)
		}
	})
}

// Migration 00098 defines the same rating triggers on both databases,
// exactly store.RatingInputTriggers.
func TestMigrations_SameRatingTriggersInBothDialects(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	triggers := func(t *testing.T, s *store.Store, q string) []string {
		t.Helper()
		var rows []struct{ Tbl, Name string }
		if err := s.DB(ctx).Raw(q).Scan(&rows).Error; err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range rows {
			if store.IsRatingInputTrigger(r.Name) {
				out = append(out, r.Tbl+"."+r.Name)
			}
		}
		slices.Sort(out)
		return out
	}
	want := slices.Sorted(slices.Values(store.RatingInputTriggers()))
	sq := triggers(t, storetest.SQLite(t), "SELECT tbl_name AS tbl, name FROM sqlite_master WHERE type = 'trigger'")
	if !reflect.DeepEqual(sq, want) {
		t.Errorf("sqlite rating triggers %v, want %v", sq, want)
	}
	pg := triggers(t, storetest.Postgres(t), `SELECT c.relname AS tbl, t.tgname AS name FROM pg_trigger t
		JOIN pg_class c ON c.oid = t.tgrelid WHERE NOT t.tgisinternal`)
	if !reflect.DeepEqual(pg, want) {
		t.Errorf("postgres rating triggers %v, want %v", pg, want)
	}
}

// TestRatingList_PagesPlacesAndSearchInSQL: the rating list is filtered,
// ordered (rating, reading, id), placed (ties share a place, also across
// a page boundary) and paged by the database; the cursor walk gives the
// same lines in the same order.
func TestRatingList_PagesPlacesAndSearchInSQL(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Date(2026, 4, 1, 9, 0, 0, 0, time.UTC)
		var ps []*store.Player
		for i := range 120 {
			kind := store.PlayerProfessional
			if i%4 == 3 {
				kind = store.PlayerAmateur
			}
			num := fmt.Sprintf("N%03d", i)
			ps = append(ps, &store.Player{Number: &num, Name: fmt.Sprintf("棋士%03d", i), Reading: fmt.Sprintf("きし%03d", 119-i), Kind: kind,
				CreatedAt: now, UpdatedAt: now})
		}
		unrated := &store.Player{Name: "未対局", Reading: "みたいきょく", Kind: store.PlayerProfessional, CreatedAt: now, UpdatedAt: now}
		if err := s.CreatePlayers(ctx, append(ps, unrated)); err != nil {
			t.Fatal(err)
		}
		// Ratings fall by 10 every two players: players 2k-1 and 2k tie,
		// and 2k comes first (its reading sorts first). The pair 49/50 is
		// at positions 50 and 51: it straddles the first page break.
		var rows []store.PlayerRating
		for i, p := range ps {
			last := now.AddDate(0, 0, -i)
			rows = append(rows, store.PlayerRating{PlayerID: p.ID, Rating: 2000 - float64((i+1)/2*10), Games: 1, Wins: 1, LastPlayed: &last})
		}
		rows = append(rows, store.PlayerRating{PlayerID: unrated.ID, Rating: 1500})
		err := s.Tx(ctx, func(tx *store.Store) error {
			if _, err := tx.LockRatingState(ctx, now); err != nil {
				return err
			}
			return tx.ReplaceRatings(ctx, rows, nil, store.RatingState{Fingerprint: "test", Summary: "{}", ComputedAt: now})
		})
		if err != nil {
			t.Fatal(err)
		}
		page, total, err := s.RatedPlayers(ctx, store.RatingQuery{Limit: 50, Offset: 50})
		if err != nil {
			t.Fatal(err)
		}
		if total != 120 || len(page) != 50 {
			t.Fatalf("page 2: %d lines of %d, want 50 of 120 (the unrated player left out)", len(page), total)
		}
		// Player 50 (rating 1750) is the last of page 1; player 49 ties
		// with it and opens page 2 in the same place, 50.
		if page[0].ID != ps[49].ID || page[0].Place != 50 || page[1].Place != 52 {
			t.Errorf("page 2 opens with player %d place %d then place %d; want player %d place 50, then 52",
				page[0].ID, page[0].Place, page[1].Place, ps[49].ID)
		}
		// Within a tie, by reading: players 1 and 2 (rating 1990) have
		// readings 118 and 117, so player 2 comes first.
		first, _, err := s.RatedPlayers(ctx, store.RatingQuery{Limit: 3})
		if err != nil {
			t.Fatal(err)
		}
		if got := []int64{first[0].ID, first[1].ID, first[2].ID}; !slices.Equal(got, []int64{ps[0].ID, ps[2].ID, ps[1].ID}) {
			t.Errorf("first three %v, want players 0, 2, 1", got)
		}
		var all []int64
		err = s.EachRatedPlayer(ctx, store.RatingQuery{Limit: 5}, func(r store.RatedPlayer) error {
			all = append(all, r.ID)
			return nil
		})
		if err != nil || len(all) != 120 || all[49] != ps[50].ID || all[50] != ps[49].ID {
			t.Fatalf("cursor walk: %d lines (%v), want all 120 in list order", len(all), err)
		}
		cases := []struct {
			name  string
			q     store.RatingQuery
			total int64
		}{
			{"amateurs", store.RatingQuery{Kind: store.PlayerAmateur}, 30},
			{"name, full width", store.RatingQuery{Search: "棋士０１"}, 10},
			{"reading in katakana", store.RatingQuery{Search: "キシ119"}, 1},
			{"number, any case", store.RatingQuery{Search: "n007"}, 1},
			{"active since ten days ago", store.RatingQuery{Since: now.AddDate(0, 0, -9)}, 10},
			{"nothing searchable", store.RatingQuery{Search: "%"}, 0},
		}
		for _, c := range cases {
			_, n, err := s.RatedPlayers(ctx, c.q)
			if err != nil || n != c.total {
				t.Errorf("%s: %d players (%v), want %d", c.name, n, err, c.total)
			}
		}
	})
}
