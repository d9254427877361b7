package adjudication

import (
	"fmt"
	"time"
)

// Clock keeps both players' time for one game, move by move (D-T1..T3,
// 001 第4条・第5条). It is a plain value machine: the caller passes each
// move's measured duration; nothing here reads the wall clock.
//
// Stopwatch (D-T1, 001 第4条A): each move is charged in whole minutes, the
// part under a minute dropped (第4条A1 speaks of the time one move uses,
// which the recorder notes per move, so the truncation is per move, not of
// the running total). Byoyomi is the last minute of the allowance
// (第4条A2): a player with one minute or less left is read the seconds,
// and a move that uses up what is left loses on time.
//
// Chess clock (D-T2, 001 第4条B): the allowance runs down to the second;
// once it is gone every move must be made within the byoyomi period (60 s
// or 30 s, 第5条), and with no byoyomi the fall of the flag loses.
//
// Reaching the limit exactly loses: the recorder's final "10" is read at the
// limit and the player who hears it has lost (001 第5条1・2).
type Clock struct {
	tc        TimeControl
	remaining [2]time.Duration
	used      [2]time.Duration
	moves     int
	forfeited *Side
}

// ClockState is a snapshot of a Clock, ready for JSON.
type ClockState struct {
	// Remaining is each side's allowance left (0 once in chess-clock
	// byoyomi; the last minute when in stopwatch byoyomi).
	Remaining Times `json:"remaining"`
	// Used is the time charged to each side so far (byoyomi not included).
	Used Times `json:"used"`
	// InByoyomi says whose moves are now counted in seconds.
	InByoyomi SideFlags `json:"in_byoyomi"`
	// Forfeited is the side that lost on time, if any.
	Forfeited *Side `json:"forfeited,omitempty"`
	// Moves is how many moves have been timed.
	Moves int `json:"moves"`
}

// SideFlags is one flag per side.
type SideFlags struct {
	Sente bool `json:"sente"`
	Gote  bool `json:"gote"`
}

// NewClock starts a game's clock with the full allowance for both sides.
func NewClock(tc TimeControl) (*Clock, error) {
	return NewClockFrom(tc, Times{Sente: tc.Allowance, Gote: tc.Allowance})
}

// NewClockFrom starts a clock with given times, e.g. a redo game's
// allowance from RedoAllowance (D-R2) or a game resumed after adjournment.
func NewClockFrom(tc TimeControl, start Times) (*Clock, error) {
	if err := tc.Validate(); err != nil {
		return nil, err
	}
	c := &Clock{tc: tc}
	for _, s := range []Side{Sente, Gote} {
		d := start.Of(s).D()
		if d < 0 || d > maxAllowance {
			return nil, fieldErr("start."+s.String(), "%s is outside 0 … %s", d, maxAllowance)
		}
		c.remaining[s] = d
	}
	return c, nil
}

// Apply charges one move of side that took d and reports whether the side
// lost on time with it. After a forfeit the clock accepts no more moves.
func (c *Clock) Apply(side Side, d time.Duration) (ClockState, bool, error) {
	if !side.Valid() {
		return c.State(), false, fieldErr("side", "%d is neither sente nor gote", uint8(side))
	}
	if d < 0 {
		return c.State(), false, fieldErr("duration", "%s is negative", d)
	}
	if c.forfeited != nil {
		return c.State(), true, fieldErr("side", "the game is over: %s already lost on time", *c.forfeited)
	}
	c.moves++
	rem := c.remaining[side]
	lost := false
	switch c.tc.Timing {
	case Stopwatch:
		if d >= rem {
			// 001 第4条A2: the whole allowance is used up.
			c.used[side] += rem
			c.remaining[side] = 0
			lost = true
		} else {
			// 001 第4条A1: under a minute is dropped from each move.
			charged := d.Truncate(time.Minute)
			c.used[side] += charged
			c.remaining[side] = rem - charged
		}
	default: // ChessClock
		if d < rem {
			c.used[side] += d
			c.remaining[side] = rem - d
			break
		}
		c.used[side] += rem
		c.remaining[side] = 0
		period := c.tc.Byoyomi.Period()
		// 001 第4条B: byoyomi starts when the allowance is gone; without
		// byoyomi that is the end.
		lost = period == 0 || d-rem >= period
	}
	if lost {
		c.forfeited = sidePtr(side)
	}
	return c.State(), lost, nil
}

// Adjust adds (delta > 0) or removes (delta < 0) time from side's
// allowance, as an arbiter may (D-K1, 000 第11条第5項四). Removing more
// than is left leaves zero: the player is then in byoyomi (or, without
// byoyomi, must move at once).
func (c *Clock) Adjust(side Side, delta time.Duration) (ClockState, error) {
	if !side.Valid() {
		return c.State(), fieldErr("side", "%d is neither sente nor gote", uint8(side))
	}
	if c.forfeited != nil {
		return c.State(), fieldErr("side", "the game is over: %s already lost on time", *c.forfeited)
	}
	if delta > maxAllowance || delta < -maxAllowance {
		return c.State(), fieldErr("delta", "%s is more than %s", delta, maxAllowance)
	}
	r := c.remaining[side] + delta
	if r < 0 {
		r = 0
	}
	if r > maxAllowance {
		return c.State(), fieldErr("delta", "%s would leave %s with more than %s", delta, side, maxAllowance)
	}
	c.remaining[side] = r
	return c.State(), nil
}

// Remaining is side's allowance left.
func (c *Clock) Remaining(side Side) time.Duration { return c.remaining[side&1] }

// InByoyomi reports whether side's moves are now counted in seconds:
// within the last minute with a stopwatch (001 第4条A2), once the
// allowance is gone on a chess clock with byoyomi (第4条B).
func (c *Clock) InByoyomi(side Side) bool {
	r := c.remaining[side&1]
	if c.tc.Timing == Stopwatch {
		return r <= time.Minute
	}
	return r == 0 && c.tc.Byoyomi != ByoyomiNone
}

// MayAskForCount reports whether side may ask the recorder to read the
// seconds already: from ten minutes left (D-T3, 001 第5条3).
func (c *Clock) MayAskForCount(side Side) bool {
	return c.remaining[side&1] <= 10*time.Minute
}

// Forfeited is the side that lost on time, if any.
func (c *Clock) Forfeited() (Side, bool) {
	if c.forfeited == nil {
		return 0, false
	}
	return *c.forfeited, true
}

// State is a snapshot.
func (c *Clock) State() ClockState {
	st := ClockState{
		Remaining: Times{Sente: Duration(c.remaining[Sente]), Gote: Duration(c.remaining[Gote])},
		Used:      Times{Sente: Duration(c.used[Sente]), Gote: Duration(c.used[Gote])},
		InByoyomi: SideFlags{Sente: c.InByoyomi(Sente), Gote: c.InByoyomi(Gote)},
		Moves:     c.moves,
	}
	if c.forfeited != nil {
		st.Forfeited = sidePtr(*c.forfeited)
	}
	return st
}

func (st ClockState) String() string {
	return fmt.Sprintf("sente %s gote %s after %d moves", st.Remaining.Sente, st.Remaining.Gote, st.Moves)
}
