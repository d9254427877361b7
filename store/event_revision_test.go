package store_test

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"kisen/store"
	"kisen/store/storetest"
)

// revisionStep is one write the triggers of 00097 must notice: setup runs
// before the revision is read, do is the write itself.
type revisionStep struct {
	table, op string // op: I, U or D as in store.RevisionTables
	setup     func() int64
	do        func(id int64)
}

// Issue 12 part 5: an insert, update or delete in every watched table
// raises the revision of the event it reaches (or of the registry), and
// only that one.
func TestCacheRevision_EveryWatchedWriteRaisesIt(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		db := s.DB(ctx)
		now := time.Date(2026, 4, 1, 9, 0, 0, 0, time.UTC)
		create := func(v any) {
			t.Helper()
			if err := db.Create(v).Error; err != nil {
				t.Fatalf("create %T: %v", v, err)
			}
		}
		exec := func(q string, args ...any) {
			t.Helper()
			if err := db.Exec(q, args...).Error; err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		revision := func(event int64) store.EventRevision {
			t.Helper()
			r, ok, err := s.EventRevision(ctx, event)
			if err != nil || !ok {
				t.Fatalf("revision of event %d: %v %v", event, ok, err)
			}
			return r
		}
		u := store.User{Login: "director", DisplayName: "大会 責任者", PasswordHash: "x"}
		create(&u)
		var (
			org                               store.Organiser
			ev, other                         store.Event
			p1, p2, p3                        store.Player
			g, redo                           store.Game
			r1                                store.GameResult
			st                                store.KnockoutStage
			cl                                store.LeagueClass
			unlock                            store.EventSettingsUnlock
			leagueGame, playoffGame, recordID int64
			dc                                store.DayClass
			dr                                store.DayRound
			ruling                            store.Ruling
			appeal                            store.Appeal
			liveMove                          store.GameMove
		)
		game := func(label string) store.Game {
			t.Helper()
			x := store.Game{EventID: ev.ID, Label: label}
			create(&x)
			return x
		}
		byID := func(table string) func(int64) {
			col := "id"
			switch table {
			case "users":
				col = "display_name"
			case "day_events": // keyed by its event
				return func(int64) { exec("UPDATE day_events SET created_at = created_at WHERE event_id = ?", ev.ID) }
			}
			return func(id int64) { exec(fmt.Sprintf("UPDATE %s SET %s = %s WHERE id = ?", table, col, col), id) }
		}
		deleteID := func(table string) func(int64) {
			return func(id int64) { exec("DELETE FROM "+table+" WHERE id = ?", id) }
		}
		id := func(v int64) func() int64 { return func() int64 { return v } }
		ins := func(table string, fn func()) revisionStep {
			return revisionStep{table: table, op: "I", do: func(int64) { fn() }}
		}
		// upd and del act on a row made for them, so append-only rules and
		// foreign keys never stand in the way.
		upd := func(table string, row func() int64) revisionStep {
			return revisionStep{table: table, op: "U", setup: row, do: byID(table)}
		}
		del := func(table string, row func() int64) revisionStep {
			return revisionStep{table: table, op: "D", setup: row, do: deleteID(table)}
		}
		registry := []revisionStep{
			ins("organisers", func() { org = store.Organiser{Name: "棋戦協会", Kind: "federation"}; create(&org) }),
			upd("organisers", func() int64 { return org.ID }),
			del("organisers", func() int64 { x := store.Organiser{Name: "消える会", Kind: "other"}; create(&x); return x.ID }),
			ins("players", func() {
				for i, p := range []*store.Player{&p1, &p2, &p3} {
					*p = store.Player{Name: fmt.Sprintf("棋士 %d", i), Reading: "きし", Kind: "professional", SearchKey: "きし", CreatedAt: now, UpdatedAt: now}
					create(p)
				}
			}),
			upd("players", func() int64 { return p1.ID }),
			del("players", func() int64 {
				x := store.Player{Name: "削除", Reading: "さくじょ", Kind: "amateur", SearchKey: "さくじょ", CreatedAt: now, UpdatedAt: now}
				create(&x)
				return x.ID
			}),
			ins("player_masters", func() {
				create(&store.PlayerMaster{DiscipleID: p2.ID, MasterPlayerID: &p1.ID, MasterKey: store.MasterKey(fmt.Sprintf("p:%d", p1.ID)),
					FromDate: store.CivilDateOf(now), CreatedAt: now, UpdatedAt: now})
			}),
			upd("player_masters", func() int64 {
				var m store.PlayerMaster
				if err := db.Take(&m).Error; err != nil {
					t.Fatal(err)
				}
				return m.ID
			}),
			del("player_masters", func() int64 {
				x := store.PlayerMaster{DiscipleID: p3.ID, TeacherName: "先生", TeacherReading: "せんせい", MasterKey: "t:先生|せんせい",
					FromDate: store.CivilDateOf(now), CreatedAt: now, UpdatedAt: now}
				create(&x)
				return x.ID
			}),
			ins("player_relatives", func() { create(&store.PlayerRelative{PlayerAID: p1.ID, PlayerBID: p2.ID, Relation: "兄弟"}) }),
			upd("player_relatives", func() int64 {
				var r store.PlayerRelative
				if err := db.Take(&r).Error; err != nil {
					t.Fatal(err)
				}
				return r.ID
			}),
			del("player_relatives", func() int64 { x := store.PlayerRelative{PlayerAID: p2.ID, PlayerBID: p3.ID}; create(&x); return x.ID }),
			upd("users", id(u.ID)),
		}
		var regBefore int64
		for _, st := range registry {
			var rowID int64
			if st.setup != nil {
				rowID = st.setup()
			}
			var r struct{ Revision int64 }
			_ = db.Raw("SELECT revision FROM registry_changes WHERE id = 1").Scan(&r).Error
			st.do(rowID)
			var after struct{ Revision int64 }
			if err := db.Raw("SELECT revision FROM registry_changes WHERE id = 1").Scan(&after).Error; err != nil {
				t.Fatal(err)
			}
			if after.Revision <= r.Revision {
				t.Errorf("%s %s: registry revision %d → %d, want raised", st.op, st.table, r.Revision, after.Revision)
			}
			regBefore = after.Revision
		}

		ev = store.Event{OrganiserID: org.ID, Name: "王座戦", Kind: "knockout", StartDate: "2026-04-01", EndDate: "2026-04-30", CreatedBy: u.ID}
		create(&ev)
		other = store.Event{OrganiserID: org.ID, Name: "別の棋戦", Kind: "league", StartDate: "2026-04-01", EndDate: "2026-04-30", CreatedBy: u.ID}
		create(&other)
		if r := revision(ev.ID); r.Event != 1 || r.Registry != regBefore {
			t.Fatalf("a new event: revision %+v, want 1 and the registry's %d", r, regBefore)
		}
		otherBefore := revision(other.ID)

		steps := []revisionStep{
			upd("events", func() int64 { return ev.ID }),
			ins("event_status_changes", func() {
				create(&store.EventStatusChange{EventID: ev.ID, FromStatus: "draft", ToStatus: "published", ChangedBy: u.ID, ChangedAt: now})
			}),
			upd("event_status_changes", func() int64 {
				var x store.EventStatusChange
				if err := db.Where("event_id = ?", ev.ID).Take(&x).Error; err != nil {
					t.Fatal(err)
				}
				return x.ID
			}),
			del("event_status_changes", func() int64 {
				x := store.EventStatusChange{EventID: ev.ID, FromStatus: "published", ToStatus: "finished", ChangedBy: u.ID, ChangedAt: now}
				create(&x)
				return x.ID
			}),
			ins("event_roles", func() { create(&store.EventRole{EventID: ev.ID, UserID: u.ID, Role: "director", GrantedBy: u.ID}) }),
			upd("event_roles", func() int64 {
				var x store.EventRole
				if err := db.Where("event_id = ? AND role = 'director'", ev.ID).Take(&x).Error; err != nil {
					t.Fatal(err)
				}
				return x.ID
			}),
			del("event_roles", func() int64 {
				x := store.EventRole{EventID: ev.ID, UserID: u.ID, Role: "recorder", GrantedBy: u.ID}
				create(&x)
				return x.ID
			}),
			ins("event_settings_unlocks", func() {
				unlock = store.EventSettingsUnlock{EventID: ev.ID, UnlockedBy: u.ID, UnlockedAt: now, Reason: "持ち時間の訂正"}
				create(&unlock)
			}),
			ins("event_settings_changes", func() {
				create(&store.EventSettingsChange{EventID: ev.ID, ChangedBy: u.ID, ChangedAt: now, SettingsBefore: "{}", SettingsAfter: `{"x":1}`, UnlockID: &unlock.ID})
			}),
			ins("games", func() { g = game("R1-G1") }),
			upd("games", func() int64 { return g.ID }),
			del("games", func() int64 { return game("未対局").ID }),
			ins("game_records", func() {
				rec := store.GameRecord{GameID: g.ID, Version: 1, Format: "usi", Text: "position startpos moves 7g7f",
					StartSFEN: "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", Moves: "7g7f", Plies: 1, EnteredBy: u.ID, EnteredAt: now}
				create(&rec)
				recordID = rec.ID
			}),
			ins("game_results", func() {
				r1 = store.GameResult{GameID: g.ID, Version: 1, Result: "redo", Reason: "sennichite", EnteredBy: u.ID, EnteredAt: now}
				create(&r1)
			}),
			ins("game_adjudications", func() {
				create(&store.GameAdjudication{GameID: g.ID, ResultID: r1.ID, RecordID: &recordID, Facts: `{"ending":"sennichite"}`, CreatedAt: now})
			}),
			ins("game_result_confirmations", func() {
				create(&store.GameResultConfirmation{GameResultID: r1.ID, ConfirmedBy: u.ID, ConfirmedAt: now})
			}),
			ins("rulings", func() {
				ruling = store.Ruling{GameID: g.ID, Kind: "warning", Player: "sente", Reason: "秒読み", ArbiterID: u.ID, MadeAt: now}
				create(&ruling)
			}),
			ins("appeals", func() {
				appeal = store.Appeal{GameID: g.ID, RulingID: ruling.ID, FiledBy: "sente", StatementSente: "異議", Body: "council",
					DeadlineAt: now.Add(time.Hour), EnteredBy: u.ID, FiledAt: now}
				create(&appeal)
			}),
			ins("appeal_decisions", func() {
				create(&store.AppealDecision{AppealID: appeal.ID, GameID: g.ID, Decision: "dismissed", Reasons: "理由", DecidedBy: u.ID, DecidedAt: now})
			}),
			ins("game_moves", func() {
				liveMove = store.GameMove{GameID: g.ID, Ply: 1, USI: "7g7f", ElapsedSeconds: 30, EnteredBy: u.ID, EnteredAt: now}
				create(&liveMove)
			}),
			ins("game_move_undos", func() {
				create(&store.GameMoveUndo{MoveID: liveMove.ID, GameID: g.ID, Reason: "記入誤り", EnteredBy: u.ID, EnteredAt: now})
			}),
			{table: "game_voids", op: "I", setup: func() int64 {
				redo = store.Game{EventID: ev.ID, Label: "R1-G1 指し直し", RedoOfID: &g.ID, RedoNumber: 1}
				create(&redo)
				return redo.ID
			}, do: func(int64) {
				create(&store.GameVoid{GameID: redo.ID, ResultID: r1.ID, VoidedBy: u.ID, VoidedAt: now})
			}},
			ins("knockout_stages", func() {
				st = store.KnockoutStage{EventID: ev.ID, Position: 1, Name: "本戦", Kind: "main"}
				create(&st)
			}),
			upd("knockout_stages", func() int64 { return st.ID }),
			del("knockout_stages", func() int64 {
				x := store.KnockoutStage{EventID: ev.ID, Position: 2, Name: "予選", Kind: "first_preliminary"}
				create(&x)
				return x.ID
			}),
			ins("knockout_entrants", func() { create(&store.KnockoutEntrant{StageID: st.ID, PlayerID: p1.ID}) }),
			upd("knockout_entrants", func() int64 {
				var x store.KnockoutEntrant
				if err := db.Where("stage_id = ?", st.ID).Take(&x).Error; err != nil {
					t.Fatal(err)
				}
				return x.ID
			}),
			del("knockout_entrants", func() int64 { x := store.KnockoutEntrant{StageID: st.ID, PlayerID: p2.ID}; create(&x); return x.ID }),
			ins("knockout_games", func() { create(&store.KnockoutGame{StageID: st.ID, BracketGame: "R1-G1", GameID: g.ID}) }),
			upd("knockout_games", func() int64 {
				var x store.KnockoutGame
				if err := db.Where("stage_id = ?", st.ID).Take(&x).Error; err != nil {
					t.Fatal(err)
				}
				return x.ID
			}),
			del("knockout_games", func() int64 {
				x := store.KnockoutGame{StageID: st.ID, BracketGame: "R1-G2", GameID: game("R1-G2").ID}
				create(&x)
				return x.ID
			}),
			ins("knockout_draw_log", func() {
				create(&store.DrawLogEntry{StageID: st.ID, Action: "draw", Detail: `{"seed":"42"}`, ActorID: u.ID, At: now})
			}),
			ins("corrections", func() {
				create(&store.Correction{EventID: ev.ID, Kind: "result", GameID: &g.ID, StageID: &st.ID, Reason: "勝者の訂正", ActorID: u.ID, At: now})
			}),
			ins("league_classes", func() { cl = store.LeagueClass{EventID: ev.ID, Class: "A"}; create(&cl) }),
			upd("league_classes", func() int64 { return cl.ID }),
			del("league_classes", func() int64 { x := store.LeagueClass{EventID: ev.ID, Class: "B1"}; create(&x); return x.ID }),
			ins("league_members", func() { create(&store.LeagueMember{ClassID: cl.ID, PlayerID: p1.ID, Junni: 1}) }),
			upd("league_members", func() int64 {
				var x store.LeagueMember
				if err := db.Where("class_id = ?", cl.ID).Take(&x).Error; err != nil {
					t.Fatal(err)
				}
				return x.ID
			}),
			del("league_members", func() int64 {
				x := store.LeagueMember{ClassID: cl.ID, PlayerID: p2.ID, Junni: 2}
				create(&x)
				return x.ID
			}),
			ins("league_history", func() {
				create(&store.LeagueHistory{EventID: ev.ID, TermsAgo: 1, Class: "A", PlayerAID: p1.ID, PlayerBID: p2.ID})
			}),
			upd("league_history", func() int64 {
				var x store.LeagueHistory
				if err := db.Where("event_id = ?", ev.ID).Take(&x).Error; err != nil {
					t.Fatal(err)
				}
				return x.ID
			}),
			del("league_history", func() int64 {
				x := store.LeagueHistory{EventID: ev.ID, TermsAgo: 2, PlayerAID: p2.ID, PlayerBID: p3.ID}
				create(&x)
				return x.ID
			}),
			{table: "league_games", op: "I", setup: func() int64 { leagueGame = game("A-1").ID; return 0 }, do: func(int64) {
				create(&store.LeagueGame{ClassID: cl.ID, Round: 1, GameID: leagueGame})
			}},
			upd("league_games", func() int64 {
				var x store.LeagueGame
				if err := db.Where("class_id = ?", cl.ID).Take(&x).Error; err != nil {
					t.Fatal(err)
				}
				return x.ID
			}),
			del("league_games", func() int64 {
				x := store.LeagueGame{ClassID: cl.ID, Round: 2, GameID: game("A-2").ID}
				create(&x)
				return x.ID
			}),
			{table: "league_playoff_games", op: "I", setup: func() int64 { playoffGame = game("PO-1").ID; return 0 }, do: func(int64) {
				create(&store.LeaguePlayoffGame{ClassID: cl.ID, Number: 1, GameID: playoffGame})
			}},
			upd("league_playoff_games", func() int64 {
				var x store.LeaguePlayoffGame
				if err := db.Where("class_id = ?", cl.ID).Take(&x).Error; err != nil {
					t.Fatal(err)
				}
				return x.ID
			}),
			del("league_playoff_games", func() int64 {
				x := store.LeaguePlayoffGame{ClassID: cl.ID, Number: 2, GameID: game("PO-2").ID}
				create(&x)
				return x.ID
			}),
			ins("league_schedule_log", func() { create(&store.LeagueLogEntry{ClassID: cl.ID, Action: "draw", ActorID: u.ID, At: now}) }),
			ins("league_member_changes", func() { // 00200
				create(&store.LeagueMemberChange{EventID: ev.ID, Seq: 1, Action: "add", PlayerID: p1.ID, ToClass: "A", Kind: "other", Reason: "編入", ActorID: u.ID, At: now})
			}),
			// The amateur day (00155). ev's day row is deleted while it has
			// no class yet, then made again for the rest.
			ins("day_events", func() { create(&store.DayEvent{EventID: ev.ID, CreatedAt: now}) }),
			upd("day_events", func() int64 { return 0 }),
			{table: "day_events", op: "D", do: func(int64) { exec("DELETE FROM day_events WHERE event_id = ?", ev.ID) }},
			{table: "day_classes", op: "I", setup: func() int64 { create(&store.DayEvent{EventID: ev.ID, CreatedAt: now}); return 0 }, do: func(int64) {
				dc = store.DayClass{EventID: ev.ID, Name: "A級", Format: "swiss", CreatedAt: now, UpdatedAt: now}
				create(&dc)
			}},
			upd("day_classes", func() int64 { return dc.ID }),
			del("day_classes", func() int64 {
				x := store.DayClass{EventID: ev.ID, Name: "B級", Format: "pools", CreatedAt: now, UpdatedAt: now}
				create(&x)
				return x.ID
			}),
			ins("day_entrants", func() {
				create(&store.DayEntrant{EventID: ev.ID, ClassID: dc.ID, PlayerID: p1.ID, CreatedAt: now, UpdatedAt: now})
			}),
			upd("day_entrants", func() int64 {
				var x store.DayEntrant
				if err := db.Where("class_id = ?", dc.ID).Take(&x).Error; err != nil {
					t.Fatal(err)
				}
				return x.ID
			}),
			del("day_entrants", func() int64 {
				x := store.DayEntrant{EventID: ev.ID, ClassID: dc.ID, PlayerID: p2.ID, CreatedAt: now, UpdatedAt: now}
				create(&x)
				return x.ID
			}),
			ins("day_rounds", func() {
				dr = store.DayRound{ClassID: dc.ID, Number: 1, Seed: "42", DrawnBy: u.ID, DrawnAt: now}
				create(&dr)
			}),
			ins("day_pairings", func() { create(&store.DayPairing{RoundID: dr.ID, ByePlayerID: &p1.ID}) }),
			ins("day_log", func() {
				create(&store.DayLogEntry{EventID: ev.ID, ClassID: &dc.ID, Action: "toss", ActorID: u.ID, At: now})
			}),
			ins("day_finals", func() {
				create(&store.DayFinal{ClassID: dc.ID, StageID: st.ID, Seed: "7", BuiltBy: u.ID, BuiltAt: now})
			}),
			ins("day_entry_settings", func() {
				create(&store.DayEntrySettings{EventID: ev.ID, Open: true, Caps: "{}", Version: 1, UpdatedAt: now})
			}),
			{table: "day_entry_settings", op: "U", do: func(int64) { exec("UPDATE day_entry_settings SET open = FALSE WHERE event_id = ?", ev.ID) }},
			{table: "day_entry_settings", op: "D", do: func(int64) { exec("DELETE FROM day_entry_settings WHERE event_id = ?", ev.ID) }},
			ins("seat_overrides", func() {
				create(&store.SeatOverride{GameID: g.ID, JozaID: p1.ID, Reason: "主催者の判断", ActorID: u.ID, At: now})
			}),
		}
		covered := map[string]bool{"events.I": true} // checked above: a new event starts at 1
		for _, st := range append(registry, steps...) {
			covered[st.table+"."+st.op] = true
		}
		for _, rt := range store.RevisionTables() {
			for _, op := range rt.Ops {
				if !covered[rt.Table+"."+string(op)] {
					t.Errorf("no step writes %s %c", rt.Table, op)
				}
			}
		}

		for _, st := range steps {
			var rowID int64
			if st.setup != nil {
				rowID = st.setup()
			}
			before := revision(ev.ID)
			st.do(rowID)
			after := revision(ev.ID)
			if after.Event <= before.Event {
				t.Errorf("%s %s: event revision %d → %d, want raised", st.op, st.table, before.Event, after.Event)
			}
			if after.Registry != regBefore {
				t.Errorf("%s %s: registry revision %d → %d, want unchanged", st.op, st.table, regBefore, after.Registry)
			}
		}
		if r := revision(other.ID); r.Event != otherBefore.Event {
			t.Errorf("the other event's revision moved %d → %d; writes to one event must leave the others alone", otherBefore.Event, r.Event)
		}

		// Unwatched writes change nothing.
		before := revision(ev.ID)
		exec("UPDATE users SET password_hash = 'y' WHERE id = ?", u.ID)
		exec("INSERT INTO login_attempts (login, ip, attempted_at) VALUES ('x', '192.0.2.1', ?)", now)
		// Settled follows the database clock, not the writes: a second may
		// tick between the two reads.
		if r := revision(ev.ID); r.Event != before.Event || r.Registry != before.Registry || !r.At.Equal(before.At) {
			t.Errorf("unwatched writes moved the revision: %+v → %+v", before, r)
		}

		// An event deleted with its unplayed rows takes its revision along
		// (each child's trigger finds no event and does nothing).
		gone := store.Event{OrganiserID: org.ID, Name: "中止", Kind: "league", StartDate: "2026-05-01", EndDate: "2026-05-02", CreatedBy: u.ID}
		create(&gone)
		gg := store.Game{EventID: gone.ID}
		create(&gg)
		gst := store.KnockoutStage{EventID: gone.ID, Position: 1, Name: "本戦", Kind: "main"}
		create(&gst)
		create(&store.KnockoutEntrant{StageID: gst.ID, PlayerID: p1.ID})
		create(&store.KnockoutGame{StageID: gst.ID, BracketGame: "R1-G1", GameID: gg.ID})
		gcl := store.LeagueClass{EventID: gone.ID, Class: ""}
		create(&gcl)
		create(&store.LeagueMember{ClassID: gcl.ID, PlayerID: p1.ID, Junni: 1})
		exec("DELETE FROM games WHERE id = ?", gg.ID) // an event with games is never deleted (00165)
		exec("DELETE FROM events WHERE id = ?", gone.ID)
		if _, ok, err := s.EventRevision(ctx, gone.ID); ok || err != nil {
			t.Errorf("a deleted event still has a revision (%v, %v)", ok, err)
		}
		if _, ok, err := s.EventRevision(ctx, 987654); ok || err != nil {
			t.Errorf("an event that never was: %v, %v", ok, err)
		}
	})
}

