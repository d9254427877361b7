// Package kifu reads and writes shogi game records (棋譜) in the formats
// the shogi world exchanges: KIF and KI2 (Kakinoki), CSA (V2.2 and V3.0)
// and USI/SFEN. Every format is read into one Record and any Record can be
// written in any format, keeping what the target format can express.
//
// The package is part of the pure rules room: no clock, no I/O beyond the
// bytes it is given.
package kifu

import (
	"fmt"
	"time"

	"kisen/rules"
)

// Record is one game record.
type Record struct {
	// Header holds the header lines in their original order.
	Header Header
	// Handicap is the starting setup when Start is empty.
	Handicap rules.Handicap
	// Start is the SFEN of a custom starting position (a KIF board, CSA P
	// lines or USI sfen that is not one of the standard starts); empty for
	// a standard start named by Handicap.
	Start string
	// StartComments are the comments before the first move.
	StartComments []string
	// Main is the game as played; variations hang off its nodes.
	Main Line
}

// Line is a sequence of moves from some ply on: the game itself or a
// variation (変化). End is the terminal word that closes it, if any.
type Line struct {
	Nodes []Node
	End   *Terminal
}

// Node is one move of a line with what the record says about it.
type Node struct {
	Move rules.Move
	// Time is the time this move took and Total the mover's cumulative
	// time after it; HasTime is false when the record gives no time.
	Time, Total time.Duration
	HasTime     bool
	Comments    []string
	// Variations are alternatives to this move (変化), each a line that
	// starts with its own move at this ply.
	Variations []Line
	// SourceLine is the 1-based line of the input that held the move (0
	// when the record was built in memory).
	SourceLine int
}

// StartPosition is the position before the first move.
func (r *Record) StartPosition() (*rules.Position, error) {
	if r.Start == "" {
		return rules.NewPosition(r.Handicap), nil
	}
	p, err := rules.ParseSFEN(r.Start)
	if err != nil {
		return nil, fmt.Errorf("start position: %w", err)
	}
	return p, nil
}

// Moves lists the main line's moves.
func (r *Record) Moves() []rules.Move {
	out := make([]rules.Move, len(r.Main.Nodes))
	for i, n := range r.Main.Nodes {
		out[i] = n.Move
	}
	return out
}

// StartColor is the side to move at the start.
func (r *Record) StartColor() rules.Color {
	if r.Start == "" {
		if r.Handicap == rules.Even {
			return rules.Sente
		}
		return rules.Gote
	}
	if p, err := rules.ParseSFEN(r.Start); err == nil {
		return p.SideToMove()
	}
	return rules.Sente
}

// Result is the result the record states, judged from its terminal word
// and the side to move when the word was written.
func (r *Record) Result() Result {
	if r.Main.End == nil {
		return Result{Outcome: OutcomeUnknown}
	}
	toMove := r.StartColor()
	if len(r.Main.Nodes)%2 == 1 {
		toMove = toMove.Opponent()
	}
	return r.Main.End.Result(toMove)
}

// Header is the ordered list of header lines. Well-known keys use the KIF
// (Japanese) names so that every format maps to the same fields.
type Header struct {
	Fields []Field
}

// Field is one header line. Key is "" for a line kept verbatim that is not
// a key–value pair (a KIF "#" line, a CSA comment before the position).
type Field struct {
	Key, Value string
}

// Well-known header keys, with the CSA V2.2/V3.0 fields they map to.
const (
	KeySente     = "先手"    // N+ (下手 in handicap KIF)
	KeyGote      = "後手"    // N- (上手 in handicap KIF)
	KeyEvent     = "棋戦"    // $EVENT
	KeyStart     = "開始日時"  // $START_TIME
	KeyEnd       = "終了日時"  // $END_TIME
	KeyPlace     = "場所"    // $SITE
	KeyTimeLimit = "持ち時間"  // $TIME_LIMIT (V2.2) / $TIME (V3.0)
	KeyOpening   = "戦型"    // $OPENING
	KeyMaxMoves  = "最大手数"  // $MAX_MOVES (V3.0)
	KeyJishogi   = "持将棋規定" // $JISHOGI (V3.0)
	KeyNote      = "備考"    // $NOTE (V3.0)
)

// Get returns the first value for key.
func (h *Header) Get(key string) (string, bool) {
	for _, f := range h.Fields {
		if f.Key == key && key != "" {
			return f.Value, true
		}
	}
	return "", false
}

// Value returns the first value for key, "" when absent.
func (h *Header) Value(key string) string {
	v, _ := h.Get(key)
	return v
}

// Set replaces the first value for key or appends the field.
func (h *Header) Set(key, value string) {
	for i, f := range h.Fields {
		if f.Key == key && key != "" {
			h.Fields[i].Value = value
			return
		}
	}
	h.Fields = append(h.Fields, Field{Key: key, Value: value})
}

// Add appends a field, keeping any earlier one with the same key.
func (h *Header) Add(key, value string) {
	h.Fields = append(h.Fields, Field{Key: key, Value: value})
}

// StartTime reads the start date (and time, when given) from 開始日時 in
// the forms KIF and CSA write: "2024/05/14", "2024/05/14 10:00:00",
// "2024/05/14(火) 10:00", "2024-05-14T10:00:00+09:00". Times without a
// zone are taken as Asia/Tokyo wall time, which is how records are kept.
func (h *Header) StartTime() (time.Time, bool) {
	return parseRecordTime(h.Value(KeyStart))
}
