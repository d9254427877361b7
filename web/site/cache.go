package site

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"kisen/office"
)

// Conditional GET for the public pages of an event (issue 12 part 5,
// docs/caching.md). The database keeps one revision per event, raised by
// triggers on every write to anything those pages show (migration 00097),
// so every process sharing it answers alike and keeps nothing in memory.
// A handler asks notModified* first; on a match the visitor gets 304
// before any of the page is computed.
//
// Only the public gets validators. A signed-in page shows forms, roles and
// the user's name, which the event's revision does not cover, so staff
// always get the page (Cache-Control: private, no-cache, no ETag).

// notModifiedEvent answers a conditional GET of a page of event id; done
// means the 304 has been sent and the handler must return.
func (s *Server) NotModifiedEvent(c echo.Context, id int64) (done bool, err error) {
	return s.NotModified(c, func(context.Context) (int64, error) { return id, nil })
}

// notModifiedStage is notModifiedEvent for a page of a knockout stage.
func (s *Server) NotModifiedStage(c echo.Context, stageID int64) (bool, error) {
	return s.NotModified(c, s.EventOfStage(Actor(c), stageID))
}

// notModifiedClass is notModifiedEvent for a page of a league class. It
// also hands back what it read (the class and, for the public, the event's
// PageRevision), so the page does not read them again
// (office.StandingsRead); when the class was not found, or may not be
// seen, read is zero.
func (s *Server) NotModifiedClass(c echo.Context, classID int64) (done bool, read office.ClassRead, err error) {
	a := Actor(c)
	done, read.Page, err = s.conditionalRead(c, func(ctx context.Context) (int64, error) {
		cl, err := s.Office.ClassOf(ctx, a, classID)
		if err == nil {
			read.Class = cl
		}
		return cl.EventID, err
	}, CondOpts{})
	return done, read, err
}

// The resolvers a conditional GET of a part of an event names its event
// with (conditionalRead's eventOf). Each asks office whether the actor may
// see the part (an unpublished stage or class, a game of one: issue 21
// item 3), so a hidden part is ErrNotFound here, no 304 is possible, and
// the handler answers the 404 a plain GET gets. Never read the part from
// the store directly for a conditional GET.

// eventOfStage resolves a knockout stage for a.
func (s *Server) EventOfStage(a office.Actor, stageID int64) func(context.Context) (int64, error) {
	return func(ctx context.Context) (int64, error) { return s.Office.StageEventOf(ctx, a, stageID) }
}

// eventOfClass resolves a league class for a.
func (s *Server) EventOfClass(a office.Actor, classID int64) func(context.Context) (int64, error) {
	return func(ctx context.Context) (int64, error) {
		cl, err := s.Office.ClassOf(ctx, a, classID)
		return cl.EventID, err
	}
}

// eventOfGame resolves a game for a.
func (s *Server) EventOfGame(a office.Actor, gameID int64) func(context.Context) (int64, error) {
	return func(ctx context.Context) (int64, error) { return s.Office.GameEventOf(ctx, a, gameID) }
}

// notModifiedDayClass is notModifiedEvent for a page of an amateur day's
// class (the class page, its standings and its printed sheets). Those
// pages are not live, so they open no stream.
func (s *Server) NotModifiedDayClass(c echo.Context, classID int64) (bool, error) {
	return s.Conditional(c, func(ctx context.Context) (int64, error) {
		return s.DayRoom().ClassEventOf(ctx, classID)
	}, CondOpts{NotLive: true})
}

// notModifiedGame is notModifiedEvent for a game's page or its record.
func (s *Server) NotModifiedGame(c echo.Context, gameID int64, o CondOpts) (bool, error) {
	return s.Conditional(c, s.EventOfGame(Actor(c), gameID), o)
}

