package day

import (
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"kisen/office"
	"kisen/pairing"
)

// Class formats (day_classes.format).
const (
	FormatPools    = "pools"    // N勝通過M敗失格 preliminary (pairing.DrawPools)
	FormatSwiss    = "swiss"    // スイス式, a fixed number of rounds (pairing.DrawSwiss)
	FormatKnockout = "knockout" // no preliminary: the class is its final knockout
)

// Formats lists the class formats in display order.
var Formats = []string{FormatPools, FormatSwiss, FormatKnockout}

// 手合割 policies of a class.
const (
	// HandicapToss: every game 平手, sente by 振り駒 (simulated, recorded).
	HandicapToss = "toss"
	// HandicapTable: the event's 手合割 table by rank gap (the organiser's
	// table, or 004's), equal ranks by 振り駒 (D-H).
	HandicapTable = "table"
	// HandicapMixed: equal ranks 振り駒; up to EvenGap 段級差 平手 with the
	// lower rank sente; beyond, the table (004).
	HandicapMixed = "mixed"
	// HandicapBalanced: 平手, sente/gote balanced by the Swiss draw (Swiss
	// classes only).
	HandicapBalanced = "balanced"
)

// HandicapPolicies lists the 手合割 policies in display order.
var HandicapPolicies = []string{HandicapToss, HandicapTable, HandicapMixed, HandicapBalanced}

// Withdrawal policies of a class.
const (
	// WithdrawalForfeit: the withdrawing player's undecided games, and any
	// later game the draw still gives them (a pools block keeps its shape),
	// are recorded at once as forfeit losses (不戦敗), attributed to the
	// director who recorded the withdrawal.
	WithdrawalForfeit = "forfeit"
	// WithdrawalKeep: nothing is recorded for them; the desk enters each
	// game's result by hand.
	WithdrawalKeep = "keep"
)

// WithdrawalPolicies lists the withdrawal policies in display order.
var WithdrawalPolicies = []string{WithdrawalForfeit, WithdrawalKeep}

// Pools modes (pairing.PoolMode): blocks is for 2勝通過2敗失格 only.
var PoolModes = []string{string(pairing.PoolBlocks), string(pairing.PoolRecords)}

// RelationPolicies are never / avoid / ignore (pairing.Policy).
var RelationPolicies = []string{string(pairing.PolicyNever), string(pairing.PolicyAvoid), string(pairing.PolicyIgnore)}

// TiebreakNames are the Swiss tie-breaks after wins (pairing.Tiebreak).
var TiebreakNames = []string{string(pairing.TiebreakSolkoff), string(pairing.TiebreakSB), string(pairing.TiebreakDirect), string(pairing.TiebreakLot)}

// Relations is a class's policy per relation kind for its draws.
type Relations struct {
	Club           string `json:"club"`            // same club / 支部 / school
	MasterStudent  string `json:"master_student"`  // 師弟
	FellowDisciple string `json:"fellow_disciple"` // 兄弟弟子
	Family         string `json:"family"`          // 家族 (the registry's relatives)
}

// ClassSettings are a class's settings, stored as JSON in
// day_classes.settings. Every field has a default (DefaultSettings).
type ClassSettings struct {
	// Pools: N勝通過 (Wins) and M敗失格 (Losses), and the mode.
	Wins     int    `json:"wins"`
	Losses   int    `json:"losses"`
	PoolMode string `json:"pool_mode"`
	// Swiss: the number of rounds and the standings order after wins.
	Rounds    int      `json:"rounds"`
	Tiebreaks []string `json:"tiebreaks"`
	// RankMin and RankMax bound the declared ranks (段級位) the class takes,
	// both included; "" leaves that side open.
	RankMin string `json:"rank_min"`
	RankMax string `json:"rank_max"`
	// Handicap is the 手合割 policy; EvenGap its "up to N grades" (mixed).
	Handicap string `json:"handicap"`
	EvenGap  int    `json:"even_gap"`
	// Time control: each side's allowance and the byoyomi.
	AllowanceMinutes int `json:"allowance_minutes"`
	ByoyomiSeconds   int `json:"byoyomi_seconds"`
	// Relations kept apart in the draw.
	Relations Relations `json:"relations"`
	// Withdrawal is what a withdrawal does to the player's games.
	Withdrawal string `json:"withdrawal"`
	// Qualifiers is how many go on to the class's final knockout.
	Qualifiers int `json:"qualifiers"`
	// FirstBoard is the number of the class's first board, so classes
	// playing at once do not share board numbers (A級 from 1, B級 from 21).
	FirstBoard int `json:"first_board"`
	// Fee is the entry fee (参加費) in yen, 0 for none; FeeReduced a lower
	// fee the desk may take instead, 0 for none; FeeReducedFor says who
	// it is for (学生・女性・シニア, …), as the desk reads it.
	Fee             int    `json:"fee"`
	FeeReduced      int    `json:"fee_reduced"`
	FeeReducedFor   string `json:"fee_reduced_for,omitempty"`
	FeeReducedForEn string `json:"fee_reduced_for_en,omitempty"` // the same in English
}

