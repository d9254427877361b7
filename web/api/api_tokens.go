package api

import (
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/web/site"
)

// The event's API token page (issue 15 part 4, docs/api.md): directors
// make a token per scope with a name and an expiry, see its secret once,
// see every token's use and revoke it.

func (s *Room) TokenRoutes(e *echo.Echo) {
	e.GET("/events/:id/tokens", s.tokensPage, site.RequireUser)
	e.POST("/events/:id/tokens", s.tokenCreate, site.RequireUser)
	e.POST("/events/:id/tokens/:tid/revoke", s.tokenRevoke, site.RequireUser)
}

// sessionTokenSecret carries a new token's secret from the POST to the
// page after it (POST → 303 → GET), read once.
const sessionTokenSecret = "api_token_secret"

type tokenForm struct {
	Name      string `form:"name"`
	Scope     string `form:"scope"`
	ExpiresOn string `form:"expires_on"`
}

type tokenRow struct {
	ID                                int64
	Name, Scope, CreatedBy, CreatedAt string
	Expires, LastUsed, Revoked        string
	Expired, Active                   bool
	Uses                              int64
}

type tokensView struct {
	EventID   int64
	EventName string
	Rows      []tokenRow
	Scopes    []string
	Secret    string // the token just made, shown once
	Form      tokenForm
}

func (s *Room) tokensPage(c echo.Context) error {
	return s.renderTokens(c, http.StatusOK, tokenForm{}, nil)
}

func (s *Room) renderTokens(c echo.Context, status int, f tokenForm, errs site.FieldMsgs) error {
	ctx := c.Request().Context()
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	a := site.Actor(c)
	e, err := s.Office.Event(ctx, a, id)
	if err != nil {
		return err
	}
	rows, err := s.Office.APITokens(ctx, a, id)
	if err != nil {
		return err
	}
	now := s.Now()
	v := tokensView{EventID: id, EventName: site.LocalName(ctx, e.Name, e.NameEn), Scopes: office.TokenScopes, Form: f}
	if v.Form.ExpiresOn == "" {
		v.Form.ExpiresOn = now.In(site.Tokyo).AddDate(0, 1, 0).Format(office.DateLayout)
	}
	if status == http.StatusOK {
		v.Secret = s.Sessions.PopString(ctx, sessionTokenSecret)
	}
	for _, r := range rows {
		v.Rows = append(v.Rows, tokenRowOf(r, now))
	}
	site.MarkDraft(c, office.IsDraft(e))
	c.Response().Header().Set("Cache-Control", "no-store") // the secret is on it once
	return s.Render(c, status, TokensPage(s.Page(c, site.T(ctx, "api.tokens.title")+" — "+v.EventName), v, errs))
}

func tokenRowOf(r office.APITokenRow, now time.Time) tokenRow {
	row := tokenRow{ID: r.ID, Name: r.Name, Scope: r.Scope, CreatedBy: r.CreatedByName, CreatedAt: site.ShowTime(r.CreatedAt),
		// The last minute it works: the form's date, not the next day's 00:00.
		Expires: site.ShowTime(r.ExpiresAt.Add(-time.Minute)), Uses: r.Uses, Expired: !now.Before(r.ExpiresAt)}
	if r.LastUsedAt != nil {
		row.LastUsed = site.ShowTime(*r.LastUsedAt)
	}
	if r.RevokedAt != nil {
		row.Revoked = site.ShowTime(*r.RevokedAt)
	}
	row.Active = row.Revoked == "" && !row.Expired
	return row
}

func (s *Room) tokenCreate(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	var f tokenForm
	if err := c.Bind(&f); err != nil {
		return err
	}
	ctx := c.Request().Context()
	made, err := s.Office.CreateAPIToken(ctx, site.Actor(c), office.TokenInput{EventID: id, Name: f.Name, Scope: f.Scope, ExpiresOn: f.ExpiresOn})
	if err != nil {
		if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
			return s.renderTokens(c, http.StatusUnprocessableEntity, f, msgs)
		}
		return err
	}
	s.Sessions.Put(ctx, sessionTokenSecret, made.Secret)
	return site.SeeOther(c, "/events/"+strconv.FormatInt(id, 10)+"/tokens#new-token")
}

func (s *Room) tokenRevoke(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	tid, err := site.PathParam(c, "tid")
	if err != nil {
		return err
	}
	if err := s.Office.RevokeAPIToken(c.Request().Context(), site.Actor(c), id, tid); err != nil {
		return err
	}
	return site.SeeOther(c, "/events/"+strconv.FormatInt(id, 10)+"/tokens")
}
