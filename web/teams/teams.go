package teams

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/office/teams"
	"kisen/web/site"
)

// TeamRoutes registers the team event's pages (called from web/routes.go).
func (s *Room) TeamRoutes(e *echo.Echo) {
	e.GET("/events/:id/teams", s.TeamsPage)
	e.POST("/events/:id/teams/settings", s.TeamsSettings, site.RequireUser)
	e.GET("/events/:id/teams/new", s.TeamNew, site.RequireUser)
	e.POST("/events/:id/teams", s.TeamCreate, site.RequireUser)
	e.POST("/events/:id/teams/import", s.TeamsImportPreview, site.RequireUser)
	e.POST("/events/:id/teams/import/confirm", s.TeamsImportConfirm, site.RequireUser)
	e.POST("/events/:id/teams/rounds", s.TeamRoundSave, site.RequireUser)
	e.GET("/teams/:team/edit", s.TeamEdit, site.RequireUser)
	e.POST("/teams/:team", s.TeamUpdate, site.RequireUser)
	e.GET("/team-rounds/:round", s.TeamRoundPage)
	e.GET("/team-rounds/:round/print", s.TeamOrderSheet)
	e.GET("/team-rounds/:round/teams/:team", s.TeamOrderPage)
	e.POST("/team-rounds/:round/teams/:team/order", s.TeamOrderSubmit, site.RequireUser)
	e.GET("/team-rounds/:round/matches", s.TeamMatchesPage)
	e.POST("/team-rounds/:round/matches", s.TeamMatchCreate, site.RequireUser)
	e.POST("/team-matches/:match/start", s.TeamMatchStart, site.RequireUser)
	e.GET("/events/:id/teams/standings", s.TeamStandingsPage)
	s.DrawRoutes(e)
}

func teamsURL(eventID int64) string { return "/events/" + strconv.FormatInt(eventID, 10) + "/teams" }
func roundURL(roundID int64) string { return "/team-rounds/" + strconv.FormatInt(roundID, 10) }
func orderURL(roundID, teamID int64) string {
	return roundURL(roundID) + "/teams/" + strconv.FormatInt(teamID, 10)
}

// lineMsgs are a validation error's messages, each with its line (or form
// row) and field named, in the reader's language.
func lineMsgs(ctx context.Context, err error) ([]string, bool) {
	var ve *office.ValidationError
	if !asValidation(err, &ve) {
		return nil, false
	}
	lz := site.L(ctx)
	var out []string
	for _, f := range ve.Fields {
		msg := lz.TData(f.Code, site.WordArgs(ctx, f.Args))
		if f.Line > 0 {
			msg = site.T(ctx, "teams.line", "Line", f.Line, "Field", site.T(ctx, "teams.field."+fieldWord(f.Field))) + msg
		}
		out = append(out, msg)
	}
	return out, true
}

// fieldWord maps a field to its label's key (boards: board_N → board).
func fieldWord(field string) string {
	switch {
	case strings.HasPrefix(field, "board_"):
		return "board"
	case field == "team", field == "name", field == "reading", field == "rank", field == "player",
		field == "affiliation", field == "affiliation_kind", field == "lines":
		return field
	}
	return "other"
}

func asValidation(err error, ve **office.ValidationError) bool {
	v, ok := err.(*office.ValidationError)
	if ok {
		*ve = v
	}
	return ok
}

// ruleWord is an order rule in words.
func ruleWord(ctx context.Context, rule string) string { return site.T(ctx, "teams.rule."+rule) }

// --- the teams page ---

type teamRow struct {
	ID          int64
	Name        string
	Affiliation string
	Kind        string
	EditURL     string
	Boards      []memberCell // the registered order, 1 … boards
	Reserves    []memberCell
}

type memberCell struct {
	Name, Rank string
}

type roundRow struct {
	Number   int
	Deadline string
	URL      string
}

type teamsView struct {
	EventID   int64
	EventName string
	Settings  teams.Settings
	Rule      string
	Teams     []teamRow
	Rounds    []roundRow
	CanEdit   bool
	Staff     bool
	Errs      site.FieldMsgs
	Msgs      []string // a paste's problems
	Paste     string
	Rules     []site.Choice
}

