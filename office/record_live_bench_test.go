package office_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"kisen/office"
	"kisen/office/seed"
)

// BenchmarkRecordMoveAtPly300 enters moves one at a time through
// RecordMove on a game that already has 300 (issue 26: a move validated
// and stored in p95 ≤ 20 ms at ply 300). Run with -benchtime 100x so the
// game stays near ply 300; it reports the median and p95 and the
// statements per move. KISEN_BENCH_POSTGRES=1 for PostgreSQL.
func BenchmarkRecordMoveAtPly300(b *testing.B) {
	ctx := context.Background()
	s := benchStore(b)
	now := time.Date(2026, 11, 29, 3, 0, 0, 0, time.UTC)
	o := office.New(s, func() time.Time { return now })
	f, err := seed.New(ctx, o, s, now)
	if err != nil {
		b.Fatal(err)
	}
	e, _, err := f.Knockout(ctx, 2, 0)
	if err != nil {
		b.Fatal(err)
	}
	eb, err := o.EventBrackets(ctx, f.Admin, e.ID)
	if err != nil {
		b.Fatal(err)
	}
	gameID := eb.Stages[0].Rounds[0][0].DecidingGameID
	// Kings walking up and down: legal at every ply (a 千日手 every 12
	// plies is reported, and play goes on, D-S3).
	walk := []string{"5i5h", "5a5b", "5h5i", "5b5a"}
	var r office.LiveRecord
	move := func(ply int) {
		r, err = o.RecordMove(ctx, f.Admin, gameID, office.LiveMoveInput{Ply: ply, Move: walk[(ply-1)%4], Elapsed: 61, VersionSeen: r.Version})
		if err != nil {
			b.Fatal(err)
		}
	}
	for ply := 1; ply <= 300; ply++ {
		move(ply)
	}
	stmts := s.Statements()
	var lat []time.Duration
	ply := 300
	for b.Loop() {
		ply++
		t0 := time.Now()
		move(ply)
		lat = append(lat, time.Since(t0))
	}
	b.ReportMetric(float64(s.Statements()-stmts)/float64(len(lat)), "stmts/op")
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "ms-median/op")
	b.ReportMetric(float64(lat[len(lat)*95/100].Microseconds())/1000, "ms-p95/op")
}
