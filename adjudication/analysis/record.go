package analysis

import (
	"fmt"

	"kisen/adjudication"
	"kisen/rules"
	"kisen/rules/kifu"
)

// Record reads a record's text (KIF, KI2, CSA or USI; format "" detects
// it) through kisen/rules/kifu and analyses its main line. handicap, when
// given, must agree with the record's own start.
func Record(text, format, handicap string) (*adjudication.Findings, error) {
	r, err := ReadRecord(text, format, handicap, nil)
	return r.Findings, err
}

// ReadRecord reads a record: the findings, the ending its terminal word
// reports, and — when tc is given and every move is timed — the time each
// side had left at the end.
func ReadRecord(text, format, handicap string, tc *adjudication.TimeControl) (adjudication.Reading, error) {
	type Reading = adjudication.Reading
	f := kifu.FormatUnknown
	if format != "" {
		var err error
		if f, err = kifu.ParseFormat(format); err != nil {
			return Reading{}, &adjudication.FieldError{Field: "format", Msg: err.Error()}
		}
	}
	res, err := kifu.Read([]byte(text), "", f)
	if err != nil {
		return Reading{}, &adjudication.FieldError{Field: "record", Msg: err.Error()}
	}
	rec := res.Record
	h := rec.Handicap
	if handicap != "" {
		want, err := Handicap(handicap)
		if err != nil {
			return Reading{}, err
		}
		if rec.Start == "" && want != h {
			return Reading{}, &adjudication.FieldError{Field: "handicap", Msg: fmt.Sprintf("%s, but the record is a %s game", handicap, h.Name())}
		}
		h = want
	}
	start, err := rec.StartPosition()
	if err != nil {
		return Reading{}, &adjudication.FieldError{Field: "record", Msg: err.Error()}
	}
	moves := rec.Moves()
	if len(moves) > adjudication.MaxRecordPlies {
		return Reading{}, tooLong("record", len(moves))
	}
	out := Reading{Findings: Replay(start, h, moves)}
	if tc != nil {
		out.Remaining, out.Notes = remaining(*tc, start.SideToMove(), rec.Main.Nodes)
	}
	if t := rec.Main.End; t != nil {
		toMove := start.SideToMove()
		if len(moves)%2 == 1 {
			toMove = toMove.Opponent()
		}
		out.Ending = endingOf(t, toMove)
	}
	return out, nil
}

// endingOf turns a terminal word into the ending it reports; nil for
// words that report no ending (中断, 不詰, none).
func endingOf(t *kifu.Terminal, toMove rules.Color) *adjudication.Ending {
	mover, other := side(toMove), side(toMove.Opponent())
	e := &adjudication.Ending{}
	switch t.Kind {
	case kifu.EndResign:
		e.Kind, e.By = adjudication.EndResign, &mover
	case kifu.EndCheckmate:
		e.Kind, e.By = adjudication.EndMate, &mover
	case kifu.EndTimeUp:
		e.Kind, e.By = adjudication.EndTimeForfeit, &mover
	case kifu.EndIllegalMove:
		e.Kind, e.By = adjudication.EndFoul, &mover
	case kifu.EndIllegalAction:
		l := side(t.Loser)
		e.Kind, e.By = adjudication.EndFoul, &l
	case kifu.EndDeclareWin, kifu.EndDeclareDraw:
		e.Kind, e.By = adjudication.EndDeclaration, &mover
	case kifu.EndJishogi:
		e.Kind = adjudication.EndJishogiAgreement
	case kifu.EndSennichite:
		e.Kind = adjudication.EndSennichite
	case kifu.EndMaxMoves:
		e.Kind = adjudication.EndMaxMoves
	case kifu.EndForfeitLoss:
		e.Kind, e.By = adjudication.EndForfeit, &mover
	case kifu.EndForfeitWin:
		e.Kind, e.By = adjudication.EndForfeit, &other
	default:
		return nil
	}
	return e
}

// Read analyses g's record or moves (nothing when it has neither).
func Read(g adjudication.Game) (adjudication.Reading, error) {
	switch {
	case len(g.Moves) > adjudication.MaxRecordPlies:
		return adjudication.Reading{}, tooLong("moves", len(g.Moves))
	case len(g.Moves) > 0:
		f, err := Moves(g.Handicap, g.Start, g.Moves)
		return adjudication.Reading{Findings: f}, err
	case g.Record != "":
		return ReadRecord(g.Record, g.Format, g.Handicap, &g.Settings.Time)
	}
	return adjudication.Reading{}, nil
}

// remaining runs the record's move times through a Clock (D-T1..T3): the
// time each side had left at the end, for the redo allowance (D-R2). It
// gives nil when a move has no time, or when the times run past the
// limit (a time forfeit nobody claimed cannot be claimed later, D-X4, so
// it only leaves the remaining times unknown).
func remaining(tc adjudication.TimeControl, first rules.Color, nodes []kifu.Node) (*adjudication.Times, []adjudication.Note) {
	if len(nodes) == 0 {
		return nil, nil
	}
	clock, err := adjudication.NewClock(tc)
	if err != nil {
		return nil, nil // Decide reports the bad settings
	}
	mover := side(first)
	for i, n := range nodes {
		if !n.HasTime {
			return nil, nil
		}
		_, lost, err := clock.Apply(mover, n.Time)
		if err != nil || lost {
			return nil, []adjudication.Note{{Code: "record_times_over_limit",
				Message: fmt.Sprintf("the record's time for move %d runs past the time limit; remaining times not worked out", i+1)}}
		}
		mover = mover.Opponent()
	}
	st := clock.State()
	return &st.Remaining, nil
}

// tooLong refuses a game longer than the rules allow
// (adjudication.MaxRecordPlies) before it is replayed.
func tooLong(field string, plies int) error {
	return &adjudication.FieldError{Field: field, Msg: fmt.Sprintf("%d moves, more than the longest game the rules allow (%d: the 500-move rule and the series of checks it lets finish)", plies, adjudication.MaxRecordPlies)}
}
