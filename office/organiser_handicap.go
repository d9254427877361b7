package office

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strconv"
	"strings"

	"kisen/pairing"
	"kisen/store"
)

// OrganiserHandicap is an organiser's own 手合割 table (the settings key
// handicap_table, D-H, 004). Own is false when the organiser has none (or
// an unreadable one) and Table is pairing's default table of 004.
type OrganiserHandicap struct {
	Organiser store.Organiser
	Table     pairing.HandicapTable
	Own       bool
}

// OrganiserHandicapTable reads an organiser's table (administrators, like
// the rest of the organiser's settings).
func (o *Office) OrganiserHandicapTable(ctx context.Context, actor Actor, organiserID int64) (OrganiserHandicap, error) {
	if err := actor.RequireAdmin(); err != nil {
		return OrganiserHandicap{}, err
	}
	org, err := o.store.OrganiserByID(ctx, organiserID)
	if err != nil {
		return OrganiserHandicap{}, err
	}
	h := OrganiserHandicap{Organiser: org, Table: pairing.DefaultHandicapTable()}
	if t := PairingTable(parseHandicapSettings(org.Settings).Table); len(t) > 0 && t.Validate() == nil {
		h.Table, h.Own = t, true
	}
	return h, nil
}

// SetOrganiserHandicapTable saves an organiser's 手合割 table as typed on
// the form (one "gap handicap" row a line, read by ParseHandicapTable and
// validated by pairing). Text with no rows removes the organiser's table,
// so its events fall back to the default table of 004. Events created
// later copy it with the rest of the settings; events already created keep
// theirs. Other settings keys are kept.
func (o *Office) SetOrganiserHandicapTable(ctx context.Context, actor Actor, organiserID int64, text string) error {
	if err := actor.RequireAdmin(); err != nil {
		return err
	}
	clear := strings.TrimSpace(strings.ReplaceAll(text, "　", " ")) == ""
	var t pairing.HandicapTable
	if !clear {
		var v *ValidationError
		t, v = ParseHandicapTable(text)
		if err := v.OrNil(); err != nil {
			return err
		}
	}
	return o.store.Tx(ctx, func(tx *store.Store) error {
		org, err := tx.OrganiserByID(ctx, organiserID)
		if err != nil {
			return err
		}
		all := map[string]json.RawMessage{}
		_ = json.Unmarshal([]byte(org.Settings), &all) // unreadable JSON is replaced, as on the event form
		if all == nil {
			all = map[string]json.RawMessage{}
		}
		if clear {
			delete(all, "handicap_table")
		} else {
			all["handicap_table"] = json.RawMessage(mustJSON(StoredTable(t)))
		}
		return tx.SetOrganiserSettings(ctx, organiserID, mustJSON(all), o.now())
	})
}

// handicapFieldIndex reads the row index out of pairing's field name
// ("handicap_table[3].handicap").
var handicapFieldIndex = regexp.MustCompile(`^handicap_table\[(\d+)\]\.(min_gap|handicap)$`)

// handicapReason is the message id and arguments for pairing's refusal
// of t: one id per rule of pairing.HandicapTable.Validate. Pairing names
// the failing field (row and column); which of its rules failed follows
// from that row. A refusal it cannot place (a rule pairing adds later)
// gets the generic knockout.err.handicap.invalid, never pairing's English.
func handicapReason(err error, t pairing.HandicapTable) (string, map[string]any) {
	var fe *pairing.FieldError
	if errors.As(err, &fe) {
		if code, args, ok := handicapReasonCode(fe, t); ok {
			return code, args
		}
	}
	return "knockout.err.handicap.invalid", nil
}

// handicapReasonCode maps one pairing validation error to a message id and
// its arguments (Row counts from 1 in the table as typed, blank lines left
// out).
func handicapReasonCode(fe *pairing.FieldError, t pairing.HandicapTable) (string, map[string]any, bool) {
	if fe.Field == "handicap_table" {
		return "knockout.err.handicap.empty", nil, true
	}
	m := handicapFieldIndex.FindStringSubmatch(fe.Field)
	if m == nil {
		return "", nil, false
	}
	i, err := strconv.Atoi(m[1])
	if err != nil || i < 0 || i >= len(t) {
		return "", nil, false
	}
	r := t[i]
	args := map[string]any{"Row": i + 1, "Gap": r.MinGap, "Handicap": string(r.Handicap)}
	switch {
	case m[2] == "min_gap" && i == 0:
		return "knockout.err.handicap.first_gap", args, true
	case m[2] == "min_gap":
		args["Previous"] = t[i-1].MinGap
		return "knockout.err.handicap.gap_order", args, true
	case !r.Handicap.Known():
		return "knockout.err.handicap.unknown", args, true
	case r.Handicap == pairing.EvenByToss:
		return "knockout.err.handicap.toss_later", args, true
	case i > 0:
		args["Previous"] = string(t[i-1].Handicap)
		return "knockout.err.handicap.even_after", args, true
	}
	return "", nil, false
}
