package store_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"kisen/store"
	"kisen/store/storetest"
)

// decidedFixture is one event with two players and a game in each state
// migration 00165 tells apart: not started, and started by each of the
// things the schema holds (started_at, a result version, a record, a
// ruling, a player's report).
type decidedFixture struct {
	event, a, b, c, user int64
	unstarted            int64
	started              map[string]int64 // how it started → game
}

func newDecidedFixture(t *testing.T, s *store.Store) decidedFixture {
	t.Helper()
	ctx := context.Background()
	db := s.DB(ctx)
	now := time.Date(2026, 4, 1, 9, 0, 0, 0, time.UTC)
	create := func(v any) {
		t.Helper()
		if err := db.Create(v).Error; err != nil {
			t.Fatalf("create %T: %v", v, err)
		}
	}
	u := store.User{Login: "director", DisplayName: "主催", PasswordHash: "x"}
	create(&u)
	o := store.Organiser{Name: "協会", Kind: "federation"}
	create(&o)
	ev := store.Event{OrganiserID: o.ID, Name: "王座戦", Kind: "knockout", StartDate: "2026-04-01", EndDate: "2026-04-30", CreatedBy: u.ID}
	create(&ev)
	var ps [3]store.Player
	for i := range ps {
		ps[i] = store.Player{Name: fmt.Sprintf("選手%d", i), Reading: "せんしゅ", Kind: store.PlayerAmateur}
		create(&ps[i])
	}
	f := decidedFixture{event: ev.ID, a: ps[0].ID, b: ps[1].ID, c: ps[2].ID, user: u.ID, started: map[string]int64{}}
	game := func(label string) int64 {
		g := store.Game{EventID: ev.ID, Label: label, SentePlayerID: &f.a, GotePlayerID: &f.b, SenteAllowanceS: 600, GoteAllowanceS: 600}
		create(&g)
		return g.ID
	}
	f.unstarted = game("unstarted")
	f.started["started_at"] = game("started_at")
	if err := s.MarkGameStarted(ctx, f.started["started_at"], now); err != nil {
		t.Fatal(err)
	}
	f.started["result"] = game("result")
	create(&store.GameResult{GameID: f.started["result"], Version: 1, Result: "sente_win", Reason: "resign", EnteredBy: u.ID, EnteredAt: now})
	f.started["record"] = game("record")
	create(&store.GameRecord{GameID: f.started["record"], Version: 1, Format: "usi", Text: "position startpos moves 7g7f",
		StartSFEN: "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", Moves: "7g7f", Plies: 1, EnteredBy: u.ID, EnteredAt: now})
	f.started["ruling"] = game("ruling")
	create(&store.Ruling{GameID: f.started["ruling"], Kind: "warning", Player: "sente", Reason: "待った", ArbiterID: u.ID, MadeAt: now})
	f.started["report"] = game("report")
	create(&store.DayReport{GameID: f.started["report"], ReporterID: f.a, WinnerID: f.a, At: now})
	return f
}

// deciding lists, per deciding column, an update that changes it.
func deciding(f decidedFixture) map[string]string {
	return map[string]string{
		"sente_player_id (seats swapped)": "sente_player_id = gote_player_id, gote_player_id = sente_player_id",
		"sente_player_id":                 fmt.Sprintf("sente_player_id = %d", f.c),
		"gote_player_id":                  fmt.Sprintf("gote_player_id = %d", f.c),
		"gote_player_id (emptied)":        "gote_player_id = NULL",
		"handicap":                        "handicap = '香落ち'",
		"sente_allowance_s":               "sente_allowance_s = 60",
		"gote_allowance_s":                "gote_allowance_s = 6000",
		"event_id":                        fmt.Sprintf("event_id = (SELECT MAX(id) FROM events WHERE id <> %d)", f.event),
		"redo_of_id":                      "redo_of_id = id - 1, redo_number = 1",
		"id":                              "id = id + 1000",
	}
}

