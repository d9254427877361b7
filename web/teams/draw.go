package teams

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/office/teams"
	"kisen/pairing"
	"kisen/web/site"
)

// Drawing a team Swiss round and the organiser's match points and tie-break
// order (issue 25, docs/team-matches.md): the director's draw page previews
// the round in team names with tables and the bye, and its button writes
// it at the version seen (stale: 409 with the fresh preview); the scoring
// form sets win/draw/loss/bye points and the tie-breaks in order.

// DrawRoutes registers the draw and the scoring form (called from
// TeamRoutes).
func (s *Room) DrawRoutes(e *echo.Echo) {
	e.GET("/team-rounds/:round/draw", s.TeamDrawPage, site.RequireUser)
	e.POST("/team-rounds/:round/draw", s.TeamDrawConfirm, site.RequireUser)
	e.GET("/events/:id/teams/scoring", s.TeamScoringPage, site.RequireUser)
	e.POST("/events/:id/teams/scoring", s.TeamScoringSave, site.RequireUser)
}

func drawURL(roundID int64) string { return roundURL(roundID) + "/draw" }

type drawRow struct {
	Table            int
	A, B             string
	APoints, BPoints string
	Same             bool
}

type drawView struct {
	EventName   string
	RoundURL    string
	MatchesURL  string
	ScoringURL  string
	Action      string
	Round       int
	Rows        []drawRow
	Bye         string
	ByePoints   string
	Version     int
	Fingerprint string
	Msgs        site.FieldMsgs // a refusal in words: no confirm button
	Stale       bool
}

func (s *Room) drawView(c echo.Context, roundID int64) (drawView, error) {
	ctx := c.Request().Context()
	p, err := s.Teams.PreviewDraw(ctx, site.Actor(c), roundID)
	msgs, bad := site.FieldMsgsOf(ctx, err)
	if err != nil && !bad {
		return drawView{}, err
	}
	v := drawView{EventName: site.LocalName(ctx, p.Event.Name, p.Event.NameEn), RoundURL: roundURL(roundID), MatchesURL: matchesURL(roundID),
		ScoringURL: teamsURL(p.Event.ID) + "/scoring", Action: drawURL(roundID), Round: p.Round.Number, Version: p.Round.Version,
		Fingerprint: p.Fingerprint, Msgs: msgs}
	if bad {
		return v, nil
	}
	for _, m := range p.Matches {
		v.Rows = append(v.Rows, drawRow{Table: m.Table, A: site.LocalName(ctx, m.A.Name, m.A.NameEn), B: site.LocalName(ctx, m.B.Name, m.B.NameEn),
			APoints: p.Scoring.Shown(m.APoints), BPoints: p.Scoring.Shown(m.BPoints), Same: m.SameAffiliation})
	}
	if p.Bye != nil {
		v.Bye, v.ByePoints = site.LocalName(ctx, p.Bye.Name, p.Bye.NameEn), teams.HalfPoints(p.Scoring.Points.Bye)
	}
	site.MarkDraft(c, office.IsDraft(p.Event))
	return v, nil
}

func (s *Room) renderDraw(c echo.Context, status int, v drawView) error {
	c.Response().Header().Set("Cache-Control", "no-store")
	return s.Render(c, status, TeamDrawPage(s.Page(c, site.T(c.Request().Context(), "teams.draw.title", "Event", v.EventName, "N", v.Round)), v))
}

// TeamDrawPage previews the round's team Swiss draw (the director).
func (s *Room) TeamDrawPage(c echo.Context) error {
	rid, err := site.PathParam(c, "round")
	if err != nil {
		return err
	}
	v, err := s.drawView(c, rid)
	if err != nil {
		return err
	}
	return s.renderDraw(c, http.StatusOK, v)
}

// TeamDrawConfirm writes the previewed round (stale: 409 with the fresh
// preview; a refusal: 422 in words).
func (s *Room) TeamDrawConfirm(c echo.Context) error {
	ctx := c.Request().Context()
	rid, err := site.PathParam(c, "round")
	if err != nil {
		return err
	}
	version, _ := strconv.Atoi(c.FormValue("version"))
	_, err = s.Teams.ConfirmDraw(ctx, site.Actor(c), teams.DrawInput{RoundID: rid, Version: version, Fingerprint: c.FormValue("fingerprint")})
	switch msgs, bad := site.FieldMsgsOf(ctx, err); {
	case bad:
		v, verr := s.drawView(c, rid)
		if verr != nil {
			return verr
		}
		v.Msgs = msgs
		return s.renderDraw(c, http.StatusUnprocessableEntity, v)
	case errors.Is(err, office.ErrConflict):
		v, verr := s.drawView(c, rid)
		if verr != nil {
			return verr
		}
		v.Stale = true
		return s.renderDraw(c, http.StatusConflict, v)
	case err != nil:
		return err
	}
	return site.SeeOther(c, matchesURL(rid))
}

type tiebreakPlace struct {
	Field    string
	Label    string
	Selected string
}

