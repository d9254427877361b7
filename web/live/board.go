package live

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"kisen/adjudication"
	"kisen/office"
	"kisen/web/games"
	"kisen/web/site"
)

// The public live board (issue 26 item 5, docs/recorder.md "The live
// board"): one game's live record as the recorder enters it — the
// position, the last move, the record with each move's time, the clocks
// and the comments — and the event's list of games with a live record.
// Only published events' visible games (office.PublicLiveBoard): a draft
// or a game of an unpublished part is 404 here, in the embed and on the
// game's stream, whoever is signed in.
//
// The page opens the game's stream (GET /games/:id/stream); a stored move
// raises the event's revision and the board's live region fetches itself.
// Without ?ply the board follows the record; ?ply=N holds the position
// after N moves while the record below keeps growing. Stepping is links
// (htmx swaps the region; liveboard.js adds the arrow keys).

// LiveBoardRoutes registers the live board, the event's list, the embed
// and the game's stream.
func (s *Room) LiveBoardRoutes(e *echo.Echo) {
	e.GET("/games/:id/live", s.liveBoardPage)
	e.GET("/games/:id/stream", s.GameStream)
	e.GET("/events/:id/live", s.liveGamesPage)
	e.GET("/embed/games/:id", s.embedGame)
}

// liveBoardView is the live board's view model.
type liveBoardView struct {
	GameID, EventID int64
	EventName       string
	Label           string
	Sente, Gote     string
	Board           games.BoardView
	Moves           []liveMoveRow
	Clock           *liveClock
	Comment         string // the comment of the move shown ("" for none)
	// Following: no ?ply, the board shows the newest move and moves on.
	Following bool
	Decided   bool
	Result    string // message id of the result in force
	// Base is the board's own URL without ?ply (the page or the embed).
	Base  string
	Embed bool
	// EmbedCode is the <iframe> to copy (signed-in visitors only).
	EmbedCode string
}

// liveMoveRow is one move of the record.
type liveMoveRow struct {
	Ply       int
	Text      string
	Elapsed   string // the time the move took
	Charged   string // what the clock charged, when it differs (stopwatch)
	Remaining string // the mover's time left after it
	Comment   string
	Shown     bool // the board shows the position after this move
}

// liveClock is both clocks at the ply shown.
type liveClock struct {
	Sente, Gote               string
	SenteByoyomi, GoteByoyomi bool
	Forfeited                 string // message id of the side out of time
	ToMove                    string // message id of the side to move
}

// plyParam reads ?ply (-1 when absent or not a number: follow).
func plyParam(c echo.Context) int {
	if p := c.QueryParam("ply"); p != "" {
		if n, err := strconv.Atoi(p); err == nil && n >= 0 {
			return n
		}
	}
	return -1
}

