package site

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"kisen/league"
	"kisen/office"
	"kisen/pairing"
)

// Every message in the user's words (issue 13): the rooms return rule ids,
// slugs, player ids and slot indexes; this file turns them into sentences
// in the reader's language, naming players and citing the rule in words.
// Rule ids (D-A1 …) stay in code, tests and logs, never on a page.

// ruleKey is the message id part of a rule id or slug: "D-A1" → "d_a1",
// "practice-sente-gote-split" → "practice_sente_gote_split".
func ruleKey(rule string) string {
	return strings.ReplaceAll(strings.ToLower(rule), "-", "_")
}

// ruleName says a rule in words with its article, e.g. 「B級2組以下の順位戦
// では師弟戦を行わない（公式棋戦規約 第8条A-2）」. A rule without words yet
// is named by a general phrase, never by its id.
func RuleName(ctx context.Context, rule string) string {
	lz := L(ctx)
	id := "words.rule." + ruleKey(rule)
	if lz.m != nil && lz.m.Has(lz.Lang, id) {
		return lz.T(id)
	}
	return lz.T("words.rule.other")
}

// ruleNames lists rules in words, one per line's worth, joined for a
// sentence.
func ruleNames(ctx context.Context, rules []string) string {
	out := make([]string, 0, len(rules))
	for _, r := range rules {
		out = append(out, RuleName(ctx, r))
	}
	return strings.Join(out, listSep(ctx))
}

// listSep joins names in a sentence: 「、」 in Japanese, ", " in English.
func listSep(ctx context.Context) string {
	if Lang(ctx) == "en" {
		return ", "
	}
	return "、"
}

// nameOf names a player id from a room ("12") for the page.
type nameOf func(id string) string

// knockoutViolation says one broken bracket rule as a sentence: who, which
// slots (numbered from 1, as the review table shows them) and the rule.
func KnockoutViolation(ctx context.Context, v pairing.Violation, name nameOf) string {
	lz := L(ctx)
	p := func(i int) string {
		if i < len(v.Players) {
			return name(v.Players[i])
		}
		return ""
	}
	slot := func(i int) int {
		if i < len(v.Slots) {
			return v.Slots[i] + 1
		}
		return 0
	}
	switch v.Rule {
	case pairing.RuleMasterStudent:
		return lz.T("words.knockout.master_student", "A", p(0), "B", p(1))
	case pairing.RuleSeedPlacement:
		return lz.T("words.knockout.seed_placement", "Name", p(0), "Slot", slot(0))
	case pairing.RuleByePlacement:
		if len(v.Players) > 0 {
			return lz.T("words.knockout.bye_taken", "Name", p(0), "Slot", slot(0))
		}
		return lz.T("words.knockout.bye_missing", "Slot", slot(0))
	case pairing.RuleDuplicate:
		return lz.T("words.knockout.duplicate", "Name", p(0), "A", slot(0), "B", slot(1))
	case pairing.RuleMissing:
		return lz.T("words.knockout.missing", "Name", p(0))
	case pairing.RuleSize:
		return lz.T("words.knockout.size")
	}
	if w, ok := FinalRuleWords(ctx, v.Rule, p(0), p(1), slot(0)); ok { // a day class's final (day_final.go)
		return w
	}
	return lz.T("words.rule.other")
}

// leagueViolation says one broken schedule rule: the rule in words, the
// players by name and the round.
func LeagueViolation(ctx context.Context, v league.Violation, name nameOf) string {
	lz := L(ctx)
	names := make([]string, 0, len(v.Players))
	for _, id := range v.Players {
		names = append(names, name(id))
	}
	rule := RuleName(ctx, v.Rule)
	switch {
	case len(names) > 0 && v.Round > 0:
		return lz.T("words.league.violation_round", "Rule", rule, "Players", strings.Join(names, listSep(ctx)), "Round", v.Round)
	case len(names) > 0:
		return lz.T("words.league.violation", "Rule", rule, "Players", strings.Join(names, listSep(ctx)))
	case v.Round > 0:
		return lz.T("words.league.violation_round_only", "Rule", rule, "Round", v.Round)
	}
	return rule
}

