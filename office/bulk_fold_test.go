package office_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"kisen/office"
	"kisen/office/officetest"
	"kisen/store"
	"kisen/store/storetest"
)

// Pasting entrants into a stage finds a player by their name typed without
// the space, by their reading in either kana with spaces, and by an 異体字
// of their name; a line that could mean several players names them
// (issue 23 §1: 「高橋悠斗」 and 「わたなべ あおい」 were refused with no
// suggestion).
func TestAddEntrants_FoldedNameAndReading(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		k := officetest.NewKnockoutFixture(t, s)
		st, err := k.O.CreateStage(k.Ctx, k.Director, office.StageInput{EventID: k.Event.ID, Name: "本戦", Kind: "main"})
		if err != nil {
			t.Fatal(err)
		}
		now := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
		add := func(name, reading string) store.Player {
			p := store.Player{Name: name, Reading: reading, Kind: store.PlayerAmateur, CreatedAt: now, UpdatedAt: now}
			if err := s.CreatePlayer(k.Ctx, &p); err != nil {
				t.Fatal(err)
			}
			return p
		}
		takahashi := add("高橋 悠斗", "たかはし ゆうと")
		watanabe := add("渡邊葵", "わたなべ あおい")
		yamazaki := add("山﨑翔", "やまざき しょう")
		add("佐藤 蓮", "さとう れん")
		add("佐藤蓮", "さとう れん")

		_, err = k.O.AddEntrants(k.Ctx, k.Director, st.ID, "サトウ　レン\n")
		var ve *office.ValidationError
		if !errors.As(err, &ve) || len(ve.Fields) != 1 || ve.Fields[0].Code != "bulk.err.player_ambiguous_among" {
			t.Fatalf("two さとう れん: %v", err)
		}
		if names, _ := ve.Fields[0].Args["Names"].(string); strings.Count(names, "佐藤") != 2 {
			t.Errorf("the ambiguous line names %q, want both players", names)
		}

		n, err := k.O.AddEntrants(k.Ctx, k.Director, st.ID, "高橋悠斗\nワタナベ　アオイ\n山崎翔\n")
		if err != nil || n != 3 {
			t.Fatalf("AddEntrants = %d, %v; want 3 added", n, err)
		}
		es, err := s.EntrantsOfStage(k.Ctx, st.ID)
		if err != nil {
			t.Fatal(err)
		}
		got := map[int64]bool{}
		for _, e := range es {
			got[e.PlayerID] = true
		}
		for _, p := range []store.Player{takahashi, watanabe, yamazaki} {
			if !got[p.ID] {
				t.Errorf("%s not entered", p.Name)
			}
		}
	})
}
