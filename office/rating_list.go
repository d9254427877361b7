package office

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"kisen/store"
)

// RatingFilter selects players for the public rating list. Zero values
// select everyone who has a rated game.
type RatingFilter struct {
	Kind        store.PlayerKind  // "" any
	Class       store.PlayerClass // "" any 順位戦 class (or none)
	ActiveSince store.CivilDate   // zero: any; else last rated game on or after this day (Japan)
}

// RatingRow is one line of the rating list.
type RatingRow struct {
	Place  int // 1-based; equal ratings share a place
	Player store.Player
	Rating store.PlayerRating
}

// RatingList is the public rating list: players with at least one rated
// game who match f, highest rating first; ties by reading (よみ), then
// id, so the order is total. The ratings are refreshed first.
func (o *Office) RatingList(ctx context.Context, f RatingFilter) ([]RatingRow, RatingSummary, error) {
	sum, err := o.RefreshRatings(ctx)
	if err != nil {
		return nil, RatingSummary{}, err
	}
	all, err := o.store.AllPlayerRatings(ctx)
	if err != nil {
		return nil, RatingSummary{}, err
	}
	var ids []int64
	for _, r := range all {
		if r.Games > 0 {
			ids = append(ids, r.PlayerID)
		}
	}
	people, err := o.store.PlayersByIDs(ctx, ids)
	if err != nil {
		return nil, RatingSummary{}, err
	}
	var since time.Time
	if !f.ActiveSince.IsZero() {
		since = f.ActiveSince.Time()
		since = time.Date(since.Year(), since.Month(), since.Day(), 0, 0, 0, 0, ratingJST)
	}
	var rows []RatingRow
	for _, r := range all {
		p, ok := people[r.PlayerID]
		if !ok || r.Games == 0 {
			continue
		}
		if f.Kind != "" && p.Kind != f.Kind || f.Class != "" && p.Class != f.Class {
			continue
		}
		if !since.IsZero() && (r.LastPlayed == nil || r.LastPlayed.Before(since)) {
			continue
		}
		rows = append(rows, RatingRow{Player: p, Rating: r})
	}
	slices.SortFunc(rows, func(a, b RatingRow) int {
		if c := cmp.Compare(b.Rating.Rating, a.Rating.Rating); c != 0 {
			return c
		}
		if c := strings.Compare(a.Player.Reading, b.Player.Reading); c != 0 {
			return c
		}
		return cmp.Compare(a.Player.ID, b.Player.ID)
	})
	for i := range rows {
		rows[i].Place = i + 1
		if i > 0 && rows[i].Rating.Rating == rows[i-1].Rating.Rating {
			rows[i].Place = rows[i-1].Place
		}
	}
	return rows, sum, nil
}
