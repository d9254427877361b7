package office

import "kisen/pairing"

// RankingInputWords is the message code and arguments for a ranking-group
// table or result the pairing room refuses (issue 24 item 8): every code of
// pairing's Field… ranking errors has words of its own in both languages;
// anything else gets a general message, never the room's English. player
// names the player the error is about (Params "Player" is an entrant id).
func RankingInputWords(fe *pairing.FieldError, player NameList) (string, map[string]any) {
	args := map[string]any{}
	for k, v := range fe.Params {
		args[k] = v
	}
	if len(player) > 0 {
		args["Player"] = player[0]
	}
	switch fe.Code {
	case pairing.FieldRankingGroups, pairing.FieldRankingSize, pairing.FieldRankingPlayoff,
		pairing.FieldRankingSurvival, pairing.FieldRankingOverlap, pairing.FieldRankingFinish,
		pairing.FieldRankingTwice, pairing.FieldRankingSlot, pairing.FieldRankingTopUp,
		pairing.FieldRankingBottom, pairing.FieldRankingMember, pairing.FieldRankingUnfinish,
		pairing.FieldRankingNoEntrant, pairing.FieldRankingSeat, pairing.FieldRankingSeatTwice:
		return "names.err.ranking." + fe.Code, args
	}
	return "names.err.ranking.input", args
}
