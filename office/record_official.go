package office

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"kisen/adjudication"
	"kisen/rules/kifu"
	"kisen/store"
)

// Records with the official result (issue 24 item 6, docs/downloads.md):
// a downloaded KIF or CSA names the registered players, the event, the
// date and the time control, and ends in the result in force — the
// decided outcome and its reason after rulings and corrections — rather
// than in whatever the uploaded record said. The uploaded header's values
// that this replaces are kept as comments.

// officialFacts is what a downloaded record states about the game besides
// its moves: the result in force (ok false: none yet), whether the game is
// void, and the time control it was played under.
type officialFacts struct {
	result store.ResultVersion
	ok     bool
	void   bool
	time   adjudication.TimeControl
}

// officialReason is how a stored reason code reads in a record: the
// terminal kind that states it and the words of the 公式結果 comment.
type officialReason struct {
	kind  kifu.EndKind
	words string
}

// officialReasons maps the reason codes results are stored with
// (adjudication.Reason, the knockout and day codes) to the record's words.
// A code not listed states only who won (no terminal word).
var officialReasons = map[string]officialReason{
	string(adjudication.ReasonResignation):      {kifu.EndResign, "投了"},
	"resign":                                    {kifu.EndResign, "投了"},
	string(adjudication.ReasonCheckmate):        {kifu.EndCheckmate, "詰み"},
	string(adjudication.ReasonTimeForfeit):      {kifu.EndTimeUp, "時間切れ"},
	string(adjudication.ReasonForfeit):          {kifu.EndForfeitWin, "不戦"},
	ReasonWithdrawal:                            {kifu.EndForfeitWin, "棄権"},
	string(adjudication.ReasonDoubleForfeit):    {kifu.EndNone, "両者不戦"},
	string(adjudication.ReasonFoul):             {kifu.EndIllegalAction, "対局中の反則"},
	string(adjudication.ReasonFoulAfterGame):    {kifu.EndIllegalAction, "終局後に見つかった反則"},
	string(adjudication.ReasonArbiterFoulLoss):  {kifu.EndIllegalAction, "立会人による反則負けの宣告"},
	string(adjudication.ReasonPerpetualCheck):   {kifu.EndIllegalAction, "連続王手の千日手"},
	string(adjudication.ReasonDeclarationFail):  {kifu.EndIllegalAction, "入玉宣言の条件不足"},
	string(adjudication.ReasonDeclarationWin):   {kifu.EndDeclareWin, "入玉宣言"},
	string(adjudication.ReasonJishogiPoints):    {kifu.EndNone, "持将棋の点数"},
	string(adjudication.ReasonJishogiTieGote):   {kifu.EndNone, "持将棋の27点同点（後手の勝ち）"},
	string(adjudication.ReasonRedoLimitGote):    {kifu.EndNone, "指し直しの上限"},
	string(adjudication.ReasonSennichite):       {kifu.EndSennichite, "千日手"},
	string(adjudication.ReasonJishogiRedo):      {kifu.EndJishogi, "持将棋"},
	"jishogi":                                   {kifu.EndJishogi, "持将棋"},
	string(adjudication.ReasonDeclarationRedo):  {kifu.EndJishogi, "入玉宣言による持将棋"},
	string(adjudication.ReasonMaxMoves):         {kifu.EndMaxMoves, "手数の上限による持将棋"},
	string(adjudication.ReasonDisputedFoul):     {kifu.EndNone, "反則の有無を立会人が決める"},
	string(adjudication.ReasonRedoLimitToss):    {kifu.EndNone, "指し直しの上限（振り駒で決める）"},
	string(adjudication.ReasonRedoLimitArbiter): {kifu.EndNone, "指し直しの上限（立会人が決める）"},
	reasonFoulLossSuperseded:                    {kifu.EndNone, "反則負けの宣告が変更された"},
}

// isForfeitReason reports a result given without the game being played.
func isForfeitReason(code string) bool {
	return code == string(adjudication.ReasonForfeit) || code == ReasonWithdrawal || code == string(adjudication.ReasonDoubleForfeit)
}

