package office_test

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"kisen/office"
	"kisen/rules/kifu"
	"kisen/store"
	"kisen/store/storetest"
)

// liveMove sends one move as the recorder's page does.
func liveMove(t *testing.T, g *gameFixture, a office.Actor, gameID int64, ply int, move string, elapsed, version int) (office.LiveRecord, error) {
	t.Helper()
	return g.o.RecordMove(g.ctx, a, gameID, office.LiveMoveInput{Ply: ply, Move: move, Elapsed: elapsed, VersionSeen: version})
}

func conflictOf(t *testing.T, err error) *office.LiveConflictError {
	t.Helper()
	var ce *office.LiveConflictError
	if !errors.As(err, &ce) || !errors.Is(err, office.ErrConflict) {
		t.Fatalf("want a conflict with the record, got %v", err)
	}
	return ce
}

// Issue 26 item 1, D-T1 (001 第4条A1): moves entered in USI or JSA
// notation are checked by the rules from the stored position; an illegal
// or unreadable move is refused in words naming it and stores nothing; the
// stopwatch charges each move its whole minutes only.
func TestRecorder_D_T1_LegalIllegalAndStopwatchTruncationPerMove(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		g := newGameFixture(t, s, `{"time":{"allowance":"10m","timing":"stopwatch","byoyomi":"60s"}}`)
		gm := g.game()
		r, err := liveMove(t, g, g.recorder, gm.ID, 1, "7g7f", 119, 0)
		if err != nil {
			t.Fatal(err)
		}
		r, err = liveMove(t, g, g.recorder, gm.ID, 2, "３四歩", 59, r.Version)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Moves) != 2 || r.Moves[1].USI != "3c3d" || r.Moves[0].Text != "▲７六歩" || r.Version != 2 {
			t.Fatalf("record %+v", r)
		}
		// 1:59 is charged one minute, 0:59 nothing: per move, not in total.
		if r.Moves[0].Charged != time.Minute || r.Moves[1].Charged != 0 || r.Moves[0].Elapsed != 119 {
			t.Fatalf("charged %v %v", r.Moves[0].Charged, r.Moves[1].Charged)
		}
		// The game's own allowance (180 minutes) less what was charged.
		if r.Clock == nil || r.Clock.Used.Sente.D() != time.Minute || r.Clock.Used.Gote.D() != 0 ||
			r.Clock.Remaining.Sente.D() != 179*time.Minute || r.Clock.Remaining.Gote.D() != 180*time.Minute {
			t.Fatalf("clock %+v", r.Clock)
		}
		if len(r.Byoyomi) == 0 || r.Byoyomi[0].Word != "30秒" {
			t.Fatalf("byoyomi calls %+v", r.Byoyomi)
		}
		// Ply 3: the rook cannot jump over its own pawn.
		_, err = liveMove(t, g, g.recorder, gm.ID, 3, "2h2b", 10, r.Version)
		if c := fieldCodes(err)["move"]; c != "recorder.err.illegal.illegal_movement" {
			t.Fatalf("illegal move: %v", err)
		}
		_, err = liveMove(t, g, g.recorder, gm.ID, 3, "あいう", 10, r.Version)
		if c := fieldCodes(err)["move"]; c != "recorder.err.move_unreadable" {
			t.Fatalf("unreadable move: %v", err)
		}
		_, err = liveMove(t, g, g.recorder, gm.ID, 3, "2g2f", -1, r.Version)
		if c := fieldCodes(err)["elapsed"]; c != "recorder.err.elapsed" {
			t.Fatalf("negative time: %v", err)
		}
		rows, _ := s.GameMoves(g.ctx, gm.ID)
		if len(rows) != 2 || rows[0].ElapsedSeconds != 119 || rows[1].USI != "3c3d" {
			t.Fatalf("refused moves were stored: %+v", rows)
		}
	})
}

