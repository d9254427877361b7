package rules

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// legalityPositions visits positions from random play (every handicap)
// and the hand-made tricky positions.
func legalityPositions(t *testing.T, games, plies int, visit func(p *Position)) {
	t.Helper()
	randomWalk(t, 5, games, plies, visit)
	for _, s := range append(discoveryPositions, trickyPositions...) {
		visit(mustSFEN(t, s))
	}
}

// discoveryPositions have a piece standing between a slider and the enemy
// king (rook, lance, bishop; the king itself unmasking), so moving it
// gives a discovered check.
var discoveryPositions = []string{
	"4k4/9/9/9/4N4/9/9/9/4R3K b - 1",
	"4k4/9/9/9/9/9/4G4/9/4L3K b - 1",
	"8k/9/9/9/9/9/2S6/9/B7K b - 1",
	"4k4/9/9/4K4/9/9/9/9/4R4 b - 1",
}

// TestCheckedAfter_D_S4_MatchesReference: the check test the replay uses
// after each move (it feeds 連続王手の千日手, D-S4) agrees with the naive
// reference's brute-force attack test after every legal move, including
// discovered checks, king moves that uncover a slider, promotions and
// knight checks.
func TestCheckedAfter_D_S4_MatchesReference(t *testing.T) {
	t.Parallel()
	games, plies := 16, 160
	if testing.Short() {
		games, plies = 4, 80
	}
	moves, checks, discovered := 0, 0, 0
	legalityPositions(t, games, plies, func(p *Position) {
		for _, m := range p.LegalMoves(nil) {
			before := p.SFEN()
			u := p.Do(m)
			got := p.checkedAfter(m)
			b := refFrom(p)
			want := b.refKingAttacked(p.SideToMove())
			if got != want {
				t.Fatalf("%s: after %s checkedAfter = %v, reference %v", before, m.USI(), got, want)
			}
			moves++
			if want {
				checks++
				// A check the moved piece does not give itself is discovered.
				if !m.IsDrop() && !refPieceAttacks(&b, m.To(), p.KingSquare(p.SideToMove())) {
					discovered++
				}
			}
			p.Undo(m, u)
		}
	})
	t.Logf("%d moves, %d checks, %d discovered", moves, checks, discovered)
	if checks == 0 || discovered == 0 {
		t.Errorf("positions did not exercise checks (%d) and discovered checks (%d)", checks, discovered)
	}
}

// refPieceAttacks reports whether the piece on from attacks to, using the
// reference's movement rules.
func refPieceAttacks(b *refBoard, from, to Square) bool {
	if !from.Valid() || !to.Valid() {
		return false
	}
	return b.refReach(from.File(), from.Rank(), to.File(), to.Rank())
}

// TestFoulKnowingCheck_D_X1_MatchesReference: the classifier the replay
// calls, told whether the side to move is in check, judges every candidate
// move (all origins × destinations × promotion, every drop) as the
// reference does.
func TestFoulKnowingCheck_D_X1_MatchesReference(t *testing.T) {
	t.Parallel()
	games, plies := 6, 120
	if testing.Short() {
		games, plies = 2, 60
	}
	judged := map[Foul]int{}
	legalityPositions(t, games, plies, func(p *Position) {
		b := refFrom(p)
		known := knownCheck(b.refKingAttacked(p.SideToMove()))
		for _, m := range refAllCandidates {
			got, want := p.foul(m, known), b.refFoul(m)
			if got != want {
				t.Fatalf("%s: foul(%s, %v) = %s, reference %s", p.SFEN(), m.USI(), known, got, want)
			}
			judged[got]++
		}
	})
	for _, f := range []Foul{FoulNone, FoulIgnoredCheck, FoulNifu, FoulDeadPiece, FoulIllegalMovement} {
		if judged[f] == 0 {
			t.Errorf("no candidate was judged %s", f)
		}
	}
}

