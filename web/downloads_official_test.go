package web

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/text/encoding/japanese"

	"kisen/office"
	"kisen/rules/kifu"
	"kisen/web/site"
)

// uploadedFoulRecord is a record as a recorder uploads it: its own names,
// event, date and time control, and Gote resigning after move 3.
const uploadedFoulRecord = `先手：偽名 甲
後手：偽名 乙
棋戦：アップロード杯
開始日時：2026/11/20 10:00:00
持ち時間：各10分
手合割：平手
手数----指手---------消費時間--
   1 ７六歩(77)
   2 ３四歩(33)
   3 ２六歩(27)
   4 投了
まで3手で先手の勝ち
`

// officialGames sets up two games of a published event, each with a
// result in force the record itself does not say: a foul-loss ruling
// against Sente after Gote had resigned (D-K1, 対局規則 第11条第5項六), and
// Sente absent (不戦, 000 第1条第2項) on a game with no record.
func officialGames(t *testing.T, a *testApp) (g gameSetup, fouled, forfeit int64) {
	t.Helper()
	ctx := context.Background()
	o := a.srv.Office
	g = newGameSetup(t, a, "{}")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	game, err := o.CreateGame(ctx, g.admin, office.GameInput{EventID: g.event.ID, Label: "決勝", SenteID: &g.sente.ID, GoteID: &g.gote.ID,
		AllowanceMinutes: 180, ScheduledOn: "2026-11-21"})
	must(err)
	_, _, err = o.SaveRecord(ctx, g.admin, game.ID, office.RecordInput{Text: uploadedFoulRecord, Format: "kif"})
	must(err)
	_, err = o.EndGame(ctx, g.arbiter, game.ID, office.EndInput{Kind: "resign", By: "gote"})
	must(err)
	_, ended, err := o.AddRuling(ctx, g.arbiter, game.ID, office.RulingInput{Kind: "foul_loss", Player: "sente", Reason: "二歩の見落とし", Version: 1})
	must(err)
	if ended == nil || ended.Result.Result != office.ResultGoteWin {
		t.Fatalf("the ruling did not give Gote the game: %+v", ended)
	}
	absent, err := o.CreateGame(ctx, g.admin, office.GameInput{EventID: g.event.ID, Label: "3位決定戦", SenteID: &g.sente.ID, GoteID: &g.gote.ID,
		AllowanceMinutes: 180, ScheduledOn: "2026-11-21"})
	must(err)
	_, err = o.EndGame(ctx, g.arbiter, absent.ID, office.EndInput{Kind: "forfeit", By: "sente"})
	must(err)
	return g, game.ID, absent.ID
}

func download(t *testing.T, a *testApp, gameID int64, query string) string {
	t.Helper()
	path := site.GameURL(gameID) + "/record" + query
	resp, body := a.get(path)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: %d\n%s", path, resp.StatusCode, body)
	}
	return body
}

func wantLines(t *testing.T, what, text string, want ...string) {
	t.Helper()
	lines := strings.Split(text, "\n")
	for _, w := range want {
		if !slices.Contains(lines, w) {
			t.Errorf("%s lacks the line %q:\n%s", what, w, text)
		}
	}
}

func readBack(t *testing.T, what, text string, f kifu.Format) *kifu.Record {
	t.Helper()
	res, err := kifu.Read([]byte(text), "", f)
	if err != nil {
		t.Fatalf("%s does not read back: %v\n%s", what, err, text)
	}
	return res.Record
}

