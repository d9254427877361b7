package games

import (
	"context"
	"net/http"
	"slices"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/web/site"
)

// startEventGroup is one role's events on the start page.
type startEventGroup struct {
	Role   string // an office role, or "admin" for every event
	Events []startEventLink
}

type startEventLink struct {
	ID     int64
	Name   string
	Dates  string
	Status string
}

// startLine is one line of a list on the start page: a sentence and,
// where there is one, the page it is about.
type startLine struct {
	When string
	Text string
	Href string
}

// setupStep is one step of the first-run checklist.
type setupStep struct {
	Label string
	Hint  string
	Href  string
	Done  bool
}

// startView is the start page's view model.
type startView struct {
	Groups      []startEventGroup
	Waiting     []startLine
	WaitingMore bool
	Confirm     []startLine
	ConfirmMore bool
	Rulings     []startLine
	RulingsMore bool
	Changes     []startLine
	Checklist   []setupStep // empty once every step is done, and for non-administrators
}

// startPage is the signed-in user's start page (issue 13): their events,
// what waits for them, and recent changes.
func (s *Room) StartPage(c echo.Context) error {
	ctx := c.Request().Context()
	sv, err := s.Office.Start(ctx, site.Actor(c))
	if err != nil {
		return err
	}
	return s.Render(c, http.StatusOK, StartPage(s.Page(c, site.T(ctx, "start.title")), startViewOf(ctx, sv)))
}

