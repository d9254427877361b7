package players

import (
	"context"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"time"

	"kisen/office"
	"kisen/office/ratings"
	"kisen/rating"
	"kisen/web/site"
)

func fmtRating(x float64) string { return string(appendRating(nil, x)) }

func appendRating(b []byte, x float64) []byte {
	return strconv.AppendFloat(b, math.Round(x), 'f', 0, 64)
}

// fmtDelta shows a rating change with its sign (+16, −16).
func fmtDelta(d float64) string { return string(appendDelta(nil, d)) }

func appendDelta(b []byte, d float64) []byte {
	r := math.Round(d)
	switch {
	case r > 0:
		return strconv.AppendFloat(append(b, '+'), r, 'f', 0, 64)
	case r < 0:
		return strconv.AppendFloat(append(b, "−"...), -r, 'f', 0, 64)
	}
	return append(b, "±0"...)
}

// ratingFilterForm is the filter form as the user filled it.
type ratingFilterForm struct {
	Kind, Class, Since, Query string
}

// ratingListRow is one line of the rating list.
type ratingListRow struct {
	Place   int
	Player  playerRow
	Rating  string
	RD      string // "" under Elo
	Games   int
	Wins    int
	Losses  int
	LastDay string
}

// ratingStatusView says which version of the ratings a page shows.
type ratingStatusView struct {
	AsOf  string // when the shown ratings were computed (Japan time); "" before the first
	Stale bool   // newer results are being included
}

func ratingStatusViewOf(st ratings.RatingStatus) ratingStatusView {
	v := ratingStatusView{Stale: st.Stale}
	if st.Computed {
		v.AsOf = st.ComputedAt.In(site.Tokyo).Format("2006-01-02 15:04")
	}
	return v
}

type ratingListView struct {
	Filter   ratingFilterForm
	Rows     []ratingListRow
	Glicko2  bool
	Model    string
	Summary  ratings.RatingSummary
	Status   ratingStatusView
	Total    int64
	Page     int
	Pages    int
	PrevURL  string
	NextURL  string
	CSVURL   string
	CanAdmin bool
	Kinds    []office.PlayerKind
	Classes  []office.PlayerClass
}

// ratingListViewOf builds the list page; model is the model the shown
// ratings were computed under.
func ratingListViewOf(pg ratings.RatingPage, model rating.Model, f ratingFilterForm, admin bool) ratingListView {
	v := ratingListView{Filter: f, Glicko2: model == rating.ModelGlicko2, Model: string(model), Summary: pg.Status.Summary,
		Status: ratingStatusViewOf(pg.Status), Total: pg.Total, Page: pg.Page, Pages: pg.Pages,
		CanAdmin: admin, Kinds: office.PlayerKinds, Classes: office.PlayerClasses, CSVURL: "/ratings/export.csv"}
	if q := f.query(0); q != "" {
		v.CSVURL += "?" + q
	}
	pageURL := func(n int) string {
		if q := f.query(n); q != "" {
			return "/ratings?" + q
		}
		return "/ratings"
	}
	if pg.Page > 1 {
		v.PrevURL = pageURL(min(pg.Page-1, pg.Pages))
	}
	if pg.Page < pg.Pages {
		v.NextURL = pageURL(pg.Page + 1)
	}
	for _, r := range pg.Rows {
		row := ratingListRow{Place: r.Place, Player: playerRowOf(r.Player), Rating: fmtRating(r.Rating.Rating),
			Games: r.Rating.Games, Wins: r.Rating.Wins, Losses: r.Rating.Losses}
		if v.Glicko2 {
			row.RD = fmtRating(r.Rating.RD)
		}
		if r.Rating.LastPlayed != nil {
			row.LastDay = r.Rating.LastPlayed.In(site.Tokyo).Format("2006-01-02")
		}
		v.Rows = append(v.Rows, row)
	}
	return v
}

// query is the filter (and page n when above 1) as a query string.
func (f ratingFilterForm) query(page int) string {
	q := url.Values{}
	for _, kv := range [][2]string{{"q", f.Query}, {"kind", f.Kind}, {"class", f.Class}, {"since", f.Since}} {
		if kv[1] != "" {
			q.Set(kv[0], kv[1])
		}
	}
	if page > 1 {
		q.Set("page", strconv.Itoa(page))
	}
	return q.Encode()
}

// recordGameRow is one game of a player's record.
type recordGameRow struct {
	GameURL   string
	Date      string
	Event     string
	EventURL  string
	Opponent  string
	OppURL    string
	Colour    string // 先手 / 後手, localised
	Result    string // localised
	ResultKey string // win | loss | other, for the CSS class
	Record    bool
	Change    string // "" when the game was not rated
}