// TestDownload_D_K1_FoulRulingIsTheRecordsResult: after the arbiter's
// foul-loss ruling (D-K1, 対局規則 第11条第5項六) the KIF and CSA downloads
// name the registered players, the event, the game's date and its time
// control (3 hours, 60-second byoyomi), keep the uploaded values as
// comments, and end in Sente's foul loss — KIF 反則勝ち (Gote, to move,
// wins) with 「まで3手で先手の反則負け」, CSA %+ILLEGAL_ACTION — with the
// official result and the record's own 投了 in comments. Read back, both
// give Gote the game. On both databases.
func TestDownload_D_K1_FoulRulingIsTheRecordsResult(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		_, fouled, _ := officialGames(t, a)
		kif := download(t, a, fouled, ".kif")
		wantLines(t, "KIF", kif,
			"先手：羽生 善治", "後手：藤井 聡太", "棋戦：第1期テスト戦", "開始日時：2026/11/21",
			"持ち時間：各3時間", "秒読み：60秒",
			"#棋譜の先手：偽名 甲", "#棋譜の後手：偽名 乙", "#棋譜の棋戦：アップロード杯",
			"#棋譜の開始日時：2026/11/20 10:00:00", "#棋譜の持ち時間：各10分",
			"   4 反則勝ち", "*棋譜の終局：投了", "*公式結果：先手の反則負け（立会人による反則負けの宣告）",
			"まで3手で先手の反則負け")
		if strings.Contains(kif, "まで3手で先手の勝ち") || strings.Contains(kif, "   4 投了") {
			t.Errorf("KIF still ends in the record's own result:\n%s", kif)
		}
		if got := readBack(t, "KIF", kif, kifu.FormatKIF).Result(); got.Outcome != kifu.OutcomeGoteWin || got.Reason != "illegal_action" {
			t.Errorf("KIF reads back as %+v, want Gote's win by Sente's foul", got)
		}
		sjis := download(t, a, fouled, ".kif?charset=sjis")
		if dec, err := japanese.ShiftJIS.NewDecoder().String(sjis); err != nil || dec != kif {
			t.Errorf("the Shift_JIS KIF is not the UTF-8 one (%v)", err)
		}
		csa := download(t, a, fouled, ".csa")
		wantLines(t, "CSA", csa,
			"N+羽生 善治", "N-藤井 聡太", "$EVENT:第1期テスト戦", "$START_TIME:2026/11/21", "$TIME:10800+60+0",
			"'秒読み：60秒", "'棋譜の先手：偽名 甲", "'棋譜の棋戦：アップロード杯",
			"%+ILLEGAL_ACTION", "'*棋譜の終局：投了", "'*公式結果：先手の反則負け（立会人による反則負けの宣告）")
		if strings.Contains(csa, "%TORYO") {
			t.Errorf("CSA still ends in the record's %%TORYO:\n%s", csa)
		}
		if got := readBack(t, "CSA", csa, kifu.FormatCSA).Result(); got.Outcome != kifu.OutcomeGoteWin {
			t.Errorf("CSA reads back as %+v, want Gote's win", got)
		}
		// USI holds no result: the moves only, as before.
		if usi := download(t, a, fouled, ".usi"); strings.TrimSpace(usi) != "position startpos moves 7g7f 3c3d 2g2f" {
			t.Errorf("USI: %q", usi)
		}
	})
}

// TestDownload_ForfeitIsAHeaderAndItsResult: a game Sente did not come to
// (不戦, 000 第1条第2項) has no record, yet its KIF and CSA download: the
// header (players, event, date, time control) and the result — KIF
// 「   1 不戦敗」 and 「まで0手で先手の不戦敗」, CSA the comment '終局：不戦敗
// (CSA has no code for it) — each with the official result in words. USI,
// which holds no result, stays 404. In the event zip only games with a
// record are packed, as before. The game page links the two files. On
// both databases.
func TestDownload_ForfeitIsAHeaderAndItsResult(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		g, _, forfeit := officialGames(t, a)
		kif := download(t, a, forfeit, ".kif")
		wantLines(t, "KIF", kif,
			"手合割：平手", "先手：羽生 善治", "後手：藤井 聡太", "棋戦：第1期テスト戦", "開始日時：2026/11/21",
			"持ち時間：各3時間", "秒読み：60秒",
			"   1 不戦敗", "*公式結果：後手の不戦勝（先手の不戦敗）", "まで0手で先手の不戦敗")
		rec := readBack(t, "KIF", kif, kifu.FormatKIF)
		if got := rec.Result(); got.Outcome != kifu.OutcomeGoteWin || got.Reason != "forfeit_loss" || len(rec.Main.Nodes) != 0 {
			t.Errorf("KIF reads back as %+v with %d moves, want Sente's loss by default", got, len(rec.Main.Nodes))
		}
		csa := download(t, a, forfeit, ".csa")
		wantLines(t, "CSA", csa, "N+羽生 善治", "N-藤井 聡太", "$EVENT:第1期テスト戦", "$START_TIME:2026/11/21",
			"$TIME:10800+60+0", "'終局：不戦敗", "'*公式結果：後手の不戦勝（先手の不戦敗）")
		if got := readBack(t, "CSA", csa, kifu.FormatCSA).Result(); got.Outcome != kifu.OutcomeGoteWin || got.Reason != "forfeit_loss" {
			t.Errorf("CSA reads back as %+v, want Sente's loss by default", got)
		}
		if resp, _ := a.get(site.GameURL(forfeit) + "/record.usi"); resp.StatusCode != http.StatusNotFound {
			t.Errorf("USI of a game without a record: %d, want 404", resp.StatusCode)
		}
		// The event zip packs the games with a record only, each with its
		// official result.
		_, body := a.get(fmt.Sprintf("/events/%d/records.zip?format=kif", g.event.ID))
		zipped := readZip(t, body)
		if len(zipped) != 1 {
			t.Errorf("event zip: %d files, want the one game with a record", len(zipped))
		}
		for name, text := range zipped {
			wantLines(t, "zip "+name, text, "先手：羽生 善治", "持ち時間：各3時間", "まで3手で先手の反則負け")
		}
		// The game page links the KIF and CSA (not USI) in both languages.
		for _, lang := range []string{"ja", "en"} {
			a.setLang(a.client, lang)
			words := map[string]string{"ja": "結果を棋譜の形式でダウンロード", "en": "Download the result as a record"}[lang]
			resp, body := a.get(site.GameURL(forfeit))
			if resp.StatusCode != http.StatusOK || !strings.Contains(body, words) ||
				!strings.Contains(body, `data-testid="download-kif"`) || !strings.Contains(body, `data-testid="download-csa"`) {
				t.Errorf("%s: the forfeit game's page has no KIF/CSA link saying %q", lang, words)
			}
			if strings.Contains(body, `data-testid="download-usi"`) {
				t.Errorf("%s: the forfeit game's page links a USI file it cannot give", lang)
			}
		}
		// A game without a record or a result still has nothing to give.
		ctx := context.Background()
		bare, err := a.srv.Office.CreateGame(ctx, g.admin, office.GameInput{EventID: g.event.ID, Label: "未対局", SenteID: &g.sente.ID, GoteID: &g.gote.ID})
		if err != nil {
			t.Fatal(err)
		}
		if resp, _ := a.get(site.GameURL(bare.ID) + "/record.kif"); resp.StatusCode != http.StatusNotFound {
			t.Errorf("KIF of an undecided game without a record: %d, want 404", resp.StatusCode)
		}
	})
}

