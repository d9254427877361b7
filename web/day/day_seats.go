package day

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/office/day"
	"kisen/web/site"
)

// Seats that follow the toss (issue 23 §3, docs/amateur-day.md "The 振り駒
// at a board"): where a 振り駒 decides sente and no toss has been recorded
// at the board, the board entry and the slips name the two players
// without 先手/後手, and a result is entered as the winner's name.

// dayWinChoice is one result button of a board: the winner and the words.
type dayWinChoice struct {
	Winner int64
	Label  string
}

// seatWords fills a board row's seat-aware parts: whether the seats wait
// for the toss, the pair in words, one button per player and the result
// in force named by its winner.
func seatWords(ctx context.Context, row *dayBoardRow, b day.Board) {
	row.Pending = b.SeatsPending()
	row.SenteID, row.GoteID = b.Sente, b.Gote
	row.Pair = site.T(ctx, "day_seats.pair", "A", row.Sente, "B", row.Gote)
	row.Choices = []dayWinChoice{
		{b.Sente, winWords(ctx, row.Pending, office.ResultSenteWin, row.Sente)},
		{b.Gote, winWords(ctx, row.Pending, office.ResultGoteWin, row.Gote)},
	}
	if row.Pending {
		row.SenteBy = site.T(ctx, "day_seats.by_pending") // the class page's table: 振り駒（盤上で決める）
	}
	if !b.Decided || !row.Pending {
		return
	}
	switch b.InForce.Result {
	case office.ResultSenteWin:
		row.Result = winWords(ctx, true, "", row.Sente)
	case office.ResultGoteWin:
		row.Result = winWords(ctx, true, "", row.Gote)
	}
}

// winWords says who won: the name alone while the seats wait for the
// toss, else the seat and the name.
func winWords(ctx context.Context, pending bool, result, name string) string {
	if pending {
		return site.T(ctx, "day_seats.win", "Name", name)
	}
	seat := site.T(ctx, "day.col.sente")
	if result == office.ResultGoteWin {
		seat = site.T(ctx, "day.col.gote")
	}
	return site.T(ctx, "day_seats.win_seat", "Seat", seat, "Name", name)
}

// formWinner reads the board form's winner: a player id, or 0 when the
// form names none (office then reads the older result field). A value
// that is not a number is a 422 on the field.
func formWinner(c echo.Context) (int64, error) {
	w := strings.TrimSpace(c.FormValue("winner"))
	if w == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(w, 10, 64)
	if err != nil || n <= 0 {
		return 0, &office.ValidationError{Fields: []office.FieldError{{Field: "winner", Code: "day.err.winner_not_on_board"}}}
	}
	return n, nil
}

// seatLabel is a slip's seat word, or "" while the toss is pending.
func seatLabel(ctx context.Context, pending bool, key string) string {
	if pending {
		return ""
	}
	return site.T(ctx, key)
}

// boardRefused answers a refused board form: a field error is the board's
// own card again with the message, 422 (after the same permission check
// as the page itself, so a refused principal hears nothing of fields);
// anything else is returned as it is.
func (s *Room) boardRefused(c echo.Context, err error) error {
	msgs, ok := site.FieldMsgsOf(c.Request().Context(), err)
	if !ok {
		return err
	}
	v, verr := s.boardsView(c)
	if verr != nil {
		return verr
	}
	b, _ := strconv.Atoi(c.Param("b"))
	v.Only, v.Message = b, firstMsg(msgs)
	var rows []dayBoardRow
	for _, row := range v.Boards {
		if row.Board == b {
			rows = append(rows, row)
		}
	}
	v.Boards, v.NotFound = rows, len(rows) == 0
	ctx := c.Request().Context()
	return s.Render(c, http.StatusUnprocessableEntity, DayBoardsPage(s.Page(c, site.T(ctx, "day.boards.title", "Class", v.Name, "N", v.Round)), v))
}

// seatHeader is a pairing sheet's player column: the seat, or 対局者 when
// every board still waits for its toss.
func seatHeader(ctx context.Context, pending bool, key string) string {
	if pending {
		return site.T(ctx, "day_seats.slip.player")
	}
	return site.T(ctx, key)
}
