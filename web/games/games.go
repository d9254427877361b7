package games

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"kisen/adjudication"
	"kisen/office"
	"kisen/web/site"
)

// gameRoutes: game pages for arbiters and recorders (issue 4): the game
// with its board, records, results, redo chain and rulings; the forms to
// create games, save records, end games, claim fouls and rule.
func (s *Room) GameRoutes(e *echo.Echo) {
	e.GET("/events/:id/games", s.eventGamesPage)
	e.POST("/events/:id/games", s.gameCreate, site.RequireUser, s.ActsOnEvent(office.GameCreateRoles...))
	e.GET("/games/:id", s.gamePage)
	e.POST("/games/:id/record/preview", s.recordPreview, site.RequireUser)
	e.POST("/games/:id/record", s.recordSave, site.RequireUser)
	e.POST("/games/:id/end/preview", s.endPreview, site.RequireUser, s.ActsOnGame(office.ResultEntryRoles...))
	e.POST("/games/:id/end", s.endSave, site.RequireUser, s.ActsOnGame(office.ResultEntryRoles...), s.ConfirmedGate(office.CorrectionResult))
	e.POST("/games/:id/claims", s.claimSave, site.RequireUser, s.ActsOnGame(office.ResultReviewRoles...), s.ConfirmedGate(office.CorrectionClaim))
	e.POST("/games/:id/undo", s.undoSave, site.RequireUser, s.ActsOnGame(office.ResultReviewRoles...), s.ConfirmedGate(office.CorrectionResult))
	e.POST("/games/:id/rulings", s.rulingSave, site.RequireUser, s.ActsOnGame(office.RulingRoles...), s.ConfirmedGate(office.CorrectionResult))
	e.POST("/games/:id/confirm", s.confirmSave, site.RequireUser, s.ActsOnGame(office.ResultReviewRoles...), s.CorrectionGate(office.CorrectionResult))
}

// gameForms holds what the user typed into the game page's forms, so a
// rejected form comes back with the input kept.
type gameForms struct {
	Record recordForm
	End    endForm
	Claim  claimForm
	Ruling rulingForm
	// Open names the form the errors belong to.
	Open string
}

type recordForm struct {
	Text       string `form:"record"`
	Format     string `form:"format"`
	AcceptFoul bool   `form:"accept_foul"`
}

type endForm struct {
	Kind           string `form:"kind"`
	By             string `form:"by"`
	BothAbsent     bool   `form:"both_absent"`
	Foul           string `form:"foul"`
	NoTimeLeft     bool   `form:"no_time_left"`
	PointsSente    string `form:"points_sente"`
	PointsGote     string `form:"points_gote"`
	RemainingSente string `form:"remaining_sente"`
	RemainingGote  string `form:"remaining_gote"`
	Note           string `form:"note"`
}

type claimForm struct {
	Foul            string `form:"foul"`
	Offender        string `form:"offender"`
	Ply             string `form:"ply"`
	Found           string `form:"found"`
	ClaimedBy       string `form:"claimed_by"`
	NextGameStarted bool   `form:"next_game_started"`
	Disputed        bool   `form:"disputed"`
	Note            string `form:"note"`
}

type rulingForm struct {
	Kind         string `form:"kind"`
	Player       string `form:"player"`
	DeltaMinutes string `form:"delta"`
	Reason       string `form:"reason"`
	Supersedes   string `form:"supersedes"`
}

