package day

import (
	"context"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"kisen/office/day"
	"kisen/pairing"
	"kisen/web/site"
)

// The director's view of the day (issue 14 part 7): per class the round
// in play, the boards still playing and for how long, who is waiting, the
// players' reports that need the desk, the paper to print, and the button
// that draws the next round (the day's own preview → confirm) once the
// last result is in.

type directorView struct {
	EventID    int64
	Event      string
	Now        string
	CanDesk    bool
	DayURL     string
	CheckinURL string
	Classes    []directorClassView
}

type directorClassView struct {
	ID        int64
	Name      string
	Format    string
	Round     int
	DrawnAt   string
	Boards    int
	Playing   []day.PlayingBoard
	Waiting   []string
	Byes      []string
	Desk      []day.DeskReport
	Complete  bool
	CanStart  bool
	Finished  bool
	NextRound int
	DrawURL   string
	BoardsURL string
	ClassURL  string
	Sheets    []sheetLink
	QR        bool
	Wait      string
	PaperURL  string
	Message   string
}

type sheetLink struct {
	URL    string
	Text   string
	TestID string
}

// directorMsg is a message for one class's panel (a 422 from its paper
// form) and the value typed.
type directorMsg struct {
	ClassID int64
	Text    string
	Wait    string
}

func (s *Room) dayDirector(c echo.Context) error {
	id, err := site.PathParam(c, "id")
	if err != nil {
		return err
	}
	return s.renderDirector(c, http.StatusOK, id, directorMsg{})
}

func (s *Room) renderDirector(c echo.Context, status int, eventID int64, msg directorMsg) error {
	ctx := c.Request().Context()
	dv, err := s.DayRoom().DirectorView(ctx, site.Actor(c), eventID)
	if err != nil {
		return err
	}
	v := directorView{EventID: eventID, Event: dv.Event.Name, Now: site.ShowTime(dv.Now), CanDesk: dv.CanDesk, DayURL: dayURL(eventID),
		CheckinURL: dayURL(eventID) + "/checkin/print"}
	for _, dc := range dv.Classes {
		cv := directorClassView{ID: dc.ID, Name: site.LocalName(ctx, dc.Name, dc.NameEn), Format: formatWords(ctx, dc.Class), Round: dc.Round,
			Boards: dc.Boards, Playing: dc.Playing, Waiting: dc.Waiting, Byes: dc.Byes, Desk: dc.Desk, Complete: dc.Complete,
			CanStart: dc.CanStart, Finished: dc.Finished, NextRound: dc.Round + 1, DrawURL: DayClassURL(dc.ID) + "/draw",
			ClassURL: DayClassURL(dc.ID), QR: dc.Paper.QR, Wait: strconv.Itoa(dc.Paper.WaitMinutes), PaperURL: DayClassURL(dc.ID) + "/paper"}
		if dc.Round > 0 {
			cv.DrawnAt = site.ShowTime(dc.DrawnAt)
			cv.BoardsURL = dayBoardsURL(dc.ID, dc.Round)
			cv.Sheets = append(cv.Sheets,
				sheetLink{DayRoundPaperURL(dc.ID, dc.Round, "pairings"), site.T(ctx, "day_paper.link.pairings", "N", dc.Round), "paper-pairings"},
				sheetLink{DayRoundPaperURL(dc.ID, dc.Round, "slips"), site.T(ctx, "day_paper.link.slips", "N", dc.Round), "paper-slips"})
			if dc.Format == day.FormatPools && dc.Settings.PoolMode == string(pairing.PoolBlocks) {
				cv.Sheets = append(cv.Sheets, sheetLink{DayClassURL(dc.ID) + "/blocks/print", site.T(ctx, "day_paper.link.blocks"), "paper-blocks"})
			}
			cv.Sheets = append(cv.Sheets, sheetLink{DayClassURL(dc.ID) + "/standings/print", site.T(ctx, "day_paper.link.standings"), "paper-standings"})
		}
		if msg.ClassID == dc.ID {
			cv.Message = msg.Text
			if msg.Wait != "" {
				cv.Wait = msg.Wait
			}
		}
		v.Classes = append(v.Classes, cv)
	}
	return s.Render(c, status, DayDirectorPage(s.Page(c, site.T(ctx, "day_paper.director.title", "Event", v.Event)), v))
}

// saidWords is what a player reported: the winner's name, or "not yet".
func saidWords(ctx context.Context, name string) string {
	if name == "" {
		return site.T(ctx, "day_paper.report.not_yet")
	}
	return name
}