func (s *Room) teamsView(c echo.Context, id int64) (teamsView, error) {
	ctx := c.Request().Context()
	r, err := s.Teams.Roster(ctx, site.Actor(c), id)
	if err != nil {
		return teamsView{}, err
	}
	rounds, err := s.Teams.Rounds(ctx, site.Actor(c), id)
	if err != nil {
		return teamsView{}, err
	}
	v := teamsView{EventID: id, EventName: site.LocalName(ctx, r.Event.Name, r.Event.NameEn), Settings: r.Settings,
		Rule: ruleWord(ctx, r.Settings.OrderRule), CanEdit: r.CanEdit, Staff: r.Staff}
	for _, rule := range []string{"free", "rank", "fixed"} {
		v.Rules = append(v.Rules, site.Choice{Value: rule, Label: ruleWord(ctx, rule)})
	}
	for _, tm := range r.Teams {
		row := teamRow{ID: tm.ID, Name: site.LocalName(ctx, tm.Name, tm.NameEn), Affiliation: tm.Affiliation,
			Kind: site.T(ctx, "teams.kind."+tm.AffiliationKind), EditURL: "/teams/" + strconv.FormatInt(tm.ID, 10) + "/edit"}
		for _, m := range tm.Members {
			cell := memberCell{Name: m.Name, Rank: site.RankLabel(ctx, m.Rank)}
			if m.Reserve {
				row.Reserves = append(row.Reserves, cell)
			} else {
				row.Boards = append(row.Boards, cell)
			}
		}
		v.Teams = append(v.Teams, row)
	}
	for _, rd := range rounds {
		v.Rounds = append(v.Rounds, roundRow{Number: rd.Number, Deadline: site.ShowTime(rd.Deadline), URL: roundURL(rd.ID)})
	}
	site.MarkDraft(c, office.IsDraft(r.Event))
	return v, nil
}

func (s *Room) renderTeams(c echo.Context, status int, v teamsView) error {
	ctx := c.Request().Context()
	c.Response().Header().Set("Cache-Control", "no-store")
	return s.Render(c, status, TeamsPage(s.Page(c, site.T(ctx, "teams.title", "Event", v.EventName)), v))
}

// TeamsPage is the teams and rosters of a team event (everyone who may see
// the event; the director edits).
func (s *Room) TeamsPage(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	v, err := s.teamsView(c, id)
	if err != nil {
		return err
	}
	return s.renderTeams(c, http.StatusOK, v)
}

// TeamsSettings saves the boards, reserves, order rule and majority rule.
func (s *Room) TeamsSettings(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	version, _ := strconv.Atoi(c.FormValue("version"))
	_, err = s.Teams.UpdateSettings(ctx, site.Actor(c), teams.SettingsInput{EventID: id, Version: version,
		Boards: c.FormValue("boards"), Reserves: c.FormValue("reserves"), OrderRule: c.FormValue("order_rule"), MajorityForfeit: c.FormValue("majority_forfeit") == "1"})
	if msgs, bad := site.FieldMsgsOf(ctx, err); bad {
		v, verr := s.teamsView(c, id)
		if verr != nil {
			return verr
		}
		v.Errs = msgs
		return s.renderTeams(c, http.StatusUnprocessableEntity, v)
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, teamsURL(id))
}

// TeamRoundSave adds a round with its order deadline, or moves one.
func (s *Room) TeamRoundSave(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	rid, _ := strconv.ParseInt(c.FormValue("round_id"), 10, 64)
	version, _ := strconv.Atoi(c.FormValue("version"))
	_, err = s.Teams.SaveRound(ctx, site.Actor(c), teams.RoundInput{EventID: id, RoundID: rid, Version: version, Number: c.FormValue("number"), Deadline: c.FormValue("deadline")})
	if msgs, bad := site.FieldMsgsOf(ctx, err); bad {
		v, verr := s.teamsView(c, id)
		if verr != nil {
			return verr
		}
		v.Errs = msgs
		return s.renderTeams(c, http.StatusUnprocessableEntity, v)
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, teamsURL(id))
}

// --- paste / CSV ---

type importView struct {
	teamsView
	Preview     []previewTeam
	Text        string
	FromFile    bool // the preview was of an uploaded file (confirmed as CSV)
	Fingerprint string
	Create      int
	Match       int
}

