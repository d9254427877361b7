package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"kisen/office"
)

// drawnPickStage is a first preliminary of eight drawn (not published)
// with players[0] the master of players[1]; it returns the stage path and
// the slots.
func drawnPickStage(t *testing.T, a *testApp) (*bracketFixture, string, []string) {
	t.Helper()
	f := newBracketFixture(t, a)
	path := f.newStage(t, "一次予選")
	lines := make([]string, 0, len(f.players))
	for _, p := range f.players {
		lines = append(lines, p.Name)
	}
	if resp, _ := a.postForm(path+"/entrants/bulk", url.Values{"lines": {strings.Join(lines, "\n")}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("paste entrants: %d", resp.StatusCode)
	}
	if resp, _ := a.postForm(path+"/draw", url.Values{"seed": {"5"}, "draw_date": {"2026-11-21"}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("draw: %d", resp.StatusCode)
	}
	st, _ := a.store.StageByID(context.Background(), stageIDOf(t, path))
	slots, _ := office.StageSlots(st)
	return f, path, slots
}

// TestSwapPick_D_A1_PickTwoPlayersPreviewsTheSwapInWords: picking a
// player in the drawn bracket and then another shows what the swap would
// do and the master–student rule it breaks, in words with both names and
// no rule id; nothing is saved until the swap form (filled in with the
// two slots) is sent.
func TestSwapPick_D_A1_PickTwoPlayersPreviewsTheSwapInWords(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f, path, slots := drawnPickStage(t, a)
		m, d := strconv.FormatInt(f.players[0].ID, 10), strconv.FormatInt(f.players[1].ID, 10)
		im, id := slices.Index(slots, m), slices.Index(slots, d)
		opp := (im ^ 1) + 1 // the master's round-1 opponent, 1-based
		_, body := a.get(fmt.Sprintf("%s?pick=%d", path, opp))
		dd := doc(t, body)
		if dd.Find(`[data-testid="pick-first"]`).Length() != 1 || dd.Find(fmt.Sprintf(`[data-testid="pick-with-%d"]`, id+1)).Length() != 1 {
			t.Fatalf("after the first pick: notice %d, link to slot %d %d", dd.Find(`[data-testid="pick-first"]`).Length(), id+1, dd.Find(fmt.Sprintf(`[data-testid="pick-with-%d"]`, id+1)).Length())
		}
		href, _ := dd.Find(fmt.Sprintf(`[data-testid="pick-with-%d"]`, id+1)).Attr("href")
		_, body = a.get(href)
		dd = doc(t, body)
		preview := dd.Find(`[data-testid="swap-preview"]`).Text()
		for _, want := range []string{f.players[0].Name, f.players[1].Name, "は師弟のため、一次予選1回戦では当たりません", "理由を記入"} {
			if !strings.Contains(preview, want) {
				t.Errorf("preview %q lacks %q", preview, want)
			}
		}
		if devText.MatchString(preview) || strings.Contains(preview, "slot") || strings.Contains(preview, "master") {
			t.Errorf("preview shows developer text: %q", preview)
		}
		a1, _ := dd.Find(`[data-testid="swap-form"] input[name="a"]`).Attr("value")
		b1, _ := dd.Find(`[data-testid="swap-form"] input[name="b"]`).Attr("value")
		if a1 != strconv.Itoa(opp) || b1 != strconv.Itoa(id+1) {
			t.Fatalf("swap form filled with %q, %q; want %d, %d", a1, b1, opp, id+1)
		}
		st, _ := a.store.StageByID(ctx, stageIDOf(t, path))
		if now, _ := office.StageSlots(st); !slices.Equal(now, slots) {
			t.Fatal("the preview changed the slots")
		}
		resp, _ := a.postForm(path+"/swap", url.Values{"a": {a1}, "b": {b1}, "reason": {"主催者の判断"}})
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("confirmed swap: %d", resp.StatusCode)
		}
		st, _ = a.store.StageByID(ctx, stageIDOf(t, path))
		if now, _ := office.StageSlots(st); now[im^1] != d {
			t.Fatalf("swap not saved: %v", now)
		}
		// Swapping the pair back apart breaks nothing, and says so.
		_, body = a.get(fmt.Sprintf("%s?pick=%d&with=%d", path, (im^1)+1, id+1))
		if testid(t, body, "swap-preview-ok") == "" {
			t.Fatalf("no word that the swap breaks nothing: %q", testid(t, body, "swap-preview"))
		}
	})
}
