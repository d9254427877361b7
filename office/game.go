package office

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"kisen/adjudication"
	"kisen/rules"
	"kisen/store"
)

// Results a game can come to (adjudication.Result values).
const (
	ResultSenteWin = "sente_win"
	ResultGoteWin  = "gote_win"
	ResultRedo     = "redo"      // 千日手 / 持将棋: no result, replayed (D-R1)
	ResultBothLose = "both_lose" // neither player came
	ResultPending  = "pending"   // a toss or the arbiter decides
)

var gameResults = []string{ResultSenteWin, ResultGoteWin, ResultRedo, ResultBothLose, ResultPending}

// GameInput describes a game to create.
type GameInput struct {
	EventID          int64
	Label            string `field:"label" validate:"storable,max=100" msg:"limits.err,max=too_long.label"`
	SenteID, GoteID  *int64 // nil while the seat waits for an earlier result
	Handicap         string // 手合割 by its Japanese name; "" is 平手
	ScheduledOn      string `field:"scheduled_on" validate:"omitempty,date" msg:"events.err"`                         // YYYY-MM-DD or ""
	AllowanceMinutes int    `field:"allowance" validate:"gte=0,lte=1440" msg:"games.err,gte=allowance,lte=allowance"` // each side's allowance (持ち時間)
}

func (in *GameInput) check() (*store.Game, *ValidationError) {
	v := &ValidationError{}
	g := &store.Game{EventID: in.EventID, Label: in.Label, SentePlayerID: in.SenteID, GotePlayerID: in.GoteID, Handicap: in.Handicap}
	if g.Handicap == "" {
		g.Handicap = rules.Even.Name()
	}
	// domain rule, not a tag: a 手合割 the rules know, by its Japanese name.
	if _, ok := rules.HandicapByName(g.Handicap); !ok {
		v.Add(0, "handicap", "games.err.handicap", map[string]any{"Value": in.Handicap})
	}
	// domain rule, not a tag: nobody plays themself.
	if in.SenteID != nil && in.GoteID != nil && *in.SenteID == *in.GoteID {
		v.Add(0, "gote", "games.err.same_player", nil)
	}
	checkInput(v, 0, in)
	if in.ScheduledOn != "" && v.FieldMessage("scheduled_on") == "" {
		d := in.ScheduledOn
		g.ScheduledOn = &d
	}
	g.SenteAllowanceS = in.AllowanceMinutes * 60
	g.GoteAllowanceS = in.AllowanceMinutes * 60
	return g, v
}

// CreateGame adds a game to an event (directors and schedulers).
func (o *Office) CreateGame(ctx context.Context, actor Actor, in GameInput) (store.Game, error) {
	if err := o.RequireEventRole(ctx, actor, in.EventID, GameCreateRoles...); err != nil {
		return store.Game{}, err
	}
	g, v := in.check()
	if err := v.OrNil(); err != nil {
		return store.Game{}, err
	}
	err := o.store.Tx(ctx, func(tx *store.Store) error {
		if _, err := tx.EventByID(ctx, in.EventID); err != nil {
			return err
		}
		for _, id := range []*int64{in.SenteID, in.GoteID} {
			if id != nil {
				if _, err := tx.PlayerByID(ctx, *id); err != nil {
					return fmt.Errorf("player %d: %w", *id, err)
				}
			}
		}
		now := o.now().UTC()
		g.CreatedAt, g.UpdatedAt = now, now
		return tx.CreateGame(ctx, g)
	})
	return *g, err
}

// ResultInput is one entry of a game's result.
type ResultInput struct {
	Result  string          `field:"result" validate:"enum=game_result" msg:"games.err,enum=result"` // one of the Result… constants
	Reason  string          `field:"reason" validate:"storable,required" msg:"games.err"`            // a reason code (adjudication.Reason)
	Note    string          `field:"note" validate:"storable,max=2000" msg:"limits.err,max=too_long.note"`
	Outcome json.RawMessage `field:"outcome" validate:"omitempty,json" msg:"games.err,json=outcome"` // the adjudication outcome, if computed
	// Version is the result version the person saw (0: no result yet);
	// a stale one is refused with a *StaleError (issue 11).
	Version int
}

// eventRequiresConfirmation reads the event's "require_confirmation"
// setting: when on, a result counts only once a second person confirms it.
func eventRequiresConfirmation(e store.Event) bool {
	var s struct {
		RequireConfirmation bool `json:"require_confirmation"`
	}
	_ = json.Unmarshal([]byte(e.Settings), &s)
	return s.RequireConfirmation
}

