package api

import (
	"context"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/office/day"
	"kisen/web/site"
)

// The amateur day in the API (issue 23 §4, docs/api.md "The amateur
// day"): its classes, each class's rounds, a round's pairings and the
// standings. Each reads through the office functions its page uses
// (day.ClassView, day.DayViews), so a class is visible exactly when its
// event is, and costs a fixed number of statements.

// APIDayPlayer names a player of a day.
type APIDayPlayer struct {
	ID      int64  `json:"id"`
	Name    string `json:"name"`
	Reading string `json:"reading"`
	Rank    string `json:"rank" doc:"the declared rank, as the registry spells ranks (初段, 3級, …)"`
	Club    string `json:"club"`
}

// APIDayClass is one class of a day.
type APIDayClass struct {
	ID           int64    `json:"id"`
	Name         string   `json:"name"`
	NameEn       string   `json:"name_en"`
	Format       string   `json:"format" enum:"pools,swiss,knockout" doc:"pools: N勝通過M敗失格; swiss: a fixed number of rounds; knockout: the final only"`
	Rounds       int      `json:"rounds" doc:"the Swiss rounds (swiss only; 0 otherwise)"`
	Qualifiers   int      `json:"qualifiers" doc:"how many go on to the final knockout"`
	Tiebreaks    []string `json:"tiebreaks" doc:"the Swiss tie-breaks after wins, in order: solkoff, sb, direct, lot"`
	Entrants     int      `json:"entrants" doc:"entrants not withdrawn"`
	CurrentRound int      `json:"current_round" doc:"the round being played or last played; 0 before the first draw"`
	URL          string   `json:"url" doc:"the class's page"`
}

// APIDay is a day's classes.
type APIDay struct {
	EventID int64         `json:"event_id"`
	Classes []APIDayClass `json:"classes"`
	URL     string        `json:"url" doc:"the day's page"`
}

// APIDayRoundRef is one drawn round of a class.
type APIDayRoundRef struct {
	Number   int    `json:"number"`
	Boards   int    `json:"boards"`
	Byes     int    `json:"byes"`
	Complete bool   `json:"complete" doc:"every board is decided"`
	URL      string `json:"url" doc:"the round's public page"`
}

// APIDayRoundList is a class's drawn rounds.
type APIDayRoundList struct {
	ClassID int64            `json:"class_id"`
	Items   []APIDayRoundRef `json:"items"`
}

// APIDayBoard is one board of a round.
type APIDayBoard struct {
	Board       int          `json:"board"`
	GameID      int64        `json:"game_id" doc:"the game now deciding the board (a redo after 千日手 or 持将棋 is a new game)"`
	Sente       APIDayPlayer `json:"sente"`
	Gote        APIDayPlayer `json:"gote"`
	Handicap    string       `json:"handicap" doc:"平手, 香落ち, …"`
	SenteBy     string       `json:"sente_by" doc:"how sente was chosen: furigoma, observed, handicap, rank, draw"`
	TossPending bool         `json:"toss_pending" doc:"the 振り駒 at the board decides who is sente: sente and gote are only the two players"`
	Result      *string      `json:"result" enum:"sente_win,gote_win,other" doc:"null while undecided"`
	WinnerID    *int64       `json:"winner_id"`
	Forfeit     bool         `json:"forfeit"`
	Redo        bool         `json:"redo" doc:"being replayed"`
}

// APIDayByName is one player's line of a round by name.
type APIDayByName struct {
	Player     APIDayPlayer `json:"player"`
	Board      *int         `json:"board" doc:"null for a bye"`
	OpponentID *int64       `json:"opponent_id"`
	Colour     *string      `json:"colour" enum:"sente,gote,pending" doc:"pending: 振り駒 at the board; null for a bye"`
	Outcome    string       `json:"outcome" enum:"win,loss,other,playing,bye"`
}

// APIDayRound is a round's pairings: by board, and every player by
// reading.
type APIDayRound struct {
	ClassID  int64          `json:"class_id"`
	Number   int            `json:"number"`
	Complete bool           `json:"complete"`
	Boards   []APIDayBoard  `json:"boards"`
	ByName   []APIDayByName `json:"by_name" doc:"every player of the round sorted by reading"`
	Byes     []APIDayPlayer `json:"byes"`
	URL      string         `json:"url"`
}

