package leagues

import (
	"context"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/web/site"
)

// The league page's irreversible steps, previewed first (previews.go): the
// result buttons, and taking a published schedule back.

func leagueURL(cid int64) string { return "/league/" + strconv.FormatInt(cid, 10) }

// leagueResultPreview runs the league result rolled back and shows what it
// stores (the result; for a redo, the redo game with its seats).
func (s *Room) leagueResultPreview(c echo.Context, cid int64, in office.LeagueResultInput) error {
	ctx := c.Request().Context()
	eventID, err := s.Office.EventOfGame(ctx, in.GameID)
	if err != nil {
		return err
	}
	eff, err := s.Office.DryRun(ctx, eventID, func(ctx context.Context, o *office.Office) error {
		return o.EnterLeagueResult(ctx, site.Actor(c), in)
	})
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		return s.renderLeagueClass(c, http.StatusUnprocessableEntity, LeagueClassView{Errs: msgs})
	}
	if err != nil {
		return err
	}
	return s.RenderConfirm(c, http.StatusOK, site.ConfirmView{Title: site.T(ctx, "previews.league.title"), Lead: site.T(ctx, "previews.league.lead"),
		Effects: s.EffectsView(ctx, eff), Action: leagueURL(cid) + "/result", Fields: site.EchoFields(c),
		Submit: site.T(ctx, "previews.save"), Back: leagueURL(cid) + "#results"})
}

// leagueUnpublish (POST /league/:cid/unpublish) takes a published schedule
// back while no game has a result.
func (s *Room) leagueUnpublish(c echo.Context) error {
	ctx := c.Request().Context()
	cid, err := site.PathParam(c, "cid")
	if err != nil {
		return err
	}
	cl, err := s.Office.ClassOf(ctx, site.Actor(c), cid) // an unpublished class is not found but for the staff
	if err != nil {
		return err
	}
	if _, err := s.Office.Event(ctx, site.Actor(c), cl.EventID); err != nil {
		return err // a draft event's class is not found for the public
	}
	reason := c.FormValue("reason")
	title := ClassTitle(ctx, cl.Class)
	view := func(status int, eff office.Effects, errs site.FieldMsgs) error {
		return s.RenderConfirm(c, status, site.ConfirmView{Title: site.T(ctx, "previews.unpublish.schedule_title", "Class", title),
			Lead: site.T(ctx, "previews.unpublish.schedule_lead", "Class", title), Effects: s.EffectsView(ctx, eff),
			Action: leagueURL(cid) + "/unpublish", Submit: site.T(ctx, "previews.unpublish.submit"), Back: leagueURL(cid),
			Reason: true, ReasonValue: reason, Errs: errs, Danger: true})
	}
	try := func(reason string) (office.Effects, error) {
		return s.Office.DryRun(ctx, cl.EventID, func(ctx context.Context, o *office.Office) error {
			return o.UnpublishSchedule(ctx, site.Actor(c), cid, reason)
		})
	}
	if !site.Confirmed(c) {
		eff, err := try(site.OrPlaceholder(reason))
		if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
			return s.renderLeagueClass(c, http.StatusUnprocessableEntity, LeagueClassView{Errs: msgs})
		}
		if err != nil {
			return err
		}
		return view(http.StatusOK, eff, nil)
	}
	err = s.Office.UnpublishSchedule(ctx, site.Actor(c), cid, reason)
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		if msgs["reason"] != "" {
			if eff, perr := try(site.OrPlaceholder(reason)); perr == nil {
				return view(http.StatusUnprocessableEntity, eff, msgs)
			}
		}
		return s.renderLeagueClass(c, http.StatusUnprocessableEntity, LeagueClassView{Errs: msgs})
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, leagueURL(cid))
}

// leagueHasResult: a game of the class has a result (the schedule can no
// longer be unpublished; the office refuses it too).
func leagueHasResult(v LeagueClassView) bool {
	for _, g := range v.Games {
		if g.Result != "" || g.Version > 0 || g.Pending || g.Redos > 0 {
			return true
		}
	}
	return false
}
