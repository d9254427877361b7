package leagues

import (
	"context"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/web/site"
)

// schedulePublishView is the league schedule's publish confirmation.
type schedulePublishView struct {
	Effects         *site.EffectsView // the games publication creates
	ClassID         int64
	EventID         int64
	EventName       string
	Title           string
	Games           int
	EventGoesPublic bool
}

// leaguePublishConfirm (GET /league/:cid/publish) asks before a schedule is
// published and says whether the event becomes public with it. It answers
// exactly as the publication would: the same roles, the same state check.
func (s *Room) leaguePublishConfirm(c echo.Context) error {
	ctx := c.Request().Context()
	cid, err := site.PathParam(c, "cid")
	if err != nil {
		return err
	}
	p, err := s.Office.PreviewSchedulePublication(ctx, site.Actor(c), cid)
	if err != nil {
		return err
	}
	v := schedulePublishView{ClassID: cid, EventID: p.Event.ID, EventName: site.LocalName(ctx, p.Event.Name, p.Event.NameEn),
		Title: ClassTitle(ctx, p.Class.Class), Games: p.Games, EventGoesPublic: p.EventGoesPublic}
	// The games themselves, as publishing creates them (issue 13: the
	// publication run rolled back, previews.go).
	eff, err := s.Office.DryRun(ctx, p.Event.ID, func(ctx context.Context, o *office.Office) error {
		return o.PublishSchedule(ctx, site.Actor(c), cid)
	})
	if err != nil {
		return err
	}
	ev := s.EffectsView(ctx, office.Effects{Created: eff.Created})
	v.Effects = &ev
	site.MarkDraft(c, office.IsDraft(p.Event))
	return s.Render(c, http.StatusOK, SchedulePublishPage(s.Page(c, v.EventName+" "+v.Title+" — "+site.T(ctx, "drafts.publish.title")), v))
}

// leaguePublish (POST /league/:cid/publish) publishes the schedule once the
// confirmation was given (confirm=1); without it, it shows the
// confirmation, so nobody publishes a draft event unawares.
func (s *Room) leaguePublish(c echo.Context) error {
	ctx := c.Request().Context()
	cid, err := site.PathParam(c, "cid")
	if err != nil {
		return err
	}
	if c.FormValue("confirm") != "1" {
		return s.leaguePublishConfirm(c)
	}
	if err := s.Office.PublishSchedule(ctx, site.Actor(c), cid); err != nil {
		return err
	}
	return site.SeeOther(c, "/league/"+strconv.FormatInt(cid, 10))
}
