package day_test

import (
	"testing"

	"kisen/office/day"
	"kisen/store"
)

// SuggestPlayers: spaces, kana and 異体字 make no difference; a reading
// alone or a name alone suggests, weaker (issue 23 §1).
func TestSuggestPlayers_Table(t *testing.T) {
	t.Parallel()
	reg := []store.Player{
		{ID: 1, Name: "高橋 悠斗", Reading: "たかはし ゆうと"},
		{ID: 2, Name: "渡辺葵", Reading: "わたなべ あおい"},
		{ID: 3, Name: "髙橋一郎", Reading: "たかはしいちろう"},
		{ID: 4, Name: "高橋優斗", Reading: "たかはしゆうと"},
		{ID: 5, Name: "山﨑翔", Reading: "やまざきしょう"},
		{ID: 6, Name: "龍之介", Reading: "りゅうのすけ"},
	}
	type want struct {
		id   int64
		kind string
	}
	cases := []struct {
		name, reading string
		want          []want
	}{
		{"高橋悠斗", "たかはしゆうと", []want{{1, day.MatchSame}, {4, day.MatchReading}}},
		{"高橋　悠斗", "", []want{{1, day.MatchSame}}},
		{"渡辺 葵", "ワタナベアオイ", []want{{2, day.MatchSame}}},
		{"渡邊葵", "わたなべ あおい", []want{{2, day.MatchSame}}},
		{"高橋一郎", "タカハシ イチロウ", []want{{3, day.MatchSame}}},
		{"山崎翔", "やまさきしょう", []want{{5, day.MatchName}}},
		{"渡部葵", "わたなべあおい", []want{{2, day.MatchReading}}},
		{"竜之介", "りゅうのすけ", []want{{6, day.MatchReading}}}, // 龍 is not folded
		{"佐藤蓮", "さとうれん", nil},
		{"", "たかはしゆうと", nil},
	}
	for _, c := range cases {
		got := day.SuggestPlayers(reg, c.name, c.reading)
		if len(got) != len(c.want) {
			t.Errorf("SuggestPlayers(%q, %q) = %d suggestions %+v, want %v", c.name, c.reading, len(got), got, c.want)
			continue
		}
		for i, w := range c.want {
			if got[i].Player.ID != w.id || got[i].Kind != w.kind {
				t.Errorf("SuggestPlayers(%q, %q)[%d] = %d %s, want %d %s", c.name, c.reading, i, got[i].Player.ID, got[i].Kind, w.id, w.kind)
			}
		}
	}
	if p, ok := day.OneSame(day.SuggestPlayers(reg, "高橋悠斗", "たかはしゆうと")); !ok || p.ID != 1 {
		t.Errorf("OneSame = %d %v, want player 1", p.ID, ok)
	}
	two := append(reg, store.Player{ID: 7, Name: "高橋悠斗", Reading: "たかはしゆうと"})
	if _, ok := day.OneSame(day.SuggestPlayers(two, "高橋悠斗", "たかはしゆうと")); ok {
		t.Error("OneSame with two namesakes of the same reading chose one")
	}
}
