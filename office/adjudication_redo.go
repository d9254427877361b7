package office

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"kisen/adjudication"
	"kisen/store"
)

// maxRedoAllowance bounds a redo game's clock (the games table's allowance
// range, as CreateGame checks it).
const maxRedoAllowance = 24 * time.Hour

// gamePlayers is a stored game's sides as the adjudication room names
// them (player ids as strings); ok is false while a seat waits.
func gamePlayers(g store.Game) (adjudication.Players, bool) {
	if g.SentePlayerID == nil || g.GotePlayerID == nil {
		return adjudication.Players{}, false
	}
	return adjudication.Players{
		Sente: adjudication.Player{ID: strconv.FormatInt(*g.SentePlayerID, 10)},
		Gote:  adjudication.Player{ID: strconv.FormatInt(*g.GotePlayerID, 10)},
	}, true
}

// gameHandicap is the game's 手合割 as adjudication names it ("" for 平手).
func gameHandicap(g store.Game) string {
	if g.Handicap == "平手" {
		return ""
	}
	return g.Handicap
}

// RedoPlan is the redo game adjudication gives a game that ended without
// result when each side had remaining left (adjudication.NextRedo with the
// event's settings and the chain's allowance, D-R1/D-R2). Pass it to
// CreateRedoGame. Directors, arbiters and recorders.
func (o *Office) RedoPlan(ctx context.Context, actor Actor, gameID int64, remaining adjudication.Times) (adjudication.RedoGame, error) {
	g, err := o.store.GameByID(ctx, gameID)
	if err != nil {
		return adjudication.RedoGame{}, err
	}
	if err := o.RequireEventRole(ctx, actor, g.EventID, RoleDirector, RoleArbiter, RoleRecorder); err != nil {
		return adjudication.RedoGame{}, err
	}
	return redoPlan(ctx, o.store, g, remaining)
}

func redoPlan(ctx context.Context, s *store.Store, g store.Game, remaining adjudication.Times) (adjudication.RedoGame, error) {
	settings, err := eventSettings(ctx, s, g.EventID)
	if err != nil {
		return adjudication.RedoGame{}, err
	}
	if settings.Time, err = gameTimeControl(ctx, s, g, settings.Time); err != nil {
		return adjudication.RedoGame{}, err
	}
	players, ok := gamePlayers(g)
	if !ok {
		v := &ValidationError{}
		v.Add(0, "", "games.err.no_players", nil)
		return adjudication.RedoGame{}, v
	}
	r, err := adjudication.NextRedo(settings.Settings, players, gameHandicap(g), &remaining, g.RedoNumber)
	if err != nil {
		return r, factsError(err)
	}
	return r, nil
}

// CreateRedoGameFromRemaining is RedoPlan followed by CreateRedoGame, for a
// redo result entered by hand: senteLeft and goteLeft are what each side's
// clock showed when the game ended.
func (o *Office) CreateRedoGameFromRemaining(ctx context.Context, actor Actor, parentID int64, senteLeft, goteLeft time.Duration) (store.Game, error) {
	plan, err := o.RedoPlan(ctx, actor, parentID, adjudication.Times{Sente: adjudication.Duration(senteLeft), Gote: adjudication.Duration(goteLeft)})
	if err != nil {
		return store.Game{}, err
	}
	return o.CreateRedoGame(ctx, actor, parentID, plan)
}