// DefaultSettings are a new class's settings: 2勝通過2敗失格 in blocks,
// four Swiss rounds with ソルコフ, SB, direct encounter and lot, 振り駒,
// 20 minutes and 30-second byoyomi, clubs avoided and 師弟 / 兄弟弟子 /
// family avoided, forfeits on withdrawal, 8 qualifiers, boards from 1.
func DefaultSettings() ClassSettings {
	return ClassSettings{
		Wins: 2, Losses: 2, PoolMode: string(pairing.PoolBlocks),
		Rounds: 4, Tiebreaks: slices.Clone(TiebreakNames),
		Handicap: HandicapToss, EvenGap: 1,
		AllowanceMinutes: 20, ByoyomiSeconds: 30,
		Relations:  Relations{Club: "avoid", MasterStudent: "avoid", FellowDisciple: "avoid", Family: "avoid"},
		Withdrawal: WithdrawalForfeit, Qualifiers: 8, FirstBoard: 1,
	}
}

// ParseSettings reads stored settings over the defaults.
func ParseSettings(raw string) ClassSettings {
	s := DefaultSettings()
	_ = json.Unmarshal([]byte(raw), &s) // stored settings were validated when written
	return s
}

// ClassInput is the class form as typed: numbers stay text until checked,
// so a bad one is a message naming its field, never a crash.
type ClassInput struct {
	EventID          int64
	Name             string
	NameEn           string
	Position         string
	Format           string
	Wins             string
	Losses           string
	PoolMode         string
	Rounds           string
	Tiebreaks        []string
	RankMin          string
	RankMax          string
	Handicap         string
	EvenGap          string
	AllowanceMinutes string
	ByoyomiSeconds   string
	Club             string
	MasterStudent    string
	FellowDisciple   string
	Family           string
	Withdrawal       string
	Qualifiers       string
	FirstBoard       string
	Fee              string // yen; "" is none
	FeeReduced       string
	FeeReducedFor    string // who the reduced fee is for
	FeeReducedForEn  string
}

// InputOf is the form showing a class's stored values.
func InputOf(eventID int64, name, nameEn string, position int, format string, s ClassSettings) ClassInput {
	it := strconv.Itoa
	return ClassInput{
		EventID: eventID, Name: name, NameEn: nameEn, Position: it(position), Format: format,
		Wins: it(s.Wins), Losses: it(s.Losses), PoolMode: s.PoolMode, Rounds: it(s.Rounds), Tiebreaks: slices.Clone(s.Tiebreaks),
		RankMin: s.RankMin, RankMax: s.RankMax, Handicap: s.Handicap, EvenGap: it(s.EvenGap),
		AllowanceMinutes: it(s.AllowanceMinutes), ByoyomiSeconds: it(s.ByoyomiSeconds),
		Club: s.Relations.Club, MasterStudent: s.Relations.MasterStudent, FellowDisciple: s.Relations.FellowDisciple, Family: s.Relations.Family,
		Withdrawal: s.Withdrawal, Qualifiers: it(s.Qualifiers), FirstBoard: it(s.FirstBoard),
		Fee: it(s.Fee), FeeReduced: it(s.FeeReduced), FeeReducedFor: s.FeeReducedFor, FeeReducedForEn: s.FeeReducedForEn,
	}
}

