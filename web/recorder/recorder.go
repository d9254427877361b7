package recorder

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"kisen/adjudication"
	"kisen/office"
	"kisen/rules"
	"kisen/web/day"
	"kisen/web/games"
	"kisen/web/site"
)

// RecorderRoutes registers the recorder's page (staff and secret link)
// and the director's link control.
func (s *Room) RecorderRoutes(e *echo.Echo) {
	e.GET("/games/:id/recorder", s.staffPage, site.RequireUser)
	e.POST("/games/:id/recorder/moves", s.staffMove, site.RequireUser)
	e.POST("/games/:id/recorder/undo", s.staffUndo, site.RequireUser)
	e.GET("/rec/:token", s.linkPage)
	e.POST("/rec/:token/moves", s.linkMove)
	e.POST("/rec/:token/undo", s.linkUndo)
	e.POST("/games/:id/recorder-link", s.linkIssue, site.RequireUser)
	e.POST("/games/:id/recorder-link/revoke", s.linkRevoke, site.RequireUser)
}

// StaffURL is the recorder's page of a game for the event's staff.
func StaffURL(gameID int64) string { return "/games/" + site.I64(gameID) + "/recorder" }

// LinkURL is the recorder's page opened by a secret link.
func LinkURL(token string) string { return "/rec/" + token }

// target is whom a request records for: a game and the actor (the
// session's, or one holding the link's token) and where its forms post.
type target struct {
	gameID int64
	actor  office.Actor
	base   string // the page's URL; moves post to base+"/moves"
}

func (s *Room) staffTarget(c echo.Context) (target, error) {
	id, err := site.PathParam(c, "id")
	if err != nil {
		return target{}, err
	}
	return target{gameID: id, actor: site.Actor(c), base: StaffURL(id)}, nil
}

// linkTarget reads the token of /rec/<token>: a revoked, replaced or
// unknown token is the same 404 as a missing page.
func (s *Room) linkTarget(c echo.Context) (target, error) {
	c.Response().Header().Set("Cache-Control", "no-store")
	c.Response().Header().Set("Referrer-Policy", "no-referrer")
	token := c.Param("token")
	id, err := s.Office.RecorderLinkGame(c.Request().Context(), token)
	if err != nil {
		return target{}, err
	}
	return target{gameID: id, actor: office.Actor{RecorderToken: token}, base: LinkURL(token)}, nil
}

func (s *Room) staffPage(c echo.Context) error {
	t, err := s.staffTarget(c)
	if err != nil {
		return err
	}
	return s.page(c, t)
}

func (s *Room) linkPage(c echo.Context) error {
	t, err := s.linkTarget(c)
	if err != nil {
		return err
	}
	return s.page(c, t)
}

func (s *Room) staffMove(c echo.Context) error {
	t, err := s.staffTarget(c)
	if err != nil {
		return err
	}
	return s.move(c, t)
}

func (s *Room) linkMove(c echo.Context) error {
	t, err := s.linkTarget(c)
	if err != nil {
		return err
	}
	return s.move(c, t)
}

func (s *Room) staffUndo(c echo.Context) error {
	t, err := s.staffTarget(c)
	if err != nil {
		return err
	}
	return s.undo(c, t)
}

func (s *Room) linkUndo(c echo.Context) error {
	t, err := s.linkTarget(c)
	if err != nil {
		return err
	}
	return s.undo(c, t)
}

// page shows the record as it stands.
func (s *Room) page(c echo.Context, t target) error {
	ctx := c.Request().Context()
	r, err := s.Office.LiveRecord(ctx, t.actor, t.gameID)
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, t, r, pageNote{})
}

// moveForm is what the page posts for one move.
type moveForm struct {
	Ply     int    `form:"ply"`
	Move    string `form:"move"`
	Elapsed int    `form:"elapsed"`
	Version int    `form:"version"`
	Comment string `form:"comment"`
}

// move stores one move: 200 with the record, 409 with the record as it
// stands and why in words, 422 with the refusal in words.
func (s *Room) move(c echo.Context, t target) error {
	ctx := c.Request().Context()
	var f moveForm
	if err := c.Bind(&f); err != nil {
		return s.badForm(c, t)
	}
	r, err := s.Office.RecordMove(ctx, t.actor, t.gameID, office.LiveMoveInput{Ply: f.Ply, Move: f.Move, Elapsed: f.Elapsed, Comment: f.Comment, VersionSeen: f.Version})
	return s.answer(c, t, r, err, f.Move)
}

type undoForm struct {
	Ply     int    `form:"ply"`
	Version int    `form:"version"`
	Reason  string `form:"reason"`
}

