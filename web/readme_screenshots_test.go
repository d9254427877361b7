package web

import (
	"bytes"
	"cmp"
	"context"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"

	"kisen/office/seed"
)

// TestBrowser_ReadmeScreenshots writes the README's two pictures,
// docs/img/bracket.png and docs/img/league.png: a public knockout bracket
// and a public 順位戦 league table from a seeded fixture, in a 1000 px wide
// window, cropped to the page's content (the league table is drawn at 87 %
// so that its eleven rounds fit), reduced to 256 colours to stay small.
// It runs only with
// KISEN_README_SCREENSHOTS=1 (it rewrites files of the repository):
//
//	KISEN_README_SCREENSHOTS=1 go test ./web/ -run Readme
//
// Japanese needs a CJK font in Chromium's reach (Debian: fonts-noto-cjk).
func TestBrowser_ReadmeScreenshots(t *testing.T) {
	t.Parallel()
	if os.Getenv("KISEN_README_SCREENSHOTS") != "1" {
		t.Skip("set KISEN_README_SCREENSHOTS=1 to rewrite docs/img/bracket.png and docs/img/league.png")
	}
	ctx := newBrowser(t)
	a := newTestApp(t, storetestSQLite(t))
	f, err := seed.New(context.Background(), a.srv.Office, a.store, a.now)
	if err != nil {
		t.Fatal(err)
	}
	// Eight entrants, the first two rounds played: the final is still to come.
	ko, _, err := f.Knockout(context.Background(), 8, 2)
	if err != nil {
		t.Fatal(err)
	}
	// Eleven players of C2 (55 games), the first 30 decided.
	_, class, err := f.League(context.Background(), 11, 30)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join("..", "docs", "img")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	shots := []struct {
		name, path, wait string
		width            int64 // CSS pixels drawn into the 1000 px wide picture
	}{
		{"bracket", "/events/" + strconv.FormatInt(ko.ID, 10) + "/brackets", `.bracket`, 1000},
		{"league", "/league/" + strconv.FormatInt(class.ID, 10), `[data-testid="league-table"]`, 1250},
	}
	for _, s := range shots {
		do(t, ctx,
			chromedp.EmulateViewport(s.width, 800, chromedp.EmulateScale(1000/float64(s.width))),
			chromedp.Navigate(a.ts.URL+s.path),
			chromedp.WaitVisible(chromedp.CSS(s.wait)),
		)
		// The whole page from the top to the end of the main content.
		buf, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS(`main`)))
		if err != nil {
			t.Fatalf("screenshot %s: %v", s.name, err)
		}
		if buf, err = fewerColours(buf); err != nil {
			t.Fatalf("screenshot %s: %v", s.name, err)
		}
		p := filepath.Join(dir, s.name+".png")
		if err := os.WriteFile(p, buf, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d bytes", p, len(buf))
	}
}

// fewerColours re-encodes a screenshot with the 256 colours it uses most
// (a page is flat colours and anti-aliased text), every other pixel drawn
// in the nearest of them, at the best compression.
func fewerColours(buf []byte) ([]byte, error) {
	img, err := png.Decode(bytes.NewReader(buf))
	if err != nil {
		return nil, err
	}
	b := img.Bounds()
	counts := map[color.RGBA]int{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			counts[color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)]++
		}
	}
	used := make([]color.RGBA, 0, len(counts))
	for c := range counts {
		used = append(used, c)
	}
	key := func(c color.RGBA) uint32 { return uint32(c.R)<<24 | uint32(c.G)<<16 | uint32(c.B)<<8 | uint32(c.A) }
	slices.SortFunc(used, func(a, b color.RGBA) int {
		return cmp.Or(cmp.Compare(counts[b], counts[a]), cmp.Compare(key(a), key(b)))
	})
	pal := make(color.Palette, 0, 256)
	for _, c := range used[:min(256, len(used))] {
		pal = append(pal, c)
	}
	pm := image.NewPaletted(b, pal)
	draw.Draw(pm, b, img, b.Min, draw.Src)
	var out bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&out, pm); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}