// gameView is the game page's view model.
type gameView struct {
	ID, EventID    int64
	EventName      string
	Label          string
	Sente, Gote    string
	Handicap       string
	ScheduledOn    string
	SenteAllowance string
	GoteAllowance  string
	RedoNumber     int
	RedoOf         int64
	Redos          []redoLink
	VoidedAt       string // when this redo game was made void ("" if it stands)
	VoidReason     string // the reason of the correction that made it void (corrections.go)
	Board          boardView
	Records        []recordRow
	Results        []resultRow
	Rulings        []rulingRow
	Clock          *clockView
	CanRecord      bool
	CanClaim       bool
	CanRule        bool
	CanConfirm     bool
	Draft          bool // the event is a draft (the page shows the 下書き mark)
	Ended          bool
	// Version is the newest result version (0: none): every form that
	// changes the result posts it back (issue 11).
	Version         int
	Users           map[int64]string
	LastOutcomeText string
	// RecordKind/RecordBy: how the stored record's last word says the game
	// ended; the end form preselects it and says so (issue 13).
	RecordKind, RecordBy string
	// Undo is what 取り消す on the newest version restores (previews.go).
	Undo *undoOffer
}

// undoOffer words what taking the newest result version back restores.
type undoOffer struct {
	Undone   int    // the newest version
	Restores string // the result it goes back to, in words
}

// redoLink is a redo game of this game; a void one (its redo result was
// superseded) is shown struck through.
type redoLink struct {
	ID   int64
	Void bool
}

type recordRow struct {
	Version   int
	Format    string
	Plies     int
	HasFoul   bool
	EnteredBy string
	EnteredAt string
}

type resultRow struct {
	ID          int64
	Version     int
	Result      string
	Reason      string
	Articles    []string
	Note        string
	EnteredBy   string
	EnteredAt   string
	ConfirmedBy string
	ConfirmedAt string
	Effective   bool
	Rejected    []string
	// UndoOf: this version took version UndoOf back (取り消し, issue 13).
	UndoOf int
}

type rulingRow struct {
	ID           int64
	Kind         string
	Player       string
	Delta        string
	Reason       string
	Arbiter      string
	ByOrganiser  bool
	At           string
	Supersedes   int64
	SupersededBy int64
	ResultVer    int64
}

// clockView is each side's time as last known: the remaining times the
// game was adjudicated with, or the allowance, plus the arbiter's time
// adjustments in force.
type clockView struct {
	Sente, Gote string
	Source      string // message id saying where the figures come from
}

func minutesText(ctx context.Context, seconds int) string {
	return site.T(ctx, "adjudication.minutes", "Minutes", seconds/60)
}

func (s *Room) gamePage(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	ply := -1
	if p := c.QueryParam("ply"); p != "" {
		if n, err := strconv.Atoi(p); err == nil {
			ply = n
		}
	}
	// Conditional GET (cache.go): the public's validators, or the live
	// stream for staff.
	if done, err := s.NotModifiedGame(c, id, site.CondOpts{}); done || err != nil {
		return err
	}
	if site.IsHTMX(c) && c.Request().Header.Get("HX-Target") == "board" {
		v, err := s.gameView(c.Request().Context(), site.Actor(c), id, ply)
		if err != nil {
			return err
		}
		return s.Render(c, http.StatusOK, BoardFragment(v.Board))
	}
	return s.renderGame(c, http.StatusOK, id, ply, gameForms{}, nil, nil)
}

func (s *Room) renderGame(c echo.Context, status int, id int64, ply int, forms gameForms, errs site.FieldMsgs, preview *previewView) error {
	ctx := c.Request().Context()
	v, err := s.gameView(ctx, site.Actor(c), id, ply)
	if err != nil {
		return err
	}
	site.MarkDraft(c, v.Draft)
	title := v.EventName
	if v.Label != "" {
		title = v.Label + " — " + v.EventName
	}
	return s.Render(c, status, GamePage(s.Page(c, title), v, forms, errs, preview))
}

