package games

import (
	"cmp"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/web/site"
)

// eventGameRow is one line of an event's games list.
type eventGameRow struct {
	ID          int64
	Label       string
	Sente, Gote string
	ScheduledOn string
	Result      string
	RedoNumber  int
	Void        bool // made void (a redo game's parent corrected, or a correction changed its players)
}

// gameCreateForm is the create-game form.
type gameCreateForm struct {
	Label       string `form:"label"`
	SenteID     string `form:"sente_id"`
	GoteID      string `form:"gote_id"`
	Handicap    string `form:"handicap"`
	ScheduledOn string `form:"scheduled_on"`
	Allowance   string `form:"allowance"`
}

func (s *Room) eventGamesPage(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	if done, err := s.NotModifiedEvent(c, id); done || err != nil {
		return err
	}
	return s.renderEventGames(c, http.StatusOK, id, gameCreateForm{}, nil)
}

func (s *Room) renderEventGames(c echo.Context, status int, eventID int64, f gameCreateForm, errs site.FieldMsgs) error {
	ctx := c.Request().Context()
	a := site.Actor(c)
	e, err := s.Office.Event(ctx, a, eventID)
	if err != nil {
		return err
	}
	// One set read for every game (results in force, void marks) and one
	// for the players named: a fixed number of statements (issue 12).
	gs, hidden, err := s.Office.EventGames(ctx, a, eventID) // hidden: unpublished stages' and classes' games
	if err != nil {
		return err
	}
	games := slices.SortedFunc(maps.Values(gs.Games), func(x, y office.Game) int { return cmp.Compare(x.ID, y.ID) })
	games = slices.DeleteFunc(games, func(g office.Game) bool { return hidden[g.ID] })
	var pids []int64
	for _, g := range games {
		for _, p := range []*int64{g.SentePlayerID, g.GotePlayerID} {
			if p != nil {
				pids = append(pids, *p)
			}
		}
	}
	names, err := s.Office.PlayersByIDs(ctx, pids)
	if err != nil {
		return err
	}
	nameOf := func(id *int64) string {
		if id == nil {
			return ""
		}
		if p, ok := names[*id]; ok {
			return p.Name
		}
		return "#" + strconv.FormatInt(*id, 10)
	}
	stages, err := s.LabelStages(ctx, eventID)
	if err != nil {
		return err
	}
	rows := make([]eventGameRow, 0, len(games))
	for _, g := range games {
		r := eventGameRow{ID: g.ID, Label: site.GameLabel(ctx, g.Label, stages...), Sente: nameOf(g.SentePlayerID), Gote: nameOf(g.GotePlayerID), RedoNumber: g.RedoNumber, Void: gs.Void[g.ID]}
		if g.ScheduledOn != nil {
			r.ScheduledOn = *g.ScheduledOn
		}
		if res, ok := gs.Effective(g.ID); ok {
			r.Result = res.Result
		}
		rows = append(rows, r)
	}
	canCreate := s.Office.RequireEventRole(ctx, a, eventID, office.RoleDirector, office.RoleScheduler) == nil
	var players []site.Choice
	if canCreate {
		ps, err := s.Office.PlayerChoices(ctx, "", 2000)
		if err != nil {
			return err
		}
		for _, p := range ps {
			players = append(players, site.Choice{Value: strconv.FormatInt(p.ID, 10), Label: p.Name})
		}
		if f.Allowance == "" {
			if st, err := office.ParseEventSettings(e.Settings); err == nil {
				f.Allowance = strconv.Itoa(int(st.Time.Allowance.D() / time.Minute))
			}
		}
	}
	site.MarkDraft(c, office.IsDraft(e))
	return s.Render(c, status, EventGamesPage(s.Page(c, site.LocalName(ctx, e.Name, e.NameEn)), eventID, site.LocalName(ctx, e.Name, e.NameEn), rows, canCreate, players, f, errs))
}

func (s *Room) gameCreate(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	var f gameCreateForm
	if err := c.Bind(&f); err != nil {
		return err
	}
	ctx := c.Request().Context()
	v := &office.ValidationError{}
	optID := func(field, s string) *int64 {
		if s == "" {
			return nil
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			v.Add(0, field, "adjudication.err.player", nil)
			return nil
		}
		return &n
	}
	in := office.GameInput{EventID: id, Label: strings.TrimSpace(f.Label), SenteID: optID("sente", f.SenteID), GoteID: optID("gote", f.GoteID),
		Handicap: f.Handicap, ScheduledOn: f.ScheduledOn}
	if n, err := strconv.Atoi(strings.TrimSpace(f.Allowance)); err != nil {
		v.Add(0, "allowance", "games.err.allowance", nil)
	} else {
		in.AllowanceMinutes = n
	}
	err = v.OrNil()
	var g office.Game
	if err == nil {
		g, err = s.Office.CreateGame(ctx, site.Actor(c), in)
	}
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		return s.renderEventGames(c, http.StatusUnprocessableEntity, id, f, msgs)
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, "/games/"+strconv.FormatInt(g.ID, 10))
}
