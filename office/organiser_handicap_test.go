package office_test

import (
	"encoding/json"
	"errors"
	"testing"

	"kisen/office"
	"kisen/pairing"
	"kisen/store"
	"kisen/store/storetest"
)

func TestOrganiserHandicap_D_H_TableCopiedIntoNewEvents(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		_, admin := f.user("admin", "correct horse battery", true)
		_, someone := f.user("someone", "correct horse battery", false)
		org := f.organiser(`{"require_confirmation": true}`)

		h, err := f.o.OrganiserHandicapTable(f.ctx, admin, org.ID)
		if err != nil || h.Own || len(h.Table) == 0 || h.Table[0].Handicap != pairing.EvenByToss {
			t.Fatalf("before any table: %+v, %v; want pairing's default, not own", h, err)
		}
		own := pairing.HandicapTable{{MinGap: 0, Handicap: "振り駒"}, {MinGap: 1, Handicap: "平手"}, {MinGap: 2, Handicap: "角落ち"}, {MinGap: 4, Handicap: "二枚落ち"}}
		// Typed with blank lines, a tab and a full-width space: the form's forgiving reader.
		if err := f.o.SetOrganiserHandicapTable(f.ctx, admin, org.ID, "0 振り駒\r\n\n1\t平手\n2　角落ち\n4 二枚落ち\n"); err != nil {
			t.Fatal(err)
		}
		h, err = f.o.OrganiserHandicapTable(f.ctx, admin, org.ID)
		if err != nil || !h.Own || !equalTables(h.Table, own) {
			t.Fatalf("after saving: %+v, %v; want own table %v", h, err, own)
		}
		stored, err := s.OrganiserByID(f.ctx, org.ID)
		if err != nil {
			t.Fatal(err)
		}
		var keys map[string]json.RawMessage
		if err := json.Unmarshal([]byte(stored.Settings), &keys); err != nil || string(keys["require_confirmation"]) != "true" {
			t.Fatalf("other settings keys lost: %s", stored.Settings)
		}

		// A new event copies the table; changing the organiser's later
		// leaves the event's copy alone.
		ev := f.event(admin, org.ID, "アマ大会")
		if err := f.o.SetOrganiserHandicapTable(f.ctx, admin, org.ID, "0 振り駒\n1 平手\n2 香落ち\n"); err != nil {
			t.Fatal(err)
		}
		eh, err := f.o.EventHandicap(f.ctx, admin, ev.ID)
		if err != nil || eh.Default || !equalTables(eh.Table, own) {
			t.Fatalf("event created with the organiser's table: %+v, %v; want %v", eh, err, own)
		}

		// Saving an empty form removes the organiser's table.
		if err := f.o.SetOrganiserHandicapTable(f.ctx, admin, org.ID, " \n　\n"); err != nil {
			t.Fatal(err)
		}
		if h, err := f.o.OrganiserHandicapTable(f.ctx, admin, org.ID); err != nil || h.Own {
			t.Fatalf("after clearing: %+v, %v; want no own table", h, err)
		}

		for name, a := range map[string]office.Actor{"public": {}, "user": someone} {
			if err := f.o.SetOrganiserHandicapTable(f.ctx, a, org.ID, "0 振り駒\n"); !errors.Is(err, office.ErrForbidden) {
				t.Errorf("%s saves: %v, want ErrForbidden", name, err)
			}
			if _, err := f.o.OrganiserHandicapTable(f.ctx, a, org.ID); !errors.Is(err, office.ErrForbidden) {
				t.Errorf("%s reads: %v, want ErrForbidden", name, err)
			}
		}
		if err := f.o.SetOrganiserHandicapTable(f.ctx, admin, 999999, "0 振り駒\n"); !errors.Is(err, office.ErrNotFound) {
			t.Errorf("unknown organiser: %v, want ErrNotFound", err)
		}
	})
}

func equalTables(a, b pairing.HandicapTable) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Each of pairing's table rules (D-H, 004) comes back as its own message
// id with the row it concerns, and a refused table leaves the settings as
// they were.
func TestOrganiserHandicap_D_H_PairingReasonsLocalised(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		_, admin := f.user("admin", "correct horse battery", true)
		org := f.organiser(`{"handicap_table": [{"min_gap": 0, "handicap": "振り駒"}]}`)
		cases := []struct {
			name, text, code string
			args             map[string]any
		}{
			{"unreadable line", "0 振り駒\nふたつ 香落ち\n", "knockout.err.handicap_line", map[string]any{"Line": 2}},
			{"first row not at 0", "1 平手\n2 香落ち\n", "knockout.err.handicap.first_gap", map[string]any{"Row": 1, "Gap": 1, "Handicap": "平手"}},
			{"gap does not increase", "0 振り駒\n\n2 平手\n2 香落ち\n", "knockout.err.handicap.gap_order", map[string]any{"Row": 3, "Gap": 2, "Handicap": "香落ち", "Previous": 2}},
			{"unknown name", "0 振り駒\n1 平手\n2 飛角落ち\n", "knockout.err.handicap.unknown", map[string]any{"Row": 3, "Gap": 2, "Handicap": "飛角落ち"}},
			{"toss after gap 0", "0 平手\n1 振り駒\n", "knockout.err.handicap.toss_later", map[string]any{"Row": 2, "Gap": 1, "Handicap": "振り駒"}},
			{"even after a handicap", "0 振り駒\n1 香落ち\n2 平手\n", "knockout.err.handicap.even_after", map[string]any{"Row": 3, "Gap": 2, "Handicap": "平手", "Previous": "香落ち"}},
		}
		for _, tc := range cases {
			err := f.o.SetOrganiserHandicapTable(f.ctx, admin, org.ID, tc.text)
			var ve *office.ValidationError
			if !errors.As(err, &ve) || len(ve.Fields) != 1 {
				t.Fatalf("%s: %v, want one field error", tc.name, err)
			}
			fe := ve.Fields[0]
			if fe.Field != "table" || fe.Code != tc.code {
				t.Errorf("%s: field %q code %q, want table %s", tc.name, fe.Field, fe.Code, tc.code)
			}
			for k, v := range tc.args {
				if fe.Args[k] != v {
					t.Errorf("%s: argument %s = %v, want %v", tc.name, k, fe.Args[k], v)
				}
			}
		}
		after, err := s.OrganiserByID(f.ctx, org.ID)
		if err != nil || after.Settings != org.Settings {
			t.Fatalf("refused tables changed the settings: %q, %v", after.Settings, err)
		}
	})
}
