package office

import (
	"context"
	"errors"
	"fmt"

	"kisen/store"
)

// Who sees a part of an event before it is published (issue 21 items 2 and
// 3; docs/drafts-and-roles.md). A knockout stage's draw and a league
// class's schedule are the organiser's working copy until published: the
// event's staff (StaffRoles, administrators, a read_drafts token) see
// them; everyone else is told they do not exist (ErrNotFound, 404), exactly
// as for a missing stage or class, and lists leave them out. The same holds
// for a game a stage or class played before its publication was taken back
// (a void game of an unpublished part): the game page, its record, the API
// and the record downloads answer 404.
//
// The event's own rule (mayViewEvent) comes first; these rules only narrow
// it. A conditional GET (web/site/cache.go) asks them before it may answer 304.

// mayViewClass is the class's rule after its event's: nil when c is
// published or the actor is the event's staff.
func mayViewClass(ctx context.Context, s *store.Store, actor Actor, c store.LeagueClass) error {
	if c.Status == LeaguePublished {
		return nil
	}
	staff, err := holdsEventRole(ctx, s, actor, c.EventID, StaffRoles...)
	if err != nil {
		return err
	}
	if !staff {
		return fmt.Errorf("league class %d is %s, not published: %w", c.ID, c.Status, ErrNotFound)
	}
	return nil
}

// mayViewGame is a game's rule after its event's: a game of an
// unpublished stage or class (its redo chain's first game is one of their
// games) is only for the event's staff.
func mayViewGame(ctx context.Context, s *store.Store, actor Actor, g store.Game) error {
	hidden, err := s.GameOfUnpublishedPart(ctx, g.ID)
	if err != nil || !hidden {
		return err
	}
	staff, err := holdsEventRole(ctx, s, actor, g.EventID, StaffRoles...)
	if err != nil {
		return err
	}
	if !staff {
		return fmt.Errorf("game %d belongs to an unpublished stage or class: %w", g.ID, ErrNotFound)
	}
	return nil
}

// Game loads a game for an actor who may see it: its event's rule, then
// the rule of the stage or class it belongs to (mayViewGame). A game the
// actor may not see is ErrNotFound, like a missing one.
func (o *Office) Game(ctx context.Context, actor Actor, gameID int64) (store.Game, store.Event, error) {
	g, err := o.store.GameByID(ctx, gameID)
	if err != nil {
		return store.Game{}, store.Event{}, err
	}
	e, err := mayViewEventID(ctx, o.store, actor, g.EventID)
	if err != nil {
		return store.Game{}, store.Event{}, err
	}
	if err := mayViewGame(ctx, o.store, actor, g); err != nil {
		return store.Game{}, store.Event{}, err
	}
	return g, e, nil
}

// The *EventOf reads below are what a conditional GET asks before it may
// answer 304 (web/site/cache.go): the event the resource belongs to, or
// ErrNotFound when the resource is missing or the part's own rule hides it
// from the actor. The event's rule is PageRevision's, asked next, so the
// event is read once.

// StageEventOf is the event of a knockout stage the actor may see (the
// stage's own rule: published, or the event's staff).
func (o *Office) StageEventOf(ctx context.Context, actor Actor, stageID int64) (int64, error) {
	st, err := o.store.StageByID(ctx, stageID)
	if err != nil {
		return 0, err
	}
	if st.Status != StagePublished && !o.canManageStages(ctx, actor, st.EventID) {
		return 0, fmt.Errorf("stage %d: %w", stageID, ErrNotFound)
	}
	return st.EventID, nil
}

// ClassOf is a league class row the actor may see by the class's own rule
// (the event's rule is PageRevision's or StandingsRead's).
func (o *Office) ClassOf(ctx context.Context, actor Actor, classID int64) (store.LeagueClass, error) {
	c, err := o.store.LeagueClassByID(ctx, classID)
	if err != nil {
		return store.LeagueClass{}, err
	}
	if err := mayViewClass(ctx, o.store, actor, c); err != nil {
		return store.LeagueClass{}, err
	}
	return c, nil
}

// GameEventOf is the event of a game the actor may see by the game's own
// rule (mayViewGame).
func (o *Office) GameEventOf(ctx context.Context, actor Actor, gameID int64) (int64, error) {
	g, err := o.store.GameByID(ctx, gameID)
	if err != nil {
		return 0, err
	}
	if err := mayViewGame(ctx, o.store, actor, g); err != nil {
		return 0, err
	}
	return g.EventID, nil
}

// HiddenGames is mayViewGame for a list of an event's games (gs, its game
// set): the games the actor may not see, those of unpublished stages and
// classes with their redo chains, for whoever is not the event's staff.
// Lists (the event's games page, the API, the record zip) leave them out.
// One statement, and none when the actor is the staff.
func (o *Office) HiddenGames(ctx context.Context, actor Actor, eventID int64, gs store.GameSet) (map[int64]bool, error) {
	hidden := map[int64]bool{}
	staff, err := holdsEventRole(ctx, o.store, actor, eventID, StaffRoles...)
	if err != nil || staff {
		return hidden, err
	}
	roots, err := o.store.UnpublishedGamesOfEvent(ctx, eventID)
	if err != nil {
		return nil, err
	}
	for id := range roots {
		for _, g := range chainOf(gs, id) {
			hidden[g] = true
		}
	}
	return hidden, nil
}

// requireClassRole is RequireEventRole for a write to a league class: a
// refusal (ErrForbidden) to someone who may not even see the class (an
// unpublished one, for whoever is not the event's staff) is ErrNotFound,
// identical to a missing class, as hiddenOrForbidden does for a draft.
func (o *Office) requireClassRole(ctx context.Context, actor Actor, c store.LeagueClass, roles ...string) error {
	err := o.RequireEventRole(ctx, actor, c.EventID, roles...)
	if errors.Is(err, ErrForbidden) {
		if verr := mayViewClass(ctx, o.store, actor, c); verr != nil {
			return verr
		}
	}
	return err
}