// APIDayStanding is one line of a class's standings.
type APIDayStanding struct {
	Place     *int         `json:"place" doc:"Swiss only (equal places share a number); null in pools"`
	Player    APIDayPlayer `json:"player"`
	Block     string       `json:"block" doc:"pools blocks mode"`
	Wins      float64      `json:"wins"`
	Losses    int          `json:"losses"`
	Byes      int          `json:"byes"`
	Solkoff   *float64     `json:"solkoff" doc:"Swiss only"`
	SB        *float64     `json:"sb" doc:"Sonneborn-Berger; Swiss only"`
	Withdrawn bool         `json:"withdrawn"`
	Status    string       `json:"status" enum:"@day_shown" doc:"final 決勝進出, in_zone 進出圏, game 対局中, qualified 予選通過, out 敗退, withdrawn 棄権, waiting 予選中, \"\" none"`
}

// APIDayStandings is a class's standings, best first.
type APIDayStandings struct {
	ClassID int64            `json:"class_id"`
	Format  string           `json:"format" enum:"pools,swiss,knockout"`
	Lines   []APIDayStanding `json:"lines"`
	URL     string           `json:"url"`
}

// dayOperations are the day's routes (APIOperations).
func (s *Room) dayOperations() []apiOperation {
	nf := []int{404}
	class := apiParam{Name: "id", In: "path", Type: "integer", Required: true, Doc: "day class"}
	return []apiOperation{
		{Method: "get", Path: "/events/{id}/day", Summary: "An amateur day's classes", Params: []apiParam{{Name: "id", In: "path", Type: "integer", Required: true, Doc: "event"}},
			OK: APIDay{}, handler: s.apiDay, Errors: nf},
		{Method: "get", Path: "/day-classes/{id}/rounds", Summary: "A day class's drawn rounds", Params: []apiParam{class}, OK: APIDayRoundList{}, handler: s.apiDayRounds, Errors: nf},
		{Method: "get", Path: "/day-classes/{id}/rounds/{n}", Summary: "A day class round's pairings, by board and by name", Params: []apiParam{class,
			{Name: "n", In: "path", Type: "integer", Required: true, Doc: "round number"}}, OK: APIDayRound{}, handler: s.apiDayRound, Errors: nf},
		{Method: "get", Path: "/day-classes/{id}/standings", Summary: "A day class's standings with each player's status", Params: []apiParam{class}, OK: APIDayStandings{}, handler: s.apiDayStandings, Errors: nf},
	}
}

func apiDayPlayer(s day.Seat) APIDayPlayer {
	return APIDayPlayer{ID: s.PlayerID, Name: s.Name, Reading: s.Reading, Rank: s.Rank, Club: s.Club}
}

func (s *Room) apiDay(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	if done, err := s.apiNotModified(c, func(context.Context) (int64, error) { return id, nil }); done || err != nil {
		return err
	}
	_, views, err := s.DayRoom().DayViews(c.Request().Context(), site.Actor(c), id)
	if err != nil {
		return err
	}
	out := APIDay{EventID: id, Classes: []APIDayClass{}, URL: "/events/" + site.I64(id) + "/day"}
	for _, v := range views {
		n := 0
		for _, e := range v.Entrants {
			if !e.Withdrawn() {
				n++
			}
		}
		cl := APIDayClass{ID: v.Class.ID, Name: v.Class.Name, NameEn: v.Class.NameEn, Format: v.Class.Format, Qualifiers: v.Class.Settings.Qualifiers,
			Tiebreaks: []string{}, Entrants: n, CurrentRound: v.CurrentRound(), URL: dayClassURL(v.Class.ID)}
		if v.Class.Format == day.FormatSwiss {
			cl.Rounds = v.Class.Settings.Rounds
			cl.Tiebreaks = append(cl.Tiebreaks, v.Class.Settings.Tiebreaks...)
		}
		out.Classes = append(out.Classes, cl)
	}
	return s.apiJSON(c, 200, out)
}

func dayClassURL(id int64) string { return "/day/classes/" + site.I64(id) }

// apiDayClass reads the class named by :id after the conditional check.
func (s *Room) apiDayClass(c echo.Context) (day.ClassView, bool, error) {
	cid, err := site.PathID(c)
	if err != nil {
		return day.ClassView{}, true, err
	}
	if done, err := s.apiNotModified(c, func(ctx context.Context) (int64, error) { return s.DayRoom().ClassEventOf(ctx, cid) }); done || err != nil {
		return day.ClassView{}, true, err
	}
	v, err := s.DayRoom().ClassView(c.Request().Context(), site.Actor(c), cid)
	return v, err != nil, err
}

