package store_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"gorm.io/gorm"

	"kisen/store"
	"kisen/store/storetest"
)

// appendOnlyFixture is one of everything migration 00080 protects: a game
// with a record, a result version, its confirmation, the adjudication facts,
// a ruling that produced a second version, a void redo game, the event's
// settings log, a knockout draw log and a league schedule log.
type appendOnlyFixture struct {
	event, game, redo, stage, class int64
	result, ruling                  int64
}

func newAppendOnlyFixture(t *testing.T, s *store.Store) appendOnlyFixture {
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
	u := store.User{Login: "arbiter", DisplayName: "立会人", PasswordHash: "x"}
	create(&u)
	o := store.Organiser{Name: "棋戦協会", Kind: "federation"}
	create(&o)
	ev := store.Event{OrganiserID: o.ID, Name: "王座戦", Kind: "knockout", StartDate: "2026-04-01", EndDate: "2026-04-30", CreatedBy: u.ID}
	create(&ev)
	g := store.Game{EventID: ev.ID, Label: "R1-G1"}
	create(&g)
	rec := store.GameRecord{GameID: g.ID, Version: 1, Format: "usi", Text: "position startpos moves 7g7f",
		StartSFEN: "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", Moves: "7g7f", Plies: 1, EnteredBy: u.ID, EnteredAt: now}
	create(&rec)
	r1 := store.GameResult{GameID: g.ID, Version: 1, Result: "redo", Reason: "sennichite", EnteredBy: u.ID, EnteredAt: now}
	create(&r1)
	create(&store.GameAdjudication{GameID: g.ID, ResultID: r1.ID, RecordID: &rec.ID, Facts: `{"ending":"sennichite"}`, CreatedAt: now})
	create(&store.GameResultConfirmation{GameResultID: r1.ID, ConfirmedBy: u.ID, ConfirmedAt: now})
	redo := store.Game{EventID: ev.ID, Label: "R1-G1 指し直し", RedoOfID: &g.ID, RedoNumber: 1}
	create(&redo)
	r2 := store.GameResult{GameID: g.ID, Version: 2, Result: "gote_win", Reason: "foul_loss", EnteredBy: u.ID, EnteredAt: now.Add(time.Hour)}
	create(&r2)
	ru := store.Ruling{GameID: g.ID, Kind: "foul_loss", Player: "sente", Reason: "二歩", ArbiterID: u.ID, ResultID: &r2.ID, MadeAt: now.Add(time.Hour)}
	create(&ru)
	create(&store.GameVoid{GameID: redo.ID, ResultID: r2.ID, VoidedBy: u.ID, VoidedAt: now.Add(time.Hour)})
	un := store.EventSettingsUnlock{EventID: ev.ID, UnlockedBy: u.ID, UnlockedAt: now, Reason: "持ち時間の訂正"}
	create(&un)
	create(&store.EventSettingsChange{EventID: ev.ID, ChangedBy: u.ID, ChangedAt: now, SettingsBefore: "{}", SettingsAfter: `{"x":1}`, UnlockID: &un.ID})
	st := store.KnockoutStage{EventID: ev.ID, Position: 1, Name: "本戦", Kind: "main"}
	create(&st)
	create(&store.DrawLogEntry{StageID: st.ID, Action: "draw", Detail: `{"seed":"42"}`, ActorID: u.ID, At: now})
	create(&store.Correction{EventID: ev.ID, Kind: "result", GameID: &g.ID, StageID: &st.ID, Reason: "勝者の訂正", VoidChosen: true, ActorID: u.ID, At: now})
	cl := store.LeagueClass{EventID: ev.ID, Class: "A"}
	create(&cl)
	create(&store.LeagueLogEntry{ClassID: cl.ID, Action: "draw", ActorID: u.ID, At: now})
	tok := store.APIToken{EventID: ev.ID, Name: "会場タブレット", Scope: "results", SecretHash: "ab", CreatedBy: u.ID, CreatedAt: now, ExpiresAt: now.Add(time.Hour)}
	create(&tok)
	create(&store.APITokenUse{TokenID: tok.ID, Action: "result", GameID: &g.ID, At: now})
	// The amateur day (00100): a round, its board and the desk's log.
	create(&store.DayEvent{EventID: ev.ID, CreatedAt: now})
	dc := store.DayClass{EventID: ev.ID, Name: "A級", Format: "pools"}
	create(&dc)
	dr := store.DayRound{ClassID: dc.ID, Number: 1, Seed: "42", DrawnBy: u.ID, DrawnAt: now}
	create(&dr)
	board := 1
	create(&store.DayPairing{RoundID: dr.ID, Board: &board, GameID: &g.ID})
	create(&store.DayLogEntry{EventID: ev.ID, ClassID: &dc.ID, Action: "draw", ActorID: u.ID, At: now})
	// The players' own report (00130).
	pl := store.Player{Name: "選手", Reading: "せんしゅ", Kind: store.PlayerAmateur}
	create(&pl)
	rep := store.DayReport{GameID: g.ID, ReporterID: pl.ID, WinnerID: pl.ID, At: now}
	create(&rep)
	create(&store.DayReportResult{ResultID: r1.ID, GameID: g.ID, SenteReportID: &rep.ID, At: now})                                                               // 00160
	create(&store.DayFinal{ClassID: dc.ID, StageID: st.ID, Seed: "7", BuiltBy: u.ID, BuiltAt: now})                                                              // 00125
	create(&store.LeagueMemberChange{EventID: ev.ID, Seq: 1, Action: "add", PlayerID: pl.ID, ToClass: "A", Kind: "other", Reason: "編入", ActorID: u.ID, At: now}) // 00200
	// An appeal against the ruling and its decision (00210).
	ap := store.Appeal{GameID: g.ID, RulingID: ru.ID, FiledBy: "sente", Body: "council", DeadlineAt: now.Add(8 * 24 * time.Hour),
		EnteredBy: u.ID, FiledAt: now.Add(2 * time.Hour)}
	create(&ap)
	create(&store.AppealDecision{AppealID: ap.ID, GameID: g.ID, Decision: "dismissed", Reasons: "理由", DecidedBy: u.ID, DecidedAt: now.Add(3 * time.Hour)})
	create(&store.SeatOverride{GameID: g.ID, JozaID: pl.ID, Reason: "主催者の判断", ActorID: u.ID, At: now}) // 00220
	// A team event's order and its board (00260).
	create(&store.TeamEvent{EventID: ev.ID, Boards: 3, OrderRule: "free", CreatedAt: now, UpdatedAt: now})
	tm := store.Team{EventID: ev.ID, Name: "東高校", CreatedAt: now, UpdatedAt: now}
	create(&tm)
	tr := store.TeamRound{EventID: ev.ID, Number: 1, Deadline: now, CreatedAt: now, UpdatedAt: now}
	create(&tr)
	to := store.TeamOrder{EventID: ev.ID, RoundID: tr.ID, TeamID: tm.ID, SubmittedBy: u.ID, SubmittedAt: now}
	create(&to)
	create(&store.TeamOrderBoard{OrderID: to.ID, Board: 1, PlayerID: &pl.ID})
	// A live move and its undo (00280).
	mv := store.GameMove{GameID: g.ID, Ply: 1, USI: "7g7f", ElapsedSeconds: 75, EnteredBy: u.ID, EnteredAt: now}
	create(&mv)
	create(&store.GameMoveUndo{MoveID: mv.ID, GameID: g.ID, Reason: "記入誤り", EnteredBy: u.ID, EnteredAt: now})
	return appendOnlyFixture{event: ev.ID, game: g.ID, redo: redo.ID, stage: st.ID, class: cl.ID, result: r1.ID, ruling: ru.ID}
}