func (s *Room) undo(c echo.Context, t target) error {
	ctx := c.Request().Context()
	var f undoForm
	if err := c.Bind(&f); err != nil {
		return s.badForm(c, t)
	}
	r, err := s.Office.UndoLastMove(ctx, t.actor, t.gameID, f.Ply, f.Version, f.Reason)
	return s.answer(c, t, r, err, "")
}

// badForm answers a form whose numbers are not numbers.
func (s *Room) badForm(c echo.Context, t target) error {
	ctx := c.Request().Context()
	r, err := s.Office.LiveRecord(ctx, t.actor, t.gameID)
	if err != nil {
		return err
	}
	return s.render(c, http.StatusUnprocessableEntity, t, r, pageNote{Error: site.T(ctx, "recorder_page.err.form")})
}

func (s *Room) answer(c echo.Context, t target, r office.LiveRecord, err error, sent string) error {
	ctx := c.Request().Context()
	var conflict *office.LiveConflictError
	switch {
	case errors.As(err, &conflict):
		note := pageNote{Error: site.T(ctx, "recorder_page.conflict."+conflict.Why,
			"Ply", conflict.Ply, "Plies", conflict.Record.Plies(), "Move", sent), Conflict: true}
		return s.render(c, http.StatusConflict, t, conflict.Record, note)
	case err != nil:
		msgs, ok := site.FieldMsgsOf(ctx, err)
		if !ok {
			return err
		}
		cur, lerr := s.Office.LiveRecord(ctx, t.actor, t.gameID)
		if lerr != nil {
			return lerr
		}
		var words []string
		for _, k := range []string{"move", "ply", "elapsed", "comment", "reason"} {
			if m, ok := msgs[k]; ok {
				words = append(words, m)
			}
		}
		return s.render(c, http.StatusUnprocessableEntity, t, cur, pageNote{Error: strings.Join(words, " ")})
	}
	return s.render(c, http.StatusOK, t, r, pageNote{Saved: true})
}

// pageNote is what the page says above the board after a write.
type pageNote struct {
	Error    string
	Conflict bool
	Saved    bool
}

// pageView is the recorder's page.
type pageView struct {
	Base    string
	GameID  int64
	Board   games.BoardView
	Version int
	Plies   int
	Side    string // "sente" or "gote": whose move it is
	Legal   string // the legal moves now, USI, space-separated
	Hand    []handPiece
	Moves   []moveRow
	Facts   []factRow
	// Points is the on-demand count 「持将棋・入玉宣言の点数」.
	Points    pointsView
	Clock     *clockView
	Note      pageNote
	Staff     bool // signed-in staff (not a link): the game page is theirs
	GamePath  string
	Untimed   bool
	NextPly   int
	LastPly   int
	HasMoves  bool
	SideWords string
}

type handPiece struct {
	Letter string // USI drop letter
	Kanji  string
	Count  int
}

type moveRow struct {
	Ply     int
	Text    string
	Elapsed string
	Charged string
	Comment string
}

// pointsView is both sides' 持将棋 points and 入玉宣言 counts in words.
type pointsView struct {
	Jishogi string   // the points and what agreement gives now
	Sides   []string // sente's then gote's declaration count
}

type factRow struct {
	Text  string
	Alert bool
}

// clockView is both clocks now and the reading for the move being
// played, for the page's script (which counts the seconds and calls the
// byoyomi).
type clockView struct {
	Sente, Gote               string
	SenteByoyomi, GoteByoyomi bool
	Forfeited                 string
	// Offset is how many seconds the side to move may use before byoyomi
	// (0 when in byoyomi already); Calls are "seconds=word" after it.
	Offset int
	Calls  string
	Period int
}

var dropLetters = map[rules.PieceType]string{rules.Pawn: "P", rules.Lance: "L", rules.Knight: "N", rules.Silver: "S",
	rules.Gold: "G", rules.Bishop: "B", rules.Rook: "R"}

var handOrder = []rules.PieceType{rules.Rook, rules.Bishop, rules.Gold, rules.Silver, rules.Knight, rules.Lance, rules.Pawn}

func (s *Room) render(c echo.Context, status int, t target, r office.LiveRecord, note pageNote) error {
	ctx := c.Request().Context()
	v, err := viewOf(ctx, t, r, note)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return s.Render(c, status, RecorderPage(s.Page(c, site.T(ctx, "recorder_page.title")), v))
}

