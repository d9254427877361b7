package league

import (
	"errors"
	"testing"
)

// TestGenerate_StopEndsSearchWithBudgetError: a caller's Stop ends the
// search; without a schedule the error is a budget error, never a
// *NoScheduleError (running out of time proves nothing).
func TestGenerate_StopEndsSearchWithBudgetError(t *testing.T) {
	t.Parallel()
	d := c2Draw(1)
	_, _, err := GenerateWithOptions(d, Options{Stop: func() bool { return true }})
	var none *NoScheduleError
	if !errors.Is(err, ErrBudget) || errors.As(err, &none) {
		t.Fatalf("err = %v, want a budget error", err)
	}
	// Without a stop the same draw succeeds.
	if _, _, err := GenerateWithOptions(d, Options{}); err != nil {
		t.Fatal(err)
	}
}
