package teams

import (
	"context"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/office/teams"
	"kisen/web/site"
)

// The read side of a team event (issue 25 items 5 and 6,
// docs/team-matches.md): the crosstable of teams, each team's page with
// its players' board records and 全勝 marks, and the individual prizes
// (全勝賞, 個人賞 by board) with the rule in words. Every page reads the
// event's records once (office/teams/records.go): a fixed number of
// statements for any number of teams.

// TeamRecordRoutes registers the crosstable, prizes, team pages and the
// paper (called from web/routes.go).
func (s *Room) TeamRecordRoutes(e *echo.Echo) {
	e.GET("/events/:id/teams/crosstable", s.TeamCrosstablePage)
	e.GET("/events/:id/teams/prizes", s.TeamPrizesPage)
	e.GET("/teams/:team", s.TeamPage)
	e.GET("/team-rounds/:round/teams/:team/print", s.TeamOrderForm)
	e.GET("/team-rounds/:round/slips", s.TeamRoundSlips)
	e.GET("/team-matches/:match/slip", s.TeamMatchSlip)
}

func teamURL(teamID int64) string { return "/teams/" + strconv.FormatInt(teamID, 10) }

type recordLinks struct {
	TeamsURL, StandingsURL, CrossURL, PrizesURL string
}

func linksOf(eventID int64) recordLinks {
	b := teamsURL(eventID)
	return recordLinks{TeamsURL: b, StandingsURL: b + "/standings", CrossURL: b + "/crosstable", PrizesURL: b + "/prizes"}
}

// crossMark is one match in a crosstable cell: ○4-1, ●1-4, △2-2, or in
// play with the score so far.
func crossMark(ctx context.Context, c teams.CrossCell) string {
	return site.T(ctx, "team_records.cross."+c.Outcome, "For", c.For, "Against", c.Against)
}

type crossCell struct {
	Self  bool
	Marks []crossLink
}

type crossLink struct {
	Mark, URL, Title string
}

type crossRow struct {
	No                     int
	Team, URL              string
	Cells                  []crossCell
	Won, Lost, Drawn       int
	BoardWins, BoardLosses int
	Pending                int
}

type crossView struct {
	recordLinks
	EventName string
	Rounds    int
	Heads     []crossRow // number and name only
	Rows      []crossRow
}

// TeamCrosstablePage is the crosstable of teams (each against each): the
// match result and board score in every cell, from the rounds counted.
func (s *Room) TeamCrosstablePage(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	rv, err := s.Teams.EventRecords(ctx, site.Actor(c), id)
	if err != nil {
		return err
	}
	v := crossView{recordLinks: linksOf(id), EventName: site.LocalName(ctx, rv.Event.Name, rv.Event.NameEn), Rounds: len(rv.Rounds)}
	for i, a := range rv.Teams {
		name := site.LocalName(ctx, a.Name, a.NameEn)
		tot := rv.Totals[a.ID]
		row := crossRow{No: i + 1, Team: name, URL: teamURL(a.ID), Won: tot.Won, Lost: tot.Lost, Drawn: tot.Drawn,
			BoardWins: tot.BoardWins, BoardLosses: tot.BoardLosses, Pending: tot.Pending}
		v.Heads = append(v.Heads, crossRow{No: i + 1, Team: name})
		for _, b := range rv.Teams {
			cell := crossCell{Self: a.ID == b.ID}
			for _, cc := range rv.Cross[a.ID][b.ID] {
				cell.Marks = append(cell.Marks, crossLink{Mark: crossMark(ctx, cc), URL: matchesURL(roundIDOf(rv.Rounds, cc.Round)),
					Title: site.T(ctx, "teams.round_n", "N", cc.Round)})
			}
			row.Cells = append(row.Cells, cell)
		}
		v.Rows = append(v.Rows, row)
	}
	site.MarkDraft(c, office.IsDraft(rv.Event))
	c.Response().Header().Set("Cache-Control", "no-store")
	return s.Render(c, http.StatusOK, TeamCrosstablePage(s.Page(c, site.T(ctx, "team_records.cross.title", "Event", v.EventName)), v))
}

