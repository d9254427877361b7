package kifu

import (
	"errors"
	"strings"
	"testing"
	"time"

	"kisen/rules"
)

func mustRead(t *testing.T, f Format, text string) *Record {
	t.Helper()
	res, err := Read([]byte(text), "", f)
	if err != nil {
		t.Fatalf("read %s: %v\n%s", f, err, text)
	}
	return res.Record
}

func usis(l Line) string {
	var parts []string
	for _, n := range l.Nodes {
		parts = append(parts, n.Move.USI())
	}
	return strings.Join(parts, " ")
}

// TestKIF_VariationTree: variations come depth first; each 変化 attaches
// to the nearest line on the way back that has that move number, and a
// 変化 for a variation's own first move is a sibling alternative.
func TestKIF_VariationTree(t *testing.T) {
	t.Parallel()
	text := `手合割：平手
手数----指手---------消費時間--
   1 ２六歩(27)
   2 ３四歩(33)
   3 ２五歩(26)
   4 ３三角(22)
   5 ７六歩(77)
   6 ４四歩(43)
   7 投了

変化：5手
   5 ４八銀(39)
   6 ４二飛(82)
   7 ６八玉(59)

変化：7手
   7 ５六歩(57)

変化：5手
   5 ６八銀(79)

変化：2手
   2 ８四歩(83)
   3 ２五歩(26)
`
	rec := mustRead(t, FormatKIF, text)
	main := rec.Main
	if got := usis(main); got != "2g2f 3c3d 2f2e 2b3c 7g7f 4c4d" {
		t.Fatalf("main line %q", got)
	}
	if main.End == nil || main.End.Kind != EndResign {
		t.Fatalf("main line end %+v", main.End)
	}
	if n := len(main.Nodes[1].Variations); n != 1 {
		t.Fatalf("move 2 has %d variations, want 1", n)
	}
	if got := usis(main.Nodes[1].Variations[0]); got != "8c8d 2f2e" {
		t.Errorf("variation at 2: %q", got)
	}
	v5 := main.Nodes[4].Variations
	if len(v5) != 2 {
		t.Fatalf("move 5 has %d variations, want 2 (the second is a sibling)", len(v5))
	}
	if got := usis(v5[0]); got != "3i4h 8b4b 5i6h" {
		t.Errorf("first variation at 5: %q", got)
	}
	if got := usis(v5[1]); got != "7i6h" {
		t.Errorf("second variation at 5: %q", got)
	}
	nested := v5[0].Nodes[2].Variations
	if len(nested) != 1 || usis(nested[0]) != "5g5f" {
		t.Errorf("variation at 7 inside the one at 5: %+v", nested)
	}
	// Written back, the tree reads the same.
	out, err := WriteKIF(rec)
	if err != nil {
		t.Fatal(err)
	}
	back := mustRead(t, FormatKIF, out)
	if summarize(back, capsOf(FormatKIF)) != summarize(rec, capsOf(FormatKIF)) {
		t.Errorf("variation tree changed on writing:\n%s", out)
	}
	if countVariations(rec.Main) != 4 {
		t.Errorf("countVariations = %d, want 4", countVariations(rec.Main))
	}
}

