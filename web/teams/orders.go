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

// A round's orders: the round page (every team's order once published; to
// the staff always, with who has handed one in), one team's order (with the
// entry form for the staff), and the printed order sheet.

type boardCell struct {
	Board   int
	Name    string
	Rank    string
	Reserve bool
	Forfeit bool
}

type orderCard struct {
	TeamID       int64
	Team         string
	Affiliation  string
	URL          string
	Missing      bool
	Late         bool
	Corrections  int
	Boards       []boardCell
	Forfeits     string // the boards lost by forfeit, in words
	MatchForfeit bool
	Short        bool
	SubmittedAt  string
}

type roundView struct {
	EventID     int64
	EventName   string
	TeamsURL    string
	PrintURL    string
	MatchesURL  string
	Round       int
	Deadline    string
	Published   bool
	PublishedAt string
	Staff       bool
	Submitted   int
	TeamCount   int
	Rule        string
	Majority    bool
	DrawURL     string // the director's draw page ("" for everyone else)
	Cards       []orderCard
}

func cardOf(ctx context.Context, roundID int64, ov teams.OrderView) orderCard {
	c := orderCard{TeamID: ov.Team.ID, Team: site.LocalName(ctx, ov.Team.Name, ov.Team.NameEn), Affiliation: ov.Team.Affiliation,
		URL: orderURL(roundID, ov.Team.ID), Missing: ov.Missing, Late: ov.Late, Corrections: ov.Corrections,
		MatchForfeit: ov.MatchForfeit, Short: ov.ShortOfMajority}
	if !ov.Missing {
		c.SubmittedAt = site.ShowTime(ov.Order.SubmittedAt)
	}
	for _, b := range ov.Boards {
		c.Boards = append(c.Boards, boardCell{Board: b.Board, Name: b.Name, Rank: site.RankLabel(ctx, b.Rank), Reserve: b.Reserve, Forfeit: b.PlayerID == 0})
	}
	for i, b := range ov.ForfeitBoards {
		if i > 0 {
			c.Forfeits += "、"
		}
		c.Forfeits += site.T(ctx, "teams.board_n", "N", b)
	}
	return c
}

func (s *Room) roundView(c echo.Context, roundID int64) (roundView, teams.RoundView, error) {
	ctx := c.Request().Context()
	rv, err := s.Teams.RoundOrders(ctx, site.Actor(c), roundID)
	if err != nil {
		return roundView{}, rv, err
	}
	v := roundView{EventID: rv.Event.ID, EventName: site.LocalName(ctx, rv.Event.Name, rv.Event.NameEn), TeamsURL: teamsURL(rv.Event.ID),
		PrintURL: roundURL(roundID) + "/print", MatchesURL: matchesURL(roundID), Round: rv.Round.Number, Deadline: site.ShowTime(rv.Round.Deadline), Published: rv.Published,
		Staff: rv.Staff, Submitted: rv.Submitted, Rule: ruleWord(ctx, rv.Settings.OrderRule), Majority: rv.Settings.MajorityForfeit}
	if rv.Published {
		v.PublishedAt = site.ShowTime(rv.PublishedAt)
	}
	for _, ov := range rv.Orders {
		v.Cards = append(v.Cards, cardOf(ctx, roundID, ov))
	}
	v.TeamCount = len(rv.Orders)
	site.MarkDraft(c, office.IsDraft(rv.Event))
	return v, rv, nil
}

