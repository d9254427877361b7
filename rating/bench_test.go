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
		b.ReportMetric(float64(cpu.Milliseconds())/float64(n), "cpu-ms/op")
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

// benchmarkApplyDay measures the incremental path: the last day's games
// applied to a state that already holds the rest of the five years. For
// Glicko-2 this re-rates the open month from its start.
func benchmarkApplyDay(b *testing.B, s Settings) {
	games := benchHistory()
	slices.SortFunc(games, CompareGames)
	lastDay := games[len(games)-1].Date.AddDate(0, 0, -1)
	cut := slices.IndexFunc(games, func(g Game) bool { return g.Date.After(lastDay) })
	base, err := Recompute(s, ids(2000), games[:cut])
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	var cpu time.Duration
	for range b.N {
		b.StopTimer()
		st := base.Clone()
		cpu0 := processCPU()
		b.StartTimer()
		if err := st.Apply(games[cut:]); err != nil {
			b.Fatal(err)
		}
		cpu += processCPU() - cpu0
	}
	if cpu > 0 {
		b.ReportMetric(float64(cpu.Microseconds())/float64(b.N)/1000, "cpu-ms/op")
	}
}

func BenchmarkApplyDay_Elo(b *testing.B)     { benchmarkApplyDay(b, DefaultSettings(ModelElo)) }
func BenchmarkApplyDay_Glicko2(b *testing.B) { benchmarkApplyDay(b, DefaultSettings(ModelGlicko2)) }
