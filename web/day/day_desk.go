package day

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/office/day"
	"kisen/web/site"
)

// dayBoardsView is the phone-sized board page of one class round.
type dayBoardsView struct {
	ClassID  int64
	Name     string
	ClassURL string
	Round    int
	URL      string
	Boards   []dayBoardRow
	Only     int  // the board number typed into the box; 0 shows every board
	NotFound bool // the typed board is not in this round
	Open     int  // boards still playing
	Preview  *dayBoardRow
	Choice   string // sente_win or gote_win (preview, an older form)
	Winner   int64  // the previewed winner
	Words    string // the previewed result in words
	// Back is "event" when the row came from the event-wide board page;
	// ReturnURL is the page the preview's back link and the saved result
	// return to.
	Back      string
	ReturnURL string
	Message   string // a refused form's message (422)
}

func (s *Room) DayBoards(c echo.Context) error {
	ctx := c.Request().Context()
	v, err := s.boardsView(c)
	if err != nil {
		return err
	}
	if b := strings.TrimSpace(c.QueryParam("board")); b != "" {
		n, err := strconv.Atoi(b)
		v.Only, v.NotFound = n, true
		if err == nil {
			for _, row := range v.Boards {
				if row.Board == n {
					v.Boards, v.NotFound = []dayBoardRow{row}, false
					break
				}
			}
		}
		if v.NotFound {
			v.Boards = nil
		}
	}
	return s.Render(c, http.StatusOK, DayBoardsPage(s.Page(c, site.T(ctx, "day.boards.title", "Class", v.Name, "N", v.Round)), v))
}

// boardsView reads a class round's boards (the actor must be able to
// enter results).
func (s *Room) boardsView(c echo.Context) (dayBoardsView, error) {
	ctx := c.Request().Context()
	cid, err := site.PathParam(c, "cid")
	if err != nil {
		return dayBoardsView{}, err
	}
	n, err := strconv.Atoi(c.Param("n"))
	if err != nil {
		return dayBoardsView{}, echo.NewHTTPError(http.StatusNotFound)
	}
	cv, err := s.DayRoom().ClassView(ctx, site.Actor(c), cid)
	if err != nil {
		return dayBoardsView{}, err
	}
	if !cv.CanEnter {
		return dayBoardsView{}, office.ErrForbidden
	}
	r, ok := cv.Round(n)
	if !ok {
		return dayBoardsView{}, echo.NewHTTPError(http.StatusNotFound)
	}
	v := dayBoardsView{ClassID: cid, Name: site.LocalName(ctx, cv.Class.Name, cv.Class.NameEn), ClassURL: DayClassURL(cid), Round: n, URL: dayBoardsURL(cid, n)}
	for _, b := range r.Boards {
		row := boardRow(ctx, cv, b)
		if !row.Decided {
			v.Open++
		}
		v.Boards = append(v.Boards, row)
	}
	site.MarkDraft(c, cv.Event.Status == office.StatusDraft)
	return v, nil
}

// boardForm is one tap: the game and version the row showed, who won.
type boardForm struct {
	Result string `form:"result"`
}

func (s *Room) DayBoardPreview(c echo.Context) error {
	ctx := c.Request().Context()
	v, err := s.boardsView(c)
	if err != nil {
		return err
	}
	cid := v.ClassID
	b, err := strconv.Atoi(c.Param("b"))
	if err != nil {
		return echo.NewHTTPError(http.StatusNotFound)
	}
	var f boardForm
	if err := c.Bind(&f); err != nil {
		return err
	}
	gameID, err := site.FormVersion(c, "game_id")
	if err != nil {
		return err
	}
	version, err := site.SeenVersion(c)
	if err != nil {
		return err
	}
	for _, row := range v.Boards {
		if row.Board != b {
			continue
		}
		if !slices.Contains(row.chain, gameID) {
			// Another board's or event's game (issue 21): not found, as a
			// missing one, never a 409 page describing it.
			return echo.NewHTTPError(http.StatusNotFound)
		}
		if row.GameID != gameID || row.Version != version {
			// Someone entered this board since the row was shown.
			return &office.StaleError{GameID: gameID, Seen: version}
		}
		r := row
		v.Preview, v.Choice = &r, f.Result
		v.Back, v.ReturnURL = s.backOf(c, cid, v.Round)
		winner, err := formWinner(c)
		if err != nil {
			return s.boardRefused(c, err)
		}
		if winner == 0 { // an older form naming the seat
			switch f.Result {
			case office.ResultSenteWin:
				winner = row.SenteID
			case office.ResultGoteWin:
				winner = row.GoteID
			default:
				return s.boardRefused(c, &office.ValidationError{Fields: []office.FieldError{{Field: "winner", Code: "day.err.winner_not_on_board"}}})
			}
		}
		for _, ch := range row.Choices {
			if ch.Winner == winner {
				v.Winner, v.Words = winner, ch.Label
			}
		}
		if v.Winner == 0 {
			return s.boardRefused(c, &office.ValidationError{Fields: []office.FieldError{{Field: "winner", Code: "day.err.winner_not_on_board"}}})
		}
		return s.Render(c, http.StatusOK, DayBoardPreviewPage(s.Page(c, site.T(ctx, "day.boards.confirm_title", "Board", b)), v))
	}
	return echo.NewHTTPError(http.StatusNotFound)
}

