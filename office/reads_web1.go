package office

import (
	"context"
	"time"
)

// The reads of the web's API, game, bracket, live, embed, event and health
// pages (issue 22 §1, "web reads through office"). Each is the statement
// the page made before, now asked of the office: none adds a query. A
// read that could show what the actor may not see takes the Actor and
// applies the visibility rule (visibility.go, publication_visibility.go);
// the others serve a subject the web has already resolved through a use
// case that knows the actor, and their comments say which.

// Ping checks the database answers (ErrUnavailable, IsUnavailable, when it
// does not): the readiness probe's one question.
func (o *Office) Ping(ctx context.Context) error { return o.store.Ping(ctx) }

// Dialect is the database the office runs on (the readiness probe names
// it; the API shares its rate limit through PostgreSQL).
func (o *Office) Dialect() Dialect { return o.store.Dialect() }

// RateSpend takes one request from client's shared rate bucket at now (a
// bucket of burst requests, one more every every): whether it may go, and
// else how long until it may. One statement; no actor: the bucket is the
// client address's, not anyone's data.
func (o *Office) RateSpend(ctx context.Context, client string, now time.Time, every time.Duration, burst int) (bool, time.Duration, error) {
	return o.store.RateSpend(ctx, client, now, every, burst)
}

// PruneRateLimits deletes the shared rate buckets that are full again at now.
func (o *Office) PruneRateLimits(ctx context.Context, now time.Time) error {
	return o.store.PruneRateLimits(ctx, now)
}

// SettingOrCreate reads the process-wide setting key, storing create's
// value first when there is none (the first process to ask wins; every
// other reads its value). For the server's own secrets, such as the key
// API cursors are signed with; never shown to anyone, so no actor.
func (o *Office) SettingOrCreate(ctx context.Context, key string, create func() (string, error)) (string, error) {
	return o.store.SettingOrCreate(ctx, key, create, o.now())
}

// OrganisersOf lists the organisers of es, by name: an organiser is public
// through its events (its name is on each event's page). The caller read es
// through Events or Event with the actor. One statement, as the list of all
// organisers it filters.
func (o *Office) OrganisersOf(ctx context.Context, es []Event) ([]Organiser, error) {
	shown := make(map[int64]bool, len(es))
	for _, e := range es {
		shown[e.OrganiserID] = true
	}
	all, err := o.store.Organisers(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Organiser, 0, len(shown))
	for _, org := range all {
		if shown[org.ID] {
			out = append(out, org)
		}
	}
	return out, nil
}

// EventOrganiser is the organiser of e, named on its page; the caller read
// e through Event with the actor.
func (o *Office) EventOrganiser(ctx context.Context, e Event) (Organiser, error) {
	return o.store.OrganiserByID(ctx, e.OrganiserID)
}

// DayEventIDs reports which of the events ids are amateur days (one
// statement); the caller listed them through Events with the actor.
func (o *Office) DayEventIDs(ctx context.Context, ids []int64) (map[int64]bool, error) {
	return o.store.DayEventIDs(ctx, ids)
}

// IsDayEvent reports whether an event is an amateur day; the caller read
// the event through Event with the actor.
func (o *Office) IsDayEvent(ctx context.Context, eventID int64) (bool, error) {
	return o.store.IsDayEvent(ctx, eventID)
}

// EventGames reads every game of an event in one set (results, void
// marks) with the games the actor may not see (HiddenGames: those of
// unpublished stages and classes and their redo chains, for whoever is not
// the event's staff); lists leave the hidden ones out. The caller has read
// the event through Event with the actor, which answers ErrNotFound for a
// draft the actor may not see.
func (o *Office) EventGames(ctx context.Context, actor Actor, eventID int64) (GameSet, map[int64]bool, error) {
	gs, err := o.store.GameSetOfEvent(ctx, eventID)
	if err != nil {
		return GameSet{}, nil, err
	}
	hidden, err := o.HiddenGames(ctx, actor, eventID, gs)
	if err != nil {
		return GameSet{}, nil, err
	}
	return gs, hidden, nil
}