func (s *Room) gameView(ctx context.Context, a office.Actor, id int64, ply int) (gameView, error) {
	// The public sees games of published events, and of their published
	// stages and classes only (office.Game).
	g, e, err := s.Office.Game(ctx, a, id)
	if err != nil {
		return gameView{}, err
	}
	stages, err := s.LabelStages(ctx, e.ID)
	if err != nil {
		return gameView{}, err
	}
	v := gameView{ID: g.ID, EventID: e.ID, EventName: site.LocalName(ctx, e.Name, e.NameEn), Label: site.GameLabel(ctx, g.Label, stages...),
		Handicap: g.Handicap, RedoNumber: g.RedoNumber,
		SenteAllowance: minutesText(ctx, g.SenteAllowanceS), GoteAllowance: minutesText(ctx, g.GoteAllowanceS)}
	v.Draft = office.IsDraft(e)
	if g.ScheduledOn != nil {
		v.ScheduledOn = *g.ScheduledOn
	}
	if g.RedoOfID != nil {
		v.RedoOf = *g.RedoOfID
	}
	v.Sente, v.Gote = s.PlayerName(ctx, g.SentePlayerID), s.PlayerName(ctx, g.GotePlayerID)
	redos, err := s.Office.RedoGames(ctx, g.ID)
	if err != nil {
		return v, err
	}
	for _, r := range redos {
		_, void, err := s.Office.GameVoidMark(ctx, r.ID)
		if err != nil {
			return v, err
		}
		v.Redos = append(v.Redos, redoLink{ID: r.ID, Void: void})
	}
	if mark, void, err := s.Office.GameVoidMark(ctx, g.ID); err != nil {
		return v, err
	} else if void {
		v.VoidedAt = site.ShowTime(mark.VoidedAt)
		if v.VoidReason, _, err = s.Office.VoidReason(ctx, g.ID); err != nil {
			return v, err
		}
	}
	// The versions' list and the newest version's moves, without any
	// text: the page never holds every version's record (a relay writes
	// one version per move), and loads the newest text only for staff,
	// to read its ending (issue 21 item 7).
	recs, err := s.Office.GameRecordVersions(ctx, g.ID)
	if err != nil {
		return v, err
	}
	latest, hasRecord, err := s.Office.LatestGameRecordMoves(ctx, g.ID)
	if err != nil {
		return v, err
	}
	hist, err := s.Office.ResultHistory(ctx, g.ID)
	if err != nil {
		return v, err
	}
	rulings, err := s.Office.Rulings(ctx, g.ID)
	if err != nil {
		return v, err
	}
	var ids []int64
	for _, r := range recs {
		ids = append(ids, r.EnteredBy)
	}
	for _, h := range hist {
		ids = append(ids, h.EnteredBy)
		if h.ConfirmedBy != nil {
			ids = append(ids, *h.ConfirmedBy)
		}
	}
	names := s.UserNames(ctx, ids...)
	for _, r := range recs {
		v.Records = append(v.Records, recordRow{Version: r.Version, Format: r.Format, Plies: r.Plies, HasFoul: r.HasFoul,
			EnteredBy: site.ViaToken(ctx, names[r.EnteredBy], r.EnteredVia), EnteredAt: site.ShowTime(r.EnteredAt)})
	}
	start, moves := "", []string(nil)
	if hasRecord {
		start, moves = latest.StartSFEN, strings.Fields(latest.Moves)
	}
	if ply < 0 {
		ply = len(moves)
	}
	if v.Board, err = NewBoardView(g.ID, start, moves, ply); err != nil {
		return v, err
	}
	if v.Board.Clock, err = s.boardClock(ctx, a, g.ID, v.Board.Ply); err != nil {
		return v, err
	}
	effective := 0
	for _, h := range hist {
		if h.Confirmed() {
			effective = h.Version
		}
	}
	reported, err := s.ReportedResults(ctx, hist)
	if err != nil {
		return v, err
	}
	for _, h := range hist {
		row := resultRow{ID: h.ID, Version: h.Version, Result: h.Result, Reason: h.Reason, Note: h.Note,
			EnteredBy: site.ViaToken(ctx, names[h.EnteredBy], h.EnteredVia), EnteredAt: site.ShowTime(h.EnteredAt), Effective: h.Version == effective}
		if h.ConfirmedBy != nil {
			row.ConfirmedBy, row.ConfirmedAt = site.ViaToken(ctx, names[*h.ConfirmedBy], site.Deref(h.ConfirmedVia)), site.ShowTime(*h.ConfirmedAt)
		}
		if by, ok := site.ReportedBy(ctx, h, reported, names); ok {
			row.EnteredBy = by
			if site.AutoConfirmed(h) {
				row.ConfirmedBy = by
			}
		}
		var oc adjudication.Outcome
		if json.Unmarshal([]byte(h.Outcome), &oc) == nil {
			row.Articles = oc.Articles
			for _, r := range oc.Rejected {
				row.Rejected = append(row.Rejected, r.Code)
			}
		}
		v.Results = append(v.Results, row)
	}
	v.Ended = len(hist) > 0
	if n := len(hist); n > 0 {
		v.Version = hist[n-1].Version
	}
	supersededBy := map[int64]int64{}
	for _, r := range rulings {
		if r.SupersedesID != nil {
			supersededBy[*r.SupersedesID] = r.ID
		}
	}
	resultVersion := map[int64]int64{}
	for _, h := range hist {
		resultVersion[h.ID] = int64(h.Version)
	}
	var adjust [2]int
	for _, r := range rulings {
		row := rulingRow{ID: r.ID, Kind: r.Kind, Player: r.Player, Reason: r.Reason, Arbiter: site.ViaToken(ctx, r.ArbiterName, r.EnteredVia),
			ByOrganiser: r.ByOrganiser, At: site.ShowTime(r.MadeAt), SupersededBy: supersededBy[r.ID]}
		if r.DeltaS != 0 {
			row.Delta = strconv.Itoa(r.DeltaS/60) + "′"
			if r.DeltaS > 0 {
				row.Delta = "+" + row.Delta
			}
			if row.SupersededBy == 0 {
				if r.Player == "gote" {
					adjust[1] += r.DeltaS
				} else {
					adjust[0] += r.DeltaS
				}
			}
		}
		if r.SupersedesID != nil {
			row.Supersedes = *r.SupersedesID
		}
		if r.ResultID != nil {
			row.ResultVer = resultVersion[*r.ResultID]
		}
		v.Rulings = append(v.Rulings, row)
	}
	clock := &clockView{Source: "adjudication.clock.allowance"}
	sente, gote := g.SenteAllowanceS, g.GoteAllowanceS
	if facts, _, ok, err := s.Office.LastAdjudication(ctx, g.ID); err == nil && ok && facts.Remaining != nil {
		sente, gote = int(facts.Remaining.Sente.D()/time.Second), int(facts.Remaining.Gote.D()/time.Second)
		clock.Source = "adjudication.clock.remaining"
	}
	clock.Sente, clock.Gote = minutesText(ctx, sente+adjust[0]), minutesText(ctx, gote+adjust[1])
	v.Clock = clock
	v.CanRecord = s.Office.RequireEventRole(ctx, a, e.ID, office.RoleDirector, office.RoleArbiter, office.RoleRecorder) == nil
	v.CanClaim = s.Office.RequireEventRole(ctx, a, e.ID, office.RoleDirector, office.RoleArbiter) == nil
	v.CanRule = s.Office.CanRule(ctx, a, e.ID)
	v.CanConfirm = v.CanClaim // directors and arbiters confirm
	if v.CanRecord && hasRecord {
		whole, _, err := s.Office.LatestGameRecord(ctx, g.ID)
		if err != nil {
			return v, err
		}
		if end := office.RecordEnding(g, whole); end != nil {
			v.RecordKind = string(end.Kind)
			if end.By != nil {
				v.RecordBy = end.By.String()
			}
		}
	}
	if err := s.undoRows(ctx, &v, hist); err != nil {
		return v, err
	}
	return v, nil
}

