package office

import (
	"context"

	"kisen/store"
)

// The reads below serve pages whose subject the web has already resolved
// through a use case that knows the actor (the event, the stage, the game
// or the staff role); each comment says which. They add nothing to a
// page's statements: they are the one query the page made before, now
// asked of the office instead of the store (docs/rooms.md, "web reads
// through office").

// SessionStore keeps signed-in sessions in the database (scs's Store).
type SessionStore = store.SessionStore

// Sessions returns the database session store on the office's clock.
func (o *Office) Sessions() *SessionStore { return store.NewSessionStore(o.store, o.now) }

// IsUnavailable reports whether err means the database could not be
// reached or is shutting down (the web answers 503, not 500).
func IsUnavailable(err error) bool { return store.IsUnavailable(err) }

// SignedInUser loads the user a session names, disabled or not: the
// session middleware decides what a disabled or missing user means.
func (o *Office) SignedInUser(ctx context.Context, id int64) (User, error) {
	return o.store.UserByID(ctx, id)
}

// StaffNames maps user ids to the users, for pages that name who did
// what (the reception desk's "checked in by"). Only staff pages call it,
// after their role check.
func (o *Office) StaffNames(ctx context.Context, ids []int64) (map[int64]User, error) {
	return o.store.UsersByIDs(ctx, ids)
}

// PlayersByIDs loads the named players (registry rows are public); the
// caller has read the games that name them through a use case that knows
// the actor.
func (o *Office) PlayersByIDs(ctx context.Context, ids []int64) (map[int64]Player, error) {
	return o.store.PlayersByIDs(ctx, ids)
}

// RatingsPageRevision names the state of the public ratings pages (for
// conditional requests); the ratings are public.
func (o *Office) RatingsPageRevision(ctx context.Context) (string, error) {
	return o.store.RatingsPageRevision(ctx)
}

// LatestResultOf is the newest result version of a game the actor may
// see, and whether there is one.
func (o *Office) LatestResultOf(ctx context.Context, actor Actor, gameID int64) (ResultVersion, bool, error) {
	if _, _, err := o.Game(ctx, actor, gameID); err != nil {
		return ResultVersion{}, false, err
	}
	return o.store.LatestResult(ctx, gameID)
}
