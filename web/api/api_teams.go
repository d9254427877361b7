package api

import (
	"fmt"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/office/teams"
	"kisen/pairing"
	"kisen/web/site"
)

// Team events in the API (issue 25 item 5, docs/api.md "Team events"):
// the teams with their rosters and rounds, a round's published orders, a
// round's matches with their boards, and the standings with each
// tie-break's value. Each reads through the office functions its page uses
// (office/teams), so a team event is visible exactly when its event is (a
// draft is 404 like a missing one) and costs a fixed number of statements.
//
// Orders are published by the clock (the deadline passing) as well as by
// writes, so these answers carry the ETag of their own bytes, never the
// event's revision: a client polling a round gets the orders the moment
// they are published. The API shows an order only once its round is
// published, whoever asks (a token included): the staff read hidden
// orders on the pages, never here.

// APITeamMember is one registered player of a team.
type APITeamMember struct {
	PlayerID int64  `json:"player_id"`
	Name     string `json:"name"`
	Reading  string `json:"reading"`
	Rank     string `json:"rank" doc:"the declared rank, as the registry spells ranks (初段, 3級, …)"`
	Position int    `json:"position" doc:"the place in the registered order, from 1"`
	Board    *int   `json:"board" doc:"the registered board (1 is 主将); null for a reserve (補欠)"`
	Reserve  bool   `json:"reserve" doc:"a reserve (補欠)"`
}

// APITeam is a team with its roster.
type APITeam struct {
	ID              int64           `json:"id"`
	Name            string          `json:"name"`
	NameEn          string          `json:"name_en"`
	Affiliation     string          `json:"affiliation" doc:"the school, club, 支部 or company as typed"`
	AffiliationKind string          `json:"affiliation_kind" enum:"school,club,branch,company,other"`
	Members         []APITeamMember `json:"members" doc:"the roster in registered order: the boards, then the reserves"`
}

// APITeamRoundRef is one round of a team event.
type APITeamRoundRef struct {
	ID       int64     `json:"id"`
	Number   int       `json:"number"`
	Deadline time.Time `json:"deadline" doc:"the orders' deadline"`
	URL      string    `json:"url" doc:"the round's page"`
}

// APITeamEvent is a team event's settings, teams and rounds.
type APITeamEvent struct {
	EventID         int64             `json:"event_id"`
	Boards          int               `json:"boards" doc:"boards per match"`
	Reserves        int               `json:"reserves" doc:"reserves a team may register"`
	OrderRule       string            `json:"order_rule" enum:"free,rank,fixed" doc:"free; rank: stronger players on higher boards; fixed: the registered order"`
	MajorityForfeit bool              `json:"majority_forfeit" doc:"a team short of a majority of its boards forfeits the match"`
	Teams           []APITeam         `json:"teams"`
	Rounds          []APITeamRoundRef `json:"rounds"`
	URL             string            `json:"url" doc:"the teams page"`
}

// APITeamOrderBoard is one board of an order.
type APITeamOrderBoard struct {
	Board    int    `json:"board"`
	PlayerID *int64 `json:"player_id" doc:"null: the board is empty, a forfeit loss (不戦敗)"`
	Name     string `json:"name"`
	Rank     string `json:"rank"`
	Reserve  bool   `json:"reserve" doc:"the player is registered as a reserve"`
}

// APITeamOrder is one team's order for a round.
type APITeamOrder struct {
	TeamID          int64               `json:"team_id"`
	TeamName        string              `json:"team_name"`
	Missing         bool                `json:"missing" doc:"no order was handed in: every board is a forfeit"`
	Late            bool                `json:"late"`
	SubmittedAt     *time.Time          `json:"submitted_at" doc:"null when missing"`
	Boards          []APITeamOrderBoard `json:"boards"`
	ForfeitBoards   []int               `json:"forfeit_boards"`
	ShortOfMajority bool                `json:"short_of_majority"`
	MatchForfeit    bool                `json:"match_forfeit" doc:"short of a majority, and the event says such a team forfeits the match"`
}

// APITeamRoundOrders is a round's orders: empty until the round is
// published.
type APITeamRoundOrders struct {
	RoundID     int64          `json:"round_id"`
	EventID     int64          `json:"event_id"`
	Number      int            `json:"number"`
	Deadline    time.Time      `json:"deadline"`
	Published   bool           `json:"published" doc:"every team's order is in, or the deadline has passed"`
	PublishedAt *time.Time     `json:"published_at" doc:"null while hidden"`
	Orders      []APITeamOrder `json:"orders" doc:"every team's order once published; empty before (a hidden order is never shown)"`
	URL         string         `json:"url"`
}

