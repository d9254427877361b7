package games

import (
	"context"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/web/site"
)

// Undo and unpublish (issue 13, docs/previews-and-undo.md): nothing is
// deleted. 取り消す on a game's newest result appends a version restoring
// the one before it (office.UndoResult); unpublishing a draw or a league
// schedule marks its games void while none has a result
// (office.UnpublishStage, office.UnpublishSchedule). Each is previewed
// first (previews.go) and asks for a reason.

// undoSave answers POST /games/:id/undo: without confirm the preview,
// with it the new version (through the correction gate when later games
// depended on the result).
func (s *Room) undoSave(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	in := office.UndoInput{Reason: c.FormValue("reason")}
	in.Version, err = site.SeenVersion(c)
	if !site.Confirmed(c) {
		var eff office.Effects
		if err == nil {
			var eventID int64
			if eventID, err = s.Office.EventOfGame(ctx, id); err == nil {
				eff, err = s.Office.DryRun(ctx, eventID, func(ctx context.Context, o *office.Office) error {
					_, err := o.UndoResult(ctx, site.Actor(c), id, in)
					return err
				})
			}
		}
		if shown, err2 := s.CorrectionFromPreview(c, office.CorrectionResult, id, err); shown {
			return err2
		}
		if msgs, ok := site.FieldMsgsOf(ctx, err); ok && msgs["reason"] != "" && len(msgs) == 1 {
			// The reason is asked for on the preview itself: show what will
			// be stored with the message, not the game page.
			eff, err = s.undoEffectsWithoutReason(ctx, c, id, in)
			if err == nil {
				return s.renderUndoConfirm(c, http.StatusOK, id, in, eff, nil)
			}
		}
		if err != nil {
			site.WholePageUnlessStale(c, err)
			return s.formError(c, id, gameForms{Open: "undo"}, err)
		}
		return s.renderUndoConfirm(c, http.StatusOK, id, in, eff, nil)
	}
	if err == nil {
		_, err = s.Office.UndoResult(ctx, site.Actor(c), id, in)
	}
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok && msgs["reason"] != "" {
		eff, perr := s.undoEffectsWithoutReason(ctx, c, id, in)
		if perr != nil {
			return perr
		}
		return s.renderUndoConfirm(c, http.StatusUnprocessableEntity, id, in, eff, msgs)
	}
	if err != nil {
		site.WholePageUnlessStale(c, err)
		return s.formError(c, id, gameForms{Open: "undo"}, err)
	}
	return site.SeeOther(c, "/games/"+strconv.FormatInt(id, 10)+"#results")
}

// undoEffectsWithoutReason previews the undo with a placeholder reason, so
// the page can say what will be stored while it asks for the real one.
func (s *Room) undoEffectsWithoutReason(ctx context.Context, c echo.Context, id int64, in office.UndoInput) (office.Effects, error) {
	eventID, err := s.Office.EventOfGame(ctx, id)
	if err != nil {
		return office.Effects{}, err
	}
	in.Reason = "-"
	return s.Office.DryRun(ctx, eventID, func(ctx context.Context, o *office.Office) error {
		_, err := o.UndoResult(ctx, site.Actor(c), id, in)
		return err
	})
}

func (s *Room) renderUndoConfirm(c echo.Context, status int, id int64, in office.UndoInput, eff office.Effects, errs site.FieldMsgs) error {
	ctx := c.Request().Context()
	g, _, err := s.Office.Game(ctx, site.Actor(c), id)
	if err != nil {
		return err
	}
	lead := site.T(ctx, "previews.undo.lead_none", "V", in.Version)
	if plan, ok, err := s.Office.PlanUndo(ctx, id); err != nil {
		return err
	} else if ok && plan.Restored != nil {
		lead = site.T(ctx, "previews.undo.lead", "V", plan.Undone.Version, "Back", plan.Restored.Version,
			"Result", site.EffectResultWords(ctx, plan.Restored.Result, plan.Restored.Reason, s.PlayerName(ctx, g.SentePlayerID), s.PlayerName(ctx, g.GotePlayerID)))
	}
	return s.RenderConfirm(c, status, site.ConfirmView{Title: site.T(ctx, "previews.undo.title", "Game", site.GameLabel(ctx, g.Label, eff.Stages...)), Lead: lead,
		Effects: s.EffectsView(ctx, eff), Action: site.GameURL(id) + "/undo", Fields: site.EchoFields(c, "reason"),
		Submit: site.T(ctx, "previews.undo.submit"), Back: site.GameURL(id) + "#results", Reason: true, ReasonValue: in.Reason, Errs: errs, Danger: true})
}
