package day

import (
	"strconv"

	"github.com/labstack/echo/v4"

	"kisen/office/day"
	"kisen/web/site"
)

// boardTossForm is the 振り駒 seen at a board: who tossed and how many 歩
// and と lay face up (the rest stood or overlapped: not counted).
type boardTossForm struct {
	Tosser int64 `form:"tosser"`
	Pieces int   `form:"pieces"` // 5, or 3 where the class allows it; 0 is 5
	Fu     int   `form:"fu"`
	To     int   `form:"to"`
}

// dayBoardToss enters an observed toss for a board before its result
// (POST → 303 back to the board).
func (s *Room) DayBoardToss(c echo.Context) error {
	ctx := c.Request().Context()
	var f boardTossForm
	if err := c.Bind(&f); err != nil {
		return err
	}
	w, err := readBoardWrite(c)
	if err != nil {
		return err
	}
	cid, n, b := w.ClassID, w.Round, w.Board
	if _, err := s.DayRoom().EnterBoardToss(ctx, site.Actor(c), day.BoardTossInput{ClassID: cid, Round: n, Board: b, GameID: w.GameID, Version: w.Version,
		Tosser: f.Tosser, Pieces: f.Pieces, Fu: f.Fu, To: f.To}); err != nil {
		return err
	}
	back, to := s.backOf(c, cid, n)
	anchor := strconv.Itoa(b)
	if back == "event" {
		anchor = strconv.FormatInt(cid, 10) + "-" + anchor
	}
	return site.SeeOther(c, to+"#board-"+anchor)
}