// createRedoGame writes the redo game of parent inside tx. The newest
// result version of parent must be a redo (confirmed or not: the players
// replay after the break while a second person may still confirm, see
// docs/adjudication-web.md), and no live redo game may exist. The sides
// must be the ones adjudication gives (NextRedo: swapped for an even game,
// D-R1; the handicap giver keeps the first move, 003), and the allowance
// must be given (D-R2).
func createRedoGame(ctx context.Context, tx *store.Store, parent store.Game, r adjudication.RedoGame, now time.Time) (store.Game, error) {
	v := &ValidationError{}
	players, ok := gamePlayers(parent)
	if !ok {
		v.Add(0, "", "games.err.no_players", nil)
		return store.Game{}, v
	}
	want, err := adjudication.NextRedo(adjudication.DefaultSettings(), players, gameHandicap(parent), nil, parent.RedoNumber)
	if err != nil {
		return store.Game{}, err
	}
	if r.Players.Sente.ID != want.Players.Sente.ID || r.Players.Gote.ID != want.Players.Gote.ID {
		v.Add(0, "sente", "adjudication.err.redo_sides", nil)
	}
	if r.Number != 0 && r.Number != want.Number {
		v.Add(0, "", "adjudication.err.redo_number", map[string]any{"Number": want.Number})
	}
	if r.Allowance == nil {
		v.Add(0, "remaining_sente", "adjudication.err.remaining_required", nil)
	} else {
		for _, d := range []time.Duration{r.Allowance.Sente.D(), r.Allowance.Gote.D()} {
			if d < 0 || d > maxRedoAllowance {
				v.Add(0, "allowance", "games.err.allowance", nil)
				break
			}
		}
	}
	if err := v.OrNil(); err != nil {
		return store.Game{}, err
	}
	hist, err := tx.ResultHistory(ctx, parent.ID)
	if err != nil {
		return store.Game{}, err
	}
	if len(hist) == 0 || hist[len(hist)-1].Result != ResultRedo {
		return store.Game{}, fmt.Errorf("game %d: its newest result is not a redo: %w", parent.ID, ErrConflict)
	}
	if redos, err := tx.RedoGames(ctx, parent.ID); err != nil {
		return store.Game{}, err
	} else if len(redos) > 0 {
		return store.Game{}, fmt.Errorf("game %d already has its redo game %d: %w", parent.ID, redos[0].ID, ErrConflict)
	}
	if counted, err := countedInSeries(ctx, tx, parent, hist[len(hist)-1].Reason); err != nil {
		return store.Game{}, err
	} else if counted {
		v.Add(0, "", "adjudication.err.redo_counted", nil)
		return store.Game{}, v
	}
	id := func(p adjudication.Player) *int64 {
		n, _ := strconv.ParseInt(p.ID, 10, 64) // equal to the parent's ids, checked above
		return &n
	}
	pid := parent.ID
	g := store.Game{
		EventID: parent.EventID, Label: parent.Label,
		SentePlayerID: id(r.Players.Sente), GotePlayerID: id(r.Players.Gote),
		Handicap: parent.Handicap, ScheduledOn: parent.ScheduledOn, // same day (001 第6条)
		SenteAllowanceS: int(r.Allowance.Sente.D() / time.Second), GoteAllowanceS: int(r.Allowance.Gote.D() / time.Second),
		RedoOfID: &pid, RedoNumber: parent.RedoNumber + 1,
		CreatedAt: now, UpdatedAt: now,
	}
	if err := tx.CreateGame(ctx, &g); err != nil {
		return store.Game{}, err
	}
	e, err := tx.EventByID(ctx, parent.EventID)
	if err != nil {
		return store.Game{}, err
	}
	return g, syncKnockout(ctx, tx, e, now)
}

// voidSupersededRedo marks the live redo games of a game void once its
// effective (confirmed) result is not a redo and is newer than every redo
// version: the redo that called for them was corrected. Never a delete:
// the void is a row of its own, and the redo chain (D-R3) skips the game.
func voidSupersededRedo(ctx context.Context, tx *store.Store, actor Actor, gameID int64, now time.Time) error {
	hist, err := tx.ResultHistory(ctx, gameID) // one read: the result in force comes from it
	if err != nil {
		return err
	}
	eff, ok := store.EffectiveOf(hist)
	if !ok || eff.Result == ResultRedo {
		return nil
	}
	for _, h := range hist {
		if h.Result == ResultRedo && h.Version > eff.Version {
			return nil // a newer redo waits for confirmation: its redo game stands
		}
	}
	redos, err := tx.RedoGames(ctx, gameID)
	if err != nil {
		return err
	}
	for _, r := range redos {
		if err := tx.VoidGame(ctx, &store.GameVoid{GameID: r.ID, ResultID: eff.ID, VoidedBy: actor.UserID, VoidedAt: now}); err != nil {
			return err
		}
	}
	return nil
}
