package league

import (
	"fmt"
	"os"
	"slices"
	"testing"
	"time"
)

// BenchmarkGenerate_C2 is the target case: 61 players, 11 rounds, 30 師弟
// pairs, fellow-disciple groups, two previous terms (target p95 ≤ 50 ms).
func BenchmarkGenerate_C2(b *testing.B) {
	draws := make([]Draw, 64)
	for i := range draws {
		draws[i] = c2Draw(uint64(i))
	}
	i := 0
	for b.Loop() {
		if _, _, err := Generate(draws[i%len(draws)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

func BenchmarkGenerate_A(b *testing.B) {
	players := make([]Player, 10)
	for i := range players {
		players[i] = Player{ID: fmt.Sprintf("a%d", i)}
		if i%3 == 2 {
			players[i].Master = players[i-2].ID
		}
	}
	d, _ := NewDraw(KindJunisen, ClassA, 0, players)
	for b.Loop() {
		d.Seed++
		if _, _, err := Generate(d); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGenerate_B1(b *testing.B) {
	players := make([]Player, 13)
	for i := range players {
		players[i] = Player{ID: fmt.Sprintf("b%d", i), Master: fmt.Sprintf("m%d", i%5)}
	}
	d, _ := NewDraw(KindJunisen, ClassB1, 0, players)
	for b.Loop() {
		d.Seed++
		if _, _, err := Generate(d); err != nil {
			b.Fatal(err)
		}
	}
}

// TestBenchReport prints time-to-schedule percentiles over 200 seeds of
// the C2 case, and the previous-term rematches of the same classes drawn
// as C1 (where rematches are allowed but avoided). Run with
// KISEN_BENCH_REPORT=1 go test -run TestBenchReport -v ./league/
func TestBenchReport(t *testing.T) {
	if os.Getenv("KISEN_BENCH_REPORT") != "1" {
		t.Skip("set KISEN_BENCH_REPORT=1 to print the benchmark report")
	}
	const seeds = 200
	for _, c := range []Class{ClassC2, ClassC1} {
		var times []time.Duration
		rematchTotal, rematchMax, restarts := 0, 0, 0
		for seed := uint64(0); seed < seeds; seed++ {
			d := c2Draw(seed)
			d.Class = c
			d.Settings, _ = DefaultSettings(KindJunisen, c)
			start := time.Now()
			s, rep, err := Generate(d)
			times = append(times, time.Since(start))
			if err != nil {
				t.Fatalf("%s seed %d: %v", c, seed, err)
			}
			if bad := oracle(d, s); len(bad) > 0 {
				t.Fatalf("%s seed %d: %v", c, seed, bad)
			}
			r := rematches(d, s)
			rematchTotal += r
			rematchMax = max(rematchMax, r)
			restarts += rep.Restarts
		}
		slices.Sort(times)
		pct := func(p int) time.Duration { return times[(len(times)-1)*p/100] }
		t.Logf("%s, 61 players, 11 rounds, 30 師弟 pairs, %d seeds: p50 %v  p95 %v  p99 %v  max %v; previous-term rematches total %d (max %d per class); restarts %d",
			c, seeds, pct(50).Round(time.Microsecond), pct(95).Round(time.Microsecond), pct(99).Round(time.Microsecond), times[len(times)-1].Round(time.Microsecond), rematchTotal, rematchMax, restarts)
	}
}