// slowReplay is the replay written the plain way, with the reference's
// judgement of every move and its brute-force check test; only keys and
// the repetition record come from the engine.
func slowReplay(start *Position, moves []Move) ReplayReport {
	p := start.Clone()
	rep := NewRepetition(p)
	out := ReplayReport{Checks: []bool{}}
	for i, m := range moves {
		b := refFrom(p)
		if f := b.refFoul(m); f != FoulNone {
			out.Foul = &FoulAt{Ply: i + 1, Move: m, Kind: f, By: p.SideToMove()}
			break
		}
		p.Do(m)
		after := refFrom(p)
		check := after.refKingAttacked(p.SideToMove())
		out.Checks = append(out.Checks, check)
		out.Plies = i + 1
		if at, ok := rep.Push(p, check); ok {
			if at.Perpetual || i == len(moves)-1 {
				out.Sennichite = &at
				break
			}
			out.PlayedThrough = append(out.PlayedThrough, at.Ply)
		}
	}
	out.Final = p
	return out
}

func sameReport(t *testing.T, what string, got, want ReplayReport) {
	t.Helper()
	if got.Plies != want.Plies || got.Final.SFEN() != want.Final.SFEN() {
		t.Fatalf("%s: plies %d final %s, slow replay plies %d final %s", what, got.Plies, got.Final.SFEN(), want.Plies, want.Final.SFEN())
	}
	if (got.Foul == nil) != (want.Foul == nil) || (got.Foul != nil && *got.Foul != *want.Foul) {
		t.Fatalf("%s: foul %+v, slow replay %+v", what, got.Foul, want.Foul)
	}
	if (got.Sennichite == nil) != (want.Sennichite == nil) || (got.Sennichite != nil && *got.Sennichite != *want.Sennichite) {
		t.Fatalf("%s: sennichite %+v, slow replay %+v", what, got.Sennichite, want.Sennichite)
	}
	if !slices.Equal(got.PlayedThrough, want.PlayedThrough) || !slices.Equal(got.Checks, want.Checks) {
		t.Fatalf("%s: played through %v checks %v, slow replay %v %v", what, got.PlayedThrough, got.Checks, want.PlayedThrough, want.Checks)
	}
}

// replayScript turns bytes into a game: each byte picks one of the legal
// moves, except that a byte ≥ 0xf0 picks any candidate move (usually
// illegal) and a byte in 0xe0..0xef takes back the mover's previous board
// move by moving the piece home again when that is legal (shuffling
// pieces so positions recur) and a byte in 0xe8..0xef a move that gives
// check, when there is one (a series of checks).
func replayScript(start *Position, script []byte) []Move {
	p := start.Clone()
	var moves []Move
	buf := make([]Move, 0, MaxLegalMoves)
	for i, c := range script {
		var m Move
		switch {
		case c >= 0xf0 && i+1 < len(script):
			m = refAllCandidates[(int(c&0x0f)<<8|int(script[i+1]))%len(refAllCandidates)]
		case c >= 0xe8 && c < 0xf0 && checkingMove(p, int(c-0xe8), buf) != NoMove:
			m = checkingMove(p, int(c-0xe8), buf)
		case c >= 0xe0 && c < 0xf0 && len(moves) >= 2 && !moves[len(moves)-2].IsDrop() &&
			p.IsLegal(NewMove(moves[len(moves)-2].To(), moves[len(moves)-2].From(), false)):
			m = NewMove(moves[len(moves)-2].To(), moves[len(moves)-2].From(), false)
		default:
			legal := p.LegalMoves(buf[:0])
			if len(legal) == 0 {
				return moves
			}
			m = legal[int(c)%len(legal)]
		}
		moves = append(moves, m)
		if !p.IsLegal(m) {
			return moves
		}
		p.Do(m)
	}
	return moves
}

// checkingMove is the i-th (mod their number) legal move that gives check,
// NoMove if none does.
func checkingMove(p *Position, i int, buf []Move) Move {
	var checks []Move
	for _, m := range p.LegalMoves(buf[:0]) {
		if p.GivesCheck(m) {
			checks = append(checks, m)
		}
	}
	if len(checks) == 0 {
		return NoMove
	}
	return checks[i%len(checks)]
}