// liveBoardOf builds the view of game id at ply (-1: the newest).
func (s *Room) liveBoardOf(ctx context.Context, id int64, ply int, base string) (liveBoardView, error) {
	lb, err := s.Office.PublicLiveBoard(ctx, id)
	if err != nil {
		return liveBoardView{}, err
	}
	g, rec := lb.Game, lb.Record
	stages, err := s.LabelStages(ctx, g.EventID)
	if err != nil {
		return liveBoardView{}, err
	}
	v := liveBoardView{GameID: g.ID, EventID: g.EventID, EventName: site.LocalName(ctx, lb.Event.Name, lb.Event.NameEn),
		Label: site.GameLabel(ctx, g.Label, stages...), Base: base, Following: ply < 0, Decided: lb.Decided}
	if lb.Decided {
		v.Result = "adjudication.result." + lb.Result
	}
	v.Sente, v.Gote = s.PlayerName(ctx, g.SentePlayerID), s.PlayerName(ctx, g.GotePlayerID)
	usi := make([]string, len(rec.Moves))
	for i, m := range rec.Moves {
		usi[i] = m.USI
	}
	if ply < 0 || ply > len(usi) {
		ply = len(usi)
	}
	if v.Board, err = games.NewBoardView(g.ID, rec.StartSFEN, usi, ply); err != nil {
		return v, err
	}
	senteFirst := firstMover(rec.StartSFEN)
	for i, m := range rec.Moves {
		row := liveMoveRow{Ply: m.Ply, Text: m.Text, Elapsed: site.MinSec(ctx, time.Duration(m.Elapsed)*time.Second),
			Comment: m.Comment, Shown: i+1 == ply}
		if m.Clock != nil {
			if m.Charged != time.Duration(m.Elapsed)*time.Second {
				row.Charged = site.MinSec(ctx, m.Charged)
			}
			// The mover: a handicap game's first move is gote's.
			side := adjudication.Sente
			if senteFirst != (i%2 == 0) {
				side = adjudication.Gote
			}
			row.Remaining = site.MinSec(ctx, m.Clock.Remaining.Of(side).D())
		}
		v.Moves = append(v.Moves, row)
	}
	if ply > 0 {
		v.Comment = rec.Moves[ply-1].Comment
	}
	cs := rec.StartClock
	if ply > 0 {
		cs = rec.Moves[ply-1].Clock
		if cs == nil && ply == len(rec.Moves) {
			cs = rec.Clock
		}
	}
	if cs != nil {
		v.Clock = &liveClock{Sente: site.MinSec(ctx, cs.Remaining.Sente.D()), Gote: site.MinSec(ctx, cs.Remaining.Gote.D()),
			SenteByoyomi: cs.InByoyomi.Sente, GoteByoyomi: cs.InByoyomi.Gote}
		if cs.Forfeited != nil {
			v.Clock.Forfeited = "adjudication.side." + cs.Forfeited.String()
		}
	}
	if !lb.Decided && (v.Clock == nil || v.Clock.Forfeited == "") {
		// The side to move (a handicap game's first mover is gote).
		if senteFirst == (ply%2 == 0) {
			v.Clock = orEmpty(v.Clock)
			v.Clock.ToMove = "adjudication.side.sente"
		} else {
			v.Clock = orEmpty(v.Clock)
			v.Clock.ToMove = "adjudication.side.gote"
		}
	}
	return v, nil
}

func orEmpty(c *liveClock) *liveClock {
	if c == nil {
		return &liveClock{}
	}
	return c
}

// firstMover reports whether sente moves first from the start position
// (SFEN's side field: "b" sente, "w" gote, as in a handicap game).
func firstMover(sfen string) bool {
	var board, side string
	if _, err := fmt.Sscan(sfen, &board, &side); err != nil {
		return true
	}
	return side != "w"
}

// liveBoardURL is the board at ply (-1: following) under base.
func liveBoardURL(base string, ply int) string {
	if ply < 0 {
		return base
	}
	return base + "?ply=" + strconv.Itoa(ply)
}

// liveBoardPath is a game's live board page.
func liveBoardPath(id int64) string { return "/games/" + strconv.FormatInt(id, 10) + "/live" }

// liveBoardPage is GET /games/:id/live.
func (s *Room) liveBoardPage(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	if done, err := s.Conditional(c, s.EventOfGame(office.Actor{}, id), site.CondOpts{Stream: site.GameStreamPath(id)}); done || err != nil {
		return err
	}
	ctx := c.Request().Context()
	v, err := s.liveBoardOf(ctx, id, plyParam(c), liveBoardPath(id))
	if err != nil {
		return err
	}
	title := site.T(ctx, "liveboard.title", "Game", v.Label) + " — " + v.EventName
	p := s.Page(c, title)
	p.Draft = false // public only: never a draft
	if p.User != "" {
		v.EmbedCode = site.EmbedCode(c, "/embed/games/"+strconv.FormatInt(id, 10), title)
	}
	return s.Render(c, http.StatusOK, LiveBoardPage(p, v))
}

