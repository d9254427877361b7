package web

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

func TestUsers_AdminPagesRefuseOthers(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		admin := a.addAccount("root", "root-password", true)
		a.addAccount("sato", "password-of-sato", false)
		paths := []string{"/users", "/organisers"}
		// The public is sent to the login page, with the way back.
		for _, p := range paths {
			resp, _ := a.get(p)
			if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/login?next="+p {
				t.Errorf("public GET %s: %d %s", p, resp.StatusCode, resp.Header.Get("Location"))
			}
		}
		if resp, _ := a.postForm("/users", url.Values{"login": {"x"}}); resp.StatusCode != http.StatusSeeOther {
			t.Errorf("public POST /users: %d", resp.StatusCode)
		}
		// A signed-in non-administrator gets 403.
		a.loginAs("sato", "password-of-sato")
		for _, p := range paths {
			if resp, _ := a.get(p); resp.StatusCode != http.StatusForbidden {
				t.Errorf("user GET %s: %d", p, resp.StatusCode)
			}
		}
		for _, p := range []string{"/users", "/users/" + strconv.FormatInt(admin.ID, 10) + "/admin", "/users/" + strconv.FormatInt(admin.ID, 10) + "/disabled"} {
			if resp, _ := a.postForm(p, url.Values{"value": {"0"}, "login": {"new"}}); resp.StatusCode != http.StatusForbidden {
				t.Errorf("user POST %s: %d", p, resp.StatusCode)
			}
		}
		if got, _ := a.store.UserByID(context.Background(), admin.ID); !got.IsAdmin || got.Disabled {
			t.Fatal("refused request changed the administrator")
		}
		_, body := a.get("/start")
		if strings.Contains(body, `data-testid="nav-users"`) {
			t.Error("non-admin sees the users link")
		}
	})
}

func TestUsers_CreateDisableAndLastAdmin(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		admin := a.addAccount("root", "root-password", true)
		a.loginAs("root", "root-password")
		a.get("/lang?to=en")
		resp, body := a.postForm("/users", url.Values{"login": {"Root"}, "display_name": {""}, "password": {"0123456789"}, "password2": {"0123456789"}})
		if resp.StatusCode != http.StatusUnprocessableEntity ||
			testid(t, body, "error-login") != "This login is already taken." || testid(t, body, "error-display_name") != "Please fill this in." {
			t.Fatalf("invalid user: %d %q %q", resp.StatusCode, testid(t, body, "error-login"), testid(t, body, "error-display_name"))
		}
		resp, _ = a.postForm("/users", url.Values{"login": {"kato"}, "display_name": {"加藤"}, "password": {"kato-password"}, "password2": {"kato-password"}})
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("create: %d", resp.StatusCode)
		}
		kato, err := a.store.UserByLogin(ctx, "kato")
		if err != nil {
			t.Fatal(err)
		}
		// The last administrator cannot lose the flag.
		rootPath := "/users/" + strconv.FormatInt(admin.ID, 10)
		resp, body = a.postForm(rootPath+"/admin", url.Values{"value": {"0"}})
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(testid(t, body, "users-error"), "last active administrator") {
			t.Fatalf("revoke last admin: %d %q", resp.StatusCode, testid(t, body, "users-error"))
		}
		// Disable kato: kato can no longer sign in.
		resp, _ = a.postForm("/users/"+strconv.FormatInt(kato.ID, 10)+"/disabled", url.Values{"value": {"1"}})
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("disable: %d", resp.StatusCode)
		}
		other := a.newClient()
		a.client, other = other, a.client
		if resp, _ := a.login("kato", "kato-password", "/"); resp.StatusCode != http.StatusUnprocessableEntity {
			t.Fatalf("disabled user signs in: %d", resp.StatusCode)
		}
		a.client = other
		if resp, _ := a.postForm("/users/"+strconv.FormatInt(kato.ID, 10)+"/disabled", url.Values{"value": {"0"}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("enable: %d", resp.StatusCode)
		}
		if got, _ := a.store.UserByID(ctx, kato.ID); got.Disabled {
			t.Fatal("enable did not take")
		}
		if resp, _ := a.postForm("/users/99999/admin", url.Values{"value": {"1"}}); resp.StatusCode != http.StatusNotFound {
			t.Fatalf("unknown user: %d", resp.StatusCode)
		}
	})
}
