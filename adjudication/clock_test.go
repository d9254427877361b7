package adjudication

import (
	"testing"
	"time"
)

type clockStep struct {
	side        Side
	took        string
	wantLeft    string // mover's remaining after the move
	wantByoyomi bool   // mover in byoyomi after the move
	wantLost    bool
}

func runClock(t *testing.T, tc TimeControl, steps []clockStep) {
	t.Helper()
	c, err := NewClock(tc)
	if err != nil {
		t.Fatal(err)
	}
	for i, st := range steps {
		state, lost, err := c.Apply(st.side, dur(st.took).D())
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if lost != st.wantLost {
			t.Fatalf("step %d (%s took %s): lost %v, want %v", i, st.side, st.took, lost, st.wantLost)
		}
		if got := state.Remaining.Of(st.side); got != dur(st.wantLeft) {
			t.Fatalf("step %d (%s took %s): %s left, want %s", i, st.side, st.took, got, st.wantLeft)
		}
		in := state.InByoyomi.Sente
		if st.side == Gote {
			in = state.InByoyomi.Gote
		}
		if in != st.wantByoyomi {
			t.Fatalf("step %d: in byoyomi %v, want %v", i, in, st.wantByoyomi)
		}
		if state.Moves != i+1 {
			t.Fatalf("step %d: %d moves timed", i, state.Moves)
		}
		if lost && (state.Forfeited == nil || *state.Forfeited != st.side) {
			t.Fatalf("step %d: forfeited %v", i, state.Forfeited)
		}
	}
}

func stopwatch(allowance string) TimeControl {
	tc := DefaultTimeControl()
	tc.Timing, tc.Allowance = Stopwatch, dur(allowance)
	return tc
}

func chess(allowance string, b Byoyomi) TimeControl {
	tc := DefaultTimeControl()
	tc.Allowance, tc.Byoyomi = dur(allowance), b
	return tc
}

// 001 第4条A1: each move's time under a minute is dropped.
func TestClock_D_T1_StopwatchTruncatesEachMove(t *testing.T) {
	t.Parallel()
	runClock(t, stopwatch("10m"), []clockStep{
		{Sente, "59s", "10m", false, false},
		{Gote, "1m59s", "9m", false, false},
		{Sente, "4m30s", "6m", false, false},
		{Gote, "0s", "9m", false, false},
		{Sente, "5m", "1m", true, false}, // last minute: byoyomi (第4条A2)
		{Sente, "59.9s", "1m", true, false},
		{Sente, "1m", "0s", true, true}, // used up: loses
	})
}

// Five moves of 50 s cost nothing: the truncation is per move, not on the
// running total (which would charge four minutes).
func TestClock_D_T1_TruncationIsPerMoveNotTotal(t *testing.T) {
	t.Parallel()
	c, err := NewClock(stopwatch("10m"))
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		if _, _, err := c.Apply(Sente, 50*time.Second); err != nil {
			t.Fatal(err)
		}
	}
	if got := c.Remaining(Sente); got != 10*time.Minute {
		t.Fatalf("%s left, want 10m0s", got)
	}
	if got := c.State().Used.Sente; got != 0 {
		t.Fatalf("used %s, want 0", got)
	}
}

// 001 第4条A2: a move that runs through the last minute loses, even when
// it started well before it.
func TestClock_D_T1_StopwatchRunningOutLoses(t *testing.T) {
	t.Parallel()
	runClock(t, stopwatch("5m"), []clockStep{
		{Sente, "4m59s", "1m", true, false},
		{Gote, "5m", "0s", true, true},
	})
}

func TestClock_D_T2_ChessClockByoyomiAfterAllowance(t *testing.T) {
	t.Parallel()
	runClock(t, chess("10m", Byoyomi60), []clockStep{
		{Sente, "9m30s", "30s", false, false},
		{Gote, "9m59.5s", "500ms", false, false},
		{Sente, "1m29s", "0s", true, false}, // 30 s of allowance + 59 s of byoyomi
		{Sente, "59.999s", "0s", true, false},
		{Gote, "1.5s", "0s", true, false},
		{Sente, "1m", "0s", true, true},
	})
}

func TestClock_D_T2_ChessClockWithoutByoyomiFlagFalls(t *testing.T) {
	t.Parallel()
	runClock(t, chess("10m", ByoyomiNone), []clockStep{
		{Sente, "9m59s", "1s", false, false},
		{Sente, "1s", "0s", false, true},
	})
}

func TestClock_D_T3_ThirtySecondByoyomi(t *testing.T) {
	t.Parallel()
	runClock(t, chess("0s", Byoyomi30), []clockStep{
		{Sente, "29s", "0s", true, false},
		{Gote, "29.99s", "0s", true, false},
		{Sente, "30s", "0s", true, true},
	})
}

