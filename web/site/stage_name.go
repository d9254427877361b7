package site

import (
	"context"
	"encoding/json"
	"math/bits"
	"regexp"
	"strconv"
	"strings"

	"kisen/office"
	"kisen/pairing"
)

// stageName is a knockout stage's name in the reader's language (issue 13):
// on an English page its English name; without one, a stage named exactly
// as its kind reads in Japanese (一次予選, 本戦 …) is shown with the kind's
// English words from the locale files; any other name is shown as typed.
func StageName(ctx context.Context, name, nameEn, kind string) string {
	lz := L(ctx)
	if lz.Lang != "en" {
		return name
	}
	if nameEn != "" {
		return nameEn
	}
	if kind != "" && lz.m != nil && name == lz.m.For("ja").T("knockout.kind."+kind) {
		return lz.T("knockout.kind." + kind)
	}
	return name
}

// gameLabel is a game's stored label as the reader reads it. A bracket
// game's label is written once, when its stage is published, as the stage's
// name and the game's place (「一次予選 R1-G1」). On an English page a label
// that starts with the name of one of stages (the event's, when the page has
// them) that has an English name says that name instead; one that starts
// with a kind's Japanese word says the kind in English ("First preliminary
// R1-G1"). Other labels are data and are shown as stored.
//
// With the event's stages (the game page and the games list), a bracket
// game's place reads as staff say it (issue 24 item 3): 「本戦 R2-G1」 of a
// drawn stage of 8 is 「本戦 準決勝 第1局」 / "Main tournament Semi-final,
// game 1", R3-G1 「本戦 決勝」, 3P 「本戦 三位決定戦」.
func GameLabel(ctx context.Context, label string, stages ...office.KnockoutStage) string {
	lz := L(ctx)
	for _, st := range stages {
		if rest, ok := strings.CutPrefix(label, st.Name+" "); ok {
			if words, ok := bracketGameWords(ctx, rest, st); ok {
				return StageName(ctx, st.Name, st.NameEn, st.Kind) + " " + words
			}
		}
	}
	if lz.Lang != "en" || lz.m == nil {
		return label
	}
	if words, ok := teamBoardLabel(ctx, label); ok {
		return words
	}
	for _, st := range stages {
		if rest, ok := strings.CutPrefix(label, st.Name+" "); ok && st.NameEn != "" {
			return st.NameEn + " " + rest
		}
	}
	ja := lz.m.For("ja")
	for _, kind := range stageKinds {
		if rest, ok := strings.CutPrefix(label, ja.T("knockout.kind."+kind)+" "); ok {
			return lz.T("knockout.kind."+kind) + " " + rest
		}
	}
	return label
}

// labelStages are the stages gameLabel needs for an event's games (one
// statement): their names and sizes name each bracket game's round.
func (s *Server) LabelStages(ctx context.Context, eventID int64) ([]office.KnockoutStage, error) {
	return s.Office.LabelStages(ctx, eventID)
}

var reBracketGameID = regexp.MustCompile(`^(C-)?R(\d+)-G(\d+)$`)

// bracketGameWords says a bracket game id of st ("R2-G1", "3P", "C-R1-G2")
// as staff say it; ok is false for a stage not drawn yet or any other text.
func bracketGameWords(ctx context.Context, id string, st office.KnockoutStage) (string, bool) {
	size := 0
	if slots := strings.TrimSpace(st.Slots); len(slots) > 2 && slots != "[]" {
		size = strings.Count(slots, ",") + 1 // entrant ids hold no comma; no parse for every row of a list
	}
	if size < 2 || size&(size-1) != 0 {
		return "", false
	}
	if id == "3P" {
		return ThirdPlaceWords(ctx), true
	}
	if words, ok := groupGameWords(ctx, id, st, size); ok {
		return words, true
	}
	m := reBracketGameID.FindStringSubmatch(id)
	if m == nil {
		return "", false
	}
	r, _ := strconv.Atoi(m[2])
	g, _ := strconv.Atoi(m[3])
	rounds := bits.TrailingZeros(uint(size))
	if m[1] != "" { // the 交流戦 of the first-round losers: half the places
		return T(ctx, "names.game.consolation", "Round", GameInRound(ctx, KnockoutRound(ctx, r, rounds-1, 0), size>>(r+1), g)), true
	}
	if q := st.Qualifiers; q > 1 && q&(q-1) == 0 && q < size {
		rounds -= bits.TrailingZeros(uint(q))
	}
	if r < 1 || r > rounds {
		return "", false
	}
	return GameInRound(ctx, KnockoutRound(ctx, r, rounds, st.Qualifiers), size>>r, g), true
}