// drawLogSentence says one line of a stage's draw log: what was done, with
// the players by name; the reason is shown beside it.
func DrawLogSentence(ctx context.Context, action, detail string, name nameOf) string {
	lz := L(ctx)
	var d struct {
		Seed       string              `json:"seed"`
		SeedBy     string              `json:"seed_by"`
		Method     string              `json:"method"`
		DrawDate   string              `json:"draw_date"`
		A          int                 `json:"a"`
		B          int                 `json:"b"`
		Players    []string            `json:"players"`
		Violations []pairing.Violation `json:"violations"`
		Player     string              `json:"player"`
		Game       string              `json:"game"`
		Count      int                 `json:"count"`
		Voided     []int64             `json:"voided"`
	}
	_ = json.Unmarshal([]byte(detail), &d)
	switch action {
	case "draw":
		// Who picked the number (issue 24 item 3): the witnesses, Kisen
		// (the form was left empty), or — in a log written before that was
		// recorded — nobody named; a day's final is placed by the
		// qualifying results.
		switch {
		case d.Method == "final":
			return lz.T("names.drawlog.final", "Seed", d.Seed, "Date", d.DrawDate)
		case d.SeedBy == office.SeedByWitnesses:
			return lz.T("words.drawlog.draw", "Seed", d.Seed, "Date", d.DrawDate)
		case d.SeedBy == office.SeedByKisen:
			return lz.T("names.drawlog.draw_kisen", "Seed", d.Seed, "Date", d.DrawDate)
		}
		return lz.T("names.drawlog.draw_number", "Seed", d.Seed, "Date", d.DrawDate)
	case "swap":
		var na, nb string
		if len(d.Players) == 2 {
			na, nb = slotHolder(ctx, d.Players[0], name), slotHolder(ctx, d.Players[1], name)
		}
		s := lz.T("words.drawlog.swap", "A", d.A+1, "NameA", na, "B", d.B+1, "NameB", nb)
		if len(d.Violations) > 0 {
			var broke []string
			for _, v := range d.Violations {
				broke = append(broke, KnockoutViolation(ctx, v, name))
			}
			s += lz.T("words.drawlog.broke", "Rules", strings.Join(broke, " "))
		}
		return s
	case "publish":
		return lz.T("words.drawlog.publish")
	case "unpublish":
		return lz.T("words.drawlog.unpublish", "Count", len(d.Voided))
	case "withdraw":
		if d.Game != "" {
			return lz.T("words.drawlog.withdraw_game", "Name", name(d.Player), "Game", d.Game)
		}
		return lz.T("words.drawlog.withdraw", "Name", name(d.Player))
	case "toss":
		return lz.T("words.drawlog.toss", "Game", d.Game)
	case "seed_by_rating":
		return lz.T("words.drawlog.seed_by_rating", "Count", d.Count)
	}
	return lz.T("words.log.other")
}

// DrawMethod says how a stage's draw was made, in words (issue 24 item 3):
// never the stored slug (rejection, manual, final …).
func DrawMethod(ctx context.Context, method string) string {
	lz := L(ctx)
	id := "names.method." + method
	if method != "" && lz.m != nil && lz.m.Has(lz.Lang, id) {
		return lz.T(id)
	}
	return lz.T("names.method.other")
}

// slotHolder names what a slot held: a player, a bye or a qualifier.
func slotHolder(ctx context.Context, id string, name nameOf) string {
	if id == "" {
		return L(ctx).T("knockout.bye")
	}
	return name(id)
}

