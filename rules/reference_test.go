package rules

// An independent, deliberately naive rules implementation used as the
// oracle of the differential and fuzz tests. It shares nothing with the
// fast generator but the public types: its own board ([file][rank]), its
// own piece movement written out per piece, brute-force attack detection,
// and every move candidate (all origins × all destinations × promotion,
// every drop) judged by the rules one by one.

type refBoard struct {
	sq   [10][10]Piece // [file][rank], 1-based
	hand [2][8]int
	side Color
}

func refFrom(p *Position) refBoard {
	var b refBoard
	for f := 1; f <= 9; f++ {
		for r := 1; r <= 9; r++ {
			b.sq[f][r] = p.At(NewSquare(f, r))
		}
	}
	for c := Sente; c <= Gote; c++ {
		for _, pt := range handTypes {
			b.hand[c][pt] = p.Hand(c, pt)
		}
	}
	b.side = p.SideToMove()
	return b
}

func refAbs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func refSign(x int) int {
	switch {
	case x < 0:
		return -1
	case x > 0:
		return 1
	}
	return 0
}

// refPathClear reports whether every square strictly between the two is
// empty (they are on one line).
func (b *refBoard) refPathClear(f1, r1, f2, r2 int) bool {
	sf, sr := refSign(f2-f1), refSign(r2-r1)
	for f, r := f1+sf, r1+sr; f != f2 || r != r2; f, r = f+sf, r+sr {
		if b.sq[f][r] != NoPiece {
			return false
		}
	}
	return true
}

// refReach: can the piece on (f1,r1) move to (f2,r2) by its movement
// (000 第4条), ignoring what stands on the destination?
func (b *refBoard) refReach(f1, r1, f2, r2 int) bool {
	pc := b.sq[f1][r1]
	if pc == NoPiece || (f1 == f2 && r1 == r2) {
		return false
	}
	dx := refAbs(f2 - f1)
	dy := r1 - r2 // forward for sente is towards rank 1
	if pc.Color() == Gote {
		dy = -dy
	}
	king := dx <= 1 && refAbs(dy) <= 1
	gold := king && !(dx == 1 && dy == -1)
	straight := dx == 0 || dy == 0
	diagonal := dx == refAbs(dy)
	switch pc.Type() {
	case Pawn:
		return dx == 0 && dy == 1
	case Lance:
		return dx == 0 && dy >= 1 && b.refPathClear(f1, r1, f2, r2)
	case Knight:
		return dx == 1 && dy == 2
	case Silver:
		return king && (dy == 1 || dx == 1) && !(dx == 1 && dy == 0)
	case Gold, ProPawn, ProLance, ProKnight, ProSilver:
		return gold
	case King:
		return king
	case Bishop:
		return diagonal && b.refPathClear(f1, r1, f2, r2)
	case Rook:
		return straight && b.refPathClear(f1, r1, f2, r2)
	case Horse:
		return king || (diagonal && b.refPathClear(f1, r1, f2, r2))
	case Dragon:
		return king || (straight && b.refPathClear(f1, r1, f2, r2))
	}
	return false
}

func (b *refBoard) refAttacked(f, r int, by Color) bool {
	for f1 := 1; f1 <= 9; f1++ {
		for r1 := 1; r1 <= 9; r1++ {
			pc := b.sq[f1][r1]
			if pc != NoPiece && pc.Color() == by && b.refReach(f1, r1, f, r) {
				return true
			}
		}
	}
	return false
}

func (b *refBoard) refKingAttacked(c Color) bool {
	for f := 1; f <= 9; f++ {
		for r := 1; r <= 9; r++ {
			if b.sq[f][r] == NewPiece(c, King) {
				return b.refAttacked(f, r, c^1)
			}
		}
	}
	return false
}

// refLastRanks is how many far ranks an unpromoted kind can never leave.
func refDeadRanks(pt PieceType) int {
	switch pt {
	case Pawn, Lance:
		return 1
	case Knight:
		return 2
	}
	return 0
}

// refDistance is how far rank r is from c's far edge (1 = last rank).
func refDistance(c Color, r int) int {
	if c == Sente {
		return r
	}
	return 10 - r
}

func refApply(b refBoard, m Move) refBoard {
	us := b.side
	to := m.To()
	tf, tr := to.File(), to.Rank()
	if m.IsDrop() {
		b.hand[us][m.DropType()]--
		b.sq[tf][tr] = NewPiece(us, m.DropType())
	} else {
		from := m.From()
		pc := b.sq[from.File()][from.Rank()]
		if cap := b.sq[tf][tr]; cap != NoPiece {
			b.hand[us][cap.Type().Unpromoted()]++
		}
		if m.IsPromotion() {
			pc = NewPiece(us, pc.Type().Promoted())
		}
		b.sq[from.File()][from.Rank()] = NoPiece
		b.sq[tf][tr] = pc
	}
	b.side ^= 1
	return b
}

