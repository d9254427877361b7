package site

import (
	"context"

	"kisen/pairing"
)

// Round names as staff say them (issue 24 item 3): 決勝, 準決勝, 準々決勝 and
// 三位決定戦 / Final, Semi-final, Quarter-final and Third-place playoff,
// earlier rounds by number. pairing.NameRound decides the kind; this says
// it in the reader's language.

// RoundWords says a named round.
func RoundWords(ctx context.Context, n pairing.RoundName) string {
	if n.Kind == pairing.RoundNumbered {
		return T(ctx, "names.round.numbered", "N", n.N)
	}
	return T(ctx, "names.round."+string(n.Kind))
}

// KnockoutRound names round r (1-based) of a stage of `rounds` rounds that
// sends `qualifiers` players on (0 or 1: one winner).
func KnockoutRound(ctx context.Context, r, rounds, qualifiers int) string {
	return RoundWords(ctx, pairing.NameRound(r, rounds, qualifiers))
}

// ThirdPlaceWords names the 三位決定戦.
func ThirdPlaceWords(ctx context.Context) string { return RoundWords(ctx, pairing.ThirdPlaceRound()) }
