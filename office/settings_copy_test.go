package office_test

import (
	"encoding/json"
	"testing"

	"kisen/office"
	"kisen/store"
	"kisen/store/storetest"
)

// settingKeys are every adjudication setting an event must hold
// explicitly (docs/adjudication-web.md), written out here rather than
// derived from the code that writes them.
var settingKeys = []string{
	"kind", "jishogi", "jishogi_27_tie", "declaration", "resignation_priority", "clock_hand",
	"repeated_redo.after", "repeated_redo.then", "redo_counts_as_game",
	"time.allowance", "time.timing", "time.byoyomi", "time.redo_top_up", "time.short_allowance_redo",
	"require_confirmation",
}

// flatKeys lists the dotted paths of a JSON object's leaves.
func flatKeys(t *testing.T, raw string) map[string]bool {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(raw), &m); err != nil {
		t.Fatalf("settings %q: %v", raw, err)
	}
	out := map[string]bool{}
	var walk func(prefix string, m map[string]any)
	walk = func(prefix string, m map[string]any) {
		for k, v := range m {
			if sub, ok := v.(map[string]any); ok {
				walk(prefix+k+".", sub)
				continue
			}
			out[prefix+k] = true
		}
	}
	walk("", m)
	return out
}

func TestSettings_EventStoresCompleteSettingsFromEmptyOrganiser(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		_, admin := f.user("admin", "correct horse battery", true)
		org := f.organiser(`{"pairing_note":"kept"}`) // never saved: no adjudication key at all
		e := f.event(admin, org.ID, "第1期テスト戦")
		keys := flatKeys(t, e.Settings)
		for _, k := range settingKeys {
			if !keys[k] {
				t.Errorf("event settings %s lack %s", e.Settings, k)
			}
		}
		if !keys["pairing_note"] {
			t.Errorf("event settings %s lost the other area's key", e.Settings)
		}
		// Decoded over a zero value (no defaults filled in), the stored
		// JSON is the federation's rules: a later change of the defaults
		// cannot change what the event means.
		var got office.EventSettings
		if err := json.Unmarshal([]byte(e.Settings), &got); err != nil {
			t.Fatal(err)
		}
		if got.Kind != "official" || got.Jishogi != "24" || got.Declaration != "federation" || got.Time.Allowance.D().Hours() != 6 ||
			got.Time.Byoyomi != "60s" || !got.Time.RedoTopUp || got.RequireConfirmation {
			t.Fatalf("stored settings %+v are not the federation's rules", got)
		}
		before, err := s.EventByID(f.ctx, e.ID)
		if err != nil {
			t.Fatal(err)
		}
		form := office.FormOf(office.DefaultEventSettings())
		form.Kind, form.Jishogi, form.AllowanceMinutes = "amateur", "27", "30"
		if err := f.o.SetOrganiserSettings(f.ctx, admin, org.ID, form); err != nil {
			t.Fatal(err)
		}
		after, err := s.EventByID(f.ctx, e.ID)
		if err != nil {
			t.Fatal(err)
		}
		if after.Settings != before.Settings {
			t.Fatalf("changing the organiser changed the event: %q → %q", before.Settings, after.Settings)
		}
	})
}

func TestSettings_EventRefusesInvalidOrganiserSettings(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		_, admin := f.user("admin", "correct horse battery", true)
		for _, raw := range []string{`{"jishogi":"27"}`, `{"time":{"byoyomi":"7s"}}`, `not json`} {
			org := f.organiser(raw)
			_, err := f.o.CreateEvent(f.ctx, admin, office.EventInput{OrganiserID: org.ID, Name: "棋戦", Kind: office.EventKnockout,
				StartDate: "2026-11-01", EndDate: "2026-11-02"})
			if fieldCodes(err)["organiser_id"] != "adjudication.err.organiser_settings" {
				t.Errorf("organiser settings %s: %v; want a message on the organiser", raw, err)
			}
		}
		if evs, _ := s.Events(f.ctx, store.EventFilter{}); len(evs) != 0 {
			t.Fatalf("refused events were stored: %d", len(evs))
		}
	})
}
