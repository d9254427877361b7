package office

import (
	"context"
	"errors"
	"fmt"

	"kisen/store"
)

// Who sees a draft event (docs/accounts-and-events.md "Events"; docs/drafts-and-roles.md).
//
// One rule for every page of an event — the event itself, its stages,
// brackets, games, records and their previews, league classes, tables and
// exports: published and finished events are public; a draft is seen by
// administrators and by anyone holding any role on it (director,
// scheduler, arbiter, recorder). Everyone else is told it does not exist
// (ErrNotFound, 404), not that it is forbidden, so a draft's existence is
// not disclosed. Kisen has no organiser staff apart from these roles.
//
// Writes use the same rule first: a user who may not see the event gets
// ErrNotFound from requireEventRole as well, and a role holder without the
// right role gets ErrForbidden. So a preview and its save, both checking
// the same roles through requireEventRole, answer alike for every actor.

// StaffRoles are the roles whose holders see an event in draft: all of
// them.
var StaffRoles = EventRoleNames

// holdsEventRole reports whether the actor is an administrator or holds
// one of roles in the event.
func holdsEventRole(ctx context.Context, s *store.Store, actor Actor, eventID int64, roles ...string) (bool, error) {
	if actor.Anonymous() {
		return false, nil
	}
	if actor.Token != nil { // only a read_drafts token sees its event in draft
		return actor.Token.EventID == eventID && actor.Token.Scope == ScopeReadDrafts, nil
	}
	if actor.Admin {
		return true, nil
	}
	return s.HasEventRole(ctx, eventID, actor.UserID, roles...)
}

// mayViewEvent is the one visibility rule: nil when the actor may see e,
// an error wrapping ErrNotFound when e is a draft the actor may not see.
func mayViewEvent(ctx context.Context, s *store.Store, actor Actor, e store.Event) error {
	if e.Status != StatusDraft {
		return nil
	}
	ok, err := holdsEventRole(ctx, s, actor, e.ID, StaffRoles...)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("event %d is a draft: %w", e.ID, store.ErrNotFound)
	}
	return nil
}

// mayViewEventID is mayViewEvent for an event known by its id (a missing
// event is ErrNotFound too).
func mayViewEventID(ctx context.Context, s *store.Store, actor Actor, eventID int64) (store.Event, error) {
	e, err := s.EventByID(ctx, eventID)
	if err != nil {
		return store.Event{}, err
	}
	return e, mayViewEvent(ctx, s, actor, e)
}

// CanSeeEvent reports whether the actor may see the event's pages (for
// links and lists; pages themselves get ErrNotFound from office).
func (o *Office) CanSeeEvent(ctx context.Context, actor Actor, e store.Event) bool {
	return mayViewEvent(ctx, o.store, actor, e) == nil
}

// IsDraft reports whether an event is a draft: its pages carry the
// 下書き mark for those who may see them.
func IsDraft(e store.Event) bool { return e.Status == StatusDraft }

// hiddenOrForbidden turns a refused role check into the answer the actor
// gets: ErrNotFound when the actor may not even see the event (a draft),
// else the ErrForbidden it was.
func hiddenOrForbidden(ctx context.Context, s *store.Store, actor Actor, eventID int64, refused error) error {
	_, err := mayViewEventID(ctx, s, actor, eventID)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return err
	case err != nil:
		return err
	}
	return refused
}
