package office

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"kisen/store"
)

// Form fields and CSV columns naming a master and a period.
const (
	MasterFieldID      = "master_id"
	MasterFieldNumber  = "master_number"
	MasterFieldName    = "master_name"
	MasterFieldReading = "master_reading"
	MasterFieldSince   = "master_since"
	MasterFieldUntil   = "master_until"
)

// Message ids of 師匠 errors.
const (
	codeMasterRequired   = "players.err.master_required"
	codeMasterBoth       = "players.err.master_both"
	codeMasterUnknown    = "players.err.master_unknown"
	codeMasterSelf       = "players.err.master_self"
	codeMasterSame       = "players.err.master_same"
	codeMasterOrder      = "players.err.master_order"
	codeMasterSinceOrder = "players.err.master_since_order"
	codeMasterOverlap    = "players.err.master_overlap"
	codeMasterCycle      = "players.err.master_cycle"
	codeMasterNone       = "players.err.master_none"
)

// MasterRef names a master: a registered player (by id or by federation
// number) or a teacher outside the registry (name and reading). A teacher
// is identified by name and reading after folding (store.TeacherMasterKey),
// so two disciples of "田中一郎 / たなかいちろう" are fellow disciples.
type MasterRef struct {
	PlayerID       int64
	Number         string
	TeacherName    string
	TeacherReading string
}

// teacherInput is a 師匠 outside the registry, named as a player is
// (PlayerInput's name rules); whether one is named at all, and the
// periods, are the 師匠 domain rules resolveMaster keeps by hand.
type teacherInput struct {
	Name    string `field:"master_name" validate:"nocontrol,storable,required,max=60" msg:"players.err"`
	Reading string `field:"master_reading" validate:"nocontrol,storable,required,max=60" msg:"players.err"`
}

func (r MasterRef) names() (player, teacher bool) {
	return r.PlayerID != 0 || strings.TrimSpace(r.Number) != "",
		strings.TrimSpace(r.TeacherName) != "" || strings.TrimSpace(r.TeacherReading) != ""
}

// resolveMaster checks ref and returns a period row naming the master
// (dates and disciple left for the caller); ok is false when ve got errors.
func resolveMaster(ctx context.Context, tx *store.Store, ve *ValidationError, line int, ref MasterRef) (store.PlayerMaster, bool, error) {
	var m store.PlayerMaster
	isPlayer, isTeacher := ref.names()
	switch {
	case isPlayer && isTeacher:
		ve.Add(line, MasterFieldName, codeMasterBoth, nil)
		return m, false, nil
	case !isPlayer && !isTeacher:
		ve.Add(line, MasterFieldNumber, codeMasterRequired, nil)
		return m, false, nil
	case isTeacher:
		n0 := len(ve.Fields)
		t := teacherInput{Name: NFC(strings.TrimSpace(ref.TeacherName)), Reading: NFC(strings.TrimSpace(ref.TeacherReading))}
		failed := checkInputFields(ve, line, t)
		m.TeacherName = t.Name
		if r := t.Reading; !failed[MasterFieldReading] {
			if folded, ok := NormaliseReading(r); ok {
				m.TeacherReading = folded
			} else {
				ve.Add(line, MasterFieldReading, codePlayerReadingKana, nil)
			}
		}
		return m, len(ve.Fields) == n0, nil
	}
	var (
		p     store.Player
		err   error
		field = MasterFieldID
	)
	if ref.PlayerID != 0 {
		p, err = tx.PlayerByID(ctx, ref.PlayerID)
	} else {
		field = MasterFieldNumber
		p, err = tx.PlayerByNumber(ctx, strings.TrimSpace(ref.Number))
	}
	if errors.Is(err, store.ErrNotFound) {
		ve.Add(line, field, codeMasterUnknown, nil)
		return m, false, nil
	}
	if err != nil {
		return m, false, err
	}
	m.MasterPlayerID = &p.ID
	return m, true, nil
}

// parsePeriodDay reads a required or optional day of a period.
func parsePeriodDay(ve *ValidationError, line int, field, s string, required bool) store.CivilDate {
	d, ok := ParsePlayerDate(s)
	switch {
	case !ok:
		ve.Add(line, field, codePlayerDateFormat, nil)
	case required && d.IsZero():
		ve.Add(line, field, codePlayerRequired, nil)
	}
	return d
}

// checkNewPeriod validates a new period for disciple against the stored
// history (with replaced standing in for the period it supersedes) and the
// whole registry's 師弟 graph.
func checkNewPeriod(ctx context.Context, tx *store.Store, ve *ValidationError, line int, m store.PlayerMaster, history []store.PlayerMaster, replaced *store.PlayerMaster) error {
	if m.MasterPlayerID != nil && *m.MasterPlayerID == m.DiscipleID {
		ve.Add(line, masterField(m), codeMasterSelf, nil)
		return nil
	}
	for _, h := range history {
		if replaced != nil && h.ID == replaced.ID {
			h = *replaced
		}
		if periodsOverlap(h.FromDate, h.ToDate, m.FromDate, m.ToDate) {
			ve.Add(line, MasterFieldSince, codeMasterOverlap, map[string]any{"From": h.FromDate.String(), "To": h.ToDate.String()})
			return nil
		}
	}
	if m.MasterPlayerID == nil {
		return nil // an outside teacher has no master here, so no cycle
	}
	all, err := tx.AllPlayerMasterPeriods(ctx)
	if err != nil {
		return err
	}
	var edges []masterEdge
	for _, e := range all {
		if replaced != nil && e.ID == replaced.ID {
			e = *replaced
		}
		edges = append(edges, playerEdges([]store.PlayerMaster{e})...)
	}
	if newMasterGraph(edges).closesCycle(masterEdge{Disciple: m.DiscipleID, Master: *m.MasterPlayerID, From: m.FromDate, To: m.ToDate}) {
		ve.Add(line, masterField(m), codeMasterCycle, nil)
	}
	return nil
}