// perpetualStarts are sparse positions where a rook can check forever.
var perpetualStarts = []string{
	"8k/9/6R2/9/9/9/9/9/K8 b - 1",
	"6R2/8k/9/9/9/9/9/9/K8 b - 1",
	"4k4/9/9/9/9/9/9/9/R3K4 b - 1",
}

func replayStarts(t testing.TB) []*Position {
	var out []*Position
	for _, s := range perpetualStarts {
		out = append(out, mustSFEN(t, s))
	}
	for _, h := range AllHandicaps() {
		out = append(out, NewPosition(h))
	}
	for _, s := range fuzzSFENSeeds {
		if p, err := ParseSFEN(s); err == nil {
			out = append(out, p)
		}
	}
	for _, s := range trickyPositions {
		out = append(out, mustSFEN(t, s))
	}
	return out
}

// TestReplay_D_X1_D_S4_MatchesSlowReplay: Replay.Run, with its shortcuts,
// reports exactly what the plain replay reports (first foul with its kind
// and ply, checks, 千日手 and perpetual check, played-through repetitions)
// on random games, games with an illegal move slipped in and games that
// shuffle pieces back and forth.
func TestReplay_D_X1_D_S4_MatchesSlowReplay(t *testing.T) {
	t.Parallel()
	n := 600
	if testing.Short() {
		n = 120
	}
	rng := rand.New(rand.NewPCG(3, 9))
	starts := replayStarts(t)
	fouls, sennichite, perpetual := 0, 0, 0
	for i := range n {
		start := starts[i%len(starts)]
		script := make([]byte, 20+rng.IntN(140))
		checking := rng.IntN(3) == 0 // one side checks, the other shuffles
		for j := range script {
			script[j] = byte(rng.IntN(0xe0))
			switch {
			case checking && j%2 == 0:
				script[j] = 0xe8 + byte(rng.IntN(2))
			case checking || (j > 8 && rng.IntN(100) < 70):
				script[j] = 0xe0
			}
		}
		if rng.IntN(3) == 0 { // slip in an arbitrary candidate move
			j := rng.IntN(len(script) - 1)
			script[j], script[j+1] = 0xf0|byte(rng.IntN(16)), byte(rng.IntN(256))
		}
		moves := replayScript(start, script)
		got := Replay{Start: start, Moves: moves}.Run()
		sameReport(t, start.SFEN(), got, slowReplay(start, moves))
		if got.Foul != nil {
			fouls++
		}
		if got.Sennichite != nil || len(got.PlayedThrough) > 0 {
			sennichite++
		}
		if got.Sennichite != nil && got.Sennichite.Perpetual {
			perpetual++
		}
	}
	t.Logf("%d games: %d with a foul, %d with 千日手, %d perpetual check", n, fouls, sennichite, perpetual)
	if fouls == 0 || sennichite == 0 || perpetual == 0 {
		t.Errorf("games did not exercise fouls (%d), 千日手 (%d) and perpetual check (%d)", fouls, sennichite, perpetual)
	}
}

// FuzzReplay: for any script of moves from any start, Replay.Run agrees
// with the plain replay built on the naive reference.
func FuzzReplay(f *testing.F) {
	f.Add(uint8(0), []byte{1, 2, 3, 4, 0xe0, 0xe0, 0xe0, 0xe0, 0xe0, 0xe0, 0xe0, 0xe0, 0xe0, 0xe0})
	f.Add(uint8(3), []byte{7, 0xf3, 0x21, 9})
	f.Add(uint8(20), []byte{0, 0, 0, 0, 0, 0})
	starts := replayStarts(f)
	f.Fuzz(func(t *testing.T, start uint8, script []byte) {
		if len(script) > 400 {
			script = script[:400]
		}
		p := starts[int(start)%len(starts)]
		moves := replayScript(p, script)
		sameReport(t, p.SFEN(), Replay{Start: p, Moves: moves}.Run(), slowReplay(p, moves))
	})
}
