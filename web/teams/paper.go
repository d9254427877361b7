package teams

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/web/site"
)

// The team event's paper (issue 25 item 5, docs/team-matches.md), in the
// style of the day's printed sheets (static/day-paper.css): one team's
// order sheet (オーダー用紙) for a round — the roster with a blank box per
// board, or the order handed in once the reader may see it — and the match
// result slip (対戦結果票) of a match or of every match of a round: boards,
// players, a box per board for the result, the score and the signatures.

type sheetBoard struct {
	Board         string
	Name, Rank    string
	Reserve, Fill bool // Fill: the order is shown (else a blank box)
	Forfeit       bool
}

type sheetMember struct {
	No         int
	Name, Rank string
	Reserve    bool
}

type orderFormView struct {
	EventName   string
	BackURL     string
	Round       int
	Team        string
	Affiliation string
	Rule        string
	Deadline    string
	Filled      bool
	Boards      []sheetBoard
	Members     []sheetMember
}

// TeamOrderForm is one team's order sheet for a round, to print.
func (s *Room) TeamOrderForm(c echo.Context) error {
	ctx := c.Request().Context()
	rid, err := site.PathParam(c, "round")
	if err != nil {
		return err
	}
	tid, err := site.PathParam(c, "team")
	if err != nil {
		return err
	}
	sv, err := s.Teams.OrderSheet(ctx, site.Actor(c), rid, tid)
	if err != nil {
		return err
	}
	rv := sv.Round
	v := orderFormView{EventName: site.LocalName(ctx, rv.Event.Name, rv.Event.NameEn), BackURL: teamURL(tid), Round: rv.Round.Number,
		Team: site.LocalName(ctx, sv.Team.Name, sv.Team.NameEn), Affiliation: sv.Team.Affiliation, Rule: ruleWord(ctx, rv.Settings.OrderRule),
		Deadline: site.ShowTime(rv.Round.Deadline), Filled: sv.Order != nil}
	for i := range rv.Settings.Boards {
		b := sheetBoard{Board: site.T(ctx, "teams.board_n", "N", i+1)}
		if sv.Order != nil && i < len(sv.Order.Boards) {
			ob := sv.Order.Boards[i]
			b.Fill, b.Forfeit, b.Name, b.Rank, b.Reserve = true, ob.PlayerID == 0, ob.Name, site.RankLabel(ctx, ob.Rank), ob.Reserve
		}
		v.Boards = append(v.Boards, b)
	}
	for i, m := range sv.Team.Members {
		v.Members = append(v.Members, sheetMember{No: i + 1, Name: m.Name, Rank: site.RankLabel(ctx, m.Rank), Reserve: m.Reserve})
	}
	site.MarkDraft(c, office.IsDraft(rv.Event))
	c.Response().Header().Set("Cache-Control", "no-store")
	return s.Render(c, http.StatusOK, TeamOrderForm(s.Page(c, site.T(ctx, "team_records.form.title", "Team", v.Team, "N", v.Round)), v))
}

type slipBoard struct {
	Board  string
	A, B   string // names ("" a blank line)
	ARank  string
	BRank  string
	Colour bool   // the colours are known
	ASide  string // 先手 / 後手 when known
	BSide  string
}

type slipMatch struct {
	Table   int
	A, B    string
	Boards  []slipBoard
	Toss    string
	Forfeit string
}

type slipsView struct {
	EventName string
	BackURL   string
	Round     int
	Matches   []slipMatch
}

func (s *Room) renderTeamSlips(c echo.Context, roundID, matchID int64) error {
	ctx := c.Request().Context()
	sv, err := s.Teams.MatchSlips(ctx, site.Actor(c), roundID, matchID)
	if err != nil {
		return err
	}
	r := sv.Round.Round
	v := slipsView{EventName: site.LocalName(ctx, r.Event.Name, r.Event.NameEn), BackURL: matchesURL(roundID), Round: r.Round.Number}
	for _, m := range sv.Matches {
		a, b := site.LocalName(ctx, m.A.Name, m.A.NameEn), site.LocalName(ctx, m.B.Name, m.B.NameEn)
		sm := slipMatch{Table: m.Match.TableNo, A: a, B: b}
		if m.ForfeitTeam != "" {
			sm.Forfeit = site.T(ctx, "teams.match.forfeit", "Team", m.ForfeitTeam)
		}
		if m.Colours && len(m.Boards) > 0 {
			first := a
			if !m.Boards[0].ASente {
				first = b
			}
			sm.Toss = site.T(ctx, "teams.match.toss", "Team", first)
		}
		for _, bd := range m.Boards {
			row := slipBoard{Board: site.T(ctx, "teams.board_n", "N", bd.Board), A: bd.A.Name, B: bd.B.Name,
				ARank: site.RankLabel(ctx, bd.A.Rank), BRank: site.RankLabel(ctx, bd.B.Rank), Colour: m.Colours}
			if m.Colours {
				row.ASide, row.BSide = colourWord(ctx, bd.ASente), colourWord(ctx, !bd.ASente)
			}
			sm.Boards = append(sm.Boards, row)
		}
		v.Matches = append(v.Matches, sm)
	}
	site.MarkDraft(c, office.IsDraft(r.Event))
	c.Response().Header().Set("Cache-Control", "no-store")
	title := site.T(ctx, "team_records.slip.title", "Event", v.EventName, "N", v.Round)
	if matchID != 0 && len(v.Matches) == 1 {
		title = site.T(ctx, "team_records.slip.title_one", "Event", v.EventName, "N", v.Round, "Table", v.Matches[0].Table)
	}
	return s.Render(c, http.StatusOK, TeamSlips(s.Page(c, title), v))
}

// TeamRoundSlips is the result slip of every match of a round, to print.
func (s *Room) TeamRoundSlips(c echo.Context) error {
	rid, err := site.PathParam(c, "round")
	if err != nil {
		return err
	}
	return s.renderTeamSlips(c, rid, 0)
}

// TeamMatchSlip is one match's result slip.
func (s *Room) TeamMatchSlip(c echo.Context) error {
	mid, err := site.PathParam(c, "match")
	if err != nil {
		return err
	}
	rid, err := s.Teams.MatchRound(c.Request().Context(), mid)
	if err != nil {
		return err
	}
	return s.renderTeamSlips(c, rid, mid)
}