// RecordResult appends a result version to a game (directors, arbiters,
// recorders). Results are append-only: a correction is a new version. When
// the event does not require confirmation, the entry confirms itself.
func (o *Office) RecordResult(ctx context.Context, actor Actor, gameID int64, in ResultInput) (store.ResultVersion, error) {
	g, err := o.store.GameByID(ctx, gameID)
	if err != nil {
		return store.ResultVersion{}, err
	}
	if err := o.RequireEventRole(ctx, actor, g.EventID, RoleDirector, RoleArbiter, RoleRecorder); err != nil {
		return store.ResultVersion{}, err
	}
	var out store.ResultVersion
	err = o.store.Tx(ctx, func(tx *store.Store) error {
		g, err := lockSeenVersion(ctx, tx, gameID, in.Version)
		if err != nil {
			return err
		}
		if err := checkResult(g, in).OrNil(); err != nil {
			return err // the seats as they are under the lock
		}
		out, err = appendResult(ctx, tx, actor, g, in, o.now().UTC())
		return err
	})
	return out, err
}

// checkResult validates a result entry for game g before anything is
// written.
func checkResult(g store.Game, in ResultInput) *ValidationError {
	v := &ValidationError{}
	checkInput(v, 0, in)
	// domain rule, not a tag: a win needs both seats filled.
	if (in.Result == ResultSenteWin || in.Result == ResultGoteWin) && (g.SentePlayerID == nil || g.GotePlayerID == nil) {
		v.Add(0, "result", "games.err.no_players", nil)
	}
	return v
}

// appendResult writes a checked result version inside tx: the version,
// the game's start mark, and the confirmation unless the event requires a
// second person.
func appendResult(ctx context.Context, tx *store.Store, actor Actor, g store.Game, in ResultInput, now time.Time) (store.ResultVersion, error) {
	if err := checkFutureResult(ctx, g, now); err != nil {
		return store.ResultVersion{}, err
	}
	e, err := tx.EventByID(ctx, g.EventID)
	if err != nil {
		return store.ResultVersion{}, err
	}
	outcome := "{}"
	if len(in.Outcome) > 0 {
		outcome = string(in.Outcome)
	}
	// Whether the game had a result in force that decided it: if not, no
	// later game can have been built on it, and the sync below need not
	// look for games a correction changed (issue 12).
	prev, had, err := tx.EffectiveResult(ctx, g.ID)
	if err != nil {
		return store.ResultVersion{}, err
	}
	first := !had || prev.Result == ResultPending
	if first {
		// A withdrawal gives walkovers that build later games without a
		// result on this one: then look for changed games as for any
		// correction.
		w, err := tx.EventHasWithdrawals(ctx, g.EventID)
		if err != nil {
			return store.ResultVersion{}, err
		}
		first = !w
	}
	r := &store.GameResult{GameID: g.ID, Result: in.Result, Reason: in.Reason, Outcome: outcome, Note: in.Note, EnteredBy: actor.UserID, EnteredAt: now,
		EnteredVia: actor.enteredVia()}
	if err := tx.AppendResult(ctx, r); err != nil {
		return store.ResultVersion{}, err
	}
	if err := logTokenUse(ctx, tx, actor, "result", g.ID, now); err != nil {
		return store.ResultVersion{}, err
	}
	if err := tx.MarkGameStarted(ctx, g.ID, now); err != nil {
		return store.ResultVersion{}, err
	}
	out := store.ResultVersion{GameResult: *r}
	if !eventRequiresConfirmation(e) {
		c := &store.GameResultConfirmation{GameResultID: r.ID, ConfirmedBy: actor.UserID, ConfirmedAt: now}
		if err := tx.ConfirmResult(ctx, c); err != nil {
			return store.ResultVersion{}, err
		}
		out.ConfirmedBy, out.ConfirmedAt = &c.ConfirmedBy, &c.ConfirmedAt
	}
	if err := voidSupersededRedo(ctx, tx, actor, g.ID, now); err != nil {
		return store.ResultVersion{}, err
	}
	// A version waiting for confirmation changes no result in force, so
	// nothing in a bracket or a playoff can move: skip the event-wide sync
	// (issue 12: result entry proportional to what changes). A preview
	// still ends in the rollback it relies on.
	if out.ConfirmedBy == nil {
		if c, ok := correctionOf(ctx); ok && c.preview {
			return out, previewDone{}
		}
		return out, nil
	}
	// A knockout or title match advances in the same transaction: the next
	// game is created as soon as this result decides who plays it.
	if err := advanceKnockout(ctx, tx, e, now, !first); err != nil {
		return store.ResultVersion{}, err
	}
	return out, nil
}

// ConfirmResult confirms a result version (directors and arbiters, and
// confirmations tokens, which act as arbiters; the token's name is kept
// on the confirmation and in its audit log). When
// the event requires confirmation, the person who entered the version may
// not confirm it. The version must still be the game's newest and not yet
// confirmed, checked with the game row locked in the confirming
// transaction (issue 11): otherwise a *StaleError.
func (o *Office) ConfirmResult(ctx context.Context, actor Actor, resultID int64) error {
	return o.confirmResult(ctx, actor, 0, resultID)
}

