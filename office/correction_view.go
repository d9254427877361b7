package office

import "context"

// VoidBracketGame is a game a correction made void in a bracket slot; the
// bracket lists it struck through under the tree.
type VoidBracketGame struct {
	BracketGame string
	GameID      int64
	Label       string
	SenteID     int64
	GoteID      int64
}

// VoidBracketGames lists the void games of a stage's slots, oldest first.
// The caller has already shown the stage (EventBrackets checks who may see
// it).
func (o *Office) VoidBracketGames(ctx context.Context, stageID int64) ([]VoidBracketGame, error) {
	kgs, err := o.store.VoidKnockoutGamesOfStage(ctx, stageID)
	if err != nil {
		return nil, err
	}
	var out []VoidBracketGame
	for _, kg := range kgs {
		g, err := o.store.GameByID(ctx, kg.GameID)
		if err != nil {
			return nil, err
		}
		v := VoidBracketGame{BracketGame: kg.BracketGame, GameID: g.ID, Label: g.Label}
		if g.SentePlayerID != nil {
			v.SenteID = *g.SentePlayerID
		}
		if g.GotePlayerID != nil {
			v.GoteID = *g.GotePlayerID
		}
		out = append(out, v)
	}
	return out, nil
}

// VoidReason is the reason of the correction that made a game void; ok is
// false when the game stands or was voided as a redo game.
func (o *Office) VoidReason(ctx context.Context, gameID int64) (string, bool, error) {
	mark, void, err := o.store.GameVoidOf(ctx, gameID)
	if err != nil || !void || mark.CorrectionID == nil {
		return "", false, err
	}
	c, err := o.store.CorrectionByID(ctx, *mark.CorrectionID)
	if err != nil {
		return "", false, err
	}
	return c.Reason, true, nil
}