// leagueLogSentence says one line of a class's schedule log.
func LeagueLogSentence(ctx context.Context, action, detail, violations string, name nameOf) string {
	lz := L(ctx)
	var d struct {
		Seed      string  `json:"seed"`
		SeedBy    string  `json:"seed_by"`
		DrawDate  string  `json:"draw_date"`
		Rematches int     `json:"rematches"`
		Round     int     `json:"round"`
		Game      int     `json:"game"`
		Other     int     `json:"other"`
		Date      string  `json:"date"`
		Number    int     `json:"number"`
		Voided    []int64 `json:"voided"`
	}
	_ = json.Unmarshal([]byte(detail), &d)
	var s string
	switch action {
	case "generate":
		key := "names.leaguelog.generate_number" // a log written before who picked it was recorded
		switch d.SeedBy {
		case office.SeedByWitnesses:
			key = "words.leaguelog.generate"
		case office.SeedByKisen:
			key = "names.leaguelog.generate_kisen"
		}
		s = lz.T(key, "Seed", d.Seed, "Date", d.DrawDate, "Rematches", d.Rematches)
	case "flip":
		s = lz.T("words.leaguelog.flip", "Round", d.Round, "Game", d.Game)
	case "swap":
		s = lz.T("words.leaguelog.swap", "Round", d.Round, "Game", d.Game, "Other", d.Other)
	case "move":
		s = lz.T("words.leaguelog.move", "Round", d.Round, "Game", d.Game, "Date", d.Date)
	case "publish":
		s = lz.T("words.leaguelog.publish")
	case "unpublish":
		s = lz.T("words.leaguelog.unpublish", "Count", len(d.Voided))
	case "settings":
		s = lz.T("words.leaguelog.settings")
	case "playoff":
		s = lz.T("words.leaguelog.playoff", "N", d.Number)
	default:
		s = lz.T("words.log.other")
	}
	var vs []league.Violation
	if json.Unmarshal([]byte(violations), &vs) == nil && len(vs) > 0 {
		var broke []string
		for _, v := range vs {
			broke = append(broke, LeagueViolation(ctx, v, name))
		}
		s += lz.T("words.drawlog.broke", "Rules", strings.Join(broke, listSep(ctx)))
	}
	return s
}

// reArticle reads a seed citation as the rooms write it: "000 第8条第4項",
// "001 第6条B2", "001 第8条A1", "004 …".
var reArticle = regexp.MustCompile(`^(00[0-4])\s*(?:第(\d+)条)?(?:第(\d+)項)?([A-C]?)(\d*)([一二三四五六七八九十]*)`)

// articleText cites a rule source in human form: 「対局規則 第8条第4項」 /
// "Playing rules art. 8(4)".
func ArticleText(ctx context.Context, art string) string {
	lz := L(ctx)
	m := reArticle.FindStringSubmatch(strings.TrimSpace(art))
	if m == nil {
		return ""
	}
	doc := lz.T("words.source." + m[1])
	if m[2] == "" {
		return doc
	}
	if m[3] == "" && m[4] == "" && m[5] != "" {
		// "001 第6条1": a numbered paragraph.
		m[3], m[5] = m[5], ""
	}
	item := m[4]
	if m[5] != "" {
		if item != "" {
			item += "-"
		}
		item += m[5]
	}
	if n := kanjiNumber(m[6]); n > 0 {
		item = strconv.Itoa(n)
	}
	args := []any{"Doc", doc, "Article", m[2], "Paragraph", m[3], "Item", item}
	switch {
	case m[3] != "" && item != "":
		return lz.T("words.article.paragraph_item", args...)
	case m[3] != "":
		return lz.T("words.article.paragraph", args...)
	case item != "":
		return lz.T("words.article.item", args...)
	}
	return lz.T("words.article.article", args...)
}

