package web

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"kisen/office/seed"
)

// TestLeagueMarks_NoneBeforeAnyGameProvisionalAfterSome: a 順位戦 class
// table shows no 昇級 or ★降級点 at 0勝0敗; after some games the marks it
// shows carry 暫定 (provisional), in both languages.
func TestLeagueMarks_NoneBeforeAnyGameProvisionalAfterSome(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f, err := seed.New(ctx, a.srv.Office, a.store, a.now)
		if err != nil {
			t.Fatal(err)
		}
		_, fresh, err := f.League(ctx, 11, 0)
		if err != nil {
			t.Fatal(err)
		}
		_, played, err := f.League(ctx, 11, 10)
		if err != nil {
			t.Fatal(err)
		}
		marksOf := func(classID int64) (marks, provisional int, text string) {
			_, body := a.get(fmt.Sprintf("/league/%d", classID))
			d := doc(t, body)
			d.Find(`[data-testid="league-marks"]`).Each(func(_ int, s *goquery.Selection) {
				marks += s.Find(".league-mark").Length()
				text += s.Text() + "|"
			})
			provisional = d.Find(`[data-testid="league-provisional"]`).Length()
			return marks, provisional, text
		}
		if m, p, text := marksOf(fresh.ID); m != 0 || p != 0 || strings.Contains(text, "昇級") || strings.Contains(text, "降級点") {
			t.Fatalf("before any game: %d marks, %d provisional: %q", m, p, text)
		}
		m, p, text := marksOf(played.ID)
		if m == 0 || p == 0 {
			t.Fatalf("after 10 games: %d marks, %d provisional: %q", m, p, text)
		}
		if !strings.Contains(text, "昇級") || !strings.Contains(text, "暫定") {
			t.Fatalf("after 10 games the marks say %q", text)
		}
		a.get("/lang?to=en&back=/")
		if _, _, text := marksOf(played.ID); !strings.Contains(text, "provisional") || strings.Contains(text, "暫定") {
			t.Fatalf("English marks: %q", text)
		}
	})
}