type previewTeam struct {
	Name, Affiliation, Kind string
	Members                 []previewMember
}

type previewMember struct {
	Row                 int
	Name, Reading, Rank string
	Words               string
	Similar             string
	Reserve             bool
}

func previewMembers(ctx context.Context, boards int, ls []teams.MemberLine) []previewMember {
	var out []previewMember
	for i, l := range ls {
		pm := previewMember{Row: l.Row, Name: l.Name, Reading: l.Reading, Rank: site.RankLabel(ctx, l.Rank), Reserve: i >= boards}
		switch l.Action {
		case teams.MemberCreate:
			pm.Words = site.T(ctx, "teams.preview.create")
			for k, sg := range l.Similar {
				if k > 0 {
					pm.Similar += "、"
				}
				pm.Similar += sg.Player.Name + "（" + sg.Player.Reading + "）"
			}
		case teams.MemberMatch:
			pm.Words = site.T(ctx, "teams.preview.match", "Name", l.Player.Name, "Reading", l.Player.Reading)
		default:
			pm.Words = site.T(ctx, "teams.preview.chosen")
		}
		out = append(out, pm)
	}
	return out
}

// importInput reads the paste, or the uploaded file when one is sent.
func importInput(c echo.Context, id int64) (teams.CSVInput, error) {
	in := teams.CSVInput{EventID: id, Text: c.FormValue("text"), Fingerprint: c.FormValue("fingerprint")}
	if fh, err := c.FormFile("file"); err == nil && fh.Size > 0 {
		f, err := fh.Open()
		if err != nil {
			return in, err
		}
		defer f.Close()
		b, err := io.ReadAll(io.LimitReader(f, 2<<20))
		if err != nil {
			return in, err
		}
		in.CSV, in.Text = b, ""
	}
	return in, nil
}

func (s *Room) renderImport(c echo.Context, id int64, in teams.CSVInput, p teams.CSVPreview, err error) error {
	ctx := c.Request().Context()
	v, verr := s.teamsView(c, id)
	if verr != nil {
		return verr
	}
	iv := importView{teamsView: v, Text: in.Text}
	status := http.StatusOK
	if msgs, bad := lineMsgs(ctx, err); bad {
		iv.Msgs, status = msgs, http.StatusUnprocessableEntity
	} else if err != nil {
		return err
	} else {
		iv.Fingerprint, iv.Create, iv.Match = p.Fingerprint, p.Create, p.Match
		if in.CSV != nil {
			iv.FromFile, iv.Text = true, string(in.CSV)
			if t, ok := office.DecodeUploadedCSV(in.CSV); ok {
				iv.Text = t
			}
		}
		for _, tp := range p.Teams {
			iv.Preview = append(iv.Preview, previewTeam{Name: tp.Team.Name, Affiliation: tp.Team.Affiliation,
				Kind: site.T(ctx, "teams.kind."+tp.Team.AffiliationKind), Members: previewMembers(ctx, v.Settings.Boards, tp.Members)})
		}
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return s.Render(c, status, TeamsImportPage(s.Page(c, site.T(ctx, "teams.import.title", "Event", v.EventName)), iv))
}

// TeamsImportPreview shows what a paste or file would register; a bad line
// is 422 with every bad line named and nothing registered.
func (s *Room) TeamsImportPreview(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	in, err := importInput(c, id)
	if err != nil {
		return err
	}
	p, err := s.Teams.PreviewTeamsCSV(c.Request().Context(), site.Actor(c), in)
	return s.renderImport(c, id, in, p, err)
}

// TeamsImportConfirm registers every team of the paste, or none.
func (s *Room) TeamsImportConfirm(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	in := teams.CSVInput{EventID: id, Text: c.FormValue("text"), Fingerprint: c.FormValue("fingerprint")}
	if c.FormValue("csv") == "1" { // the preview was of a file: its text is read as CSV again
		in.CSV, in.Text = []byte(in.Text), ""
	}
	p, err := s.Teams.ConfirmTeamsCSV(c.Request().Context(), site.Actor(c), in)
	if _, bad := lineMsgs(c.Request().Context(), err); bad {
		return s.renderImport(c, id, in, p, err)
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, teamsURL(id))
}
