package api

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"kisen/office"
	"kisen/office/day"
	"kisen/web/site"
)

// The public read API and the token writes (issue 15 parts 3 and 4,
// docs/api.md). Every answer is JSON; errors are
// {"error": {"code", "message"}} in the Accept-Language's language. The
// API never reads the session cookie: a request is the public, or the
// event token of its Authorization header, so CSRF has nothing to protect
// here and the CSRF middleware skips /api/ (routes.go).

const (
	APIPrefix       = "/api/v1"
	apiDefaultLimit = 50
	apiMaxLimit     = 200
)

// apiState is what the API keeps per process: its document and the rate
// limiter.
type APIState struct {
	doc     []byte
	Limiter *apiLimiter

	keyMu     sync.Mutex
	cursorKey []byte // apiCursorKey; nil until read
}

// apiRoutes registers the operations under /api/v1 and builds the
// document from the same list.
func (s *Room) APIRoutes(e *echo.Echo) error {
	ops := s.APIOperations()
	doc, err := OpenAPIDocument(ops)
	if err != nil {
		return fmt.Errorf("openapi document: %w", err)
	}
	lim := NewAPILimiter(s.Config.APIRate, s.Config.APIBurst)
	if s.Office.Dialect() == office.Postgres {
		lim = NewSharedAPILimiter(s.Config.APIRate, s.Config.APIBurst, s.Office, s.Log)
	}
	s.API = &APIState{doc: doc, Limiter: lim}
	s.APIErrors = s.apiError // errors under /api/ answer JSON (errors.go)
	g := e.Group(APIPrefix, s.apiActor)
	for _, op := range ops {
		path := strings.NewReplacer("{", ":", "}", "").Replace(op.Path)
		g.Add(strings.ToUpper(op.Method), path, op.handler)
		if op.Method == "get" {
			g.HEAD(path, op.handler) // net/http sends the headers only
		}
	}
	g.GET("/openapi.json", s.apiDocument)
	return nil
}

// apiOperations is the API: routes, handlers and what the document says of
// them.
func (s *Room) APIOperations() []apiOperation {
	id := func(what string) apiParam {
		return apiParam{Name: "id", In: "path", Type: "integer", Required: true, Doc: what}
	}
	nf := []int{404}
	write := []int{401, 403, 404, 409, 413, 415, 422}
	ops := []apiOperation{
		{Method: "get", Path: "/organisers", Summary: "Organisers of public events", OK: APIOrganiserList{}, Paged: true, handler: s.apiOrganisers, Errors: []int{422}},
		{Method: "get", Path: "/organisers/{id}", Summary: "One organiser", Params: []apiParam{id("organiser")}, OK: APIOrganiser{}, handler: s.apiOrganiser, Errors: nf},
		{Method: "get", Path: "/events", Summary: "Public events, newest first", OK: APIEventList{}, Paged: true, handler: s.apiEvents, Errors: []int{422},
			Params: []apiParam{{Name: "organiser_id", In: "query", Type: "integer", Doc: "only this organiser's events"}}},
		{Method: "get", Path: "/events/{id}", Summary: "One event", Params: []apiParam{id("event")}, OK: APIEvent{}, handler: s.apiEvent, Errors: nf},
		{Method: "get", Path: "/events/{id}/stages", Summary: "Knockout stages with their brackets", Params: []apiParam{id("event")}, OK: APIStageList{}, handler: s.apiStages, Errors: nf},
		{Method: "get", Path: "/events/{id}/league", Summary: "League classes of the event", Params: []apiParam{id("event")}, OK: APIClassList{}, handler: s.apiLeague, Errors: nf},
		{Method: "get", Path: "/league-classes/{id}", Summary: "A league class with its schedule and standings", Params: []apiParam{id("class")}, OK: APIClassDetail{}, handler: s.apiClass, Errors: nf},
		{Method: "get", Path: "/events/{id}/games", Summary: "Games of the event with the result in force", Params: []apiParam{id("event")}, OK: APIGameList{}, Paged: true, handler: s.apiGames, Errors: []int{404, 422}},
		{Method: "get", Path: "/games/{id}", Summary: "A game with the result in force and its history", Params: []apiParam{id("game")}, OK: APIGame{}, handler: s.apiGame, Errors: nf},
		{Method: "get", Path: "/players", Summary: "Players by reading", OK: APIPlayerList{}, Paged: true, handler: s.apiPlayers, Errors: []int{422},
			Params: []apiParam{{Name: "q", In: "query", Type: "string", Doc: "name, reading or federation number (partial)"}}},
		{Method: "get", Path: "/players/{id}", Summary: "A player's public fields", Params: []apiParam{id("player")}, OK: APIPlayer{}, handler: s.apiPlayer, Errors: nf},
		{Method: "get", Path: "/ratings", Summary: "The rating list, highest first", OK: APIRatingList{}, Paged: true, handler: s.apiRatings, Errors: []int{422},
			Params: []apiParam{{Name: "q", In: "query", Type: "string", Doc: "name, reading or federation number (partial)"}}},
		{Method: "post", Path: "/games/{id}/result", Summary: "Enter a result (results token)", Params: []apiParam{id("game")}, Body: APIResultInput{}, OK: APIGame{}, Token: true, handler: s.apiEnterResult, Errors: write},
		{Method: "post", Path: "/games/{id}/record", Summary: "Save a whole record (records token)", Params: []apiParam{id("game")}, Body: APIRecordInput{}, OK: APIRecordSaved{}, Token: true, handler: s.apiSaveRecord, Errors: write},
		{Method: "post", Path: "/games/{id}/moves", Summary: "Append one move to the record (records token)", Params: []apiParam{id("game")}, Body: APIMoveInput{}, OK: APIRecordSaved{}, Token: true, handler: s.apiAppendMove, Errors: write},
		{Method: "post", Path: "/games/{id}/confirm", Summary: "Confirm a result version (confirmations token)", Params: []apiParam{id("game")}, Body: APIConfirmInput{}, OK: APIGame{}, Token: true, handler: s.apiConfirm, Errors: write},
		{Method: "post", Path: "/games/{id}/rulings", Summary: "File a ruling (rulings token)", Params: []apiParam{id("game")}, Body: APIRulingInput{}, OK: APIRulingSaved{}, Token: true, handler: s.apiRuling, Errors: write},
	}
	ops = append(ops, s.dayOperations()...)   // api_day.go
	return append(ops, s.teamOperations()...) // api_teams.go
}

