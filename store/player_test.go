package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"kisen/store"
	"kisen/store/storetest"
)

var testNow = time.Date(2026, 11, 21, 3, 0, 0, 0, time.UTC)

func day(s string) store.CivilDate {
	d, err := store.ParseCivilDate(s)
	if err != nil {
		panic(err)
	}
	return d
}

func addPlayer(t *testing.T, s *store.Store, name, reading string) store.Player {
	t.Helper()
	p := store.Player{Name: name, Reading: reading, Kind: store.PlayerAmateur, CreatedAt: testNow, UpdatedAt: testNow}
	if err := s.CreatePlayer(context.Background(), &p); err != nil {
		t.Fatalf("create %s: %v", name, err)
	}
	return p
}

func TestSearchKey_FoldsWidthKanaCaseAndSpaces(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want string }{
		{"ﾊﾌﾞ", "はぶ"},
		{"ハブ", "はぶ"},
		{"はぶ", "はぶ"},
		{"ＡＢＣ", "abc"},
		{"AbC", "abc"},
		{"羽生　善治", "羽生善治"},
		{"ヴァ", "ゔぁ"},
		{"１２３", "123"},
	}
	for _, c := range cases {
		if got := store.SearchKey(c.in); got != c.want {
			t.Errorf("SearchKey(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestCivilDate_RoundTripAndOrder(t *testing.T) {
	t.Parallel()
	d := day("2024-02-29")
	if d.String() != "2024-02-29" || d.AddDays(1).String() != "2024-03-01" {
		t.Fatalf("got %s / %s", d, d.AddDays(1))
	}
	if !d.Before(d.AddDays(1)) || d.After(d) {
		t.Fatal("order is wrong")
	}
	jst := time.FixedZone("JST", 9*3600)
	if got := store.CivilDateOf(time.Date(2026, 4, 1, 0, 30, 0, 0, jst)); got.String() != "2026-04-01" {
		t.Fatalf("a draw at 00:30 JST on 1 April is on %s", got)
	}
	for _, bad := range []string{"2024-02-30", "24-1-1", "2024/01/01", "x"} {
		if _, err := store.ParseCivilDate(bad); err == nil {
			t.Errorf("ParseCivilDate(%q) accepted", bad)
		}
	}
}

func TestPlayers_SearchIgnoresWidthKanaAndCase(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		habu := addPlayer(t, s, "羽生 善治", "はぶ よしはる")
		fujii := addPlayer(t, s, "藤井 聡太", "ふじい そうた")
		latin := addPlayer(t, s, "abc", "えーびーしー")
		pct := addPlayer(t, s, "100%_棋士", "ひゃくぱーせんと")
		cases := []struct {
			q    string
			want []int64
		}{
			{"ﾊﾌﾞ", []int64{habu.ID}},
			{"はぶ", []int64{habu.ID}},
			{"ハブ", []int64{habu.ID}},
			{"羽生善治", []int64{habu.ID}},
			{"ＡＢＣ", []int64{latin.ID}},
			{"ABC", []int64{latin.ID}},
			{"%", []int64{pct.ID}},
			{"_", []int64{pct.ID}},
			{"ふじい", []int64{fujii.ID}},
			{"|", []int64{latin.ID, habu.ID, pct.ID, fujii.ID}}, // separator is not searchable: everything
			{"存在しない", nil},
		}
		for _, c := range cases {
			got, total, err := s.SearchPlayers(ctx, store.PlayerSearch{Query: c.q})
			if err != nil {
				t.Fatal(err)
			}
			if int(total) != len(c.want) || len(got) != len(c.want) {
				t.Errorf("query %q: %d results (total %d), want %d", c.q, len(got), total, len(c.want))
				continue
			}
			for i := range got {
				if got[i].ID != c.want[i] {
					t.Errorf("query %q: result %d is %s, want id %d", c.q, i, got[i].Name, c.want[i])
				}
			}
		}
	})
}

func TestPlayers_SortedByReadingAndPaged(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		readings := []string{"わたなべ", "あおの", "ごとう", "かとう", "がとう", "ささき"}
		for i, r := range readings {
			addPlayer(t, s, "棋士"+string(rune('A'+i)), r)
		}
		all, total, err := s.SearchPlayers(ctx, store.PlayerSearch{})
		if err != nil || total != int64(len(readings)) {
			t.Fatalf("total %d err %v", total, err)
		}
		for i := 1; i < len(all); i++ {
			if all[i-1].Reading > all[i].Reading {
				t.Errorf("not sorted by reading: %s before %s", all[i-1].Reading, all[i].Reading)
			}
		}
		page, _, err := s.SearchPlayers(ctx, store.PlayerSearch{Limit: 2, Offset: 2})
		if err != nil || len(page) != 2 || page[0].ID != all[2].ID || page[1].ID != all[3].ID {
			t.Fatalf("page 2 = %+v, err %v", page, err)
		}
	})
}

func TestPlayers_NumberUniqueWhenPresent(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		n := "175"
		a := store.Player{Name: "甲", Reading: "こう", Kind: store.PlayerProfessional, Rank: "九段", Number: &n, CreatedAt: testNow, UpdatedAt: testNow}
		if err := s.CreatePlayer(ctx, &a); err != nil {
			t.Fatal(err)
		}
		b := store.Player{Name: "乙", Reading: "おつ", Kind: store.PlayerProfessional, Rank: "四段", Number: &n, CreatedAt: testNow, UpdatedAt: testNow}
		if err := s.CreatePlayer(ctx, &b); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("second player with number 175: %v, want ErrConflict", err)
		}
		// Players without a number never collide.
		addPlayer(t, s, "丙", "へい")
		addPlayer(t, s, "丁", "てい")
		got, err := s.PlayerByNumber(ctx, "175")
		if err != nil || got.ID != a.ID {
			t.Fatalf("by number: %+v %v", got, err)
		}
		if _, err := s.PlayerByID(ctx, 999999); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("missing player: %v", err)
		}
	})
}

func TestPlayers_UpdateKeepsSearchKeyAndBirthDate(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		p := addPlayer(t, s, "旧姓", "きゅうせい")
		p.Name, p.Reading = "新姓", "しんせい"
		p.BirthDate = day("1970-09-27")
		if err := s.UpdatePlayer(ctx, &p); err != nil {
			t.Fatal(err)
		}
		got, err := s.PlayerByID(ctx, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.BirthDate.String() != "1970-09-27" {
			t.Errorf("birth date read back as %q", got.BirthDate)
		}
		if r, _, _ := s.SearchPlayers(ctx, store.PlayerSearch{Query: "シンセイ"}); len(r) != 1 {
			t.Errorf("new reading not searchable: %d results", len(r))
		}
		if r, _, _ := s.SearchPlayers(ctx, store.PlayerSearch{Query: "きゅうせい"}); len(r) != 0 {
			t.Errorf("old reading still searchable")
		}
		ghost := store.Player{ID: 424242, Name: "x", Reading: "x", Kind: store.PlayerAmateur}
		if err := s.UpdatePlayer(ctx, &ghost); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("update of a missing player: %v", err)
		}
	})
}
