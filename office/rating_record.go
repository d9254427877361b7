package office

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"kisen/rating"
	"kisen/store"
)

// PlayerGame is one game of a player's record, from the player's side.
type PlayerGame struct {
	Game      store.Game
	Event     store.Event
	Opponent  store.Player // zero while the other seat is empty
	Sente     bool
	PlayedAt  time.Time
	Result    string // ResultSenteWin… of the effective result; "" while none is confirmed
	Reason    string
	Won, Lost bool
	HasRecord bool // a 棋譜 is stored for the game
	// Rated is set when the game moved the ratings; Before/After are the
	// player's rating around it.
	Rated         bool
	Before, After float64
}

// PlayerRecord is a player's public record: rating, rated history (for a
// chart), every game in public events, and the opponents met.
type PlayerRecord struct {
	Player    store.Player
	Rating    store.PlayerRating
	HasRating bool // false only before the first recompute
	History   []store.RatingHistoryEntry
	Games     []PlayerGame // newest first
	Opponents []store.Player
	Summary   RatingSummary
}

// PlayerRecord gathers a player's record (public; only games of public
// events). The ratings are refreshed first.
func (o *Office) PlayerRecord(ctx context.Context, playerID int64) (PlayerRecord, error) {
	p, err := o.store.PlayerByID(ctx, playerID)
	if err != nil {
		return PlayerRecord{}, err
	}
	sum, err := o.RefreshRatings(ctx)
	if err != nil {
		return PlayerRecord{}, err
	}
	rec := PlayerRecord{Player: p, Summary: sum}
	if rec.Rating, rec.HasRating, err = o.store.PlayerRatingOf(ctx, playerID); err != nil {
		return PlayerRecord{}, err
	}
	if rec.History, err = o.store.RatingHistoryOf(ctx, playerID); err != nil {
		return PlayerRecord{}, err
	}
	if rec.Games, err = o.playerGames(ctx, playerID); err != nil {
		return PlayerRecord{}, err
	}
	rated := make(map[int64]store.RatingHistoryEntry, len(rec.History))
	for _, h := range rec.History {
		rated[h.GameID] = h
	}
	seen := map[int64]bool{}
	for i := range rec.Games {
		g := &rec.Games[i]
		if h, ok := rated[g.Game.ID]; ok {
			g.Rated, g.Before, g.After = true, h.RatingBefore, h.RatingAfter
		}
		if g.Opponent.ID != 0 && !seen[g.Opponent.ID] {
			seen[g.Opponent.ID] = true
			rec.Opponents = append(rec.Opponents, g.Opponent)
		}
	}
	slices.SortFunc(rec.Opponents, func(a, b store.Player) int {
		return cmp.Or(strings.Compare(a.Reading, b.Reading), cmp.Compare(a.ID, b.ID))
	})
	return rec, nil
}

// playerGames lists the player's games in public events with their
// effective results, newest first.
func (o *Office) playerGames(ctx context.Context, playerID int64) ([]PlayerGame, error) {
	games, err := o.store.PlayerGamesIn(ctx, playerID, PublicStatuses)
	if err != nil {
		return nil, err
	}
	var eventIDs, oppIDs []int64
	for _, g := range games {
		eventIDs = append(eventIDs, g.EventID)
		if opp := opponentOf(g, playerID); opp != 0 {
			oppIDs = append(oppIDs, opp)
		}
	}
	events, err := o.store.EventsByIDs(ctx, eventIDs)
	if err != nil {
		return nil, err
	}
	opps, err := o.store.PlayersByIDs(ctx, oppIDs)
	if err != nil {
		return nil, err
	}
	// Results in force and records' presence for all the player's games
	// at once: a fixed number of statements whatever the record's length
	// (issue 12).
	gs, err := o.store.GameSetOfPlayer(ctx, playerID)
	if err != nil {
		return nil, err
	}
	recorded, err := o.store.RecordedGamesOfPlayer(ctx, playerID)
	if err != nil {
		return nil, err
	}
	out := make([]PlayerGame, 0, len(games))
	for _, g := range games {
		pg := PlayerGame{Game: g, Event: events[g.EventID], Opponent: opps[opponentOf(g, playerID)],
			Sente: g.SentePlayerID != nil && *g.SentePlayerID == playerID}
		r, ok := gs.Effective(g.ID)
		pg.PlayedAt = gamePlayedAt(g, r)
		if ok {
			pg.Result, pg.Reason = r.Result, r.Reason
			pg.Won = r.Result == ResultSenteWin && pg.Sente || r.Result == ResultGoteWin && !pg.Sente
			pg.Lost = r.Result == ResultSenteWin && !pg.Sente || r.Result == ResultGoteWin && pg.Sente ||
				r.Result == ResultBothLose
		} else if g.ScheduledOn == nil && g.StartedAt == nil {
			pg.PlayedAt = time.Time{} // not played and no day set
		}
		pg.HasRecord = recorded[g.ID]
		out = append(out, pg)
	}
	slices.SortStableFunc(out, func(a, b PlayerGame) int {
		return cmp.Or(b.PlayedAt.Compare(a.PlayedAt), cmp.Compare(b.Game.ID, a.Game.ID))
	})
	return out, nil
}

func opponentOf(g store.Game, playerID int64) int64 {
	switch {
	case g.SentePlayerID != nil && *g.SentePlayerID == playerID && g.GotePlayerID != nil:
		return *g.GotePlayerID
	case g.GotePlayerID != nil && *g.GotePlayerID == playerID && g.SentePlayerID != nil:
		return *g.SentePlayerID
	}
	return 0
}

// HeadToHeadRecord is two players' record against each other.
type HeadToHeadRecord struct {
	Player, Opponent store.Player
	rating.HeadToHead
	Games []PlayerGame // their games, newest first, from Player's side
}

// HeadToHead is the record between two players over confirmed games of
// public events (rating.HeadToHeadOf: handicap games count, forfeits and
// unconfirmed games do not; 千日手/持将棋 are counted apart). Public.
func (o *Office) HeadToHead(ctx context.Context, playerID, opponentID int64) (HeadToHeadRecord, error) {
	if playerID == opponentID {
		v := &ValidationError{}
		v.Add(0, "opponent", "rating.err.same_player", nil)
		return HeadToHeadRecord{}, v
	}
	p, err := o.store.PlayerByID(ctx, playerID)
	if err != nil {
		return HeadToHeadRecord{}, err
	}
	opp, err := o.store.PlayerByID(ctx, opponentID)
	if err != nil {
		return HeadToHeadRecord{}, err
	}
	all, err := o.playerGames(ctx, playerID)
	if err != nil {
		return HeadToHeadRecord{}, err
	}
	out := HeadToHeadRecord{Player: p, Opponent: opp}
	var games []rating.Game
	for _, g := range all {
		if g.Opponent.ID != opponentID {
			continue
		}
		out.Games = append(out.Games, g)
		if g.Result == "" {
			continue
		}
		rg := ratingGameOf(g.Game, store.ResultVersion{GameResult: store.GameResult{Result: g.Result, Reason: g.Reason}})
		rg.Confirmed = g.Result != ResultPending // only confirmed versions reach here
		rg.Date = g.PlayedAt
		games = append(games, rg)
	}
	h, err := rating.HeadToHeadOf(idString(playerID), idString(opponentID), games)
	if err != nil {
		return HeadToHeadRecord{}, fmt.Errorf("head to head %d–%d: %w", playerID, opponentID, err)
	}
	out.HeadToHead = h
	return out, nil
}
