package leagues

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/web/site"
)

// leagueRoutes: leagues and 順位戦 terms (issue 6).
func (s *Room) LeagueRoutes(e *echo.Echo) {
	e.GET("/events/:id/league", s.leagueOverviewPage)
	e.POST("/events/:id/league/classes", s.leagueClassCreate, site.RequireUser)
	e.POST("/events/:id/league/import", s.leagueImport, site.RequireUser, s.ActsOnEvent(office.LeagueEditRoles...))
	e.POST("/events/:id/league/rollover", s.leagueRollOver, site.RequireUser)
	e.GET("/league/:cid", s.leagueClassPage)
	e.POST("/league/:cid/generate", s.leagueGenerate, site.RequireUser)
	e.POST("/league/:cid/edit", s.leagueEdit, site.RequireUser)
	e.POST("/league/:cid/members", s.leagueMembers, site.RequireUser, s.ActsOnLeagueClass(office.LeagueEditRoles...))
	e.GET("/league/:cid/publish", s.leaguePublishConfirm, site.RequireUser) // drafts.go: the confirmation
	e.POST("/league/:cid/publish", s.leaguePublish, site.RequireUser)
	e.POST("/league/:cid/unpublish", s.leagueUnpublish, site.RequireUser, s.ActsOnLeagueClass(office.LeagueEditRoles...))
	e.POST("/league/:cid/settings", s.leagueSettings, site.RequireUser)
	e.POST("/league/:cid/playoff", s.leaguePlayoffCreate, site.RequireUser)
	e.POST("/league/:cid/result", s.leagueResult, site.RequireUser, s.ActsOnLeagueClass(office.LeagueResultRoles...))
	e.GET("/league/:cid/calendar.ics", s.leagueICS)
	e.GET("/league/:cid/schedule.csv", s.leagueCSV)
}

// leagueClassForm is the form that adds a class.
type leagueClassForm struct {
	Class          string `form:"class"`
	Members        string `form:"members"`
	GamesPerPlayer string `form:"games_per_player"`
	Allowance      string `form:"allowance"`
	Promote        string `form:"promote"`
	Demote         string `form:"demote"`
	PointsNum      string `form:"points_num"`
	PointsDen      string `form:"points_den"`
	PointsToDemote string `form:"points_to_demote"`
}

// rollOverForm names the next term.
type rollOverForm struct {
	Name      string `form:"name"`
	NameEn    string `form:"name_en"`
	StartDate string `form:"start_date"`
	EndDate   string `form:"end_date"`
}

// leagueOverview is the view model of an event's league page.
type leagueOverview struct {
	EventID     int64
	EventName   string
	Junisen     bool
	CanSchedule bool
	Classes     []leagueClassLink
	History     int
	FreeClasses []string // classes not yet added (junisen)
	Form        leagueClassForm
	Roll        rollOverForm
	Errs        site.FieldMsgs
	ImportMsgs  []string // every bad CSV row
	Imported    int      // rows imported (shown after an import)
}

type leagueClassLink struct {
	ID      int64
	Label   string
	Members int
	Status  string
}

// classTitle is a class's name on pages: "C2組" / "Class C2"; a league
// group is "リーグ" / "League".
func ClassTitle(ctx context.Context, class string) string {
	if class == "" {
		return site.T(ctx, "league.group")
	}
	return site.L(ctx).TData("league.class_name", map[string]any{"Class": class})
}

func (s *Room) leagueOverviewPage(c echo.Context) error {
	id, err := site.PathParam(c, "id")
	if err != nil {
		return err
	}
	if done, err := s.NotModifiedEvent(c, id); done || err != nil {
		return err
	}
	return s.renderLeagueOverview(c, http.StatusOK, leagueOverview{})
}

func (s *Room) renderLeagueOverview(c echo.Context, status int, v leagueOverview) error {
	ctx := c.Request().Context()
	id, err := site.PathParam(c, "id")
	if err != nil {
		return err
	}
	a := site.Actor(c)
	ov, err := s.Office.League(ctx, a, id)
	if err != nil {
		return err
	}
	v.EventID, v.EventName = id, site.LocalName(ctx, ov.Event.Name, ov.Event.NameEn)
	v.Junisen = ov.Event.Kind == office.EventJunisenTerm
	v.CanSchedule = s.Office.CanScheduleLeague(ctx, a, id)
	v.History = ov.History
	have := map[string]bool{}
	for _, cl := range ov.Classes {
		have[cl.Class] = true
		v.Classes = append(v.Classes, leagueClassLink{ID: cl.ID, Label: ClassTitle(ctx, cl.Class), Members: ov.Counts[cl.ID], Status: cl.Status})
	}
	if v.Junisen {
		for _, cl := range office.JunisenClasses {
			if !have[cl] {
				v.FreeClasses = append(v.FreeClasses, cl)
			}
		}
	}
	site.MarkDraft(c, office.IsDraft(ov.Event))
	return s.Render(c, status, LeagueOverviewPage(s.Page(c, v.EventName), v))
}

