package rules

import (
	"math/rand/v2"
	"os"
	"slices"
	"testing"
)

func mustSFEN(t testing.TB, s string) *Position {
	t.Helper()
	p, err := ParseSFEN(s)
	if err != nil {
		t.Fatalf("ParseSFEN(%q): %v", s, err)
	}
	return p
}

func usiList(ms []Move) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.USI()
	}
	slices.Sort(out)
	return out
}

// Published perft counts from the even start (depth 1–6): qiita.com/ak11
// "将棋でPerftしてみたまとめ" (https://qiita.com/ak11/items/8bd5f2bb0f5b014143c8),
// also quoted on talkchess.com ("Shogi Perft numbers", t=71550).
var publishedPerft = []uint64{1, 30, 900, 25470, 719731, 19861490, 547581517}

func TestPerft_D_X1_StartPosition(t *testing.T) {
	t.Parallel()
	maxDepth := 5
	if testing.Short() {
		maxDepth = 4
	}
	if os.Getenv("KISEN_LONG") == "1" {
		maxDepth = 6
	}
	for depth := 1; depth <= maxDepth; depth++ {
		p := NewPosition(Even)
		if got := p.Perft(depth); got != publishedPerft[depth] {
			t.Errorf("perft(%d) = %d, published %d", depth, got, publishedPerft[depth])
		}
		if p.SFEN() != evenSFEN {
			t.Fatalf("perft(%d) changed the position: %s", depth, p.SFEN())
		}
	}
}

// The same page publishes, per depth, how many leaf moves are captures,
// promotions and checks; counting them independently of Perft checks the
// move kinds, not only their number.
func TestPerft_D_X1_PublishedMoveKinds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		depth                        int
		captures, promotions, checks int
	}{
		{3, 59, 30, 48},
		{4, 1803, 842, 1121},
	}
	for _, tc := range tests {
		var caps, proms, checks int
		var walk func(p *Position, d int)
		walk = func(p *Position, d int) {
			for _, m := range p.LegalMoves(nil) {
				if d == 1 {
					if !m.IsDrop() && p.At(m.To()) != NoPiece {
						caps++
					}
					if m.IsPromotion() {
						proms++
					}
					if p.GivesCheck(m) {
						checks++
					}
					continue
				}
				u := p.Do(m)
				walk(p, d-1)
				p.Undo(m, u)
			}
		}
		walk(NewPosition(Even), tc.depth)
		if caps != tc.captures || proms != tc.promotions || checks != tc.checks {
			t.Errorf("depth %d: captures/promotions/checks = %d/%d/%d, published %d/%d/%d",
				tc.depth, caps, proms, checks, tc.captures, tc.promotions, tc.checks)
		}
	}
}

// The position with the most legal moves known, 593, widely published
// (e.g. https://ameblo.jp/professionalhearts/entry-10001031814.html, and the
// max-moves test of github.com/hayanige/shogilib).
func TestLegalMoves_MaximumPosition593(t *testing.T) {
	t.Parallel()
	p := mustSFEN(t, "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1")
	if n := len(p.LegalMoves(nil)); n != 593 {
		t.Errorf("legal moves = %d, published 593", n)
	}
}

// Mates reached at depth 7 from the even start, published on the same
// qiita page (29 mates, 11 distinct positions; four of them here).
func TestIsCheckmate_PublishedDepth7Mates(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"ln+B1ggsnl/1r2k2b1/ppppSpppp/4p4/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w - 1",
		"ln1g1gsnl/1r1Bk2b1/ppppSpppp/4p4/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w - 1",
		"ln2Bgsnl/1rsGk2b1/pppppp1pp/9/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w P 1",
		"lns3snl/1rgkG+B1b1/pppppp1pp/9/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w P 1",
	} {
		p := mustSFEN(t, s)
		if !p.InCheck() || !p.IsCheckmate() {
			t.Errorf("%s: InCheck=%v IsCheckmate=%v, want both", s, p.InCheck(), p.IsCheckmate())
		}
	}
	if NewPosition(Even).IsCheckmate() {
		t.Error("the start position is not mate")
	}
}

// No perft counts for handicap starts were found published, so they are
// checked against the naive reference instead.
// Over 20 s (23 s in `make test`, 8 tests at once on 2 cores, -race): the
// naive reference generator is slow by design, and every handicap start is walked.
func TestPerft_D_X1_HandicapStartsMatchReference(t *testing.T) {
	t.Parallel()
	depth := 3
	if testing.Short() {
		depth = 2
	}
	for _, h := range AllHandicaps() {
		p := NewPosition(h)
		want := refFrom(p).refPerft(depth)
		if got := p.Perft(depth); got != want {
			t.Errorf("%s: perft(%d) = %d, reference %d", h.Name(), depth, got, want)
		}
	}
}

