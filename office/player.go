package office

import (
	"context"
	"errors"
	"fmt"
	"time"

	"kisen/store"
)

// PlayersPerPage is the size of one page of the player list.
const PlayersPerPage = 50

// PlayerPage is one page of a player search.
type PlayerPage struct {
	Query   string
	Players []store.Player
	Total   int64
	Page    int // 1-based
	Pages   int
}

// SearchPlayers finds players by name or reading (width, kana and case
// insensitive), sorted by reading. Public.
func (o *Office) SearchPlayers(ctx context.Context, query string, page int) (PlayerPage, error) {
	if page < 1 {
		page = 1
	}
	ps, total, err := o.store.SearchPlayers(ctx, store.PlayerSearch{
		Query: query, Limit: PlayersPerPage, Offset: (page - 1) * PlayersPerPage,
	})
	if err != nil {
		return PlayerPage{}, err
	}
	pages := int((total + PlayersPerPage - 1) / PlayersPerPage)
	return PlayerPage{Query: query, Players: ps, Total: total, Page: page, Pages: max(pages, 1)}, nil
}

// Player loads one player. Public.
func (o *Office) Player(ctx context.Context, id int64) (store.Player, error) {
	return o.store.PlayerByID(ctx, id)
}

// CreatePlayer registers a player. Administrators only; nothing is written
// when any field is wrong.
func (o *Office) CreatePlayer(ctx context.Context, a Actor, in PlayerInput) (store.Player, error) {
	if err := a.RequireAdmin(); err != nil {
		return store.Player{}, fmt.Errorf("create player: %w", err)
	}
	now := o.now().UTC()
	ve := &ValidationError{}
	p := validatePlayer(ve, 0, in, playerToday(now))
	seat := seatWrite(ve, in.Seat, playerToday(now))
	if err := ve.OrNil(); err != nil {
		return store.Player{}, err
	}
	p.CreatedAt, p.UpdatedAt = now, now
	err := o.store.Tx(ctx, func(tx *store.Store) error {
		if err := checkPlayerNumberFree(ctx, tx, p.Number, 0); err != nil {
			return err
		}
		if err := playerNumberConflict(tx.CreatePlayer(ctx, &p)); err != nil {
			return err
		}
		return seat(ctx, tx, p.ID, now)
	})
	if err != nil {
		return store.Player{}, err
	}
	return p, nil
}

// UpdatePlayer rewrites a player's fields (the 師匠 history is changed by
// ChangeMaster and AddMasterPeriod, never here). Administrators only.
func (o *Office) UpdatePlayer(ctx context.Context, a Actor, id int64, in PlayerInput) (store.Player, error) {
	if err := a.RequireAdmin(); err != nil {
		return store.Player{}, fmt.Errorf("update player %d: %w", id, err)
	}
	now := o.now().UTC()
	ve := &ValidationError{}
	p := validatePlayer(ve, 0, in, playerToday(now))
	seat := seatWrite(ve, in.Seat, playerToday(now))
	var saved store.Player
	err := o.store.Tx(ctx, func(tx *store.Store) error {
		old, err := tx.PlayerByID(ctx, id)
		if err != nil {
			return err
		}
		if err := ve.OrNil(); err != nil {
			return err
		}
		if err := checkPlayerNumberFree(ctx, tx, p.Number, id); err != nil {
			return err
		}
		p.ID, p.CreatedAt, p.UpdatedAt = id, old.CreatedAt, now
		saved = p
		if err := playerNumberConflict(tx.UpdatePlayer(ctx, &saved)); err != nil {
			return err
		}
		return seat(ctx, tx, id, now)
	})
	if err != nil {
		return store.Player{}, err
	}
	return saved, nil
}

// checkPlayerNumberFree fails with a field error when another player holds
// the federation number.
func checkPlayerNumberFree(ctx context.Context, tx *store.Store, number *string, self int64) error {
	if number == nil {
		return nil
	}
	other, err := tx.PlayerByNumber(ctx, *number)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return nil
	case err != nil:
		return err
	case other.ID != self:
		ve := &ValidationError{}
		ve.Add(0, PlayerFieldNumber, codePlayerNumberTaken, map[string]any{"Name": other.Name})
		return ve
	}
	return nil
}

// playerNumberConflict turns a unique-index race on the number into the
// same field error the check gives.
func playerNumberConflict(err error) error {
	if errors.Is(err, store.ErrConflict) {
		ve := &ValidationError{}
		ve.Add(0, PlayerFieldNumber, codePlayerNumberTaken, nil)
		return ve
	}
	return err
}

// seatWrite checks a player's 席次 facts (none: nothing to write) and
// returns the write to run in the player's transaction.
func seatWrite(ve *ValidationError, in *SeatFactsInput, today store.CivilDate) func(ctx context.Context, tx *store.Store, id int64, now time.Time) error {
	if in == nil {
		return func(context.Context, *store.Store, int64, time.Time) error { return nil }
	}
	// its tags were checked with the PlayerInput that holds it
	titles, rankSince, proSince := seatFactsOf(ve, 0, *in, today)
	return func(ctx context.Context, tx *store.Store, id int64, now time.Time) error {
		return tx.SetSeatFacts(ctx, id, titles, rankSince, proSince, now)
	}
}

// PlayerSeatFacts are a player's 席次 facts as the form shows them.
func (o *Office) PlayerSeatFacts(ctx context.Context, id int64) (SeatFactsInput, error) {
	fs, err := o.store.SeatFactsOf(ctx, []int64{id})
	if err != nil {
		return SeatFactsInput{}, err
	}
	f := fs[id]
	return SeatFactsInput{Titles: f.Titles, RankSince: f.RankSince.String(), ProSince: f.ProSince.String()}, nil
}