// APITeamBoardPlayer is a player at a board of a match.
type APITeamBoardPlayer struct {
	PlayerID int64  `json:"player_id"`
	Name     string `json:"name"`
	Rank     string `json:"rank"`
}

// APITeamMatchBoard is one board of a started match.
type APITeamMatchBoard struct {
	Board   int                 `json:"board"`
	A       *APITeamBoardPlayer `json:"a" doc:"team A's player; null: an empty board"`
	B       *APITeamBoardPlayer `json:"b" doc:"team B's player; null: an empty board"`
	ASente  bool                `json:"a_sente" doc:"team A's player has sente"`
	GameID  *int64              `json:"game_id" doc:"the board's game (its result under /games/{id}); null for an empty board or a forfeited match"`
	Outcome string              `json:"outcome" enum:"a,b,draw,a_forfeit,b_forfeit,unplayed,pending" doc:"the board's official result: a or b won over the board, or by forfeit (不戦勝); pending while played or replayed"`
}

// APITeamMatch is a match of a round with its boards and result.
type APITeamMatch struct {
	ID            int64               `json:"id"`
	Table         int                 `json:"table"`
	TeamAID       int64               `json:"team_a_id"`
	TeamAName     string              `json:"team_a_name"`
	TeamBID       int64               `json:"team_b_id"`
	TeamBName     string              `json:"team_b_name"`
	Started       bool                `json:"started" doc:"the boards exist once the match is started"`
	Final         bool                `json:"final" doc:"every board is final"`
	Result        *string             `json:"result" enum:"a,b,draw" doc:"null until final"`
	WinsA         int                 `json:"wins_a" doc:"team A's board wins, forfeit wins included"`
	WinsB         int                 `json:"wins_b"`
	Draws         int                 `json:"draws"`
	Pending       int                 `json:"pending" doc:"boards not final"`
	ForfeitTeamID *int64              `json:"forfeit_team_id" doc:"the team that forfeited the match (short of a majority)"`
	Boards        []APITeamMatchBoard `json:"boards" doc:"empty until started"`
}

// APITeamRoundMatches is a round's matches.
type APITeamRoundMatches struct {
	RoundID   int64          `json:"round_id"`
	EventID   int64          `json:"event_id"`
	Number    int            `json:"number"`
	ByeTeamID *int64         `json:"bye_team_id" doc:"the team with the round's bye (不戦勝, no match)"`
	Matches   []APITeamMatch `json:"matches"`
	URL       string         `json:"url"`
}

// APITeamTiebreak is one tie-break's value on a standings line.
type APITeamTiebreak struct {
	Tiebreak string   `json:"tiebreak" enum:"direct,weighted,captain,buchholz,sb,lot" doc:"direct 直接対決, weighted board-weighted wins, captain 主将戦, buchholz ソルコフ, sb Sonneborn–Berger, lot 抽選"`
	Value    *float64 `json:"value" doc:"in match points where the tie-break is made of them; null for a direct encounter not used"`
}

// APITeamStanding is one line of the standings.
type APITeamStanding struct {
	Rank        int               `json:"rank" doc:"equal when nothing separates"`
	TeamID      int64             `json:"team_id"`
	Name        string            `json:"name"`
	NameEn      string            `json:"name_en"`
	Played      int               `json:"played" doc:"final matches"`
	Won         int               `json:"won"`
	Drawn       int               `json:"drawn"`
	Lost        int               `json:"lost"`
	Byes        int               `json:"byes"`
	Pending     int               `json:"pending" doc:"matches not final (not counted)"`
	MatchPoints float64           `json:"match_points" doc:"勝ち点"`
	BoardWins   int               `json:"board_wins" doc:"勝数, forfeit wins and bye board wins included"`
	BoardDraws  int               `json:"board_draws"`
	Tiebreaks   []APITeamTiebreak `json:"tiebreaks" doc:"in the event's order"`
}

// APITeamPoints are the organiser's match points.
type APITeamPoints struct {
	Win          float64 `json:"win"`
	Draw         float64 `json:"draw"`
	Loss         float64 `json:"loss"`
	Bye          float64 `json:"bye"`
	ByeBoardWins int     `json:"bye_board_wins"`
}

// APITeamStandings is the team standings, best first.
type APITeamStandings struct {
	EventID   int64             `json:"event_id"`
	Rounds    int               `json:"rounds" doc:"rounds counted: those whose orders are published, in order"`
	Points    APITeamPoints     `json:"points"`
	Tiebreaks []string          `json:"tiebreaks" doc:"the tie-breaks after match points and board wins, in order"`
	Lines     []APITeamStanding `json:"lines"`
	URL       string            `json:"url"`
}

