package games

import (
	"context"
	"errors"

	"kisen/adjudication"
	"kisen/office"
	"kisen/web/site"
)

// handOrNone is a hand's pieces, or a word for an empty hand.
func handOrNone(ctx context.Context, h string) string {
	if h == "" {
		return site.T(ctx, "adjudication.board.none")
	}
	return h
}

// sideName is the localised word for a side code.
func sideName(ctx context.Context, side string) string {
	switch side {
	case "sente":
		return site.T(ctx, "adjudication.side.sente")
	case "gote":
		return site.T(ctx, "adjudication.side.gote")
	}
	return ""
}

// boardClock is both clocks at the board's ply (office.ClockAt: the
// record's move times through adjudication.Clock, byoyomi included, and the
// arbiters' time changes in force); nil when there is nothing beyond the
// allowances to show. Settings the room refuses leave the clock out (the
// page still shows the game; the settings page names the problem).
func (s *Room) boardClock(ctx context.Context, a office.Actor, gameID int64, ply int) (*boardClock, error) {
	c, err := s.Office.ClockAt(ctx, a, gameID, ply)
	var v *office.ValidationError
	if errors.As(err, &v) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !c.Timed && c.Adjusted == (adjudication.Times{}) {
		return nil, nil
	}
	st := c.State
	out := &boardClock{Sente: site.MinSec(ctx, st.Remaining.Sente.D()), Gote: site.MinSec(ctx, st.Remaining.Gote.D()),
		SenteByoyomi: st.InByoyomi.Sente, GoteByoyomi: st.InByoyomi.Gote,
		Adjusted: c.Adjusted != (adjudication.Times{}), Timed: c.Timed}
	if st.Forfeited != nil {
		out.Forfeited = "adjudication.side." + st.Forfeited.String()
	}
	return out, nil
}
