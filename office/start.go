package office

import (
	"context"
	"slices"
	"time"

	"kisen/adjudication"
	"kisen/store"
)

// Start page limits: each list is one statement with a LIMIT, so the page
// costs the same whatever the size of the events (issue 12).
const (
	startEventLimit   = 100
	startWaitingLimit = 20
	startChangeLimit  = 20
)

// StartEvent is one event on the start page with the roles the user
// holds in it (none for an administrator's view of another's event).
type StartEvent struct {
	Event store.Event
	Roles []string
}

// RulingReasons are the reasons of a pending result that the arbiter (or,
// without one, the organiser) settles: the game waits for a ruling, not
// for someone to enter a result.
var RulingReasons = []string{
	string(adjudication.ReasonDisputedFoul),     // D-X5: the players disagree a foul happened
	string(adjudication.ReasonRedoLimitArbiter), // D-R4: the event's redo limit leaves it to the arbiter
	reasonFoulLossSuperseded,                    // D-K1: an appeal took back the foul loss that ended the game
}

// reasonFoulLossSuperseded: the game ended only by a foul-loss ruling that a
// later ruling superseded (decideAfterRuling).
const reasonFoulLossSuperseded = "foul_loss_superseded"

// StartGame is a game waiting for something: a result (Result nil, or a
// pending version such as one taken back), a confirmation of Result, or a
// ruling on a Result pending for one of RulingReasons.
type StartGame struct {
	GameID        int64
	EventID       int64
	Label         string
	ScheduledOn   string
	SentePlayerID int64
	GotePlayerID  int64
	Result        *store.GameResult
}

// Change kinds on the start page.
const (
	ChangeResult   = "result"
	ChangeRuling   = "ruling"
	ChangeDraw     = "draw"     // a knockout stage's draw log
	ChangeSchedule = "schedule" // a league class's schedule log
)

// StartChange is one recent change: a result version, a ruling or a draw
// or schedule log entry, in the user's events.
type StartChange struct {
	Kind    string
	At      time.Time
	EventID int64
	ActorID int64
	// Results and rulings.
	GameID        int64
	SentePlayerID int64
	GotePlayerID  int64
	Version       int
	Result        string
	Confirmed     bool
	RulingKind    string
	RulingPlayer  string // sente, gote or ""
	// Draw and schedule entries.
	StageID, ClassID int64
	Place            string
	PlaceEn          string // a stage's English name
	PlaceKind        string // a stage's kind (first_preliminary …)
	Action           string
	// Day is a change at an amateur day's desk (Kind ChangeDay).
	Day *DayChange
}

// StartView is everything the start page shows.
type StartView struct {
	Admin       bool
	Events      []StartEvent
	Waiting     []StartGame
	WaitingMore bool
	Confirm     []StartGame
	ConfirmMore bool
	Rulings     []StartGame
	RulingsMore bool
	Changes     []StartChange
	EventByID   map[int64]store.Event
	Users       map[int64]string
	Players     map[int64]store.Player
	// Places are the class, round and board of the listed games that are
	// boards of an amateur day.
	Places map[int64]store.DayPlace
	// Setup is the first-run checklist, for administrators; nil for
	// anyone else.
	Setup *store.SetupCounts
}

// SetupDone reports whether every step of the first-run checklist is done.
func (v StartView) SetupDone() bool {
	s := v.Setup
	return s == nil || (s.Organisers > 0 && s.Events > 0 && s.Players > 0 && s.Stages > 0)
}

