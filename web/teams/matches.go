package teams

import (
	"context"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/office/teams"
	"kisen/pairing"
	"kisen/web/site"
)

// A round's team matches (issue 25 item 3): each match with its boards —
// players, sente/gote, each board's result and the match score and result
// in words — the director's form pairing two teams at a table and the
// button starting a match once both orders are published; and the team
// standings with each tie-break's value.

type matchBoardRow struct {
	Board   int
	A, B    string // player names, "" for an empty board
	ASente  bool
	Result  string
	GameURL string
}

type matchCard struct {
	ID       int64
	Table    int
	A, B     string
	Score    string
	Result   string
	Forfeit  string
	Toss     string // the 振り駒's outcome in words
	Started  bool
	Version  int
	StartURL string
	Boards   []matchBoardRow
}

type teamChoice struct {
	ID    string
	Label string
}

type matchesView struct {
	EventName string
	RoundURL  string
	Standings string
	Round     int
	Published bool
	CanEdit   bool
	Action    string
	Teams     []teamChoice
	Errs      site.FieldMsgs
	Matches   []matchCard
	Bye       string // the team with the round's bye ("" none)
	// DeskURL is the desk's entry by table, for the event's staff once
	// the round has matches ("" otherwise); the desk itself admits its
	// director, arbiters and recorders (desk.go).
	DeskURL string
}

func matchesURL(roundID int64) string { return roundURL(roundID) + "/matches" }

// boardWords is a board's result in words: who won (and whether by
// forfeit), a draw, unplayed or still to finish.
func boardWords(ctx context.Context, o pairing.BoardOutcome, a, b string) string {
	switch o {
	case pairing.BoardA:
		return site.T(ctx, "teams.match.board_win", "Team", a)
	case pairing.BoardB:
		return site.T(ctx, "teams.match.board_win", "Team", b)
	case pairing.BoardAForfeit:
		return site.T(ctx, "teams.match.board_forfeit_win", "Team", a)
	case pairing.BoardBForfeit:
		return site.T(ctx, "teams.match.board_forfeit_win", "Team", b)
	case pairing.BoardDraw:
		return site.T(ctx, "teams.match.board_draw")
	case pairing.BoardUnplayed:
		return site.T(ctx, "teams.match.board_unplayed")
	}
	return site.T(ctx, "teams.match.board_pending")
}

func matchResultWords(ctx context.Context, r pairing.TeamMatchResult, a, b string) string {
	switch {
	case !r.Final:
		return site.T(ctx, "teams.match.pending", "N", r.Pending)
	case r.Outcome == pairing.TeamAWins:
		return site.T(ctx, "teams.match.won", "Team", a)
	case r.Outcome == pairing.TeamBWins:
		return site.T(ctx, "teams.match.won", "Team", b)
	}
	return site.T(ctx, "teams.match.drawn")
}

func (s *Room) matchesView(c echo.Context, roundID int64) (matchesView, error) {
	ctx := c.Request().Context()
	rv, err := s.Teams.RoundMatches(ctx, site.Actor(c), roundID)
	if err != nil {
		return matchesView{}, err
	}
	r := rv.Round
	v := matchesView{EventName: site.LocalName(ctx, r.Event.Name, r.Event.NameEn), RoundURL: roundURL(roundID),
		Standings: teamsURL(r.Event.ID) + "/standings", Round: r.Round.Number, Published: r.Published,
		CanEdit: r.Staff && s.Teams.RequireEditor(ctx, site.Actor(c), r.Event.ID) == nil, Action: matchesURL(roundID)}
	for _, ov := range r.Orders {
		v.Teams = append(v.Teams, teamChoice{ID: strconv.FormatInt(ov.Team.ID, 10), Label: site.LocalName(ctx, ov.Team.Name, ov.Team.NameEn)})
	}
	if r.Staff && len(rv.Matches) > 0 {
		v.DeskURL = deskURL(roundID)
	}
	for _, m := range rv.Matches {
		a, b := site.LocalName(ctx, m.A.Name, m.A.NameEn), site.LocalName(ctx, m.B.Name, m.B.NameEn)
		card := matchCard{ID: m.Match.ID, Table: m.Match.TableNo, A: a, B: b, Started: m.Match.Started, Version: m.Match.Version,
			StartURL: "/team-matches/" + strconv.FormatInt(m.Match.ID, 10) + "/start",
			Score:    site.T(ctx, "teams.match.score", "A", a, "B", b, "WA", m.Result.Wins[0], "WB", m.Result.Wins[1]),
			Result:   matchResultWords(ctx, m.Result, a, b)}
		if m.ForfeitTeam != "" {
			card.Forfeit = site.T(ctx, "teams.match.forfeit", "Team", m.ForfeitTeam)
		}
		if m.Match.Started && len(m.Boards) > 0 {
			first := a
			if !m.Boards[0].ASente {
				first = b
			}
			card.Toss = site.T(ctx, "teams.match.toss", "Team", first)
		}
		if m.Match.Started {
			for _, bd := range m.Boards {
				row := matchBoardRow{Board: bd.Board, A: bd.A.Name, B: bd.B.Name, ASente: bd.ASente, Result: boardWords(ctx, bd.Outcome, a, b)}
				if bd.GameID != 0 {
					row.GameURL = "/games/" + strconv.FormatInt(bd.GameID, 10)
				}
				card.Boards = append(card.Boards, row)
			}
		}
		v.Matches = append(v.Matches, card)
	}
	bye, ok, err := s.Teams.RoundBye(ctx, r.Event.ID, roundID)
	if err != nil {
		return matchesView{}, err
	}
	if ok {
		v.Bye = site.LocalName(ctx, bye.Name, bye.NameEn)
	}
	site.MarkDraft(c, office.IsDraft(r.Event))
	return v, nil
}