// Issue 21 item 6: a started or decided game keeps its players, seats,
// handicap and allowances, whoever connects; the same updates pass while
// the game has not started (the application's 振り駒 and bracket slots).
func TestAppendOnly_DecidedGameKeepsItsDecidingColumns(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		f := newDecidedFixture(t, s)
		other := store.Event{OrganiserID: 1, Name: "別棋戦", Kind: "knockout", StartDate: "2026-05-01", EndDate: "2026-05-02", CreatedBy: f.user}
		if err := s.DB(ctx).Create(&other).Error; err != nil {
			t.Fatal(err)
		}
		load := func(id int64) store.Game {
			t.Helper()
			g, err := s.GameByID(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			return g
		}
		for how, id := range f.started {
			before := load(id)
			for col, set := range deciding(f) {
				err := s.DB(ctx).Exec(fmt.Sprintf("UPDATE games SET %s WHERE id = %d", set, id)).Error
				if !errors.Is(store.AppendOnly(err), store.ErrAppendOnly) {
					t.Errorf("game started by %s: UPDATE %s: %v, want refused as append-only", how, col, err)
				}
			}
			if after := load(id); !reflect.DeepEqual(before, after) {
				t.Errorf("game started by %s changed:\nbefore %+v\nafter  %+v", how, before, after)
			}
			// Through the store: a conflict, not a silent success.
			if err := s.SetGamePlayers(ctx, id, &f.b, &f.a, time.Now()); !errors.Is(err, store.ErrConflict) {
				t.Errorf("game started by %s: SetGamePlayers: %v, want a conflict", how, err)
			}
			// What does not decide the game may still change.
			if err := s.DB(ctx).Exec("UPDATE games SET label = 'R1 改', scheduled_on = '2026-04-02', updated_at = ? WHERE id = ?", time.Now().UTC(), id).Error; err != nil {
				t.Errorf("game started by %s: label and date: %v", how, err)
			}
			if err := s.DB(ctx).Exec("UPDATE games SET sente_player_id = sente_player_id WHERE id = ?", id).Error; err != nil {
				t.Errorf("game started by %s: a no-op update: %v", how, err)
			}
		}
		// started_at, once set, stays; a decided game not yet marked
		// started is marked by the application after its first result.
		if err := s.DB(ctx).Exec("UPDATE games SET started_at = NULL WHERE id = ?", f.started["started_at"]).Error; !errors.Is(store.AppendOnly(err), store.ErrAppendOnly) {
			t.Errorf("clear started_at: %v, want refused", err)
		}
		if err := s.MarkGameStarted(ctx, f.started["result"], time.Now()); err != nil {
			t.Errorf("mark a decided game started: %v", err)
		}
		if load(f.started["result"]).StartedAt == nil {
			t.Error("a decided game was not marked started")
		}

		// Before the start the same updates pass (in an order the table's
		// checks accept: sente and gote stay different players).
		for _, col := range []string{"sente_player_id (seats swapped)", "gote_player_id (emptied)", "sente_player_id", "handicap", "sente_allowance_s", "gote_allowance_s"} {
			set := deciding(f)[col]
			if err := s.DB(ctx).Exec(fmt.Sprintf("UPDATE games SET %s WHERE id = %d", set, f.unstarted)).Error; err != nil {
				t.Errorf("unstarted game: UPDATE %s: %v, want allowed", col, err)
			}
		}
		if err := s.SetGamePlayers(ctx, f.unstarted, &f.b, &f.a, time.Now()); err != nil {
			t.Errorf("unstarted game: SetGamePlayers (振り駒): %v", err)
		}
		if g := load(f.unstarted); *g.SentePlayerID != f.b || *g.GotePlayerID != f.a || g.Handicap != "香落ち" || g.SenteAllowanceS != 60 {
			t.Errorf("unstarted game after updates: %+v", g)
		}
	})
}

