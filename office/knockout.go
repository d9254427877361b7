package office

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"kisen/pairing"
	"kisen/store"
)

// Stage statuses: a stage is set up (entrants), drawn (reviewable, slots
// may be swapped) and published (games are created, the public sees it).
const (
	StageSetup     = "setup"
	StageDrawn     = "drawn"
	StagePublished = "published"
)

// StageSeries is the stage kind of a title match's 番勝負; the other kinds
// are pairing's knockout stages.
const StageSeries = "series"

// StageKinds lists the stage kinds in display order.
var StageKinds = []string{string(pairing.FirstPreliminary), string(pairing.SecondPreliminary), string(pairing.MainEvent), StageSeries}

// Quick-result reasons a director may enter on the bracket page.
const (
	ReasonResignation = "resignation" // 投了
	ReasonForfeit     = "forfeit"     // 不戦
	ReasonWithdrawal  = "withdrawal"  // 棄権: the loser leaves the event
)

// QuickReasons lists the quick-result reasons in display order.
var QuickReasons = []string{ReasonResignation, ReasonForfeit, ReasonWithdrawal}

// entrantID is how a registered player appears in a pairing bracket: the
// player id in decimal, so `kisen draw bracket` input can be written by hand
// from the registry.
func entrantID(playerID int64) string { return strconv.FormatInt(playerID, 10) }

// playerOfEntrant reads an entrant id back; ok is false for a bye or a
// qualifier placeholder.
func playerOfEntrant(id string) (int64, bool) {
	n, err := strconv.ParseInt(id, 10, 64)
	return n, err == nil && n > 0
}

// stageName is the stage's name inside pairing (unique and free of '#'),
// so qualifier placeholders read "s12#1".
func stageName(stageID int64) string { return "s" + strconv.FormatInt(stageID, 10) }

// QualifierPlaceholder reports whether a slot id names a qualifier of an
// earlier stage, and which one (stage id, 1-based number).
func QualifierPlaceholder(id string) (stageID int64, k int, ok bool) {
	name, num, found := strings.Cut(id, "#")
	if !found || !strings.HasPrefix(name, "s") {
		return 0, 0, false
	}
	sid, err1 := strconv.ParseInt(name[1:], 10, 64)
	n, err2 := strconv.Atoi(num)
	return sid, n, err1 == nil && err2 == nil
}

// StageSlots decodes a stage's stored slots.
func StageSlots(st store.KnockoutStage) ([]string, error) {
	var slots []string
	if err := json.Unmarshal([]byte(st.Slots), &slots); err != nil {
		return nil, fmt.Errorf("stage %d slots: %w", st.ID, err)
	}
	return slots, nil
}

// StageRoundDates decodes a stage's round dates (index 0 is round 1).
func StageRoundDates(st store.KnockoutStage) []string {
	var ds []string
	_ = json.Unmarshal([]byte(st.RoundDates), &ds) // written only by office; bad JSON reads as no dates
	return ds
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "{}"
	}
	return string(b)
}