func viewOf(ctx context.Context, t target, r office.LiveRecord, note pageNote) (pageView, error) {
	usi := make([]string, len(r.Moves))
	for i, m := range r.Moves {
		usi[i] = m.USI
	}
	b, err := games.NewBoardView(r.GameID, r.StartSFEN, usi, len(usi))
	if err != nil {
		return pageView{}, err
	}
	pos, err := rules.ParseSFEN(r.SFEN)
	if err != nil {
		return pageView{}, err
	}
	v := pageView{Base: t.base, GameID: r.GameID, Board: b, Version: r.Version, Plies: r.Plies(), Note: note,
		Staff: t.actor.RecorderToken == "", GamePath: "/games/" + site.I64(r.GameID), NextPly: r.Plies() + 1,
		LastPly: r.Plies(), HasMoves: r.Plies() > 0}
	side := pos.SideToMove()
	v.Side, v.SideWords = "sente", site.T(ctx, "adjudication.side.sente")
	if side == rules.Gote {
		v.Side, v.SideWords = "gote", site.T(ctx, "adjudication.side.gote")
	}
	legal := pos.LegalMoves(nil)
	ls := make([]string, len(legal))
	for i, m := range legal {
		ls[i] = m.USI()
	}
	v.Legal = strings.Join(ls, " ")
	for _, pt := range handOrder {
		if n := pos.Hand(side, pt); n > 0 {
			v.Hand = append(v.Hand, handPiece{Letter: dropLetters[pt], Kanji: pt.Kanji(), Count: n})
		}
	}
	for _, m := range r.Moves {
		row := moveRow{Ply: m.Ply, Text: m.Text, Elapsed: site.MinSec(ctx, time.Duration(m.Elapsed)*time.Second), Comment: m.Comment}
		if m.Clock != nil {
			row.Charged = site.MinSec(ctx, m.Charged)
		}
		v.Moves = append(v.Moves, row)
	}
	for _, f := range r.Facts {
		args := make([]any, 0, 2*len(f.Args))
		for k, a := range f.Args {
			args = append(args, k, a)
		}
		text := site.T(ctx, f.Code, args...)
		if strings.HasPrefix(f.Code, "recorder.fact.jishogi.") {
			v.Points.Jishogi = text // shown on demand
			continue
		}
		v.Facts = append(v.Facts, factRow{Text: text, Alert: f.Alert})
	}
	for i, side := range []string{"sente", "gote"} {
		d := r.Declarations[i]
		camp := "recorder_page.points.king_out"
		if d.KingInCamp {
			camp = "recorder_page.points.king_in"
		}
		key := "recorder_page.points.side"
		if d.Need == 0 {
			key = "recorder_page.points.side_no_rule"
		}
		v.Points.Sides = append(v.Points.Sides, site.T(ctx, key,
			"Side", site.T(ctx, "adjudication.side."+side), "King", site.T(ctx, camp),
			"InCamp", d.InCamp, "Points", d.Points, "Need", d.Need))
	}
	if r.Clock == nil {
		v.Untimed = true
		return v, nil
	}
	st := r.Clock
	cv := &clockView{Sente: site.MinSec(ctx, st.Remaining.Sente.D()), Gote: site.MinSec(ctx, st.Remaining.Gote.D()),
		SenteByoyomi: st.InByoyomi.Sente, GoteByoyomi: st.InByoyomi.Gote}
	if st.Forfeited != nil {
		cv.Forfeited = site.T(ctx, "adjudication.board.time_up", "Side", site.T(ctx, "adjudication.side."+st.Forfeited.String()))
	}
	as := adjudication.Sente
	if side == rules.Gote {
		as = adjudication.Gote
	}
	inByo := st.InByoyomi.Sente
	if as == adjudication.Gote {
		inByo = st.InByoyomi.Gote
	}
	if !inByo {
		cv.Offset = int(st.Remaining.Of(as).D() / time.Second)
	}
	calls := make([]string, len(r.Byoyomi))
	for i, call := range r.Byoyomi {
		calls[i] = strconv.Itoa(int(call.At.D()/time.Second)) + "=" + call.Word
		cv.Period = int(call.At.D() / time.Second)
	}
	cv.Calls = strings.Join(calls, ";")
	v.Clock = cv
	return v, nil
}

// linkView is the director's answer after issuing a link: shown once.
type linkView struct {
	GamePath string
	URL      string
	QR       *day.QRCode
}

func (s *Room) linkIssue(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathParam(c, "id")
	if err != nil {
		return err
	}
	token, err := s.Office.IssueRecorderLink(ctx, site.Actor(c), id)
	if err != nil {
		return err
	}
	url := c.Scheme() + "://" + c.Request().Host + LinkURL(token)
	v := linkView{GamePath: "/games/" + site.I64(id), URL: url}
	if q, err := day.NewQR(url); err == nil {
		v.QR = &q
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return s.Render(c, http.StatusOK, LinkIssuedPage(s.Page(c, site.T(ctx, "recorder_page.link.title")), v))
}

func (s *Room) linkRevoke(c echo.Context) error {
	id, err := site.PathParam(c, "id")
	if err != nil {
		return err
	}
	if err := s.Office.RevokeRecorderLink(c.Request().Context(), site.Actor(c), id); err != nil {
		return err
	}
	return site.SeeOther(c, "/games/"+site.I64(id))
}