// TestDownload_OfficialResultReadByTsshogi: tsshogi (npm), a reader
// written independently of Kisen, reads the foul-ruling and forfeit
// downloads in KIF and CSA to the registered players, the time control
// and the official ending: Sente's foul (KIF 反則勝ち of Gote to move, read
// as foulWin with Gote to move) and 不戦敗 (loseByDefault with Sente to
// move). For the CSA side of the foul, tsshogi's own CSA writer turns the
// KIF's ending into exactly our %+ILLEGAL_ACTION (the CSA spec: 先手の反則
// 行為により後手の勝ち); tsshogi 2.2.0's CSA reader reads ±ILLEGAL_ACTION
// against the side to move instead of the offender (csa.cjs passes
// position.color), so it reads its own file back as foulLose: the test
// takes either foul word there and leaves the side to our reader and the
// KIF. Skips without Node.js or tsshogi (KISEN_TSSHOGI_DIR), like the CSA
// corpus test.
func TestDownload_OfficialResultReadByTsshogi(t *testing.T) {
	t.Parallel()
	node, dir := tsshogiReader(t)
	eachApp(t, func(t *testing.T, a *testApp) {
		_, fouled, forfeit := officialGames(t, a)
		tmp := t.TempDir()
		files := map[string]string{
			"foul.kifu": download(t, a, fouled, ".kif"), "foul.csa": download(t, a, fouled, ".csa"),
			"forfeit.kifu": download(t, a, forfeit, ".kif"), "forfeit.csa": download(t, a, forfeit, ".csa"),
		}
		var paths []string
		for name, body := range files {
			p := filepath.Join(tmp, name)
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			paths = append(paths, p)
		}
		slices.Sort(paths)
		cmd := exec.Command(node, append([]string{filepath.Join("testdata", "official_tsshogi.cjs")}, paths...)...)
		cmd.Env = append(os.Environ(), "KISEN_TSSHOGI_DIR="+dir)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("tsshogi: %v", err)
		}
		t.Logf("tsshogi:\n%s", out)
		type read struct {
			File, Special, ToMove, Error, CSASpecial string
			Moves                                    []string
			Meta                                     map[string]string
		}
		got := map[string]read{}
		sc := bufio.NewScanner(strings.NewReader(string(out)))
		for sc.Scan() {
			var r read
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Fatalf("tsshogi output %q: %v", sc.Text(), err)
			}
			got[r.File] = r
		}
		want := map[string]read{
			"foul.kifu":    {Special: "foulWin", ToMove: "white", Moves: []string{"7g7f", "3c3d", "2g2f"}, CSASpecial: "%+ILLEGAL_ACTION"},
			"foul.csa":     {Special: "foulLose", ToMove: "white", Moves: []string{"7g7f", "3c3d", "2g2f"}}, // tsshogi's inverted reading, see above
			"forfeit.kifu": {Special: "loseByDefault", ToMove: "black"},
			"forfeit.csa":  {Special: "", ToMove: ""}, // CSA has no code for 不戦: a comment says it
		}
		for name, w := range want {
			r, ok := got[name]
			switch {
			case !ok:
				t.Errorf("tsshogi did not report %s:\n%s", name, out)
				continue
			case r.Error != "":
				t.Errorf("tsshogi refuses %s: %s", name, r.Error)
				continue
			}
			if w.CSASpecial != "" && r.CSASpecial != w.CSASpecial {
				t.Errorf("tsshogi writes the ending of %s in CSA as %q, want %q (what our CSA says)", name, r.CSASpecial, w.CSASpecial)
			}
			if name == "foul.csa" && (r.Special == "foulWin" || r.Special == "foulLose") {
				r.Special = w.Special // either foul word; see above
			}
			if r.Special != w.Special || r.ToMove != w.ToMove || !slices.Equal(r.Moves, w.Moves) && len(r.Moves)+len(w.Moves) > 0 {
				t.Errorf("tsshogi reads %s as %s (%s to move) after %v, want %s (%s to move) after %v", name, r.Special, r.ToMove, r.Moves, w.Special, w.ToMove, w.Moves)
			}
			if r.Meta["blackName"] != "羽生 善治" || r.Meta["whiteName"] != "藤井 聡太" {
				t.Errorf("tsshogi reads the players of %s as %q / %q", name, r.Meta["blackName"], r.Meta["whiteName"])
			}
			wantTime := "各3時間"
			if strings.HasSuffix(name, ".csa") {
				wantTime = "10800+60+0"
			}
			if r.Meta["timeLimit"] != wantTime {
				t.Errorf("tsshogi reads the time control of %s as %q, want %q", name, r.Meta["timeLimit"], wantTime)
			}
		}
	})
}