// Start reads a signed-in user's start page: their events by role, games
// waiting for a result, a confirmation or a ruling, and recent changes, in a fixed
// number of statements.
func (o *Office) Start(ctx context.Context, actor Actor) (StartView, error) {
	if err := actor.RequireUser(); err != nil {
		return StartView{}, err
	}
	sc := store.StartScope{UserID: actor.UserID, Admin: actor.Admin}
	v := StartView{Admin: actor.Admin}
	s := o.store
	events, err := s.StartEvents(ctx, sc, startEventLimit)
	if err != nil {
		return v, err
	}
	roles, err := s.UserEventRoles(ctx, actor.UserID)
	if err != nil {
		return v, err
	}
	held := map[int64][]string{}
	for _, r := range roles {
		held[r.EventID] = append(held[r.EventID], r.Role)
	}
	for _, e := range events {
		v.Events = append(v.Events, StartEvent{Event: e, Roles: held[e.ID]})
	}
	today := o.now().In(playerTokyo).Format("2006-01-02")
	waiting, err := s.WaitingGames(ctx, sc, today, RulingReasons, startWaitingLimit+1)
	if err != nil {
		return v, err
	}
	if len(waiting) > startWaitingLimit {
		waiting, v.WaitingMore = waiting[:startWaitingLimit], true
	}
	for _, g := range waiting {
		v.Waiting = append(v.Waiting, StartGame{GameID: g.ID, EventID: g.EventID, Label: g.Label,
			ScheduledOn: deref(g.ScheduledOn), SentePlayerID: deref(g.SentePlayerID), GotePlayerID: deref(g.GotePlayerID)})
	}
	pending, err := s.UnconfirmedResults(ctx, sc, startWaitingLimit+1)
	if err != nil {
		return v, err
	}
	if len(pending) > startWaitingLimit {
		pending, v.ConfirmMore = pending[:startWaitingLimit], true
	}
	for _, p := range pending {
		r := p.GameResult
		v.Confirm = append(v.Confirm, StartGame{GameID: p.GameID, EventID: p.EventID,
			SentePlayerID: deref(p.SentePlayerID), GotePlayerID: deref(p.GotePlayerID), Result: &r})
	}
	rulings, err := s.WaitingRulings(ctx, sc, RulingReasons, startWaitingLimit+1)
	if err != nil {
		return v, err
	}
	if len(rulings) > startWaitingLimit {
		rulings, v.RulingsMore = rulings[:startWaitingLimit], true
	}
	for _, p := range rulings {
		r := p.GameResult
		v.Rulings = append(v.Rulings, StartGame{GameID: p.GameID, EventID: p.EventID,
			SentePlayerID: deref(p.SentePlayerID), GotePlayerID: deref(p.GotePlayerID), Result: &r})
	}
	if v.Changes, err = o.startChanges(ctx, sc); err != nil {
		return v, err
	}
	// Names for everything listed, one statement per kind.
	var userIDs, playerIDs, eventIDs []int64
	for _, g := range slices.Concat(v.Waiting, v.Confirm, v.Rulings) {
		playerIDs = append(playerIDs, g.SentePlayerID, g.GotePlayerID)
		eventIDs = append(eventIDs, g.EventID)
		if g.Result != nil {
			userIDs = append(userIDs, g.Result.EnteredBy)
		}
	}
	for _, c := range v.Changes {
		userIDs = append(userIDs, c.ActorID)
		playerIDs = append(playerIDs, c.SentePlayerID, c.GotePlayerID)
		eventIDs = append(eventIDs, c.EventID)
	}
	if v.Users, v.Players, err = s.NamesOf(ctx, uniq(userIDs), uniq(playerIDs)); err != nil {
		return v, err
	}
	if v.EventByID, err = s.EventsByID(ctx, uniq(eventIDs)); err != nil {
		return v, err
	}
	if v.Places, err = s.DayPlacesOfGames(ctx, v.gameIDs()); err != nil {
		return v, err
	}
	for _, e := range events {
		v.EventByID[e.ID] = e
	}
	if actor.Admin {
		c, err := s.SetupProgress(ctx)
		if err != nil {
			return v, err
		}
		v.Setup = &c
	}
	return v, nil
}

// startChanges merges the newest result versions, rulings, draw and
// schedule log entries, newest first, the first startChangeLimit.
func (o *Office) startChanges(ctx context.Context, sc store.StartScope) ([]StartChange, error) {
	s := o.store
	results, err := s.RecentResults(ctx, sc, startChangeLimit)
	if err != nil {
		return nil, err
	}
	rulings, err := s.RecentRulings(ctx, sc, startChangeLimit)
	if err != nil {
		return nil, err
	}
	draws, schedules, err := s.RecentDraws(ctx, sc, startChangeLimit)
	if err != nil {
		return nil, err
	}
	var out []StartChange
	for _, r := range results {
		out = append(out, StartChange{Kind: ChangeResult, At: r.EnteredAt, EventID: r.EventID, ActorID: r.EnteredBy,
			GameID: r.GameID, SentePlayerID: deref(r.SentePlayerID), GotePlayerID: deref(r.GotePlayerID),
			Version: r.Version, Result: r.Result})
	}
	for _, r := range rulings {
		out = append(out, StartChange{Kind: ChangeRuling, At: r.MadeAt, EventID: r.EventID, ActorID: r.ArbiterID,
			GameID: r.GameID, SentePlayerID: deref(r.SentePlayerID), GotePlayerID: deref(r.GotePlayerID),
			RulingKind: r.Kind, RulingPlayer: r.Player})
	}
	for _, d := range draws {
		out = append(out, StartChange{Kind: ChangeDraw, At: d.At, EventID: d.EventID, ActorID: d.ActorID,
			StageID: d.StageID, Place: d.Place, PlaceEn: d.PlaceEn, PlaceKind: d.Kind, Action: d.Action})
	}
	for _, d := range schedules {
		out = append(out, StartChange{Kind: ChangeSchedule, At: d.At, EventID: d.EventID, ActorID: d.ActorID,
			ClassID: d.ClassID, Place: d.Place, Action: d.Action})
	}
	days, err := o.startDayChanges(ctx, sc)
	if err != nil {
		return nil, err
	}
	out = append(out, days...)
	slices.SortStableFunc(out, func(a, b StartChange) int { return b.At.Compare(a.At) })
	if len(out) > startChangeLimit {
		out = out[:startChangeLimit]
	}
	return out, nil
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// uniq drops zeros and repeats, keeping the first order.
func uniq(ids []int64) []int64 {
	seen := map[int64]bool{}
	var out []int64
	for _, id := range ids {
		if id != 0 && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}
