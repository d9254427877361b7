package analysis

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"kisen/adjudication"
)

// shuffleKIF: both kings step out and back three times, then 千日手.
var shuffleKIF = func() string {
	var b strings.Builder
	b.WriteString("先手：甲\n後手：乙\n手数----指手---------消費時間--\n")
	ply := 0
	for range 3 {
		for _, m := range []string{"５八玉(59)", "５二玉(51)", "５九玉(58)", "５一玉(52)"} {
			ply++
			fmt.Fprintf(&b, "%4d %s\n", ply, m)
		}
	}
	fmt.Fprintf(&b, "%4d 千日手\n", ply+1)
	return b.String()
}()

// nifuKIF: sente exchanges its 2-file pawn (moves 1–8), so a pawn is in
// hand, then drops it on the 7-file where its own pawn still stands on 7g
// (move 9, 二歩); nobody notices and gote resigns.
const nifuKIF = `先手：甲
後手：乙
手数----指手---------消費時間--
   1 ２六歩(27)
   2 ３四歩(33)
   3 ２五歩(26)
   4 ８四歩(83)
   5 ２四歩(25)
   6 同　歩(23)
   7 同　飛(28)
   8 ８五歩(84)
   9 ７五歩打
  10 投了
`

func TestReadRecord_D_S1_KIFSennichiteWithTerminal(t *testing.T) {
	t.Parallel()
	r, err := ReadRecord(shuffleKIF, "", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	f := r.Findings
	if f.Plies != 12 || !f.Complete || len(f.Sennichite) != 1 || f.Sennichite[0].Ply != 12 {
		t.Fatalf("findings %+v", f)
	}
	if r.Ending == nil || r.Ending.Kind != adjudication.EndSennichite {
		t.Fatalf("ending %+v", r.Ending)
	}
}

func TestReadRecord_D_X1_KIFFoulAndResignation(t *testing.T) {
	t.Parallel()
	r, err := ReadRecord(nifuKIF, "kif", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	f := r.Findings
	if f.Plies != 9 || f.Complete || f.Foul == nil || f.Foul.Ply != 9 || f.Foul.Kind != adjudication.FoulNifu || f.Foul.Offender != adjudication.Sente {
		t.Fatalf("findings %+v foul %+v", f, f.Foul)
	}
	if r.Ending == nil || r.Ending.Kind != adjudication.EndResign || *r.Ending.By != adjudication.Gote {
		t.Fatalf("ending %+v", r.Ending)
	}
}

// timedShuffleKIF is shuffleKIF with times: sente takes 10 minutes a
// move, gote one minute (sente 1h used, gote 6m after 12 moves).
var timedShuffleKIF = func() string {
	var b strings.Builder
	b.WriteString("先手：甲\n後手：乙\n手数----指手---------消費時間--\n")
	ply := 0
	var used [2]int
	for range 3 {
		for _, m := range []string{"５八玉(59)", "５二玉(51)", "５九玉(58)", "５一玉(52)"} {
			ply++
			min := 10
			if ply%2 == 0 {
				min = 1
			}
			used[ply%2] += min
			fmt.Fprintf(&b, "%4d %s   (%2d:00/%02d:%02d:00)\n", ply, m, min, used[ply%2]/60, used[ply%2]%60)
		}
	}
	fmt.Fprintf(&b, "%4d 千日手\n", ply+1)
	return b.String()
}()

// D-T2 and D-R2: the record's times, run through the clock, give each
// side's remaining time, which sets the redo game's allowance.
func TestReadRecord_D_T2_D_R2_RemainingFromRecordTimes(t *testing.T) {
	t.Parallel()
	tc := adjudication.DefaultTimeControl()
	tc.Allowance = adjudication.Duration(90 * time.Minute)
	r, err := ReadRecord(timedShuffleKIF, "kif", "", &tc)
	if err != nil {
		t.Fatal(err)
	}
	if r.Remaining == nil || r.Remaining.Sente.D() != 30*time.Minute || r.Remaining.Gote.D() != 84*time.Minute {
		t.Fatalf("remaining %+v", r.Remaining)
	}
	g := adjudication.Game{Settings: adjudication.DefaultSettings()}
	g.Settings.Time = tc
	o, err := g.Decide(r)
	if err != nil {
		t.Fatal(err)
	}
	// Lower clock 30m: both get 30m; the old gote (1h24m) stops at the
	// allowance of 1h30m. Colours swap.
	if o.Redo == nil || o.Redo.Allowance == nil || o.Redo.Allowance.Sente.D() != 90*time.Minute || o.Redo.Allowance.Gote.D() != time.Hour {
		t.Fatalf("redo %+v", o.Redo)
	}

	// Ten minutes a move against a 30-minute allowance without byoyomi
	// runs out on move 7: the remaining times stay unknown.
	tc.Allowance, tc.Byoyomi = adjudication.Duration(30*time.Minute), adjudication.ByoyomiNone
	r, err = ReadRecord(timedShuffleKIF, "kif", "", &tc)
	if err != nil {
		t.Fatal(err)
	}
	if r.Remaining != nil || len(r.Notes) != 1 || r.Notes[0].Code != "record_times_over_limit" {
		t.Fatalf("remaining %+v notes %+v", r.Remaining, r.Notes)
	}
}