func masterField(m store.PlayerMaster) string {
	if m.MasterPlayerID != nil {
		return MasterFieldNumber
	}
	return MasterFieldName
}

func openPeriod(history []store.PlayerMaster) *store.PlayerMaster {
	for i := range history {
		if history[i].Open() {
			return &history[i]
		}
	}
	return nil
}

// ChangeMaster records that from day since the disciple's master is ref:
// the open period (if any) is closed on the day before and a new one
// opened, so the history keeps who the master was before. Administrators
// only; nothing is written when anything is wrong.
func (o *Office) ChangeMaster(ctx context.Context, a Actor, discipleID int64, ref MasterRef, since string) error {
	if err := a.RequireAdmin(); err != nil {
		return fmt.Errorf("change master of player %d: %w", discipleID, err)
	}
	now := o.now().UTC()
	return o.store.Tx(ctx, func(tx *store.Store) error {
		if _, err := tx.PlayerByID(ctx, discipleID); err != nil {
			return err
		}
		ve := &ValidationError{}
		from := parsePeriodDay(ve, 0, MasterFieldSince, since, true)
		m, ok, err := resolveMaster(ctx, tx, ve, 0, ref)
		if err != nil {
			return err
		}
		if err := ve.OrNil(); err != nil || !ok {
			return err
		}
		history, err := tx.MasterPeriods(ctx, discipleID)
		if err != nil {
			return err
		}
		m.DiscipleID, m.FromDate, m.CreatedAt, m.UpdatedAt = discipleID, from, now, now
		var replaced *store.PlayerMaster
		if cur := openPeriod(history); cur != nil {
			if cur.Key() == m.Key() {
				ve.Add(0, masterField(m), codeMasterSame, nil)
				return ve
			}
			if !from.After(cur.FromDate) {
				ve.Add(0, MasterFieldSince, codeMasterSinceOrder, map[string]any{"From": cur.FromDate.String()})
				return ve
			}
			closed := *cur
			closed.ToDate = from.AddDays(-1)
			replaced = &closed
		}
		if err := checkNewPeriod(ctx, tx, ve, 0, m, history, replaced); err != nil {
			return err
		}
		if err := ve.OrNil(); err != nil {
			return err
		}
		if replaced != nil {
			if err := tx.CloseMasterPeriod(ctx, replaced.ID, replaced.ToDate, now); err != nil {
				return err
			}
		}
		return tx.AddMasterPeriod(ctx, &m)
	})
}

// EndMaster closes the disciple's open 師匠 period on day last (included),
// for a relation that ended without a successor. Administrators only.
func (o *Office) EndMaster(ctx context.Context, a Actor, discipleID int64, last string) error {
	if err := a.RequireAdmin(); err != nil {
		return fmt.Errorf("end master of player %d: %w", discipleID, err)
	}
	now := o.now().UTC()
	return o.store.Tx(ctx, func(tx *store.Store) error {
		if _, err := tx.PlayerByID(ctx, discipleID); err != nil {
			return err
		}
		ve := &ValidationError{}
		to := parsePeriodDay(ve, 0, MasterFieldUntil, last, true)
		if err := ve.OrNil(); err != nil {
			return err
		}
		history, err := tx.MasterPeriods(ctx, discipleID)
		if err != nil {
			return err
		}
		cur := openPeriod(history)
		switch {
		case cur == nil:
			ve.Add(0, MasterFieldUntil, codeMasterNone, nil)
		case to.Before(cur.FromDate):
			ve.Add(0, MasterFieldUntil, codeMasterOrder, nil)
		}
		if err := ve.OrNil(); err != nil {
			return err
		}
		return tx.CloseMasterPeriod(ctx, cur.ID, to, now)
	})
}

// AddMasterPeriod enters a period of the disciple's history directly (for
// masters before the registry existed): from is required, until may be
// empty for a period that is still open. It must not overlap another
// period of the same disciple nor make a 師弟 cycle on any day.
// Administrators only.
func (o *Office) AddMasterPeriod(ctx context.Context, a Actor, discipleID int64, ref MasterRef, from, until string) error {
	if err := a.RequireAdmin(); err != nil {
		return fmt.Errorf("add master period of player %d: %w", discipleID, err)
	}
	now := o.now().UTC()
	return o.store.Tx(ctx, func(tx *store.Store) error {
		if _, err := tx.PlayerByID(ctx, discipleID); err != nil {
			return err
		}
		ve := &ValidationError{}
		f := parsePeriodDay(ve, 0, MasterFieldSince, from, true)
		u := parsePeriodDay(ve, 0, MasterFieldUntil, until, false)
		if !f.IsZero() && !u.IsZero() && u.Before(f) {
			ve.Add(0, MasterFieldUntil, codeMasterOrder, nil)
		}
		m, ok, err := resolveMaster(ctx, tx, ve, 0, ref)
		if err != nil {
			return err
		}
		if err := ve.OrNil(); err != nil || !ok {
			return err
		}
		history, err := tx.MasterPeriods(ctx, discipleID)
		if err != nil {
			return err
		}
		m.DiscipleID, m.FromDate, m.ToDate, m.CreatedAt, m.UpdatedAt = discipleID, f, u, now, now
		if err := checkNewPeriod(ctx, tx, ve, 0, m, history, nil); err != nil {
			return err
		}
		if err := ve.OrNil(); err != nil {
			return err
		}
		return tx.AddMasterPeriod(ctx, &m)
	})
}
