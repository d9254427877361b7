package web

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"kisen/office/day"
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
	Decided   bool
	Winner    string
	SenteSaid string
	GoteSaid  string
	Message   string // a field problem
}

func reportViewOf(c echo.Context, token string, b day.ReportBoard) reportView {
	ctx := c.Request().Context()
	return reportView{Token: token, Class: localName(ctx, b.ClassName, b.ClassNameEn), Round: b.Round, Board: b.Board,
		Handicap: handicapWords(ctx, b.Handicap), Sente: b.SenteName, Gote: b.GoteName, SenteID: b.Sente, GoteID: b.Gote,
		Decided: b.Decided, Winner: b.NameOf(b.Winner), SenteSaid: b.NameOf(b.SenteSaid), GoteSaid: b.NameOf(b.GoteSaid)}
}

// reportError answers a link that takes no report: unknown (404), too
// many wrong links from the address (429), or the result already in (409,
// the result shown).
func (s *Server) reportError(c echo.Context, token string, err error) error {
	ctx := c.Request().Context()
	c.Response().Header().Set("Cache-Control", "no-store")
	var closed *day.ReportClosedError
	switch {
	case errors.Is(err, day.ErrTooManyMisses):
		c.Response().Header().Set("Retry-After", strconv.Itoa(int(day.MissWindow.Seconds())))
		return s.render(c, http.StatusTooManyRequests, DayReportRefused(s.page(c, T(ctx, "day_paper.report.title")), T(ctx, "day_paper.report.too_many")))
	case errors.Is(err, day.ErrBadToken):
		return s.render(c, http.StatusNotFound, DayReportRefused(s.page(c, T(ctx, "day_paper.report.title")), T(ctx, "day_paper.report.unknown")))
	case errors.As(err, &closed):
		v := reportViewOf(c, token, closed.Board)
		return s.render(c, http.StatusConflict, DayReportPage(s.page(c, T(ctx, "day_paper.report.title")), v))
	}
	return err
}

func (s *Server) dayReportPage(c echo.Context) error {
	token := c.Param("token")
	b, err := s.dayRoom().ReportLink(c.Request().Context(), token, c.RealIP())
	if err != nil {
		return s.reportError(c, token, err)
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return s.render(c, http.StatusOK, DayReportPage(s.page(c, T(c.Request().Context(), "day_paper.report.title")), reportViewOf(c, token, b)))
}

type reportForm struct {
	Reporter string `form:"reporter"`
	Winner   string `form:"winner"`
}

func (s *Server) dayReportPost(c echo.Context) error {
	ctx := c.Request().Context()
	token := c.Param("token")
	var f reportForm
	if err := c.Bind(&f); err != nil {
		return err
	}
	reporter, _ := strconv.ParseInt(f.Reporter, 10, 64)
	winner, _ := strconv.ParseInt(f.Winner, 10, 64)
	_, _, err := s.dayRoom().Report(ctx, day.ReportInput{Token: token, IP: c.RealIP(), Reporter: reporter, Winner: winner})
	if msgs, ok := fieldMsgsOf(ctx, err); ok {
		cur, lerr := s.dayRoom().ReportLink(ctx, token, c.RealIP())
		if lerr != nil {
			return s.reportError(c, token, lerr)
		}
		v := reportViewOf(c, token, cur)
		v.Message = firstMsg(msgs)
		return s.render(c, http.StatusUnprocessableEntity, DayReportPage(s.page(c, T(ctx, "day_paper.report.title")), v))
	}
	if err != nil {
		return s.reportError(c, token, err)
	}
	return seeOther(c, "/r/"+token)
}
