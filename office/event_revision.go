package office

import (
	"context"
	"fmt"

	"kisen/store"
)

// PageRevision is what a conditional GET of an event's page compares
// (docs/caching.md): the event as the visitor may see it and the revision
// of everything its pages show.
type PageRevision struct {
	Event    store.Event
	Revision store.EventRevision
	// Known is false when the event has no revision row (a database
	// restored without its triggers): then nothing can be promised.
	Known bool
}

// PageRevision reads the revision of an event's pages for the actor. The
// visibility rule decides before anything is answered (mayViewEvent): a
// draft the actor may not see is ErrNotFound like a missing event, so a
// conditional GET cannot tell that a draft exists.
//
// The revision is read before the event, as before any data a view is
// computed from (view_cache.go): StandingsRead keeps a table computed with
// this event under this revision.
func (o *Office) PageRevision(ctx context.Context, actor Actor, eventID int64) (PageRevision, error) {
	rev, ok, err := o.store.EventRevision(ctx, eventID)
	if err != nil {
		return PageRevision{}, fmt.Errorf("page revision of event %d: %w", eventID, err)
	}
	e, err := mayViewEventID(ctx, o.store, actor, eventID)
	if err != nil {
		return PageRevision{}, err
	}
	return PageRevision{Event: e, Revision: rev, Known: ok}, nil
}
