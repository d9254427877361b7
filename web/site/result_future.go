package site

import (
	"errors"
	"net/http"
	"sort"

	"github.com/labstack/echo/v4"

	"kisen/office"
)

// futureOKField is the answer "enter it anyway" to the question a result
// for a game scheduled in the future raises.
const futureOKField = "future_ok"

// askBeforeFutureResults makes every form post from a person ask once
// before a result is stored for a game scheduled after today (issue 13),
// unless the form carries the answer.
func (s *Server) AskBeforeFutureResults(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if s.AskFuture && r.Method == http.MethodPost && !wantsJSON(c) && !IsAPIPath(c) && c.FormValue(futureOKField) != "1" {
			c.SetRequest(r.WithContext(office.AskBeforeFutureResult(r.Context())))
		}
		return next(c)
	}
}

// futureField is one posted value, sent again with the answer.
type futureField struct{ Name, Value string }

// futureView is the question: the game, its day, and the form to send
// again.
type futureView struct {
	GameID  int64
	Sente   string
	Gote    string
	Date    string
	Action  string
	Fields  []futureField
	HadFile bool // a file cannot be sent again: choose it once more
}

// renderFutureResult asks whether to enter a result for a game scheduled
// in the future, with a form that posts the same values again plus the
// answer (409: nothing was stored).
func (s *Server) renderFutureResult(c echo.Context, fe *office.FutureResultError) error {
	ctx := c.Request().Context()
	g, _, err := s.Office.Game(ctx, Actor(c), fe.GameID)
	if err != nil {
		return err
	}
	r := c.Request()
	v := futureView{GameID: g.ID, Sente: s.PlayerName(ctx, g.SentePlayerID), Gote: s.PlayerName(ctx, g.GotePlayerID),
		Date: fe.Date, Action: r.URL.RequestURI()}
	values := r.PostForm
	if r.MultipartForm != nil {
		values = r.MultipartForm.Value
		v.HadFile = len(r.MultipartForm.File) > 0
	}
	names := make([]string, 0, len(values))
	for k := range values {
		if k != futureOKField {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	for _, k := range names {
		for _, val := range values[k] {
			v.Fields = append(v.Fields, futureField{Name: k, Value: val})
		}
	}
	if IsHTMX(c) {
		return s.Render(c, http.StatusConflict, FutureResultFragment(v))
	}
	return s.Render(c, http.StatusConflict, FutureResultPage(s.Page(c, T(ctx, "future.title")), v))
}

// asFuture reports whether err asks about a future game.
func asFuture(err error) (*office.FutureResultError, bool) {
	var fe *office.FutureResultError
	ok := errors.As(err, &fe)
	return fe, ok
}
