package office

import (
	"context"

	"kisen/adjudication"
	"kisen/adjudication/analysis"
)

// RecordEnding is how the game's stored record says it ended (its last
// word: 投了, 千日手, …); nil when there is no record or the record names no
// ending. The end form may preselect it, saying so (issue 13) — it is never
// used unless the person keeps it.
func (o *Office) RecordEnding(ctx context.Context, gameID int64) (*adjudication.Ending, error) {
	g, err := o.store.GameByID(ctx, gameID)
	if err != nil {
		return nil, err
	}
	rec, ok, err := o.store.LatestGameRecord(ctx, g.ID)
	if err != nil || !ok {
		return nil, err
	}
	handicap := ""
	if g.Handicap != "平手" {
		handicap = g.Handicap
	}
	r, err := analysis.ReadRecord(rec.Text, rec.Format, handicap, nil)
	if err != nil {
		return nil, nil // an unreadable record preselects nothing
	}
	return r.Ending, nil
}