// randomWalk plays seeded random legal games and calls visit on every
// position reached. Moves are biased towards drops, captures, promotions
// and checks so that the rarer rules come up often.
func randomWalk(t testing.TB, seed uint64, games, maxPlies int, visit func(p *Position)) {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	hs := AllHandicaps()
	buf := make([]Move, 0, MaxLegalMoves)
	for g := range games {
		p := NewPosition(hs[g%len(hs)])
		for range maxPlies {
			visit(p)
			moves := p.LegalMoves(buf[:0])
			if len(moves) == 0 {
				break
			}
			m := moves[rng.IntN(len(moves))]
			if rng.IntN(2) == 0 {
				var keen []Move
				for _, c := range moves {
					if c.IsDrop() || c.IsPromotion() || p.At(c.To()) != NoPiece || p.GivesCheck(c) {
						keen = append(keen, c)
					}
				}
				if len(keen) > 0 {
					m = keen[rng.IntN(len(keen))]
				}
			}
			p.Do(m)
		}
	}
}

// TestLegalMoves_D_X1_DifferentialAgainstReference compares the fast
// generator with the naive reference on positions from random play, and
// Position.Foul with the reference's judgement of every candidate move.
// Over 20 s (23 s in `make test`, 8 tests at once on 2 cores, -race): each
// position of the random games is judged by the naive reference too.
func TestLegalMoves_D_X1_DifferentialAgainstReference(t *testing.T) {
	t.Parallel()
	games, plies := 24, 160
	if testing.Short() {
		games, plies = 4, 80
	}
	positions, drops, promos, checks := 0, 0, 0, 0
	randomWalk(t, 1, games, plies, func(p *Position) {
		positions++
		b := refFrom(p)
		want := usiList(b.refLegalMoves())
		fast := p.LegalMoves(nil)
		got := usiList(fast)
		if !slices.Equal(got, want) {
			t.Fatalf("%s: legal moves differ\nfast only: %v\nreference only: %v", p.SFEN(), minus(got, want), minus(want, got))
		}
		if p.InCheck() != b.refKingAttacked(p.SideToMove()) {
			t.Fatalf("%s: InCheck = %v, reference disagrees", p.SFEN(), p.InCheck())
		}
		if p.InCheck() {
			checks++
		}
		for _, m := range fast {
			if m.IsDrop() {
				drops++
			}
			if m.IsPromotion() {
				promos++
			}
		}
		for _, m := range refAllCandidates {
			if f, rf := p.Foul(m), b.refFoul(m); f != rf {
				t.Fatalf("%s: Foul(%s) = %s, reference %s", p.SFEN(), m.USI(), f, rf)
			}
		}
	})
	t.Logf("%d positions, %d drops, %d promotions generated, %d positions in check", positions, drops, promos, checks)
	if drops == 0 || promos == 0 || checks == 0 {
		t.Errorf("random play did not exercise drops/promotions/checks: %d/%d/%d", drops, promos, checks)
	}
}

// Hand-made positions for the cases random play meets rarely: double
// check, knight check, checks that drops may block, pins by lance and by
// promoted pieces, x-ray king escapes, 打ち歩詰め with a pinned defender.
// The oracle is the reference, not hand-counted numbers.
var trickyPositions = []string{
	"6G1k/7g1/9/7N1/4B4/9/9/9/K8 b P 1",
	"4k4/9/9/9/4R3B/9/9/9/4K4 w G 1",
	"4k4/9/3N5/9/9/9/9/9/4K4 w GP 1",
	"4k4/9/9/9/9/9/9/9/K3L4 w GNLP 1",
	"4k4/9/9/9/4R4/9/9/9/K8 w - 1",
	"4r4/9/9/9/9/9/4L4/9/4K3k b - 1",
	"4k4/9/9/9/9/9/9/4+r4/4K4 b G 1",
	"k8/9/9/9/4+b4/9/2S6/9/K8 b - 1",
	"l3k4/9/9/9/9/9/P8/9/K8 b S 1",
	"4k4/4l4/9/9/9/9/9/4N4/4K4 b - 1",
	"lnsgkgsnl/1r5b1/p1ppppp1p/9/9/9/P1PPPPP1P/1B5R1/LNSGKGSNL b 2P2p 1",
}