// boardWrite is what every write on one board posts: the class, round and
// board from the path, and the game and its version the person saw.
type boardWrite struct {
	ClassID      int64
	Round, Board int
	GameID       int64
	Version      int
}

func readBoardWrite(c echo.Context) (boardWrite, error) {
	cid, err := site.PathParam(c, "cid")
	if err != nil {
		return boardWrite{}, err
	}
	n, err1 := strconv.Atoi(c.Param("n"))
	b, err2 := strconv.Atoi(c.Param("b"))
	if err1 != nil || err2 != nil {
		return boardWrite{}, echo.NewHTTPError(http.StatusNotFound)
	}
	gameID, err := site.FormVersion(c, "game_id")
	if err != nil {
		return boardWrite{}, err
	}
	version, err := site.SeenVersion(c)
	if err != nil {
		return boardWrite{}, err
	}
	return boardWrite{ClassID: cid, Round: n, Board: b, GameID: gameID, Version: version}, nil
}

func (s *Room) DayBoardResult(c echo.Context) error {
	ctx := c.Request().Context()
	var f boardForm
	if err := c.Bind(&f); err != nil {
		return err
	}
	w, err := readBoardWrite(c)
	if err != nil {
		return err
	}
	cid, n, b := w.ClassID, w.Round, w.Board
	winner, err := formWinner(c)
	if err != nil {
		return s.boardRefused(c, err)
	}
	err = s.DayRoom().EnterBoardResult(ctx, site.Actor(c), day.BoardResultInput{ClassID: cid, Round: n, Board: b, GameID: w.GameID, Version: w.Version, Result: f.Result, Winner: winner})
	if err != nil {
		return s.boardRefused(c, err)
	}
	back, to := s.backOf(c, cid, n)
	anchor := strconv.Itoa(b)
	if back == "event" {
		anchor = strconv.FormatInt(cid, 10) + "-" + anchor
	}
	return site.SeeOther(c, to+"#board-"+anchor)
}

// backOf reads the form's "back": the event-wide board page of the class's
// event, or (anything else) the class round's board page.
func (s *Room) backOf(c echo.Context, classID int64, round int) (string, string) {
	if c.FormValue("back") == "event" {
		if ev, err := s.DayRoom().ClassEventOf(c.Request().Context(), classID); err == nil {
			return "event", dayEventBoardsURL(ev, round)
		}
	}
	return "", dayBoardsURL(classID, round)
}

func dayEventBoardsURL(eventID int64, round int) string {
	return dayURL(eventID) + "/rounds/" + strconv.Itoa(round) + "/boards"
}

// dayEventBoards is round n of every class on one phone-sized page.
func (s *Room) DayEventBoards(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	n, err := strconv.Atoi(c.Param("n"))
	if err != nil {
		return echo.NewHTTPError(http.StatusNotFound)
	}
	e, rounds, canEnter, err := s.DayRoom().EventRound(ctx, site.Actor(c), id, n)
	if err != nil {
		return err
	}
	if !canEnter {
		return office.ErrForbidden
	}
	v := dayBoardsView{Name: site.LocalName(ctx, e.Name, e.NameEn), ClassURL: dayURL(id), Round: n, URL: dayEventBoardsURL(id, n)}
	for _, cr := range rounds {
		cv := day.ClassView{Class: cr.Class, Names: cr.Names}
		name := site.LocalName(ctx, cr.Class.Name, cr.Class.NameEn)
		for _, b := range cr.Round.Boards {
			row := boardRow(ctx, cv, b)
			row.Class, row.Anchor = name, strconv.FormatInt(cr.Class.ID, 10)+"-"+row.Anchor
			if !row.Decided {
				v.Open++
			}
			v.Boards = append(v.Boards, row)
		}
	}
	site.MarkDraft(c, e.Status == office.StatusDraft)
	return s.Render(c, http.StatusOK, DayEventBoardsPage(s.Page(c, site.T(ctx, "day.boards.event_title", "Event", v.Name, "N", n)), v))
}