// Limits of class settings.
const (
	maxRounds     = pairing.MaxSwissRounds
	maxAllowance  = 24 * 60
	maxByoyomi    = 600
	maxBoard      = 9999
	maxQualifiers = 1024
	maxPosition   = 999
	maxFee        = 1_000_000 // yen
	// maxFeeReducedFor is the longest "who the reduced fee is for".
	maxFeeReducedFor = 40
)

// intField reads a whole number in [lo, hi] or adds a field error.
func intField(v *office.ValidationError, field, s string, lo, hi int) int {
	s = strings.TrimSpace(s)
	n, err := strconv.Atoi(s)
	switch {
	case s == "":
		v.Add(0, field, "day.err.required", nil)
	case err != nil && !errors.Is(err, strconv.ErrRange):
		v.Add(0, field, "day.err.number", nil)
	case err != nil || n < lo || n > hi: // digits past int64 are out of range too
		v.Add(0, field, "day.err.range", map[string]any{"Min": lo, "Max": hi})
	default:
		return n
	}
	return 0
}

func choice(v *office.ValidationError, field, s string, allowed []string) string {
	s = strings.TrimSpace(s)
	if !slices.Contains(allowed, s) {
		v.Add(0, field, "day.err.choose", nil)
		return ""
	}
	return s
}

// rankField reads an optional rank bound; "" is open.
func rankField(v *office.ValidationError, field, s string) (string, *pairing.Rank) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", nil
	}
	r, err := pairing.ParseRank(s)
	if err != nil {
		v.Add(0, field, "day.err.rank", nil)
		return "", nil
	}
	return r.String(), &r
}