func TestLegalMoves_D_X1_TrickyPositionsMatchReference(t *testing.T) {
	t.Parallel()
	for _, s := range trickyPositions {
		p := mustSFEN(t, s)
		b := refFrom(p)
		got, want := usiList(p.LegalMoves(nil)), usiList(b.refLegalMoves())
		if !slices.Equal(got, want) {
			t.Errorf("%s: fast only %v, reference only %v", s, minus(got, want), minus(want, got))
		}
		for _, m := range refAllCandidates {
			if f, rf := p.Foul(m), b.refFoul(m); f != rf {
				t.Errorf("%s: Foul(%s) = %s, reference %s", s, m.USI(), f, rf)
			}
		}
	}
}

func minus(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

// TestDoUndo_RestoresPositionAndKey plays every legal move of positions
// from random play and takes it back.
func TestDoUndo_RestoresPositionAndKey(t *testing.T) {
	t.Parallel()
	randomWalk(t, 2, 8, 120, func(p *Position) {
		before, key := p.SFEN(), p.Key()
		if key != p.computeKey() {
			t.Fatalf("%s: incremental key differs from a fresh computation", before)
		}
		for _, m := range p.LegalMoves(nil) {
			u := p.Do(m)
			if p.Key() != p.computeKey() {
				t.Fatalf("%s after %s: incremental key differs from a fresh computation", before, m.USI())
			}
			p.Undo(m, u)
			if p.SFEN() != before || p.Key() != key {
				t.Fatalf("%s: %s then Undo gave %s", before, m.USI(), p.SFEN())
			}
		}
	})
}

func TestFoul_D_X1_Examples(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, sfen, move string
		want             Foul
	}{
		{"legal opening move", "startpos", "7g7f", FoulNone},
		{"二歩 drop beside own pawn", "4k4/9/9/9/9/9/4P4/9/4K4 b P 1", "P*5e", FoulNifu},
		{"pawn drop beside a promoted pawn is fine", "4k4/9/9/9/9/9/4+P4/9/4K4 b P 1", "P*5e", FoulNone},
		{"行き所のない駒: pawn dropped on the last rank", "4k4/9/9/9/9/9/9/9/4K4 b P 1", "P*1a", FoulDeadPiece},
		{"行き所のない駒: knight dropped on rank 2", "4k4/9/9/9/9/9/9/9/4K4 b N 1", "N*1b", FoulDeadPiece},
		{"行き所のない駒: gote lance dropped on rank 9", "4k4/9/9/9/9/9/9/9/K8 w l 1", "L*1i", FoulDeadPiece},
		{"行き所のない駒: pawn moved to the last rank unpromoted", "4k4/P8/9/9/9/9/9/9/4K4 b - 1", "9b9a", FoulDeadPiece},
		{"pawn promoting on the last rank", "4k4/P8/9/9/9/9/9/9/4K4 b - 1", "9b9a+", FoulNone},
		{"knight to rank 2 unpromoted", "4k4/9/P8/8N/9/9/9/9/4K4 b - 1", "1d2b", FoulDeadPiece},
		{"silver may decline promotion on the last rank", "4k4/S8/9/9/9/9/9/9/4K4 b - 1", "9b9a", FoulNone},
		{"打ち歩詰め", "8k/6G2/7S1/9/9/9/9/9/K8 b P 1", "P*1b", FoulUchifuzume},
		{"打ち歩詰め, king hemmed in by its own knight", "7nk/6G2/7S1/9/9/9/9/9/K8 b P 1", "P*1b", FoulUchifuzume},
		{"pawn-drop check the king escapes is fine", "8k/9/7S1/9/9/9/9/9/K8 b P 1", "P*1b", FoulNone},
		{"打ち歩詰め: the only capturer is pinned", "6G1k/7g1/9/7N1/4B4/9/9/9/K8 b P 1", "P*1b", FoulUchifuzume},
		{"pawn-drop check answered by capture is fine", "3gk4/9/4S4/9/9/9/9/9/4K4 b P 1", "P*5b", FoulNone},
		{"pawn mate by a move, not a drop, is fine", "4k4/9/3GPG3/9/9/9/9/9/4K4 b - 1", "5c5b", FoulNone},
		{"王手放置: ignoring a rook check", "4k4/9/9/9/4r4/9/9/9/4K3L b - 1", "1i1h", FoulIgnoredCheck},
		{"王手放置: king moves into check", "4k4/9/9/9/9/9/9/3r5/4K4 b - 1", "5i5h", FoulIgnoredCheck},
		{"王手放置: moving a pinned piece off the line", "4k4/9/9/9/4r4/9/4G4/9/4K4 b - 1", "5g4g", FoulIgnoredCheck},
		{"pinned piece moving along the pin line", "4k4/9/9/9/4r4/9/4G4/9/4K4 b - 1", "5g5f", FoulNone},
		{"impossible move: gold moves diagonally back", "4k4/9/9/9/4G4/9/9/9/4K4 b - 1", "5e4f", FoulIllegalMovement},
		{"impossible move: rook jumps over a piece", "4k4/9/9/9/9/9/9/1B5R1/4K4 b - 1", "2h9h", FoulIllegalMovement},
		{"impossible move: empty origin", "startpos", "5e5d", FoulIllegalMovement},
		{"impossible move: capturing own piece", "startpos", "8h7g", FoulIllegalMovement},
		{"impossible move: drop not in hand", "startpos", "G*5e", FoulIllegalMovement},
		{"impossible move: drop on an occupied square", "4k4/9/9/9/9/9/9/9/4K4 b G 1", "G*5i", FoulIllegalMovement},
		{"promoting a gold", "4k4/9/9/G8/9/9/9/9/4K4 b - 1", "9d9c+", FoulIllegalPromotion},
		{"promoting outside the zone", "startpos", "7g7f+", FoulIllegalPromotion},
		{"promoting an already promoted piece", "4k4/9/9/+P8/9/9/9/9/4K4 b - 1", "9d9c+", FoulIllegalPromotion},
		{"promoting when leaving the zone", "4k4/9/4S4/9/9/9/9/9/4K4 b - 1", "5c4d+", FoulNone},
		{"moving the opponent's piece", "startpos", "3c3d", FoulWrongSide},
		{"wrong side takes precedence over impossible movement", "startpos", "3c3e", FoulWrongSide},
		{"二歩 takes precedence over 王手放置", "4k4/9/9/9/4r4/9/2P6/9/4K4 b P 1", "P*7f", FoulNifu},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := mustSFEN(t, tc.sfen)
			m, err := ParseUSIMove(tc.move)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Foul(m); got != tc.want {
				t.Errorf("Foul(%s) = %s, want %s", tc.move, got, tc.want)
			}
			b := refFrom(p)
			if rf := b.refFoul(m); rf != tc.want {
				t.Errorf("reference Foul(%s) = %s, want %s (the oracle itself disagrees)", tc.move, rf, tc.want)
			}
			if gen := slices.Contains(p.LegalMoves(nil), m); gen != (tc.want == FoulNone) {
				t.Errorf("LegalMoves contains %s = %v, want %v", tc.move, gen, tc.want == FoulNone)
			}
		})
	}
}

