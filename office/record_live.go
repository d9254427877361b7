package office

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"kisen/adjudication"
	"kisen/rules"
	"kisen/rules/kifu"
	"kisen/store"
)

// The recorder's live record (記録係, issue 26; docs/recorder.md): moves
// entered one by one as they are played, each with the time it took, into
// game_moves (append-only). The record cannot fork: every move names its
// ply and the record version the device saw, the game row is locked while
// a move is checked and stored, and (game, ply, attempt) is unique in the
// database.

// maxLiveComment bounds a move's comment.
const maxLiveComment = 1000

// maxLiveElapsed bounds the time one move may be recorded to take: no
// game's allowance reaches it (adjudication's own bound is 24 hours).
const maxLiveElapsed = 24 * 60 * 60

// LiveMoveInput is one move sent by the recorder's page.
type LiveMoveInput struct {
	// Ply is the move's number (1 for the first move).
	Ply int
	// Move is the move in USI (7g7f) or in JSA notation (▲７六歩, 76歩,
	// 同　銀).
	Move string
	// Elapsed is the time the move took, in whole seconds, as the
	// recorder's clock measured it.
	Elapsed int
	Comment string
	// VersionSeen is the record's version when the device last heard from
	// the server, counting its own moves sent since (LiveRecord.Version).
	VersionSeen int
}

// LiveMove is one move of the live record as it stands.
type LiveMove struct {
	Ply     int
	USI     string
	Text    string // ▲７六歩 (record notation)
	Elapsed int    // seconds, as entered
	// Charged is the time the clock charged for the move: under the
	// stopwatch method the elapsed time cut to whole minutes (D-T1).
	Charged time.Duration
	Comment string
	// Clock is both clocks after the move; nil when the event has no
	// valid time control.
	Clock *adjudication.ClockState
	Check bool // the move gave check
}

// LiveRecord is a game's live record: the moves in force, the position
// reached, the clock and the rules' facts about it.
type LiveRecord struct {
	GameID    int64
	Handicap  string
	StartSFEN string
	SFEN      string // the position now
	Moves     []LiveMove
	// Version counts every write to the record (moves and undos); a move
	// or an undo must carry the version it was made against.
	Version int
	// Clock is both clocks now (nil without a time control).
	Clock *adjudication.ClockState
	// StartClock is both clocks before the first move (the allowances;
	// nil without a time control): the live board's clock at ply 0.
	StartClock *adjudication.ClockState
	// Byoyomi is the recorder's reading for one move in byoyomi (D-T3).
	Byoyomi []adjudication.Call
	// Facts are what the rules say now (千日手, 500 moves, …).
	Facts []LiveFact
	// Points is the jishogi point count for both sides now (on demand,
	// the organiser's 24/27 rule decides what it means; LiveFact
	// "jishogi" words it).
	Points adjudication.Points
	// Declarations is both sides' 入玉宣言 count now (sente, gote; D-J3),
	// shown on demand with Points.
	Declarations [2]DeclarationCount
	// JishogiRule is the organiser's jishogi rule (24 or 27, D-J1/D-J2).
	JishogiRule int
}

// Plies is the number of moves in force.
func (r LiveRecord) Plies() int { return len(r.Moves) }

// LiveConflictError: the move or undo does not fit the record as it stands
// (a duplicate ply with another move, a ply out of order, or a version the
// record has moved past). web answers 409 with Record, so a reconnecting
// device resends only what is missing.
type LiveConflictError struct {
	Record LiveRecord
	Ply    int
	Why    string // "taken", "gap", "stale"
}

func (e *LiveConflictError) Error() string {
	return fmt.Sprintf("game %d: move %d %s (record has %d moves, version %d): %v",
		e.Record.GameID, e.Ply, e.Why, len(e.Record.Moves), e.Record.Version, ErrConflict)
}

