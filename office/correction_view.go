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

// VoidBracketGames lists the void games of an event's bracket slots by
// stage, oldest first, in one statement however many there are (issue
// 12). The caller has already shown the event's stages (EventBrackets
// checks who may see them).
func (o *Office) VoidBracketGames(ctx context.Context, eventID int64) (map[int64][]VoidBracketGame, error) {
	rows, err := o.store.VoidBracketGamesOfEvent(ctx, eventID)
	if err != nil {
		return nil, err
	}
	out := map[int64][]VoidBracketGame{}
	for _, r := range rows {
		v := VoidBracketGame{BracketGame: r.BracketGame, GameID: r.GameID, Label: r.Label}
		if r.SenteID != nil {
			v.SenteID = *r.SenteID
		}
		if r.GoteID != nil {
			v.GoteID = *r.GoteID
		}
		out[r.StageID] = append(out[r.StageID], v)
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
