package games

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"kisen/adjudication"
	"kisen/office"
	"kisen/web/site"
)

// previewView is what a preview (record, ending or claim) shows before
// saving; Effects and Confirm are set for an ending or a claim: what will
// be stored, and the form that stores it (issue 13).
type previewView struct {
	Ruling  *rulingRow // a ruling about to be recorded
	Record  *office.RecordReading
	Outcome *adjudication.Outcome
	Redo    *redoView
	Effects *site.EffectsView
	Confirm *confirmAction
}

// confirmAction is a preview's confirmation form.
type confirmAction struct {
	Action string
	Fields [][2]string
}

// redoView is the redo game a 千日手/持将棋 outcome sets up.
type redoView struct {
	Sente, Gote                   string
	SenteAllowance, GoteAllowance string
	Swapped                       bool
}

func (s *Room) redoView(ctx context.Context, o adjudication.Outcome) *redoView {
	if o.Redo == nil {
		return nil
	}
	r := &redoView{Sente: o.Redo.Players.Sente.Name, Gote: o.Redo.Players.Gote.Name, Swapped: o.Redo.ColoursSwapped}
	if a := o.Redo.Allowance; a != nil {
		r.SenteAllowance = minutesText(ctx, int(a.Sente.D()/time.Second))
		r.GoteAllowance = minutesText(ctx, int(a.Gote.D()/time.Second))
	}
	return r
}

// formError re-renders the page (or, for htmx, the form's preview slot)
// with a validation error; other errors go to the error handler.
func (s *Room) formError(c echo.Context, id int64, forms gameForms, err error) error {
	msgs, ok := site.FieldMsgsOf(c.Request().Context(), err)
	if !ok {
		return err
	}
	if site.IsHTMX(c) {
		return s.Render(c, http.StatusUnprocessableEntity, PreviewErrors(msgs))
	}
	return s.renderGame(c, http.StatusUnprocessableEntity, id, -1, forms, msgs, nil)
}

func (s *Room) recordPreview(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	var f recordForm
	if err := c.Bind(&f); err != nil {
		return err
	}
	r, err := s.Office.PreviewRecord(c.Request().Context(), site.Actor(c), id, office.RecordInput{Text: f.Text, Format: f.Format})
	if err != nil {
		return s.formError(c, id, gameForms{Record: f, Open: "record"}, err)
	}
	p := &previewView{Record: &r}
	if site.IsHTMX(c) {
		return s.Render(c, http.StatusOK, RecordFindings(r))
	}
	return s.renderGame(c, http.StatusOK, id, -1, gameForms{Record: f, Open: "record"}, nil, p)
}

func (s *Room) recordSave(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	var f recordForm
	if err := c.Bind(&f); err != nil {
		return err
	}
	_, _, err = s.Office.SaveRecord(c.Request().Context(), site.Actor(c), id, office.RecordInput{Text: f.Text, Format: f.Format, AcceptFoul: f.AcceptFoul})
	if err != nil {
		if site.IsHTMX(c) {
			c.Request().Header.Del("HX-Request") // a save re-renders the whole page
		}
		return s.formError(c, id, gameForms{Record: f, Open: "record"}, err)
	}
	return site.SeeOther(c, "/games/"+strconv.FormatInt(id, 10)+"#record")
}

func (f endForm) input() office.EndInput {
	return office.EndInput{Kind: f.Kind, By: f.By, BothAbsent: f.BothAbsent, Foul: f.Foul, NoTimeLeft: f.NoTimeLeft,
		PointsSente: f.PointsSente, PointsGote: f.PointsGote, RemainingSente: f.RemainingSente, RemainingGote: f.RemainingGote, Note: f.Note}
}

// endPreview answers POST /games/:id/end/preview, and /end without
// confirm: the ending run as the save would run it (office.DryRun, rolled
// back), with the outcome, what it stores and the confirmation form.
func (s *Room) endPreview(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	var f endForm
	if err := c.Bind(&f); err != nil {
		return err
	}
	ctx := c.Request().Context()
	in := f.input()
	var ended office.Ended
	var eff office.Effects
	in.Version, err = s.PreviewVersion(c, id)
	verr := err
	var eventID int64
	if eventID, err = s.Office.EventOfGame(ctx, id); err == nil {
		eff, err = s.Office.DryRun(ctx, eventID, func(ctx context.Context, o *office.Office) error {
			var err error
			ended, err = o.EndGame(ctx, site.Actor(c), id, in)
			return err
		})
	}
	if err == nil {
		err = verr // what is wrong with the form first, then the missing version
	}
	if shown, err2 := s.CorrectionFromPreview(c, office.CorrectionResult, id, err); shown {
		return err2
	}
	if err != nil {
		return s.formError(c, id, gameForms{End: f, Open: "end"}, err)
	}
	ev := s.EffectsView(ctx, eff)
	p := &previewView{Outcome: &ended.Outcome, Redo: s.redoView(ctx, ended.Outcome), Effects: &ev,
		Confirm: &confirmAction{Action: site.GameURL(id) + "/end", Fields: site.EchoFields(c)}}
	if site.IsHTMX(c) {
		return s.Render(c, http.StatusOK, EndPreviewFragment(s.Page(c, ""), p))
	}
	return s.renderGame(c, http.StatusOK, id, -1, gameForms{End: f, Open: "end"}, nil, p)
}