// Issue 21 item 6: on SQLite a parent of history cannot be deleted even
// with foreign keys off (a sqlite3 shell's default): a trigger refuses,
// not a foreign key. PostgreSQL has the same triggers for symmetry.
func TestAppendOnly_ParentsRefuseDeleteWithForeignKeysOff(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		f := newAppendOnlyFixture(t, s)
		conn, err := s.SQL().Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if s.Dialect() == store.SQLite {
			if _, err := conn.ExecContext(ctx, "PRAGMA foreign_keys = OFF"); err != nil {
				t.Fatal(err)
			}
			var on int
			if err := conn.QueryRowContext(ctx, "PRAGMA foreign_keys").Scan(&on); err != nil || on != 0 {
				t.Fatalf("foreign_keys = %d (%v), want off", on, err)
			}
		}
		var day int64
		if err := s.DB(ctx).Table("day_classes").Select("MIN(id)").Scan(&day).Error; err != nil {
			t.Fatal(err)
		}
		watched := []string{"events", "games", "knockout_stages", "league_classes", "day_classes"}
		before := dumpTables(t, s, watched)
		for _, q := range []string{
			fmt.Sprintf("DELETE FROM events WHERE id = %d", f.event),
			"DELETE FROM events",
			fmt.Sprintf("DELETE FROM games WHERE id = %d", f.game),
			fmt.Sprintf("DELETE FROM games WHERE id = %d", f.redo), // void mark
			fmt.Sprintf("DELETE FROM knockout_stages WHERE id = %d", f.stage),
			fmt.Sprintf("DELETE FROM league_classes WHERE id = %d", f.class),
			fmt.Sprintf("DELETE FROM day_classes WHERE id = %d", day),
		} {
			_, err := conn.ExecContext(ctx, q)
			if !errors.Is(store.AppendOnly(err), store.ErrAppendOnly) {
				t.Errorf("%s with foreign keys off: %v, want refused as append-only", q, err)
			}
		}
		if after := dumpTables(t, s, watched); !reflect.DeepEqual(before, after) {
			t.Errorf("parents changed with foreign keys off:\nbefore %q\nafter  %q", before, after)
		}

		// An event with an unplayed game keeps it too; without games it goes.
		ev := store.Event{OrganiserID: 1, Name: "中止", Kind: "knockout", StartDate: "2026-05-01", EndDate: "2026-05-02", CreatedBy: 1}
		if err := s.DB(ctx).Create(&ev).Error; err != nil {
			t.Fatal(err)
		}
		g := store.Game{EventID: ev.ID}
		if err := s.DB(ctx).Create(&g).Error; err != nil {
			t.Fatal(err)
		}
		if _, err := conn.ExecContext(ctx, fmt.Sprintf("DELETE FROM events WHERE id = %d", ev.ID)); !errors.Is(store.AppendOnly(err), store.ErrAppendOnly) {
			t.Errorf("delete an event with an unplayed game: %v, want refused", err)
		}
		for _, q := range []string{fmt.Sprintf("DELETE FROM games WHERE id = %d", g.ID), fmt.Sprintf("DELETE FROM events WHERE id = %d", ev.ID)} {
			if _, err := conn.ExecContext(ctx, q); err != nil {
				t.Errorf("%s: %v, want allowed", q, err)
			}
		}
	})
}

// Issue 21 item 7: the game page and the API list record versions without
// their text and read the newest version's moves without its text, so a
// page never holds every version of a long relayed record, and the public
// one no record text at all.
func TestGameRecordVersions_ListWithoutTextAndNewestWhole(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		f := newDecidedFixture(t, s)
		id := f.started["record"]
		now := time.Date(2026, 4, 1, 10, 0, 0, 0, time.UTC)
		second := store.GameRecord{GameID: id, Format: "usi", Text: "position startpos moves 7g7f 3c3d",
			StartSFEN: "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", Moves: "7g7f 3c3d", Plies: 2, EnteredBy: f.user, EnteredAt: now}
		if err := s.AppendGameRecord(ctx, &second); err != nil {
			t.Fatal(err)
		}
		vs, err := s.GameRecordVersions(ctx, id)
		if err != nil || len(vs) != 2 {
			t.Fatalf("versions %+v %v", vs, err)
		}
		for _, v := range vs {
			if v.Text != "" || v.Moves != "" || v.Findings != "" {
				t.Errorf("version %d carries its text or moves: %+v", v.Version, v)
			}
			if v.Plies == 0 || v.EnteredBy != f.user || v.Format != "usi" || v.EnteredAt.IsZero() {
				t.Errorf("version %d lacks what the page lists: %+v", v.Version, v)
			}
		}
		head, ok, err := s.LatestGameRecordMoves(ctx, id)
		if err != nil || !ok || head.Version != 2 || head.Moves != "7g7f 3c3d" || head.Plies != 2 || head.StartSFEN == "" || head.Text != "" || head.Findings != "" {
			t.Errorf("latest moves %+v %v %v, want version 2's moves without its text", head, ok, err)
		}
		if _, ok, err := s.LatestGameRecordMoves(ctx, f.unstarted); ok || err != nil {
			t.Errorf("a game without a record: %v %v", ok, err)
		}
		latest, ok, err := s.LatestGameRecord(ctx, id)
		if err != nil || !ok || latest.Version != 2 || latest.Moves != "7g7f 3c3d" || latest.Text != second.Text {
			t.Errorf("latest %+v %v %v", latest, ok, err)
		}
	})
}
