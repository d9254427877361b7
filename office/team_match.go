package office

import (
	"context"
	"strconv"
	"time"

	"kisen/pairing"
	"kisen/store"
)

// Team matches (issue 25 item 3, docs/team-matches.md): the parts of a team
// match that live with the games — creating a board's ordinary game, the
// match's one 振り駒, and reading each board's official result — for
// office/teams, which runs the use cases.

// CreateTeamBoardGameIn creates the ordinary game of one board inside the
// caller's transaction: 平手, the given sente and gote. Everything that
// applies to a game (results, redo games, foul claims, rulings, records)
// applies to it.
func CreateTeamBoardGameIn(ctx context.Context, tx *store.Store, eventID int64, label string, sente, gote int64, now time.Time) (int64, error) {
	now = now.UTC()
	g := store.Game{EventID: eventID, Label: label, SentePlayerID: &sente, GotePlayerID: &gote,
		Handicap: string(pairing.Hirate), CreatedAt: now, UpdatedAt: now}
	if err := tx.CreateGame(ctx, &g); err != nil {
		return 0, err
	}
	return g.ID, nil
}

// TeamMatchToss is the match's one 振り駒 (D-F1..F3), simulated from the
// match's seed: team A's board-1 player tosses, and the record is JSON for
// the match row. aSente reports whether team A's board-1 player has sente.
func TeamMatchToss(seed string, matchID int64) (aSente bool, record string, err error) {
	rng, err := tossRand(seed, "team-match-"+strconv.FormatInt(matchID, 10))
	if err != nil {
		return false, "", err
	}
	f, err := pairing.Simulate(rng, "a", "b", pairing.DefaultTossOdds())
	if err != nil {
		return false, "", err
	}
	return f.Sente == "a", mustJSON(f), nil
}

// TeamBoardOutcome is a board's result as the team engine reads it, from
// the official result of the board's game chain (a redo game's result
// counts, D-R1): "" while not final. aPlayer is team A's player.
func TeamBoardOutcome(gs store.GameSet, gameID, aPlayer int64) (pairing.BoardOutcome, error) {
	last, eff, ok, err := deciding(gs, gameID)
	if err != nil || !ok {
		return pairing.BoardPending, err
	}
	var winner *int64
	switch eff.Result {
	case ResultSenteWin:
		winner = last.SentePlayerID
	case ResultGoteWin:
		winner = last.GotePlayerID
	case ResultBothLose:
		return pairing.BoardUnplayed, nil
	default:
		return pairing.BoardPending, nil
	}
	if winner == nil {
		return pairing.BoardPending, nil
	}
	aWon := *winner == aPlayer
	forfeit := eff.Reason == ReasonForfeit || eff.Reason == ReasonWithdrawal
	switch {
	case aWon && forfeit:
		return pairing.BoardAForfeit, nil
	case aWon:
		return pairing.BoardA, nil
	case forfeit:
		return pairing.BoardBForfeit, nil
	}
	return pairing.BoardB, nil
}