func roundIDOf(rounds []teams.Round, number int) int64 {
	for _, r := range rounds {
		if r.Number == number {
			return r.ID
		}
	}
	return 0
}

// resultWord is one board's result for one player in words.
func resultWord(ctx context.Context, r teams.PlayerResult) string {
	return site.T(ctx, "team_records.result."+string(r))
}

// recordWords is a record as 「3勝1敗」 (draws and boards in play when any).
func recordWords(ctx context.Context, w, l, d, pending int) string {
	out := site.T(ctx, "team_records.record", "W", w, "L", l)
	if d > 0 {
		out += site.T(ctx, "team_records.record_draws", "N", d)
	}
	if pending > 0 {
		out += site.T(ctx, "team_records.record_pending", "N", pending)
	}
	return out
}

type gameCell struct {
	Board    string
	Result   string
	Opponent string
	URL      string
	Win      bool
}

type playerLine struct {
	Name, Rank, Team, TeamURL string
	Reserve                   bool
	Rounds                    []gameCell // one per round counted ("" when he did not play)
	ByBoard                   []string
	Record                    string
	MainBoard                 string
	Sweep                     bool
}

func playerLineOf(ctx context.Context, rounds []teams.Round, p teams.PlayerRecord) playerLine {
	l := playerLine{Name: p.Member.Name, Rank: site.RankLabel(ctx, p.Member.Rank), Team: site.LocalName(ctx, p.Team.Name, p.Team.NameEn),
		TeamURL: teamURL(p.Team.ID), Reserve: p.Reserve, Sweep: p.Sweep, Record: recordWords(ctx, p.Wins, p.Losses, p.Draws, p.Pending)}
	if p.MainBoard > 0 {
		l.MainBoard = site.T(ctx, "teams.board_n", "N", p.MainBoard)
	}
	for _, r := range rounds {
		var cell gameCell
		for _, g := range p.Games {
			if g.Round != r.Number {
				continue
			}
			cell = gameCell{Board: site.T(ctx, "teams.board_n", "N", g.Board), Result: resultWord(ctx, g.Result), Opponent: g.Opponent,
				Win: g.Result == teams.PlayerWin || g.Result == teams.PlayerForfeitWin}
			if g.GameID != 0 {
				cell.URL = "/games/" + strconv.FormatInt(g.GameID, 10)
			}
		}
		l.Rounds = append(l.Rounds, cell)
	}
	for _, bt := range p.ByBoard {
		l.ByBoard = append(l.ByBoard, site.T(ctx, "teams.board_n", "N", bt.Board)+" "+recordWords(ctx, bt.Wins, bt.Losses, bt.Draws, 0))
	}
	return l
}

type teamMatchLine struct {
	Round    int
	Table    int
	Opponent string
	OppURL   string
	Score    string
	Result   string
	URL      string
	SlipURL  string
}

type teamPageView struct {
	recordLinks
	EventName   string
	Team        string
	Affiliation string
	Kind        string
	Rounds      []int
	Players     []playerLine
	Matches     []teamMatchLine
	Sheets      []sheetLink
}

type sheetLink struct {
	Round int
	URL   string
}

