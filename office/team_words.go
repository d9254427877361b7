package office

import (
	"errors"
	"strings"

	"kisen/pairing"
)

// teamRuleSettings are the organiser settings a team_rule error can name;
// each has words of its own (names.err.team.team_rule.<setting>), so no
// setting key or value in the engine's English reaches a page.
var teamRuleSettings = map[string]bool{"cycles": true, "colours": true, "win": true, "tie": true, "affiliation": true}

// TeamInputWords is the message code and arguments for an error of the team
// engine (issue 25; pairing/team_errors.go): every names.err.team.* code has
// words of its own in both languages, anything else a general message, never
// the room's English. teams names the team ids the engine speaks of (a team
// not in it is shown as "" and the message still reads). Match ids and
// setting values are not shown: they are program text.
func TeamInputWords(err error, teams map[string]string) (string, map[string]any) {
	var nt *pairing.NoTeamPairingError
	if errors.As(err, &nt) {
		groups := make(NameList, 0, len(nt.Groups))
		for _, g := range nt.Groups {
			groups = append(groups, strings.Join(teamNames(g, teams), "・"))
		}
		return "names.err.team." + pairing.NoTeamRound, map[string]any{
			"Round": nt.Round, "Groups": groups, "Barrier": NameList(teamNames(nt.Barrier, teams)),
			"GroupCount": len(nt.Groups)}
	}
	var fe *pairing.FieldError
	if !errors.As(err, &fe) {
		return "names.err.team.input", map[string]any{}
	}
	args := map[string]any{}
	for k, v := range fe.Params {
		switch k {
		case "Team":
			id, _ := v.(string)
			args[k] = teams[id]
		case "Match", "Value", "Result", "Setting", "Tiebreak":
			// program text: not shown
		default:
			args[k] = v
		}
	}
	switch fe.Code {
	case pairing.FieldTeamRule:
		if s, _ := fe.Params["Setting"].(string); teamRuleSettings[s] {
			return "names.err.team.team_rule." + s, args
		}
		return "names.err.team.input", args
	case pairing.FieldTeamBoards, pairing.FieldTeamBoardCount, pairing.FieldTeamBoardResult,
		pairing.FieldTeamUnknown, pairing.FieldTeamDuplicate, pairing.FieldTeamTwice, pairing.FieldTeamSelf,
		pairing.FieldTeamByeTwice, pairing.FieldTeamPoints, pairing.FieldTeamTiebreak, pairing.FieldTeamRounds,
		pairing.FieldTeamTooFew, pairing.FieldTeamTooMany, pairing.FieldTeamDivisions, pairing.FieldTeamTosses,
		pairing.FieldTeamUndecided:
		return "names.err.team." + fe.Code, args
	}
	return "names.err.team.input", args
}

func teamNames(ids []string, teams map[string]string) []string {
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		if n, ok := teams[id]; ok && n != "" {
			out = append(out, n)
		}
	}
	return out
}