func (s *Room) apiDocument(c echo.Context) error {
	return s.apiBlob(c, s.API.doc)
}

// apiGate runs for every /api/ request before sessions and CSRF: CORS
// (any origin, no credentials), the preflight, the language of
// Accept-Language and the rate limit.
func (s *Room) APIGate(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if !site.IsAPIPath(c) {
			return next(c)
		}
		r := c.Request()
		h := c.Response().Header()
		h.Set("Access-Control-Allow-Origin", "*")
		h.Set("Access-Control-Expose-Headers", "ETag, Retry-After, Last-Modified")
		h.Add(echo.HeaderVary, "Accept-Language")
		lz := s.Msgs.For(APILanguage(r.Header.Get("Accept-Language")))
		c.Set("lang", lz.Lang)
		c.SetRequest(r.WithContext(site.WithLocalizer(r.Context(), lz)))
		if r.Method == http.MethodOptions {
			h.Set("Access-Control-Allow-Methods", "GET, HEAD, POST, OPTIONS")
			h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, If-None-Match, Accept-Language")
			h.Set("Access-Control-Max-Age", "600")
			return c.NoContent(http.StatusNoContent)
		}
		if s.API != nil {
			if ok, wait := s.API.Limiter.Allow(r.Context(), c.RealIP(), s.Now()); !ok {
				secs := retrySeconds(wait)
				h.Set("Retry-After", strconv.Itoa(secs))
				return &apiRateLimited{seconds: secs}
			}
		}
		return next(c)
	}
}

type apiRateLimited struct{ seconds int }

func (e *apiRateLimited) Error() string { return fmt.Sprintf("rate limited for %ds", e.seconds) }

// apiLanguage picks ja or en from Accept-Language (the first of the two
// named, by q; Japanese by default).
func APILanguage(header string) string {
	best, bestQ := "ja", -1.0
	for _, part := range strings.Split(header, ",") {
		tag, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				q = f
			}
		}
		base, _, _ := strings.Cut(strings.ToLower(tag), "-")
		if (base == "ja" || base == "en") && q > bestQ && q > 0 {
			best, bestQ = base, q
		}
	}
	return best
}

// apiActor replaces the session's actor: the API acts as the public, or as
// the bearer token.
func (s *Room) apiActor(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		var a office.Actor
		if auth := r.Header.Get(echo.HeaderAuthorization); auth != "" {
			scheme, secret, _ := strings.Cut(auth, " ")
			if !strings.EqualFold(scheme, "Bearer") {
				return fmt.Errorf("authorization scheme %q: %w", scheme, office.ErrUnauthorized)
			}
			var err error
			if a, err = s.Office.AuthenticateToken(r.Context(), strings.TrimSpace(secret)); err != nil {
				return err
			}
		}
		c.SetRequest(r.WithContext(context.WithValue(r.Context(), site.ActorKey{}, a)))
		err := next(c)
		if a.Token != nil && r.Method != http.MethodGet && r.Method != http.MethodHead {
			// The log line of every write through a token; the database
			// keeps its own line (api_token_uses) with the write itself.
			status := c.Response().Status
			var he *echo.HTTPError
			if err != nil {
				status = 0 // answered by the error handler
				if errors.As(err, &he) {
					status = he.Code
				}
			}
			s.Log.InfoContext(r.Context(), "api token write", "request_id", c.Response().Header().Get(echo.HeaderXRequestID),
				"token_id", a.Token.ID, "token", a.Token.Name, "event_id", a.Token.EventID, "scope", a.Token.Scope,
				"method", r.Method, "path", r.URL.Path, "status", status, "err", err)
		}
		return err
	}
}

