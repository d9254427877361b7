package site

import (
	"strings"
	"testing"
)

// TestWords_UnpublishLogLinesAreSentences: the draw log and the schedule
// log say an unpublication in words with the number of games made void,
// never the action's code name.
func TestWords_UnpublishLogLinesAreSentences(t *testing.T) {
	t.Parallel()
	msgs, err := LoadMessages()
	if err != nil {
		t.Fatal(err)
	}
	name := func(id string) string { return id }
	for _, lang := range []string{"ja", "en"} {
		ctx := WithLocalizer(t.Context(), msgs.For(lang))
		for _, s := range []string{
			DrawLogSentence(ctx, "unpublish", `{"voided":[11,12,13]}`, name),
			LeagueLogSentence(ctx, "unpublish", `{"voided":[11,12,13]}`, "", name),
		} {
			if strings.Contains(s, "unpublish") || !strings.Contains(s, "3") {
				t.Errorf("%s: %q", lang, s)
			}
		}
	}
}
