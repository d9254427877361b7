package api

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"kisen/office"
)

// Keyset paging of the API's lists (docs/api.md, Paging). A cursor names
// the last item a page showed by its sort key and id, so the next page
// starts strictly after that item whatever was added or removed before
// it: no item is repeated or skipped because the list moved.
//
// On the wire a cursor is base64url of: the list's name, the key fields
// (separated by 0x1f), and the first 16 bytes of their HMAC-SHA256 under
// the instance's cursor key (apiCursorKey). Only this instance can make a
// cursor: one edited, cut, made up or taken from another list or another
// instance is 400 bad_cursor before any of its text reaches a query, so a
// client cannot steer the key a list is read after (and cannot hand the
// database text it refuses, such as invalid UTF-8, which PostgreSQL
// answered with an error: a 500).

// apiPage is a list request: its size and, after the first page, the key
// of the last item seen; key signs the next page's cursor.
type apiPage struct {
	limit int
	after []string // nil on the first page
	key   []byte
}

const (
	CursorSep = "\x1f"
	// cursorMAC is how many bytes of the HMAC-SHA256 a cursor carries:
	// 128 bits, far beyond guessing over the network.
	CursorMAC = 16
	// cursorKeySetting is the app_settings row that holds the key.
	CursorKeySetting = "api.cursor_key"
)

// apiBadCursor is a cursor that is not one this list gave out: 400.
type apiBadCursor struct{ why string }

func (e *apiBadCursor) Error() string { return "bad cursor: " + e.why }

// apiCursorKey is the key cursors are signed with: 32 random bytes made
// once per database and kept in app_settings, so every process that shares
// the database (and a restored backup) accepts the cursors of the others.
// Read once per process; a failed read is tried again on the next request.
func (s *Room) APICursorKey(ctx context.Context) ([]byte, error) {
	st := s.API
	st.keyMu.Lock()
	defer st.keyMu.Unlock()
	if st.cursorKey != nil {
		return st.cursorKey, nil
	}
	v, err := s.Office.SettingOrCreate(ctx, CursorKeySetting, func() (string, error) {
		b := make([]byte, 32)
		if _, err := rand.Read(b); err != nil {
			return "", err
		}
		return base64.RawStdEncoding.EncodeToString(b), nil
	})
	if err != nil {
		return nil, fmt.Errorf("api cursor key: %w", err)
	}
	key, err := base64.RawStdEncoding.DecodeString(v)
	if err != nil || len(key) < 32 {
		return nil, fmt.Errorf("api cursor key: the setting %s is not 32 bytes of base64", CursorKeySetting)
	}
	st.cursorKey = key
	return key, nil
}

func cursorSum(key, payload []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write(payload)
	return m.Sum(nil)[:CursorMAC]
}

func EncodeCursor(key []byte, list string, keys ...string) string {
	payload := []byte(list + CursorSep + strings.Join(keys, CursorSep))
	return base64.RawURLEncoding.EncodeToString(append(payload, cursorSum(key, payload)...))
}

func decodeCursor(key []byte, list, cur string, fields int) ([]string, error) {
	raw, err := base64.RawURLEncoding.DecodeString(cur)
	if err != nil || len(raw) <= CursorMAC {
		return nil, &apiBadCursor{"not base64url, or too short"}
	}
	payload, check := raw[:len(raw)-CursorMAC], raw[len(raw)-CursorMAC:]
	if !hmac.Equal(cursorSum(key, payload), check) {
		return nil, &apiBadCursor{"signature"}
	}
	// Signed by this instance, so made from database text; checked anyway,
	// as nothing but storable text may reach a query.
	if !utf8.Valid(payload) || bytes.IndexByte(payload, 0) >= 0 {
		return nil, &apiBadCursor{"text"}
	}
	parts := strings.Split(string(payload), CursorSep)
	if parts[0] != list {
		return nil, &apiBadCursor{fmt.Sprintf("cursor of %q for %q", parts[0], list)}
	}
	if len(parts)-1 != fields {
		return nil, &apiBadCursor{"fields"}
	}
	return parts[1:], nil
}

// apiPaging reads ?limit= (422 naming it when out of range) and ?cursor=
// (400 when it is not a cursor of this list with the given number of
// key fields).
func (s *Room) apiPaging(c echo.Context, list string, fields int) (apiPage, error) {
	key, err := s.APICursorKey(c.Request().Context())
	if err != nil {
		return apiPage{}, err
	}
	p := apiPage{limit: apiDefaultLimit, key: key}
	if l := c.QueryParam("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > apiMaxLimit {
			v := &office.ValidationError{}
			v.Add(0, "limit", "api.err.limit", map[string]any{"Max": apiMaxLimit})
			return p, v
		}
		p.limit = n
	}
	if cur := c.QueryParam("cursor"); cur != "" {
		keys, err := decodeCursor(key, list, cur, fields)
		if err != nil {
			return p, err
		}
		p.after = keys
	}
	return p, nil
}

// cursorID reads a key field that is an id.
func cursorID(s string) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return 0, &apiBadCursor{"id"}
	}
	return n, nil
}

// keysetPage pages a list already in its order in memory: the items after
// the one the cursor names (after reports whether an item comes after
// it), at most p.limit of them, and the cursor of the last one when more
// follow. key gives an item's cursor fields.
func keysetPage[T any](all []T, p apiPage, list string, after func(T) bool, key func(T) []string) ([]T, *string) {
	start := 0
	if p.after != nil {
		start = len(all)
		for i, it := range all {
			if after(it) {
				start = i
				break
			}
		}
	}
	rest := all[start:]
	if len(rest) <= p.limit {
		return rest, nil
	}
	page := rest[:p.limit]
	next := EncodeCursor(p.key, list, key(page[len(page)-1])...)
	return page, &next
}

// nextKeyset is the cursor after a page read with LIMIT n+1: nil when the
// extra row did not come.
func nextKeyset(p apiPage, list string, got int, key func() []string) *string {
	if got <= p.limit {
		return nil
	}
	s := EncodeCursor(p.key, list, key()...)
	return &s
}