// A revision is raised when the writing transaction commits, and not at
// all when it rolls back. (On PostgreSQL the triggers are deferred to the
// commit, so a writer of one event never holds its revision row for long.)
func TestCacheRevision_RaisedOnCommitOnly(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := store.User{Login: "u", DisplayName: "u", PasswordHash: "x"}
		o := store.Organiser{Name: "会", Kind: "other"}
		for _, v := range []any{&u, &o} {
			if err := s.DB(ctx).Create(v).Error; err != nil {
				t.Fatal(err)
			}
		}
		ev := store.Event{OrganiserID: o.ID, Name: "棋戦", Kind: "knockout", StartDate: "2026-04-01", EndDate: "2026-04-30", CreatedBy: u.ID}
		if err := s.DB(ctx).Create(&ev).Error; err != nil {
			t.Fatal(err)
		}
		rev := func() int64 {
			t.Helper()
			r, _, err := s.EventRevision(ctx, ev.ID)
			if err != nil {
				t.Fatal(err)
			}
			return r.Event
		}
		start := rev()
		errRollback := fmt.Errorf("roll back")
		err := s.Tx(ctx, func(tx *store.Store) error {
			if err := tx.DB(ctx).Create(&store.Game{EventID: ev.ID, Label: "消える"}).Error; err != nil {
				return err
			}
			return errRollback
		})
		if err != errRollback {
			t.Fatal(err)
		}
		if r := rev(); r != start {
			t.Fatalf("a rolled-back write moved the revision %d → %d", start, r)
		}
		if s.Dialect() == store.Postgres {
			// Another connection reads while the writer is open: unchanged.
			err = s.Tx(ctx, func(tx *store.Store) error {
				if err := tx.DB(ctx).Create(&store.Game{EventID: ev.ID, Label: "1"}).Error; err != nil {
					return err
				}
				if r := rev(); r != start {
					t.Errorf("revision moved before the commit: %d → %d", start, r)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		} else if err := s.DB(ctx).Create(&store.Game{EventID: ev.ID, Label: "1"}).Error; err != nil {
			t.Fatal(err)
		}
		if r := rev(); r <= start {
			t.Fatalf("after the commit: revision %d, want above %d", r, start)
		}
	})
}

// Last-Modified may stand for a revision only once its second is over.
func TestCacheRevision_SettledOnceTheSecondIsOver(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := store.User{Login: "u", DisplayName: "u", PasswordHash: "x"}
		o := store.Organiser{Name: "会", Kind: "other"}
		for _, v := range []any{&u, &o} {
			if err := s.DB(ctx).Create(v).Error; err != nil {
				t.Fatal(err)
			}
		}
		ev := store.Event{OrganiserID: o.ID, Name: "棋戦", Kind: "knockout", StartDate: "2026-04-01", EndDate: "2026-04-30", CreatedBy: u.ID}
		if err := s.DB(ctx).Create(&ev).Error; err != nil {
			t.Fatal(err)
		}
		r, _, err := s.EventRevision(ctx, ev.ID)
		if err != nil {
			t.Fatal(err)
		}
		if d := time.Since(r.At); d < -2*time.Second || d > 5*time.Second {
			t.Fatalf("changed at %s, now %s", r.At, time.Now().UTC())
		}
		storetest.AgeRevisions(t, s, 3*time.Second)
		aged, _, err := s.EventRevision(ctx, ev.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !aged.Settled || aged.Event != r.Event || aged.At.Nanosecond() != 0 || !aged.At.Before(r.At.Add(-time.Second)) {
			t.Fatalf("aged: %+v (was %+v)", aged, r)
		}
	})
}

