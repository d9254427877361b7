package office

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"kisen/store"
)

// RelativeInput records that two registered players are 肉親 (relatives).
// Other is the second player's federation number or exact registry name;
// Relation is free text such as 親子, 兄弟 or 夫婦.
type RelativeInput struct {
	PlayerID int64
	Relation string `field:"relation" validate:"storable,max=40" msg:"relatives.err,max=relation_long"`
	Other    string `field:"other" validate:"storable,notblank" msg:"relatives.err,notblank=other_required"`
}

// maxRelationLen bounds the relation text (a word, not a note).
const maxRelationLen = 40

// Relative is one pair as seen from one player.
type Relative struct {
	ID       int64
	Other    store.Player
	Relation string
}

// Relatives lists a player's relatives (public, like the registry).
func (o *Office) Relatives(ctx context.Context, playerID int64) ([]Relative, error) {
	if _, err := o.store.PlayerByID(ctx, playerID); err != nil {
		return nil, err
	}
	rs, err := o.store.RelativesOf(ctx, playerID)
	if err != nil {
		return nil, err
	}
	ids := make([]int64, 0, len(rs))
	for _, r := range rs {
		ids = append(ids, r.PlayerAID, r.PlayerBID)
	}
	ps, err := o.store.PlayersByIDs(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]Relative, 0, len(rs))
	for _, r := range rs {
		other := r.PlayerBID
		if other == playerID {
			other = r.PlayerAID
		}
		out = append(out, Relative{ID: r.ID, Other: ps[other], Relation: r.Relation})
	}
	return out, nil
}

// AddRelative records a 肉親 pair (administrators). The pair is stored
// once, smaller id first; a player cannot be their own relative and both
// must be registered. The league draw reads the pairs of its members
// (league.Settings.Relatives, federation practice).
func (o *Office) AddRelative(ctx context.Context, actor Actor, in RelativeInput) (store.PlayerRelative, error) {
	if err := actor.RequireAdmin(); err != nil {
		return store.PlayerRelative{}, fmt.Errorf("add relative: %w", err)
	}
	var out store.PlayerRelative
	err := o.store.Tx(ctx, func(tx *store.Store) error {
		if _, err := tx.PlayerByID(ctx, in.PlayerID); err != nil {
			return err
		}
		v := &ValidationError{}
		in.Relation = strings.TrimSpace(in.Relation)
		checkInput(v, 0, in)
		var other store.Player
		if v.FieldMessage("other") == "" {
			// domain rule, not a tag: the other is a registered player, not oneself.
			ix, err := loadPlayerIndex(ctx, tx)
			if err != nil {
				return err
			}
			var code string
			if other, code = ix.find(in.Other); code != "" {
				v.Add(0, "other", code, map[string]any{"Value": strings.TrimSpace(in.Other), "Line": 0})
			} else if other.ID == in.PlayerID {
				v.Add(0, "other", "relatives.err.self", nil)
			}
		}
		if err := v.OrNil(); err != nil {
			return err
		}
		a, b := min(in.PlayerID, other.ID), max(in.PlayerID, other.ID)
		out = store.PlayerRelative{PlayerAID: a, PlayerBID: b, Relation: in.Relation, CreatedAt: o.now()}
		err := tx.AddPlayerRelative(ctx, &out)
		if errors.Is(err, store.ErrConflict) {
			v.Add(0, "other", "relatives.err.exists", map[string]any{"Value": other.Name})
			return v
		}
		return err
	})
	return out, err
}

// RemoveRelative deletes a pair (administrators). Draws already made keep
// the schedule they produced; the next draw no longer sees the pair.
func (o *Office) RemoveRelative(ctx context.Context, actor Actor, relativeID int64) error {
	if err := actor.RequireAdmin(); err != nil {
		return fmt.Errorf("remove relative: %w", err)
	}
	return o.store.Tx(ctx, func(tx *store.Store) error {
		return tx.DeletePlayerRelative(ctx, relativeID)
	})
}
