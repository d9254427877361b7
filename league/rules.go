package league

// Rule ids name the rule a constraint comes from: D-… ids are DOMAIN.md's,
// the practice-… ids are the federation-practice settings.
const (
	RuleStructure         = "structure"                 // every player's game count, rests, no pair twice
	RuleNoMasterStudent   = "D-A2"                      // 001 第8条A2: no 師弟 in B2 and below
	RuleMasterStudentMid  = "D-A3"                      // 001 第8条A3: 師弟 in the middle (A, B1)
	RuleFellowFinalRound  = "D-A4"                      // 001 第8条A4: no 兄弟弟子 in the final round
	RuleMasterStudentLast = "D-A5"                      // 001 第8条A5: no 師弟 in another league's final round
	RuleFinalRoundOneDay  = "D-B1"                      // 001 第8条B1
	RuleSenteGote         = "D-B2"                      // 001 第8条B2: balance, never three in a row
	RuleSenteGoteSplit    = "practice-sente-gote-split" // games 1–2 and the last two split
	RuleThirdTerm         = "D-C1"                      // 001 第8条C1: never three terms running
	RulePreviousAvoid     = "D-C1-previous-term"        // 001 第8条C1: last term's opponents only if needed
	RulePreviousForbid    = "D-C2"                      // 001 第8条C2
	RuleFellowWindow      = "practice-fellow-disciples"
	RuleRelatives         = "practice-relatives"
	RulePreviousFinal     = "practice-previous-final-pair"
)

// relation is what links two players, as a bit set.
type relation uint8

const (
	relMasterStudent relation = 1 << iota // 師弟
	relFellow                             // 兄弟弟子: same master
	relRelative                           // 肉親
	relPrev1                              // met last term
	relPrev2                              // met the term before
	relPrevFinal                          // met in last term's final round
)

type constraintKind uint8

const (
	cNever constraintKind = iota
	cWindow
	cFinalRound
	cRoundOne
	cSoft
)

// pairConstraint is one rule applied to one related pair.
type pairConstraint struct {
	rule        string
	kind        constraintKind
	first, last int // cWindow: not among either player's first/last games
}

// constraintsFor lists the constraints the settings put on a pair with the
// given relation. Both the generator and Check derive their rules here.
func (d Draw) constraintsFor(rel relation) []pairConstraint {
	s := d.Settings
	var out []pairConstraint
	addRule := func(r PairRule, never, window, final string) {
		if r.Never {
			out = append(out, pairConstraint{rule: never, kind: cNever})
		}
		if r.NotFirst > 0 || r.NotLast > 0 {
			out = append(out, pairConstraint{rule: window, kind: cWindow, first: r.NotFirst, last: r.NotLast})
		}
		if r.NotFinalRound {
			out = append(out, pairConstraint{rule: final, kind: cFinalRound})
		}
	}
	if rel&relMasterStudent != 0 {
		final := RuleMasterStudentMid
		if d.Kind == KindLeague {
			final = RuleMasterStudentLast
		}
		addRule(s.MasterStudent, RuleNoMasterStudent, RuleMasterStudentMid, final)
	}
	if rel&relFellow != 0 {
		addRule(s.FellowDisciples, RuleFellowWindow, RuleFellowWindow, RuleFellowFinalRound)
	}
	if rel&relRelative != 0 {
		addRule(s.Relatives, RuleRelatives, RuleRelatives, RuleRelatives)
	}
	if rel&relPrev1 != 0 {
		switch s.PreviousTerm {
		case PreviousForbid:
			out = append(out, pairConstraint{rule: RulePreviousForbid, kind: cNever})
		case PreviousAvoid:
			out = append(out, pairConstraint{rule: RulePreviousAvoid, kind: cSoft})
		}
		if rel&relPrev2 != 0 && s.NoThirdConsecutive {
			out = append(out, pairConstraint{rule: RuleThirdTerm, kind: cNever})
		}
	}
	if rel&relPrevFinal != 0 && s.PreviousFinalNotRoundOne {
		out = append(out, pairConstraint{rule: RulePreviousFinal, kind: cRoundOne})
	}
	return out
}

// relations holds the relation of every pair of players, by index in
// 順位 order.
type relations struct {
	n int
	m []relation
}

func (r relations) of(u, v int) relation { return r.m[u*r.n+v] }

func (r relations) set(u, v int, x relation) {
	r.m[u*r.n+v] |= x
	r.m[v*r.n+u] |= x
}

// buildRelations reads lineage and history. A pair naming someone outside
// the league is ignored: history may include players who left the class.
func buildRelations(d Draw, index map[string]int) relations {
	n := len(d.Players)
	r := relations{n: n, m: make([]relation, n*n)}
	for u, p := range d.Players {
		if p.Master == "" {
			continue
		}
		if v, ok := index[p.Master]; ok {
			r.set(u, v, relMasterStudent)
		}
		for v := u + 1; v < n; v++ {
			if d.Players[v].Master == p.Master {
				r.set(u, v, relFellow)
			}
		}
	}
	pairs := func(ps []Pair, x relation) {
		for _, p := range ps {
			u, ok1 := index[p[0]]
			v, ok2 := index[p[1]]
			if ok1 && ok2 && u != v {
				r.set(u, v, x)
			}
		}
	}
	pairs(d.Relatives, relRelative)
	if len(d.PreviousTerms) > 0 {
		pairs(d.PreviousTerms[0], relPrev1)
	}
	if len(d.PreviousTerms) > 1 {
		pairs(d.PreviousTerms[1], relPrev2)
	}
	pairs(d.PreviousFinalRound, relPrevFinal)
	return r
}

func indexOf(players []Player) map[string]int {
	m := make(map[string]int, len(players))
	for i, p := range players {
		m[p.ID] = i
	}
	return m
}