// TestRead_BadInputNamesTheLine: bad input is an error with the line and
// the reason, never a panic.
func TestRead_BadInputNamesTheLine(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		f    Format
		text string
		line int
		want string
	}{
		{"kif number", FormatKIF, "手数----\n   1 ７六歩(77)\n   3 ３四歩(33)\n", 3, "expected 2"},
		{"kif origin", FormatKIF, "   1 ７六歩\n", 1, "origin"},
		{"kif piece", FormatKIF, "   1 ７六飛(77)\n", 1, "歩 stands on 77, not 飛"},
		{"kif empty origin", FormatKIF, "   1 ７六歩(55)\n", 1, "nothing stands on 55"},
		{"kif time", FormatKIF, "   1 ７六歩(77) ( 0:99/00:00:00)\n", 1, "time"},
		{"kif handicap", FormatKIF, "手合割：九枚落ち\n", 1, "not a known handicap"},
		{"kif same first", FormatKIF, "   1 同　歩(77)\n", 1, "no previous move"},
		{"kif junk", FormatKIF, "手合割：平手\nこれは何\n", 2, "neither"},
		{"kif variation", FormatKIF, "   1 ７六歩(77)\n変化：5手\n", 2, "no line read so far"},
		{"kif after end", FormatKIF, "   1 ７六歩(77)\n   2 投了\n   3 ２六歩(27)\n", 3, "expected 2"},
		{"kif board", FormatKIF, "| ・ ・ ・ ・ ・ ・ ・ ・ X|一\n", 1, "not a piece"},
		{"ki2 ambiguous", FormatKI2, "▲７六歩 △３四歩 ▲５八金\n", 1, "ambiguous"},
		{"ki2 impossible", FormatKI2, "▲７六歩\n▲５五角\n", 2, "marked for sente but gote is to move"},
		{"ki2 nothing", FormatKI2, "▲５五成銀\n", 1, "no 成銀"},
		{"ki2 after impossible", FormatKI2, "▲７六歩 △３四歩 ▲５五香打 △８四歩\n", 1, "undefined"},
		{"ki2 summary", FormatKI2, "▲７六歩\nまで3手で先手の勝ち\n", 2, "counts 3 moves"},
		{"ki2 summary side", FormatKI2, "▲７六歩\nまで1手で後手の勝ち\n", 2, "does not fit"},
		{"csa move", FormatCSA, "PI\n+\n+7776F\n", 3, "want a sign"},
		{"csa sign", FormatCSA, "PI\n+\n-3334FU\n", 3, "sente is to move"},
		{"csa piece", FormatCSA, "PI\n+\n+7776KA\n", 3, "cannot become KA"},
		{"csa empty", FormatCSA, "PI\n+\n+5556FU\n", 3, "no piece stands on 55"},
		{"csa time", FormatCSA, "PI\n+\n+7776FU\nTx\n", 4, "want seconds"},
		{"csa special", FormatCSA, "PI\n+\n%RESIGN\n", 3, "unknown special move"},
		{"csa turn", FormatCSA, "PI\n+7776FU\n", 2, "turn line"},
		{"csa board", FormatCSA, "P1-KY-KE-XX\n", 1, "not a piece"},
		{"csa PI", FormatCSA, "PI55FU\n", 1, "no FU on 55"},
		{"csa multi", FormatCSA, "PI\n+\n+7776FU\n/\nPI\n", 4, "several records"},
		{"csa matta", FormatCSA, "PI\n+\n%MATTA\n", 3, "MATTA"},
		{"csa after end", FormatCSA, "PI\n+\n%TORYO\n+7776FU\n", 4, "after the special move"},
		{"usi word", FormatUSI, "position start moves 7g7f\n", 1, "startpos or sfen"},
		{"usi move", FormatUSI, "position startpos moves 7g7x\n", 1, "move 1"},
		{"usi sfen", FormatUSI, "sfen 9/9/9 b\n", 1, "sfen"},
		{"usi two", FormatUSI, "startpos\nstartpos\n", 2, "one position"},
		{"usi empty", FormatUSI, "\n", 0, "no position"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read([]byte(c.text), "", c.f)
			if err == nil {
				t.Fatalf("no error for %q", c.text)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *ParseError", err)
			}
			if pe.Line != c.line {
				t.Errorf("error %q names line %d, want %d", err, pe.Line, c.line)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not mention %q", err, c.want)
			}
		})
	}
}

func TestRead_UndecodableBytes(t *testing.T) {
	t.Parallel()
	_, err := Read([]byte{0x82, 0xa0, 0xff, 0xfe, 0x80}, "x.kif", FormatUnknown)
	if err == nil {
		t.Fatal("no error for bytes that are neither UTF-8 nor Shift_JIS")
	}
}

