package web

import (
	"strings"
	"testing"

	"kisen/office"
	"kisen/web/site"
)

// Issue 26: every message the recorder's live record can be shown with
// (refused moves, the rules' facts) exists in Japanese and English, and
// the Japanese has no English in it.
func TestRecorderWeb_MessagesLocalised(t *testing.T) {
	t.Parallel()
	m, err := site.LoadMessages()
	if err != nil {
		t.Fatal(err)
	}
	ids := office.RecorderMessageIDs()
	if len(ids) < 30 {
		t.Fatalf("only %d message ids", len(ids))
	}
	args := []any{"Ply", 12, "Move", "▲２二飛", "Max", 500, "Count", 3, "Left", 15,
		"Sente", 27, "Gote", 27, "Rule", 24, "Points", 28, "InCamp", 10}
	for _, id := range ids {
		ja, en := m.For("ja").T(id, args...), m.For("en").T(id, args...)
		if !m.Has("ja", id) || !m.Has("en", id) || ja == "" || en == "" || ja == en {
			t.Errorf("%s: ja %q en %q", id, ja, en)
		}
		if strings.Contains(ja+en, "no value") {
			t.Errorf("%s: an argument is not filled: %q %q", id, ja, en)
		}
		if w := englishIn(ja); w != "" {
			t.Errorf("%s: Japanese message %q contains English %q", id, ja, w)
		}
	}
}
