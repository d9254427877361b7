package day

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/office/day"
	"kisen/web/site"
)

// Entries before the day (issue 23 §1, docs/amateur-day-entries.md): the
// public entry form, its confirmation with the private link, and the link
// itself (see, withdraw). The director's list is day_entries.go.

// DayEntryRoutes registers the entry pages (called from the day block of
// web/routes.go).
func (s *Room) DayEntryRoutes(e *echo.Echo) {
	e.GET("/events/:id/day/entry", s.DayEntryForm)
	e.POST("/events/:id/day/entry", s.DayEntrySubmit)
	e.GET("/day/entries/:token", s.DayEntryLink)
	e.POST("/day/entries/:token/withdraw", s.DayEntryWithdraw)
	e.GET("/events/:id/day/entries", s.DayEntries, site.RequireUser)
	e.POST("/events/:id/day/entries/settings", s.DayEntrySettings, site.RequireUser)
	e.POST("/events/:id/day/entries/:entry/approve", s.DayEntryApprove, site.RequireUser)
	e.POST("/events/:id/day/entries/:entry/refuse", s.DayEntryRefuse, site.RequireUser)
	e.POST("/events/:id/day/entries/:entry/edit", s.DayEntryEdit, site.RequireUser)
	e.POST("/events/:id/day/entries/bulk", s.DayEntryBulkPreview, site.RequireUser)
	e.POST("/events/:id/day/entries/bulk/confirm", s.DayEntryBulkConfirm, site.RequireUser)
	e.POST("/events/:id/day/entries/approve-all", s.DayEntryApproveAllPreview, site.RequireUser)
	e.POST("/events/:id/day/entries/approve-all/confirm", s.DayEntryApproveAllConfirm, site.RequireUser)
}

func dayEntryURL(eventID int64) string   { return dayURL(eventID) + "/entry" }
func dayEntriesURL(eventID int64) string { return dayURL(eventID) + "/entries" }
func entryLinkURL(token string) string   { return "/day/entries/" + token }

// entryForm is the public form as posted.
type entryForm struct {
	Name    string `form:"name"`
	Reading string `form:"reading"`
	Rank    string `form:"rank"`
	Club    string `form:"club"`
	Contact string `form:"contact"`
	ClassID string `form:"class_id"`
}

func (f entryForm) input(eventID int64) day.EntryFormInput {
	cid, _ := strconv.ParseInt(f.ClassID, 10, 64)
	return day.EntryFormInput{EventID: eventID, Name: f.Name, Reading: f.Reading, Rank: f.Rank, Club: f.Club, Contact: f.Contact, ClassID: cid}
}

// entryFormView is the public form's page.
type entryFormView struct {
	EventID   int64
	EventName string
	Action    string
	Open      bool
	Deadline  string // in Japan time, "" for none
	Classes   []site.Choice
	Form      entryForm
	Errs      site.FieldMsgs
}

func (s *Room) entryFormView(c echo.Context, id int64, form entryForm, errs site.FieldMsgs) (entryFormView, error) {
	ctx := c.Request().Context()
	f, err := s.DayRoom().EntryFormOf(ctx, site.Actor(c), id)
	if err != nil {
		return entryFormView{}, err
	}
	v := entryFormView{EventID: id, EventName: site.LocalName(ctx, f.Event.Name, f.Event.NameEn), Action: dayEntryURL(id), Open: f.Open, Form: form, Errs: errs}
	if f.Settings.Deadline != nil {
		v.Deadline = site.ShowTime(*f.Settings.Deadline)
	}
	v.Classes = append(v.Classes, site.Choice{Value: "", Label: site.T(ctx, "day_entry.form.class_by_rank")})
	for _, cl := range f.Classes {
		v.Classes = append(v.Classes, site.Choice{Value: strconv.FormatInt(cl.ID, 10), Label: site.LocalName(ctx, cl.Name, cl.NameEn) + "（" + rankRangeWords(ctx, cl.Settings) + "）"})
	}
	site.MarkDraft(c, f.Event.Status == office.StatusDraft)
	return v, nil
}

// DayEntryForm is the public entry form, or the page saying it is closed.
func (s *Room) DayEntryForm(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	v, err := s.entryFormView(c, id, entryForm{}, nil)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return s.Render(c, http.StatusOK, DayEntryPage(s.Page(c, site.T(c.Request().Context(), "day_entry.form.title", "Event", v.EventName)), v))
}