func TestUSI_Variants(t *testing.T) {
	t.Parallel()
	cases := []struct {
		text     string
		moves    string
		handicap rules.Handicap
		custom   bool
	}{
		{"position startpos moves 7g7f 3c3d", "7g7f 3c3d", rules.Even, false},
		{"startpos moves 7g7f", "7g7f", rules.Even, false},
		{"startpos", "", rules.Even, false},
		{"position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 2g2f", "2g2f", rules.Even, false},
		{"sfen lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 5a4b", "5a4b", rules.LanceHandicap, false},
		{"sfen lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - moves 5a4b", "5a4b", rules.LanceHandicap, false},
		{"sfen 8k/9/9/9/9/9/9/9/4K4 b G 1 moves G*1b", "G*1b", rules.Even, true},
	}
	for _, c := range cases {
		rec := mustRead(t, FormatUSI, c.text)
		if got := usis(rec.Main); got != c.moves {
			t.Errorf("%q: moves %q, want %q", c.text, got, c.moves)
		}
		if rec.Handicap != c.handicap || (rec.Start != "") != c.custom {
			t.Errorf("%q: start %s %q", c.text, rec.Handicap.Name(), rec.Start)
		}
		if DetectFormat(c.text) != FormatUSI {
			t.Errorf("%q not detected as USI", c.text)
		}
	}
}

func TestCSA_Statements(t *testing.T) {
	t.Parallel()
	text := `'CSA encoding=UTF-8
V3.0
N+Alice
N-Bob
$EVENT:Cup
$START_TIME:2026/01/02 03:04:05
$TIME:300+0+5
$X_CUSTOM:kept
'note：自由な項目
P1-KY-KE-GI-KI-OU-KI-GI-KE-KY
P2 * -HI *  *  *  *  * -KA * 
P3-FU-FU-FU-FU-FU-FU-FU-FU-FU
P4 *  *  *  *  *  *  *  *  * 
P5 *  *  *  *  *  *  *  *  * 
P6 *  *  *  *  *  *  *  *  * 
P7+FU+FU+FU+FU+FU+FU+FU+FU+FU
P8 * +KA *  *  *  *  * +HI * 
P9+KY+KE+GI+KI+OU+KI+GI+KE+KY
+
+7776FU,T1.25,-3334FU,T2
'*first comment
'plain comment
+8822UM
T3
%-ILLEGAL_ACTION
T4
`
	rec := mustRead(t, FormatCSA, text)
	if rec.Handicap != rules.Even || rec.Start != "" {
		t.Errorf("full board of the even start should read as 平手, got %s %q", rec.Handicap.Name(), rec.Start)
	}
	if got := usis(rec.Main); got != "7g7f 3c3d 8h2b+" {
		t.Errorf("moves %q", got)
	}
	want := []Field{{KeySente, "Alice"}, {KeyGote, "Bob"}, {KeyEvent, "Cup"}, {KeyStart, "2026/01/02 03:04:05"},
		{KeyTimeLimit, "300+0+5"}, {"$X_CUSTOM", "kept"}, {"note", "自由な項目"}}
	if len(rec.Header.Fields) != len(want) {
		t.Fatalf("header %+v", rec.Header.Fields)
	}
	for i, f := range want {
		if rec.Header.Fields[i] != f {
			t.Errorf("header %d = %+v, want %+v", i, rec.Header.Fields[i], f)
		}
	}
	n := rec.Main.Nodes
	if n[0].Time != 1250*time.Millisecond || n[1].Time != 2*time.Second || n[2].Total != 4250*time.Millisecond {
		t.Errorf("times %v %v total %v", n[0].Time, n[1].Time, n[2].Total)
	}
	if len(n[1].Comments) != 2 || n[1].Comments[0] != "first comment" || n[1].Comments[1] != "plain comment" {
		t.Errorf("comments %q", n[1].Comments)
	}
	if e := rec.Main.End; e == nil || e.Kind != EndIllegalAction || e.Loser != rules.Gote || e.Time != 4*time.Second {
		t.Fatalf("end %+v", rec.Main.End)
	}
	if r := rec.Result(); r.Outcome != OutcomeSenteWin || r.Reason != "illegal_action" {
		t.Errorf("result %+v", r)
	}
	if st, ok := rec.Header.StartTime(); !ok || st.Hour() != 3 || st.Day() != 2 {
		t.Errorf("StartTime %v %v", st, ok)
	}
}

