package day

import (
	"context"
	"strings"
	"testing"

	"kisen/office/day"
	"kisen/pairing"
	"kisen/web/site"
)

// A Swiss round that cannot keep the colour rules (docs/swiss.md) is
// previewed with each break in words: the player's name, the board and
// the seat, never the rule's id (issue 23 §6).
func TestColourBreakWords_NameThePlayerAndTheBoard(t *testing.T) {
	t.Parallel()
	m, err := site.LoadMessages()
	if err != nil {
		t.Fatal(err)
	}
	p := day.RoundPreview{
		Boards: []day.DrawnBoard{{Board: 3, Sente: 11, Gote: 12, SenteName: "山田 太郎", GoteName: "鈴木 花子"}},
		ColourBreaks: []day.ColourBreak{
			{PlayerID: 11, Board: 3, Sente: true, Rule: pairing.RuleSwissThirdInARow},
			{PlayerID: 12, Board: 3, Rule: pairing.RuleSwissBalance, Limit: 1},
		},
	}
	want := map[string][2][]string{
		"ja": {{"山田 太郎", "3番盤", "先手", "3局続けて"}, {"鈴木 花子", "3番盤", "後手", "1を超えます"}},
		"en": {{"山田 太郎", "board 3", "Sente", "third game in a row"}, {"鈴木 花子", "board 3", "Gote", "more than 1"}},
	}
	for lang, w := range want {
		got := colourBreakWords(site.WithLocalizer(context.Background(), m.For(lang)), p)
		if len(got) != 2 {
			t.Fatalf("%s: %d lines, want 2: %q", lang, len(got), got)
		}
		for i, line := range got {
			for _, part := range w[i] {
				if !strings.Contains(line, part) {
					t.Errorf("%s line %d %q lacks %q", lang, i, line, part)
				}
			}
			if strings.Contains(line, "swiss-") || strings.Contains(line, "day_seats.") {
				t.Errorf("%s line %d shows an id: %q", lang, i, line)
			}
		}
	}
}
