package office

import (
	"unicode/utf8"

	"kisen/adjudication"
)

// Text limits (issue 21 item 7, docs/input.md "Lengths"): every free text a
// person types has a stated length, counted in characters (runes) after
// trimming, checked here in the office so the web, the API and the command
// line refuse alike, with a message naming the field and the limit. The
// table in docs/input.md lists them; TestTextLimits_DocumentedTableMatches
// keeps the two together.
const (
	// MaxNoteLen bounds a result's note (備考), whatever path enters the
	// result: the forms, the API, the quick result, a ruling's outcome.
	MaxNoteLen = 2000
	// MaxReasonLen bounds every reason: a ruling, an undo, an unpublish, a
	// correction that voids later games, a league schedule override, a
	// withdrawal, a redrawn draw, a settings unlock.
	MaxReasonLen = 2000
	// MaxGameLabelLen bounds a game's label ("R1-G1", "決勝 第3局").
	MaxGameLabelLen = 100
	// MaxNameLen bounds the names of events, organisers, stages, terms and
	// day classes, and an event's venue (checkName).
	MaxNameLen = maxNameLen
	// MaxOrganiserNoteLen bounds an organiser's note.
	MaxOrganiserNoteLen = maxNoteLen
	// MaxRecordBytes bounds a pasted or uploaded game record before it is
	// read; MaxRecordPlies bounds what it holds.
	MaxRecordBytes = maxRecordBytes
	// MaxRecordPlies is the longest game the rules allow
	// (adjudication.MaxRecordPlies: the 500-move rule and the series of
	// checks it lets finish).
	MaxRecordPlies = adjudication.MaxRecordPlies
)

// TextLimit is one row of the documented table.
type TextLimit struct {
	Field string // the form and API field names
	Max   int
	Unit  string // "characters", "bytes" or "moves"
}

// TextLimits is every limit in force, as docs/input.md lists it.
func TextLimits() []TextLimit {
	return []TextLimit{
		{"note (result)", MaxNoteLen, "characters"},
		{"reason, correction_reason", MaxReasonLen, "characters"},
		{"label (game)", MaxGameLabelLen, "characters"},
		{"name, name_en, venue (event, organiser, stage, term, day class)", MaxNameLen, "characters"},
		{"note (organiser)", MaxOrganiserNoteLen, "characters"},
		{"display_name (account)", MaxDisplayName, "characters"},
		{"name, reading, affiliation… (player)", playerMaxLen, "characters"},
		{"relation (player relative)", maxRelationLen, "characters"},
		{"name (API token)", maxTokenName, "characters"},
		{"record", MaxRecordBytes, "bytes"},
		{"record", MaxRecordPlies, "moves"},
	}
}

// checkTextLen adds field's too-long error to v when s is longer than max
// characters; kind names the field in the message ("note", "reason",
// "label"). It reports whether s fits.
func checkTextLen(v *ValidationError, field, kind, s string, max int) bool {
	n := utf8.RuneCountInString(s)
	if n <= max {
		return true
	}
	v.Add(0, field, "limits.err.too_long."+kind, map[string]any{"Max": max, "Len": n})
	return false
}