// Issue 26 item 4: a resend of a stored move is answered as done; another
// move for a stored ply, a gap and a stale version are 409 with the record
// as it stands, so a reconnecting device can resend what is missing.
func TestRecorder_DuplicateOutOfOrderStaleAndIdempotentResend(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		g := newGameFixture(t, s, "{}")
		gm := g.game()
		r, err := liveMove(t, g, g.recorder, gm.ID, 1, "7g7f", 5, 0)
		if err != nil {
			t.Fatal(err)
		}
		again, err := liveMove(t, g, g.recorder, gm.ID, 1, "7g7f", 5, 0)
		if err != nil || again.Version != r.Version || len(again.Moves) != 1 {
			t.Fatalf("identical resend: %+v %v", again, err)
		}
		if ce := conflictOf(t, func() error { _, err := liveMove(t, g, g.recorder, gm.ID, 1, "2g2f", 5, 0); return err }()); ce.Why != "taken" || len(ce.Record.Moves) != 1 || ce.Record.Moves[0].USI != "7g7f" {
			t.Fatalf("duplicate ply: %+v", ce)
		}
		if ce := conflictOf(t, func() error { _, err := liveMove(t, g, g.recorder, gm.ID, 3, "2g2f", 5, 2); return err }()); ce.Why != "gap" || ce.Record.Version != 1 {
			t.Fatalf("gap: %+v", ce)
		}
		if ce := conflictOf(t, func() error { _, err := liveMove(t, g, g.recorder, gm.ID, 2, "3c3d", 5, 0); return err }()); ce.Why != "stale" {
			t.Fatalf("stale: %+v", ce)
		}
		if rows, _ := s.GameMoves(g.ctx, gm.ID); len(rows) != 1 {
			t.Fatalf("%d rows after refusals", len(rows))
		}
	})
}

// Issue 26 item 4: two devices entering the same ply from the same record
// at once: exactly one is stored, the other is told.
func TestRecorder_TwoDevicesRaceExactlyOneWins(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		g := newGameFixture(t, s, "{}")
		gm := g.game()
		if _, err := liveMove(t, g, g.recorder, gm.ID, 1, "7g7f", 5, 0); err != nil {
			t.Fatal(err)
		}
		moves := []string{"3c3d", "8c8d"}
		errs := make([]error, len(moves))
		var wg sync.WaitGroup
		for i, m := range moves {
			wg.Go(func() {
				_, errs[i] = g.o.RecordMove(g.ctx, g.recorder, gm.ID, office.LiveMoveInput{Ply: 2, Move: m, Elapsed: 3, VersionSeen: 1})
			})
		}
		wg.Wait()
		won := 0
		for _, err := range errs {
			switch {
			case err == nil:
				won++
			case errors.Is(err, office.ErrConflict):
			default:
				t.Fatalf("race: %v", err)
			}
		}
		rows, _ := s.GameMoves(g.ctx, gm.ID)
		if won != 1 || len(rows) != 2 {
			t.Fatalf("%d winners, %d rows (%v)", won, len(rows), errs)
		}
	})
}

