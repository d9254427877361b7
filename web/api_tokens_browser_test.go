package web

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"kisen/office"
)

// Issue 15 part 4 in a browser: a director makes a token from the event
// page, copies the secret shown once, a program enters a result with it,
// the page counts the write, and revoking it stops the program at once.
func TestBrowser_DirectorMakesUsesAndRevokesAnAPIToken(t *testing.T) {
	t.Parallel()
	ctx := newBrowser(t)
	a := newTestApp(t, storetestSQLite(t))
	g := newGameSetup(t, a, "{}")
	if err := a.srv.Office.GrantEventRole(context.Background(), g.admin, office.RoleGrant{EventID: g.event.ID, UserID: g.arbiter.UserID, Role: office.RoleDirector}); err != nil {
		t.Fatal(err)
	}
	eventURL := a.ts.URL + "/events/" + strconv.FormatInt(g.event.ID, 10)
	do(t, ctx, steps(one(
		chromedp.Navigate(a.ts.URL+"/login?next=/events/"+strconv.FormatInt(g.event.ID, 10)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="login-form"]`)),
		chromedp.SendKeys(chromedp.CSS(`#f-login`), "tachiai"),
		chromedp.SendKeys(chromedp.CSS(`#f-password`), arbiterPassword)),
		submit("login-submit"), one(
			chromedp.Navigate(eventURL),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="event-tokens"]`))),
		submit("event-tokens"), one(
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="tokens-none"]`)),
			fill("name", "会場タブレット"),
			chromedp.SetValue(chromedp.CSS(`[data-testid="token-scope"]`), office.ScopeResults)),
		submit("token-submit"), one(
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="token-secret"]`))))...,
	)
	secret, err := chromedp.Run(ctx, chromedp.Value(chromedp.CSS(`[data-testid="token-secret"]`)))
	if err != nil || !strings.HasPrefix(secret, "kisen_") {
		t.Fatalf("secret %q: %v", secret, err)
	}
	screenshot(t, ctx, "api-token-made")
	resp, body := apiPost(t, a, fmt.Sprintf("/games/%d/result", g.game.ID), secret, `{"version":0,"kind":"resign","by":"gote"}`)
	if resp.StatusCode != 200 {
		t.Fatalf("the program's result: %d %s", resp.StatusCode, body)
	}
	// Shown once: the page again has no secret, and counts the write.
	do(t, ctx, chromedp.Navigate(eventURL+"/tokens"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="tokens-table"]`)))
	if n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('[data-testid="token-secret"]').length`)); err != nil || n != 0 {
		t.Fatalf("the secret is shown again (%d, %v)", n, err)
	}
	row := textOf(t, ctx, `[data-testid="tokens-table"] tbody tr`)
	if !strings.Contains(row, "会場タブレット") || !strings.Contains(row, "結果入力") || !strings.Contains(row, "立会 一郎") || !strings.Contains(row, "有効") {
		t.Fatalf("token row %q", row)
	}
	var nodes []*chromedp.Node
	nodes, err = chromedp.Run(ctx, chromedp.Nodes(chromedp.CSS(`[data-testid^="token-revoke-"]`)))
	if err != nil || len(nodes) != 1 {
		t.Fatalf("revoke buttons: %d %v", len(nodes), err)
	}
	id := strings.TrimPrefix(nodes[0].AttributeValue("data-testid"), "token-revoke-")
	do(t, ctx, steps(submit("token-revoke-"+id), one(chromedp.WaitVisible(chromedp.CSS(`[data-testid="token-state-`+id+`"]`))))...)
	if st := textOf(t, ctx, `[data-testid="token-state-`+id+`"]`); !strings.Contains(st, "無効化済み") {
		t.Fatalf("state %q", st)
	}
	screenshot(t, ctx, "api-token-revoked")
	if resp, _ := apiPost(t, a, fmt.Sprintf("/games/%d/result", g.game.ID), secret, `{"version":1,"kind":"resign","by":"sente"}`); resp.StatusCode != 401 {
		t.Fatalf("a revoked token wrote: %d", resp.StatusCode)
	}
	// The game page names the token in the history.
	do(t, ctx, chromedp.Navigate(a.ts.URL+"/games/"+strconv.FormatInt(g.game.ID, 10)), chromedp.WaitVisible(chromedp.CSS(`[data-testid="results-table"]`)))
	if s := textOf(t, ctx, `[data-testid="results-table"]`); !strings.Contains(s, "会場タブレット") {
		t.Fatalf("history %q", s)
	}
}