// Unwrap lets errors.Is(err, ErrConflict) hold.
func (e *LiveConflictError) Unwrap() error { return ErrConflict }

// liveState is the replay of a game's stored live moves.
type liveState struct {
	g        store.Game
	s        EventSettings
	handicap rules.Handicap
	start    *rules.Position
	pos      *rules.Position
	moves    []rules.Move
	rows     []store.GameMoveRow // the rows in force, by ply
	attempts map[int]int         // per ply, how many rows were undone
	version  int
}

// recorderGame admits the recorder of one game: the event's director,
// arbiter or recorder, or a holder of the game's open recorder link. Anyone
// else, and a revoked or foreign link, is told the game does not exist.
// by is the user the writes are entered as (the link's issuer for a link).
func (o *Office) recorderGame(ctx context.Context, actor Actor, gameID int64) (store.Game, EventSettings, int64, string, error) {
	if actor.RecorderToken != "" {
		link, err := o.store.OpenRecorderLink(ctx, gameID, hashRecorderToken(actor.RecorderToken))
		if err != nil {
			return store.Game{}, EventSettings{}, 0, "", err
		}
		g, err := o.store.GameByID(ctx, gameID)
		if err != nil {
			return g, EventSettings{}, 0, "", err
		}
		s, err := eventSettings(ctx, o.store, g.EventID)
		if err == nil {
			s.Time, err = gameTimeControl(ctx, o.store, g, s.Time)
		}
		return g, s, link.IssuedBy, recorderLinkVia, err
	}
	g, s, err := o.gameForRecording(ctx, actor, gameID)
	if errors.Is(err, ErrForbidden) {
		err = fmt.Errorf("game %d: not the recorder: %w", gameID, ErrNotFound)
	}
	return g, s, actor.UserID, actor.enteredVia(), err
}

// recorderLinkVia marks a move entered through the recorder link.
const recorderLinkVia = "recorder_link"

// loadLive replays a game's stored live moves (one statement).
func loadLive(ctx context.Context, s *store.Store, g store.Game, set EventSettings) (*liveState, error) {
	rows, err := s.GameMoves(ctx, g.ID)
	if err != nil {
		return nil, err
	}
	h, ok := rules.HandicapByName(g.Handicap)
	if !ok {
		h = rules.Even
	}
	st := &liveState{g: g, s: set, handicap: h, start: rules.NewPosition(h), attempts: map[int]int{}}
	st.pos = st.start.Clone()
	for _, r := range rows {
		st.version++
		if r.Undone {
			st.version++
			st.attempts[r.Ply]++
			continue
		}
		if r.Ply != len(st.rows)+1 {
			return nil, fmt.Errorf("game %d: live move %d out of order at ply %d", g.ID, r.ID, r.Ply)
		}
		m, err := rules.ParseUSIMove(r.USI)
		if err != nil || !st.pos.IsLegal(m) {
			return nil, fmt.Errorf("game %d: stored live move %d (%s) does not replay", g.ID, r.ID, r.USI)
		}
		st.pos.Do(m)
		st.moves = append(st.moves, m)
		st.rows = append(st.rows, r)
	}
	return st, nil
}

