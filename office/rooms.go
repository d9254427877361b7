package office

import (
	"context"
	"fmt"
	"time"

	"kisen/store"
)

// Shared pieces for the rooms under office/ (office/day, the amateur
// tournament day; office/ratings). Each runs inside the caller's transaction (tx), so a
// room's use case stays one transaction; none of them opens its own. The
// rooms import office, never the other way round.

// RequireEventRoleIn is RequireEventRole read through tx.
func RequireEventRoleIn(ctx context.Context, tx *store.Store, actor Actor, eventID int64, roles ...string) error {
	return requireEventRole(ctx, tx, actor, eventID, roles...)
}

// JapanToday is the calendar day in Japan at now (the day a 師匠 period or
// a registration counts from).
func JapanToday(now time.Time) store.CivilDate { return playerToday(now) }

// NewPlayerIn registers a player inside tx with the player form's
// validation (docs/players-and-lineage.md); the caller decides who may
// (a day's director registers walk-ins at the desk). Every field problem
// is a *ValidationError naming the player form's fields.
func NewPlayerIn(ctx context.Context, tx *store.Store, in PlayerInput, now time.Time) (store.Player, error) {
	now = now.UTC()
	ve := &ValidationError{}
	p := validatePlayer(ve, 0, in, playerToday(now))
	if err := ve.OrNil(); err != nil {
		return store.Player{}, err
	}
	if err := checkPlayerNumberFree(ctx, tx, p.Number, 0); err != nil {
		return store.Player{}, err
	}
	p.CreatedAt, p.UpdatedAt = now, now
	if err := playerNumberConflict(tx.CreatePlayer(ctx, &p)); err != nil {
		return store.Player{}, err
	}
	return p, nil
}

// FirstMasterIn opens the first 師匠 period of a player registered just
// now (no history yet, so no overlap), from day from, checked as the
// registry checks any period (unknown master, self, cycle). Problems are
// added to ve; nothing is written then.
func FirstMasterIn(ctx context.Context, tx *store.Store, ve *ValidationError, discipleID int64, ref MasterRef, from store.CivilDate, now time.Time) error {
	m, ok, err := resolveMaster(ctx, tx, ve, 0, ref)
	if err != nil || !ok {
		return err
	}
	m.DiscipleID, m.FromDate, m.CreatedAt, m.UpdatedAt = discipleID, from, now.UTC(), now.UTC()
	n := len(ve.Fields)
	if err := checkNewPeriod(ctx, tx, ve, 0, m, nil, nil); err != nil || len(ve.Fields) > n {
		return err
	}
	return tx.AddMasterPeriod(ctx, &m)
}

// EventHandicapIn is the event's 手合割 setting and table (its own, the
// organiser's, or 004's) read through tx.
func EventHandicapIn(ctx context.Context, tx *store.Store, e store.Event) (EventHandicap, error) {
	return eventHandicap(ctx, tx, e)
}

// ChainResultInput is a result entered for one game's redo chain from a
// quick form (a day's board row, a withdrawal's forfeit): the chain's
// first game, the game the person saw as its current one and that game's
// result version then (0: none).
type ChainResultInput struct {
	RootID  int64
	GameID  int64
	Version int
	Result  string `field:"result" validate:"oneof=sente_win gote_win" msg:"games.err,oneof=result"` // ResultSenteWin or ResultGoteWin
	Reason  string // e.g. ReasonResignation, ReasonForfeit
	Note    string
}

// EnterChainResultIn records a decisive result on a chain's current game
// inside tx through the one result-entry path (the bracket's and the
// league's quick results use the same steps): the game row locked, the
// version the person saw checked (a *StaleError otherwise, HTTP 409 with
// the result in force), a void or already decided chain refused, then the
// result version appended (and confirmed unless the event requires a
// second person). The caller checks the actor's role.
func EnterChainResultIn(ctx context.Context, tx *store.Store, actor Actor, in ChainResultInput, now time.Time) (store.ResultVersion, error) {
	if v := (&ValidationError{}); !checkInput(v, 0, in) {
		return store.ResultVersion{}, v
	}
	last, eff, decided, err := lockChainGame(ctx, tx, in.RootID, in.GameID, in.Version)
	if err != nil {
		return store.ResultVersion{}, err
	}
	if _, void, err := tx.GameVoidOf(ctx, in.RootID); err != nil {
		return store.ResultVersion{}, err
	} else if void {
		return store.ResultVersion{}, fmt.Errorf("game %d is void: %w", in.RootID, ErrConflict)
	}
	if decided || eff.Result == ResultRedo {
		return store.ResultVersion{}, staleError(ctx, tx, last.ID, in.Version)
	}
	rin := ResultInput{Result: in.Result, Reason: in.Reason, Note: in.Note, Version: in.Version}
	if err := checkResult(last, rin).OrNil(); err != nil {
		return store.ResultVersion{}, err
	}
	return appendResult(ctx, tx, actor, last, rin, now.UTC())
}

// DecidingIn follows game gameID's redo chain within gs to its last game
// and returns it with its result in force; decided is false while the
// chain is not yet decided. It is the set-based reading every listing
// uses (no statement per game).
func DecidingIn(gs store.GameSet, gameID int64) (last store.Game, inForce store.ResultVersion, decided bool, err error) {
	return deciding(gs, gameID)
}

// KeptView returns the view under key kept for revision rev in o's view
// cache (view_cache.go), computing and keeping it when absent; rev ""
// always computes. A room names its keys so they cannot meet another's.
func KeptView[T any](o *Office, key, rev string, compute func() (T, error)) (T, error) {
	return kept(o.views, key, rev, compute)
}

// MustJSON is the JSON of an audit log entry's detail ("{}" when v cannot
// be encoded).
func MustJSON(v any) string { return mustJSON(v) }

// DecodeUploadedCSV reads an uploaded CSV file's text as the player import
// does: UTF-8 (with or without a BOM) or Shift_JIS without an undecodable
// byte; ok is false for anything else.
func DecodeUploadedCSV(data []byte) (string, bool) { return decodePlayerCSV(data) }
