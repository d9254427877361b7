package office

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"kisen/adjudication"
	"kisen/adjudication/analysis"
	"kisen/rules"
	"kisen/rules/kifu"
	"kisen/store"
)

// maxRecordBytes bounds a pasted or uploaded record; a 500-move KIF with
// comments is well under 200 kB.
const maxRecordBytes = 1 << 20

// RecordInput is a record to check or save.
type RecordInput struct {
	Text string `field:"record" validate:"notblank,maxbytes=1048576" msg:"adjudication.err,notblank=record_empty,maxbytes=record_too_big"`
	// Format is kif, ki2, csa or usi; "" detects it.
	Format string
	// AcceptFoul: save although the record contains an illegal move (the
	// foul is then a finding of the game).
	AcceptFoul bool
}

// RecordReading is what the rules engine read from a record, before or
// after it is saved.
type RecordReading struct {
	Format    string
	StartSFEN string
	Moves     []string // USI
	Findings  adjudication.Findings
	// Ending is what the record's terminal word reports, if any.
	Ending *adjudication.Ending
	// Remaining are the clocks after the record's move times, when it
	// times every move (used for a redo game's allowance, D-R2).
	Remaining *adjudication.Times
	// Declaration judges a 入玉宣言 by the side to move at the end under
	// the event's rule (D-J3); nil without a complete record or when the
	// event has no declaration rule.
	Declaration *adjudication.DeclarationVerdict
	// FoulMove is the illegal move in the players' notation ("▲５五角").
	FoulMove string
}

// readRecord reads a record for a game under the event's settings: the
// same analysis the command line runs (analysis.ReadRecord).
func readRecord(in RecordInput, handicap string, s EventSettings) (RecordReading, *ValidationError) {
	v := &ValidationError{}
	text := in.Text
	if !checkInput(v, 0, in) {
		return RecordReading{}, v
	}
	// domain rule, not a tag: the format and the record itself are read by
	// the rules engine, which names what it cannot read.
	f := kifu.FormatUnknown
	if in.Format != "" {
		var err error
		if f, err = kifu.ParseFormat(in.Format); err != nil {
			v.Add(0, "format", "adjudication.err.format", nil)
			return RecordReading{}, v
		}
	}
	res, err := kifu.Read([]byte(text), "", f)
	if err != nil {
		v.Add(0, "record", recordErrorCode(err), recordErrorArgs(err))
		return RecordReading{}, v
	}
	rec := res.Record
	if n := len(rec.Moves()); n > MaxRecordPlies {
		v.Add(0, "record", "limits.err.record_too_long", map[string]any{"Max": MaxRecordPlies, "Plies": n})
		return RecordReading{}, v
	}
	start, err := rec.StartPosition()
	if err != nil {
		v.Add(0, "record", "words.record.invalid", nil)
		return RecordReading{}, v
	}
	r, err := analysis.ReadRecord(text, res.Format.String(), handicap, &s.Time)
	if err != nil {
		var fe *adjudication.FieldError
		if errors.As(err, &fe) && fe.Field == "handicap" {
			v.Add(0, "record", "adjudication.err.record_handicap", map[string]any{"Handicap": handicap})
		} else {
			v.Add(0, "record", recordErrorCode(err), recordErrorArgs(err))
		}
		return RecordReading{}, v
	}
	moves := rec.Moves()
	out := RecordReading{Format: res.Format.String(), StartSFEN: start.SFEN(), Moves: make([]string, len(moves)),
		Findings: *r.Findings, Ending: r.Ending, Remaining: r.Remaining}
	for i, m := range moves {
		out.Moves[i] = m.USI()
	}
	if fl := r.Findings.Foul; fl != nil {
		out.FoulMove = moveTextAt(start, moves, fl.Ply)
	}
	if d := r.Findings.Declaration; d != nil && s.Declaration != adjudication.DeclarationNone {
		verdict := adjudication.JudgeDeclaration(s.Declaration, r.Findings.SideToMove, *d, r.Findings.Plies, true)
		out.Declaration = &verdict
	}
	return out, nil
}

// moveTextAt spells move ply (1-based) in record notation, from the
// position before it.
func moveTextAt(start *rules.Position, moves []rules.Move, ply int) string {
	if ply < 1 || ply > len(moves) {
		return ""
	}
	p := start.Clone()
	prev := rules.NoSquare
	for _, m := range moves[:ply-1] {
		p.Do(m)
		prev = m.To()
	}
	return p.MoveText(moves[ply-1], prev, rules.StyleRecord)
}

