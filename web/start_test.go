package web

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"kisen/office"
	"kisen/office/seed"
	"kisen/store"
)

// devText is what a start page must never show: rule ids, result and log
// codes, raw message keys.
var devText = regexp.MustCompile(`D-[A-Z][0-9]|sente_win|gote_win|both_lose|seed_by_rating|start\.[a-z_.]+|\{\{`)

func startBody(t *testing.T, a *testApp) string {
	t.Helper()
	resp, body := a.get("/start")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /start: %d\n%s", resp.StatusCode, body)
	}
	if m := devText.FindString(body); m != "" {
		t.Fatalf("start page shows developer text %q", m)
	}
	return body
}

// TestStart_SignedInHomeAndSetupLandThere: the home page sends signed-in
// staff to /start; the public still get the public home page; /start asks
// the public to sign in.
func TestStart_SignedInHomeAndSetupLandThere(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		if resp, body := a.get("/"); resp.StatusCode != http.StatusOK || !strings.Contains(body, "/players") {
			t.Fatalf("public home: %d", resp.StatusCode)
		}
		if resp, _ := a.get("/start"); resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/login") {
			t.Fatalf("public /start: %d %s", resp.StatusCode, resp.Header.Get("Location"))
		}
		u := a.addUser("staff", false)
		a.signIn(a.client, u.ID)
		if resp, _ := a.get("/"); resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/start" {
			t.Fatalf("signed-in home: %d %s", resp.StatusCode, resp.Header.Get("Location"))
		}
		body := startBody(t, a)
		if doc(t, body).Find(`[data-testid="start-checklist"]`).Length() != 0 {
			t.Error("a user who is not an administrator sees the setup checklist")
		}
		if !strings.Contains(body, "担当している棋戦はまだありません") {
			t.Error("no word for a user without events")
		}
	})
}

// TestStart_ChecklistTicksItselfOff: after first-run setup an
// administrator sees organiser → event → players → stage or league, each
// ticked off by the data, and the checklist goes once all are done.
func TestStart_ChecklistTicksItselfOff(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		admin := a.addUser("boss", true)
		a.signIn(a.client, admin.ID)
		count := func(id string) int { return doc(t, startBody(t, a)).Find(`[data-testid="` + id + `"]`).Length() }
		if todo, done := count("setup-step-todo"), count("setup-step-done"); todo != 4 || done != 0 {
			t.Fatalf("fresh install: %d to do, %d done; want 4, 0", todo, done)
		}
		f, err := seed.New(ctx, a.srv.Office, a.store, a.now) // an organiser
		if err != nil {
			t.Fatal(err)
		}
		if todo, done := count("setup-step-todo"), count("setup-step-done"); todo != 3 || done != 1 {
			t.Fatalf("after the organiser: %d to do, %d done; want 3, 1", todo, done)
		}
		if _, err := f.Players(ctx, 2, ""); err != nil {
			t.Fatal(err)
		}
		if todo, done := count("setup-step-todo"), count("setup-step-done"); todo != 2 || done != 2 {
			t.Fatalf("after players: %d to do, %d done; want 2, 2", todo, done)
		}
		if _, _, err := f.Knockout(ctx, 4, 0); err != nil { // an event and a stage
			t.Fatal(err)
		}
		if n := count("start-checklist"); n != 0 {
			t.Fatal("the checklist stays after every step is done")
		}
	})
}