// Migration 00097 defines the same triggers on both databases, exactly
// those store.RevisionTables names.
func TestMigrations_SameRevisionTriggersInBothDialects(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	names := map[string]string{"I": "insert", "U": "update", "D": "delete"}
	var want []string
	for _, rt := range store.RevisionTables() {
		for _, op := range rt.Ops {
			want = append(want, rt.Table+"."+rt.Table+"_changed_"+names[string(op)])
		}
	}
	slices.Sort(want)
	triggers := func(s *store.Store, q string) []string {
		var rows []struct{ Tbl, Name string }
		if err := s.DB(ctx).Raw(q).Scan(&rows).Error; err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range rows {
			if strings.Contains(r.Name, "_changed_") {
				out = append(out, r.Tbl+"."+r.Name)
			}
		}
		slices.Sort(out)
		return out
	}
	sq := triggers(storetest.SQLite(t), "SELECT tbl_name AS tbl, name FROM sqlite_master WHERE type = 'trigger'")
	if !reflect.DeepEqual(sq, want) {
		t.Errorf("sqlite revision triggers\n%v\nwant\n%v", sq, want)
	}
	pg := storetest.Postgres(t)
	if got := triggers(pg, `SELECT c.relname AS tbl, t.tgname AS name FROM pg_trigger t
		JOIN pg_class c ON c.oid = t.tgrelid WHERE NOT t.tgisinternal`); !reflect.DeepEqual(got, want) {
		t.Errorf("postgres revision triggers\n%v\nwant\n%v", got, want)
	}
	// Deferred to the commit, every one of them.
	var immediate []string
	if err := pg.DB(ctx).Raw(`SELECT t.tgname FROM pg_trigger t WHERE t.tgname LIKE '%\_changed\_%' AND NOT (t.tgdeferrable AND t.tginitdeferred)`).Scan(&immediate).Error; err != nil {
		t.Fatal(err)
	}
	if len(immediate) > 0 {
		t.Errorf("postgres revision triggers not deferred to the commit: %v", immediate)
	}
}

// Every table is either watched by a revision trigger or named as shown
// on no event page: a new table has to be put on one side.
func TestCacheRevision_EveryTableIsWatchedOrNamedUnwatched(t *testing.T) {
	t.Parallel()
	var known []string
	for _, rt := range store.RevisionTables() {
		known = append(known, rt.Table)
	}
	known = append(known, store.UnwatchedTables()...)
	slices.Sort(known)
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		q := `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY name`
		if s.Dialect() == store.Postgres {
			q = `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`
		}
		var tables []string
		if err := s.DB(context.Background()).Raw(q).Scan(&tables).Error; err != nil {
			t.Fatal(err)
		}
		slices.Sort(tables)
		if !reflect.DeepEqual(tables, known) {
			t.Errorf("tables\n%v\nwatched or unwatched\n%v", tables, known)
		}
	})
}
