package pairing

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func toss(faces ...Face) Toss {
	return Toss{Pieces: faces}
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
	if err != nil || !slices.Equal(got.Pieces, []Face{fu, to, st, ov, fu}) {
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
			ts := Toss{Pieces: make([]Face, PiecesPerToss)}
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

// TestFurigoma_003_ThreePawnTossBySetting: 003 allows the simplified toss
// of three 歩 (簡易的に行う場合は三枚); the majority decides as with five
// (D-F1), uncounted pieces are left out (D-F2) and a tie is tossed again
// (D-F3). Kisen accepts three only under a rule that allows it; without it,
// or with any other count, the toss is refused with a reason in words.
func TestFurigoma_003_ThreePawnTossBySetting(t *testing.T) {
	t.Parallel()
	three := TossRule{AllowThree: true}
	cases := []struct {
		tosses  []Toss
		decided bool
		sente   string
	}{
		{[]Toss{toss(fu, fu, to)}, true, "T"},
		{[]Toss{toss(to, to, fu)}, true, "O"},
		{[]Toss{toss(fu, to, st), toss(to, ov, st)}, true, "O"}, // D-F2 and D-F3 with three
		{[]Toss{toss(ov, st, st)}, false, ""},
		{[]Toss{toss(fu, fu, to, to, st), toss(fu, st, st)}, true, "T"}, // a five-piece tie, then three
	}
	for i, c := range cases {
		r, err := JudgeWith(three, "T", "O", c.tosses)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if r.Decided != c.decided || r.Sente != c.sente {
			t.Errorf("case %d: decided %v sente %q, want %v %q", i, r.Decided, r.Sente, c.decided, c.sente)
		}
		if _, err := Judge("T", "O", c.tosses); len(c.tosses[len(c.tosses)-1].Pieces) == 3 && !errors.Is(err, ErrInvalid) {
			t.Errorf("case %d: three 歩 accepted without the setting: %v", i, err)
		}
	}
	_, err := Judge("T", "O", []Toss{toss(fu, fu, to)})
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Field != "tosses[0]" || !strings.Contains(fe.Reason, "three") {
		t.Errorf("three 歩 without the setting: %v, want a refusal naming the toss", err)
	}
	for _, n := range []int{0, 1, 2, 4, 6} {
		ts := toss(slices.Repeat([]Face{fu}, n)...)
		if _, err := JudgeWith(three, "T", "O", []Toss{ts}); !errors.Is(err, ErrInvalid) {
			t.Errorf("%d pieces accepted with three allowed: %v", n, err)
		}
		if _, err := Judge("T", "O", []Toss{ts}); !errors.Is(err, ErrInvalid) {
			t.Errorf("%d pieces accepted: %v", n, err)
		}
	}
	if _, err := ParseTossWith(three, []string{"歩", "と", "立ち"}); err != nil {
		t.Errorf("ParseTossWith three: %v", err)
	}
	if _, err := ParseToss([]string{"歩", "と", "立ち"}); !errors.Is(err, ErrInvalid) {
		t.Errorf("ParseToss three without the setting: %v", err)
	}
}
