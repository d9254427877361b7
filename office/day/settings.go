package day

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

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
	// ThreePawnToss allows the simplified 振り駒 of three 歩 (003: 歩を五枚
	// 又は簡易的に行う場合は三枚) at this class's boards; off, a toss is five.
	ThreePawnToss bool `json:"three_pawn_toss,omitempty"`
}

// TossRule is the class's 振り駒 rule: five 歩, or three where allowed.
func (s ClassSettings) TossRule() pairing.TossRule {
	return pairing.TossRule{AllowThree: s.ThreePawnToss}
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
	Name             string   `field:"name" validate:"storable,required,max=200" msg:"events.err"`
	NameEn           string   `field:"name_en" validate:"storable,max=200" msg:"events.err"`
	Position         string   `field:"position" validate:"omitempty,int,intrange=0~999" msg:"day.err,intrange=range"`
	Format           string   `field:"format" validate:"oneof=pools swiss knockout" msg:"day.err"`
	Wins             string   `field:"wins" validate:"required,int,intrange=1~10" msg:"day.err,intrange=range"`   // pools only
	Losses           string   `field:"losses" validate:"required,int,intrange=1~10" msg:"day.err,intrange=range"` // pools only
	PoolMode         string   `field:"pool_mode" validate:"oneof=blocks records" msg:"day.err"`                   // pools only
	Rounds           string   `field:"rounds" validate:"required,int,intrange=1~30" msg:"day.err,intrange=range"` // swiss only
	Tiebreaks        []string // swiss only
	RankMin          string
	RankMax          string
	Handicap         string `field:"handicap" validate:"oneof=toss table mixed balanced" msg:"day.err"`
	EvenGap          string `field:"even_gap" validate:"required,int,intrange=0~30" msg:"day.err,intrange=range"` // mixed only
	AllowanceMinutes string `field:"allowance_minutes" validate:"required,int,intrange=0~1440" msg:"day.err,intrange=range"`
	ByoyomiSeconds   string `field:"byoyomi_seconds" validate:"required,int,intrange=0~600" msg:"day.err,intrange=range"`
	Club             string `field:"club" validate:"oneof=never avoid ignore" msg:"day.err"`
	MasterStudent    string `field:"master_student" validate:"oneof=never avoid ignore" msg:"day.err"`
	FellowDisciple   string `field:"fellow_disciple" validate:"oneof=never avoid ignore" msg:"day.err"`
	Family           string `field:"family" validate:"oneof=never avoid ignore" msg:"day.err"`
	Withdrawal       string `field:"withdrawal" validate:"oneof=forfeit keep" msg:"day.err"`
	Qualifiers       string `field:"qualifiers" validate:"required,int,intrange=0~1024" msg:"day.err,intrange=range"`
	FirstBoard       string `field:"first_board" validate:"required,int,intrange=1~9999" msg:"day.err,intrange=range"`
	Fee              string `field:"fee" validate:"omitempty,int,intrange=0~1000000" msg:"day.err,intrange=range"` // yen; "" is none
	FeeReduced       string `field:"fee_reduced" validate:"omitempty,int,intrange=0~1000000" msg:"day.err,intrange=range"`
	FeeReducedFor    string `field:"fee_reduced_for" validate:"storable,max=40" msg:"day_fee.err"` // who the reduced fee is for
	FeeReducedForEn  string `field:"fee_reduced_for_en" validate:"storable,max=40" msg:"day_fee.err"`
	ThreePawnToss    bool   `field:"three_pawn_toss"` // the simplified three-歩 toss allowed (003)
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
		ThreePawnToss: s.ThreePawnToss,
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

// num is a whole number a tag (int, intrange) has checked; 0 otherwise.
func num(s string) int {
	n, _ := strconv.Atoi(strings.TrimSpace(s))
	return n
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

// trimmed is in with every text field trimmed (names also in NFC).
func (in ClassInput) trimmed() ClassInput {
	t := strings.TrimSpace
	in.Name, in.NameEn = office.NFC(t(in.Name)), office.NFC(t(in.NameEn))
	for _, p := range []*string{&in.Position, &in.Format, &in.Wins, &in.Losses, &in.PoolMode, &in.Rounds, &in.Handicap, &in.EvenGap,
		&in.AllowanceMinutes, &in.ByoyomiSeconds, &in.Club, &in.MasterStudent, &in.FellowDisciple, &in.Family, &in.Withdrawal,
		&in.Qualifiers, &in.FirstBoard, &in.Fee, &in.FeeReduced, &in.FeeReducedFor, &in.FeeReducedForEn} {
		*p = t(*p)
	}
	return in
}

// check validates the form and returns the class row fields and settings.
// The tags state every field's rules; the fields a format or 手合割 policy
// does not use (wins, losses and pool mode outside pools, rounds outside
// Swiss, the even gap outside mixed) are not judged.
func (in ClassInput) check() (name, nameEn string, position int, format string, s ClassSettings, v *office.ValidationError) {
	in = in.trimmed()
	all := &office.ValidationError{}
	office.CheckInput(all, 0, in)
	v = &office.ValidationError{}
	unused := map[string]bool{
		"wins": in.Format != FormatPools, "losses": in.Format != FormatPools, "pool_mode": in.Format != FormatPools,
		"rounds": in.Format != FormatSwiss, "even_gap": in.Handicap != HandicapMixed,
	}
	for _, f := range all.Fields {
		if !unused[f.Field] {
			v.Fields = append(v.Fields, f)
		}
	}
	ok := func(field, s string) string {
		if v.FieldMessage(field) != "" {
			return ""
		}
		return s
	}
	name, nameEn = in.Name, in.NameEn
	position = num(in.Position)
	format = ok("format", in.Format)
	s = DefaultSettings()
	switch format {
	case FormatPools:
		s.Wins, s.Losses, s.PoolMode = num(in.Wins), num(in.Losses), ok("pool_mode", in.PoolMode)
		// domain rule, not a tag: blocks are for 2勝通過2敗失格 only.
		if s.PoolMode == string(pairing.PoolBlocks) && (s.Wins != 2 || s.Losses != 2) && v.FieldMessage("wins") == "" && v.FieldMessage("losses") == "" {
			v.Add(0, "pool_mode", "day.err.blocks_two_two", nil)
		}
	case FormatSwiss:
		s.Rounds = num(in.Rounds)
		s.Tiebreaks = nil
		// domain rule, not a tag: tie-breaks are a list, each named once.
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
	// domain rule, not a tag: rank bounds follow the rank grammar, lowest first.
	var lo, hi *pairing.Rank
	s.RankMin, lo = rankField(v, "rank_min", in.RankMin)
	s.RankMax, hi = rankField(v, "rank_max", in.RankMax)
	if lo != nil && hi != nil && lo.Step > hi.Step {
		v.Add(0, "rank_max", "day.err.rank_order", nil)
	}
	s.Handicap = ok("handicap", in.Handicap)
	// domain rule, not a tag: balanced 手合割 needs Swiss pairings.
	if s.Handicap == HandicapBalanced && format != FormatSwiss {
		v.Add(0, "handicap", "day.err.balanced_swiss", nil)
	}
	s.EvenGap = 1
	if s.Handicap == HandicapMixed {
		s.EvenGap = num(in.EvenGap)
	}
	s.AllowanceMinutes, s.ByoyomiSeconds = num(in.AllowanceMinutes), num(in.ByoyomiSeconds)
	s.Relations = Relations{
		Club: ok("club", in.Club), MasterStudent: ok("master_student", in.MasterStudent),
		FellowDisciple: ok("fellow_disciple", in.FellowDisciple), Family: ok("family", in.Family),
	}
	s.Withdrawal = ok("withdrawal", in.Withdrawal)
	s.Qualifiers, s.FirstBoard = num(in.Qualifiers), num(in.FirstBoard)
	if v.FieldMessage("fee") == "" {
		s.Fee = num(in.Fee)
	}
	if v.FieldMessage("fee_reduced") == "" {
		s.FeeReduced = num(in.FeeReduced)
	}
	// domain rule, not a tag: the reduced fee is lower than the full one.
	if s.FeeReduced > 0 && s.Fee > 0 && s.FeeReduced >= s.Fee && v.FieldMessage("fee_reduced") == "" {
		v.Add(0, "fee_reduced", "day_fee.err.reduced_not_lower", nil)
	}
	s.FeeReducedFor, s.FeeReducedForEn = in.FeeReducedFor, in.FeeReducedForEn
	s.ThreePawnToss = in.ThreePawnToss
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
		FellowDisciple: pairing.Relation(r.FellowDisciple), Family: pairing.Relation(r.Family)}
}

func (s ClassSettings) tiebreaks() []pairing.Tiebreak {
	out := make([]pairing.Tiebreak, 0, len(s.Tiebreaks))
	for _, t := range s.Tiebreaks {
		out = append(out, pairing.Tiebreak(t))
	}
	return out
}
