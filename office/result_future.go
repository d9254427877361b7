package office

import (
	"context"
	"fmt"
	"time"

	"kisen/store"
)

// FutureResultError refuses a result for a game scheduled after today
// until the person has said once that they mean it (issue 13): the web
// asks "this game is scheduled for …; enter the result anyway?" and sends
// the same form again with the answer.
type FutureResultError struct {
	GameID int64
	Date   string // YYYY-MM-DD, the game's scheduled day
}

func (e *FutureResultError) Error() string {
	return fmt.Sprintf("game %d is scheduled for %s, after today: confirm the result", e.GameID, e.Date)
}

type futureKey struct{}

// AskBeforeFutureResult marks ctx as a request from a person who has not
// yet confirmed a result for a game scheduled in the future: a result
// entered for such a game is refused with a *FutureResultError. Without the
// mark (the command line, scripts, the seed fixtures, a confirmed form)
// results are taken whatever the date.
func AskBeforeFutureResult(ctx context.Context) context.Context {
	return context.WithValue(ctx, futureKey{}, true)
}

// checkFutureResult refuses, when ctx asks, a result for a game scheduled
// after now's day in Japan.
func checkFutureResult(ctx context.Context, g store.Game, now time.Time) error {
	if ask, _ := ctx.Value(futureKey{}).(bool); !ask || g.ScheduledOn == nil {
		return nil
	}
	if today := now.In(playerTokyo).Format(time.DateOnly); *g.ScheduledOn > today {
		return &FutureResultError{GameID: g.ID, Date: *g.ScheduledOn}
	}
	return nil
}