// apiRequireScope lets only a token of scope through (401 without one,
// 403 with another).
func apiRequireScope(c echo.Context, scope string) (office.Actor, error) {
	a := site.Actor(c)
	if a.Token == nil {
		return a, fmt.Errorf("no token: %w", office.ErrUnauthorized)
	}
	if a.Token.Scope != scope {
		return a, fmt.Errorf("token scope %s, %s needed: %w", a.Token.Scope, scope, office.ErrForbidden)
	}
	return a, nil
}

// apiJSON writes v with a strong ETag of its bytes, unless the event's
// revision already gave the answer its validator (notModified); a
// matching If-None-Match gets 304.
func (s *Room) apiJSON(c echo.Context, status int, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return s.apiBlobStatus(c, status, b)
}

func (s *Room) apiBlob(c echo.Context, b []byte) error {
	return s.apiBlobStatus(c, http.StatusOK, b)
}

func (s *Room) apiBlobStatus(c echo.Context, status int, b []byte) error {
	h := c.Response().Header()
	read := c.Request().Method == http.MethodGet || c.Request().Method == http.MethodHead
	if status == http.StatusOK && read && c.Get("api.revision") == nil {
		sum := sha256.Sum256(b)
		etag := `"` + hex.EncodeToString(sum[:16]) + `"`
		h.Set("ETag", etag)
		if h.Get("Cache-Control") == "" {
			h.Set("Cache-Control", "no-cache")
		}
		if site.Fresh(c.Request(), etag, timeZero) {
			return c.NoContent(http.StatusNotModified)
		}
	}
	if !read {
		h.Set("Cache-Control", "no-store")
	}
	return c.Blob(status, echo.MIMEApplicationJSON, b)
}

// apiNotModified answers a conditional GET of a page of an event from the
// event's revision (cache.go), before anything is computed.
func (s *Room) apiNotModified(c echo.Context, eventOf func(context.Context) (int64, error)) (bool, error) {
	if !site.Actor(c).Anonymous() || c.Request().Method != http.MethodGet {
		return false, nil // a read_drafts token, or HEAD: the body's own tag
	}
	c.Set("api.revision", true)
	return s.NotModified(c, eventOf)
}