// embedGame is GET /embed/games/:id: the live board inside an organiser's
// site, framed like a bracket (embeds.go).
func (s *Room) embedGame(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	if done, err := s.embedNotModified(c, s.EventOfGame(office.Actor{}, id)); done || err != nil {
		return err
	}
	path := c.Request().URL.Path
	v, err := s.liveBoardOf(ctx, id, plyParam(c), path)
	if err != nil {
		return err
	}
	origins, _, err := s.Office.EmbedOriginsOfEvent(ctx, v.EventID)
	if err != nil {
		return err
	}
	v.Embed = true
	ev := embedView{Title: site.T(ctx, "liveboard.title", "Game", v.Label) + " — " + v.EventName, FullPage: liveBoardPath(id),
		LangHref: langLinks(path), Kind: "game", ID: id, EventID: v.EventID}
	allowFraming(c, origins)
	s.MarkLiveAt(c, v.EventID, site.GameStreamPath(id))
	return s.Render(c, http.StatusOK, EmbedGamePage(s.embedPage(c, ev.Title), ev, v))
}

// liveGameRow is one line of the event's live games.
type liveGameRow struct {
	ID          int64
	Label       string
	Sente, Gote string
	Plies       int
	Decided     bool
}

// liveGamesView is the event's list of live boards.
type liveGamesView struct {
	EventID   int64
	EventName string
	Rows      []liveGameRow
}

// liveGamesPage is GET /events/:id/live: the event's games with a live
// record, those in play first.
func (s *Room) liveGamesPage(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	if done, err := s.Conditional(c, func(context.Context) (int64, error) { return id, nil }, site.CondOpts{}); done || err != nil {
		return err
	}
	ctx := c.Request().Context()
	e, lgs, err := s.Office.PublicLiveGames(ctx, id)
	if err != nil {
		return err
	}
	var pids []int64
	for _, lg := range lgs {
		for _, p := range []*int64{lg.Game.SentePlayerID, lg.Game.GotePlayerID} {
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
		return names[*id].Name
	}
	stages, err := s.LabelStages(ctx, id)
	if err != nil {
		return err
	}
	v := liveGamesView{EventID: id, EventName: site.LocalName(ctx, e.Name, e.NameEn)}
	for _, lg := range lgs {
		v.Rows = append(v.Rows, liveGameRow{ID: lg.Game.ID, Label: site.GameLabel(ctx, lg.Game.Label, stages...),
			Sente: nameOf(lg.Game.SentePlayerID), Gote: nameOf(lg.Game.GotePlayerID), Plies: lg.Plies, Decided: lg.Decided})
	}
	p := s.Page(c, site.T(ctx, "liveboard.list.title")+" — "+v.EventName)
	p.Draft = false
	return s.Render(c, http.StatusOK, LiveGamesPage(p, v))
}

// stepURL is the board at ply to; the last position is the following
// board.
func stepURL(v liveBoardView, to int) string {
	if to >= v.Board.Plies {
		return v.Base
	}
	return liveBoardURL(v.Base, to)
}

// stepAttrs make a step link swap the board's region in place (htmx); in
// an embed the link stays in the frame (the embed's links open a new tab
// by default).
func stepAttrs(v liveBoardView, url string) templ.Attributes {
	a := templ.Attributes{"hx-get": url, "hx-target": "#liveboard", "hx-select": "#liveboard", "hx-swap": "outerHTML",
		"hx-push-url": "true"}
	if v.Embed {
		a["target"] = "_self"
		a["hx-push-url"] = "false"
	}
	return a
}

// nameOrUnknown is a player's name, or a word when the side is not known.
func nameOrUnknown(ctx context.Context, name string) string {
	if name == "" {
		return site.T(ctx, "liveboard.no_player")
	}
	return name
}

// handText is a hand's pieces, or a word for an empty hand.
func handText(ctx context.Context, h string) string {
	if h == "" {
		return site.T(ctx, "adjudication.board.none")
	}
	return h
}