// Issue 26 item 1: undo of the last move supersedes it (append-only): the
// move stays stored, undone, and the ply is entered again; a device that
// saw the record before the undo is told.
func TestRecorder_UndoSupersedesAndKeepsHistory(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		g := newGameFixture(t, s, "{}")
		gm := g.game()
		r, _ := liveMove(t, g, g.recorder, gm.ID, 1, "7g7f", 5, 0)
		r, err := liveMove(t, g, g.recorder, gm.ID, 2, "3c3d", 5, r.Version)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.o.UndoLastMove(g.ctx, g.recorder, gm.ID, 1, r.Version, "記入誤り"); !errors.Is(err, office.ErrConflict) {
			t.Fatalf("undo of a move that is not the last: %v", err)
		}
		if _, err := g.o.UndoLastMove(g.ctx, g.recorder, gm.ID, 2, r.Version, " "); fieldCodes(err)["reason"] != "recorder.err.undo_reason" {
			t.Fatalf("undo without a reason: %v", err)
		}
		u, err := g.o.UndoLastMove(g.ctx, g.recorder, gm.ID, 2, r.Version, "記入誤り")
		if err != nil || len(u.Moves) != 1 || u.Version != 3 {
			t.Fatalf("undo: %+v %v", u, err)
		}
		// The other device still thinks ply 2 is 3c3d at version 2.
		conflictOf(t, func() error { _, err := liveMove(t, g, g.recorder, gm.ID, 3, "2g2f", 5, 2); return err }())
		n, err := liveMove(t, g, g.recorder, gm.ID, 2, "8c8d", 5, u.Version)
		if err != nil || len(n.Moves) != 2 || n.Moves[1].USI != "8c8d" || n.Version != 4 {
			t.Fatalf("after undo: %+v %v", n, err)
		}
		rows, _ := s.GameMoves(g.ctx, gm.ID)
		if len(rows) != 3 || !rows[1].Undone || rows[1].UndoneAt.IsZero() || !rows[0].UndoneAt.IsZero() || rows[1].USI != "3c3d" || rows[2].Attempt != 1 || rows[2].Undone {
			t.Fatalf("history %+v", rows)
		}
		read, err := g.o.LiveRecord(g.ctx, g.arbiter, gm.ID)
		if err != nil || read.Version != n.Version || read.SFEN != n.SFEN {
			t.Fatalf("read back %+v %v", read, err)
		}
	})
}

// Issue 26: only the game's recorder (event staff, or the open recorder
// link of THIS game) may enter moves; anyone else, a revoked link and
// another game's link are told the game does not exist.
func TestRecorder_LinkIssuedRevokedAndOutsidersSeeNotFound(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		g := newGameFixture(t, s, "{}")
		gm := g.game()
		other := g.game()
		if _, err := liveMove(t, g, g.outsider, gm.ID, 1, "7g7f", 5, 0); !errors.Is(err, office.ErrNotFound) {
			t.Fatalf("outsider: %v", err)
		}
		if _, err := g.o.IssueRecorderLink(g.ctx, g.recorder, gm.ID); !errors.Is(err, office.ErrNotFound) {
			t.Fatalf("a recorder issued a link: %v", err)
		}
		tok, err := g.o.IssueRecorderLink(g.ctx, g.admin, gm.ID)
		if err != nil || tok == "" {
			t.Fatal(err)
		}
		link := office.Actor{RecorderToken: tok}
		r, err := liveMove(t, g, link, gm.ID, 1, "7g7f", 5, 0)
		if err != nil {
			t.Fatalf("through the link: %v", err)
		}
		if _, err := liveMove(t, g, link, other.ID, 1, "7g7f", 5, 0); !errors.Is(err, office.ErrNotFound) {
			t.Fatalf("the link opened another game: %v", err)
		}
		if _, err := liveMove(t, g, office.Actor{RecorderToken: "wrong"}, gm.ID, 2, "3c3d", 5, r.Version); !errors.Is(err, office.ErrNotFound) {
			t.Fatalf("a wrong token: %v", err)
		}
		// A new link closes the old one; revoking closes the new one.
		tok2, err := g.o.IssueRecorderLink(g.ctx, g.admin, gm.ID)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := liveMove(t, g, link, gm.ID, 2, "3c3d", 5, r.Version); !errors.Is(err, office.ErrNotFound) {
			t.Fatalf("the replaced link still works: %v", err)
		}
		if _, ok, _ := g.o.RecorderLinkState(g.ctx, g.admin, gm.ID); !ok {
			t.Fatal("no open link after issuing")
		}
		if err := g.o.RevokeRecorderLink(g.ctx, g.recorder, gm.ID); !errors.Is(err, office.ErrNotFound) {
			t.Fatalf("a recorder revoked a link: %v", err)
		}
		if err := g.o.RevokeRecorderLink(g.ctx, g.admin, gm.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := g.o.LiveRecord(g.ctx, office.Actor{RecorderToken: tok2}, gm.ID); !errors.Is(err, office.ErrNotFound) {
			t.Fatalf("revoked link: %v", err)
		}
		if rows, _ := s.GameMoves(g.ctx, gm.ID); len(rows) != 1 || rows[0].EnteredVia != "recorder_link" {
			t.Fatalf("rows %+v", rows)
		}
		// The event's arbiter (立会人) runs the board on the day: it issues
		// and revokes too.
		tok3, err := g.o.IssueRecorderLink(g.ctx, g.arbiter, gm.ID)
		if err != nil || tok3 == "" {
			t.Fatalf("the arbiter issued no link: %v", err)
		}
		if _, ok, _ := g.o.RecorderLinkState(g.ctx, g.arbiter, gm.ID); !ok {
			t.Fatal("no open link after the arbiter issued one")
		}
		if err := g.o.RevokeRecorderLink(g.ctx, g.arbiter, gm.ID); err != nil {
			t.Fatalf("the arbiter revoked: %v", err)
		}
		if _, err := g.o.LiveRecord(g.ctx, office.Actor{RecorderToken: tok3}, gm.ID); !errors.Is(err, office.ErrNotFound) {
			t.Fatalf("the arbiter's revoked link: %v", err)
		}
	})
}

