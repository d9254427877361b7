package ratings

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"kisen/office"
	"kisen/store"
)

// SeedRow is one player in a seeding order.
type SeedRow struct {
	Seed   int // 1-based position in the order
	Player store.Player
	Rating store.PlayerRating
	Rated  bool // has at least one rated game
}

// classOrder ranks 順位戦 classes from the top; no class sorts last.
func classOrder(c store.PlayerClass) int {
	if i := slices.Index(store.PlayerClasses, c); i >= 0 {
		return i
	}
	return len(store.PlayerClasses)
}

// SeedsByRating orders players for seeding an event (directors of the
// event; administrators): rated players by rating, highest first; players
// without a rated game after them. Ties go to the higher 順位戦 class
// (A, B1, B2, C1, C2, free class, then none), then by reading (よみ), then
// by id, so the order is total and the same on every call. The knockout
// code has no seeding call of its own; a director uses this order when
// entering each entrant's seed on the stage page. It reads the stored
// ratings as they are (a page; RatingStatus says when they were
// computed); ApplyRatingSeeds brings them up to date first.
func (o *Ratings) SeedsByRating(ctx context.Context, actor office.Actor, eventID int64, playerIDs []int64) ([]SeedRow, error) {
	if err := o.off.RequireEventRole(ctx, actor, eventID, office.RoleDirector); err != nil {
		return nil, err
	}
	if _, err := o.store.EventByID(ctx, eventID); err != nil {
		return nil, err
	}
	return seedOrder(ctx, o.store, playerIDs)
}

// seedOrder orders players by their stored ratings as they are; s may be
// a transaction, so ApplyRatingSeeds writes the very order it read.
func seedOrder(ctx context.Context, s *store.Store, playerIDs []int64) ([]SeedRow, error) {
	people, err := s.PlayersByIDs(ctx, playerIDs)
	if err != nil {
		return nil, err
	}
	ratings, err := s.PlayerRatingsByIDs(ctx, playerIDs)
	if err != nil {
		return nil, err
	}
	seen := map[int64]bool{}
	var rows []SeedRow
	for _, id := range playerIDs {
		p, ok := people[id]
		if !ok {
			return nil, fmt.Errorf("seed by rating: player %d: %w", id, office.ErrNotFound)
		}
		if seen[id] {
			continue
		}
		seen[id] = true
		r := ratings[id]
		rows = append(rows, SeedRow{Player: p, Rating: r, Rated: r.Games > 0})
	}
	slices.SortFunc(rows, compareSeeds)
	for i := range rows {
		rows[i].Seed = i + 1
	}
	return rows, nil
}

func compareSeeds(a, b SeedRow) int {
	if a.Rated != b.Rated {
		if a.Rated {
			return -1
		}
		return 1
	}
	if a.Rated {
		if c := cmp.Compare(b.Rating.Rating, a.Rating.Rating); c != 0 {
			return c
		}
	}
	return cmp.Or(
		cmp.Compare(classOrder(a.Player.Class), classOrder(b.Player.Class)),
		strings.Compare(a.Player.Reading, b.Player.Reading),
		cmp.Compare(a.Player.ID, b.Player.ID),
	)
}

// EntrantsSeedsByRating is SeedsByRating over a knockout stage's entrants
// (withdrawn entrants left out).
func (o *Ratings) EntrantsSeedsByRating(ctx context.Context, actor office.Actor, stageID int64) (store.KnockoutStage, []SeedRow, error) {
	st, err := o.store.StageByID(ctx, stageID)
	if err != nil {
		return store.KnockoutStage{}, nil, err
	}
	// Who may act first: an unpublished stage is not found for whoever is
	// not the event's staff, as its page is (issue 21).
	if err := o.off.RequireStageRole(ctx, actor, st.ID, office.RoleDirector); err != nil {
		return store.KnockoutStage{}, nil, err
	}
	es, err := o.store.EntrantsOfStage(ctx, stageID)
	if err != nil {
		return store.KnockoutStage{}, nil, err
	}
	var ids []int64
	for _, e := range es {
		if !e.Withdrawn {
			ids = append(ids, e.PlayerID)
		}
	}
	rows, err := o.SeedsByRating(ctx, actor, st.EventID, ids)
	return st, rows, err
}