// refFoul judges m by brute force, in the precedence Position.Foul
// documents.
func (b *refBoard) refFoul(m Move) Foul {
	us := b.side
	to := m.To()
	if m == NoMove || to == NoSquare || m>>21 != 0 || m&moveValidBit == 0 {
		return FoulIllegalMovement
	}
	if m.IsDrop() && (m>>moveFromShift)&moveSquareMask != moveSquareMask {
		return FoulIllegalMovement
	}
	if !m.IsDrop() && m>>moveTypeShift&15 != 0 {
		return FoulIllegalMovement
	}
	tf, tr := to.File(), to.Rank()
	if m.IsDrop() {
		pt := m.DropType()
		if pt < Pawn || pt > Rook || b.hand[us][pt] == 0 || b.sq[tf][tr] != NoPiece {
			return FoulIllegalMovement
		}
		if m.IsPromotion() {
			return FoulIllegalPromotion
		}
		if refDistance(us, tr) <= refDeadRanks(pt) {
			return FoulDeadPiece
		}
		if pt == Pawn {
			for r := 1; r <= 9; r++ {
				if b.sq[tf][r] == NewPiece(us, Pawn) {
					return FoulNifu
				}
			}
		}
		after := refApply(*b, m)
		if after.refKingAttacked(us) {
			return FoulIgnoredCheck
		}
		if pt == Pawn && after.refKingAttacked(us^1) && !after.refHasLegal() {
			return FoulUchifuzume
		}
		return FoulNone
	}
	from := m.From()
	if from == NoSquare {
		return FoulIllegalMovement
	}
	ff, fr := from.File(), from.Rank()
	pc := b.sq[ff][fr]
	if pc == NoPiece {
		return FoulIllegalMovement
	}
	if pc.Color() != us {
		return FoulWrongSide
	}
	if q := b.sq[tf][tr]; q != NoPiece && (q.Color() == us || q.Type() == King) {
		return FoulIllegalMovement
	}
	if !b.refReach(ff, fr, tf, tr) {
		return FoulIllegalMovement
	}
	pt := pc.Type()
	if m.IsPromotion() {
		canPromote := pt == Pawn || pt == Lance || pt == Knight || pt == Silver || pt == Bishop || pt == Rook
		if !canPromote || (refDistance(us, fr) > 3 && refDistance(us, tr) > 3) {
			return FoulIllegalPromotion
		}
	} else if refDistance(us, tr) <= refDeadRanks(pt) {
		return FoulDeadPiece
	}
	after := refApply(*b, m)
	if after.refKingAttacked(us) {
		return FoulIgnoredCheck
	}
	return FoulNone
}

// refCandidates lists every board move and drop a player could try.
func refCandidates() []Move {
	var out []Move
	for from := range Square(NumSquares) {
		for to := range Square(NumSquares) {
			if from != to {
				out = append(out, NewMove(from, to, false), NewMove(from, to, true))
			}
		}
	}
	for _, pt := range handTypes {
		for to := range Square(NumSquares) {
			out = append(out, NewDrop(pt, to))
		}
	}
	return out
}

var refAllCandidates = refCandidates()

func (b *refBoard) refLegalMoves() []Move {
	var out []Move
	for _, m := range refAllCandidates {
		if b.refQuickReject(m) {
			continue
		}
		if b.refFoul(m) == FoulNone {
			out = append(out, m)
		}
	}
	return out
}

// refQuickReject skips candidates whose origin holds no piece of the side
// to move (or whose drop is not in hand) before the full judgement.
func (b *refBoard) refQuickReject(m Move) bool {
	if m.IsDrop() {
		return b.hand[b.side][m.DropType()] == 0
	}
	f := m.From()
	pc := b.sq[f.File()][f.Rank()]
	return pc == NoPiece || pc.Color() != b.side
}

func (b *refBoard) refHasLegal() bool {
	for _, m := range refAllCandidates {
		if !b.refQuickReject(m) && b.refFoul(m) == FoulNone {
			return true
		}
	}
	return false
}

func (b refBoard) refPerft(depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var n uint64
	for _, m := range b.refLegalMoves() {
		n += refApply(b, m).refPerft(depth - 1)
	}
	return n
}
