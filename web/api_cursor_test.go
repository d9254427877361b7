package web

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"kisen/config"
	"kisen/office"
	"kisen/store"
	"kisen/store/storetest"
	"kisen/web/api"
)

// signedCursor is a cursor this instance would accept for list: signed
// with its key, whatever the fields hold.
func signedCursor(t *testing.T, a *testApp, list string, keys ...string) string {
	t.Helper()
	key, err := a.srv.APICursorKey(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return api.EncodeCursor(key, list, keys...)
}

// unkeyedCursor is a cursor as anyone could make one before issue 21: the
// fields and the first four bytes of their plain SHA-256.
func unkeyedCursor(list string, keys ...string) string {
	payload := []byte(list + api.CursorSep + strings.Join(keys, api.CursorSep))
	sum := sha256.Sum256(payload)
	return base64.RawURLEncoding.EncodeToString(append(payload, sum[:4]...))
}

func apiPlayersFixture(t *testing.T, a *testApp, n int) {
	t.Helper()
	for i := range n {
		p := store.Player{Name: fmt.Sprintf("頁送%d", i), Reading: fmt.Sprintf("へ%d", i), Kind: store.PlayerAmateur, Rank: "初段",
			CreatedAt: a.now, UpdatedAt: a.now}
		if err := a.store.CreatePlayer(context.Background(), &p); err != nil {
			t.Fatal(err)
		}
	}
}

// Issue 21 item 10: a cursor is signed with the instance's secret key
// (HMAC-SHA256). A cursor made up by a client — in the old unkeyed form,
// with invalid UTF-8 or a NUL in its fields (PostgreSQL answered those
// with a 500), signed with another key, cut, or with its signature
// changed — is 400 bad_cursor in the API's error schema on every paged
// list, never a 500; the instance's own cursors still read.
func TestAPI_ForgedCursorIs400NeverA500(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		apiPlayersFixture(t, a, 3)
		_, body := apiGet(t, a, api.APIPrefix+"/players?limit=1", nil)
		var l api.APIPlayerList
		if err := json.Unmarshal([]byte(body), &l); err != nil || l.NextCursor == nil {
			t.Fatalf("first page: %v %s", err, body)
		}
		good := *l.NextCursor
		if resp, body := apiGet(t, a, api.APIPrefix+"/players?limit=1&cursor="+url.QueryEscape(good), nil); resp.StatusCode != 200 {
			t.Fatalf("the instance's own cursor: %d %s", resp.StatusCode, body)
		}
		otherKey := bytes.Repeat([]byte{7}, 32)
		raw, _ := base64.RawURLEncoding.DecodeString(good)
		raw[len(raw)-1] ^= 0x80 // the signature's last byte
		forged := map[string]string{
			"unkeyed, invalid UTF-8":   unkeyedCursor("players", "\xff\xfe", "1"),
			"unkeyed, NUL":             unkeyedCursor("players", "へ\x00", "1"),
			"unkeyed, valid":           unkeyedCursor("players", "へ0", "1"),
			"unkeyed, games":           unkeyedCursor("games", "1"),
			"another key":              api.EncodeCursor(otherKey, "players", "へ0", "1"),
			"signature changed":        base64.RawURLEncoding.EncodeToString(raw),
			"cut":                      good[:len(good)-3],
			"empty after base64":       "AA",
			"signed, invalid UTF-8":    signedCursor(t, a, "players", "\xff\xfe", "1"),
			"signed, NUL":              signedCursor(t, a, "players", "へ\x00", "1"),
			"signature only":           base64.RawURLEncoding.EncodeToString(make([]byte, api.CursorMAC)),
			"not base64url":            "%%%",
			"another list's, unkeyed":  unkeyedCursor("events", "2026-01-01", "1"),
			"ratings shape, invalid":   unkeyedCursor("ratings", "1500", "\xff", "1"),
			"organisers shape, forged": unkeyedCursor("organisers", "1"),
		}
		ac := newAPIContract(t, a)
		for name, cur := range forged {
			for _, list := range []string{"/players", "/events", "/organisers", "/ratings", "/events/1/games"} {
				resp, body := apiGet(t, a, api.APIPrefix+list+"?cursor="+url.QueryEscape(cur), nil)
				var e api.APIError
				if err := json.Unmarshal([]byte(body), &e); err != nil || resp.StatusCode != http.StatusBadRequest || e.Error.Code != "bad_cursor" {
					t.Errorf("%s cursor on %s: %d %s", name, list, resp.StatusCode, body)
					continue
				}
				if list == "/players" {
					ac.check("get", "/players", resp, body)
				}
			}
		}
	})
}

