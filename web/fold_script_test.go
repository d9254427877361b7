package web

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"kisen/office"
)

// The browser folds names as the server does (web/site/static/fold.js,
// store/name_fold.go): the desk's search box and the public pages' name
// filters find 高橋 for 髙橋, as entry matching does.

// foldJS is the browser's fold, read from the embedded folder's source.
func foldJS(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("site/static/fold.js")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The script's 異体字 table is the server's, pair for pair.
func TestFoldJS_TableIsStoreFoldName(t *testing.T) {
	t.Parallel()
	src := foldJS(t)
	body := src[strings.Index(src, "var variants = {"):]
	body = body[:strings.Index(body, "};")]
	got := map[rune]rune{}
	for _, m := range regexp.MustCompile(`"(.)": "(.)"`).FindAllStringSubmatch(body, -1) {
		got[[]rune(m[1])[0]] = []rune(m[2])[0]
	}
	want := office.NameVariants()
	if len(got) != len(want) {
		t.Errorf("fold.js has %d pairs, store.FoldName %d", len(got), len(want))
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("fold.js folds %q to %q, the server to %q", k, got[k], v)
		}
	}
}

// Chromium runs fold.js over names typed every way and gets what
// office.FoldName gets: spaces (ASCII and 全角), the 中黒, half-width and
// katakana readings, full-width Latin, and every 異体字 of the table,
// including the two outside the basic plane (𥔎, 𠮷).
func TestBrowser_FoldJSIsFoldName(t *testing.T) {
	t.Parallel()
	ctx := newBrowser(t)
	samples := []string{
		"高橋 悠斗", "髙橋　悠斗", "タカハシ ユウト", "ﾀｶﾊｼ ﾕｳﾄ", "たかはし・ゆうと", "ｳｨﾘｱﾑ･ｽﾐｽ",
		"ＡＢＣ Shogi", "山﨑", "山嵜", "山𥔎", "𠮷田", "渡邊", "渡邉", "齋藤", "齊藤", "斉藤", "斎藤",
		"ヽヾ", "ヵヶ", "ヴ", "", "  ",
	}
	for k := range office.NameVariants() {
		samples = append(samples, "x"+string(k)+"y")
	}
	in, err := json.Marshal(samples)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	do(t, ctx, chromedp.Navigate("about:blank"))
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](foldJS(t)+"; true")); err != nil {
		t.Fatal(err)
	}
	out, err := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify(`+string(in)+`.map(window.kisenFold))`))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got) != len(samples) {
		t.Fatalf("fold.js answered %q (%v)", out, err)
	}
	for i, s := range samples {
		if want := office.FoldName(s); got[i] != want {
			t.Errorf("fold.js(%q) = %q, office.FoldName = %q", s, got[i], want)
		}
	}
	// The fold does what the desk needs, not only what Go does.
	if office.FoldName("髙橋　ユウト") != office.FoldName("高橋ゆうと") || office.FoldName("齊藤") == office.FoldName("斎藤") {
		t.Errorf("the fold itself: %q %q %q", office.FoldName("髙橋　ユウト"), office.FoldName("齊藤"), office.FoldName("斎藤"))
	}
}
