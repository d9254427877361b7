package ratings

import (
	"context"
	"time"

	"kisen/store"
)

// RatingsAfter is RatingList after the line at after, up to limit+1
// lines (the extra one tells that more follow). Public.
func (o *Ratings) RatingsAfter(ctx context.Context, f RatingFilter, after *store.RatedKey, limit int) ([]RatingRow, error) {
	rs, err := o.store.RatedPlayersAfter(ctx, f.query(), after, limit)
	if err != nil {
		return nil, err
	}
	rows := make([]RatingRow, 0, len(rs))
	for _, r := range rs {
		rows = append(rows, RatingRow{Place: r.Place, Player: r.Player, Rating: r.PlayerRating})
	}
	return rows, nil
}

// RatingsPerPage is the length of one page of the rating list.
const RatingsPerPage = 50

// RatingFilter selects players for the public rating list. Zero values
// select everyone who has a rated game.
type RatingFilter struct {
	Kind        store.PlayerKind  // "" any
	Class       store.PlayerClass // "" any 順位戦 class (or none)
	ActiveSince store.CivilDate   // zero: any; else last rated game on or after this day (Japan)
	Query       string            // name or reading (partial, width and kana folded) or federation number
}

// RatingRow is one line of the rating list.
type RatingRow struct {
	Place  int // 1-based; equal ratings share a place
	Player store.Player
	Rating store.PlayerRating
}

// RatingPage is one page of the rating list and the version of the
// ratings it shows.
type RatingPage struct {
	Rows   []RatingRow
	Total  int64 // players the filter selects
	Page   int   // 1-based
	Pages  int
	Status RatingStatus
}

func (f RatingFilter) query() store.RatingQuery {
	q := store.RatingQuery{Kind: f.Kind, Class: f.Class, Search: f.Query}
	if !f.ActiveSince.IsZero() {
		d := f.ActiveSince.Time()
		q.Since = time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, ratingJST)
	}
	return q
}

// RatingList is one page of the public rating list: players with at
// least one rated game who match f, highest rating first; ties by reading
// (よみ), then id, so the order is total. It reads the stored ratings as
// they are (RatingStatus says when they were computed): a fixed number of
// statements, filtered, ordered and paged in the database. Public.
func (o *Ratings) RatingList(ctx context.Context, f RatingFilter, page int) (RatingPage, error) {
	status, err := o.RatingStatus(ctx)
	if err != nil {
		return RatingPage{}, err
	}
	page = max(page, 1)
	q := f.query()
	q.Limit, q.Offset = RatingsPerPage, (page-1)*RatingsPerPage
	rows, total, err := o.store.RatedPlayers(ctx, q)
	if err != nil {
		return RatingPage{}, err
	}
	out := RatingPage{Total: total, Page: page, Pages: max(int((total+RatingsPerPage-1)/RatingsPerPage), 1), Status: status}
	for _, r := range rows {
		out.Rows = append(out.Rows, RatingRow{Place: r.Place, Player: r.Player, Rating: r.PlayerRating})
	}
	return out, nil
}

// EachRating calls fn for every line of the rating list that f selects,
// in list order, without holding the list in memory (the CSV export
// streams it). Public.
func (o *Ratings) EachRating(ctx context.Context, f RatingFilter, fn func(RatingRow) error) error {
	return o.store.EachRatedPlayer(ctx, f.query(), func(r store.RatedPlayer) error {
		return fn(RatingRow{Place: r.Place, Player: r.Player, Rating: r.PlayerRating})
	})
}