// TeamPage is one team: its matches by round and each player's board
// record (by round and by board) with the 全勝 marks.
func (s *Room) TeamPage(c echo.Context) error {
	ctx := c.Request().Context()
	tid, err := site.PathParam(c, "team")
	if err != nil {
		return err
	}
	tr, err := s.Teams.TeamRecords(ctx, site.Actor(c), tid)
	if err != nil {
		return err
	}
	v := teamPageView{recordLinks: linksOf(tr.Event.ID), EventName: site.LocalName(ctx, tr.Event.Name, tr.Event.NameEn),
		Team: site.LocalName(ctx, tr.Team.Name, tr.Team.NameEn), Affiliation: tr.Team.Affiliation, Kind: site.T(ctx, "teams.kind."+tr.Team.AffiliationKind)}
	for _, r := range tr.Rounds {
		v.Rounds = append(v.Rounds, r.Number)
	}
	for _, p := range tr.Players {
		v.Players = append(v.Players, playerLineOf(ctx, tr.Rounds, p))
	}
	for _, m := range tr.Matches {
		opp, we, they := m.B, 0, 1
		if m.Match.TeamBID == tid {
			opp, we, they = m.A, 1, 0
		}
		line := teamMatchLine{Round: m.Round, Table: m.Match.TableNo, Opponent: site.LocalName(ctx, opp.Name, opp.NameEn), OppURL: teamURL(opp.ID),
			URL: matchesURL(roundIDOf(tr.Rounds, m.Round)), SlipURL: "/team-matches/" + strconv.FormatInt(m.Match.ID, 10) + "/slip"}
		line.Score = site.T(ctx, "team_records.score", "For", m.Result.Wins[we], "Against", m.Result.Wins[they])
		a, b := site.LocalName(ctx, m.A.Name, m.A.NameEn), site.LocalName(ctx, m.B.Name, m.B.NameEn)
		line.Result = matchResultWords(ctx, m.Result, a, b)
		if !m.Match.Started {
			line.Result = site.T(ctx, "team_records.not_started")
		}
		v.Matches = append(v.Matches, line)
	}
	rounds, err := s.Teams.Rounds(ctx, site.Actor(c), tr.Event.ID)
	if err != nil {
		return err
	}
	for _, r := range rounds {
		v.Sheets = append(v.Sheets, sheetLink{Round: r.Number, URL: orderURL(r.ID, tid) + "/print"})
	}
	site.MarkDraft(c, office.IsDraft(tr.Event))
	c.Response().Header().Set("Cache-Control", "no-store")
	return s.Render(c, http.StatusOK, TeamPage(s.Page(c, site.T(ctx, "team_records.team.title", "Team", v.Team, "Event", v.EventName)), v))
}

type prizeLine struct {
	Board   string
	Record  string
	Shared  bool
	Players []playerLine
}

type prizesView struct {
	recordLinks
	EventName string
	Rounds    []int
	Sweeps    []playerLine
	Prizes    []prizeLine
	Players   []playerLine // every player who sat at a board, by main board
}

// TeamPrizesPage is the individual prizes: 全勝賞 and 個人賞 by board (ties
// shown as ties), the rule in words, and every player's record.
func (s *Room) TeamPrizesPage(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	rv, err := s.Teams.EventRecords(ctx, site.Actor(c), id)
	if err != nil {
		return err
	}
	v := prizesView{recordLinks: linksOf(id), EventName: site.LocalName(ctx, rv.Event.Name, rv.Event.NameEn)}
	for _, r := range rv.Rounds {
		v.Rounds = append(v.Rounds, r.Number)
	}
	for _, p := range rv.Sweeps {
		v.Sweeps = append(v.Sweeps, playerLineOf(ctx, rv.Rounds, p))
	}
	for _, p := range rv.Prizes {
		pl := prizeLine{Board: site.T(ctx, "teams.board_n", "N", p.Board), Shared: len(p.Winners) > 1}
		if len(p.Winners) > 0 {
			pl.Record = recordWords(ctx, p.Wins, p.Losses, 0, 0)
		}
		for _, w := range p.Winners {
			pl.Players = append(pl.Players, playerLineOf(ctx, rv.Rounds, w))
		}
		v.Prizes = append(v.Prizes, pl)
	}
	for b := 1; b <= rv.Settings.Boards; b++ {
		for _, p := range rv.Players {
			if p.MainBoard == b {
				v.Players = append(v.Players, playerLineOf(ctx, rv.Rounds, p))
			}
		}
	}
	site.MarkDraft(c, office.IsDraft(rv.Event))
	c.Response().Header().Set("Cache-Control", "no-store")
	return s.Render(c, http.StatusOK, TeamPrizesPage(s.Page(c, site.T(ctx, "team_records.prizes.title", "Event", v.EventName)), v))
}