// official is the result a downloaded record states for game g. moves
// tells whether the record has any move: a win given without one is
// written with a word only when it is a forfeit (a 投了 before the first
// move would be invented).
func official(g store.Game, f officialFacts, moves bool) kifu.Official {
	handicap := g.Handicap != "" && g.Handicap != "平手"
	side := func(sente bool) string {
		switch {
		case handicap && sente:
			return "下手"
		case handicap:
			return "上手"
		case sente:
			return "先手"
		}
		return "後手"
	}
	if f.void {
		return kifu.Official{Outcome: kifu.OutcomeUnknown, Words: "無効（訂正により取り消された対局）"}
	}
	if !f.ok {
		return kifu.Official{Outcome: kifu.OutcomeUnknown, Words: "未定"}
	}
	rv := f.result
	why, known := officialReasons[rv.Reason]
	var oc adjudication.Outcome
	_ = json.Unmarshal([]byte(rv.Outcome), &oc) // "{}" or the adjudication's outcome; unreadable adds nothing
	detail := why.words
	if known && why.kind == kifu.EndIllegalAction && oc.Foul != "" && oc.Foul != adjudication.FoulPerpetualCheck {
		if ja := oc.Foul.Japanese(); ja != "" {
			detail += "：" + ja
		}
		if oc.Ply > 0 {
			detail += fmt.Sprintf("、%d手目", oc.Ply)
		}
	}
	switch rv.Result {
	case ResultSenteWin, ResultGoteWin:
		senteWon := rv.Result == ResultSenteWin
		out := kifu.Official{Outcome: kifu.OutcomeGoteWin, Kind: why.kind}
		if senteWon {
			out.Outcome = kifu.OutcomeSenteWin
		}
		winner, loser := side(senteWon), side(!senteWon)
		switch {
		case !known:
			out.Words = winner + "の勝ち"
		case why.kind == kifu.EndIllegalAction:
			out.Words = loser + "の反則負け（" + detail + "）"
		case why.kind == kifu.EndForfeitWin && rv.Reason == ReasonWithdrawal:
			out.Words = winner + "の不戦勝（" + loser + "の棄権）"
		case why.kind == kifu.EndForfeitWin:
			out.Words = winner + "の不戦勝（" + loser + "の不戦敗）"
		default:
			out.Words = winner + "の勝ち（" + detail + "）"
		}
		if !moves && !isForfeitReason(rv.Reason) {
			out.Kind = kifu.EndNone
		}
		return out
	case ResultRedo:
		out := kifu.Official{Outcome: kifu.OutcomeNoResult, Kind: why.kind, Words: "指し直し"}
		if known {
			out.Words = detail + "により指し直し"
		}
		if !moves {
			out.Kind = kifu.EndNone
		}
		return out
	case ResultBothLose:
		return kifu.Official{Outcome: kifu.OutcomeBothLose, Words: "両者の負け（" + cmpOr(why.words, "両者不戦") + "）"}
	}
	if known {
		return kifu.Official{Outcome: kifu.OutcomeUnknown, Words: "未定（" + why.words + "）"}
	}
	return kifu.Official{Outcome: kifu.OutcomeUnknown, Words: "未定"}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// timeControlWords writes a time control as KIF headers say it (持ち時間：各6時間,
// 秒読み：60秒 or なし（切れ負け）) and as CSA V3.0's $TIME (seconds of
// allowance + byoyomi + increment: 21600+60+0).
func timeControlWords(tc adjudication.TimeControl) (allowance, byoyomi, csa string) {
	a := tc.Allowance.D()
	switch {
	case a <= 0:
		allowance = "なし（初手から秒読み）"
	default:
		h, m, s := int(a/time.Hour), int(a%time.Hour/time.Minute), int(a%time.Minute/time.Second)
		var b strings.Builder
		b.WriteString("各")
		if h > 0 {
			fmt.Fprintf(&b, "%d時間", h)
		}
		if m > 0 {
			fmt.Fprintf(&b, "%d分", m)
		}
		if s > 0 {
			fmt.Fprintf(&b, "%d秒", s)
		}
		allowance = b.String()
	}
	if tc.Timing == adjudication.Stopwatch {
		allowance += "（ストップウォッチ）"
	}
	p := tc.Byoyomi.Period()
	if p > 0 {
		byoyomi = fmt.Sprintf("%d秒", int(p/time.Second))
	} else {
		byoyomi = "なし（切れ負け）"
	}
	csa = fmt.Sprintf("%d+%d+0", int(a/time.Second), int(p/time.Second))
	return allowance, byoyomi, csa
}

// timeControlOf is game g's time control: the event's, with the allowance
// set on the game (or on the game its redo chain began with) when both
// sides have the same — gameTimeControl, reading the chain from games.
func timeControlOf(settings adjudication.TimeControl, g store.Game, games map[int64]store.Game) adjudication.TimeControl {
	root := g
	for range 1000 { // a longer chain is corrupt data
		if root.RedoOfID == nil {
			break
		}
		parent, ok := games[*root.RedoOfID]
		if !ok {
			break
		}
		root = parent
	}
	if root.SenteAllowanceS > 0 && root.SenteAllowanceS == root.GoteAllowanceS {
		cand := settings
		cand.Allowance = adjudication.Duration(time.Duration(root.SenteAllowanceS) * time.Second)
		if cand.Validate() == nil {
			return cand
		}
	}
	return settings
}

// setHeader sets key to value, keeping a different uploaded value as a
// comment line (KIF #, CSA ') named 棋譜の<key> so nothing is lost.
func setHeader(h *kifu.Header, key, value string) {
	if value == "" {
		return
	}
	if old := strings.TrimSpace(h.Value(key)); old != "" && old != value {
		h.Add("", "棋譜の"+key+"："+old)
	}
	h.Set(key, value)
}

// dropHeader removes key, keeping an uploaded value as a comment.
func dropHeader(h *kifu.Header, key string) {
	var kept, notes []kifu.Field
	for _, f := range h.Fields {
		if f.Key != key {
			kept = append(kept, f)
			continue
		}
		if v := strings.TrimSpace(f.Value); v != "" {
			notes = append(notes, kifu.Field{Value: "棋譜の" + key + "：" + v})
		}
	}
	h.Fields = append(kept, notes...)
}
