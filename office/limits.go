package office

import (
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

// Reasons given alone, not as a field of a larger input: each is a
// tagged struct, so its rules are validate tags like every input's. The
// messages differ by where the reason is asked for, as they always have.
type (
	// optionalReason is a withdrawal's or a correction's reason.
	optionalReason struct {
		Reason string `field:"reason" validate:"storable,max=2000" msg:"limits.err,max=too_long.reason"`
	}
	// unpublishReasonInput is why a published draw or schedule is taken back.
	unpublishReasonInput struct {
		Reason string `field:"reason" validate:"storable,required,max=2000" msg:"events.err,required:previews.err.reason_required"`
	}
	// unlockReasonInput is why a started event's settings are unlocked.
	unlockReasonInput struct {
		Reason string `field:"reason" validate:"storable,required,max=2000" msg:"adjudication.err"`
	}
)

// checkReason checks a reason given alone against in's tags (in holds it,
// trimmed) and reports it on field.
func checkReason(v *ValidationError, field string, in any) bool {
	n := len(v.Fields)
	ok := checkInput(v, 0, in)
	for i := n; i < len(v.Fields); i++ {
		v.Fields[i].Field = field
	}
	return ok
}
