package rules

// Jishogi (持将棋) points and the entering-king declaration (入玉宣言法).

// jishogiValue is a piece's worth in points (D-J, 000 第9条第4項一): rook
// and bishop and their promotions 5, the king 0, everything else 1.
func jishogiValue(pt PieceType) int {
	switch pt.Unpromoted() {
	case Rook, Bishop:
		return 5
	case King, NoPieceType:
		return 0
	}
	return 1
}

// JishogiPoints counts c's points over the whole board and hand. In a
// handicap game the pieces the giver removed are counted as 上手's, that
// is Gote's (D-J, 004).
func (p *Position) JishogiPoints(c Color, h Handicap) int {
	pts := 0
	for _, pc := range p.board {
		if pc != NoPiece && pc.Color() == c {
			pts += jishogiValue(pc.Type())
		}
	}
	pts += p.handPoints(c)
	if c == Gote {
		pts += removedPoints(h)
	}
	return pts
}

func (p *Position) handPoints(c Color) int {
	pts := 0
	for pt := Pawn; pt <= Rook; pt++ {
		pts += int(p.hand[c][pt]) * jishogiValue(pt)
	}
	return pts
}

func removedPoints(h Handicap) int {
	pts := 0
	if h.Valid() {
		for _, pt := range handicapTable[h].removed {
			pts += jishogiValue(pt)
		}
	}
	return pts
}

// DeclarationRule is the scoring rule an event uses for 入玉宣言.
type DeclarationRule uint8

const (
	// DeclarationFederation is the federation rule (000 第9条第5項): 31
	// points or more wins, 24 to 30 is no result and the game is replayed.
	DeclarationFederation DeclarationRule = iota
	// Declaration27 is the amateur 27点法 (004): sente needs 28, gote 27,
	// and the declarer must have time left.
	Declaration27
)

// String is "federation" or "27".
func (r DeclarationRule) String() string {
	if r == Declaration27 {
		return "27"
	}
	return "federation"
}

// DeclarationResult is the outcome of a declaration for the declarer.
type DeclarationResult uint8

const (
	DeclarationWin  DeclarationResult = iota + 1 // the declarer wins
	DeclarationRedo                              // no result: 指し直し
	DeclarationLose                              // a condition failed: the declarer loses
)

// String is "win", "redo" or "lose".
func (r DeclarationResult) String() string {
	switch r {
	case DeclarationWin:
		return "win"
	case DeclarationRedo:
		return "redo"
	case DeclarationLose:
		return "lose"
	}
	return "unknown"
}

// Failed conditions a DeclarationVerdict may name.
const (
	CondNotBefore500  = "not_before_500"
	CondKingNotInCamp = "king_not_in_camp"
	CondTooFewPieces  = "too_few_pieces"
	CondInCheck       = "in_check"
	CondNoTimeLeft    = "no_time_left"
	CondTooFewPoints  = "too_few_points"
	declarationMaxPly = 500
	declarationPieces = 10
	federationWin     = 31
	federationRedo    = 24
	amateurSenteToWin = 28
	amateurGoteToWin  = 27
)

// DeclarationVerdict is the judgement of a declaration by the side to move.
type DeclarationVerdict struct {
	Result DeclarationResult
	// Points counts the declarer's pieces in hand and in the enemy camp
	// (king excluded), plus, for 上手 in a handicap game, the removed pieces.
	Points int
	// InCamp is how many of the declarer's pieces other than the king
	// stand in the enemy camp.
	InCamp int
	// FailedCondition names the first unmet condition ("" when none).
	FailedCondition string
}

// Declare judges a declaration (入玉宣言, D-J3) by the side to move, made
// after ply moves have been played. timeLeft says whether the declarer's
// clock still had time. Conditions, in the order they are checked; the
// first that fails is named and the declarer loses:
//
//  1. not_before_500: fewer than 500 moves played (000 第9条第5項);
//  2. king_not_in_camp: the declarer's king is in the three farthest ranks;
//  3. too_few_pieces: at least 10 other pieces of the declarer there;
//  4. in_check: the declarer is NOT in check (001, 004; 000's wording
//     "in check" is a known misprint, see seeds/README.md);
//  5. no_time_left (27点法 only, 004 条件4): time left on the clock;
//  6. too_few_points: federation ≥31 wins, 24–30 redo, below 24 loses;
//     27点法 sente ≥28, gote ≥27 wins, otherwise loses.
//
// Removed handicap pieces are credited to 上手 (Gote) as if in hand, as
// 004 credits them when points are counted; pass Even to count without.
func (p *Position) Declare(rule DeclarationRule, h Handicap, timeLeft bool, ply int) DeclarationVerdict {
	c := p.side
	v := DeclarationVerdict{Points: p.handPoints(c)}
	if c == Gote {
		v.Points += removedPoints(h)
	}
	for s, pc := range p.board {
		if pc == NoPiece || pc.Color() != c || pc.Type() == King || !inCamp(c, Square(s)) {
			continue
		}
		v.InCamp++
		v.Points += jishogiValue(pc.Type())
	}
	k := p.king[c]
	switch {
	case ply >= declarationMaxPly:
		v.FailedCondition = CondNotBefore500
	case k == NoSquare || !inCamp(c, k):
		v.FailedCondition = CondKingNotInCamp
	case v.InCamp < declarationPieces:
		v.FailedCondition = CondTooFewPieces
	case p.InCheck():
		v.FailedCondition = CondInCheck
	case rule == Declaration27 && !timeLeft:
		v.FailedCondition = CondNoTimeLeft
	}
	if v.FailedCondition != "" {
		v.Result = DeclarationLose
		return v
	}
	if rule == Declaration27 {
		need := amateurSenteToWin
		if c == Gote {
			need = amateurGoteToWin
		}
		if v.Points >= need {
			v.Result = DeclarationWin
		} else {
			v.Result, v.FailedCondition = DeclarationLose, CondTooFewPoints
		}
		return v
	}
	switch {
	case v.Points >= federationWin:
		v.Result = DeclarationWin
	case v.Points >= federationRedo:
		v.Result = DeclarationRedo
	default:
		v.Result, v.FailedCondition = DeclarationLose, CondTooFewPoints
	}
	return v
}
