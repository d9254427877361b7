package teams

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/office/teams"
	"kisen/web/site"
)

// The team form: the team's name, affiliation and kind, and one row per
// roster place (boards, then reserves): a registered player (kept by id
// when editing) or a name, reading and rank. "確認" previews the rows
// (registered, matched, new — with similar registered names), "登録" saves.

type memberRow struct {
	Row                 int
	PlayerID            string
	Name, Reading, Rank string
	Reserve             bool
}

type teamFormView struct {
	EventID     int64
	EventName   string
	Action      string
	Version     int
	Name        string
	NameEn      string
	Affiliation string
	Kind        string
	Kinds       []site.Choice
	Rows        []memberRow
	Errs        site.FieldMsgs
	Msgs        []string
	Preview     []previewMember
	IsNew       bool
}

func (s *Room) teamFormBase(c echo.Context, eventID int64) (teamFormView, teams.Settings, error) {
	ctx := c.Request().Context()
	e, set, err := s.Teams.EventSettings(ctx, site.Actor(c), eventID)
	if err != nil {
		return teamFormView{}, teams.Settings{}, err
	}
	v := teamFormView{EventID: eventID, EventName: site.LocalName(ctx, e.Name, e.NameEn), Kind: teams.AffiliationSchool}
	for _, k := range teams.AffiliationKinds {
		v.Kinds = append(v.Kinds, site.Choice{Value: k, Label: site.T(ctx, "teams.kind."+k)})
	}
	site.MarkDraft(c, office.IsDraft(e))
	return v, set, nil
}

func padRows(rows []memberRow, set teams.Settings) []memberRow {
	for len(rows) < set.RosterSize() {
		rows = append(rows, memberRow{})
	}
	for i := range rows {
		rows[i].Row, rows[i].Reserve = i+1, i >= set.Boards
	}
	return rows
}

func (s *Room) renderTeamForm(c echo.Context, status int, v teamFormView) error {
	ctx := c.Request().Context()
	c.Response().Header().Set("Cache-Control", "no-store")
	return s.Render(c, status, TeamFormPage(s.Page(c, site.T(ctx, "teams.form.title", "Event", v.EventName)), v))
}

// TeamNew is the empty team form (directors).
func (s *Room) TeamNew(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	if err := s.Teams.RequireEditor(c.Request().Context(), site.Actor(c), id); err != nil {
		return err
	}
	v, set, err := s.teamFormBase(c, id)
	if err != nil {
		return err
	}
	v.Action, v.IsNew, v.Rows = teamsURL(id), true, padRows(nil, set)
	return s.renderTeamForm(c, http.StatusOK, v)
}

// TeamEdit is a team's form with its roster (directors).
func (s *Room) TeamEdit(c echo.Context) error {
	tid, err := site.PathParam(c, "team")
	if err != nil {
		return err
	}
	tv, set, err := s.Teams.TeamOf(c.Request().Context(), site.Actor(c), tid)
	if err != nil {
		return err
	}
	v, _, err := s.teamFormBase(c, tv.EventID)
	if err != nil {
		return err
	}
	v.Action, v.Version, v.Name, v.NameEn, v.Affiliation, v.Kind = "/teams/"+strconv.FormatInt(tid, 10), tv.Version, tv.Name, tv.NameEn, tv.Affiliation, tv.AffiliationKind
	var rows []memberRow
	for _, m := range tv.Members {
		rows = append(rows, memberRow{PlayerID: strconv.FormatInt(m.PlayerID, 10), Name: m.Name, Reading: m.Reading, Rank: m.Rank})
	}
	v.Rows = padRows(rows, set)
	return s.renderTeamForm(c, http.StatusOK, v)
}

// teamInput reads the posted form (rows up to the posted count).
func teamInput(c echo.Context, eventID, teamID int64) (teams.TeamInput, []memberRow) {
	version, _ := strconv.Atoi(c.FormValue("version"))
	in := teams.TeamInput{EventID: eventID, TeamID: teamID, Version: version, Name: c.FormValue("name"), NameEn: c.FormValue("name_en"),
		Affiliation: c.FormValue("affiliation"), AffiliationKind: c.FormValue("affiliation_kind")}
	n, _ := strconv.Atoi(c.FormValue("rows"))
	n = min(max(n, 0), teams.MaxBoards+teams.MaxReserves)
	var rows []memberRow
	for i := 1; i <= n; i++ {
		k := strconv.Itoa(i)
		r := memberRow{PlayerID: c.FormValue("player_" + k), Name: c.FormValue("name_" + k), Reading: c.FormValue("reading_" + k), Rank: c.FormValue("rank_" + k)}
		pid, _ := strconv.ParseInt(r.PlayerID, 10, 64)
		if strings.TrimSpace(r.Name) == "" { // a row emptied: its player leaves the roster
			pid, r.PlayerID = 0, ""
		}
		in.Members = append(in.Members, teams.MemberInput{PlayerID: pid, Name: r.Name, Reading: r.Reading, Rank: r.Rank})
		rows = append(rows, r)
	}
	return in, rows
}

func (s *Room) saveTeam(c echo.Context, eventID, teamID int64, action string) error {
	ctx := c.Request().Context()
	in, rows := teamInput(c, eventID, teamID)
	var err error
	var p teams.TeamPreview
	preview := c.FormValue("preview") == "1"
	if preview {
		p, err = s.Teams.PreviewTeam(ctx, site.Actor(c), in)
	} else {
		_, err = s.Teams.SaveTeam(ctx, site.Actor(c), in)
	}
	msgs, bad := lineMsgs(ctx, err)
	if !bad && err != nil {
		return err
	}
	if !bad && !preview {
		return site.SeeOther(c, teamsURL(eventID))
	}
	v, set, verr := s.teamFormBase(c, eventID)
	if verr != nil {
		return verr
	}
	v.Action, v.IsNew, v.Version, v.Name, v.NameEn, v.Affiliation, v.Kind = action, teamID == 0, in.Version, in.Name, in.NameEn, in.Affiliation, in.AffiliationKind
	v.Rows = padRows(rows, set)
	status := http.StatusOK
	if bad {
		v.Errs, _ = site.FieldMsgsOf(ctx, err)
		v.Msgs, status = msgs, http.StatusUnprocessableEntity
	} else {
		v.Preview = previewMembers(ctx, set.Boards, p.Members)
	}
	return s.renderTeamForm(c, status, v)
}

// TeamCreate saves a new team (or previews it).
func (s *Room) TeamCreate(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	return s.saveTeam(c, id, 0, teamsURL(id))
}

// TeamUpdate saves a team's changes at the version the form showed.
func (s *Room) TeamUpdate(c echo.Context) error {
	tid, err := site.PathParam(c, "team")
	if err != nil {
		return err
	}
	tv, _, err := s.Teams.TeamOf(c.Request().Context(), site.Actor(c), tid)
	if err != nil {
		return err
	}
	return s.saveTeam(c, tv.EventID, tid, "/teams/"+strconv.FormatInt(tid, 10))
}
