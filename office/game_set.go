package office

import (
	"context"
	"errors"
	"fmt"

	"kisen/store"
)

// deciding follows a game's redo chain (D-R3, 000 第8条第4項) within a
// game set to its last game and returns it with its result in force; ok is
// false while the chain is not yet decided (no confirmed result, a pending
// one, or a redo waiting to be played). It is the one definition of where a
// chain stands: DecidingGame reads one chain's set, the bracket, league and
// record pages read one set for all their games (issue 12).
func deciding(gs store.GameSet, gameID int64) (store.Game, store.ResultVersion, bool, error) {
	g, ok := gs.Games[gameID]
	if !ok {
		return store.Game{}, store.ResultVersion{}, false, fmt.Errorf("game %d: %w", gameID, store.ErrNotFound)
	}
	for range 1000 { // a chain longer than this is corrupt data
		eff, ok := gs.Effective(g.ID)
		if !ok {
			return g, store.ResultVersion{}, false, nil
		}
		if eff.Result != ResultRedo {
			return g, eff, eff.Result != ResultPending, nil
		}
		redos := gs.Redos(g.ID)
		if len(redos) == 0 {
			return g, eff, false, nil
		}
		g = redos[0]
	}
	return g, store.ResultVersion{}, false, errors.New("redo chain too long")
}

// decidingGame is DecidingGame read through s (a transaction's store).
func decidingGame(ctx context.Context, s *store.Store, gameID int64) (store.Game, store.ResultVersion, bool, error) {
	gs, err := s.GameSetOfChain(ctx, gameID)
	if err != nil {
		return store.Game{}, store.ResultVersion{}, false, err
	}
	return deciding(gs, gameID)
}
