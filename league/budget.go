package league

import (
	"errors"
	"fmt"
)

// The league room keeps no clock (ARCHITECTURE: pure rooms). A caller that
// wants a time budget passes Options.Stop, a callback the search asks
// between steps; cmd and office build it from their clock. Without it the
// search is bounded by its step counts alone.

// Options bound a draw's search.
type Options struct {
	// Stop is asked now and then during the search; once it returns true
	// the search ends. A schedule found by then is returned (its rematch
	// count marked best_found if the bound was not met); otherwise the
	// error is a *BudgetError.
	Stop func() bool
}

// ErrBudget marks a search that ran out of its budget before finding a
// schedule. It is not a proof that none exists (that is *NoScheduleError).
var ErrBudget = errors.New("league draw ran out of its budget")

// BudgetError says the search stopped before it found a schedule.
type BudgetError struct {
	Players  int
	Restarts int // restarts begun before the stop
}

func (e *BudgetError) Error() string {
	return fmt.Sprintf("%v: %d players, stopped after %d restart(s) without a schedule", ErrBudget, e.Players, e.Restarts)
}

func (e *BudgetError) Unwrap() error { return ErrBudget }

// stopCheckEvery is how many search steps pass between calls to Stop.
const stopCheckEvery = 64

// stopped asks the caller's Stop, remembering a true answer.
func (p *problem) stopped() bool {
	if p.halted {
		return true
	}
	if p.stop != nil && p.stop() {
		p.halted = true
	}
	return p.halted
}

// Rematch minimality as reported (D-C1).
const (
	MinimalityProven    = "proven"     // the count equals the lower bound: no schedule has fewer
	MinimalityBestFound = "best_found" // the search stopped above the bound
)