// ConfirmGameResult is ConfirmResult from game gameID's page: the result
// version must be one of that game's (issue 21), else it is not found, as
// a missing one, before anything else is checked.
func (o *Office) ConfirmGameResult(ctx context.Context, actor Actor, gameID, resultID int64) error {
	return o.confirmResult(ctx, actor, gameID, resultID)
}

func (o *Office) confirmResult(ctx context.Context, actor Actor, gameID, resultID int64) error {
	rv, err := o.store.GameResultByID(ctx, resultID)
	if err != nil {
		return err
	}
	if gameID != 0 && rv.GameID != gameID {
		return fmt.Errorf("result %d is not of game %d: %w", resultID, gameID, ErrNotFound)
	}
	g, err := o.store.GameByID(ctx, rv.GameID)
	if err != nil {
		return err
	}
	if err := o.RequireEventRole(ctx, actor, g.EventID, ResultReviewRoles...); err != nil {
		return err
	}
	if actor.Token != nil && actor.Token.Scope != ScopeConfirmations { // a rulings token is an arbiter too, but may not confirm
		return fmt.Errorf("confirm through a %s token: %w", actor.Token.Scope, ErrForbidden)
	}
	e, err := o.store.EventByID(ctx, g.EventID)
	if err != nil {
		return err
	}
	if eventRequiresConfirmation(e) && rv.EnteredBy == actor.UserID && !o.reportedByPlayers(ctx, rv.ID) {
		v := &ValidationError{}
		v.Add(0, "result", "games.err.self_confirm", nil)
		return v
	}
	return o.store.Tx(ctx, func(tx *store.Store) error {
		if _, err := lockSeenVersion(ctx, tx, g.ID, rv.Version); err != nil {
			return err
		}
		cur, err := tx.GameResultByID(ctx, resultID)
		if err != nil {
			return err
		}
		if cur.Confirmed() { // confirmed meanwhile, under the lock we now hold
			return staleError(ctx, tx, g.ID, rv.Version)
		}
		if err := tx.ConfirmResult(ctx, &store.GameResultConfirmation{GameResultID: resultID, ConfirmedBy: actor.UserID, ConfirmedAt: o.now(),
			ConfirmedVia: actor.enteredVia()}); err != nil {
			return err
		}
		if err := logTokenUse(ctx, tx, actor, "confirm", g.ID, o.now()); err != nil {
			return err
		}
		if err := voidSupersededRedo(ctx, tx, actor, g.ID, o.now()); err != nil {
			return err
		}
		return syncKnockout(ctx, tx, e, o.now()) // a confirmed result advances the bracket
	})
}

// reportedByPlayers tells whether a result version is the two players'
// agreeing report (issue 21 item 5): its entered_by names the director who
// issued the players' secrets only because the column must name a user, so
// that director did not enter it and may confirm it.
func (o *Office) reportedByPlayers(ctx context.Context, resultID int64) bool {
	m, err := o.store.DayReportResultsOf(ctx, []int64{resultID})
	src, ok := m[resultID]
	return err == nil && ok && src.ConfirmedBy == nil
}

// ReportedResults reads where result versions the players reported came
// from, by result id (one statement); the result history shows it instead
// of entered_by.
func (o *Office) ReportedResults(ctx context.Context, resultIDs []int64) (map[int64]store.DayReportResult, error) {
	return o.store.DayReportResultsOf(ctx, resultIDs)
}

// ResultHistory lists every result version of a game, oldest first.
func (o *Office) ResultHistory(ctx context.Context, gameID int64) ([]store.ResultVersion, error) {
	return o.store.ResultHistory(ctx, gameID)
}

// CreateRedoGame creates the redo game (指し直し) of a game whose newest
// result version is a redo, with the sides and allowances the adjudication
// room decided (adjudication.NextRedo: colours swapped for an even game,
// D-R1, 000 第8条第4項; unchanged for a handicap game, 003; time by D-R2).
// It is the one path that creates redo games: EndGame calls it in its
// transaction. The chain is kept: the redo points at the game it replays.
// RedoPlan gives redo for a game ended outside adjudication.
func (o *Office) CreateRedoGame(ctx context.Context, actor Actor, parentID int64, redo adjudication.RedoGame) (store.Game, error) {
	parent, err := o.store.GameByID(ctx, parentID)
	if err != nil {
		return store.Game{}, err
	}
	if err := o.RequireEventRole(ctx, actor, parent.EventID, RoleDirector, RoleArbiter, RoleRecorder); err != nil {
		return store.Game{}, err
	}
	var g store.Game
	err = o.store.Tx(ctx, func(tx *store.Store) error {
		g, err = createRedoGame(ctx, tx, parent, redo, o.now().UTC())
		return err
	})
	return g, err
}

// DecidingGame follows a game's redo chain (D-R3) to its last game and
// returns it with its effective result; ok is false while the chain is not
// yet decided (no confirmed result, or a redo waiting to be played).
func (o *Office) DecidingGame(ctx context.Context, gameID int64) (store.Game, store.ResultVersion, bool, error) {
	return decidingGame(ctx, o.store, gameID)
}
