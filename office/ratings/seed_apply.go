package ratings

import (
	"context"
	"fmt"

	"kisen/office"
	"kisen/store"
)

// SeedApplied is one entrant's seed before and after ApplyRatingSeeds.
type SeedApplied struct {
	PlayerID   int64 `json:"player_id"`
	SeedBefore int   `json:"seed_before"`
	Seed       int   `json:"seed"`
}

// ApplyRatingSeeds sets a knockout stage's seeds from the rating order
// (issue 7): the first count entrants of EntrantsSeedsByRating's order get
// seeds 1..count, every other entrant none. Directors of the event and
// administrators; only while the stage is in setup (entrants and seeds are
// fixed by the draw, D-A1 draws from them). count 0 clears every seed.
//
// Entrants that lose their seed also go back to round 1, because a player
// entering a later round must be seeded (AddEntrant's rule); a seeded
// entrant keeps its entry round. The change is one transaction and is
// appended to the stage's audit trail (action "seed_by_rating").
func (o *Ratings) ApplyRatingSeeds(ctx context.Context, actor office.Actor, stageID int64, count int) ([]SeedApplied, error) {
	st, err := o.store.StageByID(ctx, stageID)
	if err != nil {
		return nil, err
	}
	if err := o.off.RequireStageRole(ctx, actor, st.ID, office.RoleDirector); err != nil { // an unpublished stage is not found for non-staff
		return nil, err
	}
	// Refused before the ratings are refreshed: a refused request should
	// cost nothing. Checked again inside the transaction.
	if v := seedApplyCheck(st, count, -1); v != nil {
		return nil, v
	}
	// Outside the transaction: a refresh writes its own transaction, and
	// SQLite allows one writer at a time.
	if _, err := o.RefreshRatingsIfStale(ctx); err != nil {
		return nil, err
	}
	var out []SeedApplied
	err = o.store.Tx(ctx, func(tx *store.Store) error {
		st, err := tx.StageByID(ctx, stageID)
		if err != nil {
			return err
		}
		if err := office.RequireEventRoleIn(ctx, tx, actor, st.EventID, office.RoleDirector); err != nil {
			return err
		}
		es, err := tx.EntrantsOfStage(ctx, stageID)
		if err != nil {
			return err
		}
		var ids []int64
		for _, e := range es {
			if !e.Withdrawn {
				ids = append(ids, e.PlayerID)
			}
		}
		if v := seedApplyCheck(st, count, len(ids)); v != nil {
			return v
		}
		rows, err := seedOrder(ctx, tx, ids)
		if err != nil {
			return err
		}
		seedOf := map[int64]int{}
		for i, r := range rows {
			if i < count {
				seedOf[r.Player.ID] = i + 1
			}
		}
		// Entrants in the stored order (seeded first), so the log reads
		// like the stage page.
		for _, e := range es {
			seed, round := seedOf[e.PlayerID], e.EnterRound
			if seed == 0 {
				round = 1
			}
			if seed == e.Seed && round == e.EnterRound {
				out = append(out, SeedApplied{PlayerID: e.PlayerID, SeedBefore: e.Seed, Seed: seed})
				continue
			}
			res := tx.DB(ctx).Model(&store.KnockoutEntrant{}).Where("id = ? AND stage_id = ?", e.ID, stageID).
				Updates(map[string]any{"seed": seed, "enter_round": round})
			if res.Error != nil {
				return fmt.Errorf("stage %d: seed of player %d: %w", stageID, e.PlayerID, res.Error)
			}
			out = append(out, SeedApplied{PlayerID: e.PlayerID, SeedBefore: e.Seed, Seed: seed})
		}
		return tx.AppendDrawLog(ctx, &store.DrawLogEntry{StageID: st.ID, Action: "seed_by_rating", ActorID: actor.UserID, At: o.now(),
			Detail: office.MustJSON(map[string]any{"count": count, "seeds": out})})
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// seedApplyCheck refuses a stage past its setup and a count outside
// 0..entrants (entrants < 0: not known yet, only the stage is checked).
func seedApplyCheck(st store.KnockoutStage, count, entrants int) *office.ValidationError {
	v := &office.ValidationError{}
	if st.Status != office.StageSetup {
		v.Add(0, "", "rating.err.seed_drawn", map[string]any{"Stage": st.Name})
	}
	if entrants >= 0 && (count < 0 || count > entrants) {
		v.Add(0, "count", "rating.err.seed_count", map[string]any{"Max": entrants})
	}
	if len(v.Fields) == 0 {
		return nil
	}
	return v
}
