package rating

import "time"

// jst is Japan Standard Time. Japan has kept UTC+9 without daylight saving
// since 1951, so a fixed zone is exact and needs no tz database.
var jst = time.FixedZone("JST", 9*60*60)

// PeriodKey is the Glicko-2 rating period a game belongs to under the rule:
// "2026-04" (month of the game in JST), the event ID, or Game.Period.
func PeriodKey(rule PeriodRule, g Game) string {
	switch rule {
	case PeriodMonth:
		return g.Date.In(jst).Format("2006-01")
	case PeriodEvent:
		return g.EventID
	}
	return g.Period
}

// monthIndex numbers JST calendar months consecutively, so the gap between
// two months counts the idle periods between them.
func monthIndex(t time.Time) int {
	j := t.In(jst)
	return j.Year()*12 + int(j.Month()) - 1
}