// record builds the LiveRecord of the state: notation, clock and facts.
func (st *liveState) record() LiveRecord {
	out := LiveRecord{GameID: st.g.ID, Handicap: st.g.Handicap, StartSFEN: st.start.SFEN(), SFEN: st.pos.SFEN(),
		Version: st.version, Moves: make([]LiveMove, len(st.rows))}
	// Each side's allowance is the game's own (a redo game's may differ,
	// D-R2), as the board's clock takes it (clockAt).
	clock, err := adjudication.NewClockFrom(st.s.Time, adjudication.Times{
		Sente: adjudication.Duration(time.Duration(st.g.SenteAllowanceS) * time.Second),
		Gote:  adjudication.Duration(time.Duration(st.g.GoteAllowanceS) * time.Second),
	})
	if err != nil {
		clock = nil // no usable time control: moves keep their times, no clock
	} else {
		out.Byoyomi = st.s.Time.Byoyomi.Calls()
		cs := clock.State()
		out.StartClock = &cs
	}
	p := st.start.Clone()
	prev := rules.NoSquare
	for i, r := range st.rows {
		m := st.moves[i]
		lm := LiveMove{Ply: r.Ply, USI: r.USI, Elapsed: r.ElapsedSeconds, Comment: r.Comment,
			Text: p.MoveText(m, prev, rules.StyleRecord), Check: p.GivesCheck(m)}
		if clock != nil {
			side := adjudication.Sente
			if p.SideToMove() == rules.Gote {
				side = adjudication.Gote
			}
			before := clock.State().Used.Of(side).D()
			// After a loss on time the clock takes no more moves; the
			// record goes on (the arbiter rules on it).
			if cs, _, err := clock.Apply(side, time.Duration(r.ElapsedSeconds)*time.Second); err == nil {
				lm.Charged = cs.Used.Of(side).D() - before
				lm.Clock = &cs
			}
		}
		p.Do(m)
		prev = m.To()
		out.Moves[i] = lm
	}
	if clock != nil {
		cs := clock.State()
		out.Clock = &cs
	}
	out.Facts, out.Points = liveFacts(st.start, st.handicap, st.moves, st.s.Settings, out.Clock)
	out.Declarations = declarationCounts(st.pos, st.handicap, st.s.Settings.Declaration)
	out.JishogiRule = 24
	if st.s.Settings.Jishogi == adjudication.Jishogi27 {
		out.JishogiRule = 27
	}
	return out
}

// LiveRecord reads a game's live record for its recorder.
func (o *Office) LiveRecord(ctx context.Context, actor Actor, gameID int64) (LiveRecord, error) {
	g, s, _, _, err := o.recorderGame(ctx, actor, gameID)
	if err != nil {
		return LiveRecord{}, err
	}
	st, err := loadLive(ctx, o.store, g, s)
	if err != nil {
		return LiveRecord{}, err
	}
	return st.record(), nil
}

// parseLiveMove reads a move in USI or JSA notation in p; prev is the
// previous move's destination (for 同). It returns the move and its foul.
func parseLiveMove(p *rules.Position, text string, prev rules.Square) (rules.Move, rules.Foul, bool) {
	if m, err := rules.ParseUSIMove(text); err == nil {
		return m, p.Foul(m), true
	}
	m, foul, err := p.ResolveMoveText(text, prev)
	if err != nil {
		return rules.NoMove, rules.FoulNone, false
	}
	return m, foul, true
}

