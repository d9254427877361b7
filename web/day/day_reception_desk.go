package day

import (
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/office/day"
	"kisen/web/site"
)

// The reception desk's one-keystroke check-in (issue 23 §2,
// docs/amateur-day-desk.md): every action on a row answers an htmx request
// with that row only (and the counts and fee totals, out of band), the
// full page otherwise; other desks fetch the rows whose version moved when
// the event's stream says "changed".

// deskRow is one entrant on the reception desk.
type deskRow struct {
	dayEntrantRow
	Number  int    // 受付番号: the order of entry in the day (1, 2, …)
	Reading string // the registry's reading
	Version int    // the row's version, which every write carries
	Keys    string // what the search box matches: folded reading, name, number
	Error   string // a refusal shown in the row (409, 422)
}

func newDeskRow(r dayEntrantRow, en day.EntrantRow, number int) deskRow {
	keys := office.FoldName(en.Reading) + " " + office.FoldName(en.Name) + " " + strconv.Itoa(number)
	return deskRow{dayEntrantRow: r, Number: number, Reading: en.Reading, Version: en.Version, Keys: keys}
}

// entrantNumbers numbers a day's entrants in the order they were entered
// (the entrant row's id): a walk-in takes the next number, and nobody's
// number moves.
func entrantNumbers(es []day.EntrantRow) map[int64]int {
	ids := make([]int64, 0, len(es))
	byID := map[int64]int64{}
	for _, e := range es {
		ids = append(ids, e.ID)
		byID[e.ID] = e.PlayerID
	}
	slices.Sort(ids)
	out := make(map[int64]int, len(ids))
	for i, id := range ids {
		out[byID[id]] = i + 1
	}
	return out
}

// deskVersion reads the version the row showed; a form without one (a
// script of old) is not compared.
func deskVersion(c echo.Context) int {
	s := strings.TrimSpace(c.FormValue("version"))
	if s == "" {
		return day.Unchecked
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return day.Unchecked - 1 // never a row's version: stale
	}
	return n
}

// deskWrite is the entrant and version a desk form names.
func deskWrite(c echo.Context, eventID int64) day.DeskWrite {
	return day.DeskWrite{EventID: eventID, PlayerID: formID(c, "player_id"), Version: deskVersion(c)}
}

// deskAnswer answers a write on one entrant: without htmx as before (303
// back to the page, 422 the page with the message); with htmx the row as
// it is now, with the refusal in it (409 stale, 422 bad input).
func (s *Room) deskAnswer(c echo.Context, id, playerID int64, err error) error {
	if !site.IsHTMX(c) {
		return s.receptionBack(c, id, err)
	}
	ctx := c.Request().Context()
	status, msg := http.StatusOK, ""
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		status, msg = http.StatusUnprocessableEntity, firstMsg(msgs)
	} else if errors.Is(err, office.ErrConflict) {
		status, msg = http.StatusConflict, site.T(ctx, "day_desk.stale")
	} else if err != nil {
		return err
	}
	v, _, rerr := s.receptionData(c, false, func(en day.EntrantRow, _ int) bool { return en.PlayerID == playerID })
	if rerr != nil {
		return rerr
	}
	if len(v.Entrants) != 1 {
		return echo.NewHTTPError(http.StatusNotFound)
	}
	v.Entrants[0].Error = msg
	return s.Render(c, status, deskRowsAnswer(s.Page(c, ""), v, v.Entrants))
}

// DayDeskUndo reverts the actor's last check-in or fee record about an
// entrant (a new record; nothing deleted).
func (s *Room) DayDeskUndo(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	w := deskWrite(c, id)
	err = s.DayRoom().Undo(c.Request().Context(), site.Actor(c), w)
	return s.deskAnswer(c, id, w.PlayerID, err)
}

// DayDeskRows answers another desk's fetch after "changed": the rows whose
// version differs from the one the desk holds, and the rows it does not
// hold yet, with the counts and the fee totals. known lists what the desk
// holds as player.version pairs joined by "-" (desk.js builds it from its
// rows); without known, every row. Every change to an entrant raises the
// row's version (migration 00180), so the answer is exact whatever the two
// processes' clocks say, and a desk that is up to date gets no rows.
func (s *Room) DayDeskRows(c echo.Context) error {
	var want func(day.EntrantRow, int) bool
	if _, ok := c.QueryParams()["known"]; ok {
		known, err := parseKnown(c.QueryParam("known"))
		if err != nil {
			return echo.NewHTTPError(http.StatusBadRequest, site.T(c.Request().Context(), "day_desk.err.known"))
		}
		want = func(en day.EntrantRow, _ int) bool {
			v, held := known[en.PlayerID]
			return !held || v != en.Version
		}
	}
	v, _, err := s.receptionData(c, false, want)
	if err != nil {
		return err
	}
	return s.Render(c, http.StatusOK, deskRowsAnswer(s.Page(c, ""), v, v.Entrants))
}

// maxKnown bounds the rows a desk may say it holds (far above any day).
const maxKnown = 20000

// parseKnown reads "player.version-player.version-…" ("" is no rows).
func parseKnown(q string) (map[int64]int, error) {
	out := map[int64]int{}
	if q = strings.TrimSpace(q); q == "" {
		return out, nil
	}
	pairs := strings.Split(q, "-")
	if len(pairs) > maxKnown {
		return nil, errors.New("too many rows")
	}
	for _, p := range pairs {
		a, b, ok := strings.Cut(p, ".")
		id, err1 := strconv.ParseInt(a, 10, 64)
		ver, err2 := strconv.Atoi(b)
		if !ok || err1 != nil || err2 != nil || id <= 0 || ver < 0 {
			return nil, errors.New("bad pair " + p)
		}
		out[id] = ver
	}
	return out, nil
}

// DayDeskSearch is the search box on the server (the page filters in the
// browser; this is for scripts and the benchmark): the rows whose reading
// starts with q, whose name holds it, or whose number is q.
func (s *Room) DayDeskSearch(c echo.Context) error {
	k := office.FoldName(c.QueryParam("q"))
	v, _, err := s.receptionData(c, false, func(en day.EntrantRow, number int) bool { return deskMatch(en, number, k) })
	if err != nil {
		return err
	}
	return s.Render(c, http.StatusOK, deskRowsAnswer(s.Page(c, ""), v, v.Entrants))
}

// deskMatch is the search box's rule (desk.js has the same) for a folded
// query k: digits are the entrant number; anything else a prefix of the
// reading or a part of the name; "" matches everyone.
func deskMatch(en day.EntrantRow, number int, k string) bool {
	switch {
	case k == "":
		return true
	case digits(k):
		return strconv.Itoa(number) == k
	}
	return strings.HasPrefix(office.FoldName(en.Reading), k) || strings.Contains(office.FoldName(en.Name), k)
}

// deskState is what the row's data-state says: the check-in state, or
// withdrawn.
func deskState(e deskRow) string {
	if e.Withdrawn {
		return "withdrawn"
	}
	return e.Checkin
}

// digits reports whether s is a number (0-9 only).
func digits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}