// teamOperations are the team event's routes (APIOperations).
func (s *Room) teamOperations() []apiOperation {
	nf := []int{404}
	ev := apiParam{Name: "id", In: "path", Type: "integer", Required: true, Doc: "event"}
	round := apiParam{Name: "id", In: "path", Type: "integer", Required: true, Doc: "team round"}
	return []apiOperation{
		{Method: "get", Path: "/events/{id}/teams", Summary: "A team event's teams with their rosters, and its rounds", Params: []apiParam{ev}, OK: APITeamEvent{}, handler: s.apiTeams, Errors: nf},
		{Method: "get", Path: "/team-rounds/{id}/orders", Summary: "A team round's orders, once published", Params: []apiParam{round}, OK: APITeamRoundOrders{}, handler: s.apiTeamOrders, Errors: nf},
		{Method: "get", Path: "/team-rounds/{id}/matches", Summary: "A team round's matches with boards and results (404 until the round's orders are published)", Params: []apiParam{round}, OK: APITeamRoundMatches{}, handler: s.apiTeamMatches, Errors: nf},
		{Method: "get", Path: "/events/{id}/teams/standings", Summary: "The team standings with each tie-break's value", Params: []apiParam{ev}, OK: APITeamStandings{}, handler: s.apiTeamStandings, Errors: nf},
	}
}

func teamsPage(eventID int64) string     { return "/events/" + site.I64(eventID) + "/teams" }
func teamRoundPage(roundID int64) string { return "/team-rounds/" + site.I64(roundID) }

func (s *Room) apiTeams(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	r, err := s.Teams.Roster(ctx, site.Actor(c), id)
	if err != nil {
		return err
	}
	rounds, err := s.Teams.Rounds(ctx, site.Actor(c), id)
	if err != nil {
		return err
	}
	out := APITeamEvent{EventID: id, Boards: r.Settings.Boards, Reserves: r.Settings.Reserves, OrderRule: r.Settings.OrderRule,
		MajorityForfeit: r.Settings.MajorityForfeit, Teams: []APITeam{}, Rounds: []APITeamRoundRef{}, URL: teamsPage(id)}
	for _, tm := range r.Teams {
		at := APITeam{ID: tm.ID, Name: tm.Name, NameEn: tm.NameEn, Affiliation: tm.Affiliation, AffiliationKind: tm.AffiliationKind, Members: []APITeamMember{}}
		for _, m := range tm.Members {
			am := APITeamMember{PlayerID: m.PlayerID, Name: m.Name, Reading: m.Reading, Rank: m.Rank, Position: m.Position, Reserve: m.Reserve}
			if !m.Reserve {
				b := m.Position
				am.Board = &b
			}
			at.Members = append(at.Members, am)
		}
		out.Teams = append(out.Teams, at)
	}
	for _, rd := range rounds {
		out.Rounds = append(out.Rounds, APITeamRoundRef{ID: rd.ID, Number: rd.Number, Deadline: rd.Deadline.UTC(), URL: teamRoundPage(rd.ID)})
	}
	return s.apiJSON(c, 200, out)
}

func (s *Room) apiTeamOrders(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	rv, err := s.Teams.RoundOrders(c.Request().Context(), site.Actor(c), id)
	if err != nil {
		return err
	}
	out := APITeamRoundOrders{RoundID: id, EventID: rv.Event.ID, Number: rv.Round.Number, Deadline: rv.Round.Deadline.UTC(), Published: rv.Published,
		Orders: []APITeamOrder{}, URL: teamRoundPage(id)}
	if !rv.Published {
		return s.apiJSON(c, 200, out) // hidden: not even who has handed one in
	}
	at := rv.PublishedAt.UTC()
	out.PublishedAt = &at
	for _, ov := range rv.Orders {
		o := APITeamOrder{TeamID: ov.Team.ID, TeamName: ov.Team.Name, Missing: ov.Missing, Late: ov.Late, Boards: []APITeamOrderBoard{},
			ForfeitBoards: append([]int{}, ov.ForfeitBoards...), ShortOfMajority: ov.ShortOfMajority, MatchForfeit: ov.MatchForfeit}
		if !ov.Missing {
			sub := ov.Order.SubmittedAt.UTC()
			o.SubmittedAt = &sub
		}
		for _, b := range ov.Boards {
			ob := APITeamOrderBoard{Board: b.Board, Name: b.Name, Rank: b.Rank, Reserve: b.Reserve}
			ob.PlayerID = idPtr(b.PlayerID)
			o.Boards = append(o.Boards, ob)
		}
		out.Orders = append(out.Orders, o)
	}
	return s.apiJSON(c, 200, out)
}

