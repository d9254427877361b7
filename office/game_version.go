package office

import (
	"context"
	"fmt"

	"kisen/store"
)

// StaleError refuses a write to a game's result made from an out-of-date
// view: the person saw version Seen of game GameID (0: no result yet), but
// the game has moved on. Latest is the newest version now stored (Has is
// false when there is none: the game the person saw was replaced, e.g. by
// its redo game); InForce is the result that counts now (the latest
// confirmed version), HasInForce false when none does. It unwraps to
// ErrConflict (HTTP 409).
type StaleError struct {
	GameID     int64
	Seen       int
	Latest     store.ResultVersion
	Has        bool
	InForce    store.ResultVersion
	HasInForce bool
}

func (e *StaleError) Error() string {
	now := 0
	if e.Has {
		now = e.Latest.Version
	}
	return fmt.Sprintf("game %d: result version %d was seen, version %d is stored", e.GameID, e.Seen, now)
}

// Unwrap lets errors.Is(err, ErrConflict) hold.
func (e *StaleError) Unwrap() error { return ErrConflict }

// lockSeenVersion locks game gameID inside tx and checks that its newest
// result version is still the one the person saw (seen; 0 for none). This
// is the one check every write that changes a result makes, in the same
// transaction as the write, with the game row held (store.LockGame).
func lockSeenVersion(ctx context.Context, tx *store.Store, gameID int64, seen int) (store.Game, error) {
	g, err := tx.LockGame(ctx, gameID)
	if err != nil {
		return store.Game{}, err
	}
	latest, has, err := tx.LatestResult(ctx, gameID)
	if err != nil {
		return store.Game{}, err
	}
	cur := 0
	if has {
		cur = latest.Version
	}
	if cur == seen {
		return g, nil
	}
	return store.Game{}, staleError(ctx, tx, gameID, seen)
}

// staleError describes game gameID as it stands now for a refused write.
func staleError(ctx context.Context, tx *store.Store, gameID int64, seen int) error {
	latest, has, err := tx.LatestResult(ctx, gameID)
	if err != nil {
		return err
	}
	eff, hasEff, err := tx.EffectiveResult(ctx, gameID)
	if err != nil {
		return err
	}
	return &StaleError{GameID: gameID, Seen: seen, Latest: latest, Has: has, InForce: eff, HasInForce: hasEff}
}

// lockChainGame is the version check of a chain-level form (the bracket's
// quick result, the league's row buttons): the person saw game seenGame as
// the current game of the redo chain that starts at rootID, at result
// version seen. It locks seenGame, checks its version, and then — with the
// lock held — that the chain still ends there (no redo game was created
// since): otherwise a *StaleError. It returns where the chain stands.
func lockChainGame(ctx context.Context, tx *store.Store, rootID, seenGame int64, seen int) (store.Game, store.ResultVersion, bool, error) {
	// The form's game must be one of this chain's games before anything
	// about it is read or locked (issue 21): another event's game is not
	// found, exactly as a missing one, never a 409 describing it.
	if err := chainHolds(ctx, tx, rootID, seenGame); err != nil {
		return store.Game{}, store.ResultVersion{}, false, err
	}
	if _, err := lockSeenVersion(ctx, tx, seenGame, seen); err != nil {
		return store.Game{}, store.ResultVersion{}, false, err
	}
	last, eff, decided, err := decidingGame(ctx, tx, rootID)
	if err != nil {
		return store.Game{}, store.ResultVersion{}, false, err
	}
	if last.ID != seenGame {
		return store.Game{}, store.ResultVersion{}, false, staleError(ctx, tx, seenGame, seen)
	}
	return last, eff, decided, nil
}

// chainRoot is the first game of the redo chain game id belongs to.
func chainRoot(ctx context.Context, s *store.Store, id int64) (store.Game, error) {
	g, err := s.GameByID(ctx, id)
	for range 1000 { // a longer chain is corrupt data
		if err != nil || g.RedoOfID == nil {
			return g, err
		}
		g, err = s.GameByID(ctx, *g.RedoOfID)
	}
	return g, fmt.Errorf("game %d: redo chain too long", id)
}

// ChainHoldsIn is chainHolds for the rooms that write through a
// transaction of their own (office/day's boards).
func ChainHoldsIn(ctx context.Context, tx *store.Store, rootID, gameID int64) error {
	return chainHolds(ctx, tx, rootID, gameID)
}

// chainHolds checks that game gameID is one of the games of the redo chain
// that starts at rootID (the chain a bracket game, a league row or a day
// board stands for). A game id a form posts is checked with it before any
// version check, so a game of another chain — of another event, or one
// the actor may not see — is ErrNotFound, the answer a missing id gets
// (issue 21: a 409 page would describe the game and let ids be probed).
func chainHolds(ctx context.Context, s *store.Store, rootID, gameID int64) error {
	gs, err := s.GameSetOfChain(ctx, rootID)
	if err != nil {
		return err
	}
	if _, ok := gs.Games[gameID]; !ok {
		return fmt.Errorf("game %d is not in the chain of game %d: %w", gameID, rootID, ErrNotFound)
	}
	return nil
}