// 001 第5条1・2: the words read and when; the final "10" is the limit at
// which the clock declares the loss.
func TestByoyomi_D_T3_CallsEndAtTheLimit(t *testing.T) {
	t.Parallel()
	cases := []struct {
		b     Byoyomi
		words []string
		first string
		limit string
	}{
		{Byoyomi60, []string{"30秒", "40秒", "50秒", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10"}, "30s", "60s"},
		{Byoyomi30, []string{"10秒", "20秒", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10"}, "10s", "30s"},
		{ByoyomiNone, nil, "", ""},
	}
	for _, c := range cases {
		calls := c.b.Calls()
		if len(calls) != len(c.words) {
			t.Fatalf("%s: %d calls, want %d", c.b, len(calls), len(c.words))
		}
		for i, w := range c.words {
			if calls[i].Word != w {
				t.Fatalf("%s call %d is %q, want %q", c.b, i, calls[i].Word, w)
			}
			if i > 0 && calls[i].At <= calls[i-1].At {
				t.Fatalf("%s calls out of order at %d", c.b, i)
			}
		}
		if len(calls) == 0 {
			continue
		}
		if calls[0].At != dur(c.first) || calls[len(calls)-1].At != dur(c.limit) {
			t.Fatalf("%s: calls from %s to %s", c.b, calls[0].At, calls[len(calls)-1].At)
		}
		// A move made on the last digit before "10" survives; one made at
		// "10" loses.
		for _, tc := range []struct {
			at   Duration
			lost bool
		}{{calls[len(calls)-2].At, false}, {calls[len(calls)-1].At, true}} {
			clk, err := NewClock(chess("0s", c.b))
			if err != nil {
				t.Fatal(err)
			}
			_, lost, err := clk.Apply(Sente, tc.at.D())
			if err != nil || lost != tc.lost {
				t.Fatalf("%s: move at %s lost=%v err=%v, want lost=%v", c.b, tc.at, lost, err, tc.lost)
			}
		}
	}
}

// 001 第5条3: from ten minutes left a player may ask for the count.
func TestClock_D_T3_MayAskForCountFromTenMinutes(t *testing.T) {
	t.Parallel()
	c, err := NewClock(chess("20m", Byoyomi60))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Apply(Sente, 9*time.Minute+59*time.Second); err != nil {
		t.Fatal(err)
	}
	if c.MayAskForCount(Sente) {
		t.Fatal("10m01s left: too early to ask for the count")
	}
	if _, _, err := c.Apply(Sente, time.Second); err != nil {
		t.Fatal(err)
	}
	if !c.MayAskForCount(Sente) || c.MayAskForCount(Gote) {
		t.Fatal("sente at 10m may ask; gote at 20m may not")
	}
}

// D-K1 (000 第11条第5項四): the arbiter adds or removes time.
func TestClock_D_K1_ArbiterAdjustsTime(t *testing.T) {
	t.Parallel()
	c, err := NewClock(chess("10m", Byoyomi60))
	if err != nil {
		t.Fatal(err)
	}
	st, err := c.Adjust(Gote, 5*time.Minute)
	if err != nil || st.Remaining.Gote != dur("15m") || st.Remaining.Sente != dur("10m") {
		t.Fatalf("after +5m for gote: %v %v", st, err)
	}
	st, err = c.Adjust(Sente, -20*time.Minute)
	if err != nil || st.Remaining.Sente != 0 || !st.InByoyomi.Sente {
		t.Fatalf("removing more than is left leaves zero and byoyomi: %v %v", st, err)
	}
	if _, lost, _ := c.Apply(Sente, 59*time.Second); lost {
		t.Fatal("59 s in byoyomi does not lose")
	}
	if _, lost, _ := c.Apply(Sente, time.Minute); !lost {
		t.Fatal("60 s in byoyomi loses")
	}
	if _, err := c.Adjust(Sente, time.Minute); err == nil {
		t.Fatal("adjusting after a time forfeit must be refused")
	}
	if _, _, err := c.Apply(Gote, time.Second); err == nil {
		t.Fatal("moving after a time forfeit must be refused")
	}
}

func TestClock_BadInput(t *testing.T) {
	t.Parallel()
	c, err := NewClock(chess("10m", Byoyomi60))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Apply(Side(7), time.Second); err == nil {
		t.Fatal("side 7 accepted")
	}
	_, _, err = c.Apply(Sente, -time.Second)
	wantFieldErr(t, err, "duration")
	_, err = c.Adjust(Gote, 100*time.Hour)
	wantFieldErr(t, err, "delta")
	_, err = NewClockFrom(chess("10m", Byoyomi60), Times{Sente: dur("-1s")})
	wantFieldErr(t, err, "start")
	_, err = NewClock(TimeControl{Timing: "sundial"})
	if err == nil {
		t.Fatal("bad time control accepted")
	}
}

func BenchmarkClockApply(b *testing.B) {
	c, err := NewClock(chess("9h", Byoyomi60))
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; b.Loop(); i++ {
		if _, _, err := c.Apply(Side(i&1), time.Millisecond); err != nil {
			b.Fatal(err)
		}
	}
}
