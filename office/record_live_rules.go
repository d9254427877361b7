package office

import (
	"strings"

	"kisen/adjudication"
	"kisen/adjudication/analysis"
	"kisen/rules"
)

// LiveFact is one thing the rules say about the live record now, for the
// recorder to tell the arbiter (issue 26 item 3): Code is the message id
// of its words (recorder.fact.*, in Japanese and English), Args fill them.
type LiveFact struct {
	Code string
	Args map[string]any
	// Alert: the arbiter must act now (a 4th occurrence, the 500-move
	// rule reached); otherwise a warning or an answer on demand.
	Alert bool
}

// maxMovesWarnFrom is when the page starts to count down to move 500.
const maxMovesWarnFrom = 480

// liveFacts reads the live record with the rules engine: the repetition
// of the position now (third occurrence warned, D-S1/D-S2 and 004; the
// 4th is 千日手, D-S1, or a loss by perpetual check, D-S4), a side that has
// checked with every move of the current cycle (D-S4), the 500-move rule
// (D-J4), checkmate, the 持将棋 points by the organiser's 24/27 rule (D-J1,
// D-J2) and what a 入玉宣言 by the side to move would give now (D-J3). It
// is pure: the moves, the settings and the clock come in.
func liveFacts(start *rules.Position, h rules.Handicap, moves []rules.Move, s adjudication.Settings, clock *adjudication.ClockState) ([]LiveFact, adjudication.Points) {
	f := analysis.Replay(start, h, moves)
	var facts []LiveFact
	var pts adjudication.Points
	n := len(moves)
	if f.Points != nil {
		pts = *f.Points
	}
	// 千日手 at the last move, or one that play went on from (D-S3).
	for _, sf := range f.Sennichite {
		switch {
		case sf.Ply == n && sf.Perpetual && sf.Loser != nil:
			facts = append(facts, LiveFact{Code: "recorder.fact.perpetual." + sf.Loser.String(), Args: map[string]any{"Ply": sf.Ply}, Alert: true})
		case sf.Ply == n:
			facts = append(facts, LiveFact{Code: "recorder.fact.sennichite", Args: map[string]any{"Ply": sf.Ply}, Alert: true})
		default:
			facts = append(facts, LiveFact{Code: "recorder.fact.sennichite_passed", Args: map[string]any{"Ply": sf.Ply}})
		}
	}
	if f.FinalOccurrences == 3 {
		// 004: the players may agree to a redo now (D-S2).
		facts = append(facts, LiveFact{Code: "recorder.fact.third_occurrence", Args: map[string]any{"Ply": n}})
	}
	if f.FinalOccurrences >= 2 && f.FinalOccurrences < 4 {
		if c, ok := checkingThroughCycle(start, moves, lastSennichite(f, n)); ok {
			facts = append(facts, LiveFact{Code: "recorder.fact.checking." + sideOf(c).String(), Args: map[string]any{"Count": f.FinalOccurrences}})
		}
	}
	switch {
	case f.MaxMovesPly > 0:
		facts = append(facts, LiveFact{Code: "recorder.fact.max_moves", Args: map[string]any{"Ply": f.MaxMovesPly}, Alert: true})
	case n >= maxMovesLimit:
		// D-J4: move 500 gave check; 持将棋 when the checks end.
		facts = append(facts, LiveFact{Code: "recorder.fact.max_moves_checks", Args: map[string]any{"Ply": n}})
	case n >= maxMovesWarnFrom:
		facts = append(facts, LiveFact{Code: "recorder.fact.max_moves_near", Args: map[string]any{"Left": maxMovesLimit - n}})
	}
	if f.Mate && n > 0 {
		facts = append(facts, LiveFact{Code: "recorder.fact.mate." + f.SideToMove.String(), Args: map[string]any{"Ply": n}, Alert: true})
	}
	if f.Points != nil {
		// D-J1/D-J2: what 持将棋 by agreement would give now.
		o := adjudication.JishogiAgreement(s, pts)
		code := "recorder.fact.jishogi.redo"
		if o.Loser != nil {
			code = "recorder.fact.jishogi.loses." + o.Loser.String()
		}
		rule := 24
		if s.Jishogi == adjudication.Jishogi27 {
			rule = 27
		}
		facts = append(facts, LiveFact{Code: code, Args: map[string]any{"Sente": pts.Sente, "Gote": pts.Gote, "Rule": rule}})
	}
	// A declaration is worth counting once the side to move's king has
	// entered the enemy camp (condition 1); before that the page is quiet.
	if d := f.Declaration; d != nil && d.KingInCamp && s.Declaration != adjudication.DeclarationNone && n > 0 {
		timeLeft := true
		if clock != nil {
			timeLeft = clock.Remaining.Of(f.SideToMove).D() > 0 || inByoyomi(clock.InByoyomi, f.SideToMove)
		}
		v := adjudication.JudgeDeclaration(s.Declaration, f.SideToMove, *d, n, timeLeft)
		facts = append(facts, LiveFact{Code: "recorder.fact.declaration." + v.Result,
			Args: map[string]any{"Points": v.Points, "InCamp": v.InCamp}})
		for _, c := range v.Failed {
			facts = append(facts, LiveFact{Code: "recorder.fact.declaration_failed." + c})
		}
	}
	return facts, pts
}

