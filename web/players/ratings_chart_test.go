package players

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"kisen/store"
	"kisen/web/site"
)

// The chart's coordinates and titles, appended to shared buffers (issue
// 12), read as fmt and the date layout write them: the polyline's points,
// each dot's x, y and title, for histories rising and falling across years.
func TestRatingChart_TextAsFmtWritesIt(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(12, 1000))
	for _, n := range []int{1, 2, 7, 1000} {
		hist := make([]store.RatingChartPoint, n)
		r := 1500.0
		at := time.Date(1999, 12, 31, 15, 30, 0, 0, time.UTC) // 2000-01-01 in Tokyo
		for i := range hist {
			d := rng.NormFloat64() * 20
			hist[i] = store.RatingChartPoint{GameID: int64(i + 1), PlayedAt: at, RatingBefore: r, RatingAfter: r + d}
			r += d
			at = at.Add(time.Duration(rng.IntN(400)) * time.Hour)
		}
		c := RatingChartOf(hist)
		vals := []float64{hist[0].RatingBefore}
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
		if len(c.Dots) != len(vals) {
			t.Fatalf("%d games: %d dots, want %d", n, len(c.Dots), len(vals))
		}
		pts := make([]string, len(vals))
		for i, x := range vals {
			px := fmt.Sprintf("%.1f", ChartLeft+float64(i)*float64(ChartRight-ChartLeft)/float64(len(vals)-1))
			py := fmt.Sprintf("%.1f", ChartBottom-(x-lo)/(hi-lo)*float64(ChartBottom-ChartTop))
			pts[i] = px + "," + py
			title := strings.TrimSpace(fmt.Sprintf("%.0f", math.Round(x)))
			if i > 0 {
				h := hist[i-1]
				delta := math.Round(h.RatingAfter - h.RatingBefore)
				sign := "±0"
				switch {
				case delta > 0:
					sign = fmt.Sprintf("+%.0f", delta)
				case delta < 0:
					sign = fmt.Sprintf("−%.0f", -delta)
				}
				title = fmt.Sprintf("%s %s (%s)", h.PlayedAt.In(site.Tokyo).Format("2006-01-02"), title, sign)
			}
			if d := c.Dots[i]; d.X != px || d.Y != py || d.Title != title {
				t.Errorf("%d games, dot %d: %+v, want {%s %s %s}", n, i, d, px, py, title)
			}
		}
		if want := strings.Join(pts, " "); c.Points != want {
			t.Errorf("%d games: points %q, want %q", n, c.Points, want)
		}
	}
	if d := AppendDay(nil, time.Date(12026, 1, 2, 0, 0, 0, 0, site.Tokyo)); string(d) != "12026-01-02" {
		t.Errorf("year 12026: %q", d)
	}
}
