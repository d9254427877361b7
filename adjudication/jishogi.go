package adjudication

// maxMovesLimit is the 500-move rule's limit (D-J4, 000 第9条第6項).
const maxMovesLimit = 500

// agreementPass is the points each side needs under the 24点法 (D-J1).
const agreementPass = 24

// JishogiAgreement decides 持将棋 by agreement from both sides' points
// (Points.validate has checked they sum to 54).
//
// 24点法 (D-J1, 000 第9条第4項一・二, 001 第6条B1): both ≥ 24 → no result;
// a side under 24 loses. 27点法 (D-J2, 000 第9条第4項三, 004): 28 or more
// wins (the other then has 26 or less); 27–27 is redo or a gote win as the
// organiser set.
func JishogiAgreement(s Settings, p Points) Outcome {
	var o Outcome
	o.Points = &p
	if s.Jishogi == Jishogi27 {
		o.cite("D-J2", "000 第9条第4項三")
		o.cite("", "004")
		switch {
		case p.Sente > p.Gote:
			o.lose(Gote, ReasonJishogiPoints, 0)
		case p.Gote > p.Sente:
			o.lose(Sente, ReasonJishogiPoints, 0)
		case s.JishogiTie27 == TieGoteWins:
			o.lose(Sente, ReasonJishogiTieGote, 0)
		default:
			o.redo(ReasonJishogiRedo, 0)
		}
		return o
	}
	o.cite("D-J1", "000 第9条第4項")
	switch {
	case p.Sente < agreementPass:
		o.lose(Sente, ReasonJishogiPoints, 0)
	case p.Gote < agreementPass:
		o.lose(Gote, ReasonJishogiPoints, 0)
	default:
		o.redo(ReasonJishogiRedo, 0)
	}
	return o
}

// Declaration condition codes (D-J3), in the order they are checked.
const (
	CondNotBefore500  = "not_before_500"
	CondKingNotInCamp = "king_not_in_camp"
	CondTooFewPieces  = "too_few_pieces"
	CondInCheck       = "in_check"
	CondNoTimeLeft    = "no_time_left"
	CondTooFewPoints  = "too_few_points"
)

// DeclarationVerdict is the judgement of a declaration.
type DeclarationVerdict struct {
	// Result is "win", "redo" or "lose" for the declarer.
	Result string `json:"result"`
	Points int    `json:"points"`
	InCamp int    `json:"in_camp"`
	// Failed lists every unmet condition; any one makes the declarer lose.
	Failed []string `json:"failed,omitempty"`
}

// JudgeDeclaration judges a 入玉宣言 by declarer after ply moves (D-J3).
//
// Federation rule (000 第9条第5項, 001 第6条B2; condition 3 is "not in
// check" as 001 and 004 say, see the seeds' README): king in the enemy
// camp, ten other pieces there, not in check, and points over the pieces
// in hand and in the camp: 31 wins, 24–30 is no result, under 24 fails.
// The 27 rule (004): sente needs 28, gote 27, plus time left on the clock.
// Either way the declaration is made before move 500 (第9条第5項) and any
// unmet condition makes the declarer lose.
func JudgeDeclaration(rule DeclarationRule, declarer Side, f DeclarationFacts, ply int, timeLeft bool) DeclarationVerdict {
	v := DeclarationVerdict{Points: f.Points, InCamp: f.PiecesInCamp}
	if ply >= maxMovesLimit {
		v.Failed = append(v.Failed, CondNotBefore500)
	}
	if !f.KingInCamp {
		v.Failed = append(v.Failed, CondKingNotInCamp)
	}
	if f.PiecesInCamp < 10 {
		v.Failed = append(v.Failed, CondTooFewPieces)
	}
	if f.InCheck {
		v.Failed = append(v.Failed, CondInCheck)
	}
	need, redoFrom := 31, 24
	if rule == Declaration27 {
		if !timeLeft {
			v.Failed = append(v.Failed, CondNoTimeLeft)
		}
		need, redoFrom = 28, 28
		if declarer == Gote {
			need, redoFrom = 27, 27
		}
	}
	if f.Points < redoFrom {
		v.Failed = append(v.Failed, CondTooFewPoints)
	}
	switch {
	case len(v.Failed) > 0:
		v.Result = "lose"
	case f.Points >= need:
		v.Result = "win"
	default:
		v.Result = "redo"
	}
	return v
}

// MaxMovesPly applies the 500-move rule (D-J4, 000 第9条第6項, 001 第6条B3)
// to a game whose ply i+1 gave check exactly when checks[i]. It returns the
// ply after which the game is 持将棋, or 0 when the record does not get
// there. Move 500 without check ends it at 500. When move 500 gives check
// the game goes on while the same side keeps checking; it ends after that
// side's first move that gives no check. A record that ends while the
// checks go on returns 0 (the game ended some other way, e.g. mate).
func MaxMovesPly(checks []bool) int {
	if len(checks) < maxMovesLimit {
		return 0
	}
	for p := maxMovesLimit; p <= len(checks); p += 2 {
		if !checks[p-1] {
			return p
		}
	}
	return 0
}

// MaxRecordPlies is the longest game record Kisen stores (issue 21 item
// 7): the 500-move rule (D-J4) ends every game at move 500 unless move 500
// gives check, and then only while the same side keeps checking. No series
// of checks is longer than the longest composed mate problem, ミクロコスモス
// (1,525 moves, 1986), which is itself a series of checks; a real game's is
// a few dozen moves. So 500 + 1,525 + 1 (the move that ends the series, or
// a declaration) is a bound no legitimate game reaches, and a record beyond
// it is refused before it is replayed or stored.
const MaxRecordPlies = maxMovesLimit + 1525 + 1