// PreviewRecord reads a record for a game and reports what the rules
// engine finds, saving nothing (directors, arbiters, recorders).
func (o *Office) PreviewRecord(ctx context.Context, actor Actor, gameID int64, in RecordInput) (RecordReading, error) {
	g, s, err := o.gameForRecording(ctx, actor, gameID)
	if err != nil {
		return RecordReading{}, err
	}
	r, v := readRecord(in, g.Handicap, s)
	return r, v.OrNil()
}

func (o *Office) gameForRecording(ctx context.Context, actor Actor, gameID int64) (store.Game, EventSettings, error) {
	g, err := o.store.GameByID(ctx, gameID)
	if err != nil {
		return g, EventSettings{}, err
	}
	if err := o.RequireEventRole(ctx, actor, g.EventID, RecordRoles...); err != nil {
		return g, EventSettings{}, err
	}
	s, err := eventSettings(ctx, o.store, g.EventID)
	if err != nil {
		return g, s, err
	}
	s.Time, err = gameTimeControl(ctx, o.store, g, s.Time)
	return g, s, err
}

// SaveRecord appends a record version to a game: the original text and
// the parsed moves. A record that cannot be read saves nothing; one with
// an illegal move saves only with AcceptFoul (the foul is then a finding).
func (o *Office) SaveRecord(ctx context.Context, actor Actor, gameID int64, in RecordInput) (store.GameRecord, RecordReading, error) {
	g, s, err := o.gameForRecording(ctx, actor, gameID)
	if err != nil {
		return store.GameRecord{}, RecordReading{}, err
	}
	r, v := readRecord(in, g.Handicap, s)
	if err := v.OrNil(); err != nil {
		return store.GameRecord{}, r, err
	}
	if fl := r.Findings.Foul; fl != nil && !in.AcceptFoul {
		v = &ValidationError{}
		v.Add(0, "accept_foul", "adjudication.err.record_foul", map[string]any{"Ply": fl.Ply, "Move": r.FoulMove})
		return store.GameRecord{}, r, v
	}
	findings, err := json.Marshal(r.Findings)
	if err != nil {
		return store.GameRecord{}, r, err
	}
	rec := store.GameRecord{GameID: g.ID, Format: r.Format, Text: in.Text, StartSFEN: r.StartSFEN,
		Moves: strings.Join(r.Moves, " "), Plies: len(r.Moves), HasFoul: r.Findings.Foul != nil,
		Findings: string(findings), EnteredBy: actor.UserID, EnteredAt: o.now(), EnteredVia: actor.enteredVia()}
	err = o.store.Tx(ctx, func(tx *store.Store) error {
		if err := tx.AppendGameRecord(ctx, &rec); err != nil {
			return err
		}
		return logTokenUse(ctx, tx, actor, "record", g.ID, rec.EnteredAt)
	})
	return rec, r, err
}

// GameRecords lists a game's record versions, oldest first (public, like
// the game page).
func (o *Office) GameRecords(ctx context.Context, gameID int64) ([]store.GameRecord, error) {
	return o.store.GameRecords(ctx, gameID)
}

// GameRecordVersions lists a game's record versions without their text
// and moves (public, like the game page); LatestGameRecord has the newest
// whole.
func (o *Office) GameRecordVersions(ctx context.Context, gameID int64) ([]store.GameRecord, error) {
	return o.store.GameRecordVersions(ctx, gameID)
}

// LatestGameRecordMoves is a game's newest record version without its
// text: start, moves, plies (public, like the game page); ok is false
// without one.
func (o *Office) LatestGameRecordMoves(ctx context.Context, gameID int64) (store.GameRecord, bool, error) {
	return o.store.LatestGameRecordMoves(ctx, gameID)
}

// LatestGameRecord is a game's newest record version, whole; ok is false
// without one (public, like the game page).
func (o *Office) LatestGameRecord(ctx context.Context, gameID int64) (store.GameRecord, bool, error) {
	return o.store.LatestGameRecord(ctx, gameID)
}

// recordErrorCode is the message id of a record that cannot be read: one
// per kind of error (rules/kifu says which), so the page says it in the
// reader's language; the English detail stays in the error for logs.
func recordErrorCode(err error) string {
	var pe *kifu.ParseError
	if !errors.As(err, &pe) || pe.Kind == "" {
		return "words.record.invalid"
	}
	if pe.Line == 0 {
		return "words.record.noline." + string(pe.Kind)
	}
	return "words.record." + string(pe.Kind)
}

func recordErrorArgs(err error) map[string]any {
	var pe *kifu.ParseError
	if !errors.As(err, &pe) {
		return nil
	}
	return map[string]any{"Line": pe.Line, "Ply": pe.Ply}
}
