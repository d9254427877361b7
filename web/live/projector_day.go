package live

import (
	"context"
	"strconv"

	"kisen/office"
	"kisen/office/day"
	"kisen/web/knockouts"
	"kisen/web/site"
)

// The projector of an amateur day (issue 23 §4, docs/amateur-day-public.md):
// for each class, the round being played by board, then the standings,
// then the event's final knockouts as for any knockout event. A long list
// is cut into screens of projectorDayRows lines, so the type stays large.

const projectorDayRows = 16

// projectorBracketsOrDay is the knockout projector, or the day's when
// the event is an amateur day.
func (s *Room) projectorBracketsOrDay(ctx context.Context, a office.Actor, eventID int64) ([]projectorPage, error) {
	isDay, err := s.DayRoom().IsDay(ctx, eventID)
	if err != nil {
		return nil, err
	}
	if !isDay {
		return s.projectorBrackets(ctx, a, eventID)
	}
	pages, err := s.projectorDay(ctx, a, eventID)
	if err != nil {
		return nil, err
	}
	finals, err := s.projectorBrackets(ctx, a, eventID)
	if err != nil {
		return nil, err
	}
	return append(pages, finals...), nil
}

// projectorDay is each class's current round and standings, read in a
// fixed number of statements (day.DayViews).
func (s *Room) projectorDay(ctx context.Context, a office.Actor, eventID int64) ([]projectorPage, error) {
	_, views, err := s.DayRoom().DayViews(ctx, a, eventID)
	if err != nil {
		return nil, err
	}
	var pages []projectorPage
	for _, cv := range views {
		r, ok := cv.PublicRound(cv.CurrentRound())
		if !ok {
			continue
		}
		name := site.LocalName(ctx, cv.Class.Name, cv.Class.NameEn)
		var boards []projectorBoard
		for _, b := range r.Boards {
			pb := projectorBoard{No: b.Board, Result: projectorDayResult(ctx, b)}
			for i, st := range []day.Seat{b.Sente, b.Gote} {
				pb.Sides[i] = knockouts.BracketSide{Name: st.Name, Sente: i == 0 && !b.TossPending, Winner: b.Winner != 0 && b.Winner == st.PlayerID}
			}
			boards = append(boards, pb)
		}
		for _, st := range r.Byes {
			boards = append(boards, projectorBoard{Bye: st.Name})
		}
		sub := site.T(ctx, "day_public.projector.pairings", "N", r.Number)
		for i, chunk := range chunks(boards) {
			pages = append(pages, projectorPage{Title: name, Subtitle: sub + pageOf(i, len(boards)), Boards: chunk})
		}
		st, err := cv.Standings()
		if err != nil {
			return nil, err
		}
		var rows []projectorRow
		for _, l := range st.Swiss {
			rows = append(rows, projectorRow{Junni: l.Place, Name: l.Name, Wins: int(l.Wins), Losses: l.Losses, Marks: shownMarks(ctx, l.Shown)})
		}
		for i, l := range st.Pools {
			rows = append(rows, projectorRow{Junni: i + 1, Name: l.Name, Wins: l.Wins, Losses: l.Losses, Marks: shownMarks(ctx, l.Shown)})
		}
		sub = site.T(ctx, "day_public.projector.standings")
		for i, chunk := range chunks(rows) {
			pages = append(pages, projectorPage{Title: name, Subtitle: sub + pageOf(i, len(rows)), Table: chunk, MarksHead: site.T(ctx, "day.col.status")})
		}
	}
	return pages, nil
}

func projectorDayResult(ctx context.Context, b day.PublicBoard) string {
	switch {
	case b.Redo:
		return site.T(ctx, "day.result.redo")
	case !b.Decided:
		if b.TossPending {
			return site.T(ctx, "day_public.colour.pending")
		}
		return ""
	case b.Winner == 0:
		return site.T(ctx, "day.result.other")
	}
	w := b.Sente.Name
	if b.Winner == b.Gote.PlayerID {
		w = b.Gote.Name
	}
	out := site.T(ctx, "day_public.result.won", "Name", w)
	if b.Forfeit {
		out += site.T(ctx, "day.result.forfeit")
	}
	return out
}

func shownMarks(ctx context.Context, shown string) []string {
	if shown == "" {
		return nil
	}
	return []string{site.T(ctx, "day_public.shown."+shown)}
}

// chunks cuts a list into screens.
func chunks[T any](xs []T) [][]T {
	var out [][]T
	for len(xs) > projectorDayRows {
		out = append(out, xs[:projectorDayRows])
		xs = xs[projectorDayRows:]
	}
	if len(xs) > 0 {
		out = append(out, xs)
	}
	return out
}

// pageOf is " (2/5)" for the second screen of a list cut into five.
func pageOf(i, n int) string {
	total := (n + projectorDayRows - 1) / projectorDayRows
	if total <= 1 {
		return ""
	}
	return " (" + strconv.Itoa(i+1) + "/" + strconv.Itoa(total) + ")"
}