// TeamRoundPage is a round's orders.
func (s *Room) TeamRoundPage(c echo.Context) error {
	rid, err := site.PathParam(c, "round")
	if err != nil {
		return err
	}
	v, _, err := s.roundView(c, rid)
	if err != nil {
		return err
	}
	if v.Staff && s.Teams.RequireEditor(c.Request().Context(), site.Actor(c), v.EventID) == nil {
		v.DrawURL = drawURL(rid)
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return s.Render(c, http.StatusOK, TeamRoundPage(s.Page(c, site.T(c.Request().Context(), "teams.round.title", "Event", v.EventName, "N", v.Round)), v))
}

// TeamOrderSheet is the printed order sheet of a round (A4, one box per
// team): what the round page shows, on paper.
func (s *Room) TeamOrderSheet(c echo.Context) error {
	rid, err := site.PathParam(c, "round")
	if err != nil {
		return err
	}
	v, _, err := s.roundView(c, rid)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return s.Render(c, http.StatusOK, TeamOrderSheet(s.Page(c, site.T(c.Request().Context(), "teams.sheet.title", "Event", v.EventName, "N", v.Round)), v))
}

type playerChoice struct {
	ID      string
	Label   string
	Reserve bool
}

type orderView struct {
	round     roundView
	Card      orderCard
	Action    string
	RoundURL  string
	Version   int64
	CanSubmit bool
	Choices   []playerChoice
	Selected  []string // per board
	Reason    string
	Published bool
	Errs      site.FieldMsgs
	Msgs      []string
}

func (s *Room) orderView(c echo.Context, roundID, teamID int64) (orderView, error) {
	ctx := c.Request().Context()
	ov, rv, err := s.Teams.TeamOrder(ctx, site.Actor(c), roundID, teamID)
	if err != nil {
		return orderView{}, err
	}
	v := orderView{Card: cardOf(ctx, roundID, ov), Action: orderURL(roundID, teamID) + "/order", RoundURL: roundURL(roundID),
		Version: ov.Order.ID, CanSubmit: rv.CanSubmit, Published: rv.Published}
	v.round = roundView{EventName: site.LocalName(ctx, rv.Event.Name, rv.Event.NameEn), Round: rv.Round.Number, Deadline: site.ShowTime(rv.Round.Deadline),
		Rule: ruleWord(ctx, rv.Settings.OrderRule), Majority: rv.Settings.MajorityForfeit, Staff: rv.Staff}
	if v.CanSubmit {
		roster, err := s.Teams.Roster(ctx, site.Actor(c), rv.Event.ID)
		if err != nil {
			return orderView{}, err
		}
		for _, tm := range roster.Teams {
			if tm.ID != teamID {
				continue
			}
			for _, m := range tm.Members {
				label := m.Name
				if m.Rank != "" {
					label += "（" + site.RankLabel(ctx, m.Rank) + "）"
				}
				if m.Reserve {
					label += " " + site.T(ctx, "teams.reserve")
				}
				v.Choices = append(v.Choices, playerChoice{ID: strconv.FormatInt(m.PlayerID, 10), Label: label, Reserve: m.Reserve})
			}
		}
	}
	for _, b := range ov.Boards {
		sel := ""
		if b.PlayerID != 0 {
			sel = strconv.FormatInt(b.PlayerID, 10)
		}
		v.Selected = append(v.Selected, sel)
	}
	site.MarkDraft(c, office.IsDraft(rv.Event))
	return v, nil
}

func (s *Room) renderOrder(c echo.Context, status int, v orderView) error {
	ctx := c.Request().Context()
	c.Response().Header().Set("Cache-Control", "no-store")
	return s.Render(c, status, TeamOrderPage(s.Page(c, site.T(ctx, "teams.order.title", "Team", v.Card.Team, "N", v.round.Round)), v))
}

// TeamOrderPage is one team's order for a round: to the staff always (with
// the entry form for those who receive orders), to everyone else once the
// round's orders are published — before that, 404 as for a missing order.
func (s *Room) TeamOrderPage(c echo.Context) error {
	rid, err := site.PathParam(c, "round")
	if err != nil {
		return err
	}
	tid, err := site.PathParam(c, "team")
	if err != nil {
		return err
	}
	v, err := s.orderView(c, rid, tid)
	if err != nil {
		return err
	}
	return s.renderOrder(c, http.StatusOK, v)
}

// TeamOrderSubmit records a team's order at the version the form showed: a
// breach of the rule is 422 naming the boards and players, a stale form
// 409.
func (s *Room) TeamOrderSubmit(c echo.Context) error {
	ctx := c.Request().Context()
	rid, err := site.PathParam(c, "round")
	if err != nil {
		return err
	}
	tid, err := site.PathParam(c, "team")
	if err != nil {
		return err
	}
	version, _ := strconv.ParseInt(c.FormValue("version"), 10, 64)
	n, _ := strconv.Atoi(c.FormValue("boards"))
	n = min(max(n, 0), teams.MaxBoards)
	in := teams.OrderInput{RoundID: rid, TeamID: tid, Version: version, Reason: c.FormValue("reason")}
	var selected []string
	for i := 1; i <= n; i++ {
		sel := c.FormValue("board_" + strconv.Itoa(i))
		id, _ := strconv.ParseInt(sel, 10, 64)
		in.Players = append(in.Players, id)
		selected = append(selected, sel)
	}
	_, err = s.Teams.SubmitOrder(ctx, site.Actor(c), in)
	msgs, bad := lineMsgs(ctx, err)
	if !bad && err != nil {
		return err
	}
	if !bad {
		return site.SeeOther(c, orderURL(rid, tid))
	}
	v, verr := s.orderView(c, rid, tid)
	if verr != nil {
		return verr
	}
	v.Selected, v.Reason, v.Msgs = selected, in.Reason, msgs
	v.Errs, _ = site.FieldMsgsOf(ctx, err)
	return s.renderOrder(c, http.StatusUnprocessableEntity, v)
}
