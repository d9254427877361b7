package office

import (
	"strings"
	"testing"
	"time"
)

// FuzzRoundDates: the calendar form → either a located error, or one entry
// per round, each date written back as it was typed, and a final round of
// exactly one date (D-B1).
func FuzzRoundDates(f *testing.F) {
	f.Add("2026-06-09|2026-07-07 2026-07-08|2026-08-04", 3)
	f.Add("2026-06-09||2026-08-04", 3)
	f.Add("2026-06-09|2026-13-01", 2)
	f.Add("2026-06-09|2026-07-07,2026-07-08", 2)
	f.Add("||", 3)
	f.Fuzz(func(t *testing.T, form string, rounds int) {
		if rounds < 1 || rounds > 30 {
			return
		}
		entries := strings.Split(form, "|")
		v := &ValidationError{}
		dates, text := parseRoundDates(v, entries, rounds)
		if v.OrNil() != nil {
			if dates != nil && len(v.Fields) == 0 {
				t.Fatal("error without fields")
			}
			return
		}
		if dates == nil {
			if strings.TrimSpace(strings.ReplaceAll(form, "|", "")) != "" {
				t.Fatalf("non-empty form %q gave no calendar and no error", form)
			}
			return
		}
		if len(dates) != rounds || len(text) != rounds {
			t.Fatalf("%d rounds, got %d", rounds, len(dates))
		}
		if len(dates[rounds-1]) != 1 {
			t.Fatalf("D-B1: final round has %d dates", len(dates[rounds-1]))
		}
		for r := range dates {
			if len(dates[r]) == 0 || len(dates[r]) != len(text[r]) {
				t.Fatalf("round %d: %v / %v", r+1, dates[r], text[r])
			}
			for k, d := range dates[r] {
				if d.Format(time.DateOnly) != text[r][k] || !strings.Contains(entries[r], text[r][k]) {
					t.Fatalf("round %d date %q read as %v", r+1, text[r][k], d)
				}
			}
		}
	})
}
