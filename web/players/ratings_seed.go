package players

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/office/ratings"
	"kisen/web/site"
)

// seedApplyView is the "seed by rating" form under the seeds table.
type seedApplyView struct {
	Action string // POST target
	Count  string // as typed (kept on a 422)
	Open   bool   // the stage is still in setup, so seeds may change
}

// renderSeeds draws the seeds page of a stage with the apply form; in and
// errs are the typed count and its messages after a refused request.
func (s *Room) renderSeeds(c echo.Context, status int, st office.KnockoutStage, rows []ratings.SeedRow, in *string, errs site.FieldMsgs) error {
	ctx := c.Request().Context()
	v := seedsView{StageURL: fmt.Sprintf("/stages/%d", st.ID), StageName: site.StageName(ctx, st.Name, st.NameEn, st.Kind)}
	rs, err := s.Ratings().RatingStatus(ctx)
	if err != nil {
		return err
	}
	v.Status = ratingStatusViewOf(rs)
	for _, r := range rows {
		v.Rows = append(v.Rows, seedRowView{Seed: r.Seed, Player: playerRowOf(r.Player), Rated: r.Rated,
			Rating: fmtRating(r.Rating.Rating), Games: r.Rating.Games})
	}
	// Default: a quarter of the field (at least one), the usual share of
	// seeds in a bracket; the director changes it before applying.
	f := seedApplyView{Action: v.StageURL + "/seeds", Count: strconv.Itoa(min(len(rows), max(1, len(rows)/4))),
		Open: st.Status == office.StageSetup}
	if in != nil {
		f.Count = *in
	}
	if e, err := s.Office.Event(ctx, site.Actor(c), st.EventID); err == nil {
		site.MarkDraft(c, office.IsDraft(e))
	}
	p := s.Page(c, site.L(ctx).T("rating.seeds.title"))
	page, form := SeedsPage(p, v), SeedApplyForm(p, f, errs)
	return s.Render(c, status, templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		return page.Render(templ.WithChildren(ctx, form), w)
	}))
}

// stageSeedsApply sets the stage's seeds from the rating order
// (office.ApplyRatingSeeds), then goes back to the stage page, which lists
// the seeds. A bad count or a drawn stage re-renders the seeds page (422).
func (s *Room) stageSeedsApply(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	typed := strings.TrimSpace(c.FormValue("count"))
	count, convErr := strconv.Atoi(typed)
	if convErr != nil {
		count = -1 // office names the range
	}
	_, err = s.Ratings().ApplyRatingSeeds(ctx, site.Actor(c), id, count)
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		st, rows, rerr := s.Ratings().EntrantsSeedsByRating(ctx, site.Actor(c), id)
		if rerr != nil {
			return rerr
		}
		return s.renderSeeds(c, http.StatusUnprocessableEntity, st, rows, &typed, msgs)
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, fmt.Sprintf("/stages/%d", id))
}