// dumpTables is every row of tables (and of the parents a tampering
// statement aims at), rendered for comparison.
func dumpTables(t *testing.T, s *store.Store, tables []string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, tb := range tables {
		var rows []map[string]any
		if err := s.DB(context.Background()).Table(tb).Order("id").Find(&rows).Error; err != nil {
			t.Fatalf("dump %s: %v", tb, err)
		}
		for _, r := range rows {
			keys := make([]string, 0, len(r))
			for k := range r {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			var b strings.Builder
			for _, k := range keys {
				fmt.Fprintf(&b, "%s=%v ", k, r[k])
			}
			out[tb] = append(out[tb], b.String())
		}
		if len(out[tb]) == 0 {
			t.Fatalf("fixture left %s empty", tb)
		}
	}
	return out
}

// tableColumns lists a table's columns from a dumped row.
func tableColumns(t *testing.T, s *store.Store, table string) []string {
	t.Helper()
	var rows []map[string]any
	if err := s.DB(context.Background()).Table(table).Limit(1).Find(&rows).Error; err != nil || len(rows) == 0 {
		t.Fatalf("columns of %s: %v", table, err)
	}
	var cols []string
	for k := range rows[0] {
		cols = append(cols, k)
	}
	sort.Strings(cols)
	return cols
}

// Issue 11: rulings, result versions, adjudication facts, the settings and
// draw logs refuse UPDATE and DELETE in the database itself; a game with
// results or rulings, and the event above it, cannot be deleted (an event
// with any game at all since 00165).
func TestAppendOnly_TamperingRefused(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		f := newAppendOnlyFixture(t, s)
		watched := append(store.AppendOnlyTables(), "games", "events", "knockout_stages", "league_classes")
		before := dumpTables(t, s, watched)

		type stmt struct {
			sql string
			// appendOnly: the refusal must be the append-only trigger's
			// (store.ErrAppendOnly); otherwise a foreign key may refuse first.
			appendOnly bool
		}
		var stmts []stmt
		for _, tb := range store.AppendOnlyTables() {
			for _, c := range tableColumns(t, s, tb) {
				stmts = append(stmts, stmt{fmt.Sprintf("UPDATE %s SET %s = %s", tb, c, c), true})
			}
			stmts = append(stmts,
				stmt{fmt.Sprintf("UPDATE %s SET id = id + 1000", tb), true},
				stmt{fmt.Sprintf("DELETE FROM %s WHERE id = (SELECT MIN(id) FROM %s)", tb, tb), true},
				stmt{"DELETE FROM " + tb, true},
			)
			if s.Dialect() == store.Postgres {
				stmts = append(stmts,
					stmt{"TRUNCATE " + tb, false}, // a referenced table refuses plain TRUNCATE by itself
					stmt{"TRUNCATE " + tb + " CASCADE", true},
					stmt{fmt.Sprintf("INSERT INTO %s SELECT * FROM %s ON CONFLICT (id) DO UPDATE SET id = EXCLUDED.id", tb, tb), true})
			} else {
				stmts = append(stmts,
					stmt{fmt.Sprintf("INSERT OR REPLACE INTO %s SELECT * FROM %s", tb, tb), true},
					stmt{fmt.Sprintf("REPLACE INTO %s SELECT * FROM %s WHERE id = (SELECT MIN(id) FROM %s)", tb, tb, tb), true},
					stmt{fmt.Sprintf("INSERT INTO %s SELECT * FROM %s WHERE true ON CONFLICT (id) DO UPDATE SET id = excluded.id", tb, tb), true})
			}
		}
		// The meaningful ones, spelled out.
		stmts = append(stmts,
			stmt{fmt.Sprintf("UPDATE game_results SET result = 'sente_win' WHERE id = %d", f.result), true},
			stmt{fmt.Sprintf("UPDATE rulings SET result_id = NULL WHERE id = %d", f.ruling), true},
			stmt{fmt.Sprintf("UPDATE rulings SET reason = '改竄' WHERE id = %d", f.ruling), true},
			stmt{"UPDATE game_adjudications SET facts = '{}'", true},
			stmt{"UPDATE event_settings_changes SET settings_after = '{}'", true},
			stmt{"UPDATE knockout_draw_log SET detail = '{\"seed\":\"43\"}'", true},
			stmt{fmt.Sprintf("DELETE FROM games WHERE id = %d", f.game), true},
			stmt{"DELETE FROM games", false},
			stmt{fmt.Sprintf("DELETE FROM games WHERE id = %d", f.redo), false}, // void mark
			stmt{fmt.Sprintf("DELETE FROM events WHERE id = %d", f.event), false},
			stmt{"DELETE FROM events", false},
			stmt{fmt.Sprintf("DELETE FROM knockout_stages WHERE id = %d", f.stage), false},
			stmt{fmt.Sprintf("DELETE FROM league_classes WHERE id = %d", f.class), false},
		)
		if s.Dialect() == store.Postgres {
			stmts = append(stmts,
				stmt{"TRUNCATE games CASCADE", true},
				stmt{"TRUNCATE events CASCADE", true},
				stmt{"TRUNCATE users CASCADE", true})
		}
		for _, st := range stmts {
			err := s.DB(ctx).Exec(st.sql).Error
			switch {
			case err == nil:
				t.Errorf("%s: succeeded, want refused", st.sql)
			case errors.Is(store.AppendOnly(err), store.ErrAppendOnly):
			case st.appendOnly || !errors.Is(err, gorm.ErrForeignKeyViolated) && !strings.Contains(st.sql, "TRUNCATE"):
				t.Errorf("%s: %v, want refused as append-only", st.sql, err)
			}
		}
		if after := dumpTables(t, s, watched); !reflect.DeepEqual(before, after) {
			for _, tb := range watched {
				if !slices.Equal(before[tb], after[tb]) {
					t.Errorf("%s changed:\nbefore %q\nafter  %q", tb, before[tb], after[tb])
				}
			}
		}

		// Through the store the refusal is ErrAppendOnly, a conflict (409).
		err := s.Tx(ctx, func(tx *store.Store) error {
			return tx.DB(ctx).Exec("DELETE FROM rulings").Error
		})
		if !errors.Is(err, store.ErrAppendOnly) || !errors.Is(err, store.ErrConflict) {
			t.Errorf("delete rulings in a transaction: %v, want ErrAppendOnly wrapping ErrConflict", err)
		}

		// Appending still works, and unplayed data may still be deleted.
		now := time.Date(2026, 4, 2, 9, 0, 0, 0, time.UTC)
		var u store.User
		if err := s.DB(ctx).Take(&u).Error; err != nil {
			t.Fatal(err)
		}
		if err := s.AppendResult(ctx, &store.GameResult{GameID: f.game, Version: 3, Result: "sente_win", Reason: "resign", EnteredBy: u.ID, EnteredAt: now}); err != nil {
			t.Fatalf("append a third version: %v", err)
		}
		ev := store.Event{OrganiserID: 1, Name: "未対局", Kind: "knockout", StartDate: "2026-05-01", EndDate: "2026-05-02", CreatedBy: u.ID}
		if err := s.DB(ctx).Create(&ev).Error; err != nil {
			t.Fatal(err)
		}
		unplayed := store.Game{EventID: ev.ID}
		if err := s.DB(ctx).Create(&unplayed).Error; err != nil {
			t.Fatal(err)
		}
		if err := s.DB(ctx).Create(&store.KnockoutStage{EventID: ev.ID, Position: 1, Name: "予選", Kind: "main"}).Error; err != nil {
			t.Fatal(err)
		}
		if err := s.DB(ctx).Exec("DELETE FROM games WHERE id = ?", unplayed.ID).Error; err != nil {
			t.Errorf("delete an unplayed game: %v", err)
		}
		if err := s.DB(ctx).Exec("DELETE FROM events WHERE id = ?", ev.ID).Error; err != nil {
			t.Errorf("delete an event without games or logs: %v", err)
		}
	})
}

