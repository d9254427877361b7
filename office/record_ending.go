package office

import (
	"kisen/adjudication"
	"kisen/adjudication/analysis"
	"kisen/store"
)

// RecordEnding is how a game's record says it ended (its last word: 投了,
// 千日手, …); nil when the record names no ending or cannot be read. The
// end form may preselect it, saying so (issue 13) — it is never used unless
// the person keeps it. The game page passes the game and the newest record
// it has already read.
func RecordEnding(g store.Game, rec store.GameRecord) *adjudication.Ending {
	handicap := ""
	if g.Handicap != "平手" {
		handicap = g.Handicap
	}
	r, err := analysis.ReadRecord(rec.Text, rec.Format, handicap, nil)
	if err != nil {
		return nil // an unreadable record preselects nothing
	}
	return r.Ending
}