// check validates the form and returns the class row fields and settings.
func (in ClassInput) check() (name, nameEn string, position int, format string, s ClassSettings, v *office.ValidationError) {
	v = &office.ValidationError{}
	name, nameEn = office.NFC(strings.TrimSpace(in.Name)), office.NFC(strings.TrimSpace(in.NameEn))
	office.CheckName(v, "name", name, true)
	office.CheckName(v, "name_en", nameEn, false)
	position = 0
	if strings.TrimSpace(in.Position) != "" {
		position = intField(v, "position", in.Position, 0, maxPosition)
	}
	format = choice(v, "format", in.Format, Formats)
	s = DefaultSettings()
	switch format {
	case FormatPools:
		s.Wins = intField(v, "wins", in.Wins, 1, pairing.MaxPoolWins)
		s.Losses = intField(v, "losses", in.Losses, 1, pairing.MaxPoolWins)
		s.PoolMode = choice(v, "pool_mode", in.PoolMode, PoolModes)
		if s.PoolMode == string(pairing.PoolBlocks) && (s.Wins != 2 || s.Losses != 2) && v.FieldMessage("wins") == "" && v.FieldMessage("losses") == "" {
			v.Add(0, "pool_mode", "day.err.blocks_two_two", nil)
		}
	case FormatSwiss:
		s.Rounds = intField(v, "rounds", in.Rounds, 1, maxRounds)
		s.Tiebreaks = nil
		for _, t := range in.Tiebreaks {
			t = strings.TrimSpace(t)
			if t == "" {
				continue
			}
			if !slices.Contains(TiebreakNames, t) || slices.Contains(s.Tiebreaks, t) {
				v.Add(0, "tiebreaks", "day.err.tiebreaks", nil)
				break
			}
			s.Tiebreaks = append(s.Tiebreaks, t)
		}
		if len(s.Tiebreaks) == 0 {
			s.Tiebreaks = slices.Clone(TiebreakNames)
		}
	}
	var lo, hi *pairing.Rank
	s.RankMin, lo = rankField(v, "rank_min", in.RankMin)
	s.RankMax, hi = rankField(v, "rank_max", in.RankMax)
	if lo != nil && hi != nil && lo.Step > hi.Step {
		v.Add(0, "rank_max", "day.err.rank_order", nil)
	}
	s.Handicap = choice(v, "handicap", in.Handicap, HandicapPolicies)
	if s.Handicap == HandicapBalanced && format != FormatSwiss {
		v.Add(0, "handicap", "day.err.balanced_swiss", nil)
	}
	s.EvenGap = 1
	if s.Handicap == HandicapMixed {
		s.EvenGap = intField(v, "even_gap", in.EvenGap, 0, 30)
	}
	s.AllowanceMinutes = intField(v, "allowance_minutes", in.AllowanceMinutes, 0, maxAllowance)
	s.ByoyomiSeconds = intField(v, "byoyomi_seconds", in.ByoyomiSeconds, 0, maxByoyomi)
	s.Relations = Relations{
		Club:           choice(v, "club", in.Club, RelationPolicies),
		MasterStudent:  choice(v, "master_student", in.MasterStudent, RelationPolicies),
		FellowDisciple: choice(v, "fellow_disciple", in.FellowDisciple, RelationPolicies),
		Family:         choice(v, "family", in.Family, RelationPolicies),
	}
	s.Withdrawal = choice(v, "withdrawal", in.Withdrawal, WithdrawalPolicies)
	s.Qualifiers = intField(v, "qualifiers", in.Qualifiers, 0, maxQualifiers)
	s.FirstBoard = intField(v, "first_board", in.FirstBoard, 1, maxBoard)
	if strings.TrimSpace(in.Fee) != "" {
		s.Fee = intField(v, "fee", in.Fee, 0, maxFee)
	}
	if strings.TrimSpace(in.FeeReduced) != "" {
		s.FeeReduced = intField(v, "fee_reduced", in.FeeReduced, 0, maxFee)
	}
	if s.FeeReduced > 0 && s.Fee > 0 && s.FeeReduced >= s.Fee && v.FieldMessage("fee_reduced") == "" {
		v.Add(0, "fee_reduced", "day_fee.err.reduced_not_lower", nil)
	}
	s.FeeReducedFor, s.FeeReducedForEn = strings.TrimSpace(in.FeeReducedFor), strings.TrimSpace(in.FeeReducedForEn)
	for _, f := range [][2]string{{"fee_reduced_for", s.FeeReducedFor}, {"fee_reduced_for_en", s.FeeReducedForEn}} {
		if utf8.RuneCountInString(f[1]) > maxFeeReducedFor {
			v.Add(0, f[0], "day_fee.err.too_long", map[string]any{"Max": maxFeeReducedFor})
		}
	}
	return name, nameEn, position, format, s, v
}

// Takes reports whether a declared rank falls in the class's range.
func (s ClassSettings) Takes(r pairing.Rank) bool {
	if s.RankMin != "" {
		if lo, err := pairing.ParseRank(s.RankMin); err == nil && r.Step < lo.Step {
			return false
		}
	}
	if s.RankMax != "" {
		if hi, err := pairing.ParseRank(s.RankMax); err == nil && r.Step > hi.Step {
			return false
		}
	}
	return true
}

// poolsRelations and swissRelations are the class policy in each draw's
// terms.
func (s ClassSettings) poolsRelations() pairing.RelationPolicy {
	r := s.Relations
	return pairing.RelationPolicy{Club: pairing.Policy(r.Club), MasterStudent: pairing.Policy(r.MasterStudent),
		FellowDisciple: pairing.Policy(r.FellowDisciple), Family: pairing.Policy(r.Family)}
}

func (s ClassSettings) swissRelations() pairing.SwissRelations {
	r := s.Relations
	return pairing.SwissRelations{Club: pairing.Relation(r.Club), MasterStudent: pairing.Relation(r.MasterStudent),
		FellowDisciples: pairing.Relation(r.FellowDisciple), Family: pairing.Relation(r.Family)}
}

func (s ClassSettings) tiebreaks() []pairing.Tiebreak {
	out := make([]pairing.Tiebreak, 0, len(s.Tiebreaks))
	for _, t := range s.Tiebreaks {
		out = append(out, pairing.Tiebreak(t))
	}
	return out
}