func startViewOf(ctx context.Context, sv office.StartView) startView {
	var v startView
	link := func(e office.Event) startEventLink {
		return startEventLink{ID: e.ID, Name: site.LocalName(ctx, e.Name, e.NameEn), Dates: e.StartDate + " – " + e.EndDate,
			Status: site.T(ctx, "events.status."+e.Status)}
	}
	byRole := map[string][]startEventLink{}
	for _, e := range sv.Events {
		for _, r := range e.Roles {
			byRole[r] = append(byRole[r], link(e.Event))
		}
	}
	for _, r := range office.EventRoleNames {
		if len(byRole[r]) > 0 {
			v.Groups = append(v.Groups, startEventGroup{Role: r, Events: byRole[r]})
		}
	}
	if sv.Admin && len(sv.Events) > 0 {
		g := startEventGroup{Role: "admin"}
		for _, e := range sv.Events {
			g.Events = append(g.Events, link(e.Event))
		}
		v.Groups = append(v.Groups, g)
	}
	player := func(id int64) string {
		if p, ok := sv.Players[id]; ok {
			return p.Name
		}
		return site.T(ctx, "start.unknown_player")
	}
	user := func(id int64) string {
		if n, ok := sv.Users[id]; ok {
			return n
		}
		return site.T(ctx, "start.unknown_user")
	}
	event := func(id int64) string {
		e := sv.EventByID[id]
		return site.LocalName(ctx, e.Name, e.NameEn)
	}
	// A game of an amateur day is named with its class, round and board
	// (issue 23 §5): 「県名人戦 A級 2回戦 3番盤」.
	gameEvent := func(eventID, gameID int64) string {
		if p, ok := sv.Places[gameID]; ok {
			return event(eventID) + " " + site.T(ctx, "start.day.place", "Class", site.LocalName(ctx, p.ClassName, p.ClassNameEn), "Round", p.Round, "Board", p.Board)
		}
		return event(eventID)
	}
	for _, g := range sv.Waiting {
		when := g.ScheduledOn
		v.Waiting = append(v.Waiting, startLine{When: when, Href: site.GameURL(g.GameID),
			Text: site.T(ctx, "start.waiting.result", "Event", gameEvent(g.EventID, g.GameID), "Sente", player(g.SentePlayerID), "Gote", player(g.GotePlayerID))})
	}
	v.WaitingMore = sv.WaitingMore
	for _, g := range sv.Confirm {
		v.Confirm = append(v.Confirm, startLine{When: site.ShowTime(g.Result.EnteredAt), Href: site.GameURL(g.GameID),
			Text: site.T(ctx, "start.waiting.confirm", "Event", gameEvent(g.EventID, g.GameID), "Sente", player(g.SentePlayerID), "Gote", player(g.GotePlayerID),
				"Result", resultPhrase(ctx, g.Result.Result, player(g.SentePlayerID), player(g.GotePlayerID)),
				"By", user(g.Result.EnteredBy))})
	}
	v.ConfirmMore = sv.ConfirmMore
	for _, g := range sv.Rulings {
		v.Rulings = append(v.Rulings, startLine{When: site.ShowTime(g.Result.EnteredAt), Href: site.GameURL(g.GameID),
			Text: site.T(ctx, "start.waiting.ruling", "Event", gameEvent(g.EventID, g.GameID), "Sente", player(g.SentePlayerID), "Gote", player(g.GotePlayerID),
				"Why", site.T(ctx, actionKey("start.ruling.", g.Result.Reason, office.RulingReasons)))})
	}
	v.RulingsMore = sv.RulingsMore
	for _, ch := range sv.Changes {
		l := startLine{When: site.ShowTime(ch.At)}
		sente, gote := player(ch.SentePlayerID), player(ch.GotePlayerID)
		switch ch.Kind {
		case office.ChangeResult:
			l.Href = site.GameURL(ch.GameID)
			id := "start.change.result"
			if ch.Version > 1 {
				id = "start.change.correction"
			}
			l.Text = site.T(ctx, id, "Actor", user(ch.ActorID), "Event", gameEvent(ch.EventID, ch.GameID), "Sente", sente, "Gote", gote,
				"Result", resultPhrase(ctx, ch.Result, sente, gote), "Version", ch.Version)
		case office.ChangeRuling:
			l.Href = site.GameURL(ch.GameID)
			kind := site.T(ctx, "adjudication.rulingkind."+ch.RulingKind)
			l.Text = site.T(ctx, "start.change.ruling", "Actor", user(ch.ActorID), "Event", gameEvent(ch.EventID, ch.GameID), "Sente", sente, "Gote", gote, "Kind", kind)
		case office.ChangeDraw:
			l.Href = "/stages/" + site.I64(ch.StageID)
			l.Text = site.T(ctx, actionKey("start.change.draw.", ch.Action, drawActions), "Actor", user(ch.ActorID), "Event", event(ch.EventID), "Place", site.StageName(ctx, ch.Place, ch.PlaceEn, ch.PlaceKind))
		case office.ChangeSchedule:
			l.Href = "/league/" + site.I64(ch.ClassID)
			l.Text = site.T(ctx, actionKey("start.change.schedule.", ch.Action, scheduleActions), "Actor", user(ch.ActorID), "Event", event(ch.EventID),
				"Class", site.T(ctx, "league.class_name", "Class", ch.Place))
		case office.ChangeDay:
			l.Href, l.Text = dayChangeLine(ctx, ch, user(ch.ActorID), event(ch.EventID))
		}
		v.Changes = append(v.Changes, l)
	}
	if !sv.SetupDone() {
		c := sv.Setup
		v.Checklist = []setupStep{
			{Label: site.T(ctx, "start.setup.organiser"), Hint: site.T(ctx, "start.setup.organiser_hint"), Href: "/organisers", Done: c.Organisers > 0},
			{Label: site.T(ctx, "start.setup.event"), Hint: site.T(ctx, "start.setup.event_hint"), Href: "/events", Done: c.Events > 0},
			{Label: site.T(ctx, "start.setup.players"), Hint: site.T(ctx, "start.setup.players_hint"), Href: "/players/paste", Done: c.Players > 0},
			{Label: site.T(ctx, "start.setup.stage"), Hint: site.T(ctx, "start.setup.stage_hint"), Href: "/events", Done: c.Stages > 0},
		}
	}
	return v
}

var (
	drawActions     = []string{"draw", "swap", "publish", "withdraw", "toss", "seed_by_rating"}
	scheduleActions = []string{"generate", "publish", "settings", "playoff", office.EditSwap, office.EditFlip, office.EditMove}
)

// actionKey is the message for a log action; an action this page does not
// know gets the generic sentence, never the action's code name.
func actionKey(prefix, action string, known []string) string {
	if slices.Contains(known, action) {
		return prefix + action
	}
	return prefix + "other"
}

// resultPhrase says a result with the players' names.
func resultPhrase(ctx context.Context, result, sente, gote string) string {
	switch result {
	case office.ResultSenteWin:
		return site.T(ctx, "start.result.sente_win", "Name", sente)
	case office.ResultGoteWin:
		return site.T(ctx, "start.result.gote_win", "Name", gote)
	case office.ResultRedo, office.ResultBothLose, office.ResultPending:
		return site.T(ctx, "start.result."+result)
	}
	return site.T(ctx, "start.result.other")
}