func (s *Room) endSave(c echo.Context) error {
	if !site.Confirmed(c) {
		return s.endPreview(c) // a direct post answers the preview; nothing is saved
	}
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	var f endForm
	if err := c.Bind(&f); err != nil {
		return err
	}
	in := f.input()
	if in.Version, err = site.SeenVersion(c); err == nil {
		_, err = s.Office.EndGame(c.Request().Context(), site.Actor(c), id, in)
	}
	if err != nil {
		site.WholePageUnlessStale(c, err)
		return s.formError(c, id, gameForms{End: f, Open: "end"}, err)
	}
	return site.SeeOther(c, "/games/"+strconv.FormatInt(id, 10)+"#results")
}

func (f claimForm) input(version int) office.FoulClaimInput {
	return office.FoulClaimInput{Kind: f.Foul, Offender: f.Offender, Ply: f.Ply, Found: f.Found, ClaimedBy: f.ClaimedBy,
		NextGame: f.NextGame, NextGameReason: f.NextGameReason, Disputed: f.Disputed, Note: f.Note, Version: version}
}

// claimPreview: a foul claim can reverse the result and with it who
// advances and the champion; it is run rolled back and shown first.
func (s *Room) claimPreview(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	var f claimForm
	if err := c.Bind(&f); err != nil {
		return err
	}
	ctx := c.Request().Context()
	var ended office.Ended
	var eff office.Effects
	seen, verr := s.PreviewVersion(c, id)
	var eventID int64
	if eventID, err = s.Office.EventOfGame(ctx, id); err == nil {
		eff, err = s.Office.DryRun(ctx, eventID, func(ctx context.Context, o *office.Office) error {
			var err error
			ended, err = o.ClaimFoul(ctx, site.Actor(c), id, f.input(seen))
			return err
		})
	}
	if err == nil {
		err = verr
	}
	if shown, err2 := s.CorrectionFromPreview(c, office.CorrectionClaim, id, err); shown {
		return err2
	}
	if err != nil {
		return s.formError(c, id, gameForms{Claim: f, Open: "claim"}, err)
	}
	ev := s.EffectsView(ctx, eff)
	p := &previewView{Outcome: &ended.Outcome, Redo: s.redoView(ctx, ended.Outcome), Effects: &ev,
		Confirm: &confirmAction{Action: site.GameURL(id) + "/claims", Fields: site.EchoFields(c)}}
	if site.IsHTMX(c) {
		return s.Render(c, http.StatusOK, EndPreviewFragment(s.Page(c, ""), p))
	}
	return s.renderGame(c, http.StatusOK, id, -1, gameForms{Claim: f, Open: "claim"}, nil, p)
}

func (s *Room) claimSave(c echo.Context) error {
	if !site.Confirmed(c) {
		return s.claimPreview(c)
	}
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	var f claimForm
	if err := c.Bind(&f); err != nil {
		return err
	}
	var seen int
	if seen, err = site.SeenVersion(c); err == nil {
		_, err = s.Office.ClaimFoul(c.Request().Context(), site.Actor(c), id, f.input(seen))
	}
	if err != nil {
		site.WholePageUnlessStale(c, err)
		return s.formError(c, id, gameForms{Claim: f, Open: "claim"}, err)
	}
	return site.SeeOther(c, "/games/"+strconv.FormatInt(id, 10)+"#results")
}

// rulingInput reads the ruling form; a bad "supersedes" is a field error.
func rulingInput(f rulingForm, seen int) (office.RulingInput, error) {
	var sup int64
	if strings.TrimSpace(f.Supersedes) != "" {
		var err error
		if sup, err = strconv.ParseInt(strings.TrimSpace(f.Supersedes), 10, 64); err != nil {
			return office.RulingInput{}, &office.ValidationError{Fields: []office.FieldError{{Field: "supersedes", Code: "adjudication.err.supersedes_missing"}}}
		}
	}
	return office.RulingInput{Kind: f.Kind, Player: f.Player, DeltaMinutes: f.DeltaMinutes, Reason: f.Reason, Supersedes: sup, Version: seen}, nil
}

