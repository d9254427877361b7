package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"kisen/store"
)

var reAllFinger = regexp.MustCompile(`name="fingerprint" value="([0-9a-f]{64})"`)

// The director's list accepts every pending entry without a suggestion at
// once: a button, the names it will accept, the confirmation; an entry
// with a suggestion stays; a list changed since the preview is 409 with
// nothing written; nobody but the day's staff may.
func TestDayEntryWeb_ApproveAllWithoutSuggestion(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := seedEntryDay(t, a, true)
		ctx := context.Background()
		reg := store.Player{Name: "高橋 悠斗", Reading: "たかはし ゆうと", Kind: store.PlayerAmateur, Rank: "二段", CreatedAt: a.now, UpdatedAt: a.now}
		if err := a.store.CreatePlayer(ctx, &reg); err != nil {
			t.Fatal(err)
		}
		form := fmt.Sprintf("/events/%d/day/entry", f.event.ID)
		enter := func(name, reading, rank string) {
			t.Helper()
			if resp, _ := a.postForm(form, url.Values{"name": {name}, "reading": {reading}, "rank": {rank}, "contact": {"x"}}); resp.StatusCode != http.StatusSeeOther {
				t.Fatalf("entry %s: %d", name, resp.StatusCode)
			}
		}
		enter("青木 健一", "あおき けんいち", "三段")
		enter("高橋悠斗", "たかはしゆうと", "二段")
		enter("佐藤 蓮", "さとう れん", "初段")
		list := fmt.Sprintf("/events/%d/day/entries", f.event.ID)

		// Nobody but the day's staff: a signed-in stranger is refused.
		stranger := a.addUser("stranger", false)
		a.signIn(a.client, stranger.ID)
		if resp, _ := a.postForm(list+"/approve-all", nil); resp.StatusCode != http.StatusNotFound && resp.StatusCode != http.StatusForbidden {
			t.Fatalf("a stranger's preview: %d", resp.StatusCode)
		}
		a.signIn(a.client, f.admin.UserID)
		resp, body := a.get(list)
		if !strings.Contains(body, `data-testid="entries-approve-all-preview"`) || !strings.Contains(body, "2件") {
			t.Fatalf("the list offers no approve-all for 2: %d\n%s", resp.StatusCode, body)
		}
		resp, body = a.postForm(list+"/approve-all", nil)
		preview := textOfSel(t, body, `[data-testid="entries-approve-all-list"]`)
		m := reAllFinger.FindStringSubmatch(body)
		if resp.StatusCode != http.StatusOK || m == nil || !strings.Contains(preview, "青木 健一") || !strings.Contains(preview, "佐藤 蓮") || strings.Contains(preview, "高橋") {
			t.Fatalf("preview: %d %q", resp.StatusCode, preview)
		}
		// Another entry arrives: the preview no longer holds.
		enter("新井 翼", "あらい つばさ", "初段")
		before := countRows(t, a)
		if resp, _ := a.postForm(list+"/approve-all/confirm", url.Values{"fingerprint": {m[1]}}); resp.StatusCode != http.StatusConflict || countRows(t, a) != before {
			t.Fatalf("a stale confirmation: %d, rows %v → %v", resp.StatusCode, before, countRows(t, a))
		}
		_, body = a.postForm(list+"/approve-all", nil)
		m = reAllFinger.FindStringSubmatch(body)
		resp, _ = a.postForm(list+"/approve-all/confirm", url.Values{"fingerprint": {m[1]}})
		if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != list+"?approved=3" {
			t.Fatalf("confirm: %d %q", resp.StatusCode, resp.Header.Get("Location"))
		}
		_, body = a.get(resp.Header.Get("Location"))
		if !strings.Contains(textOfSel(t, body, `[data-testid="entries-bulk-done"]`), "3人") || strings.Contains(body, `data-testid="entries-approve-all"`) {
			t.Fatalf("after: %s", textOfSel(t, body, "main"))
		}
		after := countRows(t, a)
		if after[2]-before[2] != 3 {
			t.Errorf("%d entrants added, want 3", after[2]-before[2])
		}
	})
}
