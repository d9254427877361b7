package knockouts

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/web/site"
)

// The stage page's irreversible steps, previewed first (previews.go): a
// quick result, publishing the draw, and taking the publication back.

// stageResultPreview runs the quick result rolled back and shows what it
// stores: the result, who goes on to which game, a champion.
func (s *Room) stageResultPreview(c echo.Context, id int64, in office.QuickResultInput) error {
	ctx := c.Request().Context()
	st, err := s.Office.Stage(ctx, site.Actor(c), id)
	if err != nil {
		return err
	}
	eff, err := s.Office.DryRun(ctx, st.EventID, func(ctx context.Context, o *office.Office) error {
		return o.QuickResult(ctx, site.Actor(c), in)
	})
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		return s.renderStage(c, http.StatusUnprocessableEntity, id, stageManage{}, msgs)
	}
	if err != nil {
		return err
	}
	return s.RenderConfirm(c, http.StatusOK, site.ConfirmView{Title: site.T(ctx, "previews.quick.title"), Lead: site.T(ctx, "previews.quick.lead"),
		Effects: s.EffectsView(ctx, eff), Action: site.StageURL(id) + "/result", Fields: site.EchoFields(c),
		Submit: site.T(ctx, "previews.save"), Back: site.StageURL(id) + "#games"})
}

// stagePublishPreview lists the games publishing the draw creates.
func (s *Room) stagePublishPreview(c echo.Context, id int64) error {
	ctx := c.Request().Context()
	st, err := s.Office.Stage(ctx, site.Actor(c), id)
	if err != nil {
		return err
	}
	eff, err := s.Office.DryRun(ctx, st.EventID, func(ctx context.Context, o *office.Office) error {
		return o.PublishStage(ctx, site.Actor(c), id)
	})
	if err != nil {
		return err
	}
	site.MarkDraft(c, eff.EventGoesPublic)
	return s.RenderConfirm(c, http.StatusOK, site.ConfirmView{Title: site.T(ctx, "previews.publish.title"), Lead: site.T(ctx, "previews.publish.lead", "Stage", site.StageName(ctx, st.Name, st.NameEn, st.Kind)),
		Effects: s.EffectsView(ctx, eff), Action: site.StageURL(id) + "/publish", Submit: site.T(ctx, "previews.publish.submit"), Back: site.StageURL(id) + "#review"})
}

// stageUnpublish (POST /stages/:id/unpublish) takes a published draw back
// while no game has a result: the preview lists the games made void and
// asks for the reason; the confirmation saves it.
func (s *Room) stageUnpublish(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathParam(c, "id")
	if err != nil {
		return err
	}
	st, err := s.Office.Stage(ctx, site.Actor(c), id)
	if err != nil {
		return err
	}
	reason := c.FormValue("reason")
	view := func(status int, eff office.Effects, errs site.FieldMsgs) error {
		return s.RenderConfirm(c, status, site.ConfirmView{Title: site.T(ctx, "previews.unpublish.stage_title", "Stage", site.StageName(ctx, st.Name, st.NameEn, st.Kind)),
			Lead: site.T(ctx, "previews.unpublish.stage_lead", "Stage", site.StageName(ctx, st.Name, st.NameEn, st.Kind)), Effects: s.EffectsView(ctx, eff),
			Action: site.StageURL(id) + "/unpublish", Submit: site.T(ctx, "previews.unpublish.submit"), Back: site.StageURL(id) + "#games",
			Reason: true, ReasonValue: reason, Errs: errs, Danger: true})
	}
	try := func(reason string) (office.Effects, error) {
		return s.Office.DryRun(ctx, st.EventID, func(ctx context.Context, o *office.Office) error {
			return o.UnpublishStage(ctx, site.Actor(c), id, reason)
		})
	}
	if !site.Confirmed(c) {
		eff, err := try(site.OrPlaceholder(reason))
		if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
			return s.renderStage(c, http.StatusUnprocessableEntity, id, stageManage{}, msgs)
		}
		if err != nil {
			return err
		}
		return view(http.StatusOK, eff, nil)
	}
	err = s.Office.UnpublishStage(ctx, site.Actor(c), id, reason)
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		if msgs["reason"] != "" {
			eff, perr := try(site.OrPlaceholder(reason))
			if perr == nil {
				return view(http.StatusUnprocessableEntity, eff, msgs)
			}
		}
		return s.renderStage(c, http.StatusUnprocessableEntity, id, stageManage{}, msgs)
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, site.StageURL(id)+"#review")
}

// stageHasResult: a game of the stage has a result, so its draw can no
// longer be unpublished (the office refuses it too).
func stageHasResult(st StageView) bool {
	for _, g := range allGames(st) {
		if g.Result != "" || g.Version > 0 {
			return true
		}
	}
	return false
}
