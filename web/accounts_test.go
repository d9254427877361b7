package web

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"kisen/office"
	"kisen/store"
	"kisen/web/site"
)

// cheapParams keeps handler tests fast for users they insert; hashes carry
// their parameters, so the server verifies them as it would any other.
var cheapParams = office.PasswordParams{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}

// addAccount inserts a user who can sign in with pw.
func (a *testApp) addAccount(login, pw string, admin bool) store.User {
	a.t.Helper()
	h, err := office.HashPassword(pw, cheapParams, nil)
	if err != nil {
		a.t.Fatal(err)
	}
	u := store.User{Login: login, DisplayName: "名 " + login, PasswordHash: h, IsAdmin: admin, CreatedAt: a.now, UpdatedAt: a.now}
	if err := a.store.CreateUser(context.Background(), &u); err != nil {
		a.t.Fatal(err)
	}
	return u
}

func (a *testApp) login(login, pw, next string) (*http.Response, string) {
	a.t.Helper()
	return a.postForm("/login", url.Values{"login": {login}, "password": {pw}, "next": {next}})
}

func doc(t *testing.T, body string) *goquery.Document {
	t.Helper()
	d, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func testid(t *testing.T, body, id string) string {
	t.Helper()
	return strings.TrimSpace(doc(t, body).Find(`[data-testid="` + id + `"]`).Text())
}

func TestSetup_LinkCreatesFirstAdminThenLoginLogout(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		link, err := a.srv.SetupLink(ctx, a.ts.URL)
		if err != nil || !strings.HasPrefix(link, a.ts.URL+"/setup?token=") {
			t.Fatalf("SetupLink = %q, %v", link, err)
		}
		path := strings.TrimPrefix(link, a.ts.URL)
		token, _ := url.ParseQuery(strings.TrimPrefix(path, "/setup?"))

		if resp, _ := a.get("/setup?token=wrong"); resp.StatusCode != http.StatusNotFound {
			t.Fatalf("wrong token: %d", resp.StatusCode)
		}
		resp, body := a.get(path)
		if resp.StatusCode != 200 || doc(t, body).Find(`[data-testid="setup-form"]`).Length() != 1 {
			t.Fatalf("setup form: %d", resp.StatusCode)
		}
		// Invalid form: 422, input kept, message next to the field, nothing saved.
		form := url.Values{"token": {token.Get("token")}, "login": {"boss"}, "display_name": {"会長"}, "password": {"short"}, "password2": {"short"}}
		resp, body = a.postForm("/setup", form)
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(testid(t, body, "error-password"), "10文字以上") {
			t.Fatalf("invalid setup: %d %q", resp.StatusCode, testid(t, body, "error-password"))
		}
		if v, _ := doc(t, body).Find(`input[name="login"]`).Attr("value"); v != "boss" {
			t.Fatalf("login input not kept: %q", v)
		}
		if n, _ := a.store.CountActiveAdmins(ctx); n != 0 {
			t.Fatal("invalid setup saved an administrator")
		}
		form.Set("password", "boss-password-1")
		form.Set("password2", "boss-password-1")
		resp, _ = a.postForm("/setup", form)
		if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/start" {
			t.Fatalf("setup: %d %s", resp.StatusCode, resp.Header.Get("Location"))
		}
		// Signed in as the new administrator.
		resp, body = a.get("/users")
		if resp.StatusCode != 200 || doc(t, body).Find(`[data-testid="user-boss"]`).Length() != 1 {
			t.Fatalf("users page after setup: %d", resp.StatusCode)
		}
		// Once an administrator exists: no link, and /setup is gone.
		if link, err := a.srv.SetupLink(ctx, a.ts.URL); link != "" || err != nil {
			t.Fatalf("SetupLink after setup = %q, %v", link, err)
		}
		if resp, _ := a.get(path); resp.StatusCode != http.StatusNotFound {
			t.Fatalf("setup page after setup: %d", resp.StatusCode)
		}

		// Log out (POST) — a new session token, and signed out.
		before := sessionCookie(a, a.client)
		resp, _ = a.postForm("/logout", nil)
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("logout: %d", resp.StatusCode)
		}
		if after := sessionCookie(a, a.client); after == before {
			t.Fatal("logout kept the session token")
		}
		if resp, _ := a.get("/users"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("users page after logout: %d", resp.StatusCode)
		}

		// Log in again with next= (kept on this site).
		resp, _ = a.login("Boss", "boss-password-1", "/events")
		if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/events" {
			t.Fatalf("login: %d %s", resp.StatusCode, resp.Header.Get("Location"))
		}
		if after := sessionCookie(a, a.client); after == before {
			t.Fatal("login did not renew the session token")
		}
		_, body = a.get("/start")
		if testid(t, body, "nav-user") != "会長" {
			t.Fatalf("not signed in after login: %q", testid(t, body, "nav-user"))
		}
		a.postForm("/logout", nil)
		resp, _ = a.login("boss", "boss-password-1", "//evil.example/")
		if resp.Header.Get("Location") != "/" {
			t.Fatalf("open redirect through next: %s", resp.Header.Get("Location"))
		}
	})
}

