package players

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/office/ratings"
	"kisen/web/site"
)

// ratings is the rating room (office/ratings) over the server's office.
func (s *Room) Ratings() *ratings.Ratings { return ratings.New(s.Office) }

// ratingRoutes: ratings and player records (issue 7). Lists, records and
// head-to-head are public; settings are for administrators and seeding
// for an event's directors (office/ratings checks both again).
func (s *Room) RatingRoutes(e *echo.Echo) {
	e.GET("/ratings", s.ratingsList)
	e.GET("/ratings/export.csv", s.ratingsExport) // ratings_csv.go
	e.GET("/ratings/settings", s.ratingSettingsForm, site.RequireAdmin)
	e.POST("/ratings/settings", s.ratingSettingsSave, site.RequireAdmin)
	e.GET("/players/:id/record", s.playerRecord)
	e.GET("/players/:id/record.csv", s.playerRecordExport) // ratings_csv.go
	e.GET("/players/:id/record/h2h", s.playerHeadToHead)
	e.GET("/stages/:id/seeds", s.stageSeeds, site.RequireUser)
	e.POST("/stages/:id/seeds", s.stageSeedsApply, site.RequireUser) // ratings_seed.go
}

// ratingFilterOf reads the list filters from the query; unknown values
// are ignored (the list is public and bookmarkable).
func ratingFilterOf(c echo.Context) (ratings.RatingFilter, ratingFilterForm) {
	q := c.QueryParams()
	form := ratingFilterForm{Kind: q.Get("kind"), Class: q.Get("class"), Since: q.Get("since"), Query: strings.TrimSpace(q.Get("q"))}
	f := ratings.RatingFilter{Query: form.Query}
	for _, k := range office.PlayerKinds {
		if string(k) == form.Kind {
			f.Kind = k
		}
	}
	for _, cl := range office.PlayerClasses {
		if string(cl) == form.Class {
			f.Class = cl
		}
	}
	if d, ok := office.ParsePlayerDate(form.Since); ok {
		f.ActiveSince = d
	}
	if f.Kind == "" {
		form.Kind = ""
	}
	if f.Class == "" {
		form.Class = ""
	}
	if f.ActiveSince.IsZero() {
		form.Since = ""
	}
	return f, form
}

// ratingsList is one page of the public rating list; htmx gets only the
// table. It reads the stored ratings as they are and never recomputes
// (the worker of `kisen serve` does; the page says when they were
// computed).
func (s *Room) ratingsList(c echo.Context) error {
	ctx := c.Request().Context()
	if done, err := s.notModifiedRatings(c); done || err != nil {
		return err
	}
	f, form := ratingFilterOf(c)
	page, _ := strconv.Atoi(c.QueryParam("page"))
	pg, err := s.Ratings().RatingList(ctx, f, page)
	if err != nil {
		return err
	}
	model := pg.Status.Summary.Model
	if !pg.Status.Computed || model == "" {
		set, err := s.Ratings().RatingSettings(ctx)
		if err != nil {
			return err
		}
		model = set.Model
	}
	v := ratingListViewOf(pg, model, form, site.Actor(c).Admin)
	if site.IsHTMX(c) && c.Request().Header.Get("HX-History-Restore-Request") != "true" {
		return s.Render(c, http.StatusOK, RatingTable(v))
	}
	return s.Render(c, http.StatusOK, RatingsPage(s.Page(c, site.L(ctx).T("rating.list.title")), v))
}

// playerRecord is one page of a player's results, the rating chart and
// head-to-head.
func (s *Room) playerRecord(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	done, grev, err := s.notModifiedPlayer(c, id)
	if done || err != nil {
		return err
	}
	page, _ := strconv.Atoi(c.QueryParam("page"))
	rec, err := s.Ratings().PlayerRecordAt(ctx, id, page, grev)
	if err != nil {
		return err
	}
	opp, err := strconv.ParseInt(c.QueryParam("opponent"), 10, 64)
	if err != nil || opp <= 0 {
		opp = 0
	}
	v := playerRecordViewOf(ctx, rec, opp)
	if opp > 0 {
		h, err := s.Ratings().HeadToHead(ctx, id, opp)
		if err != nil {
			return err
		}
		hv := headToHeadViewOf(ctx, h)
		v.HeadToHead = &hv
	}
	return s.Render(c, http.StatusOK, PlayerRecordPage(s.Page(c, site.L(ctx).T("rating.record.title", "Name", rec.Player.Name)), v))
}