// DayEntrySubmit takes an entry: 303 to its private link; a bad field is
// 422 with the form again and nothing stored; a closed form 403; too many
// entries from the address 429.
func (s *Room) DayEntrySubmit(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	var f entryForm
	if err := c.Bind(&f); err != nil {
		return err
	}
	_, token, err := s.DayRoom().SubmitEntry(ctx, site.Actor(c), f.input(id), c.RealIP())
	c.Response().Header().Set("Cache-Control", "no-store")
	switch msgs, bad := site.FieldMsgsOf(ctx, err); {
	case bad:
		v, verr := s.entryFormView(c, id, f, msgs)
		if verr != nil {
			return verr
		}
		return s.Render(c, http.StatusUnprocessableEntity, DayEntryPage(s.Page(c, site.T(ctx, "day_entry.form.title", "Event", v.EventName)), v))
	case errors.Is(err, day.ErrEntryClosed):
		v, verr := s.entryFormView(c, id, f, nil)
		if verr != nil {
			return verr
		}
		v.Open = false
		return s.Render(c, http.StatusForbidden, DayEntryPage(s.Page(c, site.T(ctx, "day_entry.form.title", "Event", v.EventName)), v))
	case errors.Is(err, day.ErrEntryRate):
		c.Response().Header().Set("Retry-After", strconv.Itoa(int(day.EntryRateEvery.Seconds())))
		return s.Render(c, http.StatusTooManyRequests, DayReportRefused(s.Page(c, site.T(ctx, "day_entry.form.title_short")), site.T(ctx, "day_entry.form.too_many")))
	case err != nil:
		return err
	}
	return site.SeeOther(c, entryLinkURL(token)+"?new=1")
}

// entryLinkView is the private link's page.
type entryLinkView struct {
	Token       string
	EventName   string
	Name        string
	Reading     string
	Rank        string
	Club        string
	Class       string
	Status      string // the state in words
	StatusCode  string
	Place       int
	Reason      string
	CanWithdraw bool
	Version     int
	New         bool // just submitted: the page says to keep the link
	Link        string
	Message     string
}

func entryLinkViewOf(c echo.Context, token string, l day.EntryOfLink) entryLinkView {
	ctx := c.Request().Context()
	e := l.Entry
	return entryLinkView{Token: token, EventName: site.LocalName(ctx, l.Event.Name, l.Event.NameEn), Name: e.Name, Reading: e.Reading,
		Rank: site.RankLabel(ctx, e.Rank), Club: e.Club, Class: site.LocalName(ctx, l.ClassName, l.ClassEn),
		Status: site.T(ctx, "day_entry.status."+e.Status), StatusCode: e.Status, Place: l.Place, Reason: e.Reason,
		CanWithdraw: l.CanWithdraw, Version: e.Version, New: c.QueryParam("new") == "1", Link: c.Scheme() + "://" + c.Request().Host + entryLinkURL(token)}
}

// entryLinkError answers a wrong link 404 and too many wrong links from
// the address 429 (the report links' limit, shared).
func (s *Room) entryLinkError(c echo.Context, err error) error {
	ctx := c.Request().Context()
	c.Response().Header().Set("Cache-Control", "no-store")
	switch {
	case errors.Is(err, day.ErrTooManyMisses):
		c.Response().Header().Set("Retry-After", strconv.Itoa(int(day.MissWindow.Seconds())))
		return s.Render(c, http.StatusTooManyRequests, DayReportRefused(s.Page(c, site.T(ctx, "day_entry.link.title")), site.T(ctx, "day_paper.report.too_many")))
	case errors.Is(err, day.ErrBadEntryToken):
		return s.Render(c, http.StatusNotFound, DayReportRefused(s.Page(c, site.T(ctx, "day_entry.link.title")), site.T(ctx, "day_entry.link.unknown")))
	}
	return err
}

// DayEntryLink is the entrant's private page: their entry and its state.
func (s *Room) DayEntryLink(c echo.Context) error {
	token := c.Param("token")
	l, err := s.DayRoom().EntryByLink(c.Request().Context(), token, c.RealIP())
	if err != nil {
		return s.entryLinkError(c, err)
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	c.Response().Header().Set("Referrer-Policy", "no-referrer")
	return s.Render(c, http.StatusOK, DayEntryLinkPage(s.Page(c, site.T(c.Request().Context(), "day_entry.link.title")), entryLinkViewOf(c, token, l)))
}

// DayEntryWithdraw withdraws the entry of a link: the box must be ticked
// (the confirmation), and the version is the one the page showed.
func (s *Room) DayEntryWithdraw(c echo.Context) error {
	ctx := c.Request().Context()
	token := c.Param("token")
	version, _ := strconv.Atoi(c.FormValue("version"))
	var err error
	if c.FormValue("confirm") != "1" {
		err = errConfirmWithdraw
	} else {
		err = s.DayRoom().WithdrawByLink(ctx, token, c.RealIP(), version)
	}
	if msgs, bad := site.FieldMsgsOf(ctx, err); bad || errors.Is(err, errConfirmWithdraw) {
		l, lerr := s.DayRoom().EntryByLink(ctx, token, c.RealIP())
		if lerr != nil {
			return s.entryLinkError(c, lerr)
		}
		v := entryLinkViewOf(c, token, l)
		if bad {
			v.Message = firstMsg(msgs)
		} else {
			v.Message = site.T(ctx, "day_entry.link.confirm_needed")
		}
		c.Response().Header().Set("Cache-Control", "no-store")
		return s.Render(c, http.StatusUnprocessableEntity, DayEntryLinkPage(s.Page(c, site.T(ctx, "day_entry.link.title")), v))
	}
	if err != nil {
		return s.entryLinkError(c, err)
	}
	return site.SeeOther(c, entryLinkURL(token))
}

var errConfirmWithdraw = errors.New("withdrawal not confirmed")
