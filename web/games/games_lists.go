package games

import (
	"kisen/adjudication"
	"kisen/rules"
)

// endingKinds are the choices of the end form, in the order an arbiter
// meets them.
var endingKinds = adjudication.EndingKinds()

// foulKinds lists every foul an arbiter can name (D-X1, D-X6).
var foulKinds = []adjudication.FoulKind{
	adjudication.FoulNifu, adjudication.FoulDeadPiece, adjudication.FoulUchifuzume, adjudication.FoulIgnoredCheck,
	adjudication.FoulIllegalMovement, adjudication.FoulIllegalPromotion, adjudication.FoulWrongSide,
	adjudication.FoulPerpetualCheck, adjudication.FoulWrongStart, adjudication.FoulTwoMoves, adjudication.FoulMatta,
	adjudication.FoulTimeForfeit, adjudication.FoulClockBeforeMove, adjudication.FoulAdvice,
	adjudication.FoulRefusedRuling, adjudication.FoulClockHand, adjudication.FoulNoCheckCall,
}

var claimants = []adjudication.Claimant{adjudication.ClaimByOpponent, adjudication.ClaimByThirdParty,
	adjudication.ClaimByArbiter, adjudication.ClaimByRecorder}

var recordFormats = []string{"kif", "ki2", "csa", "usi"}

// handicapNames lists the starts by Japanese name.
func handicapNames() []string {
	var out []string
	for _, h := range rules.AllHandicaps() {
		out = append(out, h.Name())
	}
	return out
}

func sidePtrName(s *adjudication.Side) string {
	if s == nil {
		return ""
	}
	return s.String()
}
