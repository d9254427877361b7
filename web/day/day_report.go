package day

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"kisen/office/day"
	"kisen/web/site"
)

// The players' own report (issue 14 part 5): the page a slip's QR code
// opens, on a phone, without an account. Each player says who they are
// and who won; two reports that agree enter the result.

type reportView struct {
	Token     string
	Class     string
	Round     int
	Board     int
	Handicap  string
	Sente     string
	Gote      string
	SenteID   int64
	GoteID    int64
	Me        string // the player whose secret the link is
	SenteSaid string
	GoteSaid  string
	Message   string // a field problem
	Pending   bool   // the seats wait for the 振り駒 at the board
}

func reportViewOf(c echo.Context, token string, b day.ReportBoard) reportView {
	ctx := c.Request().Context()
	return reportView{Token: token, Class: site.LocalName(ctx, b.ClassName, b.ClassNameEn), Round: b.Round, Board: b.Board,
		Handicap: handicapWords(ctx, b.Handicap), Sente: b.SenteName, Gote: b.GoteName, SenteID: b.Sente, GoteID: b.Gote,
		Me: b.NameOf(b.Me), SenteSaid: b.NameOf(b.SenteSaid), GoteSaid: b.NameOf(b.GoteSaid), Pending: b.SeatsPending}
}

// reportError answers a link that takes no report: unknown (404, the same
// page for a typo, a guess or another board's old code), too many wrong
// links from the address (429), or closed (410: the result is in, the
// round is over, the issuer lost the role, or a slip printed before each
// player had their own code). A closed page names only the reason, never
// the game.
func (s *Room) reportError(c echo.Context, err error) error {
	ctx := c.Request().Context()
	c.Response().Header().Set("Cache-Control", "no-store")
	var closed *day.ReportClosedError
	switch {
	case errors.Is(err, day.ErrTooManyMisses):
		c.Response().Header().Set("Retry-After", strconv.Itoa(int(day.MissWindow.Seconds())))
		return s.Render(c, http.StatusTooManyRequests, DayReportRefused(s.Page(c, site.T(ctx, "day_paper.report.title")), site.T(ctx, "day_paper.report.too_many")))
	case errors.Is(err, day.ErrBadToken):
		return s.Render(c, http.StatusNotFound, DayReportRefused(s.Page(c, site.T(ctx, "day_paper.report.title")), site.T(ctx, "day_paper.report.unknown")))
	case errors.As(err, &closed):
		return s.Render(c, http.StatusGone, DayReportRefused(s.Page(c, site.T(ctx, "sec_qr.closed.title")), site.T(ctx, "sec_qr.closed."+closed.Why)))
	}
	return err
}

func (s *Room) dayReportPage(c echo.Context) error {
	token := c.Param("token")
	b, err := s.DayRoom().ReportLink(c.Request().Context(), token, c.RealIP())
	if err != nil {
		return s.reportError(c, err)
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return s.Render(c, http.StatusOK, DayReportPage(s.Page(c, site.T(c.Request().Context(), "day_paper.report.title")), reportViewOf(c, token, b)))
}

// reportForm is what a phone posts: the winner only. Who reports is the
// player whose secret the link is; a "reporter" field, if sent, is not
// read.
type reportForm struct {
	Winner string `form:"winner"`
}

func (s *Room) dayReportPost(c echo.Context) error {
	ctx := c.Request().Context()
	token := c.Param("token")
	var f reportForm
	if err := c.Bind(&f); err != nil {
		return err
	}
	winner, _ := strconv.ParseInt(f.Winner, 10, 64)
	_, _, err := s.DayRoom().Report(ctx, day.ReportInput{Token: token, IP: c.RealIP(), Winner: winner})
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		cur, lerr := s.DayRoom().ReportLink(ctx, token, c.RealIP())
		if lerr != nil {
			return s.reportError(c, lerr)
		}
		v := reportViewOf(c, token, cur)
		v.Message = firstMsg(msgs)
		c.Response().Header().Set("Cache-Control", "no-store")
		return s.Render(c, http.StatusUnprocessableEntity, DayReportPage(s.Page(c, site.T(ctx, "day_paper.report.title")), v))
	}
	if err != nil {
		return s.reportError(c, err)
	}
	return site.SeeOther(c, "/r/"+token)
}

// loneReportURL is where the director's view confirms one player's report.
func loneReportURL(classID int64, d day.DeskReport) string {
	return DayClassURL(classID) + "/rounds/" + strconv.Itoa(d.Round) + "/boards/" + strconv.Itoa(d.Board) + "/report"
}

// loneReportForm is the director's view's confirmation of one report.
type loneReportForm struct {
	ReportID string `form:"report_id"`
	GameID   string `form:"game_id"`
	Version  string `form:"version"`
}

// dayLoneReportConfirm enters the result one player reported (directors,
// arbiters, recorders): the class, round and board from the path, checked
// with the actor's role before anything in the body; a report of another
// board is 404; a stale version is the 409 page.
func (s *Room) dayLoneReportConfirm(c echo.Context) error {
	ctx := c.Request().Context()
	cid, err := site.PathParam(c, "cid")
	if err != nil {
		return err
	}
	round, rerr := strconv.Atoi(c.Param("n"))
	board, berr := strconv.Atoi(c.Param("b"))
	if rerr != nil || berr != nil {
		return echo.NewHTTPError(http.StatusNotFound)
	}
	cl, err := s.DayRoom().Class(ctx, site.Actor(c), cid)
	if err != nil {
		return err
	}
	var f loneReportForm
	if err := c.Bind(&f); err != nil {
		return err
	}
	rid, _ := strconv.ParseInt(f.ReportID, 10, 64)
	gid, _ := strconv.ParseInt(f.GameID, 10, 64)
	ver, _ := strconv.Atoi(f.Version)
	err = s.DayRoom().ConfirmLoneReport(ctx, site.Actor(c), day.LoneReportInput{ClassID: cid, Round: round, Board: board, ReportID: rid, GameID: gid, Version: ver})
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		return s.renderDirector(c, http.StatusUnprocessableEntity, cl.EventID, directorMsg{ClassID: cid, Text: firstMsg(msgs)})
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, DayDirectorURL(cl.EventID)+"#class-"+strconv.FormatInt(cid, 10))
}
