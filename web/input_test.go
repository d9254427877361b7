package web

import (
	"bytes"
	"context"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"kisen/web/site"
)

// rowCounts is the number of rows of every table, to show a refused
// request changed nothing.
func rowCounts(t *testing.T, a *testApp) map[string]int64 {
	t.Helper()
	ctx := context.Background()
	q := "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
	if a.store.Dialect() == "postgres" {
		q = "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
	}
	var tables []string
	if err := a.store.DB(ctx).Raw(q).Scan(&tables).Error; err != nil || len(tables) == 0 {
		t.Fatalf("tables: %v", err)
	}
	out := map[string]int64{}
	for _, tb := range tables {
		if tb == "sessions" {
			continue // every request may refresh its session
		}
		var n int64
		if err := a.store.DB(ctx).Table(tb).Count(&n).Error; err != nil {
			t.Fatal(err)
		}
		out[tb] = n
	}
	return out
}

// Issue 11: invalid UTF-8 and NUL in any form field or query get 422
// naming the field on both databases, never a 500, and nothing is written.
// Every POST route of the router is tried, so new routes are covered too.
func TestStorableText_EveryPostRouteRefusesNULAndInvalidUTF8(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		a.signInAdmin()
		before := rowCounts(t, a)
		posts := 0
		for _, r := range a.srv.Echo.Routes() {
			if r.Method != http.MethodPost {
				continue
			}
			posts++
			path := strings.NewReplacer(":id", "1", ":cid", "1", ":sid", "1", ":pid", "1").Replace(r.Path)
			for i := strings.Index(path, ":"); i >= 0; i = strings.Index(path, ":") { // any other parameter
				end := strings.IndexByte(path[i:], '/')
				if end < 0 {
					end = len(path) - i
				}
				path = path[:i] + "1" + path[i+end:]
			}
			for _, bad := range []string{"佐藤\x00", "\xff\xfe\x80"} {
				resp, body := a.postForm(path, url.Values{"name": {"名前"}, "reason": {bad}})
				if strings.HasPrefix(path, "/api/") {
					// The API answers in JSON (docs/api.md): a form body is refused
					// before any field is read; its own NUL tests are in api_*_test.go.
					if resp.StatusCode < 400 || resp.StatusCode >= 500 || !strings.Contains(body, `"error"`) {
						t.Errorf("POST %s with %q: %d %q", path, bad, resp.StatusCode, body)
					}
					continue
				}
				if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(testid(t, body, "unstorable-field"), "理由") {
					t.Errorf("POST %s with %q: %d %q", path, bad, resp.StatusCode, testid(t, body, "unstorable-field"))
				}
			}
		}
		if posts < 20 {
			t.Fatalf("only %d POST routes found", posts)
		}
		after := rowCounts(t, a)
		for tb, n := range before {
			if after[tb] != n {
				t.Errorf("table %s: %d rows, then %d", tb, n, after[tb])
			}
		}
	})
}

// Issue 11: a query, a multipart field and an uploaded file's name are
// checked in the same place; the answer names the field in the user's
// language, or is a fragment for htmx and JSON for programs.
func TestStorableText_QueryMultipartAndLanguages(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		a.signInAdmin()
		resp, body := a.get("/players?q=%ff%fe%00")
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(testid(t, body, "unstorable-field"), "検索語") {
			t.Fatalf("search: %d %q", resp.StatusCode, testid(t, body, "unstorable-field"))
		}
		a.get("/lang?to=en")
		resp, body = a.get("/players?q=a%00")
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(testid(t, body, "unstorable-field"), "Search") {
			t.Fatalf("English: %d %q", resp.StatusCode, testid(t, body, "unstorable-field"))
		}
		var buf bytes.Buffer
		w := multipart.NewWriter(&buf)
		_ = w.WriteField("_csrf", a.csrfToken(a.client))
		fw, _ := w.CreateFormFile("file", "players\xff.csv")
		_, _ = fw.Write([]byte("name\n佐藤\n"))
		_ = w.Close()
		resp, body = a.postBody("/players/import", w.FormDataContentType(), &buf)
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(testid(t, body, "unstorable-field"), "File name") {
			t.Fatalf("file name: %d %q", resp.StatusCode, testid(t, body, "unstorable-field"))
		}
	})
}

// Issue 11: names are stored in NFC: か + the combining dakuten is が.
// Passwords are passed through exactly as typed.
func TestStorableText_NamesAreNFC(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		a.signInAdmin()
		resp, body := a.postForm("/players", url.Values{"name": {"さか\u3099た 一郎"}, "reading": {"さか\u3099た いちろう"}, "kind": {"amateur"}})
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("create: %d %s", resp.StatusCode, body)
		}
		pp, err := a.srv.Office.SearchPlayers(context.Background(), "さがた", 1)
		if err != nil || len(pp.Players) != 1 || pp.Players[0].Name != "さがた 一郎" || pp.Players[0].Reading != "さがた いちろう" {
			t.Fatalf("stored %+v %v, want the composed name", pp.Players, err)
		}
		if got := site.NormaliseValues(url.Values{"password": {"か\u3099"}}); got {
			t.Fatal("a password was normalised")
		}
	})
}