type scoringView struct {
	EventName    string
	TeamsURL     string
	StandingsURL string
	Action       string
	Version      int
	Boards       int
	Win, Draw    string
	Loss, Bye    string
	ByeBoardWins string
	Places       []tiebreakPlace
	Options      []site.Choice
	Errs         site.FieldMsgs
}

func (s *Room) scoringView(c echo.Context, eventID int64) (scoringView, error) {
	ctx := c.Request().Context()
	if err := s.Teams.RequireEditor(ctx, site.Actor(c), eventID); err != nil {
		return scoringView{}, err
	}
	e, st, sc, err := s.Teams.EventScoring(ctx, site.Actor(c), eventID)
	if err != nil {
		return scoringView{}, err
	}
	v := scoringView{EventName: site.LocalName(ctx, e.Name, e.NameEn), TeamsURL: teamsURL(eventID), StandingsURL: teamsURL(eventID) + "/standings",
		Action: teamsURL(eventID) + "/scoring", Version: sc.Version, Boards: st.Boards,
		Win: teams.HalfPoints(sc.Points.Win), Draw: teams.HalfPoints(sc.Points.Draw), Loss: teams.HalfPoints(sc.Points.Loss),
		Bye: teams.HalfPoints(sc.Points.Bye), ByeBoardWins: strconv.Itoa(sc.ByeBoardWins)}
	v.Options = append(v.Options, site.Choice{Value: "", Label: site.T(ctx, "teams.scoring.none")})
	for _, tb := range teams.Tiebreaks() {
		v.Options = append(v.Options, site.Choice{Value: string(tb), Label: site.T(ctx, "teams.tiebreak."+string(tb))})
	}
	for i := range teams.Tiebreaks() {
		p := tiebreakPlace{Field: "tiebreak_" + strconv.Itoa(i+1), Label: site.T(ctx, "teams.scoring.place", "N", i+1)}
		if i < len(sc.Tiebreaks) {
			p.Selected = string(sc.Tiebreaks[i])
		}
		v.Places = append(v.Places, p)
	}
	site.MarkDraft(c, office.IsDraft(e))
	return v, nil
}

func (s *Room) renderScoring(c echo.Context, status int, v scoringView) error {
	c.Response().Header().Set("Cache-Control", "no-store")
	return s.Render(c, status, TeamScoringPage(s.Page(c, site.T(c.Request().Context(), "teams.scoring.title", "Event", v.EventName)), v))
}

// TeamScoringPage is the match points and tie-break form (the director).
func (s *Room) TeamScoringPage(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	v, err := s.scoringView(c, id)
	if err != nil {
		return err
	}
	return s.renderScoring(c, http.StatusOK, v)
}

// TeamScoringSave stores the form at the version seen (stale: 409; bad
// input: 422 in words, nothing written).
func (s *Room) TeamScoringSave(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	version, _ := strconv.Atoi(c.FormValue("version"))
	in := teams.ScoringInput{EventID: id, Version: version, Win: c.FormValue("win"), Draw: c.FormValue("draw"), Loss: c.FormValue("loss"),
		Bye: c.FormValue("bye"), ByeBoardWins: c.FormValue("bye_board_wins")}
	for i := range teams.Tiebreaks() {
		in.Tiebreaks = append(in.Tiebreaks, c.FormValue("tiebreak_"+strconv.Itoa(i+1)))
	}
	_, err = s.Teams.UpdateScoring(ctx, site.Actor(c), in)
	if msgs, bad := site.FieldMsgsOf(ctx, err); bad {
		v, verr := s.scoringView(c, id)
		if verr != nil {
			return verr
		}
		// The form as typed, with the messages.
		v.Win, v.Draw, v.Loss, v.Bye, v.ByeBoardWins, v.Errs = in.Win, in.Draw, in.Loss, in.Bye, in.ByeBoardWins, msgs
		for i := range v.Places {
			v.Places[i].Selected = in.Tiebreaks[i]
		}
		return s.renderScoring(c, http.StatusUnprocessableEntity, v)
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, teamsURL(id)+"/standings")
}

// tiebreakShown is a tie-break's value as the reader knows it.
func tiebreakShown(sc teams.Scoring, v pairing.TeamTiebreakValue) string {
	if v.Tiebreak == pairing.TeamTiebreakDirect && !v.Applied {
		return "–"
	}
	return strconv.FormatFloat(sc.ShownTiebreak(v), 'f', -1, 64)
}

// scoringWords is the standings' line on the organiser's points, and the
// scoring form's address for the director.
func (s *Room) scoringWords(c echo.Context, sv teams.StandingsView) (string, string) {
	ctx := c.Request().Context()
	p := sv.Scoring.Points
	words := site.T(ctx, "teams.standings.points", "Win", teams.HalfPoints(p.Win), "Draw", teams.HalfPoints(p.Draw),
		"Loss", teams.HalfPoints(p.Loss), "Bye", teams.HalfPoints(p.Bye))
	if site.Actor(c).UserID == 0 || s.Teams.RequireEditor(ctx, site.Actor(c), sv.Event.ID) != nil {
		return words, ""
	}
	return words, teamsURL(sv.Event.ID) + "/scoring"
}
