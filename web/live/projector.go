package live

import (
	"cmp"
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"kisen/league"
	"kisen/office"
	"kisen/pairing"
	"kisen/web/knockouts"
	"kisen/web/leagues"
	"kisen/web/site"
)

// The projector view (issue 15 part 2, docs/live.md): one full-screen,
// large-type page per event for the venue's screen. No navigation; its
// pages (a knockout stage's current round, a league class's table) take
// turns every ?every= seconds (static/live.js); the whole of it fetches
// itself again when the event changes, like every live page.

// Paging bounds of ?every= (seconds).
const (
	projectorEveryDefault = 15
	projectorEveryMin     = 5
	projectorEveryMax     = 600
)

type projectorView struct {
	EventID   int64
	EventName string
	Every     int
	Pages     []projectorPage
}

// projectorPage is one screen: a round's boards or a class's table.
type projectorPage struct {
	Title    string
	Subtitle string
	Boards   []projectorBoard
	Table    []projectorRow
	Champion string
	// ChampionHead says what Champion won: 優勝, or the next stage for a
	// stage that sends its winner on (「本戦進出」).
	ChampionHead string
	// MarksHead heads the table's last column (league: 昇降; a day: 状況).
	MarksHead string
}

// projectorBoard is one game of the round: 盤 number, the two sides (the
// first is sente when known) and the result when there is one.
type projectorBoard struct {
	No     int
	Sides  [2]knockouts.BracketSide
	Result string // the words of the result, "" while it is played
	Bye    string // a seeded player who advances without a game
}

type projectorRow struct {
	Junni  int
	Name   string
	Wins   int
	Losses int
	Marks  []string
}

// projector is GET /events/:id/projector.
func (s *Room) Projector(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathParam(c, "id")
	if err != nil {
		return err
	}
	every := projectorEveryDefault
	bad := ""
	if q := strings.TrimSpace(c.QueryParam("every")); q != "" {
		n, err := strconv.Atoi(q)
		if err != nil || n < projectorEveryMin || n > projectorEveryMax {
			bad = site.L(ctx).T("live.projector.err.every", "Min", projectorEveryMin, "Max", projectorEveryMax)
		} else {
			every = n
		}
	}
	if done, err := s.NotModifiedEvent(c, id); done || err != nil {
		return err
	}
	a := site.Actor(c)
	pr, err := s.Office.PageRevision(ctx, a, id)
	if err != nil {
		return err
	}
	v := projectorView{EventID: id, EventName: site.LocalName(ctx, pr.Event.Name, pr.Event.NameEn), Every: every}
	if bad != "" {
		return s.Render(c, http.StatusUnprocessableEntity, ProjectorPage(s.Page(c, v.EventName), v, bad))
	}
	site.MarkDraft(c, office.IsDraft(pr.Event))
	switch pr.Event.Kind {
	case office.EventLeague, office.EventJunisenTerm:
		v.Pages, err = s.projectorLeague(ctx, a, id)
	default:
		v.Pages, err = s.projectorBracketsOrDay(ctx, a, id) // projector_day.go
	}
	if err != nil {
		return err
	}
	return s.Render(c, http.StatusOK, ProjectorPage(s.Page(c, v.EventName), v, ""))
}

// projectorBrackets is one page per knockout stage: the round being
// played (the first with a game awaiting its result; when none awaits,
// the last round played), or a title match's games.
func (s *Room) projectorBrackets(ctx context.Context, a office.Actor, eventID int64) ([]projectorPage, error) {
	v, err := s.Knockouts.BracketsView(ctx, a, eventID)
	if err != nil {
		return nil, err
	}
	lz := site.L(ctx)
	var pages []projectorPage
	for _, st := range v.Stages {
		pg := projectorPage{Title: st.Name, Champion: st.Champion, ChampionHead: cmp.Or(st.AdvanceHead, lz.T("knockout.champion"))}
		var games []knockouts.BracketGameView
		switch {
		case len(st.Series) > 0:
			games = st.Series
			pg.Subtitle = st.SeriesName[0] + " " + strconv.Itoa(st.SeriesWins[0]) + " – " + strconv.Itoa(st.SeriesWins[1]) + " " + st.SeriesName[1]
		case len(st.Rounds) > 0:
			r := currentRound(st.Rounds)
			games = st.Rounds[r]
			pg.Subtitle = st.RoundHead(ctx, r)
		default:
			pg.Subtitle = lz.T("knockout.not_drawn")
		}
		no := 0
		for _, g := range games {
			if g.Status == string(pairing.StatusEmpty) {
				continue
			}
			no++
			b := projectorBoard{No: no, Sides: g.Sides}
			if g.Bye {
				b.Bye = g.ByeName
			}
			if g.Result != "" {
				b.Result = lz.T("knockout.result." + g.Result)
			}
			pg.Boards = append(pg.Boards, b)
		}
		pages = append(pages, pg)
	}
	return pages, nil
}

// currentRound is the first round with a game awaiting its result, or the
// last round in which anything was decided.
func currentRound(rounds [][]knockouts.BracketGameView) int {
	last := 0
	for r, round := range rounds {
		for _, g := range round {
			switch pairing.GameStatus(g.Status) {
			case pairing.StatusReady:
				return r
			case pairing.StatusDone, pairing.StatusWalkover:
				last = r
			}
		}
	}
	return last
}

// projectorLeague is one page per class the viewer may see: the table.
func (s *Room) projectorLeague(ctx context.Context, a office.Actor, eventID int64) ([]projectorPage, error) {
	ov, err := s.Office.League(ctx, a, eventID)
	if err != nil {
		return nil, err
	}
	var pages []projectorPage
	for _, cl := range ov.Classes {
		st, err := s.Office.Standings(ctx, a, cl.ID)
		if errors.Is(err, office.ErrNotFound) {
			continue // a class the viewer may not see yet
		}
		if err != nil {
			return nil, err
		}
		pg := projectorPage{Title: leagues.ClassTitle(ctx, cl.Class), Subtitle: site.T(ctx, "league.status."+cl.Status)}
		for _, r := range st.Rows {
			row := projectorRow{Junni: r.Row.Junni, Name: st.Players[r.PlayerID].Name, Wins: r.Row.Wins, Losses: r.Row.Losses}
			if r.Mark != league.MarkHidden {
				row.Marks = leagues.RowMarks(ctx, r.Row)
			}
			pg.Table = append(pg.Table, row)
		}
		pages = append(pages, pg)
	}
	return pages, nil
}