func factCodes(r office.LiveRecord) map[string]office.LiveFact {
	out := map[string]office.LiveFact{}
	for _, f := range r.Facts {
		out[f.Code] = f
	}
	return out
}

// D-S1, D-S2 (004): the third occurrence of a position is warned so the
// players may agree to a redo; the fourth is 千日手 for the arbiter. D-J1:
// the jishogi points are counted on demand by the organiser's rule.
func TestRecorder_D_S1_D_S2_ThirdOccurrenceWarnedFourthAlerted_D_J1_Points(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		g := newGameFixture(t, s, "{}")
		gm := g.game()
		cycle := []string{"5i5h", "5a5b", "5h5i", "5b5a"}
		var r office.LiveRecord
		for ply := 1; ply <= 12; ply++ {
			var err error
			r, err = liveMove(t, g, g.recorder, gm.ID, ply, cycle[(ply-1)%4], 1, r.Version)
			if err != nil {
				t.Fatal(err)
			}
			f := factCodes(r)
			_, third := f["recorder.fact.third_occurrence"]
			if third != (ply >= 8 && ply <= 11) { // each position of the cycle, at its 3rd time
				t.Fatalf("ply %d: third-occurrence warning %v (%v)", ply, third, r.Facts)
			}
			if s, ok := f["recorder.fact.sennichite"]; ok != (ply == 12) || (ok && !s.Alert) {
				t.Fatalf("ply %d: sennichite %v (%v)", ply, ok, r.Facts)
			}
			if p, ok := f["recorder.fact.jishogi.redo"]; ply < 12 && (!ok || p.Args["Sente"] != 27 || p.Args["Gote"] != 27 || p.Args["Rule"] != 24) {
				t.Fatalf("ply %d: points %v", ply, r.Facts)
			}
		}
	})
}

