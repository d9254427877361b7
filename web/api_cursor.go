package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"kisen/office"
)

// Keyset paging of the API's lists (docs/api.md, Paging). A cursor names
// the last item a page showed by its sort key and id, so the next page
// starts strictly after that item whatever was added or removed before
// it: no item is repeated or skipped because the list moved.
//
// On the wire a cursor is base64url of: the list's name, the key fields
// (separated by 0x1f), and the first four bytes of the SHA-256 of those.
// The check catches a cursor that was edited or cut (400 bad_cursor); it
// is no secret — a cursor forged with a valid check only chooses a
// position in a list the client may read anyway.

// apiPage is a list request: its size and, after the first page, the key
// of the last item seen.
type apiPage struct {
	limit int
	after []string // nil on the first page
}

const cursorSep = "\x1f"

// apiBadCursor is a cursor that is not one this list gave out: 400.
type apiBadCursor struct{ why string }

func (e *apiBadCursor) Error() string { return "bad cursor: " + e.why }

func encodeCursor(list string, keys ...string) string {
	payload := []byte(list + cursorSep + strings.Join(keys, cursorSep))
	sum := sha256.Sum256(payload)
	return base64.RawURLEncoding.EncodeToString(append(payload, sum[:4]...))
}

func decodeCursor(list, cur string, fields int) ([]string, error) {
	raw, err := base64.RawURLEncoding.DecodeString(cur)
	if err != nil || len(raw) < 5 {
		return nil, &apiBadCursor{"not base64url"}
	}
	payload, check := raw[:len(raw)-4], raw[len(raw)-4:]
	sum := sha256.Sum256(payload)
	if !bytes.Equal(sum[:4], check) {
		return nil, &apiBadCursor{"check"}
	}
	parts := strings.Split(string(payload), cursorSep)
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
func apiPaging(c echo.Context, list string, fields int) (apiPage, error) {
	p := apiPage{limit: apiDefaultLimit}
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
		keys, err := decodeCursor(list, cur, fields)
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
	next := encodeCursor(list, key(page[len(page)-1])...)
	return page, &next
}

// nextKeyset is the cursor after a page read with LIMIT n+1: nil when the
// extra row did not come.
func nextKeyset(list string, got, limit int, key func() []string) *string {
	if got <= limit {
		return nil
	}
	s := encodeCursor(list, key()...)
	return &s
}