func (s *Room) apiDayRounds(c echo.Context) error {
	v, done, err := s.apiDayClass(c)
	if done {
		return err
	}
	out := APIDayRoundList{ClassID: v.Class.ID, Items: []APIDayRoundRef{}}
	for _, r := range v.Rounds {
		out.Items = append(out.Items, APIDayRoundRef{Number: r.Number, Boards: len(r.Boards), Byes: len(r.Byes), Complete: r.Complete(),
			URL: dayClassURL(v.Class.ID) + "/rounds/" + strconv.Itoa(r.Number)})
	}
	return s.apiJSON(c, 200, out)
}

func (s *Room) apiDayRound(c echo.Context) error {
	n, err := site.PathParam(c, "n")
	if err != nil {
		return err
	}
	v, done, err := s.apiDayClass(c)
	if done {
		return err
	}
	r, ok := v.PublicRound(int(n))
	if !ok {
		return echo.NewHTTPError(http.StatusNotFound)
	}
	out := APIDayRound{ClassID: v.Class.ID, Number: r.Number, Complete: r.Complete, Boards: []APIDayBoard{}, ByName: []APIDayByName{}, Byes: []APIDayPlayer{},
		URL: dayClassURL(v.Class.ID) + "/rounds/" + strconv.Itoa(r.Number)}
	games := map[int]int64{}
	if rs, ok := v.Round(r.Number); ok {
		for _, b := range rs.Boards {
			games[b.Board] = b.Last.ID
		}
	}
	for _, b := range r.Boards {
		ab := APIDayBoard{Board: b.Board, GameID: games[b.Board], Sente: apiDayPlayer(b.Sente), Gote: apiDayPlayer(b.Gote), Handicap: b.Handicap, SenteBy: b.SenteBy,
			TossPending: b.TossPending, WinnerID: idPtr(b.Winner), Forfeit: b.Forfeit, Redo: b.Redo}
		if b.Decided {
			res := "other"
			if b.Result == office.ResultSenteWin || b.Result == office.ResultGoteWin {
				res = b.Result
			}
			ab.Result = &res
		}
		out.Boards = append(out.Boards, ab)
	}
	for _, l := range r.ByName {
		ln := APIDayByName{Player: apiDayPlayer(l.Seat), Outcome: l.Outcome}
		if l.Board != 0 {
			board, colour := l.Board, l.Colour
			ln.Board, ln.Colour, ln.OpponentID = &board, &colour, idPtr(l.Opponent.PlayerID)
		}
		out.ByName = append(out.ByName, ln)
	}
	for _, st := range r.Byes {
		out.Byes = append(out.Byes, apiDayPlayer(st))
	}
	return s.apiJSON(c, 200, out)
}

func (s *Room) apiDayStandings(c echo.Context) error {
	v, done, err := s.apiDayClass(c)
	if done {
		return err
	}
	st, err := v.Standings()
	if err != nil {
		return err
	}
	out := APIDayStandings{ClassID: v.Class.ID, Format: v.Class.Format, Lines: []APIDayStanding{}, URL: dayClassURL(v.Class.ID) + "/standings"}
	for _, l := range st.Swiss {
		place, solkoff, sb := l.Place, l.Solkoff, l.SB
		out.Lines = append(out.Lines, APIDayStanding{Place: &place, Player: apiDayPlayer(v.Seat(l.PlayerID)), Wins: l.Wins, Losses: l.Losses, Byes: l.Byes,
			Solkoff: &solkoff, SB: &sb, Withdrawn: l.Withdrawn, Status: l.Shown})
	}
	for _, l := range st.Pools {
		out.Lines = append(out.Lines, APIDayStanding{Player: apiDayPlayer(v.Seat(l.PlayerID)), Block: l.Block, Wins: float64(l.Wins), Losses: l.Losses, Byes: l.Byes,
			Withdrawn: l.Withdrawn, Status: l.Shown})
	}
	return s.apiJSON(c, 200, out)
}

// apiEventKind is the kind the API tells for an event: "day" for an
// amateur day (stored as a knockout event marked as a day, whose final
// knockouts are its stages), else the stored kind.
func apiEventKind(e office.Event, isDay bool) string {
	if isDay {
		return EventKindDay
	}
	return e.Kind
}

// EventKindDay is the API's kind of an amateur day.
const EventKindDay = "day"
