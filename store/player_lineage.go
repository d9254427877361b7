package store

import (
	"context"
	"fmt"
)

// Lineage is a player's 師弟 relations on one day, plus the full history
// for display. Periods carry the other person's id (DiscipleID or
// MasterPlayerID); names are the caller's to load.
type Lineage struct {
	PlayerID  int64
	On        CivilDate
	Master    *PlayerMaster  // the period giving the master on On; nil when none
	Disciples []PlayerMaster // periods on On in which this player is the master
	Fellows   []PlayerMaster // other disciples of the same master on On (兄弟弟子)
	History   []PlayerMaster // every master period of this player, oldest first
	Taught    []PlayerMaster // every period in which this player was a master
}

// Lineage gathers a player's master, disciples and fellow disciples on day d.
func (s *Store) Lineage(ctx context.Context, playerID int64, d CivilDate) (Lineage, error) {
	l := Lineage{PlayerID: playerID, On: d}
	var err error
	if l.History, err = s.MasterPeriods(ctx, playerID); err != nil {
		return l, err
	}
	if l.Taught, err = s.DisciplePeriods(ctx, playerID); err != nil {
		return l, err
	}
	for i := range l.History {
		if l.History[i].ActiveOn(d) {
			m := l.History[i]
			l.Master = &m
		}
	}
	for _, t := range l.Taught {
		if t.ActiveOn(d) {
			l.Disciples = append(l.Disciples, t)
		}
	}
	if l.Master != nil {
		all, err := s.DisciplesOn(ctx, l.Master.MasterKey, d)
		if err != nil {
			return l, fmt.Errorf("fellow disciples of player %d: %w", playerID, err)
		}
		for _, f := range all {
			if f.DiscipleID != playerID {
				l.Fellows = append(l.Fellows, f)
			}
		}
	}
	return l, nil
}
