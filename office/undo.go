package office

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"kisen/adjudication"
	"kisen/store"
)

// Undo as a new version (issue 13). Results are append-only: 「取り消す」
// never deletes the newest version, it appends one more that restores the
// version before it — the same result, reason, outcome and adjudication
// facts — or, when the newest is the game's only version, "no result yet",
// stored as ResultPending (the value a chain reads as undecided: a bracket
// waits for it, a league row takes a result again). The write is the
// ordinary result path: the game row locked, the version the person saw
// checked (*StaleError), the bracket synced, and later games that depended
// on the undone result go through the correction gate like any other
// correction. A correction row of kind CorrectionUndo keeps the reason.

// CorrectionUndo is the corrections.kind of a result taken back.
const CorrectionUndo = "undo"

// ReasonUndo is the reason code of a version that takes a game's only
// result back (the result is ResultPending).
const ReasonUndo = "undo"

// UndoInput is the 取り消す form.
type UndoInput struct {
	Version int    // the newest version the person saw; it is the one undone
	Reason  string `field:"reason" validate:"storable,required,max=2000" msg:"events.err,required:previews.err.reason_required"` // required: why the result is taken back
}

// UndoPlan says what undoing a game's newest version restores.
type UndoPlan struct {
	Undone   store.ResultVersion
	Restored *store.ResultVersion // nil: back to no result (pending)
}

// PlanUndo reads what UndoResult would restore, without writing (for the
// form and the preview page's wording).
func (o *Office) PlanUndo(ctx context.Context, gameID int64) (UndoPlan, bool, error) {
	hist, err := o.store.ResultHistory(ctx, gameID)
	if err != nil || len(hist) == 0 {
		return UndoPlan{}, false, err
	}
	p := UndoPlan{Undone: hist[len(hist)-1]}
	if len(hist) > 1 {
		p.Restored = &hist[len(hist)-2]
	}
	return p, true, nil
}

// UndoResult appends a version that restores the one before the newest
// (directors and arbiters, the people who confirm results).
func (o *Office) UndoResult(ctx context.Context, actor Actor, gameID int64, in UndoInput) (store.ResultVersion, error) {
	g, err := o.store.GameByID(ctx, gameID)
	if err != nil {
		return store.ResultVersion{}, err
	}
	if err := o.RequireEventRole(ctx, actor, g.EventID, ResultReviewRoles...); err != nil {
		return store.ResultVersion{}, err
	}
	in.Reason = strings.TrimSpace(in.Reason)
	reason := in.Reason
	v := &ValidationError{}
	checkInput(v, 0, in)
	if err := v.OrNil(); err != nil {
		return store.ResultVersion{}, err
	}
	var out store.ResultVersion
	err = o.store.Tx(ctx, func(tx *store.Store) error {
		g, err := lockSeenVersion(ctx, tx, gameID, in.Version)
		if err != nil {
			return err
		}
		hist, err := tx.ResultHistory(ctx, g.ID)
		if err != nil {
			return err
		}
		if len(hist) == 0 {
			v.Add(0, "", "previews.err.undo_nothing", nil)
			return v
		}
		rin := ResultInput{Result: ResultPending, Reason: ReasonUndo, Note: reason, Version: in.Version}
		var restored *store.ResultVersion
		if n := len(hist); n > 1 {
			restored = &hist[n-2]
			rin.Result, rin.Reason, rin.Outcome = restored.Result, restored.Reason, json.RawMessage(restored.Outcome)
		}
		var redo *adjudication.RedoGame
		if rin.Result == ResultRedo {
			// A 千日手/持将棋 restored needs its redo game again (the undone
			// version made the old one void): only with the plan stored.
			var oc adjudication.Outcome
			if json.Unmarshal([]byte(restored.Outcome), &oc) != nil || oc.Redo == nil || oc.Redo.Allowance == nil {
				v.Add(0, "", "previews.err.undo_redo", nil)
				return v
			}
			redo = oc.Redo
		}
		undone := hist[len(hist)-1].Version
		if rin.Outcome, err = markUndo(rin.Outcome, undone); err != nil {
			return err
		}
		if err := checkResult(g, rin).OrNil(); err != nil {
			return err
		}
		now := o.now().UTC()
		gid := g.ID
		if err := tx.AddCorrection(ctx, &store.Correction{EventID: g.EventID, Kind: CorrectionUndo, GameID: &gid, Reason: reason, ActorID: actor.UserID, At: now}); err != nil {
			return err
		}
		if out, err = appendResult(ctx, tx, actor, g, rin, now); err != nil {
			return err
		}
		if restored != nil {
			// A later claim re-decides from the facts of the version in force.
			if facts, ok, err := tx.GameAdjudicationOfResult(ctx, restored.ID); err != nil {
				return err
			} else if ok {
				if err := tx.AddGameAdjudication(ctx, &store.GameAdjudication{GameID: g.ID, ResultID: out.ID, RecordID: facts.RecordID, Facts: facts.Facts, CreatedAt: now}); err != nil {
					return err
				}
			}
		}
		if redo != nil {
			if _, err := createRedoGame(ctx, tx, g, *redo, now); err != nil {
				return err
			}
		}
		return nil
	})
	return out, err
}

// undoKey is the outcome field naming the version an undo took back; the
// rest of the outcome is the restored version's, so everything reading it
// (a later claim, the clocks) reads the result in force.
const undoKey = "undoes"

// markUndo adds undoKey to an outcome (empty: "{}").
func markUndo(outcome json.RawMessage, undone int) (json.RawMessage, error) {
	m := map[string]json.RawMessage{}
	if len(outcome) > 0 {
		if err := json.Unmarshal(outcome, &m); err != nil {
			return nil, fmt.Errorf("outcome to restore: %w", err)
		}
	}
	m[undoKey] = json.RawMessage(strconv.Itoa(undone))
	return json.Marshal(m)
}

// UndoneVersion reads which version a result version took back (0: it is
// not an undo).
func UndoneVersion(outcome string) int {
	var m struct {
		Undoes int `json:"undoes"`
	}
	if json.Unmarshal([]byte(outcome), &m) != nil {
		return 0
	}
	return m.Undoes
}