func TestCSA_AllPiecesToHand(t *testing.T) {
	t.Parallel()
	rec := mustRead(t, FormatCSA, "P1 *  *  *  *  *  *  *  * -OU\nP9 *  *  *  * +OU *  *  *  * \nP+00HI00FU\nP-00AL\n-\n")
	p, err := rec.StartPosition()
	if err != nil {
		t.Fatal(err)
	}
	if p.Hand(rules.Sente, rules.Rook) != 1 || p.Hand(rules.Gote, rules.Rook) != 1 || p.Hand(rules.Gote, rules.Pawn) != 17 || p.Hand(rules.Gote, rules.Gold) != 4 {
		t.Errorf("00AL gave %s", p.SFEN())
	}
	if p.SideToMove() != rules.Gote {
		t.Error("turn line - ignored")
	}
}

// TestKIF_TerminalWords_D_X1: every Kakinoki terminal word maps to the
// common result model.
func TestKIF_TerminalWords(t *testing.T) {
	t.Parallel()
	cases := []struct {
		word    string
		outcome Outcome
		reason  string
	}{
		{"投了", OutcomeGoteWin, "resign"},
		{"詰み", OutcomeGoteWin, "checkmate"},
		{"切れ負け", OutcomeGoteWin, "time_up"},
		{"時間切れ", OutcomeGoteWin, "time_up"},
		{"反則負け", OutcomeGoteWin, "illegal_move"},
		{"反則勝ち", OutcomeSenteWin, "illegal_action"},
		{"入玉勝ち", OutcomeSenteWin, "declaration"},
		{"宣言勝ち", OutcomeSenteWin, "declaration"},
		{"持将棋", OutcomeNoResult, "jishogi"},
		{"千日手", OutcomeNoResult, "sennichite"},
		{"中断", OutcomeSuspended, "suspended"},
		{"不戦勝", OutcomeSenteWin, "forfeit_win"},
		{"不戦敗", OutcomeGoteWin, "forfeit_loss"},
		{"不詰", OutcomeNoResult, "no_mate"},
	}
	for _, c := range cases {
		// Two moves played: Sente is to move when the word is written.
		rec := mustRead(t, FormatKIF, "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 "+c.word+"\n")
		got := rec.Result()
		if got.Outcome != c.outcome || got.Reason != c.reason {
			t.Errorf("%s: %+v, want %s %s", c.word, got, c.outcome, c.reason)
		}
	}
}

// TestCSA_SpecialMoves: every CSA % command maps to the result model.
func TestCSA_SpecialMoves(t *testing.T) {
	t.Parallel()
	cases := []struct {
		word    string
		outcome Outcome
	}{
		{"%TORYO", OutcomeSenteWin}, {"%TSUMI", OutcomeSenteWin}, {"%TIME_UP", OutcomeSenteWin},
		{"%ILLEGAL_MOVE", OutcomeSenteWin}, {"%+ILLEGAL_ACTION", OutcomeGoteWin}, {"%-ILLEGAL_ACTION", OutcomeSenteWin},
		{"%KACHI", OutcomeGoteWin}, {"%HIKIWAKE", OutcomeNoResult}, {"%JISHOGI", OutcomeNoResult},
		{"%SENNICHITE", OutcomeNoResult}, {"%MAX_MOVES", OutcomeNoResult}, {"%CHUDAN", OutcomeSuspended},
		{"%FUZUMI", OutcomeNoResult}, {"%ERROR", OutcomeSuspended},
	}
	for _, c := range cases {
		// One move played: Gote is to move when the command is written.
		rec := mustRead(t, FormatCSA, "PI\n+\n+7776FU\n"+c.word+"\n")
		if got := rec.Result(); got.Outcome != c.outcome {
			t.Errorf("%s: %+v, want %s", c.word, got, c.outcome)
		}
	}
}

func TestKI2_SummaryLines(t *testing.T) {
	t.Parallel()
	cases := []struct {
		line string
		kind EndKind
	}{
		{"まで1手で先手の勝ち", EndResign},
		{"まで1手で詰みにより先手の勝ち", EndCheckmate},
		{"まで1手で時間切れにより先手の勝ち", EndTimeUp},
		{"まで1手で後手の反則負け", EndIllegalMove},
		{"まで1手で先手の反則負け", EndIllegalAction},
		{"まで1手で入玉宣言により後手の勝ち", EndDeclareWin},
		{"まで1手で千日手", EndSennichite},
		{"まで1手で持将棋", EndJishogi},
		{"まで1手で中断", EndAbort},
		{"まで1手で後手の不戦勝", EndForfeitWin},
		{"まで1手で後手の不戦敗", EndForfeitLoss},
	}
	for _, c := range cases {
		rec := mustRead(t, FormatKI2, "▲７六歩\n"+c.line+"\n")
		if rec.Main.End == nil || rec.Main.End.Kind != c.kind {
			t.Errorf("%s: end %+v, want %s", c.line, rec.Main.End, c.kind)
		}
	}
}

