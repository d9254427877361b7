package office

import (
	"context"

	"kisen/store"
)

// PlayerLineage is a player's 師弟 relations on one day with the people
// named in them, for pages and reports.
type PlayerLineage struct {
	store.Lineage
	People map[int64]store.Player // every player named in the lineage
}

// Lineage returns the player's master, disciples and fellow disciples
// (兄弟弟子) on day on, and the whole history. Public.
func (o *Office) Lineage(ctx context.Context, playerID int64, on store.CivilDate) (PlayerLineage, error) {
	if _, err := o.store.PlayerByID(ctx, playerID); err != nil {
		return PlayerLineage{}, err
	}
	l, err := o.store.Lineage(ctx, playerID, on)
	if err != nil {
		return PlayerLineage{}, err
	}
	var ids []int64
	for _, group := range [][]store.PlayerMaster{l.History, l.Taught, l.Fellows} {
		for _, m := range group {
			ids = append(ids, m.DiscipleID)
			if m.MasterPlayerID != nil {
				ids = append(ids, *m.MasterPlayerID)
			}
		}
	}
	people, err := o.store.PlayersByIDs(ctx, ids)
	if err != nil {
		return PlayerLineage{}, err
	}
	return PlayerLineage{Lineage: l, People: people}, nil
}

// LineageDay is the calendar day in Japan now, the default day for lineage.
func (o *Office) LineageDay() store.CivilDate { return playerToday(o.now()) }

// IsMasterOf reports whether player a was player b's 師匠 on day on (the
// 師弟 relation of D-A1, D-A2, D-A3, D-A5; 001 第8条A).
func (o *Office) IsMasterOf(ctx context.Context, a, b int64, on store.CivilDate) (bool, error) {
	return o.store.IsMasterOf(ctx, a, b, on)
}

// AreFellowDisciples reports whether two players shared a master on day on
// (兄弟弟子, D-A4; 001 第8条A4). An outside teacher counts when name and
// reading are the same after folding.
func (o *Office) AreFellowDisciples(ctx context.Context, a, b int64, on store.CivilDate) (bool, error) {
	return o.store.AreFellowDisciples(ctx, a, b, on)
}

// MastersAsOf returns every listed player's master key on day on, for a
// draw: two entrants are fellow disciples when their keys are equal, and
// entrant x is entrant y's master when keys[y] == store.PlayerMasterKey(x).
// Players without a master that day are absent from the map.
func (o *Office) MastersAsOf(ctx context.Context, on store.CivilDate, playerIDs []int64) (map[int64]store.MasterKey, error) {
	return o.store.MastersOn(ctx, on, playerIDs)
}
