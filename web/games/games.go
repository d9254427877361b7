package games

import (
	"context"
	"encoding/json"
	"net/http"
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
	e.POST("/games/:id/seat", s.seatSave, site.RequireUser, s.ActsOnGame(office.RoleDirector))
	e.POST("/games/:id/confirm", s.confirmSave, site.RequireUser, s.ActsOnGame(office.ResultReviewRoles...), s.CorrectionGate(office.CorrectionResult))
}

// gameForms holds what the user typed into the game page's forms, so a
// rejected form comes back with the input kept.
type gameForms struct {
	Record recordForm
	End    endForm
	Claim  claimForm
	Ruling rulingForm
	Seat   seatForm
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
	Foul           string `form:"foul"`
	Offender       string `form:"offender"`
	Ply            string `form:"ply"`
	Found          string `form:"found"`
	ClaimedBy      string `form:"claimed_by"`
	NextGame       string `form:"next_game"`
	NextGameReason string `form:"next_game_reason"`
	Disputed       bool   `form:"disputed"`
	Note           string `form:"note"`
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
	// ResultDownload: the game has no record but a decided result, so its
	// KIF and CSA download as a header and the result (a forfeit above all;
	// docs/downloads.md).
	ResultDownload bool
	Results        []resultRow
	Rulings        []rulingRow
	Clock          *clockView
	CanRecord      bool
	// CanLink: the event's director or arbiter, who issues and closes the
	// game's recorder link (web/recorder).
	CanLink  bool
	CanClaim bool
	// NextGame is what a claim would find about the next game (claim
	// form, directors and arbiters).
	NextGame   *nextGameView
	CanRule    bool
	CanAppeal  bool
	CanConfirm bool
	Draft      bool // the event is a draft (the page shows the 下書き mark)
	Ended      bool
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
	// Seat: the 上座 and who tosses (seating.go).
	Seat seatView
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
	// NextGame: how the version's foul claim settled whether the next
	// game had begun (000 第10条第5項); nil for other versions and for
	// claims stored with the arbiter's checkbox.
	NextGame *nextGameLog
}

// nextGameLog is a claim's next-game fact in the result history.
type nextGameLog struct {
	Started    bool   // the value the claim was decided on
	Overridden bool   // the arbiter set it against what was found
	Found      bool   // what was found
	FoundAt    string // when the game found started ("" when none)
	GameID     int64  // the game found (a link, never shown as text)
	Reason     string // the arbiter's reason for an override
}

// nextGameView is the claim form's next-game fact, as found now.
type nextGameView struct {
	Started     bool
	GameID      int64
	Sente, Gote string
	Label       string
	At          string
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
	Appeal       int64 // the appeal against this ruling (異議), 0 for none
	DecisionOf   int64 // the appeal this ruling decided, 0 for none
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
	if v.Seat, err = s.seatOf(ctx, a, g, v.Sente, v.Gote); err != nil {
		return v, err
	}
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
	latest, hasRecord, err := s.Office.GameRecordInForce(ctx, g)
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
	appeals, err := s.Office.GameAppeals(ctx, g.ID)
	if err != nil {
		return v, err
	}
	appealOf, decisionOf := map[int64]int64{}, map[int64]int64{}
	for _, ap := range appeals {
		appealOf[ap.RulingID] = ap.ID
		if ap.Decision != nil && ap.Decision.RulingID != nil {
			decisionOf[*ap.Decision.RulingID] = ap.ID
		}
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
	bases, err := s.Office.ClaimBases(ctx, g.ID)
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
		if b, ok := bases[h.ID]; ok {
			row.NextGame = &nextGameLog{Started: b.Started, Overridden: b.Source == adjudication.NextGameOverridden, Found: b.Found,
				GameID: b.NextGameID, Reason: b.Reason}
			if b.StartedAt != nil {
				row.NextGame.FoundAt = site.ShowTime(*b.StartedAt)
			}
		}
		v.Results = append(v.Results, row)
	}
	for _, h := range hist {
		if h.Version == effective {
			v.ResultDownload = len(v.Records) == 0 && v.VoidedAt == "" && h.Result != office.ResultPending
		}
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
			ByOrganiser: r.ByOrganiser, At: site.ShowTime(r.MadeAt), SupersededBy: supersededBy[r.ID], Appeal: appealOf[r.ID],
			DecisionOf: decisionOf[r.ID]}
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
	v.CanAppeal = v.CanClaim  // directors and arbiters enter appeals (office.CanFileAppeal)
	v.CanConfirm = v.CanClaim // directors and arbiters confirm
	v.CanLink = v.CanClaim    // directors and arbiters issue and close the recorder link
	if v.CanClaim && v.Ended {
		ng, err := s.Office.ClaimNextGame(ctx, a, g.ID)
		if err != nil {
			return v, err
		}
		v.NextGame = &nextGameView{Started: ng.Started}
		if ng.Started {
			v.NextGame.GameID, v.NextGame.Sente, v.NextGame.Gote = ng.Game.ID, ng.Sente, ng.Gote
			v.NextGame.Label, v.NextGame.At = site.GameLabel(ctx, ng.Game.Label, stages...), site.ShowTime(ng.StartedAt)
		}
	}
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