// TestCheck_D_X1_IllegalMovesLoadAndReport: records with an illegal move
// load up to it, and Check names the ply, the input line and the foul.
func TestCheck_D_X1_IllegalMovesLoadAndReport(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		f    Format
		text string
		ply  int
		line int
		kind rules.Foul
	}{
		{"kif blocked bishop", FormatKIF, "手数----\n   1 ５五角(88)\n   2 投了\n", 1, 2, rules.FoulIllegalMovement},
		{"kif dead pawn", FormatKIF, "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ７五歩(76)\n   4 ３五歩(34)\n   5 ７四歩(75)\n   6 ３六歩(35)\n   7 ７三歩(74)\n   8 ３七歩成(36)\n   9 ７二歩(73)\n  10 ４八と(37)\n  11 ７一歩(72)\n", 11, 11, rules.FoulDeadPiece},
		{"ki2 nifu", FormatKI2, "▲７六歩 △３四歩 ▲２六歩 △８四歩\n▲２五歩 △８五歩 ▲２四歩 △同　歩\n▲同　飛 △２三歩\n▲７七歩打\n", 11, 4, rules.FoulNifu},
		{"ki2 king into check", FormatKI2, "▲７六歩 △３四歩\n▲６八玉 △８八角成\n▲７八玉\n", 5, 3, rules.FoulIgnoredCheck},
		{"csa wrong promotion", FormatCSA, "PI\n+\n+7776FU\n-3334FU\n+6978KI\n-4132KI\n+7675TO\n%TORYO\n", 5, 7, rules.FoulIllegalPromotion},
		{"ki2 drop not in hand", FormatKI2, "▲７六歩 △３四歩\n▲５五飛\n", 3, 2, rules.FoulIllegalMovement},
		{"usi occupied drop", FormatUSI, "position startpos moves 7g7f 3c3d 8h2b+ 3a2b P*5g", 5, 1, rules.FoulIllegalMovement},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := mustRead(t, c.f, c.text)
			rep, err := Check(rec)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Foul == nil {
				t.Fatalf("no foul found; report %+v", rep)
			}
			if rep.Foul.Ply != c.ply || rep.Foul.Line != c.line || rep.Foul.Kind != c.kind.String() {
				t.Errorf("foul %+v, want ply %d line %d %s", rep.Foul, c.ply, c.line, c.kind)
			}
			if rep.Legal != c.ply-1 {
				t.Errorf("legal moves %d, want %d", rep.Legal, c.ply-1)
			}
		})
	}
}

func TestKIF_HeaderAfterMoves(t *testing.T) {
	t.Parallel()
	rec := mustRead(t, FormatKIF, "先手：A\n手数----\n   1 ７六歩(77)\n   2 投了\n終了日時：2026/11/21 12:00\n")
	if got := rec.Header.Value(KeyEnd); got != "2026/11/21 12:00" {
		t.Fatalf("終了日時 after the moves read as %q", got)
	}
	if len(rec.Main.Nodes) != 1 || rec.Main.End == nil {
		t.Fatalf("moves %d end %v", len(rec.Main.Nodes), rec.Main.End)
	}
}

