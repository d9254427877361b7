package rules

// Foul says why a move is not legal (反則, D-X1, 000 第10条第1項). Fouls
// that are not about a single move (連続王手の千日手, 二手指し, time) are
// the replay's and the adjudicator's business.
type Foul uint8

const (
	FoulNone             Foul = iota
	FoulNifu                  // 二歩
	FoulDeadPiece             // 行き所のない駒 (moved or dropped)
	FoulUchifuzume            // 打ち歩詰め
	FoulIgnoredCheck          // 王手放置: leaving the king in check or moving into check
	FoulIllegalMovement       // a move the piece cannot make, or a drop that cannot be made
	FoulIllegalPromotion      // promoting what cannot promote, or outside the zone
	FoulWrongSide             // moving the opponent's piece
)

var foulNames = [...]struct{ code, ja, en string }{
	FoulNone:             {"none", "なし", "no foul"},
	FoulNifu:             {"nifu", "二歩", "two unpromoted pawns on one file"},
	FoulDeadPiece:        {"dead_piece", "行き所のない駒", "piece left with no further move"},
	FoulUchifuzume:       {"uchifuzume", "打ち歩詰め", "checkmate by a pawn drop"},
	FoulIgnoredCheck:     {"ignored_check", "王手放置", "king left in check or moved into check"},
	FoulIllegalMovement:  {"illegal_movement", "不可能な着手", "a move the piece cannot make"},
	FoulIllegalPromotion: {"illegal_promotion", "成れない駒の成り", "illegal promotion"},
	FoulWrongSide:        {"wrong_side", "相手の駒を動かした", "moved the opponent's piece"},
}

// String is a stable machine code ("nifu", "dead_piece", …).
func (f Foul) String() string {
	if int(f) < len(foulNames) {
		return foulNames[f].code
	}
	return "unknown"
}

// Japanese is the foul's Japanese name (二歩, 打ち歩詰め, …).
func (f Foul) Japanese() string {
	if int(f) < len(foulNames) {
		return foulNames[f].ja
	}
	return "不明"
}

// English is a short English description.
func (f Foul) English() string {
	if int(f) < len(foulNames) {
		return foulNames[f].en
	}
	return "unknown foul"
}

// IsLegal reports whether m is a legal move here.
func (p *Position) IsLegal(m Move) bool { return p.Foul(m) == FoulNone }

// Foul classifies m: FoulNone when it is legal, otherwise the foul. When
// several fouls apply the first in this order is reported, from what can
// be seen on the board alone to what needs the move played:
//
//  1. wrong_side: the origin holds the opponent's piece;
//  2. illegal_movement: no such move at all (empty origin, own piece on the
//     destination, a path the piece cannot take, a drop on an occupied
//     square or of a piece not in hand, a malformed encoding);
//  3. illegal_promotion: promoting a gold, king or promoted piece, a
//     promotion with neither square in the zone, or a "promoted" drop;
//  4. dead_piece: an unpromoted pawn, lance or knight left with no move;
//  5. nifu: a pawn dropped on a file holding one's own unpromoted pawn;
//  6. ignored_check: the mover's king is attacked after the move;
//  7. uchifuzume: a pawn drop that checks and leaves no legal reply.
func (p *Position) Foul(m Move) Foul { return p.foul(m, checkUnknown) }

// foul is Foul for a caller that may already know whether the side to
// move is in check (a replay does), which spares the king-safety test its
// walk round the king for most moves (legality.go).
func (p *Position) foul(m Move, chk checkKnown) Foul {
	us := p.side
	to := m.To()
	if m == NoMove || !to.Valid() || !m.canonical() {
		return FoulIllegalMovement
	}
	if m.IsDrop() {
		pt := m.DropType()
		if !pt.IsHandType() || p.hand[us][pt] == 0 || p.board[to] != NoPiece {
			return FoulIllegalMovement
		}
		if m.IsPromotion() {
			return FoulIllegalPromotion // 000 第5条第3項: drops are unpromoted
		}
		if deadOn(us, pt, to) {
			return FoulDeadPiece
		}
		if pt == Pawn {
			pawn := NewPiece(us, Pawn)
			for r := range 9 {
				if p.board[r*9+int(to)%9] == pawn {
					return FoulNifu
				}
			}
		}
		if p.exposesKing(m, chk) {
			return FoulIgnoredCheck
		}
		if pt == Pawn {
			if ek := p.king[us^1]; ek != NoSquare && geo.neighbor[ek][forward[us^1]] == to && p.pawnDropMates(to) {
				return FoulUchifuzume
			}
		}
		return FoulNone
	}
	from := m.From()
	if !from.Valid() {
		return FoulIllegalMovement
	}
	pc := p.board[from]
	if pc == NoPiece {
		return FoulIllegalMovement
	}
	if pc.Color() != us {
		return FoulWrongSide
	}
	if q := p.board[to]; q != NoPiece && (q.Color() == us || q.Type() == King) {
		// A king is never captured: valid positions never leave one en prise.
		return FoulIllegalMovement
	}
	if !p.reaches(pc, from, to) {
		return FoulIllegalMovement
	}
	pt := pc.Type()
	if m.IsPromotion() {
		if !pt.CanPromote() || !(inCamp(us, from) || inCamp(us, to)) {
			return FoulIllegalPromotion
		}
	} else if deadOn(us, pt, to) {
		return FoulDeadPiece
	}
	if p.exposesKing(m, chk) {
		return FoulIgnoredCheck
	}
	return FoulNone
}

// reaches reports whether pc on from can move to to by its own movement
// (000 第4条), ignoring what stands on to.
func (p *Position) reaches(pc Piece, from, to Square) bool {
	if pc.Type() == Knight {
		k := geo.knightTo[pc.Color()][from]
		return k[0] == to || k[1] == to
	}
	d := geo.dirTo[from][to]
	if d < 0 {
		return false
	}
	bit := uint8(1) << d
	if geo.neighbor[from][d] == to && geo.stepMask[pc]&bit != 0 {
		return true
	}
	if geo.slideMask[pc]&bit == 0 {
		return false
	}
	for s := geo.neighbor[from][d]; s != to; s = geo.neighbor[s][d] {
		if p.board[s] != NoPiece {
			return false
		}
	}
	return true
}

// leavesKingAttacked plays the pseudo-legal m and reports whether the
// mover's king is then attacked (王手放置, 000 第10条第1項四).
func (p *Position) leavesKingAttacked(m Move) bool {
	us := p.side
	if p.king[us] == NoSquare {
		return false
	}
	u := p.Do(m)
	bad := p.attacked(p.king[us], us^1)
	p.Undo(m, u)
	return bad
}