// Issue 21 item 10: every process sharing a database signs with one key,
// made once (the processes that race to make it agree on the row that won)
// and kept in app_settings: a cursor minted by one server reads on a
// second server over the same database, on both databases.
func TestAPI_CursorOfOneServerReadsOnAnother(t *testing.T) {
	t.Parallel()
	storetest.Dialects(t, func(t *testing.T, o store.Options) {
		now := time.Date(2026, 11, 21, 3, 0, 0, 0, time.UTC)
		cfg := config.Default()
		cfg.APIRate = 0
		var srvs []*Server
		var urls []string
		var first *store.Store
		for range 2 {
			s, err := store.Open(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = s.Close() })
			if first == nil {
				first = s
			}
			srv, err := New(Deps{Config: cfg, Office: office.New(s, func() time.Time { return now })})
			if err != nil {
				t.Fatal(err)
			}
			ts := httptest.NewServer(srv.Handler())
			t.Cleanup(ts.Close)
			srvs, urls = append(srvs, srv), append(urls, ts.URL)
		}
		// Both make the key at once: one row wins, both read it.
		keys := make([][]byte, 2)
		var wg sync.WaitGroup
		for i, srv := range srvs {
			wg.Go(func() {
				k, err := srv.APICursorKey(context.Background())
				if err != nil {
					t.Error(err)
				}
				keys[i] = k
			})
		}
		wg.Wait()
		if len(keys[0]) != 32 || !bytes.Equal(keys[0], keys[1]) || bytes.Equal(keys[0], make([]byte, 32)) {
			t.Fatalf("the two servers' keys: %x and %x", keys[0], keys[1])
		}
		for i := range 3 {
			p := store.Player{Name: fmt.Sprintf("共有%d", i), Reading: fmt.Sprintf("き%d", i), Kind: store.PlayerAmateur, Rank: "初段",
				CreatedAt: now, UpdatedAt: now}
			if err := first.CreatePlayer(context.Background(), &p); err != nil {
				t.Fatal(err)
			}
		}
		get := func(u string) (int, api.APIPlayerList, string) {
			resp, err := http.Get(u)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var b bytes.Buffer
			_, _ = b.ReadFrom(resp.Body)
			var l api.APIPlayerList
			_ = json.Unmarshal(b.Bytes(), &l)
			return resp.StatusCode, l, b.String()
		}
		// Page 1 on server A, page 2 on server B, page 3 on A again.
		var names []string
		next := "/players?limit=1"
		for page := range 3 {
			code, l, body := get(urls[page%2] + api.APIPrefix + next)
			if code != 200 || len(l.Items) != 1 {
				t.Fatalf("page %d on server %d: %d %s", page+1, page%2, code, body)
			}
			names = append(names, l.Items[0].Name)
			if page < 2 {
				if l.NextCursor == nil {
					t.Fatalf("page %d: no next cursor", page+1)
				}
				next = "/players?limit=1&cursor=" + url.QueryEscape(*l.NextCursor)
			}
		}
		if strings.Join(names, ",") != "共有0,共有1,共有2" {
			t.Fatalf("pages across two servers: %v", names)
		}
		// A third process started later reads the same key from the row.
		s3, err := store.Open(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s3.Close() })
		v, ok, err := s3.GetSetting(context.Background(), api.CursorKeySetting)
		if err != nil || !ok {
			t.Fatalf("the key's row: %v %v", ok, err)
		}
		if k, _ := base64.RawStdEncoding.DecodeString(v); !bytes.Equal(k, keys[0]) {
			t.Fatalf("the row holds %x, the servers sign with %x", k, keys[0])
		}
	})
}
