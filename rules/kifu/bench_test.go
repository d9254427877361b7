package kifu

import (
	"testing"
	"time"

	"kisen/rules"
)

// benchRecords are generated ~120-ply games as KIF text, with times.
func benchRecords(b *testing.B, n int) [][]byte {
	b.Helper()
	out := make([][]byte, n)
	total := 0
	for i := range out {
		rec := genRecord(uint64(1000+i), genOptions{plies: 120, times: true, end: EndResign})
		total += len(rec.Main.Nodes)
		text, err := WriteKIF(rec)
		if err != nil {
			b.Fatal(err)
		}
		out[i] = []byte(text)
	}
	if avg := total / n; avg < 110 {
		b.Fatalf("average game only %d plies", avg)
	}
	return out
}

// reportCPU adds CPU time per op and ops per CPU-second (named unit) to
// a benchmark's output, measured from cpu0.
func reportCPU(b *testing.B, cpu0 time.Duration, unit string) {
	if cpu := cpuUsed() - cpu0; cpu > 0 && b.N > 0 {
		b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-µs/op")
		b.ReportMetric(float64(b.N)/cpu.Seconds(), unit)
	}
}

// BenchmarkCheckKIF measures records checked per second: decode and read
// a KIF of ~120 plies, replay it legally with 千日手 tracking, count points
// and judge a declaration (target: 20,000 records/s, aim 25,000 per core).
func BenchmarkCheckKIF(b *testing.B) {
	recs := benchRecords(b, 64)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuUsed()
	defer func() { reportCPU(b, cpu0, "records/cpu-s") }()
	for i := 0; i < b.N; i++ {
		res, err := Read(recs[i%len(recs)], "game.kif", FormatKIF)
		if err != nil {
			b.Fatal(err)
		}
		rep, err := Check(res.Record)
		if err != nil || rep.Foul != nil {
			b.Fatalf("check: %v %+v", err, rep.Foul)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "records/s")
}

// BenchmarkReadKIF is the reading part alone.
func BenchmarkReadKIF(b *testing.B) {
	recs := benchRecords(b, 64)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuUsed()
	defer func() { reportCPU(b, cpu0, "records/cpu-s") }()
	for i := 0; i < b.N; i++ {
		if _, err := Read(recs[i%len(recs)], "game.kif", FormatKIF); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReplay is the rules engine's part alone.
func BenchmarkReplay(b *testing.B) {
	rec := genRecord(1000, genOptions{plies: 120, end: EndResign})
	moves := rec.Moves()
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuUsed()
	defer func() { reportCPU(b, cpu0, "games/cpu-s") }()
	for i := 0; i < b.N; i++ {
		rules.Replay{Moves: moves}.Run()
	}
}
