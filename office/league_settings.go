package office

import (
	"context"
	"encoding/json"
	"fmt"

	"kisen/league"
	"kisen/store"
)

// ClassSettingsInput replaces a class's league settings: the D-A3 window
// and the practice windows (first N / last M games of each player), each
// practice rule on or off, the sente/gote split and the previous-term
// policy. league.CheckSettings refuses what the seed rules require.
type ClassSettingsInput struct {
	ClassID  int64
	Settings league.Settings
}

// UpdateClassSettings changes a class's settings before publication
// (directors and schedulers). Every problem is reported by its settings
// field with the rule it would break; nothing is written then. A drawn
// schedule is checked again under the new settings, so the constraint
// report shows what the change broke (draw again to fix it); the audit log
// keeps the new settings.
func (o *Office) UpdateClassSettings(ctx context.Context, actor Actor, in ClassSettingsInput) (league.Report, error) {
	c, err := o.store.LeagueClassByID(ctx, in.ClassID)
	if err != nil {
		return league.Report{}, err
	}
	if err := o.requireClassRole(ctx, actor, c, RoleDirector, RoleScheduler); err != nil {
		return league.Report{}, err
	}
	var report league.Report
	err = o.store.Tx(ctx, func(tx *store.Store) error {
		c, err := tx.LeagueClassByID(ctx, in.ClassID)
		if err != nil {
			return err
		}
		if c.Status == LeaguePublished {
			return fmt.Errorf("league class %d is published; its settings are fixed: %w", c.ID, ErrConflict)
		}
		e, err := tx.EventByID(ctx, c.EventID)
		if err != nil {
			return err
		}
		kind, err := leagueKindOf(e)
		if err != nil {
			return err
		}
		v := &ValidationError{}
		for _, p := range league.CheckSettings(kind, league.Class(c.Class), in.Settings) {
			code := "league.err.setting_rule"
			if p.Rule == "range" || p.Rule == "round_robin" {
				code = "league.err.setting_range"
			}
			v.Add(0, p.Field, code, map[string]any{"Rule": p.Rule})
		}
		members, err := tx.LeagueMembers(ctx, c.ID)
		if err != nil {
			return err
		}
		if !in.Settings.RoundRobin && in.Settings.GamesPerPlayer > len(members)-1 {
			v.Add(0, "games_per_player", "league.err.games_per_player", map[string]any{"Max": len(members) - 1})
		}
		if err := v.OrNil(); err != nil {
			return err
		}
		sj, _ := json.Marshal(in.Settings)
		c.Settings = string(sj)
		rj := []byte(c.Report)
		if c.Status == LeagueDrawn {
			if report, err = recheckDrawn(ctx, tx, e, c); err != nil {
				return err
			}
			rj, _ = json.Marshal(report)
		}
		now := o.now()
		if err := tx.SaveLeagueClassSettings(ctx, c.ID, c.Settings, string(rj), now); err != nil {
			return err
		}
		vj, _ := json.Marshal(report.Violations)
		if report.Violations == nil {
			vj = []byte("[]")
		}
		return tx.AppendLeagueLog(ctx, &store.LeagueLogEntry{ClassID: c.ID, Action: "settings", Detail: c.Settings, Violations: string(vj), ActorID: actor.UserID, At: now})
	})
	return report, err
}

// recheckDrawn judges a drawn class's stored schedule under the class's
// (new) settings with the league checker, with the draw's seed, lineage
// date and round dates.
func recheckDrawn(ctx context.Context, tx *store.Store, e store.Event, c store.LeagueClass) (league.Report, error) {
	sched, err := ClassSchedule(c)
	if err != nil {
		return league.Report{}, err
	}
	d, err := storedDraw(ctx, tx, e, c)
	if err != nil {
		return league.Report{}, err
	}
	return league.Check(d, sched)
}
