package live

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/web/knockouts"
	"kisen/web/leagues"
	"kisen/web/site"
)

// embedRoutes: a published bracket (stage) or league table shown inside an
// organiser's own site (issue 15 part 6, docs/embeds.md), and the
// organiser's setting of which sites may do so.
func (s *Room) EmbedRoutes(e *echo.Echo) {
	e.GET("/embed/stages/:id", s.embedStage)
	e.GET("/embed/league/:cid", s.embedLeague)
	e.GET("/organisers/:id/embeds", s.organiserEmbedsPage, site.RequireAdmin)
	e.POST("/organisers/:id/embeds", s.organiserEmbedsSave, site.RequireAdmin)
}

// embedPolicy is the embed pages' Content-Security-Policy: the site's own
// policy with frame-ancestors listing the organiser's origins ('none' when
// there are none). Origins were checked when saved and again when read
// (office.ParseEmbedOrigins), so nothing else can reach the header.
func embedPolicy(origins []string) string {
	fa := "'none'"
	if len(origins) > 0 {
		fa = strings.Join(origins, " ")
	}
	return strings.TrimSuffix(site.ContentSecurityPolicy, "frame-ancestors 'none'") + "frame-ancestors " + fa
}

// allowFraming replaces the headers securityHeaders set for every page
// (X-Frame-Options: DENY, frame-ancestors 'none') on an embed: only after
// the page is known to be embeddable, so an error page keeps DENY.
func allowFraming(c echo.Context, origins []string) {
	h := c.Response().Header()
	h.Set("Content-Security-Policy", embedPolicy(origins))
	h.Del("X-Frame-Options")
	// The list is read on every request: no cache may keep an answer
	// whose headers name last week's origins.
	h.Set("Cache-Control", "no-cache")
	h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
}

// embedView is what an embed's frame needs besides its body.
type embedView struct {
	Title    string
	FullPage string // the public page it mirrors (links open it in a new tab)
	LangHref [2]string
	// Kind and ID name the body for code that refreshes it (the live
	// pages of issue 15 part 1): EmbedStageBody / EmbedLeagueBody.
	Kind string
	ID   int64
	// EventID is the event whose changes refresh the embed (live.go).
	EventID int64
}

// embedStageView is the bracket embed.
type embedStageView struct {
	embedView
	EventName string
	Stage     knockouts.StageView
}

// embedLeagueView is the league table embed.
type embedLeagueView struct {
	embedView
	Class leagues.LeagueClassView
}

// langLinks are the embed's language switch: the same URL with ?lang=,
// since a framed page may not be allowed to keep a cookie.
func langLinks(path string) [2]string {
	return [2]string{path + "?lang=ja", path + "?lang=en"}
}

// embedStage is a published stage of a published (or finished) event, as
// the public sees it: the viewer's own session never widens it, so a draft
// or an unpublished stage is not found even for its staff.
func (s *Room) embedStage(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	if done, err := s.embedNotModified(c, s.EventOfStage(office.Actor{}, id)); done || err != nil {
		return err
	}
	v, origins, err := s.embedStageView(ctx, id)
	if err != nil {
		return err
	}
	v.LangHref = langLinks(c.Request().URL.Path)
	allowFraming(c, origins)
	s.MarkLive(c, v.EventID)
	return s.Render(c, http.StatusOK, EmbedStagePage(s.embedPage(c, v.Title), v))
}

func (s *Room) embedStageView(ctx context.Context, stageID int64) (embedStageView, []string, error) {
	public := office.Actor{}
	st, err := s.Office.Stage(ctx, public, stageID)
	if err != nil {
		return embedStageView{}, nil, err
	}
	bv, err := s.Knockouts.BracketsView(ctx, public, st.EventID)
	if err != nil {
		return embedStageView{}, nil, err
	}
	var v embedStageView
	found := false
	for _, sv := range bv.Stages {
		if sv.ID == stageID && sv.Status == office.StagePublished {
			v.Stage, found = sv, true
		}
	}
	if !found || bv.Draft {
		return v, nil, fmt.Errorf("stage %d is not published: %w", stageID, office.ErrNotFound)
	}
	origins, _, err := s.Office.EmbedOriginsOfEvent(ctx, st.EventID)
	if err != nil {
		return v, nil, err
	}
	v.EventName = bv.EventName
	v.Title = bv.EventName + " " + v.Stage.Name
	v.FullPage = fmt.Sprintf("/events/%d/brackets", st.EventID)
	v.Kind, v.ID, v.EventID = "stage", stageID, st.EventID
	return v, origins, nil
}