// RedoGames lists every redo game of a game, void ones included, in order;
// the caller read the game through Game (or GameWrittenByToken) with the
// actor, and a redo game is seen with the game it replays.
func (o *Office) RedoGames(ctx context.Context, gameID int64) ([]Game, error) {
	return o.store.AllRedoGames(ctx, gameID)
}

// GameVoidMark is a game's void mark, and whether it has one; the caller
// read the game (or the game it replays) through Game with the actor.
func (o *Office) GameVoidMark(ctx context.Context, gameID int64) (GameVoid, bool, error) {
	return o.store.GameVoidOf(ctx, gameID)
}

// UserNames maps user ids to display names (the login when a user has
// none) for the logs of a game, a result or a setting the caller has read
// through a use case with the actor. One read per distinct id, as the pages
// have always made; a user that cannot be read is left out.
func (o *Office) UserNames(ctx context.Context, ids ...int64) map[int64]string {
	out := map[int64]string{}
	for _, id := range ids {
		if _, ok := out[id]; ok || id == 0 {
			continue
		}
		if u, err := o.store.UserByID(ctx, id); err == nil {
			out[id] = u.DisplayName
			if out[id] == "" {
				out[id] = u.Login
			}
		}
	}
	return out
}

// PlayerChoices lists up to limit players matching query by reading, for
// a form's choice of player (the registry is public, as SearchPlayers).
func (o *Office) PlayerChoices(ctx context.Context, query string, limit int) ([]Player, error) {
	ps, _, err := o.store.SearchPlayers(ctx, PlayerSearch{Query: query, Limit: limit})
	return ps, err
}

// EntrantsOfStage lists a stage's entrants by seed; the caller read the
// stage through Stage with the actor.
func (o *Office) EntrantsOfStage(ctx context.Context, stageID int64) ([]KnockoutEntrant, error) {
	return o.store.EntrantsOfStage(ctx, stageID)
}

// StageDrawLog is a stage's audit trail for a caller that has read the
// stage through Stage and checked DrawLog's roles with RequireEventRole
// (the stage page): DrawLog without the checks read twice.
func (o *Office) StageDrawLog(ctx context.Context, stageID int64) ([]DrawLogEntry, error) {
	return o.store.DrawLog(ctx, stageID)
}

// LabelStages are an event's knockout stages, for wording its games'
// labels in English (their English names); the caller read the event, or
// one of its games, through a use case with the actor, and rewrites only
// the labels of the games it shows.
func (o *Office) LabelStages(ctx context.Context, eventID int64) ([]KnockoutStage, error) {
	return o.store.StagesOfEvent(ctx, eventID)
}

// EventRevision is the revision of an event's pages, and whether the event
// has one (the live streams' event ids). A revision is two counters: it
// says that something changed, not what, so no actor; the stream checks
// the visibility first (PageRevision).
func (o *Office) EventRevision(ctx context.Context, eventID int64) (EventRevision, bool, error) {
	return o.store.EventRevision(ctx, eventID)
}

// WatchChanges calls fn with the events whose revision moved (PostgreSQL
// NOTIFY, or polling on SQLite) until ctx ends: the live pages' feed. What
// moved is ids only; each stream re-reads as its actor.
func (o *Office) WatchChanges(ctx context.Context, opt WatchOptions, fn func(Changes)) {
	o.store.WatchChanges(ctx, opt, fn)
}

// EmbedOriginsOfEvent is EmbedOrigins for an event known by its id (public:
// the list says only where the embed may be shown). read is false when the
// event itself could not be read (err says why), so that a caller can tell
// that from a failed read of the organiser.
func (o *Office) EmbedOriginsOfEvent(ctx context.Context, eventID int64) (origins []string, read bool, err error) {
	e, err := o.store.EventByID(ctx, eventID)
	if err != nil {
		return nil, false, err
	}
	origins, err = o.EmbedOrigins(ctx, e)
	return origins, true, err
}
