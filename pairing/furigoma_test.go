package pairing

import (
	"errors"
	"testing"
)

func toss(faces ...Face) Toss {
	var t Toss
	copy(t.Pieces[:], faces)
	return t
}

const (
	fu = FaceFu
	to = FaceTo
	st = FaceStanding
	ov = FaceOverlapping
)

func TestFurigoma_D_F1_D_F2_D_F3(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		rule    string
		tosses  []Toss
		decided bool
		sente   string // "T" tosser, "O" other
		n       int
	}{
		{"D_F1 three fu: tosser sente", "D-F1", []Toss{toss(fu, fu, fu, to, to)}, true, "T", 1},
		{"D_F1 five to: other sente", "D-F1", []Toss{toss(to, to, to, to, to)}, true, "O", 1},
		{"D_F1 four to", "D-F1", []Toss{toss(fu, to, to, to, to)}, true, "O", 1},
		{"D_F2 standing piece ignored, 2 fu 1 to", "D-F2", []Toss{toss(fu, fu, to, st, ov)}, true, "T", 1},
		{"D_F2 overlap flips majority", "D-F2", []Toss{toss(fu, fu, to, to, ov), toss(to, to, fu, ov, st)}, true, "O", 2},
		{"D_F2 one counted piece decides", "D-F2", []Toss{toss(to, st, st, ov, ov)}, true, "O", 1},
		{"D_F3 tie then decision", "D-F3", []Toss{toss(fu, fu, to, to, st), toss(fu, fu, fu, fu, to)}, true, "T", 2},
		{"D_F3 all discounted is a tie", "D-F3", []Toss{toss(st, st, ov, ov, ov), toss(to, to, to, fu, fu)}, true, "O", 2},
		{"D_F3 only ties so far: toss again", "D-F3", []Toss{toss(fu, to, st, st, st)}, false, "", 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Judge("T", "O", tc.tosses)
			if err != nil {
				t.Fatal(err)
			}
			if r.Decided != tc.decided || r.Sente != tc.sente || len(r.Tosses) != tc.n {
				t.Fatalf("%s: decided %v sente %q after %d tosses; want %v %q %d", tc.rule, r.Decided, r.Sente, len(r.Tosses), tc.decided, tc.sente, tc.n)
			}
		})
	}
}

func TestFurigoma_JudgeRejectsBadRecords(t *testing.T) {
	t.Parallel()
	if _, err := Judge("T", "O", []Toss{toss(fu, fu, fu, to, to), toss(fu, fu, fu, to, to)}); !errors.Is(err, ErrInvalid) {
		t.Errorf("a toss after the decision: %v", err)
	}
	if _, err := Judge("T", "O", []Toss{toss(fu, fu, "edge", to, to)}); !errors.Is(err, ErrInvalid) {
		t.Errorf("unknown face: %v", err)
	}
	if _, err := Judge("T", "T", nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("same player twice: %v", err)
	}
	for _, faces := range [][]string{{"歩", "と", "歩"}, {"歩", "と", "歩", "と", "歩", "歩"}, {"歩", "と", "歩", "と", "x"}} {
		if _, err := ParseToss(faces); !errors.Is(err, ErrInvalid) {
			t.Errorf("ParseToss(%v) accepted", faces)
		}
	}
	got, err := ParseToss([]string{"歩", "と", "立ち", "重なり", "fu"})
	if err != nil || got != toss(fu, to, st, ov, fu) {
		t.Errorf("ParseToss = %v, %v", got, err)
	}
}

// TestFurigoma_D_F_SimulationIsFairAndRecorded: simulated tosses obey the
// rules piece by piece (an independent recount of every recorded toss), and
// the tosser is sente about half the time over fixed seeds.
func TestFurigoma_D_F_SimulationIsFairAndRecorded(t *testing.T) {
	t.Parallel()
	const n = 4000
	tosser := 0
	ties := 0
	odds := TossOdds{Standing: 0.05, Overlapping: 0.1} // raised so D-F2 paths occur often
	for seed := range uint64(n) {
		r, err := Simulate(NewRand(seed), "T", "O", odds)
		if err != nil {
			t.Fatal(err)
		}
		for i, ts := range r.Tosses {
			f, o := 0, 0
			for _, p := range ts.Pieces {
				f += btoi(p == FaceFu)
				o += btoi(p == FaceTo)
			}
			last := i == len(r.Tosses)-1
			if last == (f == o) {
				t.Fatalf("seed %d toss %d: %d fu, %d to, last=%v", seed, i, f, o, last)
			}
			if last && (f > o) != (r.Sente == "T") {
				t.Fatalf("seed %d: %d fu %d to but sente %s", seed, f, o, r.Sente)
			}
		}
		ties += len(r.Tosses) - 1
		if r.Sente == "T" {
			tosser++
		}
	}
	// Binomial(4000, 1/2): 4.5 standard deviations is ±142.
	if d := tosser - n/2; d < -142 || d > 142 {
		t.Errorf("tosser sente %d of %d", tosser, n)
	}
	if ties == 0 {
		t.Error("no tie in 4000 simulations; D-F3 never exercised")
	}
	if _, err := Simulate(NewRand(1), "T", "O", TossOdds{Standing: 0.6, Overlapping: 0.5}); !errors.Is(err, ErrInvalid) {
		t.Errorf("odds summing above 1 accepted: %v", err)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// FuzzJudge: any record is judged without panicking, and an accepted record
// is decided exactly when its last toss is untied.
func FuzzJudge(f *testing.F) {
	f.Add([]byte{0, 0, 0, 1, 1})
	f.Add([]byte{2, 3, 0, 1, 0, 0, 0, 0, 1, 1})
	faces := []Face{fu, to, st, ov, "bad"}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var tosses []Toss
		for i := 0; i+PiecesPerToss <= len(raw) && len(tosses) < 50; i += PiecesPerToss {
			var ts Toss
			for j := range ts.Pieces {
				ts.Pieces[j] = faces[int(raw[i+j])%len(faces)]
			}
			tosses = append(tosses, ts)
		}
		r, err := Judge("T", "O", tosses)
		if err != nil {
			return
		}
		if len(r.Tosses) == 0 {
			if r.Decided {
				t.Fatal("decided with no toss")
			}
			return
		}
		f0, t0 := r.Tosses[len(r.Tosses)-1].Count()
		if r.Decided != (f0 != t0) {
			t.Fatalf("decided=%v with last toss %d fu %d to", r.Decided, f0, t0)
		}
	})
}