// playerHeadToHead answers the opponent picker: a fragment for htmx, else
// the whole record page with the head-to-head filled in.
func (s *Room) playerHeadToHead(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	opp, err := strconv.ParseInt(c.QueryParam("opponent"), 10, 64)
	if err != nil || opp <= 0 {
		if site.IsHTMX(c) {
			return s.Render(c, http.StatusOK, HeadToHeadFragment(nil))
		}
		return site.SeeOther(c, site.PlayerURL(id)+"/record")
	}
	if !site.IsHTMX(c) {
		return site.SeeOther(c, site.PlayerURL(id)+"/record?opponent="+url.QueryEscape(strconv.FormatInt(opp, 10))+"#h2h")
	}
	h, err := s.Ratings().HeadToHead(ctx, id, opp)
	if err != nil {
		return err
	}
	hv := headToHeadViewOf(ctx, h)
	c.Response().Header().Add("Vary", "HX-Request")
	return s.Render(c, http.StatusOK, HeadToHeadFragment(&hv))
}

// ratingSettingsForm shows the instance's rating settings.
func (s *Room) ratingSettingsForm(c echo.Context) error {
	ctx := c.Request().Context()
	set, err := s.Ratings().RatingSettings(ctx)
	if err != nil {
		return err
	}
	v := ratingSettingsView{In: ratings.RatingSettingsInputOf(set), Saved: c.QueryParam("saved") == "1"}
	return s.Render(c, http.StatusOK, RatingSettingsPage(s.Page(c, site.L(ctx).T("rating.settings.title")), v))
}

// ratingSettingsSave saves the settings; a bad field re-renders the form
// (422) with the input kept and the message beside the field.
func (s *Room) ratingSettingsSave(c echo.Context) error {
	ctx := c.Request().Context()
	in, bad := ratingSettingsInputOf(c)
	v := ratingSettingsView{In: in, Raw: bad}
	var err error
	if len(bad) == 0 {
		_, err = s.Ratings().SetRatingSettings(ctx, site.Actor(c), in)
		if err == nil {
			return site.SeeOther(c, "/ratings/settings?saved=1")
		}
	} else {
		err = ratings.ValidateRatingSettings(in) // report the other fields too
	}
	msgs := site.FieldMsgs{}
	if m, ok := site.FieldMsgsOf(ctx, err); ok {
		msgs = m
	} else if err != nil {
		return err
	}
	for field := range bad {
		msgs[field] = site.L(ctx).T("rating.err.number")
	}
	v.Errors = msgs
	return s.Render(c, http.StatusUnprocessableEntity, RatingSettingsPage(s.Page(c, site.L(ctx).T("rating.settings.title")), v))
}

// ratingSettingsInputOf binds the form; bad holds the raw text of fields
// that are not numbers, so the form can show them again.
func ratingSettingsInputOf(c echo.Context) (ratings.RatingSettingsInput, map[string]string) {
	bad := map[string]string{}
	num := func(name string) float64 {
		raw := strings.TrimSpace(c.FormValue(name))
		x, err := strconv.ParseFloat(raw, 64)
		if err != nil {
			bad[name] = raw
		}
		return x
	}
	in := ratings.RatingSettingsInput{
		Model: c.FormValue("model"), EloInitial: num("elo_initial"), EloK: num("elo_k"),
		G2Initial: num("g2_initial"), G2InitialRD: num("g2_initial_rd"), G2Volatility: num("g2_volatility"),
		G2Tau: num("g2_tau"), G2Period: c.FormValue("g2_period"), RateHandicap: c.FormValue("rate_handicap") == "on",
		ProvisionalK: num("provisional_k"),
	}
	if raw := strings.TrimSpace(c.FormValue("provisional_games")); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil {
			bad["provisional_games"] = raw
		}
		in.ProvisionalGames = n
	}
	if in.ProvisionalGames == 0 {
		delete(bad, "provisional_k") // unused without provisional games
	}
	return in, bad
}

// stageSeeds shows a knockout stage's entrants in seeding order by rating
// (directors of the event).
func (s *Room) stageSeeds(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	st, rows, err := s.Ratings().EntrantsSeedsByRating(ctx, site.Actor(c), id)
	if err != nil {
		return err
	}
	return s.renderSeeds(c, http.StatusOK, st, rows, nil, nil) // with the apply form (ratings_seed.go)
}