func apiBoardPlayer(b teams.OrderBoard) *APITeamBoardPlayer {
	if b.PlayerID == 0 {
		return nil
	}
	return &APITeamBoardPlayer{PlayerID: b.PlayerID, Name: b.Name, Rank: b.Rank}
}

func (s *Room) apiTeamMatches(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	rv, err := s.Teams.RoundMatches(ctx, site.Actor(c), id)
	if err != nil {
		return err
	}
	if !rv.Round.Published { // the staff's view of a hidden round stays on the pages
		return fmt.Errorf("matches of team round %d: %w", id, office.ErrNotFound)
	}
	r := rv.Round
	out := APITeamRoundMatches{RoundID: id, EventID: r.Event.ID, Number: r.Round.Number, Matches: []APITeamMatch{}, URL: teamRoundPage(id) + "/matches"}
	bye, ok, err := s.Teams.RoundBye(ctx, r.Event.ID, id)
	if err != nil {
		return err
	}
	if ok {
		out.ByeTeamID = &bye.ID
	}
	for _, m := range rv.Matches {
		am := APITeamMatch{ID: m.Match.ID, Table: m.Match.TableNo, TeamAID: m.Match.TeamAID, TeamAName: m.A.Name, TeamBID: m.Match.TeamBID, TeamBName: m.B.Name,
			Started: m.Match.Started, Final: m.Result.Final, WinsA: m.Result.Wins[0], WinsB: m.Result.Wins[1], Draws: m.Result.Draws,
			Pending: m.Result.Pending, ForfeitTeamID: m.Match.ForfeitTeamID, Boards: []APITeamMatchBoard{}}
		if m.Result.Final && m.Result.Outcome != pairing.TeamUndecided {
			res := string(m.Result.Outcome)
			am.Result = &res
		}
		if m.Match.Started {
			for _, b := range m.Boards {
				ab := APITeamMatchBoard{Board: b.Board, A: apiBoardPlayer(b.A), B: apiBoardPlayer(b.B), ASente: b.ASente, GameID: idPtr(b.GameID),
					Outcome: string(b.Outcome)}
				if b.Outcome == pairing.BoardPending {
					ab.Outcome = "pending"
				}
				am.Boards = append(am.Boards, ab)
			}
		}
		out.Matches = append(out.Matches, am)
	}
	return s.apiJSON(c, 200, out)
}

// matchPoints is a number of match points as the engine counted them, in
// match points.
func matchPoints(sc teams.Scoring, n int) float64 {
	if sc.Halves() {
		return float64(n) / 2
	}
	return float64(n)
}

func (s *Room) apiTeamStandings(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	sv, err := s.Teams.Standings(c.Request().Context(), site.Actor(c), id)
	if err != nil {
		return err
	}
	p := sv.Scoring.Points
	out := APITeamStandings{EventID: id, Rounds: sv.Rounds, Tiebreaks: []string{}, Lines: []APITeamStanding{}, URL: teamsPage(id) + "/standings",
		Points: APITeamPoints{Win: float64(p.Win) / 2, Draw: float64(p.Draw) / 2, Loss: float64(p.Loss) / 2, Bye: float64(p.Bye) / 2,
			ByeBoardWins: sv.Scoring.ByeBoardWins}}
	for _, tb := range sv.Scoring.Tiebreaks {
		out.Tiebreaks = append(out.Tiebreaks, string(tb))
	}
	for _, l := range sv.Lines {
		tm := sv.Teams[l.ID]
		teamID, _ := strconv.ParseInt(l.ID, 10, 64)
		line := APITeamStanding{Rank: l.Rank, TeamID: teamID, Name: tm.Name, NameEn: tm.NameEn, Played: l.Played, Won: l.Won, Drawn: l.Drawn,
			Lost: l.Lost, Byes: l.Byes, Pending: l.Pending, MatchPoints: matchPoints(sv.Scoring, l.MatchPoints), BoardWins: l.BoardWins,
			BoardDraws: l.BoardDraws, Tiebreaks: []APITeamTiebreak{}}
		for _, tb := range l.Tiebreaks {
			at := APITeamTiebreak{Tiebreak: string(tb.Tiebreak)}
			if tb.Tiebreak != pairing.TeamTiebreakDirect || tb.Applied {
				v := sv.Scoring.ShownTiebreak(tb)
				at.Value = &v
			}
			line.Tiebreaks = append(line.Tiebreaks, at)
		}
		out.Lines = append(out.Lines, line)
	}
	return s.apiJSON(c, 200, out)
}
