package web

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"

	"kisen/league"
	"kisen/pairing"
	"kisen/web/site"
)

// offence is one piece of developer text found on a page.
type offence struct {
	Kind string // raw_key, rule_id, slug, player_id, json, english_on_ja, japanese_on_en, status, lang
	URL  string
	Text string
}

func (o offence) String() string { return fmt.Sprintf("%-15s %s: %q", o.Kind, o.URL, o.Text) }

// pageChecker finds developer text in a page (issue 13): raw message ids,
// rule ids, code slugs, bare player ids, raw JSON, English sentences on a
// Japanese page and Japanese UI words on an English page. Data the fixture
// typed in (names, readings, reasons) is the only allowed exception.
type pageChecker struct {
	keys      map[string]bool // every message id
	slugs     []string        // rule slugs of the rooms
	data      []string        // fixture names, longest first
	playerIDs map[string]bool
}

func newPageChecker(m *site.Messages, data []string, playerIDs []int64) *pageChecker {
	c := &pageChecker{keys: map[string]bool{}, playerIDs: map[string]bool{}}
	for _, lang := range site.Languages {
		for _, id := range m.IDs(lang) {
			c.keys[id] = true
		}
	}
	for _, s := range []string{
		pairing.RuleSeedPlacement, pairing.RuleByePlacement, pairing.RuleDuplicate, pairing.RuleMissing, pairing.RuleSize,
		league.RuleStructure, league.RuleSenteGoteSplit, league.RulePreviousAvoid, league.RuleFellowWindow,
		league.RuleRelatives, league.RulePreviousFinal,
	} {
		if strings.ContainsAny(s, "-_") {
			c.slugs = append(c.slugs, s)
		}
	}
	c.data = slices.Clone(data)
	sort.Slice(c.data, func(i, j int) bool { return len(c.data[i]) > len(c.data[j]) })
	for _, id := range playerIDs {
		c.playerIDs[fmt.Sprint(id)] = true
	}
	return c
}

var (
	reKeyLike  = regexp.MustCompile(`\b[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+\b`)
	reRuleID   = regexp.MustCompile(`\bD-[A-Z]\d*\b`)
	reSnake    = regexp.MustCompile(`\b[a-z]+(?:_[a-z]+)+\b`)
	reJSON     = regexp.MustCompile(`\{\s*"[^"]*"\s*:|\{\s*\}|\[\s*"[^"]*"\s*,`)
	reASCIIRun = regexp.MustCompile(`[A-Za-z][A-Za-z'’]*(?:[ ,;:]+[A-Za-z][A-Za-z'’]*){3,}`)
	reURL      = regexp.MustCompile(`https?://\S+|/[a-z0-9/._?=&-]+`)
	reJapanese = regexp.MustCompile(`[\p{Han}\p{Hiragana}\p{Katakana}ー々〆]+`)
	// Two bare numbers joined like names ("1 and 2 are…", "1 と 2 は…"),
	// or a bare number as the subject of a verb ("3 plays…").
	rePlayerPair = regexp.MustCompile(`(?:^|[^\w/#.:-])(\d+)\s*(?:and|と|vs\.?|対)\s*(\d+)(?:[^\w:/.-]|$)`)
	rePlayerSubj = regexp.MustCompile(`(?:^|[^\w/#.:-])(\d+) (?:plays|meets|rests|is|are|has|gets)\b`)
)

// skipped elements: scripts, the board picture, text the user typed
// (records in pre/textarea), literal input (code), the language switch
// (each language names itself) and the game record's moves in the
// federation's notation (marked translate="no": record data, D-N).
const skippedElements = "script, style, svg, textarea, pre, code, kbd, samp, noscript, [data-testid=lang-switch], [translate=no]"

// check returns the offences on one page of language lang.
func (c *pageChecker) check(url, lang, body string) []offence {
	d, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		return []offence{{Kind: "status", URL: url, Text: "unreadable HTML: " + err.Error()}}
	}
	var out []offence
	if got, _ := d.Find("html").Attr("lang"); got != lang {
		out = append(out, offence{Kind: "lang", URL: url, Text: fmt.Sprintf("html lang=%q on a %s page", got, lang)})
	}
	var texts []string
	texts = append(texts, d.Find("title").Text())
	d.Find(skippedElements).Remove()
	d.Find("body").Find("*").Each(func(_ int, s *goquery.Selection) {
		for _, attr := range []string{"placeholder", "title", "aria-label", "alt"} {
			if v, ok := s.Attr(attr); ok {
				texts = append(texts, v)
			}
		}
		if goquery.NodeName(s) == "input" {
			if typ, _ := s.Attr("type"); typ == "submit" || typ == "button" {
				texts = append(texts, s.AttrOr("value", ""))
			}
		}
	})
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			if t := strings.TrimSpace(n.Data); t != "" {
				texts = append(texts, t)
			}
		}
		for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
			walk(ch)
		}
	}
	for _, n := range d.Find("body").Nodes {
		walk(n)
	}
	seen := map[string]bool{}
	for _, t := range texts {
		for _, o := range c.checkText(lang, t) {
			o.URL = url
			if k := o.Kind + o.Text; !seen[k] {
				seen[k] = true
				out = append(out, o)
			}
		}
	}
	return out
}

// checkText finds offences in one run of text.
func (c *pageChecker) checkText(lang, t string) []offence {
	var out []offence
	add := func(kind, text string) { out = append(out, offence{Kind: kind, Text: text}) }
	for _, k := range reKeyLike.FindAllString(t, -1) {
		if c.keys[k] {
			add("raw_key", k)
		}
	}
	if reRuleID.MatchString(t) {
		add("rule_id", t)
	}
	for _, s := range reSnake.FindAllString(t, -1) {
		add("slug", s+" in "+t)
	}
	for _, s := range c.slugs {
		if strings.Contains(t, s) {
			add("slug", s+" in "+t)
		}
	}
	if reJSON.MatchString(t) {
		add("json", t)
	}
	clean := t
	for _, name := range c.data {
		clean = strings.ReplaceAll(clean, name, " ")
	}
	if m := rePlayerPair.FindStringSubmatch(clean); m != nil && c.playerIDs[m[1]] && c.playerIDs[m[2]] {
		add("player_id", t)
	} else if m := rePlayerSubj.FindStringSubmatch(clean); m != nil && c.playerIDs[m[1]] {
		add("player_id", t)
	}
	switch lang {
	case "ja":
		s := reURL.ReplaceAllString(clean, " ")
		if r := reASCIIRun.FindString(s); r != "" {
			add("english_on_ja", t)
		}
	case "en":
		if r := reJapanese.FindString(clean); r != "" {
			add("japanese_on_en", r+" in "+t)
		}
	}
	return out
}
