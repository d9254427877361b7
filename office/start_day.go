package office

import (
	"context"
	"encoding/json"

	"kisen/store"
)

// The amateur day on the start page (issue 23 §5): the desk's draws,
// check-ins, walk-ins and withdrawals among the recent changes, and the
// class, round and board of each game listed.

// Desk-log actions of an amateur day that the start page tells; office/day
// writes them under these names (its Log* constants are these).
const (
	DayLogDraw     = "draw"
	DayLogCheckin  = "checkin"
	DayLogWalkIn   = "walk_in"
	DayLogWithdraw = "withdraw"
)

// ChangeDay is a recent change at an amateur day's desk.
const ChangeDay = "day"

const (
	// startDayLogLimit desk-log rows are read (one statement) so that a
	// run of check-ins can be told as one line.
	startDayLogLimit = 100
	// StartDayNames is how many players a grouped check-in names.
	StartDayNames = 5
)

// DayChange is what a desk change says: a round drawn (Round, Boards,
// Byes), or players checked in (State, one line for a run of check-ins by
// one person to one state in one event, newest first), walked in or
// withdrawn.
type DayChange struct {
	Action      string
	ClassName   string
	ClassNameEn string
	Round       int
	Boards      int
	Byes        int
	State       string   // checkin: the state set; walk_in: present or late
	Players     []string // at most StartDayNames names
	Count       int      // players in the line
}

// startDayChanges reads the newest desk changes of the scope's days, a
// run of check-ins folded into one line.
func (o *Office) startDayChanges(ctx context.Context, sc store.StartScope) ([]StartChange, error) {
	log, err := o.store.RecentDayLog(ctx, sc, []string{DayLogDraw, DayLogCheckin, DayLogWalkIn, DayLogWithdraw}, startDayLogLimit)
	if err != nil {
		return nil, err
	}
	var out []StartChange
	for _, e := range log {
		var detail struct {
			Round   int    `json:"round"`
			Boards  int    `json:"boards"`
			Byes    int    `json:"byes"`
			To      string `json:"to"`
			Checkin string `json:"checkin"`
		}
		_ = json.Unmarshal([]byte(e.Detail), &detail) // an unreadable detail tells the action alone
		state := detail.To
		if e.Action == DayLogWalkIn {
			state = detail.Checkin
		}
		if n := len(out); n > 0 && e.Action == DayLogCheckin {
			last := out[n-1].Day
			if last.Action == DayLogCheckin && out[n-1].EventID == e.EventID && out[n-1].ActorID == e.ActorID && last.State == state {
				last.Count++
				if len(last.Players) < StartDayNames {
					last.Players = append(last.Players, e.PlayerName)
				}
				continue
			}
		}
		dc := &DayChange{Action: e.Action, ClassName: e.ClassName, ClassNameEn: e.ClassNameEn, Round: detail.Round, Boards: detail.Boards, Byes: detail.Byes, State: state}
		if e.PlayerName != "" {
			dc.Players, dc.Count = []string{e.PlayerName}, 1
		}
		out = append(out, StartChange{Kind: ChangeDay, At: e.At, EventID: e.EventID, ActorID: e.ActorID, ClassID: e.ClassID, Day: dc})
	}
	return out, nil
}

// gameIDs lists the games the start page names.
func (v StartView) gameIDs() []int64 {
	var ids []int64
	for _, g := range v.Waiting {
		ids = append(ids, g.GameID)
	}
	for _, g := range v.Confirm {
		ids = append(ids, g.GameID)
	}
	for _, g := range v.Rulings {
		ids = append(ids, g.GameID)
	}
	for _, c := range v.Changes {
		if c.GameID != 0 {
			ids = append(ids, c.GameID)
		}
	}
	return uniq(ids)
}
