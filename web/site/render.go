package site

import (
	"bufio"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
)

// render sends a component as the page with status.
func (s *Server) Render(c echo.Context, status int, comp templ.Component) error {
	// The page streams (issue 12): every handler computes its view model,
	// with all its queries, before it renders, and components only write,
	// so once the status is sent only a failed write to the client can
	// stop a page. A buffer of 32 kB keeps small pages one write and large
	// ones (a 1,024-entrant bracket) from being held whole in memory.
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	c.Response().WriteHeader(status)
	w := bufio.NewWriterSize(c.Response(), 32<<10)
	if err := comp.Render(c.Request().Context(), w); err != nil {
		return fmt.Errorf("render %s: %w", c.Request().URL.Path, err)
	}
	return w.Flush()
}

// isHTMX reports whether htmx made the request (then a fragment suffices).
func IsHTMX(c echo.Context) bool { return c.Request().Header.Get("HX-Request") == "true" }

// Page is what the layout needs to know about the request.
type Page struct {
	Title string
	Lang  string
	Path  string // the request path, for the language switch
	CSRF  string
	User  string // display name of the signed-in user, "" for the public
	Admin bool
	Draft bool // the page belongs to a draft event: the layout shows the 下書き mark
	// Live is the event stream the page listens to (live.go), "" for a
	// page that is not an event's.
	Live string
	URL  string // the request path with its query (a live region fetches it)
}

func (s *Server) Page(c echo.Context, title string) Page {
	a := Actor(c)
	lang, _ := c.Get("lang").(string)
	if lang == "" {
		lang = "ja"
	}
	return Page{
		Title: title,
		Lang:  lang,
		Path:  c.Request().URL.Path,
		CSRF:  csrfToken(c),
		User:  a.DisplayName,
		Admin: a.Admin,
		Draft: isDraftPage(c),
		Live:  liveOf(c),
		URL:   liveSelf(c),
	}
}

// seeOther finishes a successful POST (POST → 303 → GET).
func SeeOther(c echo.Context, to string) error {
	if IsHTMX(c) {
		c.Response().Header().Set("HX-Redirect", to)
		return c.NoContent(http.StatusNoContent)
	}
	return c.Redirect(http.StatusSeeOther, to)
}

// safeNext keeps a redirect target on this site.
func SafeNext(next string) string {
	if next == "" || !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || strings.HasPrefix(next, `/\`) {
		return "/"
	}
	if u, err := url.Parse(next); err != nil || u.Host != "" || u.Scheme != "" {
		return "/"
	}
	return next
}

// setLanguage stores the language choice and returns to the page.
func (s *Server) SetLanguage(c echo.Context) error {
	lang := c.QueryParam("to")
	if lang != "en" {
		lang = "ja"
	}
	c.SetCookie(&http.Cookie{
		Name: "lang", Value: lang, Path: "/", MaxAge: 365 * 24 * 3600,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.Config.SecureCookies,
	})
	return c.Redirect(http.StatusSeeOther, SafeNext(c.QueryParam("back")))
}

// draftKey marks, in the request, that the page being rendered belongs to
// a draft event: the layout then shows the 下書き mark. Only those who may
// see a draft get this far (office answers 404 to everyone else), so the
// mark reveals nothing.
const draftKey = "kisen.draft"

// markDraft records whether the page's event is a draft; call it after
// the page's data loaded, just before rendering.
func MarkDraft(c echo.Context, draft bool) {
	if draft {
		c.Set(draftKey, true)
	}
}

func isDraftPage(c echo.Context) bool {
	d, _ := c.Get(draftKey).(bool)
	return d
}