// DeclarationCount is one side's 入玉宣言 count now, asked for on the
// recorder's page (「持将棋・入玉宣言の点数」): its king in the enemy camp
// or not, its other pieces there, and its points over those pieces and
// its pieces in hand (D-J3; a handicap's removed pieces count as gote's,
// D-J). Need is what the organiser's rule asks of that side to win by
// declaring (D-J3: 31 under the federation's 24-point rule; 28 for sente
// and 27 for gote under the 27-point rule; 0 when the event has none).
type DeclarationCount struct {
	KingInCamp bool
	InCamp     int
	Points     int
	Need       int
}

// declarationCounts counts both sides' declaration facts in p (D-J3), each
// as though that side were to move: the count is the same whoever moves.
func declarationCounts(p *rules.Position, h rules.Handicap, rule adjudication.DeclarationRule) [2]DeclarationCount {
	var out [2]DeclarationCount
	fields := strings.Fields(p.SFEN())
	for i, c := range []string{"b", "w"} {
		if len(fields) < 4 {
			break
		}
		fields[1] = c
		q, err := rules.ParseSFEN(strings.Join(fields, " "))
		if err != nil {
			continue // p's own SFEN always reads back
		}
		v := q.Declare(rules.DeclarationFederation, h, true, 0)
		k := q.KingSquare(q.SideToMove())
		in := k != rules.NoSquare && ((i == 0 && k.Rank() <= 3) || (i == 1 && k.Rank() >= 7))
		out[i] = DeclarationCount{KingInCamp: in, InCamp: v.InCamp, Points: v.Points, Need: declarationNeed(rule, i == 1)}
	}
	return out
}

// declarationNeed is the points a declarer needs to win (D-J3).
func declarationNeed(rule adjudication.DeclarationRule, gote bool) int {
	switch {
	case rule == adjudication.DeclarationNone:
		return 0 // the event has no declaration rule
	case rule == adjudication.Declaration27 && gote:
		return 27
	case rule == adjudication.Declaration27:
		return 28
	}
	return 31
}

// maxMovesLimit is the 500-move rule's limit (D-J4, 000 第9条第6項).
const maxMovesLimit = 500

// lastSennichite is the ply of the last 千日手 at or before ply (0 if none):
// the cycle now starts after it (D-S3).
func lastSennichite(f *adjudication.Findings, ply int) int {
	last := 0
	for _, s := range f.Sennichite {
		if s.Ply <= ply {
			last = s.Ply
		}
	}
	return last
}

// checkingThroughCycle reports the side that gave check with every one of
// its moves since the first occurrence (after ply since) of the position
// now, when exactly one side did (D-S4: that side loses at the 4th).
func checkingThroughCycle(start *rules.Position, moves []rules.Move, since int) (rules.Color, bool) {
	p := start.Clone()
	keys := make([]uint64, 0, len(moves)+1)
	checks := make([]bool, len(moves))
	keys = append(keys, p.Key())
	for i, m := range moves {
		checks[i] = p.GivesCheck(m)
		p.Do(m)
		keys = append(keys, p.Key())
	}
	n := len(moves)
	first := n
	for ply := n; ply > since; ply-- {
		if keys[ply] == keys[n] {
			first = ply
		}
	}
	if since == 0 && keys[0] == keys[n] {
		first = 0
	}
	if first == n {
		return 0, false
	}
	// Move i (0-based) leads to ply i+1; the mover of ply 1 is the start's
	// side to move.
	var moved, checked [2]int
	for i := first; i < n; i++ {
		c := start.SideToMove()
		if i%2 == 1 {
			c ^= 1
		}
		moved[c]++
		if checks[i] {
			checked[c]++
		}
	}
	all := func(c rules.Color) bool { return moved[c] > 0 && checked[c] == moved[c] }
	switch {
	case all(rules.Sente) && !all(rules.Gote):
		return rules.Sente, true
	case all(rules.Gote) && !all(rules.Sente):
		return rules.Gote, true
	}
	return 0, false
}

func sideOf(c rules.Color) adjudication.Side {
	if c == rules.Gote {
		return adjudication.Gote
	}
	return adjudication.Sente
}

// inByoyomi: side still has its byoyomi period to move in (D-T2).
func inByoyomi(f adjudication.SideFlags, side adjudication.Side) bool {
	if side == adjudication.Gote {
		return f.Gote
	}
	return f.Sente
}

// RecorderMessageIDs lists every message id the live record's errors and
// facts can be shown with (checked against both catalogues by web tests).
func RecorderMessageIDs() []string {
	ids := []string{
		"recorder.err.comment", "recorder.err.elapsed", "recorder.err.move_unreadable", "recorder.err.ply",
		"recorder.err.undo_reason",
		"recorder.fact.sennichite", "recorder.fact.sennichite_passed", "recorder.fact.third_occurrence",
		"recorder.fact.max_moves", "recorder.fact.max_moves_checks", "recorder.fact.max_moves_near",
		"recorder.fact.jishogi.redo",
	}
	for f := rules.FoulNifu; f <= rules.FoulWrongSide; f++ {
		ids = append(ids, "recorder.err.illegal."+f.String())
	}
	for _, s := range []adjudication.Side{adjudication.Sente, adjudication.Gote} {
		for _, k := range []string{"perpetual", "checking", "mate", "jishogi.loses"} {
			ids = append(ids, "recorder.fact."+k+"."+s.String())
		}
	}
	for _, r := range []string{"win", "redo", "lose"} {
		ids = append(ids, "recorder.fact.declaration."+r)
	}
	for _, c := range []string{adjudication.CondNotBefore500, adjudication.CondKingNotInCamp, adjudication.CondTooFewPieces,
		adjudication.CondInCheck, adjudication.CondNoTimeLeft, adjudication.CondTooFewPoints} {
		ids = append(ids, "recorder.fact.declaration_failed."+c)
	}
	return ids
}
