package kifu

import "kisen/rules"

// Official is a game's result as the tournament decided it — after
// rulings, corrections and forfeits — which can differ from what the moves
// and the record's own terminal word say: a foul found after the game
// (D-X4, 対局規則 第10条第3項), a forfeit without a move, a declaration
// judged by the arbiter. SetOfficial makes a record state it.
type Official struct {
	// Outcome is who won: OutcomeSenteWin, OutcomeGoteWin, OutcomeNoResult
	// (千日手, 持将棋: replayed, D-R1), OutcomeSuspended or OutcomeBothLose
	// (both lost by default: no word says it); OutcomeUnknown while nothing
	// is decided.
	Outcome Outcome
	// Kind is why, as a terminal kind: EndResign, EndCheckmate, EndTimeUp,
	// EndIllegalMove or EndIllegalAction (any foul loss: the loser follows
	// from Outcome), EndDeclareWin, EndForfeitWin or EndForfeitLoss (不戦:
	// the word follows from the side to move), EndSennichite, EndJishogi,
	// EndMaxMoves, EndAbort. EndNone when the decision names no reason.
	Kind EndKind
	// Words is the official result in words, written as a comment after
	// the terminal word ("公式結果：先手の反則負け（終局後に見つかった反則：二歩）").
	Words string
}

// Comment prefixes SetOfficial writes, so a reader (or a person) can tell
// the official result from the record's own ending.
const (
	OfficialCommentPrefix  = "公式結果："
	RecordEndCommentPrefix = "棋譜の終局："
)

// ToMove is the side to move after the main line.
func (r *Record) ToMove() rules.Color {
	c := r.StartColor()
	if len(r.Main.Nodes)%2 == 1 {
		c = c.Opponent()
	}
	return c
}

// SetOfficial makes the record state o: the main line ends in the terminal
// word that says o for the side to move at the end (反則負け when the loser
// is to move, 反則勝ち otherwise; 不戦敗 or 不戦勝 likewise), so every reader
// — KIF's terminal word and 「まで…」 line, CSA's special move — reads the
// official winner. The record's own terminal is kept when it already says
// the same (with its time); one that says something else is replaced and
// its word kept in a comment (棋譜の終局：投了). o.Words is added as a
// comment (公式結果：…).
//
// It reports whether a terminal word states the result. It does not when
// no word can (both players lost by default; a resignation or a
// declaration by the side not to move, which only a record missing its
// last move shows; a win without a reason): the record then has no
// terminal word, so no reader finds a wrong winner, and the comment alone
// says the result. While nothing is decided (OutcomeUnknown) the record's
// own ending stays and only the comment is added.
func (r *Record) SetOfficial(o Official) bool {
	toMove := r.ToMove()
	old := r.Main.End
	var t *Terminal
	switch {
	case o.Outcome == OutcomeUnknown:
		t = old
	case old != nil && old.Result(toMove).Outcome == o.Outcome && sameEnd(old.Kind, o.Kind):
		t = old
	default:
		t = terminalFor(o, toMove)
		if old != nil {
			if t == nil {
				t = &Terminal{} // placeholder for the comments; dropped below
			}
			t.Comments = append(t.Comments, old.Comments...)
			t.Comments = append(t.Comments, RecordEndCommentPrefix+old.KIFWordFor(toMove))
		}
	}
	if o.Words != "" {
		c := OfficialCommentPrefix + o.Words
		switch {
		case t != nil:
			t.Comments = append(t.Comments, c)
		case len(r.Main.Nodes) > 0:
			n := &r.Main.Nodes[len(r.Main.Nodes)-1]
			n.Comments = append(n.Comments, c)
		default:
			r.StartComments = append(r.StartComments, c)
		}
	}
	if t != nil && t.Kind == EndNone {
		// No word says it: the comments go on the last move.
		if n := len(r.Main.Nodes); n > 0 {
			r.Main.Nodes[n-1].Comments = append(r.Main.Nodes[n-1].Comments, t.Comments...)
		} else {
			r.StartComments = append(r.StartComments, t.Comments...)
		}
		t = nil
	}
	r.Main.End = t
	return t != nil && o.Outcome != OutcomeUnknown
}

// sameEnd reports whether a record's terminal kind says the official
// kind: the same kind, two spellings of one (反則負け/反則勝ち, 不戦勝/不戦敗,
// the 持将棋 family, 中断), or any kind when the decision names none.
func sameEnd(have, want EndKind) bool {
	group := func(k EndKind) EndKind {
		switch k {
		case EndIllegalAction:
			return EndIllegalMove
		case EndForfeitWin:
			return EndForfeitLoss
		case EndDeclareDraw, EndMaxMoves:
			return EndJishogi
		case EndError:
			return EndAbort
		}
		return k
	}
	return want == EndNone || group(have) == group(want)
}

// terminalFor is the terminal that says o when toMove is to move, nil when
// none can.
func terminalFor(o Official, toMove rules.Color) *Terminal {
	switch o.Outcome {
	case OutcomeNoResult:
		switch o.Kind {
		case EndSennichite, EndJishogi, EndMaxMoves, EndDeclareDraw, EndNoMate:
			return &Terminal{Kind: o.Kind}
		}
		return nil
	case OutcomeSuspended:
		return &Terminal{Kind: EndAbort}
	case OutcomeSenteWin, OutcomeGoteWin:
	default:
		return nil
	}
	loser := rules.Sente
	if o.Outcome == OutcomeSenteWin {
		loser = rules.Gote
	}
	switch o.Kind {
	case EndResign, EndCheckmate, EndTimeUp:
		if loser == toMove {
			return &Terminal{Kind: o.Kind}
		}
	case EndIllegalMove, EndIllegalAction:
		if loser == toMove {
			return &Terminal{Kind: EndIllegalMove}
		}
		return &Terminal{Kind: EndIllegalAction, Loser: loser}
	case EndDeclareWin:
		if loser != toMove {
			return &Terminal{Kind: EndDeclareWin}
		}
	case EndForfeitWin, EndForfeitLoss:
		if loser == toMove {
			return &Terminal{Kind: EndForfeitLoss}
		}
		return &Terminal{Kind: EndForfeitWin}
	}
	return nil
}
