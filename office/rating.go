package office

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"kisen/rating"
	"kisen/store"
)

// Ratings are derived data (issue 7). The stored tables player_ratings
// and rating_history always come from one full recompute over every game
// of a public event, its latest confirmed result (store.EffectiveResults)
// and the rating settings. Instead of hooking every place that writes a
// result, each read compares a fingerprint of those inputs with the one
// stored beside the ratings and recomputes, in one transaction, when they
// differ. So the ratings shown always equal a full recompute, whichever
// use case (result entry, confirmation, bracket quick result, league
// import, a published event) changed the inputs.

// RatingSummary is what one recompute found; `kisen rating recompute`
// prints it as JSON.
type RatingSummary struct {
	Model        rating.Model   `json:"model"`
	Players      int            `json:"players"`       // the roster: every registered player
	PlayersRated int            `json:"players_rated"` // players with at least one rated game
	GamesUsed    int            `json:"games_used"`    // rated games
	GamesSkipped map[string]int `json:"games_skipped"` // games not rated, by reason
	ComputedAt   time.Time      `json:"computed_at"`
	Fingerprint  string         `json:"fingerprint"`
	// Recomputed is false when the stored ratings were already current.
	Recomputed bool `json:"recomputed"`
}

// RefreshRatings makes the stored ratings current: a no-op when the
// inputs are unchanged since the last recompute, else a full recompute.
// Public: any reader may trigger it; it only ever writes derived data.
func (o *Office) RefreshRatings(ctx context.Context) (RatingSummary, error) {
	return o.refreshRatings(ctx, false)
}

// RecomputeRatings recomputes every rating from scratch even when the
// inputs look unchanged. It is for `kisen rating recompute`, which runs
// with the database's own credentials; it writes only derived data, so it
// takes no actor.
func (o *Office) RecomputeRatings(ctx context.Context) (RatingSummary, error) {
	return o.refreshRatings(ctx, true)
}

func (o *Office) refreshRatings(ctx context.Context, force bool) (RatingSummary, error) {
	if !force {
		// A cheap check outside a write transaction: most reads find the
		// ratings current and never take the write lock.
		fp, _, err := ratingFingerprint(ctx, o.store)
		if err != nil {
			return RatingSummary{}, err
		}
		if st, ok, err := o.store.RatingStateRow(ctx); err != nil {
			return RatingSummary{}, err
		} else if ok && st.Fingerprint == fp {
			return summaryOf(st), nil
		}
	}
	var out RatingSummary
	err := o.store.Tx(ctx, func(tx *store.Store) error {
		st, err := tx.LockRatingState(ctx, o.now())
		if err != nil {
			return err
		}
		in, err := loadRatingInput(ctx, tx)
		if err != nil {
			return err
		}
		if !force && st.Fingerprint == in.fingerprint { // another reader won the race
			out = summaryOf(st)
			return nil
		}
		out, err = recomputeRatings(ctx, tx, in, o.now())
		return err
	})
	return out, err
}

func summaryOf(st store.RatingState) RatingSummary {
	var s RatingSummary
	_ = json.Unmarshal([]byte(st.Summary), &s) // written by recomputeRatings; a bad row reads as empty
	s.Fingerprint, s.ComputedAt = st.Fingerprint, st.ComputedAt
	return s
}

// recomputeRatings rates every game from scratch and replaces the stored
// ratings, inside tx.
func recomputeRatings(ctx context.Context, tx *store.Store, in ratingInput, now time.Time) (RatingSummary, error) {
	games, skipped := ratingGames(in)
	roster := make([]string, len(in.players))
	for i, id := range in.players {
		roster[i] = idString(id)
	}
	st, err := rating.Recompute(in.settings, roster, games)
	if err != nil {
		return RatingSummary{}, fmt.Errorf("recompute ratings: %w", err)
	}
	for _, s := range st.Skipped() {
		skipped[string(s.Reason)]++
	}
	sum := RatingSummary{Model: in.settings.Model, Players: len(roster), GamesSkipped: skipped,
		ComputedAt: now.UTC(), Fingerprint: in.fingerprint, Recomputed: true}
	var rows []store.PlayerRating
	var hist []store.RatingHistoryEntry
	for _, r := range st.Ratings() {
		pid, err := strconv.ParseInt(r.Player, 10, 64)
		if err != nil {
			return RatingSummary{}, fmt.Errorf("rating of player %q: %w", r.Player, err)
		}
		row := store.PlayerRating{PlayerID: pid, Rating: r.Rating, RD: r.RD, Volatility: r.Volatility,
			Games: r.Games, Wins: r.Wins, Losses: r.Losses}
		if !r.LastPlayed.IsZero() {
			t := r.LastPlayed
			row.LastPlayed = &t
		}
		rows = append(rows, row)
		if r.Games > 0 {
			sum.PlayersRated++
		}
		for i, h := range st.History(r.Player) {
			gid, err1 := strconv.ParseInt(h.Game, 10, 64)
			opp, err2 := strconv.ParseInt(h.Opponent, 10, 64)
			if err1 != nil || err2 != nil {
				return RatingSummary{}, fmt.Errorf("history of player %d: game %q opponent %q", pid, h.Game, h.Opponent)
			}
			hist = append(hist, store.RatingHistoryEntry{PlayerID: pid, Seq: i + 1, GameID: gid, OpponentID: opp,
				PlayedAt: h.Date, Period: h.Period, Sente: h.Sente, Won: h.Result == rating.Win,
				RatingBefore: h.Before, RatingAfter: h.After, OpponentBefore: h.OpponentBefore,
				RDBefore: h.RDBefore, RDAfter: h.RDAfter})
		}
	}
	sum.GamesUsed = len(games) - len(st.Skipped())
	if sum.GamesSkipped == nil {
		sum.GamesSkipped = map[string]int{}
	}
	b, err := json.Marshal(struct {
		Model        rating.Model   `json:"model"`
		Players      int            `json:"players"`
		PlayersRated int            `json:"players_rated"`
		GamesUsed    int            `json:"games_used"`
		GamesSkipped map[string]int `json:"games_skipped"`
	}{sum.Model, sum.Players, sum.PlayersRated, sum.GamesUsed, sum.GamesSkipped})
	if err != nil {
		return RatingSummary{}, err
	}
	err = tx.ReplaceRatings(ctx, rows, hist, store.RatingState{Fingerprint: in.fingerprint, Summary: string(b), ComputedAt: now})
	return sum, err
}

// SkipReasons lists the reasons in a summary in a stable order.
func (s RatingSummary) SkipReasons() []string { return slices.Sorted(maps.Keys(s.GamesSkipped)) }
