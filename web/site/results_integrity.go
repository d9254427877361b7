package site

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/office/day"
)

// One result at a time (issue 11): every form that changes a game's result
// carries the version the person saw; the office refuses a stale one with
// an *office.StaleError, shown here as a 409 page (or an htmx fragment)
// with the result now in force.

// formVersion reads a form's hidden whole-number field (the result version
// seen, or the game it was seen on). A form without it was rendered before
// the field existed: 422 naming the field, never a silent pass.
func FormVersion(c echo.Context, field string) (int64, error) {
	params, err := c.FormParams()
	if err != nil {
		return 0, err
	}
	vals, ok := params[field]
	code := "results.err.version_missing"
	if field == "game_id" {
		code = "results.err.game_missing"
	}
	if !ok || len(vals) == 0 || strings.TrimSpace(vals[0]) == "" {
		return 0, &office.ValidationError{Fields: []office.FieldError{{Field: field, Code: code}}}
	}
	n, err := strconv.ParseInt(strings.TrimSpace(vals[0]), 10, 64)
	if err != nil || n < 0 {
		return 0, &office.ValidationError{Fields: []office.FieldError{{Field: field, Code: code}}}
	}
	return n, nil
}

// wholePageUnlessStale makes a failed save answer with the whole page (as
// the game page's forms do), except a stale write: htmx then gets the 409
// fragment.
func WholePageUnlessStale(c echo.Context, err error) {
	var stale *office.StaleError
	if !errors.As(err, &stale) {
		c.Request().Header.Del("HX-Request")
	}
}

// seenVersion is the form's "version" field.
func SeenVersion(c echo.Context) (int, error) {
	n, err := FormVersion(c, "version")
	return int(n), err
}

// staleResult is one result version as the 409 page shows it.
type staleResult struct {
	Version   int
	Result    string // in words, with the winner's name
	Reason    string
	EnteredBy string
	EnteredAt string // Asia/Tokyo
	Confirmed bool
}

// staleView is the 409 page's view model.
type staleView struct {
	GameID      int64
	Label       string
	Sente, Gote string
	Seen        int
	InForce     *staleResult // the result that counts now; nil when none does
	Latest      *staleResult // the newest entry when it is not the one in force
	RedoGameID  int64        // the game replaced by its redo game: the game to go to now
}

// renderStale answers a refused write with the result now in force.
func (s *Server) renderStale(c echo.Context, se *office.StaleError) error {
	ctx := c.Request().Context()
	v, err := s.staleView(ctx, Actor(c), se)
	if err != nil {
		return err
	}
	if IsHTMX(c) {
		return s.Render(c, http.StatusConflict, StaleFragment(v))
	}
	return s.Render(c, http.StatusConflict, StalePage(s.Page(c, T(ctx, "results.stale.title")), v))
}

// staleView reads the game through the office as the actor may see it
// (issue 21): a game of an event the actor may not see is not found, and
// the page is then the 404 a missing game gets, never a description.
func (s *Server) staleView(ctx context.Context, a office.Actor, se *office.StaleError) (staleView, error) {
	sg, err := s.Office.StaleGameOf(ctx, a, se.GameID)
	if err != nil {
		return staleView{}, err
	}
	g := sg.Game
	v := staleView{GameID: g.ID, Label: GameLabel(ctx, g.Label, sg.Stages...), Sente: s.PlayerName(ctx, g.SentePlayerID), Gote: s.PlayerName(ctx, g.GotePlayerID), Seen: se.Seen}
	var ids []int64
	if se.HasInForce {
		ids = append(ids, se.InForce.EnteredBy)
	}
	if se.Has {
		ids = append(ids, se.Latest.EnteredBy)
	}
	var shown []office.ResultVersion
	if se.HasInForce {
		shown = append(shown, se.InForce)
	}
	if se.Has {
		shown = append(shown, se.Latest)
	}
	// A players' report is attributed to the players (or to who confirmed
	// it), never to the director who issued the slips (issue 21 item 5).
	reported, err := s.ReportedResults(ctx, shown)
	if err != nil {
		return staleView{}, err
	}
	for _, src := range reported {
		if src.ConfirmedBy != nil {
			ids = append(ids, *src.ConfirmedBy)
		}
	}
	names := s.UserNames(ctx, ids...)
	if se.HasInForce {
		r := staleResultOf(ctx, v, se.InForce, names)
		if by, ok := ReportedBy(ctx, se.InForce, reported, names); ok {
			r.EnteredBy = by
		}
		v.InForce = &r
	}
	if se.Has && (!se.HasInForce || se.Latest.ID != se.InForce.ID) {
		r := staleResultOf(ctx, v, se.Latest, names)
		if by, ok := ReportedBy(ctx, se.Latest, reported, names); ok {
			r.EnteredBy = by
		}
		v.Latest = &r
	}
	v.RedoGameID = sg.RedoGameID
	return v, nil
}

func staleResultOf(ctx context.Context, v staleView, rv office.ResultVersion, names map[int64]string) staleResult {
	return staleResult{Version: rv.Version, Result: resultWords(ctx, rv.Result, v.Sente, v.Gote), Reason: reasonWords(ctx, rv.Reason),
		EnteredBy: names[rv.EnteredBy], EnteredAt: ShowTime(rv.EnteredAt), Confirmed: rv.Confirmed()}
}

// resultWords says who won, by name.
func resultWords(ctx context.Context, result, sente, gote string) string {
	switch result {
	case office.ResultSenteWin:
		return T(ctx, "results.stale.sente_won", "Name", sente)
	case office.ResultGoteWin:
		return T(ctx, "results.stale.gote_won", "Name", gote)
	}
	id := "results.result." + result
	if w := T(ctx, id); w != id {
		return w
	}
	return T(ctx, "results.result.other")
}

// reasonWords is a reason code in plain words (no rule numbers).
func reasonWords(ctx context.Context, code string) string {
	id := "results.reason." + code
	if w := T(ctx, id); w != id {
		return w
	}
	return T(ctx, "results.reason.other")
}

// reportedResults reads where the result versions the players reported
// came from (day_report_results); no statement when no version has a
// players' report reason.
func (s *Server) ReportedResults(ctx context.Context, hist []office.ResultVersion) (map[int64]office.DayReportResult, error) {
	var ids []int64
	for _, h := range hist {
		if h.Reason == day.ReasonPlayersReport || h.Reason == day.ReasonPlayerReportConfirmed {
			ids = append(ids, h.ID)
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	return s.Office.ReportedResults(ctx, ids)
}

// reportedBy is who a players' report version is attributed to: the
// players' report itself when both agreed (game_results.entered_by names
// the director who issued the secrets only because it must name a user),
// or the desk member who confirmed one player's report. ok is false for
// any other version, whatever its reason says.
func ReportedBy(ctx context.Context, h office.ResultVersion, reported map[int64]office.DayReportResult, names map[int64]string) (string, bool) {
	src, ok := reported[h.ID]
	if !ok {
		return "", false
	}
	if src.ConfirmedBy != nil {
		return T(ctx, "sec_qr.history.confirmed", "Name", names[*src.ConfirmedBy]), true
	}
	return T(ctx, "sec_qr.history.agreed"), true
}

// autoConfirmed tells a version the entry confirmed itself (an event that
// needs no second person) from one a person confirmed later.
func AutoConfirmed(h office.ResultVersion) bool {
	return h.ConfirmedBy != nil && *h.ConfirmedBy == h.EnteredBy && h.ConfirmedAt != nil && h.ConfirmedAt.Equal(h.EnteredAt)
}