// chartView is the rating chart as SVG geometry, computed on the server
// (no script): x is the game number, y the rating after it.
type chartView struct {
	Width, Height int
	Points        string // polyline points "x,y x,y …"
	Dots          []chartDot
	Min, Max      string // axis labels
	YMin, YMax    int    // their y positions
	Left, Right   int    // plot area
	Empty         bool
}

type chartDot struct {
	X, Y  string
	Title string
}

// chart geometry: a 640×220 viewBox scaled by CSS to the page width.
const (
	chartW, chartH        = 640, 220
	ChartLeft, ChartRight = 48, 628
	ChartTop, ChartBottom = 12, 200
	ChartMinSpan          = 50.0 // keep a flat history from filling the height
)

// ratingChartOf draws the rating before the first game and after each
// rated game.
func RatingChartOf(hist []office.RatingChartPoint) chartView {
	c := chartView{Width: chartW, Height: chartH, Left: ChartLeft, Right: ChartRight, YMin: ChartBottom, YMax: ChartTop}
	if len(hist) == 0 {
		c.Empty = true
		return c
	}
	vals := make([]float64, 1, len(hist)+1)
	vals[0] = hist[0].RatingBefore
	for _, h := range hist {
		vals = append(vals, h.RatingAfter)
	}
	lo, hi := vals[0], vals[0]
	for _, x := range vals {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	if hi-lo < ChartMinSpan {
		mid := (hi + lo) / 2
		lo, hi = mid-ChartMinSpan/2, mid+ChartMinSpan/2
	}
	c.Min, c.Max = fmtRating(lo), fmtRating(hi)
	xOf := func(i int) float64 {
		return ChartLeft + float64(i)*float64(ChartRight-ChartLeft)/float64(len(vals)-1)
	}
	yOf := func(x float64) float64 {
		return ChartBottom - (x-lo)/(hi-lo)*float64(ChartBottom-ChartTop)
	}
	// Every coordinate and title is appended to two buffers, each turned
	// into one string that the dots slice: a thousand games are a thousand
	// dots, and a string apiece from fmt cost more than the page's reads
	// (issue 12). The text is what fmt's %.1f and the dates' layout give.
	pts := make([]byte, 0, len(vals)*12)
	titles := make([]byte, 0, len(vals)*32)
	type span struct{ x0, x1, y1, t0, t1 int }
	spans := make([]span, len(vals))
	for i, x := range vals {
		if i > 0 {
			pts = append(pts, ' ')
		}
		sp := span{x0: len(pts)}
		pts = appendTenths(pts, xOf(i))
		sp.x1 = len(pts)
		pts = appendTenths(append(pts, ','), yOf(x))
		sp.y1, sp.t0 = len(pts), len(titles)
		if i > 0 {
			h := hist[i-1]
			titles = AppendDay(titles, h.PlayedAt.In(site.Tokyo))
			titles = appendDelta(append(appendRating(append(titles, ' '), x), " ("...), h.RatingAfter-h.RatingBefore)
			titles = append(titles, ')')
		} else {
			titles = appendRating(titles, x)
		}
		sp.t1 = len(titles)
		spans[i] = sp
	}
	c.Points = string(pts)
	ts := string(titles)
	c.Dots = make([]chartDot, len(vals))
	for i, sp := range spans {
		c.Dots[i] = chartDot{X: c.Points[sp.x0:sp.x1], Y: c.Points[sp.x1+1 : sp.y1], Title: ts[sp.t0:sp.t1]}
	}
	return c
}

// appendTenths appends x as fmt's %.1f shows it.
func appendTenths(b []byte, x float64) []byte {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return fmt.Appendf(b, "%.1f", x)
	}
	return strconv.AppendFloat(b, x, 'f', 1, 64)
}

// appendDay appends t's date as the layout "2006-01-02" shows it.
func AppendDay(b []byte, t time.Time) []byte { return t.AppendFormat(b, "2006-01-02") }

// playerRecordView is the record page.
type playerRecordView struct {
	Player     playerRow
	Rated      bool
	Rating     string
	RD         string
	Games      int
	Wins       int
	Losses     int
	Status     ratingStatusView
	Chart      chartView
	Rows       []recordGameRow
	Totals     ratings.RecordTotals
	Page       int
	Pages      int
	PrevURL    string
	NextURL    string
	CSVURL     string
	Opponents  []playerRow
	HeadToHead *headToHeadView
	H2HURL     string
}