func TestKIF_TimeSpellings(t *testing.T) {
	t.Parallel()
	cases := []struct {
		time         string
		spent, total time.Duration
	}{
		{"( 0:16/00:00:16)", 16 * time.Second, 16 * time.Second},
		{"(0:16/0:00:16)", 16 * time.Second, 16 * time.Second},
		{"( 1:05 / 01:02:03 )", 65 * time.Second, 3723 * time.Second},
		{"(123:00/02:03:00)", 123 * time.Minute, 123 * time.Minute},
		{"( 0:07/)", 7 * time.Second, 0},
	}
	for _, c := range cases {
		rec := mustRead(t, FormatKIF, "   1 ７六歩(77)   "+c.time+"\n")
		n := rec.Main.Nodes[0]
		if !n.HasTime || n.Time != c.spent || n.Total != c.total {
			t.Errorf("%s: %v/%v", c.time, n.Time, n.Total)
		}
	}
	for _, bad := range []string{"( 0:60/00:00:00)", "( x:00/00:00:00)", "( 0:1:2:3/00:00:00)", "(0/0)"} {
		if _, err := Read([]byte("   1 ７六歩(77) "+bad+"\n"), "", FormatKIF); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// TestWrite_ImpossibleMovesSayWhy: a USI record may move from an empty
// square; formats that name the piece refuse it with a reason.
func TestWrite_ImpossibleMovesSayWhy(t *testing.T) {
	t.Parallel()
	rec := mustRead(t, FormatUSI, "position startpos moves 7g7f 5e5d")
	for _, f := range []Format{FormatKIF, FormatCSA} {
		if _, err := Write(rec, f); err == nil || !strings.Contains(err.Error(), "empty square") {
			t.Errorf("%s: error %v, want one about the empty square", f, err)
		}
	}
	if _, err := Write(rec, FormatUSI); err != nil {
		t.Errorf("USI holds any move: %v", err)
	}
	rep, err := Check(rec)
	if err != nil || rep.Foul == nil || rep.Foul.Ply != 2 || rep.Foul.Kind != "illegal_movement" {
		t.Errorf("check: %+v %v", rep.Foul, err)
	}
}

func TestHeader_GetSetAdd(t *testing.T) {
	t.Parallel()
	var h Header
	h.Add(KeySente, "A")
	h.Add("", "# verbatim")
	h.Set(KeyGote, "B")
	h.Set(KeySente, "C")
	h.Add(KeySente, "D")
	if v, ok := h.Get(KeySente); !ok || v != "C" {
		t.Errorf("Get(先手) = %q %v, want the first, replaced by Set", v, ok)
	}
	if h.Value(KeyGote) != "B" || h.Value("無い") != "" {
		t.Errorf("Value: %q %q", h.Value(KeyGote), h.Value("無い"))
	}
	if _, ok := h.Get(""); ok {
		t.Error("verbatim lines have no key to look up")
	}
	if len(h.Fields) != 4 {
		t.Errorf("fields %+v", h.Fields)
	}
	for _, s := range []string{"2026/11/21", "2026/11/21(土) 10:00:00", "2026-11-21T10:00:00+09:00", "2026/11/21 10:00"} {
		h.Set(KeyStart, s)
		st, ok := h.StartTime()
		if !ok || st.Year() != 2026 || st.Month() != 11 || st.Day() != 21 {
			t.Errorf("StartTime(%q) = %v %v", s, st, ok)
		}
	}
	h.Set(KeyStart, "昔")
	if _, ok := h.StartTime(); ok {
		t.Error("StartTime of 昔 should fail")
	}
}

// TestCheck_D_S3_PlayedThroughSennichite: a 4th occurrence followed by
// more moves is broken and reported as such, not as the game's 千日手.
func TestCheck_D_S3_PlayedThroughSennichite(t *testing.T) {
	t.Parallel()
	cycle := " 2h3h 8b7b 3h2h 7b8b"
	rec := mustRead(t, FormatUSI, "position startpos moves"+strings.Repeat(cycle, 3)+" 7g7f")
	rep, err := Check(rec)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Sennichite != nil {
		t.Errorf("sennichite %+v after play went on", rep.Sennichite)
	}
	if len(rep.PlayedThrough) != 1 || rep.PlayedThrough[0] != 12 {
		t.Errorf("played through %v, want [12]", rep.PlayedThrough)
	}
	// Ending on the 4th occurrence it is the game's 千日手 (D-S1).
	rec = mustRead(t, FormatUSI, "position startpos moves"+strings.Repeat(cycle, 3))
	if rep, _ := Check(rec); rep.Sennichite == nil || rep.Sennichite.Ply != 12 || rep.Sennichite.Perpetual {
		t.Errorf("sennichite %+v, want a plain one at ply 12", rep.Sennichite)
	}
}
