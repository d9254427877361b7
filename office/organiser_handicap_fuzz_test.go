package office

import (
	"errors"
	"testing"

	"kisen/pairing"
)

// FuzzOrganiserHandicapReason (D-H, 004): for any typed table, the form's
// reader plus the reason mapping either accept a table pairing validates,
// or refuse with exactly one of the known message ids, whose row argument
// points into the table; a table refused for its content always gets a
// localised rule, never pairing's English text.
func FuzzOrganiserHandicapReason(f *testing.F) {
	for _, s := range []string{
		"0 振り駒\n1 平手\n2 香落ち\n", "1 平手\n", "0 振り駒\n1 平手\n1 香落ち\n", "0 振り駒\n2 飛角落ち\n",
		"0 平手\n1 振り駒\n", "0 振り駒\n1 香落ち\n2 平手\n", "x", "", "0 振り駒\n\n\n3 角落ち\r\n", "-1 平手",
	} {
		f.Add(s)
	}
	known := map[string]bool{
		"knockout.err.handicap_line": true, "knockout.err.handicap.empty": true, "knockout.err.handicap.first_gap": true,
		"knockout.err.handicap.gap_order": true, "knockout.err.handicap.unknown": true,
		"knockout.err.handicap.toss_later": true, "knockout.err.handicap.even_after": true,
	}
	f.Fuzz(func(t *testing.T, text string) {
		table, v := ParseHandicapTable(text)
		if len(v.Fields) == 0 {
			if err := table.Validate(); err != nil {
				t.Fatalf("accepted a table pairing refuses: %v", err)
			}
			return
		}
		lineErrors := false
		for _, fe := range v.Fields {
			if !known[fe.Code] {
				t.Fatalf("unmapped reason %q (%v) for %q", fe.Code, fe.Args, text)
			}
			if fe.Code == "knockout.err.handicap_line" {
				lineErrors = true
				continue
			}
			if row, ok := fe.Args["Row"].(int); ok && (row < 1 || row > len(table)) {
				t.Fatalf("row %d outside a table of %d rows", row, len(table))
			}
		}
		if !lineErrors && table.Validate() == nil {
			t.Fatalf("refused a valid table %q: %v", text, v)
		}
		if !lineErrors && len(v.Fields) != 1 {
			t.Fatalf("%d reasons for one invalid table", len(v.Fields))
		}
	})
}

// TestHandicapReason_UnplacedRefusalIsGenericNotEnglish_D_H: a refusal the
// mapping cannot place (not a pairing field, or a field it does not know)
// gets the generic message id without arguments — pairing's English text
// is never an argument for a page.
func TestHandicapReason_UnplacedRefusalIsGenericNotEnglish_D_H(t *testing.T) {
	t.Parallel()
	table := pairing.HandicapTable{{MinGap: 0, Handicap: pairing.EvenByToss}}
	for _, err := range []error{errors.New("some new rule"), &pairing.FieldError{Field: "handicap_table[7].other", Reason: "x"}} {
		code, args := handicapReason(err, table)
		if code != "knockout.err.handicap.invalid" || len(args) != 0 {
			t.Errorf("%v: %s %v", err, code, args)
		}
	}
}
