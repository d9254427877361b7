package site

import (
	"errors"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"kisen/office"
)

// maxMultipartMemory is what a multipart form may keep in memory while it
// is checked; the rest goes to temporary files (the body limit is 8 MB).
const maxMultipartMemory = 8 << 20

// unstorableError refuses a request whose field holds text the databases
// cannot store (issue 11): invalid UTF-8, NUL or another control
// character. It unwraps to office.ErrInvalid (422).
type UnstorableError struct{ Field string }

func (e *UnstorableError) Error() string { return "field " + e.Field + ": text that cannot be stored" }
func (e *UnstorableError) Unwrap() error { return office.ErrInvalid }

// storableText is the one place where request text is checked and
// normalised, before any handler or binding sees it: every query parameter
// and every form value (URL-encoded or multipart, with the names of
// uploaded files) must be valid UTF-8 without NUL or other control
// characters (tab, CR and LF are allowed: records and notes have lines),
// or the request gets 422 naming the field and nothing runs. Values are
// then put in Unicode NFC, so a name typed with a combining mark (か + ゛)
// is stored as the one character (が) — except password fields, which are
// passed through exactly as typed. Uploaded file contents (CSV) are checked
// cell by cell where they are read (office).
func (s *Server) StorableText(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if r.URL.RawQuery != "" {
			q, err := url.ParseQuery(r.URL.RawQuery)
			if err != nil {
				return echo.NewHTTPError(http.StatusBadRequest, "query")
			}
			if field, ok := office.CheckStorableValues(q); !ok {
				return &UnstorableError{Field: field}
			}
			if NormaliseValues(q) {
				r.URL.RawQuery = q.Encode()
			}
		}
		if r.Body == nil || r.Method == http.MethodGet || r.Method == http.MethodHead {
			return next(c)
		}
		mt, _, _ := mime.ParseMediaType(r.Header.Get(echo.HeaderContentType))
		switch mt {
		case echo.MIMEApplicationForm:
			if err := r.ParseForm(); err != nil {
				return formParseError(err)
			}
		case echo.MIMEMultipartForm:
			if err := r.ParseMultipartForm(maxMultipartMemory); err != nil {
				return formParseError(err)
			}
			for name, files := range r.MultipartForm.File {
				for _, f := range files {
					if !office.StorableText(f.Filename) {
						return &UnstorableError{Field: name}
					}
				}
			}
		default:
			return next(c)
		}
		if field, ok := office.CheckStorableValues(r.PostForm); !ok {
			return &UnstorableError{Field: field}
		}
		NormaliseValues(r.PostForm)
		NormaliseValues(r.Form)
		if r.MultipartForm != nil {
			NormaliseValues(r.MultipartForm.Value)
		}
		return next(c)
	}
}

// formParseError maps a body that cannot be read as a form: too large is
// 413 (the body limit), anything else 400.
func formParseError(err error) error {
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return echo.ErrStatusRequestEntityTooLarge
	}
	return echo.NewHTTPError(http.StatusBadRequest, "form")
}

// normaliseValues puts every value but passwords in NFC, in place; it
// reports whether anything changed.
func NormaliseValues(vs url.Values) bool {
	changed := false
	for name, list := range vs {
		if strings.Contains(strings.ToLower(name), "password") {
			continue
		}
		for i, v := range list {
			if n := office.NFC(v); n != v {
				list[i], changed = n, true
			}
		}
	}
	return changed
}

// fieldWords names a form field in the user's language for the 422 page:
// a known field by its label, any other by its name.
func fieldWords(lz *Localizer, field string) string {
	if id := "input.field." + field; lz.m != nil && lz.m.Has(lz.Lang, id) {
		return lz.T(id)
	}
	return field
}

// renderUnstorable answers an unstorableError: the page, an htmx fragment,
// or JSON.
func (s *Server) renderUnstorable(c echo.Context, e *UnstorableError) error {
	lz := L(c.Request().Context())
	field := fieldWords(lz, e.Field)
	status := http.StatusUnprocessableEntity
	switch {
	case wantsJSON(c):
		return c.JSON(status, map[string]any{"error": lz.T("input.err.field", "Field", field), "code": "input.err.field", "field": e.Field, "status": status})
	case IsHTMX(c):
		return s.Render(c, status, UnstorableFragment(field))
	default:
		return s.Render(c, status, UnstorablePage(s.Page(c, lz.T("input.err.title")), field))
	}
}
