package office

import (
	"context"
	"errors"
	"fmt"

	"kisen/store"
)

// Permission before validation (issue 21 item 4). A write route asks one of
// these, with the roles its use case accepts, before it reads its form: a
// principal who may not use the route at all is refused whatever the body
// holds — ErrNotFound (404) when they may not even see the thing the path
// names (a draft's game, stage or class; a missing id), ErrForbidden (403)
// when they may see it but not act — never a 422 about fields they may
// not fill in. The use case checks again (and more finely: a ruling's
// arbiter rule, a token's scope) when it runs.

// Role lists of the routes that ask first; the use cases use the same
// lists, so the early answer and the use case's agree.
var (
	// ResultEntryRoles enter or end a game (EndGame, PreviewEnd).
	ResultEntryRoles = []string{RoleDirector, RoleArbiter, RoleRecorder}
	// ResultReviewRoles confirm, undo or claim a foul on a result.
	ResultReviewRoles = []string{RoleDirector, RoleArbiter}
	// RecordRoles keep a game's record (SaveRecord, AppendMove).
	RecordRoles = []string{RoleDirector, RoleArbiter, RoleRecorder}
	// RulingRoles may rule on a game: the arbiter, or the director when the
	// event has none (rulingAuthority decides between them, D-K2).
	RulingRoles = []string{RoleDirector, RoleArbiter}
	// GameCreateRoles add a single game to an event (CreateGame).
	GameCreateRoles = []string{RoleDirector, RoleScheduler}
	// LeagueEditRoles import a term's history and take a schedule back.
	LeagueEditRoles = []string{RoleDirector, RoleScheduler}
	// LeagueResultRoles enter a league row's result (EnterLeagueResult).
	LeagueResultRoles = []string{RoleDirector, RoleScheduler, RoleArbiter, RoleRecorder}
)

// RequireGameRole answers whether actor may act on game gameID as one of
// roles, before any form is read: ErrNotFound for a missing game or one
// whose event the actor may not see, ErrForbidden when they may see it.
func (o *Office) RequireGameRole(ctx context.Context, actor Actor, gameID int64, roles ...string) error {
	g, err := o.store.GameByID(ctx, gameID)
	if err != nil {
		return err
	}
	err = o.RequireEventRole(ctx, actor, g.EventID, roles...)
	if errors.Is(err, ErrForbidden) {
		// A game of an unpublished class or stage the actor may not see
		// is not found, as its page is (issue 21).
		if verr := mayViewGame(ctx, o.store, actor, g); verr != nil {
			return verr
		}
	}
	return err
}

// RequireStageRole is RequireGameRole for a knockout stage: an unpublished
// stage the actor may not manage is not found, as its page is (Stage).
func (o *Office) RequireStageRole(ctx context.Context, actor Actor, stageID int64, roles ...string) error {
	st, err := o.store.StageByID(ctx, stageID)
	if err != nil {
		return err
	}
	return requireStageRole(ctx, o.store, actor, st, roles...)
}

// requireStageRole is requireEventRole for an act on stage st: refused
// on a stage that is not published, an actor who is not the event's
// staff — who may not see the stage (Stage) — is told it does not exist
// (ErrNotFound), as a missing stage, not that they may not act on it.
func requireStageRole(ctx context.Context, s *store.Store, actor Actor, st store.KnockoutStage, roles ...string) error {
	refused := requireEventRole(ctx, s, actor, st.EventID, roles...)
	if refused == nil || st.Status == StagePublished || !errors.Is(refused, ErrForbidden) {
		return refused
	}
	if requireEventRole(ctx, s, actor, st.EventID, RoleDirector, RoleScheduler, RoleArbiter, RoleRecorder) != nil {
		return fmt.Errorf("stage %d is not published: %w", st.ID, ErrNotFound)
	}
	return refused
}

// RequireLeagueClassRole is RequireGameRole for a league class.
func (o *Office) RequireLeagueClassRole(ctx context.Context, actor Actor, classID int64, roles ...string) error {
	c, err := o.store.LeagueClassByID(ctx, classID)
	if err != nil {
		return err
	}
	// An unpublished class the actor may not see is not found (issue 21).
	return o.requireClassRole(ctx, actor, c, roles...)
}

// StaleGame is what the "someone entered first" page (HTTP 409) shows of
// the game a refused write named.
type StaleGame struct {
	Game store.Game
	// RedoGameID is the redo game that replaced it (0: none).
	RedoGameID int64
	// Stages are the event's stages: the page names a bracket game's round
	// from its stage's size (web GameLabel, issue 24 item 3).
	Stages []KnockoutStage
}

// StaleGameOf reads the game of a refused write for that page, through
// the one visibility rule: a game whose event the actor may not see is
// ErrNotFound, as a missing one (issue 21: the page must never describe a
// game the actor could not open).
func (o *Office) StaleGameOf(ctx context.Context, actor Actor, gameID int64) (StaleGame, error) {
	g, err := o.store.GameByID(ctx, gameID)
	if err != nil {
		return StaleGame{}, err
	}
	if _, err := mayViewEventID(ctx, o.store, actor, g.EventID); err != nil {
		return StaleGame{}, err
	}
	out := StaleGame{Game: g}
	redos, err := o.store.RedoGames(ctx, g.ID)
	if err != nil {
		return StaleGame{}, err
	}
	if len(redos) > 0 {
		out.RedoGameID = redos[0].ID
	}
	if out.Stages, err = o.store.StagesOfEvent(ctx, g.EventID); err != nil {
		return StaleGame{}, err
	}
	return out, nil
}
