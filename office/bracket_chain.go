package office

import (
	"kisen/pairing"
	"kisen/store"
)

// chainResult is a bracket game's redo chain read through DecidingGame.
type chainResult struct {
	kg      store.KnockoutGame
	last    store.Game
	eff     store.ResultVersion
	version int // last's newest result version, confirmed or not
	decided bool
	redos   int
}

// furigoma is the simulated 振り駒 stored with the bracket game, decoded
// only when a page shows it (not on every sync of a result).
func (c chainResult) furigoma() *pairing.Furigoma {
	if c.kg.Furigoma == "" || c.kg.Furigoma == "{}" {
		return nil
	}
	var f pairing.Furigoma
	if unmarshalFurigoma(c.kg.Furigoma, &f) != nil {
		return nil
	}
	return &f
}

// observed is the physical 振り駒 entered for the bracket game, if any.
func (c chainResult) observed() *pairing.Furigoma {
	if f, ok := decodeFurigoma(c.kg.Observed); ok {
		return &f
	}
	return nil
}

func readChain(gs store.GameSet, kg store.KnockoutGame) (chainResult, error) {
	last, eff, ok, err := deciding(gs, kg.GameID)
	if err != nil {
		return chainResult{}, err
	}
	c := chainResult{kg: kg, last: last, eff: eff, decided: ok, redos: last.RedoNumber}
	if lv, has := gs.Latest(last.ID); has {
		c.version = lv.Version
	}
	return c, nil
}

// winnerOf is the entrant who won a decided chain, from the seats of its
// deciding game (a redo swaps colours, D-R1); both_lose has no winner.
func (c chainResult) winnerOf() (string, bool) {
	switch c.eff.Result {
	case ResultSenteWin:
		if c.last.SentePlayerID != nil {
			return entrantID(*c.last.SentePlayerID), true
		}
	case ResultGoteWin:
		if c.last.GotePlayerID != nil {
			return entrantID(*c.last.GotePlayerID), true
		}
	}
	return "", false
}

// outcome is what a decided chain gives the bracket: the winner (played,
// or by forfeit or withdrawal), or, for both_lose, the players who both
// leave.
func (c chainResult) outcome(game string) (r pairing.Result, won bool, out []string) {
	if w, ok := c.winnerOf(); ok {
		kind := pairing.Played
		if c.eff.Reason == ReasonForfeit || c.eff.Reason == ReasonWithdrawal {
			kind = pairing.Forfeit
		}
		return pairing.Result{Game: game, Winner: w, Kind: kind}, true, nil
	}
	if c.eff.Result == ResultBothLose {
		return pairing.Result{}, false, c.players()
	}
	return pairing.Result{}, false, nil
}

func (c chainResult) players() []string {
	var out []string
	for _, p := range []*int64{c.last.SentePlayerID, c.last.GotePlayerID} {
		if p != nil {
			out = append(out, entrantID(*p))
		}
	}
	return out
}