// embedLeague is a published league class's table, as the public sees it.
func (s *Room) embedLeague(c echo.Context) error {
	ctx := c.Request().Context()
	cid, err := site.PathParam(c, "cid")
	if err != nil {
		return err
	}
	if done, err := s.embedNotModified(c, s.EventOfClass(office.Actor{}, cid)); done || err != nil {
		return err
	}
	st, err := s.Office.Standings(ctx, office.Actor{}, cid)
	if err != nil {
		return err
	}
	if office.IsDraft(st.Event) || st.Class.Status != office.LeaguePublished {
		return fmt.Errorf("class %d is not published: %w", cid, office.ErrNotFound)
	}
	origins, err := s.Office.EmbedOrigins(ctx, st.Event)
	if err != nil {
		return err
	}
	v := embedLeagueView{}
	v.Class.EventID, v.Class.EventName = st.Event.ID, site.LocalName(ctx, st.Event.Name, st.Event.NameEn)
	v.Class.ClassID, v.Class.Title, v.Class.Status = cid, leagues.ClassTitle(ctx, st.Class.Class), st.Class.Status
	v.Class.Final = st.Table.Final
	leagues.LeagueTableOf(ctx, st, &v.Class)
	v.Title = v.Class.EventName + " " + v.Class.Title
	v.FullPage = fmt.Sprintf("/league/%d", cid)
	v.Kind, v.ID, v.EventID = "league", cid, st.Event.ID
	v.LangHref = langLinks(c.Request().URL.Path)
	allowFraming(c, origins)
	s.MarkLive(c, v.EventID)
	return s.Render(c, http.StatusOK, EmbedLeaguePage(s.embedPage(c, v.Title), v))
}

// embedNotModified answers a conditional GET of an embed (cache.go). The
// embed's headers name the organiser's allowed origins, which live in the
// organiser's settings: a write to organisers raises the registry
// revision, which is in the tag, so a changed list never gets 304. A 304
// carries the framing headers too: the browser updates the headers it
// keeps from the 304's (RFC 9111 4.3.4), and the DENY every answer starts
// with would stop the frame. (A 304 is only sent for a tag the embed's own
// 200 gave, so the page is embeddable.) The answer is not kept in the
// render cache, which keeps no framing headers.
func (s *Room) embedNotModified(c echo.Context, eventOf func(context.Context) (int64, error)) (bool, error) {
	if !site.Actor(c).Anonymous() || c.Request().Method != http.MethodGet {
		return s.Conditional(c, eventOf, site.CondOpts{NoRender: true})
	}
	ctx := c.Request().Context()
	eventID, err := eventOf(ctx)
	if err != nil {
		return false, nil // the handler answers as it always has
	}
	origins, read, err := s.Office.EmbedOriginsOfEvent(ctx, eventID)
	if !read {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	r := c.Response()
	r.Before(func() {
		if r.Status == http.StatusNotModified {
			allowFraming(c, origins)
		}
	})
	return s.Conditional(c, func(context.Context) (int64, error) { return eventID, nil }, site.CondOpts{NoRender: true})
}

// embedPage is the Page of an embed: the public's, whoever is signed in.
func (s *Room) embedPage(c echo.Context, title string) site.Page {
	p := s.Page(c, title)
	p.User, p.Admin, p.CSRF, p.Draft = "", false, "", false
	return p
}

// organiserEmbedsView is the organiser's embed setting page.
type organiserEmbedsView struct {
	OrganiserID int64
	Name        string
	Origins     string // one a line, as the form reads it
}

func (s *Room) organiserEmbedsPage(c echo.Context) error {
	return s.renderOrganiserEmbeds(c, http.StatusOK, nil, nil)
}

func (s *Room) renderOrganiserEmbeds(c echo.Context, status int, typed *string, errs site.FieldMsgs) error {
	ctx := c.Request().Context()
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	oe, err := s.Office.OrganiserEmbedOrigins(ctx, site.Actor(c), id)
	if err != nil {
		return err
	}
	v := organiserEmbedsView{OrganiserID: id, Name: site.LocalName(ctx, oe.Organiser.Name, oe.Organiser.NameEn), Origins: strings.Join(oe.Origins, "\n")}
	if typed != nil {
		v.Origins = *typed
	}
	return s.Render(c, status, OrganiserEmbedsPage(s.Page(c, v.Name+" — "+site.L(ctx).T("embeds.settings.title")), v, errs))
}

// organiserEmbedsSave saves the list (POST → 303 back to the page); a bad
// line comes back with the reason next to the field (422).
func (s *Room) organiserEmbedsSave(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	text := c.FormValue("origins")
	err = s.Office.SetOrganiserEmbedOrigins(ctx, site.Actor(c), id, text)
	if msgs, ok := allOriginMsgs(ctx, err); ok {
		return s.renderOrganiserEmbeds(c, http.StatusUnprocessableEntity, &text, msgs)
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, c.Request().URL.Path)
}

// allOriginMsgs is fieldMsgsOf with every bad line of the list, not only
// the first.
func allOriginMsgs(ctx context.Context, err error) (site.FieldMsgs, bool) {
	if _, ok := site.FieldMsgsOf(ctx, err); !ok {
		return nil, false
	}
	return site.FieldMsgs{"origins": strings.Join(leagues.AllFieldMsgs(ctx, err, "origins"), " ")}, true
}
