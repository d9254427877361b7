package api

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/web/site"
)

// The API's writes (issue 15 part 4): each takes a token of one scope and
// goes through the very office function of the web form it mirrors — the
// same roles, validation, version check under the game's row lock (a
// stale version is 409 with the result in force) and, in the same
// transaction, the token's name on the row and a line in its audit log.

// apiEnterResult is the game page's end form (office.EndGame).
func (s *Room) apiEnterResult(c echo.Context) error {
	a, err := apiRequireScope(c, office.ScopeResults)
	if err != nil {
		return err
	}
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	// The token's event and role first (issue 21): another event's game
	// is refused before the body is read.
	if err := s.Office.RequireGameRole(c.Request().Context(), a, id, office.ResultEntryRoles...); err != nil {
		return err
	}
	var in APIResultInput
	if err := apiDecode(c, &in); err != nil {
		return err
	}
	ctx := c.Request().Context()
	if !in.FutureOK {
		ctx = office.AskBeforeFutureResult(ctx)
	}
	if _, err := s.Office.EndGame(ctx, a, id, office.EndInput{Kind: in.Kind, By: in.By, BothAbsent: in.BothAbsent, Foul: in.Foul,
		NoTimeLeft: in.NoTimeLeft, PointsSente: in.PointsSente, PointsGote: in.PointsGote, RemainingSente: in.RemainingSente,
		RemainingGote: in.RemainingGote, Note: in.Note, Version: in.Version}); err != nil {
		return err
	}
	return s.apiGameAfterWrite(c, a, id)
}

// apiConfirm is the game page's confirm button (office.ConfirmResult,
// through ConfirmVersion): the version seen is checked with the game row
// locked; stale or already confirmed is 409 with the result in force.
func (s *Room) apiConfirm(c echo.Context) error {
	a, err := apiRequireScope(c, office.ScopeConfirmations)
	if err != nil {
		return err
	}
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	// The token's event and role first (issue 21): another event's game
	// is refused before the body is read.
	if err := s.Office.RequireGameRole(c.Request().Context(), a, id, office.ResultReviewRoles...); err != nil {
		return err
	}
	var in APIConfirmInput
	if err := apiDecode(c, &in); err != nil {
		return err
	}
	if err := s.Office.ConfirmVersion(c.Request().Context(), a, id, in.Version); err != nil {
		return err
	}
	return s.apiGameAfterWrite(c, a, id)
}

// apiSaveRecord is the game page's record form (office.SaveRecord).
func (s *Room) apiSaveRecord(c echo.Context) error {
	a, err := apiRequireScope(c, office.ScopeRecords)
	if err != nil {
		return err
	}
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	// The token's event and role first (issue 21): another event's game
	// is refused before the body is read.
	if err := s.Office.RequireGameRole(c.Request().Context(), a, id, office.RecordRoles...); err != nil {
		return err
	}
	var in APIRecordInput
	if err := apiDecode(c, &in); err != nil {
		return err
	}
	rec, r, err := s.Office.SaveRecord(c.Request().Context(), a, id, office.RecordInput{Text: in.Text, Format: in.Format, AcceptFoul: in.AcceptFoul})
	if err != nil {
		return err
	}
	return s.apiJSON(c, http.StatusOK, APIRecordSaved{GameID: id, Version: rec.Version, Plies: rec.Plies, Moves: nonNil(r.Moves)})
}

// apiAppendMove adds one move to the newest record (office.AppendMove).
func (s *Room) apiAppendMove(c echo.Context) error {
	a, err := apiRequireScope(c, office.ScopeRecords)
	if err != nil {
		return err
	}
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	// The token's event and role first (issue 21): another event's game
	// is refused before the body is read.
	if err := s.Office.RequireGameRole(c.Request().Context(), a, id, office.RecordRoles...); err != nil {
		return err
	}
	var in APIMoveInput
	if err := apiDecode(c, &in); err != nil {
		return err
	}
	rec, r, err := s.Office.AppendMove(c.Request().Context(), a, id, in.Plies, in.Move)
	if err != nil {
		return err
	}
	return s.apiJSON(c, http.StatusOK, APIRecordSaved{GameID: id, Version: rec.Version, Plies: rec.Plies, Moves: nonNil(r.Moves)})
}

// apiRuling is the game page's ruling form (office.AddRuling).
func (s *Room) apiRuling(c echo.Context) error {
	a, err := apiRequireScope(c, office.ScopeRulings)
	if err != nil {
		return err
	}
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	// The token's event and role first (issue 21): another event's game
	// is refused before the body is read.
	if err := s.Office.RequireGameRole(c.Request().Context(), a, id, office.RulingRoles...); err != nil {
		return err
	}
	var in APIRulingInput
	if err := apiDecode(c, &in); err != nil {
		return err
	}
	row, _, err := s.Office.AddRuling(c.Request().Context(), a, id, office.RulingInput{Kind: in.Kind, Player: in.Player,
		DeltaMinutes: in.DeltaMinutes, Reason: in.Reason, Supersedes: in.Supersedes, Version: in.Version})
	if err != nil {
		return err
	}
	return s.apiJSON(c, http.StatusOK, APIRulingSaved{ID: row.ID, GameID: id})
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// apiGameAfterWrite answers a write with the game as it now stands, its
// version the one just written (the game row was locked for the write): a
// whole APIGame, as GET /games/{id} answers, in a draft event too — there
// the token may not read the event (404 to its GETs), but the game it has
// just written to is answered in full (office.GameWrittenByToken).
func (s *Room) apiGameAfterWrite(c echo.Context, a office.Actor, id int64) error {
	ctx := c.Request().Context()
	g, err := s.apiGameOf(ctx, a, id)
	if errors.Is(err, office.ErrNotFound) {
		var row office.Game
		if row, err = s.Office.GameWrittenByToken(ctx, a, id); err == nil {
			g, err = s.apiGameBody(ctx, row)
		}
	}
	if err != nil {
		return err
	}
	return s.apiJSON(c, http.StatusOK, g)
}