// TeamMatchesPage is a round's matches.
func (s *Room) TeamMatchesPage(c echo.Context) error {
	rid, err := site.PathParam(c, "round")
	if err != nil {
		return err
	}
	v, err := s.matchesView(c, rid)
	if err != nil {
		return err
	}
	return s.renderMatches(c, http.StatusOK, v)
}

func (s *Room) renderMatches(c echo.Context, status int, v matchesView) error {
	c.Response().Header().Set("Cache-Control", "no-store")
	return s.Render(c, status, TeamMatchesPage(s.Page(c, site.T(c.Request().Context(), "teams.matches.title", "Event", v.EventName, "N", v.Round)), v))
}

// TeamMatchCreate pairs two teams at a table (the director).
func (s *Room) TeamMatchCreate(c echo.Context) error {
	ctx := c.Request().Context()
	rid, err := site.PathParam(c, "round")
	if err != nil {
		return err
	}
	table, terr := strconv.Atoi(c.FormValue("table"))
	if terr != nil {
		table = 0 // refused in words by the office
	}
	a, _ := strconv.ParseInt(c.FormValue("team_a"), 10, 64)
	b, _ := strconv.ParseInt(c.FormValue("team_b"), 10, 64)
	_, err = s.Teams.CreateMatch(ctx, site.Actor(c), teams.MatchInput{RoundID: rid, Table: table, TeamA: a, TeamB: b})
	if msgs, bad := site.FieldMsgsOf(ctx, err); bad {
		v, verr := s.matchesView(c, rid)
		if verr != nil {
			return verr
		}
		v.Errs = msgs
		return s.renderMatches(c, http.StatusUnprocessableEntity, v)
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, matchesURL(rid))
}

// TeamMatchStart starts a match at the version the page showed (stale: 409).
func (s *Room) TeamMatchStart(c echo.Context) error {
	ctx := c.Request().Context()
	mid, err := site.PathParam(c, "match")
	if err != nil {
		return err
	}
	version, _ := strconv.Atoi(c.FormValue("version"))
	m, err := s.Teams.StartMatch(ctx, site.Actor(c), mid, version)
	if msgs, bad := site.FieldMsgsOf(ctx, err); bad {
		v, verr := s.matchesView(c, m.RoundID)
		if verr != nil {
			return verr
		}
		v.Errs = msgs
		return s.renderMatches(c, http.StatusUnprocessableEntity, v)
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, matchesURL(m.RoundID))
}

type standingsLine struct {
	Rank               int
	Team               string
	Played, Won, Drawn int
	Lost, Pending      int
	MatchPoints        string
	BoardWins, Byes    int
	Tiebreaks          []string
}

type standingsView struct {
	EventName string
	TeamsURL  string
	Rounds    int
	Tiebreaks []string // column headings
	Points    string   // the organiser's match points in words
	Scoring   string   // the director's scoring form ("" for everyone else)
	Lines     []standingsLine
}

// TeamStandingsPage is the team standings.
func (s *Room) TeamStandingsPage(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	sv, err := s.Teams.Standings(ctx, site.Actor(c), id)
	if err != nil {
		return err
	}
	v := standingsView{EventName: site.LocalName(ctx, sv.Event.Name, sv.Event.NameEn), TeamsURL: teamsURL(id), Rounds: sv.Rounds}
	v.Points, v.Scoring = s.scoringWords(c, sv)
	for _, tb := range sv.Scoring.Tiebreaks {
		v.Tiebreaks = append(v.Tiebreaks, site.T(ctx, "teams.tiebreak."+string(tb)))
	}
	for _, l := range sv.Lines {
		tm := sv.Teams[l.ID]
		line := standingsLine{Rank: l.Rank, Team: site.LocalName(ctx, tm.Name, tm.NameEn), Played: l.Played, Won: l.Won, Drawn: l.Drawn,
			Lost: l.Lost, Pending: l.Pending, MatchPoints: sv.Scoring.Shown(l.MatchPoints), BoardWins: l.BoardWins, Byes: l.Byes}
		for _, tb := range l.Tiebreaks {
			line.Tiebreaks = append(line.Tiebreaks, tiebreakShown(sv.Scoring, tb))
		}
		v.Lines = append(v.Lines, line)
	}
	site.MarkDraft(c, office.IsDraft(sv.Event))
	c.Response().Header().Set("Cache-Control", "no-store")
	return s.Render(c, http.StatusOK, TeamStandingsPage(s.Page(c, site.T(ctx, "teams.standings.title", "Event", v.EventName)), v))
}

// colourWord is 先手 or 後手 in the reader's language.
func colourWord(ctx context.Context, sente bool) string {
	if sente {
		return site.T(ctx, "teams.match.sente")
	}
	return site.T(ctx, "teams.match.gote")
}