// undoRows marks the versions that took an earlier one back (their
// outcome names it, office.UndoneVersion) and, for
// directors and arbiters, words what 取り消す on the newest would restore.
func (s *Room) undoRows(ctx context.Context, v *gameView, hist []office.ResultVersion) error {
	if len(hist) == 0 {
		return nil
	}
	for i, h := range hist {
		if i < len(v.Results) {
			v.Results[i].UndoOf = office.UndoneVersion(h.Outcome)
		}
	}
	if v.CanConfirm {
		n := len(hist)
		u := &undoOffer{Undone: hist[n-1].Version, Restores: site.T(ctx, "previews.result.none")}
		if n > 1 {
			u.Restores = site.EffectResultWords(ctx, hist[n-2].Result, hist[n-2].Reason, v.Sente, v.Gote)
		}
		v.Undo = u
	}
	return nil
}

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
		NextGameStarted: f.NextGameStarted, Disputed: f.Disputed, Note: f.Note, Version: version}
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

// eventGameRow is one line of an event's games list.
type eventGameRow struct {
	ID          int64
	Label       string
	Sente, Gote string
	ScheduledOn string
	Result      string
	RedoNumber  int
	Void        bool // made void (a redo game's parent corrected, or a correction changed its players)
}

// gameCreateForm is the create-game form.
type gameCreateForm struct {
	Label       string `form:"label"`
	SenteID     string `form:"sente_id"`
	GoteID      string `form:"gote_id"`
	Handicap    string `form:"handicap"`
	ScheduledOn string `form:"scheduled_on"`
	Allowance   string `form:"allowance"`
}

