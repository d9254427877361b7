package kifu

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// officialBase is a record with plies moves (plies 0, 2 or 3: Sente, Sente,
// Gote to move at the end) ending in the KIF word end ("" for none).
func officialBase(t *testing.T, plies int, end string) *Record {
	t.Helper()
	moves := []string{"   1 ７六歩(77)", "   2 ３四歩(33)", "   3 ２六歩(27)"}[:plies]
	text := "手合割：平手\n先手：甲\n後手：乙\n手数----指手---------消費時間--\n" + strings.Join(moves, "\n") + "\n"
	if end != "" {
		text += fmt.Sprintf("%4d %s\n", plies+1, end)
	}
	return mustRead(t, FormatKIF, text)
}

func hasComment(cs []string, want string) bool { return slices.Contains(cs, want) }

// allComments gathers every comment of the record's main line, in order.
func allComments(r *Record) []string {
	out := slices.Clone(r.StartComments)
	for _, n := range r.Main.Nodes {
		out = append(out, n.Comments...)
	}
	if r.Main.End != nil {
		out = append(out, r.Main.End.Comments...)
	}
	return out
}

// TestOfficial_D_X4_EachResultKindRoundTripsInKIFAndCSA: every kind of
// official result (投了, 詰み, 時間切れ, 反則負け during and after the game
// — 対局規則 第10条 —, 入玉宣言 (D-J3), 不戦勝/不戦敗, 千日手 and 持将棋 that
// are replayed (D-R1), 中断), set on a record with either side to move,
// is written in KIF and CSA and read back to the same winner and reason;
// the official comment and the record's replaced ending survive too.
func TestOfficial_D_X4_EachResultKindRoundTripsInKIFAndCSA(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		plies   int
		end     string // the record's own ending
		o       Official
		reason  string // kifu reason read back ("" = no terminal word)
		kifWord string // the terminal word in the KIF ("" = none)
		closing string // the KIF closing line ("" = none)
		csaWord string // the CSA line that ends the game
	}{
		{"resign gote", 2, "投了", Official{OutcomeGoteWin, EndResign, "後手の勝ち（投了）"},
			"resign", "投了", "まで2手で後手の勝ち", "%TORYO"},
		{"resign kept from record", 3, "投了", Official{OutcomeSenteWin, EndNone, "先手の勝ち"},
			"resign", "投了", "まで3手で先手の勝ち", "%TORYO"},
		{"checkmate", 3, "", Official{OutcomeSenteWin, EndCheckmate, "先手の勝ち（詰み）"},
			"checkmate", "詰み", "まで3手で詰みにより先手の勝ち", "%TSUMI"},
		{"time up", 2, "中断", Official{OutcomeGoteWin, EndTimeUp, "後手の勝ち（時間切れ）"},
			"time_up", "切れ負け", "まで2手で時間切れにより後手の勝ち", "%TIME_UP"},
		{"foul by the side to move", 2, "投了", Official{OutcomeGoteWin, EndIllegalAction, "先手の反則負け（対局中の反則：二歩）"},
			"illegal_move", "反則負け", "まで2手で先手の反則負け", "%ILLEGAL_MOVE"},
		{"foul after the game, other side", 2, "投了", Official{OutcomeSenteWin, EndIllegalAction, "後手の反則負け（終局後に見つかった反則：二歩）"},
			"illegal_action", "反則勝ち", "まで2手で後手の反則負け", "%-ILLEGAL_ACTION"},
		{"foul ruling, sente loses, gote to move", 3, "投了", Official{OutcomeGoteWin, EndIllegalMove, "先手の反則負け（立会人による反則負けの宣告）"},
			"illegal_action", "反則勝ち", "まで3手で先手の反則負け", "%+ILLEGAL_ACTION"},
		{"declaration", 3, "", Official{OutcomeGoteWin, EndDeclareWin, "後手の勝ち（入玉宣言）"},
			"declaration", "入玉勝ち", "まで3手で入玉宣言により後手の勝ち", "%KACHI"},
		{"forfeit win, no moves", 0, "", Official{OutcomeSenteWin, EndForfeitWin, "先手の不戦勝"},
			"forfeit_win", "不戦勝", "まで0手で先手の不戦勝", "'終局：不戦勝"},
		{"forfeit loss, no moves", 0, "", Official{OutcomeGoteWin, EndForfeitLoss, "後手の不戦勝"},
			"forfeit_loss", "不戦敗", "まで0手で先手の不戦敗", "'終局：不戦敗"},
		{"sennichite, replayed", 3, "", Official{OutcomeNoResult, EndSennichite, "千日手（指し直し）"},
			"sennichite", "千日手", "まで3手で千日手", "%SENNICHITE"},
		{"jishogi, replayed", 2, "投了", Official{OutcomeNoResult, EndJishogi, "持将棋（指し直し）"},
			"jishogi", "持将棋", "まで2手で持将棋", "%JISHOGI"},
		{"suspended", 2, "", Official{OutcomeSuspended, EndAbort, "中断"},
			"suspended", "中断", "まで2手で中断", "%CHUDAN"},
		{"both lost by default: no word", 2, "投了", Official{OutcomeBothLose, EndNone, "両者の負け（両者不戦）"},
			"", "", "", ""},
		{"resignation by the side not to move: no word", 2, "投了", Official{OutcomeSenteWin, EndResign, "先手の勝ち（投了）"},
			"", "", "", ""},
		{"undecided keeps the record's word", 2, "千日手", Official{OutcomeUnknown, EndNone, "未定"},
			"sennichite", "千日手", "まで2手で千日手", "%SENNICHITE"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			rec := officialBase(t, c.plies, c.end)
			before := rec.Main.End
			stated := rec.SetOfficial(c.o)
			if want := c.reason != "" && c.o.Outcome != OutcomeUnknown; stated != want {
				t.Errorf("SetOfficial says %v, want %v", stated, want)
			}
			kif, err := WriteKIF(rec)
			if err != nil {
				t.Fatal(err)
			}
			csa, err := WriteCSA(rec)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(kif, "\n")
			termLine := fmt.Sprintf("%4d %s", c.plies+1, c.kifWord)
			if c.kifWord != "" && !slices.Contains(lines, termLine) {
				t.Errorf("KIF lacks the terminal line %q:\n%s", termLine, kif)
			}
			if c.closing != "" && !slices.Contains(lines, c.closing) {
				t.Errorf("KIF lacks the closing line %q:\n%s", c.closing, kif)
			}
			if c.closing == "" && strings.Contains(kif, "まで") {
				t.Errorf("KIF states a closing line although no word says the result:\n%s", kif)
			}
			if !slices.Contains(lines, "*"+OfficialCommentPrefix+c.o.Words) {
				t.Errorf("KIF lacks the official comment:\n%s", kif)
			}
			csaLines := strings.Split(csa, "\n")
			if c.csaWord != "" && !slices.Contains(csaLines, c.csaWord) {
				t.Errorf("CSA lacks %q:\n%s", c.csaWord, csa)
			}
			if c.csaWord == "" && strings.Contains(csa, "\n%") {
				t.Errorf("CSA has a special move although none says the result:\n%s", csa)
			}
			if !strings.Contains(csa, "'*"+OfficialCommentPrefix+c.o.Words+"\n") {
				t.Errorf("CSA lacks the official comment:\n%s", csa)
			}
			for _, f := range []struct {
				format Format
				text   string
			}{{FormatKIF, kif}, {FormatCSA, csa}} {
				back := mustRead(t, f.format, f.text)
				got := back.Result()
				want := c.o.Outcome
				if c.reason == "" || want == OutcomeBothLose {
					want = OutcomeUnknown
				}
				if c.o.Outcome == OutcomeUnknown && before != nil {
					want = before.Result(rec.ToMove()).Outcome
				}
				if got.Outcome != want || (c.reason != "" && got.Reason != c.reason) {
					t.Errorf("%s read back: %+v, want %s %s\n%s", f.format, got, want, c.reason, f.text)
				}
				cs := allComments(back)
				if !hasComment(cs, OfficialCommentPrefix+c.o.Words) {
					t.Errorf("%s read back without the official comment: %q", f.format, cs)
				}
				if before != nil && (c.reason == "" || before.Result(rec.ToMove()).Outcome != c.o.Outcome) && c.o.Outcome != OutcomeUnknown {
					if w := RecordEndCommentPrefix + before.KIFWordFor(rec.ToMove()); !hasComment(cs, w) {
						t.Errorf("%s read back without the record's own ending %q: %q", f.format, w, cs)
					}
				}
			}
		})
	}
}

// TestOfficial_KeepsTheRecordsAgreeingWordAndTime: when the record's own
// ending already says the official result, it stays with its time.
func TestOfficial_KeepsTheRecordsAgreeingWordAndTime(t *testing.T) {
	t.Parallel()
	rec := mustRead(t, FormatKIF, "   1 ７六歩(77)   ( 0:05/00:00:05)\n   2 投了   ( 0:30/00:00:30)\n")
	old := rec.Main.End
	rec.SetOfficial(Official{OutcomeSenteWin, EndResign, "先手の勝ち（投了）"})
	if rec.Main.End != old || !rec.Main.End.HasTime {
		t.Fatalf("the agreeing terminal was replaced: %+v", rec.Main.End)
	}
	if hasComment(rec.Main.End.Comments, RecordEndCommentPrefix+"投了") {
		t.Errorf("an agreeing ending is noted as replaced: %q", rec.Main.End.Comments)
	}
}
