package adjudication

import (
	"strconv"
	"time"
)

// Call is one word the recorder reads in byoyomi, at the time since the
// player's turn began (D-T3, 001 第5条).
type Call struct {
	At   Duration `json:"at"`
	Word string   `json:"word"`
}

// Calls is the recorder's reading for one move in byoyomi: for 60 s
// "30秒, 40秒, 50秒, 1 … 10" with the digits on seconds 51 … 60, for 30 s
// "10秒, 20秒, 1 … 10" on seconds 21 … 30 (001 第5条1・2). The player who
// hears the final "10" has lost on time. No byoyomi: no calls.
func (b Byoyomi) Calls() []Call {
	period := b.Period()
	if period == 0 {
		return nil
	}
	var calls []Call
	// Tens are called up to ten seconds before the end, then each second.
	for t := 10 * time.Second; t <= period-10*time.Second; t += 10 * time.Second {
		if period == time.Minute && t < 30*time.Second {
			continue // the one-minute count starts at 30 seconds
		}
		calls = append(calls, Call{At: Duration(t), Word: strconv.Itoa(int(t/time.Second)) + "秒"})
	}
	for i := 1; i <= 10; i++ {
		calls = append(calls, Call{At: Duration(period - 10*time.Second + time.Duration(i)*time.Second), Word: strconv.Itoa(i)})
	}
	return calls
}