// Migration 00080 defines the same append-only triggers on both databases,
// for exactly store.AppendOnlyTables.
func TestMigrations_SameAppendOnlyTriggersInBothDialects(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	want := map[string]bool{"games.games_no_delete_played": true,
		// 00165: what decided a game, and the parents of history (a
		// trigger, not a foreign key: SQLite's can be switched off).
		"games.games_no_update_decided": true, "games.games_no_delete_logged": true,
		"events.events_no_delete_with_games": true, "knockout_stages.knockout_stages_no_delete_logged": true,
		"league_classes.league_classes_no_delete_logged": true, "day_classes.day_classes_no_delete_logged": true}
	for _, tb := range store.AppendOnlyTables() {
		want[tb+"."+tb+"_no_update"], want[tb+"."+tb+"_no_delete"] = true, true
	}
	// triggers lists table.trigger, leaving out the suffix only one
	// dialect has (checked to cover every append-only table).
	triggers := func(t *testing.T, s *store.Store, q, only string) map[string]bool {
		t.Helper()
		var rows []struct{ Tbl, Name string }
		if err := s.DB(ctx).Raw(q).Scan(&rows).Error; err != nil {
			t.Fatal(err)
		}
		out, extra := map[string]bool{}, map[string]bool{}
		for _, r := range rows {
			if strings.Contains(r.Name, "_changed_") {
				continue // revisions (00097): TestMigrations_SameRevisionTriggersInBothDialects
			}
			if store.IsRatingInputTrigger(r.Name) { // 00098, checked by TestMigrations_SameRatingTriggersInBothDialects
				continue
			}
			if slices.Contains(store.ChangeNotifyTriggers(), r.Name) { // 00120: NOTIFY, PostgreSQL only (store/changes.go)
				continue
			}
			if strings.HasSuffix(r.Name, only) {
				extra[r.Tbl] = true
				continue
			}
			out[r.Tbl+"."+r.Name] = true
		}
		for _, tb := range store.AppendOnlyTables() {
			if !extra[tb] {
				t.Errorf("%s has no %s%s trigger", tb, tb, only)
			}
			delete(extra, tb)
		}
		for tb := range extra {
			t.Errorf("%s trigger on %s, which is not in store.AppendOnlyTables", only, tb)
		}
		return out
	}
	sq := triggers(t, storetest.SQLite(t), "SELECT tbl_name AS tbl, name FROM sqlite_master WHERE type = 'trigger'", "_no_replace")
	if !reflect.DeepEqual(sq, want) {
		t.Errorf("sqlite triggers %v, want %v", keys(sq), keys(want))
	}
	pg := triggers(t, storetest.Postgres(t), `SELECT c.relname AS tbl, t.tgname AS name FROM pg_trigger t
		JOIN pg_class c ON c.oid = t.tgrelid WHERE NOT t.tgisinternal`, "_no_truncate")
	if !reflect.DeepEqual(pg, sq) {
		t.Errorf("postgres triggers %v, sqlite %v", keys(pg), keys(sq))
	}
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