func playerRecordViewOf(ctx context.Context, rec ratings.PlayerRecord, opponent int64) playerRecordView {
	base := site.PlayerURL(rec.Player.ID) + "/record"
	v := playerRecordView{Player: playerRowOf(rec.Player), Rated: rec.Rating.Games > 0, Rating: fmtRating(rec.Rating.Rating),
		Games: rec.Rating.Games, Wins: rec.Rating.Wins, Losses: rec.Rating.Losses, Chart: RatingChartOf(rec.History),
		Status: ratingStatusViewOf(rec.Status), Totals: rec.Totals, Page: rec.Page, Pages: rec.Pages,
		H2HURL: base + "/h2h", CSVURL: base + ".csv"}
	if rec.Rating.RD > 0 {
		v.RD = fmtRating(rec.Rating.RD)
	}
	pageURL := func(n int) string {
		q := url.Values{}
		if opponent > 0 {
			q.Set("opponent", strconv.FormatInt(opponent, 10))
		}
		if n > 1 {
			q.Set("page", strconv.Itoa(n))
		}
		if len(q) == 0 {
			return base + "#games"
		}
		return base + "?" + q.Encode() + "#games"
	}
	if rec.Page > 1 {
		v.PrevURL = pageURL(min(rec.Page-1, rec.Pages))
	}
	if rec.Page < rec.Pages {
		v.NextURL = pageURL(rec.Page + 1)
	}
	for _, g := range rec.Games {
		v.Rows = append(v.Rows, recordRowOf(ctx, g))
	}
	for _, p := range rec.Opponents {
		v.Opponents = append(v.Opponents, playerRowOf(p))
	}
	return v
}

func recordRowOf(ctx context.Context, g ratings.PlayerGame) recordGameRow {
	r := recordGameRow{GameURL: fmt.Sprintf("/games/%d", g.Game.ID), Event: site.LocalName(ctx, g.Event.Name, g.Event.NameEn),
		EventURL: fmt.Sprintf("/events/%d", g.Event.ID), Record: g.HasRecord, ResultKey: "other"}
	if !g.PlayedAt.IsZero() {
		r.Date = g.PlayedAt.In(site.Tokyo).Format("2006-01-02")
	}
	if g.Opponent.ID != 0 {
		r.Opponent, r.OppURL = g.Opponent.Name, site.PlayerURL(g.Opponent.ID)
	}
	r.Colour = site.T(ctx, "rating.colour.gote")
	if g.Sente {
		r.Colour = site.T(ctx, "rating.colour.sente")
	}
	switch {
	case g.Result == "":
		r.Result = site.T(ctx, "rating.result.none")
	case g.Won:
		r.Result, r.ResultKey = site.T(ctx, "rating.result.win"), "win"
	case g.Lost:
		r.Result, r.ResultKey = site.T(ctx, "rating.result.loss"), "loss"
	case g.Result == office.ResultRedo:
		r.Result = site.T(ctx, "rating.result.redo")
	default:
		r.Result = site.T(ctx, "rating.result.pending")
	}
	if g.Result != "" && g.Reason == "forfeit" {
		r.Result += site.T(ctx, "rating.result.forfeit_mark")
	}
	if g.Rated {
		r.Change = fmtDelta(g.After - g.Before)
	}
	return r
}

// headToHeadView is the record between the page's player and one opponent.
type headToHeadView struct {
	Opponent  playerRow
	Games     int
	Wins      int
	Losses    int
	NoResults int
	LastMet   string
	Rows      []recordGameRow
}

func headToHeadViewOf(ctx context.Context, h ratings.HeadToHeadRecord) headToHeadView {
	v := headToHeadView{Opponent: playerRowOf(h.Opponent), Games: h.HeadToHead.Games, Wins: h.WinsA, Losses: h.WinsB, NoResults: h.NoResults}
	if !h.LastMet.IsZero() {
		v.LastMet = h.LastMet.In(site.Tokyo).Format("2006-01-02")
	}
	for _, g := range h.Games {
		v.Rows = append(v.Rows, recordRowOf(ctx, g))
	}
	return v
}

// ratingSettingsView is the settings form.
type ratingSettingsView struct {
	In     ratings.RatingSettingsInput
	Raw    map[string]string // fields that were not numbers, as typed
	Errors site.FieldMsgs
	Saved  bool
}

// num shows a number field: as typed when it did not parse, else the value.
func (v ratingSettingsView) num(name string, x float64) string {
	if raw, ok := v.Raw[name]; ok {
		return raw
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}

type seedsView struct {
	StageURL, StageName string
	Status              ratingStatusView
	Rows                []seedRowView
}

type seedRowView struct {
	Seed   int
	Player playerRow
	Rated  bool
	Rating string
	Games  int
}

// ratingModelLabel names a model in the page's language.
func ratingModelLabel(ctx context.Context, m string) string {
	if m == string(rating.ModelGlicko2) {
		return site.T(ctx, "rating.model.glicko2")
	}
	return site.T(ctx, "rating.model.elo")
}
