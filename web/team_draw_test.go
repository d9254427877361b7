package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"kisen/store"
)

var (
	reDrawVersion     = regexp.MustCompile(`name="version" value="([0-9]+)"`)
	reDrawFingerprint = regexp.MustCompile(`name="fingerprint" value="([0-9a-f]+)"`)
)

// drawForm reads the confirm form's version and fingerprint from a preview.
func drawForm(t *testing.T, body string) url.Values {
	t.Helper()
	v, fp := reDrawVersion.FindStringSubmatch(body), reDrawFingerprint.FindStringSubmatch(body)
	if v == nil || fp == nil {
		t.Fatalf("no confirm form in the preview:\n%s", body)
	}
	return url.Values{"version": {v[1]}, "fingerprint": {fp[1]}}
}

// Issue 25 item 4 through the pages: the director's button on the round
// page leads to the preview in team names with tables and the bye (in
// Japanese and English); a user without the director's role is refused; a
// stale confirmation is 409 with the fresh preview and writes nothing; the
// confirmation writes the matches and the bye, the matches page names the
// bye, and the round is not drawn twice.
func TestTeamDrawWeb_Issue25_PreviewConfirmStale(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f, rid, _ := seedTeamRound(t, a, "抽選団体", 3)
		dpath := fmt.Sprintf("/team-rounds/%d/draw", rid)

		// Others: a signed-in user without the role, and an arbiter-free
		// public client sent to sign in.
		other := a.newClient()
		u := a.addUser("draw-outsider", false)
		a.signIn(other, u.ID)
		if resp, _ := a.do(other, http.MethodGet, dpath, nil, ""); resp.StatusCode != http.StatusForbidden && resp.StatusCode != http.StatusNotFound {
			t.Fatalf("a user without the role sees the draw: %d", resp.StatusCode)
		}
		form := url.Values{"version": {"1"}, "fingerprint": {"00"}, "_csrf": {a.csrfToken(other)}}
		if resp, _ := a.do(other, http.MethodPost, dpath, strings.NewReader(form.Encode()), "application/x-www-form-urlencoded"); resp.StatusCode != http.StatusForbidden && resp.StatusCode != http.StatusNotFound {
			t.Fatalf("a user without the role confirms the draw: %d", resp.StatusCode)
		}
		if resp, body := a.do(a.newClient(), http.MethodGet, fmt.Sprintf("/team-rounds/%d", rid), nil, ""); resp.StatusCode != http.StatusOK || strings.Contains(body, "round-draw") {
			t.Fatalf("the public round page offers the draw: %d", resp.StatusCode)
		}

		a.signIn(a.client, f.admin.UserID)
		if _, body := a.get(fmt.Sprintf("/team-rounds/%d", rid)); !strings.Contains(body, `href="`+dpath+`"`) || !strings.Contains(body, "この回戦を組み合わせる") {
			t.Fatalf("the round page lacks the draw button:\n%s", body)
		}
		resp, body := a.get(dpath)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("preview: %d\n%s", resp.StatusCode, body)
		}
		for _, want := range []string{"第1回戦の組み合わせ", "第1卓", "抽選団体チーム0", "不戦勝（対戦なし）：", "この組み合わせで確定する", "（勝ち点0）"} {
			if !strings.Contains(body, want) {
				t.Errorf("preview lacks %q", want)
			}
		}
		if strings.Count(body, `data-testid="draw-match"`) != 1 {
			t.Errorf("three teams: want one match and a bye")
		}
		good := drawForm(t, body)
		a.setLang(a.client, "en")
		_, en := a.get(dpath)
		for _, want := range []string{"Drawing round 1", "Table 1", "Bye (no match):", "Confirm this draw"} {
			if !strings.Contains(en, want) {
				t.Errorf("English preview lacks %q", want)
			}
		}
		if strings.Contains(en, "卓") || strings.Contains(en, "不戦勝") {
			t.Errorf("Japanese words on the English preview")
		}
		a.setLang(a.client, "ja")

		stale := url.Values{"version": {good.Get("version") + "9"}, "fingerprint": good["fingerprint"]}
		resp, body = a.postForm(dpath, stale)
		if resp.StatusCode != http.StatusConflict || !strings.Contains(body, "プレビューのあとで") || !strings.Contains(body, `data-testid="draw-preview"`) {
			t.Fatalf("stale confirmation: %d\n%s", resp.StatusCode, body)
		}
		var n int64
		if err := a.store.DB(ctx).Model(&store.TeamMatch{}).Where("round_id = ?", rid).Count(&n).Error; err != nil || n != 0 {
			t.Fatalf("%d matches after a stale confirmation (%v)", n, err)
		}
		if resp, body = a.postForm(dpath, good); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("confirm: %d\n%s", resp.StatusCode, body)
		}
		if err := a.store.DB(ctx).Model(&store.TeamMatch{}).Where("round_id = ?", rid).Count(&n).Error; err != nil || n != 1 {
			t.Fatalf("%d matches written (%v)", n, err)
		}
		if _, err := a.store.TeamByesOfEvent(ctx, f.event.ID); err != nil {
			t.Fatal(err)
		}
		_, body = a.do(a.newClient(), http.MethodGet, fmt.Sprintf("/team-rounds/%d/matches", rid), nil, "")
		if !strings.Contains(body, "不戦勝（対戦なし）：抽選団体チーム0") || !strings.Contains(body, "第1卓") {
			t.Fatalf("the public matches page lacks the bye or the match:\n%s", body)
		}
		// Drawn: the page says so in words, and a second confirmation is stale.
		if _, body = a.get(dpath); !strings.Contains(body, "すでに組み合わせ済み") || strings.Contains(body, "draw-form") {
			t.Fatalf("a drawn round offers the draw again:\n%s", body)
		}
		if resp, _ = a.postForm(dpath, good); resp.StatusCode != http.StatusConflict {
			t.Fatalf("second confirmation: %d", resp.StatusCode)
		}
	})
}