// articleTexts cites several sources, dropping ones it cannot read and
// repeats.
func ArticleTexts(ctx context.Context, arts []string) string {
	seen := map[string]bool{}
	var out []string
	for _, a := range arts {
		if t := ArticleText(ctx, a); t != "" && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return strings.Join(out, listSep(ctx))
}

// kanjiNumber reads 一 … 十九 (an item number in a citation); 0 if none.
func kanjiNumber(s string) int {
	if s == "" {
		return 0
	}
	digits := map[rune]int{'一': 1, '二': 2, '三': 3, '四': 4, '五': 5, '六': 6, '七': 7, '八': 8, '九': 9}
	n, cur := 0, 0
	for _, r := range s {
		if r == '十' {
			if cur == 0 {
				cur = 1
			}
			n += cur * 10
			cur = 0
			continue
		}
		cur = digits[r]
	}
	return n + cur
}

// handicapSlugs names each 手合割 for its English message.
var handicapSlugs = map[string]string{
	"平手": "even", "香落ち": "lance", "右香落ち": "right_lance", "角落ち": "bishop", "飛車落ち": "rook",
	"飛香落ち": "rook_lance", "二枚落ち": "two", "三枚落ち": "three", "四枚落ち": "four", "五枚落ち": "five",
	"左五枚落ち": "left_five", "六枚落ち": "six", "左七枚落ち": "left_seven", "右七枚落ち": "right_seven",
	"八枚落ち": "eight", "十枚落ち": "ten",
}

// handicapLabel shows a 手合割 in the reader's language; the stored value
// stays the Japanese name.
func HandicapLabel(ctx context.Context, name string) string {
	if slug, ok := handicapSlugs[name]; ok && Lang(ctx) == "en" {
		return L(ctx).T("words.handicap." + slug)
	}
	return name
}

// rankLabel shows a 段級位 in the reader's language ("九段" → "9-dan");
// a rank Kisen cannot read is shown as stored.
func RankLabel(ctx context.Context, rank string) string {
	if Lang(ctx) != "en" || rank == "" {
		return rank
	}
	r, err := office.ParseRank(rank)
	if err != nil {
		return rank
	}
	unit := "words.rank.kyu"
	if r.Dan {
		unit = "words.rank.dan"
	}
	s := L(ctx).T(unit, "N", r.N)
	switch r.Prefix {
	case "女流":
		s = L(ctx).T("words.rank.women", "Rank", s)
	case "アマ":
		s = L(ctx).T("words.rank.amateur", "Rank", s)
	}
	return s
}

// tossFaceLabel shows how one tossed 歩 landed.
func tossFaceLabel(ctx context.Context, f pairing.Face) string {
	return L(ctx).T("words.face." + string(f))
}

// wordArgs puts a validation message's rule id (args "Rule") into words,
// so 「規約（D-A2）」 reads 「規約（B級2組以下の順位戦では師弟戦を行わない…）」.
func WordArgs(ctx context.Context, args map[string]any) map[string]any {
	rule, ok := args["Rule"].(string)
	lists := false
	for _, v := range args {
		_, l := v.(office.NameList)
		lists = lists || l
	}
	if !ok && !lists {
		return args
	}
	out := make(map[string]any, len(args))
	for k, v := range args {
		out[k] = v
		if l, isList := v.(office.NameList); isList { // names joined in the reader's language
			out[k] = strings.Join(l, listSep(ctx))
		}
	}
	if ok {
		out["Rule"] = RuleName(ctx, rule)
	}
	return out
}

// finalRuleWords says a broken rule of a class's final (pairing.CheckFinal)
// with the players a and b (by name) and the first slot (1-based); ok is
// false for any other rule.
func FinalRuleWords(ctx context.Context, rule, a, b string, slot int) (string, bool) {
	switch rule {
	case pairing.RuleFinalSeparation:
		return T(ctx, "day_final.rule.separation", "A", a, "B", b), true
	case pairing.RuleFinalAvoid:
		return T(ctx, "day_final.rule.avoid", "A", a, "B", b), true
	case pairing.RuleFinalNever:
		return T(ctx, "day_final.rule.never", "A", a, "B", b), true
	case pairing.RuleFinalWinners:
		return T(ctx, "day_final.rule.winners", "Name", a, "Slot", slot), true
	case pairing.RuleFinalByeOrder:
		return T(ctx, "day_final.rule.bye_order", "Name", a, "Slot", slot), true
	case pairing.RuleFinalStanding:
		return T(ctx, "day_final.rule.standing", "Name", a, "Slot", slot), true
	}
	return "", false
}

// MinSec is a time on a clock as minutes and seconds in the reader's
// language (「4分05秒」, "4 min 05 s"): the game page's clock, the
// recorder's page and the live board.
func MinSec(ctx context.Context, d time.Duration) string {
	secs := int(d / time.Second)
	return T(ctx, "adjudication.clock.min_sec", "Minutes", secs/60, "Seconds", fmt.Sprintf("%02d", secs%60))
}
