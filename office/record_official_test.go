package office

import (
	"strings"
	"testing"
	"time"

	"kisen/adjudication"
	"kisen/rules/kifu"
	"kisen/store"
)

// TestOfficial_EveryStoredResultReadsAsTheRecordsEnding: each result kind
// a game can have in force — as the adjudication room, rulings, the
// knockout and the day desk store it — maps to the record's ending and the
// words of its 公式結果 comment: 投了, 詰み, 時間切れ, the fouls (対局規則
// 第10条, D-X2..X4, D-K1) with the foul and its move, 入玉宣言 (D-J3),
// 不戦 and 棄権, 千日手 and 持将棋 replayed (D-R1), and the undecided and void.
func TestOfficial_EveryStoredResultReadsAsTheRecordsEnding(t *testing.T) {
	t.Parallel()
	even := store.Game{Handicap: "平手"}
	cases := []struct {
		name     string
		game     store.Game
		f        officialFacts
		moves    bool
		outcome  kifu.Outcome
		kind     kifu.EndKind
		words    string
		notWords string
	}{
		{"resignation", even, decided(ResultGoteWin, "resignation", ""), true, kifu.OutcomeGoteWin, kifu.EndResign, "後手の勝ち（投了）", ""},
		{"checkmate", even, decided(ResultSenteWin, "checkmate", ""), true, kifu.OutcomeSenteWin, kifu.EndCheckmate, "先手の勝ち（詰み）", ""},
		{"time", even, decided(ResultSenteWin, "time_forfeit", ""), true, kifu.OutcomeSenteWin, kifu.EndTimeUp, "先手の勝ち（時間切れ）", ""},
		{"foul after the game", even, decided(ResultSenteWin, "foul_after_game", `{"foul":"nifu","ply":13}`), true,
			kifu.OutcomeSenteWin, kifu.EndIllegalAction, "後手の反則負け（終局後に見つかった反則：二歩、13手目）", ""},
		{"foul during the game", even, decided(ResultGoteWin, "foul", `{"foul":"uchifuzume","ply":41}`), true,
			kifu.OutcomeGoteWin, kifu.EndIllegalAction, "先手の反則負け（対局中の反則：打ち歩詰め、41手目）", ""},
		{"arbiter's foul loss", even, decided(ResultGoteWin, "arbiter_foul_loss", "{}"), true,
			kifu.OutcomeGoteWin, kifu.EndIllegalAction, "先手の反則負け（立会人による反則負けの宣告）", ""},
		{"perpetual check", even, decided(ResultGoteWin, "perpetual_check", `{"foul":"perpetual_check","ply":80}`), true,
			kifu.OutcomeGoteWin, kifu.EndIllegalAction, "先手の反則負け（連続王手の千日手）", "、80手目"},
		{"declaration", even, decided(ResultSenteWin, "declaration_win", ""), true, kifu.OutcomeSenteWin, kifu.EndDeclareWin, "先手の勝ち（入玉宣言）", ""},
		{"failed declaration", even, decided(ResultSenteWin, "declaration_failed", ""), true,
			kifu.OutcomeSenteWin, kifu.EndIllegalAction, "後手の反則負け（入玉宣言の条件不足）", ""},
		{"forfeit", even, decided(ResultGoteWin, "forfeit", ""), false, kifu.OutcomeGoteWin, kifu.EndForfeitWin, "後手の不戦勝（先手の不戦敗）", ""},
		{"withdrawal", even, decided(ResultSenteWin, "withdrawal", ""), false, kifu.OutcomeSenteWin, kifu.EndForfeitWin, "先手の不戦勝（後手の棄権）", ""},
		{"both absent", even, decided(ResultBothLose, "double_forfeit", ""), false, kifu.OutcomeBothLose, kifu.EndNone, "両者の負け（両者不戦）", ""},
		{"sennichite", even, decided(ResultRedo, "sennichite", ""), true, kifu.OutcomeNoResult, kifu.EndSennichite, "千日手により指し直し", ""},
		{"jishogi", even, decided(ResultRedo, "jishogi_redo", ""), true, kifu.OutcomeNoResult, kifu.EndJishogi, "持将棋により指し直し", ""},
		{"move limit", even, decided(ResultRedo, "max_moves", ""), true, kifu.OutcomeNoResult, kifu.EndMaxMoves, "手数の上限による持将棋により指し直し", ""},
		{"redo limit", even, decided(ResultGoteWin, "redo_limit_gote_wins", ""), true, kifu.OutcomeGoteWin, kifu.EndNone, "後手の勝ち（指し直しの上限）", ""},
		{"players' report", even, decided(ResultSenteWin, "players_report", ""), true, kifu.OutcomeSenteWin, kifu.EndNone, "先手の勝ち", "（"},
		{"a win without moves is no 投了", even, decided(ResultSenteWin, "resignation", ""), false, kifu.OutcomeSenteWin, kifu.EndNone, "先手の勝ち（投了）", ""},
		{"handicap sides", store.Game{Handicap: "香落ち"}, decided(ResultGoteWin, "resignation", ""), true, kifu.OutcomeGoteWin, kifu.EndResign, "上手の勝ち（投了）", ""},
		{"pending", even, decided(ResultPending, "disputed_foul", ""), true, kifu.OutcomeUnknown, kifu.EndNone, "未定（反則の有無を立会人が決める）", ""},
		{"undone", even, decided(ResultPending, ReasonUndo, ""), true, kifu.OutcomeUnknown, kifu.EndNone, "未定", "（"},
		{"no result yet", even, officialFacts{}, true, kifu.OutcomeUnknown, kifu.EndNone, "未定", ""},
		{"void", even, officialFacts{result: store.ResultVersion{GameResult: store.GameResult{Result: ResultSenteWin, Reason: "resignation"}}, ok: true, void: true},
			true, kifu.OutcomeUnknown, kifu.EndNone, "無効（訂正により取り消された対局）", ""},
	}
	for _, c := range cases {
		got := official(c.game, c.f, c.moves)
		if got.Outcome != c.outcome || got.Kind != c.kind || got.Words != c.words {
			t.Errorf("%s: %+v, want %s %s %q", c.name, got, c.outcome, c.kind, c.words)
		}
		if c.notWords != "" && strings.Contains(got.Words, c.notWords) {
			t.Errorf("%s: words %q hold %q", c.name, got.Words, c.notWords)
		}
	}
}