func (s *Room) eventGamesPage(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	if done, err := s.NotModifiedEvent(c, id); done || err != nil {
		return err
	}
	return s.renderEventGames(c, http.StatusOK, id, gameCreateForm{}, nil)
}

func (s *Room) renderEventGames(c echo.Context, status int, eventID int64, f gameCreateForm, errs site.FieldMsgs) error {
	ctx := c.Request().Context()
	a := site.Actor(c)
	e, err := s.Office.Event(ctx, a, eventID)
	if err != nil {
		return err
	}
	// One set read for every game (results in force, void marks) and one
	// for the players named: a fixed number of statements (issue 12).
	gs, hidden, err := s.Office.EventGames(ctx, a, eventID) // hidden: unpublished stages' and classes' games
	if err != nil {
		return err
	}
	games := slices.SortedFunc(maps.Values(gs.Games), func(x, y office.Game) int { return cmp.Compare(x.ID, y.ID) })
	games = slices.DeleteFunc(games, func(g office.Game) bool { return hidden[g.ID] })
	var pids []int64
	for _, g := range games {
		for _, p := range []*int64{g.SentePlayerID, g.GotePlayerID} {
			if p != nil {
				pids = append(pids, *p)
			}
		}
	}
	names, err := s.Office.PlayersByIDs(ctx, pids)
	if err != nil {
		return err
	}
	nameOf := func(id *int64) string {
		if id == nil {
			return ""
		}
		if p, ok := names[*id]; ok {
			return p.Name
		}
		return "#" + strconv.FormatInt(*id, 10)
	}
	stages, err := s.LabelStages(ctx, eventID)
	if err != nil {
		return err
	}
	rows := make([]eventGameRow, 0, len(games))
	for _, g := range games {
		r := eventGameRow{ID: g.ID, Label: site.GameLabel(ctx, g.Label, stages...), Sente: nameOf(g.SentePlayerID), Gote: nameOf(g.GotePlayerID), RedoNumber: g.RedoNumber, Void: gs.Void[g.ID]}
		if g.ScheduledOn != nil {
			r.ScheduledOn = *g.ScheduledOn
		}
		if res, ok := gs.Effective(g.ID); ok {
			r.Result = res.Result
		}
		rows = append(rows, r)
	}
	canCreate := s.Office.RequireEventRole(ctx, a, eventID, office.RoleDirector, office.RoleScheduler) == nil
	var players []site.Choice
	if canCreate {
		ps, err := s.Office.PlayerChoices(ctx, "", 2000)
		if err != nil {
			return err
		}
		for _, p := range ps {
			players = append(players, site.Choice{Value: strconv.FormatInt(p.ID, 10), Label: p.Name})
		}
		if f.Allowance == "" {
			if st, err := office.ParseEventSettings(e.Settings); err == nil {
				f.Allowance = strconv.Itoa(int(st.Time.Allowance.D() / time.Minute))
			}
		}
	}
	site.MarkDraft(c, office.IsDraft(e))
	return s.Render(c, status, EventGamesPage(s.Page(c, site.LocalName(ctx, e.Name, e.NameEn)), eventID, site.LocalName(ctx, e.Name, e.NameEn), rows, canCreate, players, f, errs))
}

