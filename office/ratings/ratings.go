// Package ratings is the rating room of office (issue 7, docs/ratings.md):
// the stored ratings' recompute and its background worker, the rating
// list, a player's record and head-to-head, the rating settings and
// seeding a bracket by rating. Each use case is one transaction over the
// store with the pure kisen/rating room. It imports office and store;
// office never imports it (docs/rooms.md).
package ratings

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"kisen/office"
	"kisen/rating"
	"kisen/store"
)

// Ratings runs the rating use cases over the office's store, clock and
// view cache. It holds no per-request state.
type Ratings struct {
	off   *office.Office
	store *store.Store
	now   func() time.Time
}

// New returns the rating use cases of o.
func New(o *office.Office) *Ratings {
	return &Ratings{off: o, store: o.Store(), now: o.Now}
}

// Ratings are derived data (issue 7). The stored tables player_ratings
// and rating_history always come from one full recompute over every game
// of a public event, its latest confirmed result (store.EffectiveResults)
// and the rating settings. Reads never recompute and never scan the games
// (issue 12): the triggers of migration 00098 bump
// rating_state.input_revision in the transaction of every change to those
// inputs, whichever use case makes it, and the worker of `kisen serve`
// (RunRatingRefresher) recomputes in the background when the revision
// moved past the one the stored ratings were computed from. Pages read
// the stored ratings and say when they were computed (RatingStatus).

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

// RatingStatus is which version of the ratings the pages show.
type RatingStatus struct {
	Summary RatingSummary
	// Computed is false until the first recompute stored ratings.
	Computed bool
	// ComputedAt is when the stored ratings were computed.
	ComputedAt time.Time
	// Stale: results or settings changed since; the worker is including
	// them.
	Stale bool
	// revision names the stored ratings (the view cache's key for rating
	// history): it changes whenever a recompute stores them.
	revision string
}

// RatingStatus reads the state row (one statement). Public.
func (o *Ratings) RatingStatus(ctx context.Context) (RatingStatus, error) {
	st, ok, err := o.store.RatingStateRow(ctx)
	if err != nil {
		return RatingStatus{}, err
	}
	if !ok {
		// No input changed since the database was created, so there is
		// nothing to rate yet; the worker's first tick stores the row.
		return RatingStatus{Summary: RatingSummary{GamesSkipped: map[string]int{}}}, nil
	}
	return RatingStatus{Summary: summaryOf(st), Computed: st.Computed(), ComputedAt: st.ComputedAt, Stale: st.Stale() || !st.Computed(),
		revision: strconv.FormatInt(st.ComputedRevision, 10) + "@" + strconv.FormatInt(st.ComputedAt.UnixNano(), 10)}, nil
}

// RefreshRatingsIfStale makes the stored ratings current when an input
// changed since they were computed: one statement (the state row) when
// nothing did. The worker of `kisen serve` calls it on every tick; tests
// call it where a page would once have recomputed. It only ever writes
// derived data, so it takes no actor.
func (o *Ratings) RefreshRatingsIfStale(ctx context.Context) (RatingSummary, error) {
	st, ok, err := o.store.RatingStateRow(ctx)
	if err != nil {
		return RatingSummary{}, err
	}
	if ok && st.Computed() && !st.Stale() {
		return summaryOf(st), nil
	}
	return o.refreshRatings(ctx, false)
}

// RecomputeRatings recomputes every rating from scratch even when the
// inputs look unchanged. It is for `kisen rating recompute`, which runs
// with the database's own credentials; it writes only derived data, so it
// takes no actor.
func (o *Ratings) RecomputeRatings(ctx context.Context) (RatingSummary, error) {
	return o.refreshRatings(ctx, true)
}

// refreshRatings recomputes in one transaction, serialised with every
// other recompute (LockRatingState), from the input revision read inside
// it: a recompute that waited for another finds the ratings current and
// stops, so several processes sharing a PostgreSQL compute once and the
// computed revision never goes backwards. The revision is read before the
// inputs: a change committed in between is included early and, having
// bumped the revision past the one stored, recomputed again on the next
// tick, so the stored ratings always catch up with the inputs.
//
// The fingerprint of the inputs (ratingFingerprint: aggregates in the
// database) is the consistency check: when a revision moved but nothing a
// rating depends on did (a game of a draft event, a status from published
// to finished, a setting saved unchanged), the stored ratings are marked
// current without rating everything again.
func (o *Ratings) refreshRatings(ctx context.Context, force bool) (RatingSummary, error) {
	var out RatingSummary
	err := o.store.Tx(ctx, func(tx *store.Store) error {
		st, err := tx.LockRatingState(ctx, o.now())
		if err != nil {
			return err
		}
		if !force && st.Computed() && !st.Stale() { // another recompute got here first
			out = summaryOf(st)
			return nil
		}
		rev := st.InputRevision
		fp, set, err := ratingFingerprint(ctx, tx)
		if err != nil {
			return err
		}
		if !force && st.Computed() && fp == st.Fingerprint {
			st.ComputedRevision, st.ComputedAt = rev, o.now()
			out = summaryOf(st)
			return tx.MarkRatingsCurrent(ctx, st)
		}
		in, err := loadRatingInput(ctx, tx, fp, set)
		if err != nil {
			return err
		}
		out, err = recomputeRatings(ctx, tx, in, o.now(), rev)
		return err
	})
	return out, err
}

func summaryOf(st store.RatingState) RatingSummary {
	s := RatingSummary{GamesSkipped: map[string]int{}}
	_ = json.Unmarshal([]byte(st.Summary), &s) // written by recomputeRatings; a bad row reads as empty
	s.Fingerprint, s.ComputedAt = st.Fingerprint, st.ComputedAt
	return s
}

// recomputeRatings rates every game from scratch and replaces the stored
// ratings, inside tx.
func recomputeRatings(ctx context.Context, tx *store.Store, in ratingInput, now time.Time, rev int64) (RatingSummary, error) {
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
	err = tx.ReplaceRatings(ctx, rows, hist, store.RatingState{Fingerprint: in.fingerprint, Summary: string(b), ComputedAt: now, ComputedRevision: rev})
	return sum, err
}

// SkipReasons lists the reasons in a summary in a stable order.
func (s RatingSummary) SkipReasons() []string { return slices.Sorted(maps.Keys(s.GamesSkipped)) }
