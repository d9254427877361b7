package day

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/office/day"
	"kisen/web/site"
)

// The public day (issue 23 §4, docs/amateur-day-public.md): a class
// round's pairings by board and by name, and the standings with each
// player's record, tie-break values and 状況. Both are live over the
// event's stream; a draft day is 404 like every page of it.

// DayRoundURL is a class round's public page.
func DayRoundURL(classID int64, round int) string {
	return DayClassURL(classID) + "/rounds/" + strconv.Itoa(round)
}

// DayStandingsURL is a class's standings page.
func DayStandingsURL(classID int64) string { return DayClassURL(classID) + "/standings" }

// pubSeat is a player as the public pages show them.
type pubSeat struct {
	Name string
	Rank string // in words
	Club string
}

func seatOf(ctx context.Context, s day.Seat) pubSeat {
	return pubSeat{Name: s.Name, Rank: site.RankLabel(ctx, s.Rank), Club: s.Club}
}

// pubBoard is one board of the round page.
type pubBoard struct {
	Board       int
	Sente, Gote pubSeat
	Pending     bool   // 振り駒 at the board: no colours yet
	Handicap    string // "" for 平手
	Result      string // in words, "" while played
	SenteWon    bool
	GoteWon     bool
}

// pubName is one player's line of the round by name.
type pubName struct {
	Name     string
	Reading  string
	Board    int // 0: bye
	Opponent string
	Colour   string // in words
	Outcome  string // in words
	Key      string // day.Outcome*
}

type roundLink struct {
	N       int
	URL     string
	Current bool
}

// dayRoundPublicView is the public round page's view model.
type dayRoundPublicView struct {
	ClassID      int64
	Name         string
	DayURL       string
	ClassURL     string
	StandingsURL string
	Round        int
	Rounds       []roundLink
	Boards       []pubBoard
	ByName       []pubName
	Byes         []string
	Complete     bool
}

// eventOfDayClass names the event of a day class for a conditional GET.
func (s *Room) eventOfDayClass(cid int64) func(context.Context) (int64, error) {
	return func(ctx context.Context) (int64, error) { return s.DayRoom().ClassEventOf(ctx, cid) }
}

// DayRound is GET /day/classes/:cid/rounds/:n, public and live.
func (s *Room) DayRound(c echo.Context) error {
	ctx := c.Request().Context()
	cid, err := site.PathParam(c, "cid")
	if err != nil {
		return err
	}
	n, err := site.PathParam(c, "n")
	if err != nil {
		return err
	}
	if done, err := s.Conditional(c, s.eventOfDayClass(cid), site.CondOpts{}); done || err != nil {
		return err
	}
	rp, err := s.DayRoom().PublicRoundOf(ctx, site.Actor(c), cid, int(n))
	if err != nil {
		return err
	}
	r := rp.Round
	name := site.LocalName(ctx, rp.Class.Name, rp.Class.NameEn)
	v := dayRoundPublicView{ClassID: cid, Name: name, DayURL: dayURL(rp.Event.ID), ClassURL: DayClassURL(cid), StandingsURL: DayStandingsURL(cid),
		Round: r.Number, Complete: r.Complete, Rounds: roundLinks(cid, rp.Current, r.Number)}
	v.Boards, v.ByName, v.Byes = publicRoundRows(ctx, r)
	site.MarkDraft(c, rp.Event.Status == office.StatusDraft)
	return s.Render(c, http.StatusOK, DayRoundPublicPage(s.Page(c, site.T(ctx, "day_public.round.title", "Class", name, "N", r.Number)), v))
}

func roundLinks(cid int64, current, shown int) []roundLink {
	var out []roundLink
	for i := 1; i <= current; i++ {
		out = append(out, roundLink{N: i, URL: DayRoundURL(cid, i), Current: i == shown})
	}
	return out
}

// publicRoundRows puts a round into words.
func publicRoundRows(ctx context.Context, r day.PublicRound) (boards []pubBoard, byName []pubName, byes []string) {
	for _, b := range r.Boards {
		pb := pubBoard{Board: b.Board, Sente: seatOf(ctx, b.Sente), Gote: seatOf(ctx, b.Gote), Pending: b.TossPending}
		if b.Handicap != "" && b.Handicap != "平手" {
			pb.Handicap = site.HandicapLabel(ctx, b.Handicap)
		}
		pb.Result = boardResultWords(ctx, b)
		pb.SenteWon = b.Winner != 0 && b.Winner == b.Sente.PlayerID
		pb.GoteWon = b.Winner != 0 && b.Winner == b.Gote.PlayerID
		boards = append(boards, pb)
	}
	for _, l := range r.ByName {
		pn := pubName{Name: l.Name, Reading: l.Reading, Board: l.Board, Opponent: l.Opponent.Name, Key: l.Outcome,
			Outcome: site.T(ctx, "day_public.outcome."+l.Outcome)}
		if l.Colour != "" {
			pn.Colour = site.T(ctx, "day_public.colour."+l.Colour)
		}
		if l.Forfeit && (l.Outcome == day.OutcomeWin || l.Outcome == day.OutcomeLoss) {
			pn.Outcome += site.T(ctx, "day.result.forfeit")
		}
		byName = append(byName, pn)
	}
	for _, s := range r.Byes {
		byes = append(byes, s.Name)
	}
	return boards, byName, byes
}