func sessionCookie(a *testApp, c *http.Client) string {
	u, _ := url.Parse(a.ts.URL)
	for _, ck := range c.Jar.Cookies(u) {
		if ck.Name == "kisen_session" {
			return ck.Value
		}
	}
	return ""
}

func TestLogin_WrongPasswordMessageInBothLanguages(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		a.addAccount("sato", "password-of-sato", false)
		for _, tc := range []struct{ lang, want string }{
			{"ja", "ログイン名またはパスワードが違います。"},
			{"en", "The login or the password is wrong."},
		} {
			a.get("/lang?to=" + tc.lang)
			resp, body := a.login("sato", "not-the-password", "/")
			if resp.StatusCode != http.StatusUnprocessableEntity || testid(t, body, "login-error") != tc.want {
				t.Errorf("%s: %d %q", tc.lang, resp.StatusCode, testid(t, body, "login-error"))
			}
			if v, _ := doc(t, body).Find(`input[name="login"]`).Attr("value"); v != "sato" {
				t.Errorf("%s: login not kept: %q", tc.lang, v)
			}
			if v, _ := doc(t, body).Find(`input[name="password"]`).Attr("value"); v != "" {
				t.Errorf("%s: password echoed back", tc.lang)
			}
		}
	})
}

// Issue 21 item 9: the refusal says, in the reader's language, when the
// sign-in may be tried again (Japan time and how long from now), with
// Retry-After; at that time the right password gets in.
func TestLogin_RateLimitSaysWhenToTryAgain(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		a.addAccount("sato", "password-of-sato", false)
		for i := range office.LoginMaxFailures {
			if resp, _ := a.login("sato", "wrong-password", "/"); resp.StatusCode != http.StatusUnprocessableEntity {
				t.Fatalf("failure %d: %d", i+1, resp.StatusCode)
			}
		}
		at := a.now.Add(office.PairDelay).In(site.Tokyo).Format("15:04:05")
		resp, body := a.login("sato", "password-of-sato", "/")
		msg := testid(t, body, "login-error")
		if resp.StatusCode != http.StatusTooManyRequests || !strings.Contains(msg, at) || !strings.Contains(msg, "約30秒後") {
			t.Fatalf("6th attempt: %d %q, want 429 naming %s and 30秒", resp.StatusCode, msg, at)
		}
		if got := resp.Header.Get("Retry-After"); got != "30" {
			t.Errorf("Retry-After %q, want 30", got)
		}
		a.get("/lang?to=en")
		_, body = a.login("sato", "password-of-sato", "/")
		if msg := testid(t, body, "login-error"); !strings.Contains(msg, "try again from "+at) || !strings.Contains(msg, "30 seconds") {
			t.Fatalf("English rate-limit message: %q", msg)
		}
		a.now = a.now.Add(office.PairDelay)
		if resp, _ := a.login("sato", "password-of-sato", "/"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("after the delay: %d", resp.StatusCode)
		}
	})
}

