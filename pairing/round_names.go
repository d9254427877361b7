package pairing

// What staff call a knockout round (issue 24 item 3): the last rounds by
// their distance from the end of the stage — 決勝, 準決勝, 準々決勝 — and the
// earlier ones by number (1回戦, 2回戦 …). The pairing room names the kind
// only; the web says it in the reader's language.

// RoundKind is the kind of name a knockout round takes.
type RoundKind string

const (
	RoundNumbered       RoundKind = "numbered"         // 1回戦, 2回戦 … (Round 1, Round 2 …)
	RoundQuarterFinal   RoundKind = "quarter_final"    // 準々決勝: three rounds from the end
	RoundSemiFinal      RoundKind = "semi_final"       // 準決勝: the round before the final
	RoundFinal          RoundKind = "final"            // 決勝: the stage's last game
	RoundQualifyingLast RoundKind = "qualifying_final" // 予選決勝: the last round of a stage that sends several on
	RoundThirdPlace     RoundKind = "third_place"      // 三位決定戦
)

// RoundName is a round's name: its kind and, for a numbered round, its
// number (1-based, counted from the stage's first round).
type RoundName struct {
	Kind RoundKind
	N    int
}

// NameRound names round r (1-based) of a knockout stage of `rounds` rounds
// that sends `qualifiers` players on (0 or 1: the stage plays to a single
// winner). Decision (the seeds are silent on round names): a stage played
// to one winner has a 決勝, 準決勝 and 準々決勝 counted from its end; a stage
// cut when several players remain (qualifiers > 1) has no final — each
// game of its last round sends its winner on, which the federation's
// reports call the 予選決勝 — and its earlier rounds keep their numbers,
// because 準決勝 would promise a final the stage never plays. A round
// outside 1..rounds is numbered as given.
func NameRound(r, rounds, qualifiers int) RoundName {
	if r < 1 || r > rounds {
		return RoundName{Kind: RoundNumbered, N: r}
	}
	if qualifiers > 1 {
		if r == rounds {
			return RoundName{Kind: RoundQualifyingLast}
		}
		return RoundName{Kind: RoundNumbered, N: r}
	}
	switch rounds - r {
	case 0:
		return RoundName{Kind: RoundFinal}
	case 1:
		return RoundName{Kind: RoundSemiFinal}
	case 2:
		return RoundName{Kind: RoundQuarterFinal}
	}
	return RoundName{Kind: RoundNumbered, N: r}
}

// ThirdPlaceRound names the 三位決定戦 (played by the semi-final losers of a
// stage with a third-place game).
func ThirdPlaceRound() RoundName { return RoundName{Kind: RoundThirdPlace} }