// Issue 26 item 1/5: the live record feeds the KIF and CSA downloads with
// each move's time (KIF's time column, CSA's T lines) and its comments;
// the KIF reads back to the same moves.
func TestRecorder_LiveRecordDownloadsWithTimesPerMove(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		g := newGameFixture(t, s, "{}")
		gm := g.game()
		r, _ := liveMove(t, g, g.recorder, gm.ID, 1, "7g7f", 75, 0)
		r, err := g.o.RecordMove(g.ctx, g.recorder, gm.ID, office.LiveMoveInput{Ply: 2, Move: "3c3d", Elapsed: 130, Comment: "長考", VersionSeen: r.Version})
		if err != nil {
			t.Fatal(err)
		}
		kif, err := g.o.GameRecordFile(g.ctx, g.admin, gm.ID, office.DownloadKIF)
		if err != nil {
			t.Fatal(err)
		}
		text := string(kif.Body)
		for _, want := range []string{"( 1:15/00:01:15)", "( 2:10/00:02:10)", "*長考"} {
			if !strings.Contains(text, want) {
				t.Errorf("KIF lacks %q:\n%s", want, text)
			}
		}
		res, err := kifu.Read(kif.Body, "", kifu.FormatKIF)
		if err != nil {
			t.Fatal(err)
		}
		if ms := res.Record.Moves(); len(ms) != 2 || ms[0].USI() != "7g7f" || ms[1].USI() != "3c3d" || res.Record.Main.Nodes[1].Time != 130*time.Second {
			t.Fatalf("KIF reads back as %v", ms)
		}
		csa, err := g.o.GameRecordFile(g.ctx, g.admin, gm.ID, office.DownloadCSA)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"+7776FU\nT75", "-3334FU\nT130"} {
			if !strings.Contains(string(csa.Body), want) {
				t.Errorf("CSA lacks %q:\n%s", want, csa.Body)
			}
		}
		// The event's bulk download carries the same file.
		set, err := g.o.EventRecordFiles(g.ctx, g.admin, g.event.ID, office.DownloadKIF)
		if err != nil || len(set.Files) != 1 || !strings.Contains(string(set.Files[0].Body), "( 2:10/00:02:10)") {
			t.Fatalf("event download: %d files, %v", len(set.Files), err)
		}
	})
}

// D-T2 (001 第4条B): on a chess clock each move is charged to the second.
func TestRecorder_D_T2_ChessClockChargesEverySecond(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		g := newGameFixture(t, s, `{"time":{"allowance":"3h","timing":"chess_clock","byoyomi":"30s"}}`)
		gm := g.game()
		r, err := liveMove(t, g, g.recorder, gm.ID, 1, "7g7f", 119, 0)
		if err != nil {
			t.Fatal(err)
		}
		if r.Moves[0].Charged != 119*time.Second || r.Clock.Remaining.Sente.D() != 180*time.Minute-119*time.Second {
			t.Fatalf("chess clock: charged %v, clock %+v", r.Moves[0].Charged, r.Clock)
		}
		if len(r.Byoyomi) == 0 || r.Byoyomi[0].Word != "10秒" {
			t.Fatalf("30-second byoyomi calls %+v", r.Byoyomi)
		}
	})
}

// Issue 26 item 1: the live record is the record in force on the game
// page — its moves on the board and its times on the board's clock —
// until a record version is saved after it.
func TestRecorder_LiveRecordFeedsTheBoardAndItsClock(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		g := newGameFixture(t, s, `{"time":{"allowance":"3h","timing":"stopwatch","byoyomi":"60s"}}`)
		gm := g.game()
		r, _ := liveMove(t, g, g.recorder, gm.ID, 1, "7g7f", 130, 0)
		if _, err := liveMove(t, g, g.recorder, gm.ID, 2, "3c3d", 10, r.Version); err != nil {
			t.Fatal(err)
		}
		rec, ok, err := g.o.GameRecordInForce(g.ctx, gm)
		if err != nil || !ok || rec.Moves != "7g7f 3c3d" || rec.Plies != 2 {
			t.Fatalf("record in force %+v %v %v", rec, ok, err)
		}
		c, err := g.o.ClockAt(g.ctx, g.admin, gm.ID, 2)
		if err != nil || !c.Timed || c.State.Used.Sente.D() != 2*time.Minute || c.State.Used.Gote.D() != 0 { // D-T1: 2:10 → 2 min, 0:10 → 0
			t.Fatalf("clock %+v %v", c, err)
		}
		// A record saved afterwards stands instead.
		g.ot.Clock.Advance(time.Minute)
		if _, _, err := g.o.SaveRecord(g.ctx, g.arbiter, gm.ID, office.RecordInput{Text: resigned, Format: "usi"}); err != nil {
			t.Fatal(err)
		}
		if rec, _, _ := g.o.GameRecordInForce(g.ctx, gm); rec.Moves != "7g7f 3c3d 8h2b+" {
			t.Fatalf("after a saved record: %+v", rec)
		}
	})
}