// The scoring form: refused in words (a tie-break twice, an unknown one, a
// point that is not a half) with 422 and nothing written; saved, it shapes
// the standings page (the points in words, the tie-breaks in the chosen
// order each with its value); others may not use it.
func TestTeamScoringWeb_Issue25_FormValidatedAndUsed(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f, _, _ := seedTeamRound(t, a, "勝ち点団体", 2)
		spath := fmt.Sprintf("/events/%d/teams/scoring", f.event.ID)
		other := a.newClient()
		u := a.addUser("scoring-outsider", false)
		a.signIn(other, u.ID)
		if resp, _ := a.do(other, http.MethodGet, spath, nil, ""); resp.StatusCode != http.StatusForbidden && resp.StatusCode != http.StatusNotFound {
			t.Fatalf("a user without the role sees the scoring form: %d", resp.StatusCode)
		}

		a.signIn(a.client, f.admin.UserID)
		resp, body := a.get(spath)
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, "勝ち点とタイブレーク") || !strings.Contains(body, "ソルコフ") {
			t.Fatalf("form: %d\n%s", resp.StatusCode, body)
		}
		form := func(edit func(url.Values)) url.Values {
			v := url.Values{"version": {"0"}, "win": {"1"}, "draw": {"0.5"}, "loss": {"0"}, "bye": {"1"}, "bye_board_wins": {"0"},
				"tiebreak_1": {"buchholz"}, "tiebreak_2": {"captain"}}
			if edit != nil {
				edit(v)
			}
			return v
		}
		for _, c := range []struct {
			edit func(url.Values)
			want string
		}{
			{func(v url.Values) { v.Set("tiebreak_2", "buchholz") }, "2番目のタイブレークは1番目と同じです"},
			{func(v url.Values) { v.Set("tiebreak_1", "elo") }, "1番目のタイブレークは選べないものです"},
			{func(v url.Values) { v.Set("draw", "0.3") }, "0.5刻み"},
		} {
			resp, body := a.postForm(spath, form(c.edit))
			if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, c.want) {
				t.Errorf("want 422 with %q: %d\n%s", c.want, resp.StatusCode, body)
			}
		}
		if _, err := a.store.TeamScoringOf(ctx, f.event.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("a refused form wrote the scoring: %v", err)
		}
		if resp, body = a.postForm(spath, form(nil)); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("save: %d\n%s", resp.StatusCode, body)
		}
		if resp, _ = a.postForm(spath, form(nil)); resp.StatusCode != http.StatusConflict {
			t.Fatalf("stale save: %d", resp.StatusCode)
		}
		_, body = a.do(a.newClient(), http.MethodGet, fmt.Sprintf("/events/%d/teams/standings", f.event.ID), nil, "")
		if !strings.Contains(body, "勝ち点：勝ち1・引き分け0.5・負け0・不戦勝1") {
			t.Errorf("standings lack the points in words")
		}
		head := regexp.MustCompile(`(?s)<thead>.*?</thead>`).FindString(body)
		if b, c := strings.Index(head, "ソルコフ"), strings.Index(head, "主将戦"); b < 0 || c < 0 || b > c || strings.Contains(head, "直接対決") {
			t.Errorf("standings headings not in the chosen order: %s", head)
		}
		if strings.Count(body, `data-testid="standings-line"`) != 2 {
			t.Errorf("standings lines missing")
		}
	})
}

// The draw and scoring pages cost a fixed number of statements for 2 teams
// and for 20.
func TestTeamDrawWeb_Issue25_QueryCountConstant(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		paths := func(n int) ([]string, int64) {
			f, rid, _ := seedTeamRound(t, a, fmt.Sprintf("組合せ%d", n), n)
			return []string{fmt.Sprintf("/team-rounds/%d/draw", rid), fmt.Sprintf("/events/%d/teams/scoring", f.event.ID)}, f.admin.UserID
		}
		small, admin := paths(2)
		large, _ := paths(20)
		a.signIn(a.client, admin) // an administrator: director of both
		for i := range small {
			s, l := statementsOf(t, a, a.store, small[i]), statementsOf(t, a, a.store, large[i])
			if s != l {
				t.Errorf("%s: %d statements for 2 teams, %d for 20", large[i], s, l)
			}
		}
	})
}
