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

// The desk's match entry (issue 25 item 5, docs/team-matches.md): on a
// phone, a round's table number typed or picked, that match's boards each
// with one big button per outcome; one tap stores one board's result with
// the version the page showed (stale: 409), through
// teams.EnterDeskResult. The match's score and result, derived from the
// boards, head the page.

// TeamDeskRoutes registers the desk's pages (called from web/routes.go).
func (s *Room) TeamDeskRoutes(e *echo.Echo) {
	e.GET("/team-rounds/:round/desk", s.TeamDeskPage, site.RequireUser)
	e.POST("/team-rounds/:round/desk/:table/:board", s.TeamDeskResult, site.RequireUser)
}

func deskURL(roundID int64) string { return roundURL(roundID) + "/desk" }

func deskTableURL(roundID int64, table int) string {
	return deskURL(roundID) + "?table=" + strconv.Itoa(table)
}

type deskButton struct {
	Outcome string
	Label   string
}

type deskBoardRow struct {
	Board     int
	Sente     string
	Gote      string
	Result    string // the board's result in words once in
	Enterable bool
	Waiting   string // why a board takes no tap ("" none)
	GameID    int64
	Version   int
	Action    string
	GameURL   string
	Buttons   []deskButton
}

type deskTable struct {
	Table  int
	A, B   string
	Score  string
	Result string
	URL    string
}

type deskView struct {
	EventName string
	RoundURL  string
	Round     int
	URL       string
	Tables    []deskTable
	Only      int  // the table typed or picked (0: none yet)
	NotFound  bool // the typed table is not in this round
	Match     *deskTable
	Forfeit   string
	NotStart  bool // the match is not started yet
	Boards    []deskBoardRow
	Message   string // a refused tap's message (422)
}

// TeamDeskPage is the desk's page of a round (a table chosen or not).
func (s *Room) TeamDeskPage(c echo.Context) error {
	v, err := s.deskView(c)
	if err != nil {
		return err
	}
	return s.renderDesk(c, http.StatusOK, v)
}

func (s *Room) renderDesk(c echo.Context, status int, v deskView) error {
	c.Response().Header().Set("Cache-Control", "no-store")
	ctx := c.Request().Context()
	return s.Render(c, status, TeamDeskPageView(s.Page(c, site.T(ctx, "teams.desk.title", "Event", v.EventName, "N", v.Round)), v))
}

func (s *Room) deskView(c echo.Context) (deskView, error) {
	ctx := c.Request().Context()
	rid, err := site.PathParam(c, "round")
	if err != nil {
		return deskView{}, err
	}
	dv, err := s.Teams.DeskRound(ctx, site.Actor(c), rid)
	site.MarkDraft(c, dv.Event.ID != 0 && office.IsDraft(dv.Event))
	if err != nil {
		return deskView{}, err
	}
	r := dv.Round
	v := deskView{EventName: site.LocalName(ctx, r.Event.Name, r.Event.NameEn), RoundURL: roundURL(rid), Round: r.Round.Number, URL: deskURL(rid)}
	tables := map[int]deskTable{}
	for _, m := range dv.Matches {
		a, b := site.LocalName(ctx, m.A.Name, m.A.NameEn), site.LocalName(ctx, m.B.Name, m.B.NameEn)
		t := deskTable{Table: m.Match.TableNo, A: a, B: b, URL: deskTableURL(rid, m.Match.TableNo),
			Score:  site.T(ctx, "teams.match.score", "A", a, "B", b, "WA", m.Result.Wins[0], "WB", m.Result.Wins[1]),
			Result: matchResultWords(ctx, m.Result, a, b)}
		if !m.Match.Started {
			t.Result = site.T(ctx, "teams.desk.not_started")
		}
		tables[t.Table] = t
		v.Tables = append(v.Tables, t)
	}
	q := strings.TrimSpace(c.QueryParam("table"))
	if p := c.Param("table"); p != "" {
		q = p
	}
	if q == "" {
		return v, nil
	}
	n, err := strconv.Atoi(q)
	v.Only, v.NotFound = n, true
	if err != nil {
		return v, nil
	}
	m, ok := dv.Match(n)
	if !ok {
		return v, nil
	}
	v.NotFound = false
	t := tables[n]
	v.Match = &t
	v.NotStart = !m.Match.Started
	if m.ForfeitTeam != "" {
		v.Forfeit = site.T(ctx, "teams.match.forfeit", "Team", m.ForfeitTeam)
	}
	action := deskURL(rid) + "/" + strconv.Itoa(n) + "/"
	for _, b := range m.Boards {
		row := deskBoardRow{Board: b.Board, Sente: b.Sente.Name, Gote: b.Gote.Name, GameID: b.LastGameID, Version: b.Version,
			Action: action + strconv.Itoa(b.Board), Enterable: b.Enterable()}
		if b.Sente.Name == "" {
			row.Sente = site.T(ctx, "teams.desk.empty")
		}
		if b.Gote.Name == "" {
			row.Gote = site.T(ctx, "teams.desk.empty")
		}
		if b.LastGameID != 0 {
			row.GameURL = site.GameURL(b.LastGameID)
		}
		switch {
		case row.Enterable:
			for _, o := range teams.DeskOutcomes {
				row.Buttons = append(row.Buttons, deskButton{Outcome: o, Label: site.T(ctx, "teams.desk.outcome."+o)})
			}
			if b.LastGameID != b.GameID {
				row.Waiting = site.T(ctx, "teams.desk.replay")
			}
		case b.Redo:
			row.Waiting = site.T(ctx, "teams.desk.redo_waiting")
		default:
			row.Result = boardWords(ctx, b.Outcome, t.A, t.B)
		}
		v.Boards = append(v.Boards, row)
	}
	return v, nil
}

// TeamDeskResult is one tap: a board's outcome at the version seen.
func (s *Room) TeamDeskResult(c echo.Context) error {
	ctx := c.Request().Context()
	rid, err := site.PathParam(c, "round")
	if err != nil {
		return err
	}
	table, err1 := strconv.Atoi(c.Param("table"))
	board, err2 := strconv.Atoi(c.Param("board"))
	if err1 != nil || err2 != nil {
		return echo.NewHTTPError(http.StatusNotFound)
	}
	gameID, gerr := site.FormVersion(c, "game_id")
	version, verr := site.SeenVersion(c)
	if gerr != nil || verr != nil {
		// Who may enter first (permission before validation): a refused
		// principal never hears about the form.
		if _, err := s.Teams.DeskRound(ctx, site.Actor(c), rid); err != nil {
			return err
		}
		if gerr != nil {
			return gerr
		}
		return verr
	}
	err = s.Teams.EnterDeskResult(ctx, site.Actor(c), teams.DeskResultInput{RoundID: rid, Table: table, Board: board,
		GameID: gameID, Version: version, Outcome: c.FormValue("outcome")})
	if msgs, bad := site.FieldMsgsOf(ctx, err); bad {
		v, verr := s.deskView(c)
		if verr != nil {
			return verr
		}
		for _, k := range []string{"result", "outcome", ""} {
			if m := msgs[k]; m != "" {
				v.Message = m
				break
			}
		}
		if v.Message == "" {
			for _, m := range msgs {
				v.Message = m
				break
			}
		}
		return s.renderDesk(c, http.StatusUnprocessableEntity, v)
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, deskTableURL(rid, table)+"#board-"+strconv.Itoa(board))
}
