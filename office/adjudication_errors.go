package office

import (
	"errors"
	"regexp"
	"strings"

	"kisen/adjudication"
)

// factsRule turns one kind of the adjudication room's field errors into a
// message id of web/site/locales/*/adjudication.json. The room reports a JSON
// path and an English sentence; several reasons share a path (e.g.
// "ending.kind"), so a fragment of the sentence tells them apart. The
// user never sees the English: every rule has its own message in both
// languages, and anything unforeseen gets a general one.
type factsRule struct {
	field  string // the room's path with [n] indexes removed
	prefix bool   // field is a prefix of the path (a nested value)
	msg    string // a fragment of the room's message; "" matches any
	form   string // the form field the message is shown next to
	code   string
}

// factsRules: the first match wins, so specific fragments come before the
// catch-all of the same field.
var factsRules = []factsRule{
	{field: "ending.by", msg: "arbiter's foul loss", form: "by", code: "adjudication.err.end_by_foul_loss"},
	{field: "ending.by", msg: "offender of the foul", form: "by", code: "adjudication.err.end_by_foul_offender"},
	{field: "ending.by", msg: "side that was mated", form: "by", code: "adjudication.err.end_by_mated"},
	{field: "ending.by", msg: "declares on one's own turn", form: "by", code: "adjudication.err.end_by_declarer_turn"},
	{field: "ending.by", msg: "forfeit names", form: "by", code: "adjudication.err.end_by_forfeit"},
	{field: "ending.by", msg: "happens to neither side", form: "by", code: "adjudication.err.end_by_none"},
	{field: "ending.by", form: "by", code: "adjudication.err.end_by"},
	{field: "ending.kind", msg: "not checkmate", form: "kind", code: "adjudication.err.end_mate_not_mate"},
	{field: "ending.kind", msg: "500-move", form: "kind", code: "adjudication.err.end_max_moves_short"},
	{field: "ending.kind", msg: "4th occurrence", form: "kind", code: "adjudication.err.end_sennichite_not_repeated"},
	{field: "ending.kind", msg: "declaration is none", form: "kind", code: "adjudication.err.end_declaration_none"},
	{field: "ending.kind", msg: "forfeited game", form: "kind", code: "adjudication.err.end_forfeit_has_moves"},
	{field: "ending.kind", msg: "could not be settled", form: "kind", code: "adjudication.err.end_unsettled"},
	{field: "ending.kind", form: "kind", code: "adjudication.err.end_kind"},
	{field: "ending.foul", form: "foul", code: "adjudication.err.end_foul"},
	{field: "ending.both_absent", form: "by", code: "adjudication.err.end_both_absent"},
	{field: "ending.ply", form: "kind", code: "adjudication.err.end_ply"},
	{field: "ending", prefix: true, form: "kind", code: "adjudication.err.end_kind"},
	{field: "points", msg: "needs both sides", form: "points_sente", code: "adjudication.err.points_required"},
	{field: "points", prefix: true, form: "points_sente", code: "adjudication.err.points"},
	{field: "remaining", prefix: true, form: "remaining_sente", code: "adjudication.err.remaining"},
	{field: "declaration", prefix: true, form: "kind", code: "adjudication.err.declaration_facts"},
	{field: "fouls", msg: "not played", form: "claim", code: "adjudication.err.claim_forfeit"},
	{field: "fouls", msg: "both count from ply", form: "ply", code: "adjudication.err.claim_same_ply"},
	{field: "fouls.ply", msg: "record's last move", form: "ply", code: "adjudication.err.claim_ply_after_record"},
	{field: "fouls.ply", msg: "game's last move", form: "ply", code: "adjudication.err.claim_ply_after_end"},
	{field: "fouls.ply", form: "ply", code: "adjudication.err.claim_ply"},
	{field: "fouls.kind", form: "foul", code: "adjudication.err.end_foul"},
	{field: "fouls.offender", form: "offender", code: "adjudication.err.side"},
	{field: "fouls.found", form: "found", code: "adjudication.err.found"},
	{field: "fouls.next_game_started", form: "next_game", code: "adjudication.err.claim_next_game"},
	{field: "fouls.next_game.reason", form: "next_game_reason", code: "adjudication.err.next_game_reason"},
	{field: "fouls.next_game", prefix: true, form: "next_game", code: "adjudication.err.next_game"},
	{field: "fouls.claimed_by", form: "claim", code: "adjudication.err.claim_claimant"},
	{field: "fouls", prefix: true, form: "claim", code: "adjudication.err.claim_invalid"},
	{field: "rulings", msg: "both sente and gote", form: "supersedes", code: "adjudication.err.rulings_both_foul_losses"},
	{field: "rulings", msg: "not played", form: "supersedes", code: "adjudication.err.rulings_forfeit"},
	{field: "rulings.supersedes", msg: "already superseded", form: "supersedes", code: "adjudication.err.supersedes_twice"},
	{field: "rulings.supersedes", msg: "no ruling has id", form: "supersedes", code: "adjudication.err.supersedes_missing"},
	{field: "rulings.supersedes", msg: "only superseded by a later one", form: "supersedes", code: "adjudication.err.rulings_order"},
	{field: "rulings.supersedes", msg: "cycle", form: "supersedes", code: "adjudication.err.rulings_cycle"},
	{field: "rulings", prefix: true, form: "supersedes", code: "adjudication.err.rulings_invalid"},
	{field: "settings", prefix: true, form: "", code: "adjudication.err.event_settings"},
	{field: "handicap", form: "", code: "adjudication.err.record_handicap_stored"},
	{field: "record", form: "", code: "adjudication.err.record_unreadable"},
	{field: "format", form: "", code: "adjudication.err.record_unreadable"},
	{field: "start", form: "", code: "adjudication.err.record_unreadable"},
	{field: "moves", prefix: true, form: "", code: "adjudication.err.record_unreadable"},
}

// factsFallback is the message for a field error no rule names.
const factsFallback = "adjudication.err.facts_invalid"

var pathIndex = regexp.MustCompile(`\[\d+\]`)

// factsMessage is the form field and message id for one room error.
func factsMessage(fe *adjudication.FieldError) (form, code string) {
	path := pathIndex.ReplaceAllString(fe.Field, "")
	for _, r := range factsRules {
		if path != r.field && !(r.prefix && strings.HasPrefix(path, r.field+".")) {
			continue
		}
		if r.msg != "" && !strings.Contains(fe.Msg, r.msg) {
			continue
		}
		return r.form, r.code
	}
	return "", factsFallback
}

// FactsMessageIDs lists every message id a room error can be shown with
// (for the locale tests).
func FactsMessageIDs() []string {
	seen := map[string]bool{factsFallback: true}
	out := []string{factsFallback}
	for _, r := range factsRules {
		if !seen[r.code] {
			seen[r.code] = true
			out = append(out, r.code)
		}
	}
	return out
}

// factsError turns the room's field error into a localised form error;
// other errors pass through.
func factsError(err error) error {
	var fe *adjudication.FieldError
	if !errors.As(err, &fe) {
		return err
	}
	form, code := factsMessage(fe)
	v := &ValidationError{}
	v.Add(0, form, code, nil)
	return v
}