// boardResultWords is a board's result in words, "" while it is played.
func boardResultWords(ctx context.Context, b day.PublicBoard) string {
	switch {
	case b.Redo:
		return site.T(ctx, "day.result.redo")
	case !b.Decided:
		return ""
	}
	var w string
	switch {
	case b.Winner != 0 && b.Winner == b.Sente.PlayerID:
		w = site.T(ctx, "day_public.result.won", "Name", b.Sente.Name)
	case b.Winner != 0:
		w = site.T(ctx, "day_public.result.won", "Name", b.Gote.Name)
	default:
		w = site.T(ctx, "day.result.other")
	}
	if b.Forfeit {
		w += site.T(ctx, "day.result.forfeit")
	}
	return w
}

// pubLine is one line of the standings page.
type pubLine struct {
	Place     string
	Name      string
	Withdrawn bool
	Block     string
	Record    string
	Wins      string
	Losses    string
	Tiebreaks []string // the values, in the class's tie-break order
	Shown     string   // the 状況 in words
	ShownKey  string
}

// dayStandingsView is the standings page's view model.
type dayStandingsView struct {
	ClassID  int64
	Name     string
	ClassURL string
	RoundURL string // the round being played, "" before the first
	Round    int
	TBNames  []string
	Lines    []pubLine
	IsSwiss  bool
	Drawn    bool
}

// DayStandings is GET /day/classes/:cid/standings, public and live.
func (s *Room) DayStandings(c echo.Context) error {
	ctx := c.Request().Context()
	cid, err := site.PathParam(c, "cid")
	if err != nil {
		return err
	}
	if done, err := s.Conditional(c, s.eventOfDayClass(cid), site.CondOpts{}); done || err != nil {
		return err
	}
	cv, err := s.DayRoom().ClassView(ctx, site.Actor(c), cid)
	if err != nil {
		return err
	}
	v, err := standingsView(ctx, cv)
	if err != nil {
		return err
	}
	site.MarkDraft(c, cv.Event.Status == office.StatusDraft)
	return s.Render(c, http.StatusOK, DayStandingsPage(s.Page(c, site.T(ctx, "day.standings.title", "Class", v.Name)), v))
}

// valuedTiebreaks are the tie-breaks that have a value to show (直接対決
// and 抽選 only order).
var valuedTiebreaks = []string{"solkoff", "sb"}

func standingsView(ctx context.Context, cv day.ClassView) (dayStandingsView, error) {
	st, err := cv.Standings()
	if err != nil {
		return dayStandingsView{}, err
	}
	cid := cv.Class.ID
	v := dayStandingsView{ClassID: cid, Name: site.LocalName(ctx, cv.Class.Name, cv.Class.NameEn), ClassURL: DayClassURL(cid),
		IsSwiss: cv.Class.Format == day.FormatSwiss, Drawn: len(cv.Rounds) > 0, Round: cv.CurrentRound()}
	if v.Round > 0 {
		v.RoundURL = DayRoundURL(cid, v.Round)
	}
	var tbs []string
	for _, t := range cv.Class.Settings.Tiebreaks {
		if slices.Contains(valuedTiebreaks, t) {
			tbs = append(tbs, t)
			v.TBNames = append(v.TBNames, site.T(ctx, "day.tiebreak."+t))
		}
	}
	for _, l := range st.Swiss {
		pl := pubLine{Place: strconv.Itoa(l.Place), Name: l.Name, Withdrawn: l.Withdrawn, Wins: fmtPoints(l.Wins), Losses: strconv.Itoa(l.Losses), ShownKey: l.Shown}
		for _, t := range tbs {
			if t == "solkoff" {
				pl.Tiebreaks = append(pl.Tiebreaks, fmtPoints(l.Solkoff))
			} else {
				pl.Tiebreaks = append(pl.Tiebreaks, fmtPoints(l.SB))
			}
		}
		if l.Shown != "" {
			pl.Shown = site.T(ctx, "day_public.shown."+l.Shown)
		}
		v.Lines = append(v.Lines, pl)
	}
	for _, l := range st.Pools {
		v.Lines = append(v.Lines, pubLine{Name: l.Name, Withdrawn: l.Withdrawn, Block: l.Block, Record: site.T(ctx, "day.record", "Wins", l.Wins, "Losses", l.Losses),
			Wins: strconv.Itoa(l.Wins), Losses: strconv.Itoa(l.Losses), ShownKey: l.Shown, Shown: site.T(ctx, "day_public.shown."+l.Shown)})
	}
	return v, nil
}

// dayOverviewLinks are a class's public links on the day page: the round
// being played and the standings.
func dayOverviewLinks(cid int64, current int) (round, standings string) {
	if current > 0 {
		round = DayRoundURL(cid, current)
	}
	return round, DayStandingsURL(cid)
}

// nameFilterText is what the name filter matches a line on: the name and
// its reading.
func nameFilterText(n pubName) string {
	return strings.ToLower(n.Name + " " + n.Reading)
}
