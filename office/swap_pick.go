package office

import (
	"context"

	"kisen/pairing"
	"kisen/store"
)

// PreviewSwap says which rules a swap of two slots would newly break,
// without saving anything: the stage page shows it when two players are
// picked in the drawn bracket, before the director confirms the swap
// (SwapSlots checks again under its own lock).
func (o *Office) PreviewSwap(ctx context.Context, actor Actor, in SwapInput) ([]pairing.Violation, error) {
	var broke []pairing.Violation
	err := o.stageTx(ctx, actor, in.StageID, func(tx *store.Store, st store.KnockoutStage) error {
		_, v, err := swapStage(ctx, tx, st, in)
		broke = v
		return err
	})
	return broke, err
}