// RecordMove stores one move of a game as it is played (issue 26): the
// recorder's ply and version are checked against the record under the
// game's lock, the move against the rules from the position the stored
// moves reach. The same move resent for a ply already stored (a device
// reconnecting) changes nothing and answers the record; another move for
// a stored ply, a ply past the next, or a stale version is a
// *LiveConflictError carrying the record as it stands; an illegal or
// unreadable move is a ValidationError naming it.
func (o *Office) RecordMove(ctx context.Context, actor Actor, gameID int64, in LiveMoveInput) (LiveRecord, error) {
	g, s, by, via, err := o.recorderGame(ctx, actor, gameID)
	if err != nil {
		return LiveRecord{}, err
	}
	text := strings.TrimSpace(in.Move)
	v := &ValidationError{}
	switch {
	case in.Ply < 1 || in.Ply > MaxRecordPlies:
		v.Add(0, "ply", "recorder.err.ply", map[string]any{"Max": MaxRecordPlies})
	case text == "" || utf8.RuneCountInString(text) > 16:
		v.Add(0, "move", "recorder.err.move_unreadable", map[string]any{"Move": text, "Ply": in.Ply})
	case in.Elapsed < 0 || in.Elapsed > maxLiveElapsed:
		v.Add(0, "elapsed", "recorder.err.elapsed", nil)
	case utf8.RuneCountInString(in.Comment) > maxLiveComment || !utf8.ValidString(in.Comment):
		v.Add(0, "comment", "recorder.err.comment", map[string]any{"Max": maxLiveComment})
	}
	if err := v.OrNil(); err != nil {
		return LiveRecord{}, err
	}
	var out LiveRecord
	err = o.store.Tx(ctx, func(tx *store.Store) error {
		if _, err := tx.LockGame(ctx, g.ID); err != nil {
			return err
		}
		st, err := loadLive(ctx, tx, g, s)
		if err != nil {
			return err
		}
		have := len(st.rows)
		if in.Ply <= have {
			// A resend: the same move for a stored ply is answered as done.
			p := st.start.Clone()
			prev := rules.NoSquare
			for _, m := range st.moves[:in.Ply-1] {
				p.Do(m)
				prev = m.To()
			}
			if m, _, ok := parseLiveMove(p, text, prev); ok && m == st.moves[in.Ply-1] {
				out = st.record()
				return nil
			}
			return &LiveConflictError{Record: st.record(), Ply: in.Ply, Why: "taken"}
		}
		if in.Ply > have+1 {
			return &LiveConflictError{Record: st.record(), Ply: in.Ply, Why: "gap"}
		}
		if in.VersionSeen != st.version {
			return &LiveConflictError{Record: st.record(), Ply: in.Ply, Why: "stale"}
		}
		prev := rules.NoSquare
		if have > 0 {
			prev = st.moves[have-1].To()
		}
		m, foul, ok := parseLiveMove(st.pos, text, prev)
		if !ok {
			v.Add(0, "move", "recorder.err.move_unreadable", map[string]any{"Move": text, "Ply": in.Ply})
			return v
		}
		if foul != rules.FoulNone {
			v.Add(0, "move", "recorder.err.illegal."+foul.String(),
				map[string]any{"Move": st.pos.MoveText(m, prev, rules.StyleRecord), "Ply": in.Ply})
			return v
		}
		row := store.GameMove{GameID: g.ID, Ply: in.Ply, Attempt: st.attempts[in.Ply], USI: m.USI(),
			ElapsedSeconds: in.Elapsed, Comment: strings.TrimSpace(in.Comment), EnteredBy: by, EnteredVia: via, EnteredAt: o.now()}
		if err := tx.AppendGameMove(ctx, &row); err != nil {
			return err
		}
		st.pos.Do(m)
		st.moves = append(st.moves, m)
		st.rows = append(st.rows, store.GameMoveRow{GameMove: row})
		st.version++
		out = st.record()
		return logTokenUse(ctx, tx, actor, "move", g.ID, row.EnteredAt)
	})
	return out, err
}

// UndoLastMove takes back the last move in force before the next is
// entered (issue 26): a row of game_move_undos naming it and the reason;
// the move stays stored, superseded. ply must be the last move's and
// versionSeen the record's version, else *LiveConflictError.
func (o *Office) UndoLastMove(ctx context.Context, actor Actor, gameID int64, ply, versionSeen int, reason string) (LiveRecord, error) {
	g, s, by, _, err := o.recorderGame(ctx, actor, gameID)
	if err != nil {
		return LiveRecord{}, err
	}
	reason = strings.TrimSpace(reason)
	if reason == "" || utf8.RuneCountInString(reason) > maxLiveComment {
		v := &ValidationError{}
		v.Add(0, "reason", "recorder.err.undo_reason", map[string]any{"Max": maxLiveComment})
		return LiveRecord{}, v
	}
	var out LiveRecord
	err = o.store.Tx(ctx, func(tx *store.Store) error {
		if _, err := tx.LockGame(ctx, g.ID); err != nil {
			return err
		}
		st, err := loadLive(ctx, tx, g, s)
		if err != nil {
			return err
		}
		have := len(st.rows)
		if have == 0 || ply != have || versionSeen != st.version {
			return &LiveConflictError{Record: st.record(), Ply: ply, Why: "stale"}
		}
		last := st.rows[have-1]
		if err := tx.AppendGameMoveUndo(ctx, &store.GameMoveUndo{MoveID: last.ID, GameID: g.ID, Reason: reason,
			EnteredBy: by, EnteredAt: o.now()}); err != nil {
			return err
		}
		// Replay without the last move.
		st.rows = st.rows[:have-1]
		st.moves = st.moves[:have-1]
		st.pos = st.start.Clone()
		for _, m := range st.moves {
			st.pos.Do(m)
		}
		st.attempts[ply]++
		st.version++ // the undo (the move was counted when stored)
		out = st.record()
		return nil
	})
	return out, err
}