func decided(result, reason, outcome string) officialFacts {
	if outcome == "" {
		outcome = "{}"
	}
	return officialFacts{ok: true, result: store.ResultVersion{GameResult: store.GameResult{Result: result, Reason: reason, Outcome: outcome}}}
}

// TestTimeControlWords_D_T3: the time control as KIF (持ち時間 / 秒読み)
// and CSA V3.0 ($TIME seconds+byoyomi+increment) write it; 切れ負け when
// there is no byoyomi (D-T3, 001 第5条).
func TestTimeControlWords_D_T3(t *testing.T) {
	t.Parallel()
	cases := []struct {
		tc                    adjudication.TimeControl
		allowance, byoyomi, c string
	}{
		{adjudication.DefaultTimeControl(), "各6時間", "60秒", "21600+60+0"},
		{adjudication.TimeControl{Allowance: adjudication.Duration(90 * time.Minute), Timing: adjudication.ChessClock, Byoyomi: adjudication.Byoyomi30},
			"各1時間30分", "30秒", "5400+30+0"},
		{adjudication.TimeControl{Allowance: adjudication.Duration(10 * time.Minute), Timing: adjudication.ChessClock, Byoyomi: adjudication.ByoyomiNone},
			"各10分", "なし（切れ負け）", "600+0+0"},
		{adjudication.TimeControl{Allowance: adjudication.Duration(3 * time.Hour), Timing: adjudication.Stopwatch, Byoyomi: adjudication.Byoyomi60},
			"各3時間（ストップウォッチ）", "60秒", "10800+60+0"},
		{adjudication.TimeControl{Timing: adjudication.ChessClock, Byoyomi: adjudication.Byoyomi30}, "なし（初手から秒読み）", "30秒", "0+30+0"},
	}
	for _, c := range cases {
		a, b, csa := timeControlWords(c.tc)
		if a != c.allowance || b != c.byoyomi || csa != c.c {
			t.Errorf("%+v: %q %q %q, want %q %q %q", c.tc, a, b, csa, c.allowance, c.byoyomi, c.c)
		}
	}
}

// TestTimeControlOf_RedoGamesTakeTheirChainsAllowance: a redo game is
// played under the allowance set on the game its chain began with, as
// gameTimeControl reads it for adjudication (D-R2).
func TestTimeControlOf_RedoGamesTakeTheirChainsAllowance(t *testing.T) {
	t.Parallel()
	one := int64(1)
	games := map[int64]store.Game{1: {ID: 1, SenteAllowanceS: 3 * 3600, GoteAllowanceS: 3 * 3600}, 2: {ID: 2, RedoOfID: &one}}
	if got := timeControlOf(adjudication.DefaultTimeControl(), games[2], games).Allowance.D(); got != 3*time.Hour {
		t.Errorf("redo game: %v, want 3h", got)
	}
	if got := timeControlOf(adjudication.DefaultTimeControl(), store.Game{ID: 3}, games).Allowance.D(); got != 6*time.Hour {
		t.Errorf("a game without its own allowance: %v, want the event's 6h", got)
	}
}