// GameInRound is a round's name with the game's number when the round has
// several games: 「準決勝 第1局」, 「決勝」.
func GameInRound(ctx context.Context, round string, games, g int) string {
	if games <= 1 {
		return round
	}
	return T(ctx, "names.game.n", "Round", round, "N", g)
}

// stageKinds are the knockout stage kinds whose names have locale words.
var stageKinds = []string{"first_preliminary", "second_preliminary", "main", "series"}

// groupGameWords says a ranking group's 決定戦 ("P-R1-G2", "P-3P") or
// 残留決定戦 ("S-R2-G1") game as staff say it: 「昇級者決定戦 決勝」,
// 「残留決定戦 1回戦 第2局」 (出場者決定戦 in the top group); ok is false for
// any other id or a stage without a table line (issue 24 item 8).
func groupGameWords(ctx context.Context, id string, st office.KnockoutStage, size int) (string, bool) {
	playoff, survival := strings.HasPrefix(id, "P-"), strings.HasPrefix(id, "S-")
	if !playoff && !survival || st.RankingRule == "" {
		return "", false
	}
	var rule pairing.GroupRule
	if json.Unmarshal([]byte(st.RankingRule), &rule) != nil {
		return "", false
	}
	name, rounds := T(ctx, "knockout.ranking.survival"), 0
	if playoff {
		name = T(ctx, "knockout.ranking.playoff")
		if rule.Group == 1 {
			name = T(ctx, "knockout.ranking.playoff_top")
		}
		feeds, err := pairing.RankingPlayoffFeeds(rule, size)
		if err != nil {
			return "", false
		}
		rounds = len(feeds)
	} else if sv := rule.Survival; sv != nil && sv.Relegated > 0 {
		rounds = bits.TrailingZeros(uint(size>>sv.Round)) - bits.TrailingZeros(uint(sv.Relegated))
	}
	if id[2:] == "3P" && playoff {
		return T(ctx, "knockout.ranking.game", "Bracket", name, "Round", ThirdPlaceWords(ctx)), true
	}
	m := reBracketGameID.FindStringSubmatch(id[2:])
	if m == nil || m[1] != "" {
		return "", false
	}
	r, _ := strconv.Atoi(m[2])
	g, _ := strconv.Atoi(m[3])
	if r < 1 || r > rounds {
		return "", false
	}
	games := 0
	if playoff {
		feeds, _ := pairing.RankingPlayoffFeeds(rule, size)
		games = len(feeds[r-1])
	} else {
		games = (size >> rule.Survival.Round) >> r
	}
	head := GroupRoundWords(ctx, r, rounds, playoff && rule.Playoff.Winners == 1)
	return T(ctx, "knockout.ranking.game", "Bracket", name, "Round", GameInRound(ctx, head, games, g)), true
}

// GroupRoundWords names round r of a ranking group's losers' bracket of
// rounds rounds: a 決定戦 played to one winner counts 決勝, 準決勝 … from its
// end; one sending several on, and a 残留決定戦 (which ends with its
// losers, not a final), number their rounds.
func GroupRoundWords(ctx context.Context, r, rounds int, toOne bool) string {
	if toOne {
		return KnockoutRound(ctx, r, rounds, 0)
	}
	return RoundWords(ctx, pairing.RoundName{Kind: pairing.RoundNumbered, N: r})
}