// optInt reads an optional whole number field; "" is nil. A field that is
// not a number becomes -1 so office reports it.
func optInt(s string) *int {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		n = -1
	}
	return &n
}

func (s *Room) leagueClassCreate(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathParam(c, "id")
	if err != nil {
		return err
	}
	var f leagueClassForm
	if err := c.Bind(&f); err != nil {
		return err
	}
	in := office.LeagueClassInput{EventID: id, Class: f.Class, Members: f.Members,
		Promote: optInt(f.Promote), Demote: optInt(f.Demote), PointsNum: optInt(f.PointsNum),
		PointsDen: optInt(f.PointsDen), PointsToDemote: optInt(f.PointsToDemote)}
	if p := optInt(f.GamesPerPlayer); p != nil {
		in.GamesPerPlayer = *p
	}
	if p := optInt(f.Allowance); p != nil {
		in.AllowanceMinutes = *p
	}
	cl, err := s.Office.AddLeagueClass(ctx, site.Actor(c), in)
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		return s.renderLeagueOverview(c, http.StatusUnprocessableEntity, leagueOverview{Form: f, Errs: msgs, ImportMsgs: AllFieldMsgs(ctx, err, "members")})
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, "/league/"+strconv.FormatInt(cl.ID, 10))
}

// allFieldMsgs lists every message of a validation error (optionally only
// one field's), each with its line: the CSV and member list report every
// bad row, not only the first.
func AllFieldMsgs(ctx context.Context, err error, field string) []string {
	ve, ok := asValidation(err)
	if !ok {
		return nil
	}
	var out []string
	for _, f := range ve.Fields {
		if field != "" && f.Field != field {
			continue
		}
		msg := site.L(ctx).TData(f.Code, site.WordArgs(ctx, f.Args))
		if f.Line > 0 {
			msg = site.L(ctx).TData("league.line", map[string]any{"Line": f.Line, "Field": f.Field, "Message": msg})
		}
		out = append(out, msg)
	}
	return out
}

func (s *Room) leagueImport(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathParam(c, "id")
	if err != nil {
		return err
	}
	terms, _ := strconv.Atoi(c.FormValue("terms_ago"))
	fh, err := c.FormFile("file")
	if err != nil {
		return s.renderLeagueOverview(c, http.StatusUnprocessableEntity, leagueOverview{
			Errs: site.FieldMsgs{"file": site.T(ctx, "league.csv.no_file")}, ImportMsgs: []string{site.T(ctx, "league.csv.no_file")}})
	}
	f, err := fh.Open()
	if err != nil {
		return err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, 8<<20))
	if err != nil {
		return err
	}
	n, err := s.Office.ImportLeagueHistory(ctx, site.Actor(c), id, terms, data)
	if _, ok := asValidation(err); ok {
		return s.renderLeagueOverview(c, http.StatusUnprocessableEntity, leagueOverview{ImportMsgs: AllFieldMsgs(ctx, err, "")})
	}
	if err != nil {
		return err
	}
	return s.renderLeagueOverview(c, http.StatusOK, leagueOverview{Imported: n})
}

func (s *Room) leagueRollOver(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathParam(c, "id")
	if err != nil {
		return err
	}
	var f rollOverForm
	if err := c.Bind(&f); err != nil {
		return err
	}
	next, err := s.Office.RollOver(ctx, site.Actor(c), office.NextTermInput{EventID: id, Name: f.Name, NameEn: f.NameEn, StartDate: f.StartDate, EndDate: f.EndDate})
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		return s.renderLeagueOverview(c, http.StatusUnprocessableEntity, leagueOverview{Roll: f, Errs: msgs})
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, "/events/"+strconv.FormatInt(next.ID, 10)+"/league")
}

// shortName is a player's name in a table cell: the family name when the
// registry name has a space between family and given name, else the whole
// name.
func shortName(p office.Player) string {
	name := strings.TrimSpace(p.Name)
	if fam, _, ok := strings.Cut(strings.ReplaceAll(name, "　", " "), " "); ok && fam != "" {
		return fam
	}
	return name
}

// asValidation unwraps an office validation error.
func asValidation(err error) (*office.ValidationError, bool) {
	var ve *office.ValidationError
	ok := errors.As(err, &ve)
	return ve, ok
}