// TestStart_WaitingGamesConfirmationsAndChangesInWords: a director sees
// their event under their role, games waiting for a result with the
// players' names, a result another person entered waiting for their
// confirmation, and recent changes as sentences with names.
func TestStart_WaitingGamesConfirmationsAndChangesInWords(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f, err := seed.New(ctx, a.srv.Office, a.store, a.now)
		if err != nil {
			t.Fatal(err)
		}
		e, _, err := f.Knockout(ctx, 4, 1) // round 1 decided, the final waits
		if err != nil {
			t.Fatal(err)
		}
		other, _, err := f.Knockout(ctx, 4, 0) // not this director's
		if err != nil {
			t.Fatal(err)
		}
		u := a.addUser("director", false)
		if err := a.srv.Office.GrantEventRole(ctx, f.Admin, office.RoleGrant{EventID: e.ID, UserID: u.ID, Role: office.RoleDirector}); err != nil {
			t.Fatal(err)
		}
		a.signIn(a.client, u.ID)
		body := startBody(t, a)
		d := doc(t, body)
		if n := d.Find(`[data-testid="start-event"]`).Length(); n != 1 || !strings.Contains(d.Find(`[data-testid="start-events"]`).Text(), "大会責任者として") {
			t.Fatalf("events: %d listed\n%s", n, d.Find(`[data-testid="start-events"]`).Text())
		}
		if strings.Contains(body, other.Name) && other.Name != e.Name {
			t.Error("an event the director does not staff is listed")
		}
		games, err := a.store.GamesOfEvent(ctx, e.ID)
		if err != nil {
			t.Fatal(err)
		}
		final := games[len(games)-1]
		if final.SentePlayerID == nil || final.GotePlayerID == nil {
			t.Fatal("the final has no players")
		}
		_, names, err := a.store.NamesOf(ctx, nil, []int64{*final.SentePlayerID, *final.GotePlayerID})
		if err != nil {
			t.Fatal(err)
		}
		waiting := d.Find(`[data-testid="start-waiting-result"]`)
		if waiting.Length() != 1 || !strings.Contains(waiting.Text(), names[*final.SentePlayerID].Name) || !strings.Contains(waiting.Text(), names[*final.GotePlayerID].Name) {
			t.Fatalf("waiting for a result: %d lines %q", waiting.Length(), waiting.Text())
		}
		changes := d.Find(`[data-testid="start-change"]`)
		if changes.Length() < 3 || !strings.Contains(changes.Text(), "結果を入力しました") || !strings.Contains(changes.Text(), "先手") ||
			!strings.Contains(changes.Text(), "組み合わせを公開しました") {
			t.Fatalf("recent changes: %q", changes.Text())
		}
		// A version entered by someone else and not confirmed (an event
		// requiring confirmation) waits for this director.
		r := &store.GameResult{GameID: final.ID, Result: office.ResultGoteWin, Reason: "resignation", Outcome: "{}", EnteredBy: f.Admin.UserID, EnteredAt: a.now}
		if err := a.store.AppendResult(ctx, r); err != nil {
			t.Fatal(err)
		}
		d = doc(t, startBody(t, a))
		confirm := d.Find(`[data-testid="start-waiting-confirm"]`)
		want := "後手 " + names[*final.GotePlayerID].Name + " の勝ち（管理者 が入力）"
		if confirm.Length() != 1 || !strings.Contains(confirm.Text(), want) {
			t.Fatalf("waiting for a confirmation: %q, want %q", confirm.Text(), want)
		}
		if n := d.Find(`[data-testid="start-waiting-result"]`).Length(); n != 0 {
			t.Errorf("a game with a version still waits for a result (%d)", n)
		}
		// In English the same lines are sentences in English.
		a.get("/lang?to=en&back=/start")
		d = doc(t, startBody(t, a))
		if got := d.Find(`[data-testid="start-waiting-confirm"]`).Text(); !strings.Contains(got, "(gote) won (entered by 管理者)") {
			t.Errorf("English confirmation line: %q", got)
		}
		if got := d.Find(`[data-testid="start-changes"]`).Text(); !strings.Contains(got, "published the draw of") {
			t.Errorf("English changes: %q", got)
		}
	})
}

// TestQueryCount_StartPageCostsTheSameAtTenTimesTheSize: the start page
// issues the same number of statements for an administrator with a small
// event and after a ten times larger one is added (issue 12). It takes
// about 25 s on SQLite under -race (2 tests at once on 2 cores shared with
// other work; up to 180 s among the package's 8 at once): the ten times
// larger event is seeded through the office.
func TestQueryCount_StartPageCostsTheSameAtTenTimesTheSize(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f, err := seed.New(context.Background(), a.srv.Office, a.store, a.now)
		if err != nil {
			t.Fatal(err)
		}
		seedQueryFixture(t, f, 1)
		a.signIn(a.client, a.addUser("qc-admin", true).ID)
		small := statementsOf(t, a, a.store, "/start")
		seedQueryFixture(t, f, 10)
		large := statementsOf(t, a, a.store, "/start")
		t.Logf("start page: small %d large %d", small, large)
		if small != large || large > 30 {
			t.Errorf("start page: %d statements small, %d large (want equal, at most 30)", small, large)
		}
	})
}