// nifuRecord: Sente drops a pawn on the 7th file, where its own pawn
// stands (二歩, move 9); nobody notices and Gote resigns.
const nifuRecord = `手合割：平手
手数----指手---------消費時間--
   1 ２六歩(27)
   2 ８四歩(83)
   3 ２五歩(26)
   4 ８五歩(84)
   5 ２四歩(25)
   6 同　歩(23)
   7 同　飛(28)
   8 ３四歩(33)
   9 ７八歩打
  10 投了
`

// TestDownload_D_X4_FoulFoundAfterTheGame: Gote resigned, but the record
// shows Sente's 二歩 at move 9, found after the game (D-X4, 対局規則 第10条
// 第3項): Sente loses. The KIF ends 「  10 反則勝ち」 (Gote, to move, wins) and
// 「まで9手で先手の反則負け」 with 公式結果：先手の反則負け（終局後に見つかった
// 反則：二歩、9手目）; the CSA ends %+ILLEGAL_ACTION with the same comment;
// both keep the resignation as 棋譜の終局 and read back as Gote's win. On
// both databases.
func TestDownload_D_X4_FoulFoundAfterTheGame(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		g := newGameSetup(t, a, "{}")
		ctx := context.Background()
		o := a.srv.Office
		game, err := o.CreateGame(ctx, g.admin, office.GameInput{EventID: g.event.ID, Label: "準決勝", SenteID: &g.sente.ID, GoteID: &g.gote.ID,
			AllowanceMinutes: 180, ScheduledOn: "2026-11-21"})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := o.SaveRecord(ctx, g.admin, game.ID, office.RecordInput{Text: nifuRecord, Format: "kif", AcceptFoul: true}); err != nil {
			t.Fatal(err)
		}
		end, err := o.EndGame(ctx, g.arbiter, game.ID, office.EndInput{Kind: "resign", By: "gote"})
		if err != nil {
			t.Fatal(err)
		}
		if end.Result.Result != office.ResultGoteWin || end.Result.Reason != "foul_after_game" {
			t.Fatalf("the game was decided %s by %s, want Gote's win by the foul found after the game", end.Result.Result, end.Result.Reason)
		}
		const words = "公式結果：先手の反則負け（終局後に見つかった反則：二歩、9手目）"
		kif := download(t, a, game.ID, ".kif")
		wantLines(t, "KIF", kif, "先手：羽生 善治", "後手：藤井 聡太", "  10 反則勝ち", "*棋譜の終局：投了", "*"+words, "まで9手で先手の反則負け")
		if got := readBack(t, "KIF", kif, kifu.FormatKIF).Result(); got.Outcome != kifu.OutcomeGoteWin {
			t.Errorf("KIF reads back as %+v, want Gote's win", got)
		}
		csa := download(t, a, game.ID, ".csa")
		wantLines(t, "CSA", csa, "%+ILLEGAL_ACTION", "'*棋譜の終局：投了", "'*"+words)
		if got := readBack(t, "CSA", csa, kifu.FormatCSA).Result(); got.Outcome != kifu.OutcomeGoteWin {
			t.Errorf("CSA reads back as %+v, want Gote's win", got)
		}
	})
}
