package analysis

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"kisen/adjudication"
	"kisen/rules"
)

func repeat(n int, moves ...string) []string {
	var out []string
	for range n {
		out = append(out, moves...)
	}
	return out
}

// Rook checks from 5e and 4e in turn while the gote king steps between 5a
// and 4a: every sente move is a check.
const perpetualStart = "sfen 4k4/9/9/9/5R3/9/9/9/K8 b - 1"

var perpetualCycle = []string{"4e5e", "5a4a", "5e4e", "4a5a"}

func TestReplay_D_S1_PlainSennichite(t *testing.T) {
	t.Parallel()
	moves := repeat(3, "5i5h", "5a5b", "5h5i", "5b5a")
	f, err := Moves("", "", moves)
	if err != nil {
		t.Fatal(err)
	}
	if !f.Complete || f.Plies != 12 || len(f.Sennichite) != 1 || f.Sennichite[0].Ply != 12 || f.Sennichite[0].Perpetual {
		t.Fatalf("%+v", f)
	}
	if f.FinalOccurrences != 4 || *f.Points != (adjudication.Points{Sente: 27, Gote: 27}) {
		t.Fatalf("occurrences %d points %+v", f.FinalOccurrences, f.Points)
	}
}

func TestReplay_D_S4_PerpetualCheck(t *testing.T) {
	t.Parallel()
	f, err := Record(perpetualStart+" moves "+strings.Join(repeat(3, perpetualCycle...), " "), "usi", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Sennichite) != 1 {
		t.Fatalf("%+v", f)
	}
	s := f.Sennichite[0]
	if s.Ply != 12 || !s.Perpetual || s.Loser == nil || *s.Loser != adjudication.Sente {
		t.Fatalf("%+v", s)
	}
}

// D-S2: two occurrences of the final position, no 4th.
func TestReplay_D_S2_InsideACycle(t *testing.T) {
	t.Parallel()
	f, err := Moves("", "", repeat(1, "5i5h", "5a5b", "5h5i", "5b5a"))
	if err != nil {
		t.Fatal(err)
	}
	if f.FinalOccurrences != 2 || len(f.Sennichite) != 0 {
		t.Fatalf("%+v", f)
	}
}

func TestReplay_D_X1_FoulsAreFound(t *testing.T) {
	t.Parallel()
	cases := []struct {
		start string
		moves []string
		ply   int
		kind  adjudication.FoulKind
		by    adjudication.Side
	}{
		{"", []string{"7g7f", "3c3d", "7f7d"}, 3, adjudication.FoulIllegalMovement, adjudication.Sente},
		{"4k4/9/9/9/9/9/4P4/9/4K4 b P 1", []string{"P*5e"}, 1, adjudication.FoulNifu, adjudication.Sente},
		{"4k4/P8/9/9/9/9/9/9/4K4 b - 1", []string{"9b9a"}, 1, adjudication.FoulDeadPiece, adjudication.Sente},
		{"4k4/9/9/9/4r4/9/9/9/4K4 b - 1", []string{"5i5h"}, 1, adjudication.FoulIgnoredCheck, adjudication.Sente},
	}
	for _, c := range cases {
		f, err := Moves("", c.start, c.moves)
		if err != nil {
			t.Fatal(err)
		}
		if f.Foul == nil || f.Foul.Ply != c.ply || f.Foul.Kind != c.kind || f.Foul.Offender != c.by || f.Complete {
			t.Fatalf("%v: %+v %+v", c.moves, f, f.Foul)
		}
	}
}

func TestReplay_Mate(t *testing.T) {
	t.Parallel()
	f, err := Moves("", "4k4/9/4P4/9/9/9/9/9/4K4 b G 1", []string{"G*5b"})
	if err != nil {
		t.Fatal(err)
	}
	if !f.Mate || f.SideToMove != adjudication.Gote || !f.Complete {
		t.Fatalf("%+v", f)
	}
}