// liveKifu is a game's live record as a kifu record with each move's time
// and the mover's running total (KIF's time column, CSA's T lines) and
// comments; ok is false when the game has no live move in force, or when a
// record version was stored after the last live write (an uploaded record
// then stands).
func liveKifu(g store.Game, rows []store.GameMoveRow, rec store.GameRecord, hasRecord bool) (*kifu.Record, bool) {
	h, ok := rules.HandicapByName(g.Handicap)
	if !ok {
		h = rules.Even
	}
	var last time.Time
	var live []store.GameMoveRow
	for _, r := range rows {
		if r.EnteredAt.After(last) {
			last = r.EnteredAt
		}
		if r.UndoneAt.After(last) {
			last = r.UndoneAt
		}
		if !r.Undone {
			live = append(live, r)
		}
	}
	if len(live) == 0 || (hasRecord && !rec.EnteredAt.Before(last)) {
		return nil, false
	}
	out := &kifu.Record{Handicap: h}
	var total [2]time.Duration
	for i, r := range live {
		m, err := rules.ParseUSIMove(r.USI)
		if err != nil {
			return nil, false // GameMoves' rows were checked when stored
		}
		d := time.Duration(r.ElapsedSeconds) * time.Second
		total[i%2] += d
		n := kifu.Node{Move: m, Time: d, Total: total[i%2], HasTime: true}
		if r.Comment != "" {
			n.Comments = []string{r.Comment}
		}
		out.Main.Nodes = append(out.Main.Nodes, n)
	}
	return out, true
}

// liveAsRecord is the live record as a record version's moves (start,
// USI moves, plies), when it is in force (liveKifu).
func liveAsRecord(g store.Game, rows []store.GameMoveRow, rec store.GameRecord, hasRecord bool) (store.GameRecord, bool) {
	r, ok := liveKifu(g, rows, rec, hasRecord)
	if !ok {
		return store.GameRecord{}, false
	}
	usi := make([]string, len(r.Main.Nodes))
	for i, n := range r.Main.Nodes {
		usi[i] = n.Move.USI()
	}
	return store.GameRecord{GameID: g.ID, Version: rec.Version, Format: "usi", StartSFEN: rules.NewPosition(r.Handicap).SFEN(),
		Moves: strings.Join(usi, " "), Plies: len(usi), Findings: "{}"}, true
}

// GameRecordInForce is the moves of a game's record in force, without
// text (public, like the game page): the recorder's live record when it
// was written after the newest stored version, else that version; ok is
// false with neither.
func (o *Office) GameRecordInForce(ctx context.Context, g store.Game) (store.GameRecord, bool, error) {
	rec, has, err := o.store.LatestGameRecordMoves(ctx, g.ID)
	if err != nil {
		return rec, has, err
	}
	rows, err := o.store.GameMoves(ctx, g.ID)
	if err != nil {
		return rec, has, err
	}
	if live, ok := liveAsRecord(g, rows, rec, has); ok {
		return live, true, nil
	}
	return rec, has, nil
}
