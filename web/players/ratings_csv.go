package players

import (
	"bytes"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/office/ratings"
	"kisen/web/site"
)

// csvFlushRows is how many rows a streamed CSV writes between flushes to
// the client; csvFlushBytes sends a batch early when its rows are long.
const (
	csvFlushRows  = 500
	csvFlushBytes = 64 << 10
)

// csvStream writes a CSV download straight to the response: the rows are
// never all in memory and the client sees the first ones at once. The
// status and headers are sent with the first row, so an error before it
// (the query failed) still gets the error page; an error after it can
// only cut the download short, and is logged here because the error
// handler cannot answer any more.
//
// Rows are gathered in a batch and handed to the response whole (each
// batch one chunk of the chunked body), so a download cut by a failed
// write ends on a row; and a cut body lacks the chunked encoding's last
// chunk, so the client can tell it from a complete one.
type csvStream struct {
	c        echo.Context
	filename string
	w        *office.CSVWriter
	batch    bytes.Buffer
	rows     int
}

func newCSVStream(c echo.Context, filename string) *csvStream {
	return &csvStream{c: c, filename: filename}
}

// write sends one record; own are the cells Kisen formatted as numbers
// (office.CSVWriter.Write), every other cell is neutralised.
func (cs *csvStream) write(rec []string, own ...int) error {
	if cs.w == nil {
		h := cs.c.Response().Header()
		h.Set(echo.HeaderContentType, "text/csv; charset=utf-8")
		h.Set(echo.HeaderContentDisposition, `attachment; filename="`+cs.filename+`"`)
		cs.c.Response().WriteHeader(http.StatusOK)
		cs.w = office.NewCSVWriter(&cs.batch)
	}
	if err := cs.w.Write(rec, own...); err != nil {
		return err
	}
	cs.w.Flush() // into the batch: it holds whole rows only
	cs.rows++
	if cs.rows%csvFlushRows == 0 || cs.batch.Len() >= csvFlushBytes {
		return cs.send()
	}
	return nil
}

// send hands the batch to the client.
func (cs *csvStream) send() error {
	if err := cs.w.Error(); err != nil {
		return err
	}
	if cs.batch.Len() == 0 {
		return nil
	}
	_, err := cs.c.Response().Write(cs.batch.Bytes())
	cs.batch.Reset()
	if err != nil {
		return err
	}
	cs.c.Response().Flush()
	return nil
}

// end sends the last batch; err is what stopped the rows, if anything.
// After a failed row nothing more is sent: the download ends on the last
// whole batch.
func (s *Room) endCSV(cs *csvStream, err error) error {
	if cs.w == nil {
		return err // nothing sent yet: the error handler answers
	}
	if err == nil {
		err = cs.send()
	}
	if err != nil {
		s.Log.Error("CSV download cut short", "file", cs.filename, "rows", cs.rows,
			"request_id", cs.c.Response().Header().Get(echo.HeaderXRequestID), "err", err)
	}
	return nil
}

// ratingsExport streams the filtered list as CSV (UTF-8, header row), in
// list order, every page: the rows are read through one cursor.
func (s *Room) ratingsExport(c echo.Context) error {
	f, _ := ratingFilterOf(c)
	cs := newCSVStream(c, "ratings.csv")
	header := false
	err := s.Ratings().EachRating(c.Request().Context(), f, func(r ratings.RatingRow) error {
		if !header {
			header = true
			if err := cs.write(ratingCSVHeader); err != nil {
				return err
			}
		}
		return cs.write(ratingCSVRecord(r), ratingCSVNumbers...)
	})
	if err == nil && !header {
		err = cs.write(ratingCSVHeader) // an empty list: the header alone
	}
	return s.endCSV(cs, err)
}

// ratingCSVHeader is the documented column list (docs/ratings.md).
var ratingCSVHeader = []string{"place", "player_id", "name", "reading", "kind", "class", "rating", "rd", "games", "wins", "losses", "last_played"}

// ratingCSVNumbers are the columns ratingCSVRecord fills with numbers it
// formats itself: a negative rating stays a number in a spreadsheet.
var ratingCSVNumbers = []int{0, 1, 6, 7, 8, 9, 10}

func ratingCSVRecord(r ratings.RatingRow) []string {
	last := ""
	if r.Rating.LastPlayed != nil {
		last = r.Rating.LastPlayed.In(site.Tokyo).Format("2006-01-02")
	}
	rd := ""
	if r.Rating.RD > 0 { // Glicko-2 only
		rd = strconv.FormatFloat(r.Rating.RD, 'f', 1, 64)
	}
	return []string{
		strconv.Itoa(r.Place), strconv.FormatInt(r.Player.ID, 10), r.Player.Name, r.Player.Reading,
		string(r.Player.Kind), string(r.Player.Class), strconv.FormatFloat(r.Rating.Rating, 'f', 1, 64),
		rd, strconv.Itoa(r.Rating.Games), strconv.Itoa(r.Rating.Wins),
		strconv.Itoa(r.Rating.Losses), last,
	}
}

// playerRecordExport streams a player's whole record as CSV, newest
// first (docs/ratings.md). Every read happens before the first byte
// (ratings.EachRecordGame), so a failed query or an unknown player gets
// the error page, never a CSV; each row is then built, written and
// dropped, with a flush every csvFlushRows. After the first row only a
// failed write to the client can stop it: endCSV logs it and the download
// ends where the client stopped reading.
func (s *Room) playerRecordExport(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	cs := newCSVStream(c, "record-"+strconv.FormatInt(id, 10)+".csv")
	header := false
	err = s.Ratings().EachRecordGame(c.Request().Context(), id, func(g ratings.PlayerGame) error {
		if !header {
			header = true
			if err := cs.write(RecordCSVHeader); err != nil {
				return err
			}
		}
		return cs.write(RecordCSVRecord(g), recordCSVNumbers...)
	})
	if err == nil && !header {
		err = cs.write(RecordCSVHeader) // no games: the header alone
	}
	return s.endCSV(cs, err)
}

// recordCSVHeader is the documented column list of a player's record.
var RecordCSVHeader = []string{"date", "game_id", "event_id", "event", "opponent_id", "opponent", "colour", "result", "reason", "rating_before", "rating_after"}

// recordCSVNumbers are the columns recordCSVRecord fills with numbers.
var recordCSVNumbers = []int{1, 2, 4, 9, 10}

// recordCSVRecord is one game from the player's side: result win, loss
// (both players losing is a loss too), redo, pending, or empty while no
// result is confirmed; the ratings around it only for rated games.
func RecordCSVRecord(g ratings.PlayerGame) []string {
	date := ""
	if !g.PlayedAt.IsZero() {
		date = g.PlayedAt.In(site.Tokyo).Format("2006-01-02")
	}
	opp, oppID := "", ""
	if g.Opponent.ID != 0 {
		opp, oppID = g.Opponent.Name, strconv.FormatInt(g.Opponent.ID, 10)
	}
	colour := "gote"
	if g.Sente {
		colour = "sente"
	}
	result := ""
	switch {
	case g.Result == "":
	case g.Won:
		result = "win"
	case g.Lost:
		result = "loss"
	case g.Result == office.ResultRedo:
		result = "redo"
	default:
		result = "pending"
	}
	before, after := "", ""
	if g.Rated {
		before, after = strconv.FormatFloat(g.Before, 'f', 1, 64), strconv.FormatFloat(g.After, 'f', 1, 64)
	}
	return []string{date, strconv.FormatInt(g.Game.ID, 10), strconv.FormatInt(g.Event.ID, 10), g.Event.Name,
		oppID, opp, colour, result, g.Reason, before, after}
}