// D-J3: the declaration facts of the side to move.
func TestReplay_D_J3_DeclarationFacts(t *testing.T) {
	t.Parallel()
	f, err := Moves("", "GGGG1SSSS/RRBB5/4K4/9/9/9/9/9/4k4 w 5P 1", []string{"5i5h"})
	if err != nil {
		t.Fatal(err)
	}
	want := adjudication.DeclarationFacts{KingInCamp: true, PiecesInCamp: 12, Points: 4 + 4 + 20 + 5, InCheck: false}
	if *f.Declaration != want || f.SideToMove != adjudication.Sente {
		t.Fatalf("declaration %+v, want %+v", f.Declaration, want)
	}
}

// D-J: handicap pieces count for 上手 (gote).
func TestReplay_D_J_HandicapPointsCreditedToGiver(t *testing.T) {
	t.Parallel()
	f, err := Moves("角落ち", "", []string{"5a5b"})
	if err != nil {
		t.Fatal(err)
	}
	if *f.Points != (adjudication.Points{Sente: 27, Gote: 27}) {
		t.Fatalf("points %+v", f.Points)
	}
}

// D-J4: a long game without repetition reaches move 500.
func TestReplay_D_J4_FiveHundredMoves(t *testing.T) {
	t.Parallel()
	moves := longGame(t, 1, 510)
	f := Replay(rules.NewPosition(rules.Even), rules.Even, moves)
	if !f.Complete {
		t.Fatalf("generated game is not legal: %+v", f.Foul)
	}
	if f.MaxMovesPly != 500 {
		t.Fatalf("max moves ply %d, want 500 (move 500 gives no check)", f.MaxMovesPly)
	}
}

// longGame plays n random legal moves from the start that give no check,
// never mate and never repeat a position (so no 千日手 can arise).
func longGame(t testing.TB, seed uint64, n int) []rules.Move {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, seed))
	p := rules.NewPosition(rules.Even)
	seen := map[uint64]bool{p.Key(): true}
	var out []rules.Move
	for len(out) < n {
		legal := p.LegalMoves(nil)
		rng.Shuffle(len(legal), func(i, j int) { legal[i], legal[j] = legal[j], legal[i] })
		picked := false
		for _, m := range legal {
			if p.GivesCheck(m) {
				continue
			}
			q := p.Clone()
			q.Do(m)
			if seen[q.Key()] || q.IsCheckmate() {
				continue
			}
			p, picked = q, true
			seen[q.Key()] = true
			out = append(out, m)
			break
		}
		if !picked {
			t.Fatalf("no quiet new move at ply %d", len(out)+1)
		}
	}
	return out
}

func TestAnalysis_BadInputNamesTheField(t *testing.T) {
	t.Parallel()
	cases := []struct {
		field string
		run   func() error
	}{
		{"handicap", func() error { _, err := Moves("九枚落ち", "", []string{"7g7f"}); return err }},
		{"start", func() error { _, err := Moves("", "nonsense", []string{"7g7f"}); return err }},
		{"moves[1]", func() error { _, err := Moves("", "", []string{"7g7f", "7x7y"}); return err }},
		{"record", func() error { _, err := Record("hello", "", ""); return err }},
		{"record", func() error { _, err := Record("position startpos moves 7g7f zz", "usi", ""); return err }},
		{"format", func() error { _, err := Record("startpos", "pgn", ""); return err }},
		{"handicap", func() error { _, err := Record(shuffleKIF, "kif", "角落ち"); return err }},
	}
	for _, c := range cases {
		err := c.run()
		var fe *adjudication.FieldError
		if !errors.As(err, &fe) || fe.Field != c.field {
			t.Fatalf("%s: %v", c.field, err)
		}
	}
}

func BenchmarkReplay500(b *testing.B) {
	moves := longGame(b, 2, 500)
	start := rules.NewPosition(rules.Even)
	for b.Loop() {
		Replay(start, rules.Even, moves)
	}
}
