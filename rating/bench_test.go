package rating

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// benchHistory is 100,000 games over 2,000 players and five years, with
// the usual noise (unconfirmed, forfeits, handicap, 千日手/持将棋 chains).
func benchHistory() []Game {
	return randomHistory(rand.New(rand.NewPCG(2026, 7)), histSpec{players: 2000, games: 100_000, days: 5 * 365, noise: true})
}

func benchmarkRecompute(b *testing.B, s Settings) {
	games := benchHistory()
	players := ids(2000)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := processCPU()
	n := 0
	for b.Loop() {
		if _, err := Recompute(s, players, games); err != nil {
			b.Fatal(err)
		}
		n++
	}
	reportCPU(b, cpu0, n)
}

// reportCPU adds cpu-ms/op: process CPU time (all threads, GC included).
func reportCPU(b *testing.B, cpu0 time.Duration, n int) {
	if cpu := processCPU() - cpu0; cpu > 0 && n > 0 {
		b.ReportMetric(float64(cpu.Microseconds())/1000/float64(n), "cpu-ms/op")
	}
}

// BenchmarkRecompute_Elo_100kGames_2kPlayers: full Elo recompute.
func BenchmarkRecompute_Elo_100kGames_2kPlayers(b *testing.B) {
	benchmarkRecompute(b, DefaultSettings(ModelElo))
}

// BenchmarkRecompute_Glicko2_100kGames_2kPlayers: full Glicko-2 recompute
// with monthly periods (60 periods).
func BenchmarkRecompute_Glicko2_100kGames_2kPlayers(b *testing.B) {
	benchmarkRecompute(b, DefaultSettings(ModelGlicko2))
}

// benchmarkApplyDay measures the incremental path: one day's results
// applied to a state that already holds years of games. The state starts
// with the first 90% of the five years and takes the remaining days one per
// iteration (starting over from a copy when they run out). Under Glicko-2
// each day re-rates the open month from its start.
func benchmarkApplyDay(b *testing.B, s Settings) {
	games := benchHistory()
	slices.SortFunc(games, CompareGames)
	split := games[len(games)*9/10].Date.In(jst).Format(time.DateOnly)
	cut := slices.IndexFunc(games, func(g Game) bool { return g.Date.In(jst).Format(time.DateOnly) >= split })
	base, err := Recompute(s, ids(2000), games[:cut])
	if err != nil {
		b.Fatal(err)
	}
	var days [][]Game
	for i := cut; i < len(games); {
		d := games[i].Date.In(jst).Format(time.DateOnly)
		j := i
		for j < len(games) && games[j].Date.In(jst).Format(time.DateOnly) == d {
			j++
		}
		days = append(days, games[i:j])
		i = j
	}
	st := base.Clone()
	next := 0
	var cloning time.Duration // CPU spent copying, not applying
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := processCPU()
	for range b.N {
		if next == len(days) {
			b.StopTimer()
			c0 := processCPU()
			st, next = base.Clone(), 0
			cloning += processCPU() - c0
			b.StartTimer()
		}
		if err := st.Apply(days[next]); err != nil {
			b.Fatal(err)
		}
		next++
	}
	reportCPU(b, cpu0+cloning, b.N)
}

func BenchmarkApplyDay_Elo(b *testing.B)     { benchmarkApplyDay(b, DefaultSettings(ModelElo)) }
func BenchmarkApplyDay_Glicko2(b *testing.B) { benchmarkApplyDay(b, DefaultSettings(ModelGlicko2)) }
