package adjudication

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// FuzzDecideJSON: any JSON → ParseGame → Decide never panics; bad input is
// ErrInvalid; an outcome always has a reason, a seed article, D-ids only,
// and a result consistent with its winner and redo game.
func FuzzDecideJSON(f *testing.F) {
	for _, s := range []string{
		`{"ending":{"kind":"resign","by":"gote"}}`,
		`{"ending":{"kind":"sennichite","perpetual_check_by":"sente"},"remaining":{"sente":"10m","gote":"2h"}}`,
		`{"ending":{"kind":"jishogi_agreement"},"points":{"sente":27,"gote":27},"settings":{"kind":"amateur","jishogi":"27","jishogi_27_tie":"redo"}}`,
		`{"ending":{"kind":"declaration","by":"gote"},"declaration":{"king_in_camp":true,"pieces_in_camp":12,"points":27},"settings":{"kind":"amateur","declaration":"27"}}`,
		`{"ending":{"kind":"resign","by":"sente","ply":80},"fouls":[{"kind":"nifu","offender":"gote","ply":30,"found":"after","next_game_started":true},{"kind":"clock_hand","offender":"sente","found":"during","prior_warnings":1}]}`,
		`{"ending":{"kind":"foul"},"findings":{"plies":40,"foul":{"ply":33,"kind":"uchifuzume","offender":"gote"},"side_to_move":"sente"}}`,
		`{"ending":{"kind":"resign","by":"sente"},"findings":{"plies":530,"complete":true,"max_moves_ply":500,"final_occurrences":1,"side_to_move":"sente","points":{"sente":27,"gote":27}}}`,
		`{"ending":{"kind":"sennichite"},"redo_count":3,"settings":{"kind":"amateur","repeated_redo":{"after":2,"then":"arbiter"}}}`,
		`{"ending":{"kind":"arbiter_foul_loss","by":"sente"},"rulings":[{"id":"a","game_id":"g","kind":"foul_loss","at":"2026-01-01T00:00:00Z","arbiter":{"id":"x"},"player":"sente","reason":"r"},{"id":"b","game_id":"g","kind":"other","at":"2026-01-01T01:00:00Z","arbiter":{"id":"x"},"reason":"appeal","supersedes":"a"}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := ParseGame(data)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("parse error is not ErrInvalid: %v", err)
			}
			return
		}
		o, err := g.Decide(Reading{})
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("decide error is not ErrInvalid: %v", err)
			}
			return
		}
		checkOutcome(t, o)
	})
}

func checkOutcome(t *testing.T, o Outcome) {
	t.Helper()
	if o.Reason == "" || len(o.Articles) == 0 {
		t.Fatalf("outcome without a reason or an article: %+v", o)
	}
	for _, r := range o.Rules {
		if !strings.HasPrefix(r, "D-") {
			t.Fatalf("rule %q is not a DOMAIN.md id", r)
		}
	}
	switch o.Result {
	case SenteWin, GoteWin:
		if o.Winner == nil || o.Loser == nil || *o.Winner == *o.Loser || winFor(*o.Winner) != o.Result || !o.MatchComplete || o.Redo != nil {
			t.Fatalf("inconsistent win: %+v", o)
		}
	case Redo:
		if o.Redo == nil || o.Winner != nil || o.MatchComplete || o.Redo.Number < 1 {
			t.Fatalf("inconsistent redo: %+v", o)
		}
	case Pending:
		if o.DecidedBy == "" || o.MatchComplete {
			t.Fatalf("pending without who decides: %+v", o)
		}
	case BothLose:
		if o.Winner != nil {
			t.Fatalf("both lose with a winner: %+v", o)
		}
	default:
		t.Fatalf("unknown result %q", o.Result)
	}
}

// FuzzClock applies arbitrary move times and adjustments: nothing panics,
// no clock goes negative, a clock only grows through Adjust, stopwatch
// charges whole minutes, and once a side forfeits the clock is closed.
func FuzzClock(f *testing.F) {
	f.Add(uint8(0), int64(600), []byte{10, 200, 3, 90, 61, 250, 0, 59})
	f.Add(uint8(1), int64(0), []byte{29, 30, 1})
	f.Add(uint8(2), int64(3600), []byte{255, 255, 255, 7})
	f.Fuzz(func(t *testing.T, mode uint8, allowance int64, steps []byte) {
		tc := DefaultTimeControl()
		switch mode % 4 {
		case 0:
			tc.Timing = Stopwatch
			allowance = allowance / 60 * 60
		case 1:
			tc.Byoyomi = Byoyomi30
		case 2:
			tc.Byoyomi = ByoyomiNone
		}
		tc.Allowance = Duration(time.Duration(allowance) * time.Second)
		c, err := NewClock(tc)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("bad time control error is not ErrInvalid: %v", err)
			}
			return
		}
		for i, b := range steps {
			side := Side(i & 1)
			before := c.Remaining(side)
			if b >= 250 { // an arbiter's adjustment
				delta := time.Duration(int(b)-252) * time.Minute
				if _, err := c.Adjust(side, delta); err != nil {
					if _, over := c.Forfeited(); !over {
						t.Fatalf("adjust refused on a running clock: %v", err)
					}
				}
				continue
			}
			d := time.Duration(b) * 7 * time.Second
			st, lost, err := c.Apply(side, d)
			if _, over := c.Forfeited(); err != nil && !over {
				t.Fatalf("apply refused on a running clock: %v", err)
			}
			if err != nil {
				continue
			}
			after := c.Remaining(side)
			if after < 0 || after > before {
				t.Fatalf("remaining went from %s to %s", before, after)
			}
			if tc.Timing == Stopwatch && !lost && (before-after)%time.Minute != 0 {
				t.Fatalf("stopwatch charged %s, not whole minutes", before-after)
			}
			if lost != (st.Forfeited != nil) {
				t.Fatalf("lost %v but forfeited %v", lost, st.Forfeited)
			}
			if lost {
				if _, _, err := c.Apply(side.Opponent(), 0); err == nil {
					t.Fatal("the clock accepted a move after a forfeit")
				}
			}
		}
	})
}