func (s *Room) gameCreate(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	var f gameCreateForm
	if err := c.Bind(&f); err != nil {
		return err
	}
	ctx := c.Request().Context()
	v := &office.ValidationError{}
	optID := func(field, s string) *int64 {
		if s == "" {
			return nil
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			v.Add(0, field, "adjudication.err.player", nil)
			return nil
		}
		return &n
	}
	in := office.GameInput{EventID: id, Label: strings.TrimSpace(f.Label), SenteID: optID("sente", f.SenteID), GoteID: optID("gote", f.GoteID),
		Handicap: f.Handicap, ScheduledOn: f.ScheduledOn}
	if n, err := strconv.Atoi(strings.TrimSpace(f.Allowance)); err != nil {
		v.Add(0, "allowance", "games.err.allowance", nil)
	} else {
		in.AllowanceMinutes = n
	}
	err = v.OrNil()
	var g office.Game
	if err == nil {
		g, err = s.Office.CreateGame(ctx, site.Actor(c), in)
	}
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		return s.renderEventGames(c, http.StatusUnprocessableEntity, id, f, msgs)
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, "/games/"+strconv.FormatInt(g.ID, 10))
}

// handOrNone is a hand's pieces, or a word for an empty hand.
func handOrNone(ctx context.Context, h string) string {
	if h == "" {
		return site.T(ctx, "adjudication.board.none")
	}
	return h
}

// sideName is the localised word for a side code.
func sideName(ctx context.Context, side string) string {
	switch side {
	case "sente":
		return site.T(ctx, "adjudication.side.sente")
	case "gote":
		return site.T(ctx, "adjudication.side.gote")
	}
	return ""
}

// boardClock is both clocks at the board's ply (office.ClockAt: the
// record's move times through adjudication.Clock, byoyomi included, and the
// arbiters' time changes in force); nil when there is nothing beyond the
// allowances to show. Settings the room refuses leave the clock out (the
// page still shows the game; the settings page names the problem).
func (s *Room) boardClock(ctx context.Context, a office.Actor, gameID int64, ply int) (*boardClock, error) {
	c, err := s.Office.ClockAt(ctx, a, gameID, ply)
	var v *office.ValidationError
	if errors.As(err, &v) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !c.Timed && c.Adjusted == (adjudication.Times{}) {
		return nil, nil
	}
	st := c.State
	out := &boardClock{Sente: clockText(ctx, st.Remaining.Sente.D()), Gote: clockText(ctx, st.Remaining.Gote.D()),
		SenteByoyomi: st.InByoyomi.Sente, GoteByoyomi: st.InByoyomi.Gote,
		Adjusted: c.Adjusted != (adjudication.Times{}), Timed: c.Timed}
	if st.Forfeited != nil {
		out.Forfeited = "adjudication.side." + st.Forfeited.String()
	}
	return out, nil
}

// clockText is time left as minutes and seconds.
func clockText(ctx context.Context, d time.Duration) string {
	secs := int(d / time.Second)
	return site.T(ctx, "adjudication.clock.min_sec", "Minutes", secs/60, "Seconds", fmt.Sprintf("%02d", secs%60))
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