// A pawn drop that leaves the opponent without a move but not in check is
// not 打ち歩詰め: the rule is about a drop that checks (000 第10条第1項三).
func TestFoul_D_X1_PawnDropStalemateIsLegal(t *testing.T) {
	t.Parallel()
	// Gote has only its king on 1a; 2a and 1b are covered, and a pawn on
	// 2c takes 2b, its last square, without checking it.
	p := mustSFEN(t, "6G1k/9/9/7N1/9/9/9/9/K8 b P 1")
	m, _ := ParseUSIMove("P*2c")
	if f := p.Foul(m); f != FoulNone {
		t.Fatalf("Foul(P*2c) = %s, want none", f)
	}
	p.Do(m)
	if p.InCheck() || !p.IsCheckmate() {
		t.Errorf("after P*2c: InCheck=%v, no legal move=%v; want false, true", p.InCheck(), p.IsCheckmate())
	}
}

func TestGivesCheck_AndInCheck(t *testing.T) {
	t.Parallel()
	p := mustSFEN(t, "4k4/9/9/9/9/9/9/9/4K3R b - 1")
	check, _ := ParseUSIMove("1i1a")
	quiet, _ := ParseUSIMove("1i1b")
	if !p.GivesCheck(check) {
		t.Error("1i1a should give check along rank 1")
	}
	if p.GivesCheck(quiet) {
		t.Error("1i1b should not give check")
	}
	p.Do(check)
	if !p.InCheck() {
		t.Error("after 1i1a gote should be in check")
	}
}