// rulingPreview: a ruling is append-only and can change the result (a
// loss by foul, a time forfeit) and with it who advances; it is run
// rolled back and shown first, with the one button that records it.
func (s *Room) rulingPreview(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	var f rulingForm
	if err := c.Bind(&f); err != nil {
		return err
	}
	ctx := c.Request().Context()
	seen, verr := s.PreviewVersion(c, id)
	in, err := rulingInput(f, seen)
	var ruling office.Ruling
	var ended *office.Ended
	var eff office.Effects
	if err == nil {
		var eventID int64
		if eventID, err = s.Office.EventOfGame(ctx, id); err == nil {
			eff, err = s.Office.DryRun(ctx, eventID, func(ctx context.Context, o *office.Office) error {
				var err error
				ruling, ended, err = o.AddRuling(ctx, site.Actor(c), id, in)
				return err
			})
		}
	}
	if err == nil {
		err = verr
	}
	if shown, err2 := s.CorrectionFromPreview(c, office.CorrectionResult, id, err); shown {
		return err2
	}
	if err != nil {
		return s.formError(c, id, gameForms{Ruling: f, Open: "ruling"}, err)
	}
	row := rulingRow{Kind: ruling.Kind, Player: ruling.Player, Reason: ruling.Reason, Arbiter: site.Actor(c).DisplayName, ByOrganiser: ruling.ByOrganiser,
		At: site.ShowTime(ruling.MadeAt)}
	if ruling.DeltaS != 0 {
		row.Delta = strconv.Itoa(ruling.DeltaS/60) + "′"
		if ruling.DeltaS > 0 {
			row.Delta = "+" + row.Delta
		}
	}
	ev := s.EffectsView(ctx, eff)
	p := &previewView{Ruling: &row, Effects: &ev, Confirm: &confirmAction{Action: site.GameURL(id) + "/rulings", Fields: site.EchoFields(c)}}
	if ended != nil {
		p.Outcome, p.Redo = &ended.Outcome, s.redoView(ctx, ended.Outcome)
	}
	if site.IsHTMX(c) {
		return s.Render(c, http.StatusOK, EndPreviewFragment(s.Page(c, ""), p))
	}
	return s.renderGame(c, http.StatusOK, id, -1, gameForms{Ruling: f, Open: "ruling"}, nil, p)
}

func (s *Room) rulingSave(c echo.Context) error {
	if !site.Confirmed(c) {
		return s.rulingPreview(c)
	}
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	var f rulingForm
	if err := c.Bind(&f); err != nil {
		return err
	}
	var sup int64
	if strings.TrimSpace(f.Supersedes) != "" {
		if sup, err = strconv.ParseInt(strings.TrimSpace(f.Supersedes), 10, 64); err != nil {
			err = &office.ValidationError{Fields: []office.FieldError{{Field: "supersedes", Code: "adjudication.err.supersedes_missing"}}}
			return s.formError(c, id, gameForms{Ruling: f, Open: "ruling"}, err)
		}
	}
	var seen int
	if seen, err = site.SeenVersion(c); err == nil {
		_, _, err = s.Office.AddRuling(c.Request().Context(), site.Actor(c), id, office.RulingInput{Kind: f.Kind, Player: f.Player,
			DeltaMinutes: f.DeltaMinutes, Reason: f.Reason, Supersedes: sup, Version: seen})
	}
	if err != nil {
		site.WholePageUnlessStale(c, err)
		return s.formError(c, id, gameForms{Ruling: f, Open: "ruling"}, err)
	}
	return site.SeeOther(c, "/games/"+strconv.FormatInt(id, 10)+"#rulings")
}

// confirmSave confirms the result version the form names (field
// "result": its id); the office refuses it when a newer version was
// entered or it was confirmed meanwhile (issue 11).
func (s *Room) confirmSave(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	rid, err := site.FormVersion(c, "result")
	if err == nil {
		err = s.Office.ConfirmGameResult(c.Request().Context(), site.Actor(c), id, rid)
	}
	if err != nil {
		site.WholePageUnlessStale(c, err)
		return s.formError(c, id, gameForms{Open: "confirm"}, err)
	}
	return site.SeeOther(c, "/games/"+strconv.FormatInt(id, 10)+"#results")
}

// endKind is the ending the end form shows selected: what the person
// chose, else what the record's last word says (marked as such).
func endKind(v gameView, f gameForms) string {
	if endFromRecord(v, f) {
		return v.RecordKind
	}
	return f.End.Kind
}

// endFromRecord: the form preselects the record's ending (the person has
// not chosen one, and is not being told to choose one).
func endFromRecord(v gameView, f gameForms) bool {
	return f.End.Kind == "" && f.Open != "end" && v.RecordKind != ""
}

func endBy(v gameView, f gameForms) string {
	if endFromRecord(v, f) && f.End.By == "" {
		return v.RecordBy
	}
	return f.End.By
}