// apiError answers every error of /api/ as JSON (handleError sends them
// here): the code is stable, the message localised.
func (s *Room) apiError(err error, c echo.Context) {
	ctx := c.Request().Context()
	lz := site.L(ctx)
	status, code, msg := http.StatusInternalServerError, "internal", "error.internal"
	body := APIErrorBody{}
	var (
		he        *echo.HTTPError
		stale     *office.StaleError
		future    *office.FutureResultError
		limited   *apiRateLimited
		badCursor *apiBadCursor
		unst      *site.UnstorableError
		ve        *office.ValidationError
		recStale  *office.RecordStaleError
	)
	switch {
	case office.IsUnavailable(err):
		secs := s.RetryAfterSeconds()
		c.Response().Header().Set("Retry-After", strconv.Itoa(secs))
		status, code, msg = http.StatusServiceUnavailable, "unavailable", "error.unavailable"
		body.Retry = &secs
	case errors.As(err, &badCursor):
		status, code, msg = http.StatusBadRequest, "bad_cursor", "api.err.cursor"
	case errors.As(err, &limited):
		status, code, msg = http.StatusTooManyRequests, "rate_limited", "api.err.rate_limited"
		body.Retry = &limited.seconds
	case errors.As(err, &stale):
		status, code, msg = http.StatusConflict, "stale", "api.err.stale"
		body.Current = s.APIInForce(ctx, stale)
	case errors.As(err, &recStale):
		status, code, msg = http.StatusConflict, "stale_record", "api.err.stale_record"
		body.Current = &APIResultInForce{GameID: recStale.GameID}
		body.Plies = &recStale.Have
	case errors.As(err, &future):
		status, code, msg = http.StatusConflict, "future_result", "api.err.future"
	case errors.Is(err, office.ErrUnauthorized):
		c.Response().Header().Set(echo.HeaderWWWAuthenticate, `Bearer realm="kisen"`)
		status, code, msg = http.StatusUnauthorized, "unauthorized", "api.err.unauthorized"
	case errors.As(err, &unst):
		status, code, msg = http.StatusUnprocessableEntity, "invalid", "error.invalid"
		body.Fields = []APIFieldError{{Field: unst.Field, Message: lz.T("api.err.unstorable")}}
	case errors.As(err, &ve):
		status, code, msg = http.StatusUnprocessableEntity, "invalid", "error.invalid"
		for _, f := range ve.Fields {
			body.Fields = append(body.Fields, APIFieldError{Field: f.Field, Message: lz.TData(f.Code, site.WordArgs(ctx, f.Args))})
		}
	case errors.Is(err, office.ErrNotFound):
		status, code, msg = http.StatusNotFound, "not_found", "api.err.not_found"
	case errors.Is(err, office.ErrForbidden):
		status, code, msg = http.StatusForbidden, "forbidden", "api.err.forbidden"
	case errors.Is(err, office.ErrConflict):
		status, code, msg = http.StatusConflict, "conflict", "error.conflict"
	case errors.Is(err, office.ErrInvalid):
		status, code, msg = http.StatusUnprocessableEntity, "invalid", "error.invalid"
	case errors.Is(err, middleware.ErrCSRFInvalid):
		status, code, msg = http.StatusForbidden, "forbidden", "api.err.forbidden"
	case errors.As(err, &he):
		status = he.Code
		switch status {
		case http.StatusNotFound:
			code, msg = "not_found", "api.err.not_found"
		case http.StatusMethodNotAllowed:
			code, msg = "method_not_allowed", "error.method"
		case http.StatusRequestEntityTooLarge:
			code, msg = "too_large", "error.too_large"
		case http.StatusUnsupportedMediaType, http.StatusBadRequest:
			code, msg = "bad_request", "api.err.body"
		default:
			if status < 500 {
				code, msg = "invalid", "error.invalid"
			}
		}
	}
	if status >= 500 {
		s.Log.ErrorContext(ctx, "api request failed", "request_id", c.Response().Header().Get(echo.HeaderXRequestID), "err", err)
	} else if site.Actor(c).Token != nil {
		s.Log.InfoContext(ctx, "api token request refused", "token", site.Actor(c).Token.ID, "status", status, "err", err)
	}
	body.Code, body.Message = code, lz.T(msg)
	if c.Request().Method == http.MethodHead {
		_ = c.NoContent(status)
		return
	}
	b, merr := json.Marshal(APIError{Error: body})
	if merr != nil {
		_ = c.NoContent(status)
		return
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	_ = c.Blob(status, echo.MIMEApplicationJSON, b)
}

// apiInForce is a stale write's "current" part.
func (s *Room) APIInForce(ctx context.Context, st *office.StaleError) *APIResultInForce {
	out := &APIResultInForce{GameID: st.GameID}
	if st.Has {
		out.Version = st.Latest.Version
	}
	if st.HasInForce {
		names := s.UserNames(ctx, st.InForce.EnteredBy)
		v := apiResultVersion(st.InForce, names, true)
		// A players' report names no user as its author (issue 21 item 5).
		reported, err := s.ReportedResults(ctx, []office.ResultVersion{st.InForce})
		if err != nil && (st.InForce.Reason == day.ReasonPlayersReport || st.InForce.Reason == day.ReasonPlayerReportConfirmed) {
			v.EnteredBy = "" // unknown which: name no one rather than the issuer
		} else if err == nil {
			if src, ok := reported[st.InForce.ID]; ok {
				v.EnteredVia = day.ReasonPlayersReport
				if src.ConfirmedBy == nil {
					v.EnteredBy = ""
				}
			}
		}
		out.InForce = &v
	}
	return out
}

// apiDecode reads a JSON body strictly (unknown fields are refused, so a
// misspelt field is not silently ignored) and checks its text is storable.
func apiDecode(c echo.Context, v any) error {
	r := c.Request()
	ct := r.Header.Get(echo.HeaderContentType)
	if !strings.HasPrefix(ct, echo.MIMEApplicationJSON) {
		return echo.NewHTTPError(http.StatusUnsupportedMediaType)
	}
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(r.Body); err != nil {
		return err // a body cut off, or over the limit (413)
	}
	dec := json.NewDecoder(&buf)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		ve := &office.ValidationError{}
		if errors.As(err, &te) && te.Field != "" {
			ve.Add(0, te.Field, "api.err.type", nil)
			return ve
		}
		if f, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			ve.Add(0, strings.Trim(f, `"`), "api.err.unknown_field", nil)
			return ve
		}
		ve.Add(0, "body", "api.err.body", nil) // not JSON, or not one object
		return ve
	}
	if dec.More() {
		ve := &office.ValidationError{}
		ve.Add(0, "body", "api.err.body", nil)
		return ve
	}
	return checkStorableJSON(v)
}