// condOpts adjust conditional for a page that is not an ordinary live
// event page.
type CondOpts struct {
	// notLive: the page opens no live stream (printed sheets, the day's
	// pages, downloads), so none is chosen for it.
	NotLive bool
	// noRender: the answer is not kept in the render cache, which keeps
	// the body, its type and its file name only; an embed's framing
	// headers (embeds.go) must be set on every answer.
	NoRender bool
	// Stream is the path of the stream the page opens, when not its
	// event's (a live board's game stream, GameStreamPath).
	Stream string
}

func (s *Server) NotModified(c echo.Context, eventOf func(context.Context) (int64, error)) (bool, error) {
	return s.Conditional(c, eventOf, CondOpts{})
}

func (s *Server) Conditional(c echo.Context, eventOf func(context.Context) (int64, error), o CondOpts) (bool, error) {
	done, _, err := s.conditionalRead(c, eventOf, o)
	return done, err
}

// conditionalRead is conditional, also handing back the PageRevision it
// read for the public (Event.ID 0 when none was read or the visitor may
// not see the event).
func (s *Server) conditionalRead(c echo.Context, eventOf func(context.Context) (int64, error), o CondOpts) (bool, office.PageRevision, error) {
	CacheHeaders(c)
	a := Actor(c)
	if c.Request().Method != http.MethodGet {
		return false, office.PageRevision{}, nil
	}
	ctx := c.Request().Context()
	eventID, err := eventOf(ctx)
	if errors.Is(err, office.ErrNotFound) {
		return false, office.PageRevision{}, nil // the handler answers 404 as it always has
	}
	if err != nil {
		return false, office.PageRevision{}, err
	}
	if !a.Anonymous() {
		// No validators for staff; the page still goes live (live.go),
		// at the revision read before its data.
		if !o.NotLive {
			s.MarkLiveAt(c, eventID, o.Stream)
		}
		return false, office.PageRevision{}, nil
	}
	// Visibility first (office): a draft is ErrNotFound here as on its
	// page, whatever If-None-Match guessed, so a 304 never tells it exists.
	pr, err := s.Office.PageRevision(ctx, a, eventID)
	if errors.Is(err, office.ErrNotFound) {
		return false, office.PageRevision{}, nil
	}
	if err != nil {
		return false, office.PageRevision{}, err
	}
	if !pr.Known {
		return false, pr, nil
	}
	if !o.NotLive {
		c.Set(liveKey, liveURL(eventID, liveRevision(pr.Revision), o.Stream))
	}
	var modified time.Time
	if pr.Revision.Settled {
		modified = pr.Revision.At
	}
	done, err := s.AnswerConditional(c, s.PageKey(c, pr, true), s.PageKey(c, pr, false), modified, !o.NoRender)
	return done, pr, err
}

// cacheHeaders are every public page's caching headers. The language
// (cookie), the CSRF token in the page (cookie) and htmx fragments make one
// URL several pages. private: the page carries the browser's own CSRF
// token, which no shared cache may hand to another.
func CacheHeaders(c echo.Context) {
	h := c.Response().Header()
	h.Add(echo.HeaderVary, "Cookie")
	h.Add(echo.HeaderVary, "HX-Request")
	h.Set("Cache-Control", "private, no-cache")
}