func TestLogout_RequiresPostWithCSRFToken(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		a.addAccount("sato", "password-of-sato", false)
		a.loginAs("sato", "password-of-sato")
		if resp, _ := a.get("/logout"); resp.StatusCode != http.StatusMethodNotAllowed && resp.StatusCode != http.StatusNotFound {
			t.Fatalf("GET /logout: %d", resp.StatusCode)
		}
		resp, _ := a.do(a.client, http.MethodPost, "/logout", strings.NewReader(""), "application/x-www-form-urlencoded")
		if resp.StatusCode != http.StatusForbidden {
			t.Fatalf("POST /logout without token: %d, want 403", resp.StatusCode)
		}
		if resp, _ := a.get("/account"); resp.StatusCode != http.StatusOK {
			t.Fatalf("still signed in expected: %d", resp.StatusCode)
		}
		if resp, _ := a.postForm("/logout", nil); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("POST /logout with token: %d", resp.StatusCode)
		}
		if resp, _ := a.get("/account"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("signed out expected: %d", resp.StatusCode)
		}
	})
}

func TestAccount_PasswordChange(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		a.addAccount("sato", "password-of-sato", false)
		a.loginAs("sato", "password-of-sato")
		resp, body := a.postForm("/account/password", url.Values{"current": {"nope"}, "new": {"x"}, "new2": {"y"}})
		if resp.StatusCode != http.StatusUnprocessableEntity || testid(t, body, "error-current") == "" || testid(t, body, "error-new") == "" {
			t.Fatalf("bad change: %d", resp.StatusCode)
		}
		resp, _ = a.postForm("/account/password", url.Values{"current": {"password-of-sato"}, "new": {"a-new-password"}, "new2": {"a-new-password"}})
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("change: %d", resp.StatusCode)
		}
		_, body = a.get(resp.Header.Get("Location"))
		if testid(t, body, "password-saved") == "" {
			t.Fatal("no confirmation shown")
		}
		other := a.newClient()
		a.client, other = other, a.client
		if resp, _ := a.login("sato", "a-new-password", "/"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("new password: %d", resp.StatusCode)
		}
	})
}

// loginAs signs the test browser in through the login form. (The harness's
// signIn writes a session whose cookie expiry follows the test clock, which
// a cookie jar on the wall clock may already consider expired.)
func (a *testApp) loginAs(login, pw string) {
	a.t.Helper()
	resp, _ := a.login(login, pw, "/")
	if resp.StatusCode != http.StatusSeeOther {
		a.t.Fatalf("sign in as %s: %d", login, resp.StatusCode)
	}
}

func TestAccount_WrongCurrentPasswordCountsTowardsTheLimit(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		a.addAccount("sato", "password-of-sato", false)
		a.loginAs("sato", "password-of-sato")
		for i := range office.LoginMaxFailures {
			resp, _ := a.postForm("/account/password", url.Values{"current": {"guess"}, "new": {"a-new-password"}, "new2": {"a-new-password"}})
			if resp.StatusCode != http.StatusUnprocessableEntity {
				t.Fatalf("guess %d: %d", i+1, resp.StatusCode)
			}
		}
		resp, body := a.postForm("/account/password", url.Values{"current": {"password-of-sato"}, "new": {"a-new-password"}, "new2": {"a-new-password"}})
		if resp.StatusCode != http.StatusTooManyRequests || testid(t, body, "error-status") != "試行が多すぎます。しばらく待ってからお試しください" {
			t.Fatalf("after 5 wrong guesses: %d %q", resp.StatusCode, testid(t, body, "error-status"))
		}
	})
}

// Issue 11: 20 wrong passwords for one account posted at once — the
// attempt is counted before the password is checked, so exactly
// LoginMaxFailures are answered "wrong" (422) and the rest 429 with
// Retry-After, unchecked.
func TestLogin_ParallelWrongPasswordsOverHTTP(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		a.addAccount("sato", "password-of-sato", false)
		got := map[int]int{}
		for _, r := range a.race("/login", 20, func(int) url.Values {
			return url.Values{"login": {"sato"}, "password": {"wrong-password"}, "next": {"/"}}
		}) {
			got[r.code]++
			if r.code == http.StatusTooManyRequests && !strings.Contains(testid(t, r.body, "login-error"), "約30秒後") {
				t.Fatalf("429 without the message: %q", testid(t, r.body, "login-error"))
			}
		}
		if got[http.StatusUnprocessableEntity] != office.LoginMaxFailures || got[http.StatusTooManyRequests] != 20-office.LoginMaxFailures {
			t.Fatalf("answers %v, want %d × 422 and %d × 429", got, office.LoginMaxFailures, 20-office.LoginMaxFailures)
		}
	})
}