// answerConditional ends a conditional GET once the page's tag is known:
// the validators (etag, and modified unless zero) go on the page or the
// 304 only, never on an error the handler may still answer; a fresh copy
// gets 304; otherwise, when render is set, another visitor's bytes at this
// revision come from the render cache (render_cache.go, under key), or the
// page about to be computed is filed there. done means the answer is sent.
func (s *Server) AnswerConditional(c echo.Context, etag, key string, modified time.Time, render bool) (done bool, err error) {
	r := c.Response()
	h := r.Header()
	r.Before(func() {
		if r.Status == http.StatusOK || r.Status == http.StatusNotModified {
			h.Set("ETag", etag)
			if !modified.IsZero() {
				h.Set(echo.HeaderLastModified, modified.UTC().Format(http.TimeFormat))
			}
		}
	})
	if Fresh(c.Request(), etag, modified) {
		return true, c.NoContent(http.StatusNotModified)
	}
	if !render {
		return false, nil
	}
	if done, err := s.serveRendered(c, key); done || err != nil {
		return true, err
	}
	if s.Pages != nil {
		// Another visitor rendering this page at this revision is waited
		// for and its bytes taken; when its page was not kept, the next
		// one renders while the rest wait again. After renderWaitMax,
		// the visitor renders regardless.
		t := time.NewTimer(renderWaitMax)
		defer t.Stop()
	wait:
		for {
			ch, leader := s.Pages.lead(key)
			if leader {
				c.Set(renderLeadCtx, key)
				break
			}
			select {
			case <-ch:
			case <-t.C:
				break wait
			case <-c.Request().Context().Done():
				break wait
			}
			if done, err := s.serveRendered(c, key); done || err != nil {
				return true, err
			}
		}
	}
	c.Set(renderKeyCtx, key)
	return false, nil
}

// pageKey is a weak tag (the bytes of a page may differ, e.g. in the
// order of equal rows; the meaning does not) over everything one anonymous
// page depends on besides the data: the build, the URL with its query
// (?lang=), the language, the htmx request and the CSRF token the page
// will carry (the browser's cookie; none before it has one).
//
// Without the token (withCSRF false) it is the key of the page's bytes in
// the render cache: the same for every visitor but for the token, which
// the cache puts in.
func (s *Server) PageKey(c echo.Context, pr office.PageRevision, withCSRF bool) string {
	return s.TagOf(c, strconv.FormatInt(pr.Revision.Event, 10)+"."+strconv.FormatInt(pr.Revision.Registry, 10), withCSRF,
		strconv.FormatInt(pr.Event.ID, 10), pr.Event.Status)
}

// tagOf is pageKey's tag: rev (characters allowed in a tag) then a hash
// of what names the page (parts) and of everything else it depends on.
func (s *Server) TagOf(c echo.Context, rev string, withCSRF bool, parts ...string) string {
	req := c.Request()
	lang, _ := c.Get("lang").(string)
	var csrf string
	if ck, err := req.Cookie(CSRFCookie); err == nil && withCSRF {
		csrf = ck.Value
	}
	sum := sha256.New()
	for _, part := range append(parts, s.build, req.URL.RequestURI(), lang, req.Header.Get("HX-Request"), req.Header.Get("HX-Target"), csrf) {
		sum.Write([]byte(part))
		sum.Write([]byte{0})
	}
	return `W/"` + rev + "-" + hex.EncodeToString(sum.Sum(nil)[:12]) + `"`
}

// fresh reports whether the client's copy is current (RFC 9110 13.1.1,
// 13.1.3): If-None-Match decides when present, by weak comparison.
// If-Modified-Since alone is believed only from a client without cookies
// (a calendar app, a script), whose page depends on its URL alone: a date
// cannot tell languages or CSRF tokens apart, a tag can.
func Fresh(r *http.Request, etag string, modified time.Time) bool {
	if inm := r.Header.Get("If-None-Match"); inm != "" {
		for _, t := range strings.Split(inm, ",") {
			t = strings.TrimSpace(t)
			if t == "*" || strings.TrimPrefix(t, "W/") == strings.TrimPrefix(etag, "W/") {
				return true
			}
		}
		return false
	}
	ims := r.Header.Get("If-Modified-Since")
	if ims == "" || modified.IsZero() || len(r.Cookies()) > 0 {
		return false
	}
	t, err := http.ParseTime(ims)
	return err == nil && !modified.After(t)
}

// buildID names the running build in page tags, so a new release never
// answers 304 for a page rendered by the old one.
func buildID() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	id := bi.Main.Version
	for _, st := range bi.Settings {
		if st.Key == "vcs.revision" || st.Key == "vcs.modified" {
			id += " " + st.Value
		}
	}
	return id
}
