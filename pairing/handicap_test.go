package pairing

import (
	"errors"
	"testing"
)

func TestHandicap_D_H_DefaultTable(t *testing.T) {
	t.Parallel()
	want := map[int]Handicap{0: EvenByToss, 1: Hirate, 2: KyoOchi, 3: KakuOchi, 4: HishaOchi, 5: HiKyoOchi,
		6: NimaiOchi, 7: NimaiOchi, 8: YonmaiOchi, 9: YonmaiOchi, 10: RokumaiOchi, 11: RokumaiOchi, 40: RokumaiOchi}
	tab := DefaultHandicapTable()
	for gap, h := range want {
		got, err := tab.Lookup(gap)
		if err != nil || got != h {
			t.Errorf("gap %d: %s, %v; want %s", gap, got, err, h)
		}
	}
	if r := KyoOchi.Removed(); len(r) != 1 || r[0] != "1一香" {
		t.Errorf("香落ち removes %v; D-H: the left lance, 上手's 1一", r)
	}
}

func TestHandicap_D_H_WhoMovesFirst(t *testing.T) {
	t.Parallel()
	rank := func(s string) Rank {
		r, err := ParseRank(s)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	cases := []struct {
		name           string
		ra, rb         string
		h              Handicap
		sente, uwate   string
		tosser, upSeat string
	}{
		{"D_H equal ranks: 振り駒 by the upper seat", "三段", "三段", EvenByToss, "", "", "b", "b"},
		{"D_H one step: lower rank sente", "初段", "1級", Hirate, "b", "", "", "a"},
		{"D_H two steps: 香落ち, 上手 first", "1級", "二段", KyoOchi, "b", "b", "", "a"},
		{"D_H three steps", "四段", "初段", KakuOchi, "a", "a", "", "a"},
		{"D_H seven steps: 二枚落ち", "五段", "3級", NimaiOchi, "a", "a", "", "a"},
		{"D_H ten steps: 六枚落ち", "アマ五段", "6級", RokumaiOchi, "a", "a", "", "a"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g, err := DecideTerms(DefaultHandicapTable(), "a", rank(tc.ra), "b", rank(tc.rb), tc.upSeat)
			if err != nil {
				t.Fatal(err)
			}
			if g.Handicap != tc.h || g.Sente != tc.sente || g.Uwate != tc.uwate || g.Tosser != tc.tosser {
				t.Fatalf("%+v; want %s sente %q uwate %q tosser %q", g, tc.h, tc.sente, tc.uwate, tc.tosser)
			}
		})
	}
	if _, err := DecideTerms(DefaultHandicapTable(), "a", Dan(3), "b", Dan(3), "c"); !errors.Is(err, ErrInvalid) {
		t.Errorf("a toss by a third person accepted: %v", err)
	}
}

func TestHandicap_D_H_OrganiserTableValidated(t *testing.T) {
	t.Parallel()
	custom := HandicapTable{{0, EvenByToss}, {2, Hirate}, {3, KyoOchi}, {5, NimaiOchi}}
	if err := custom.Validate(); err != nil {
		t.Fatalf("a valid custom table: %v", err)
	}
	if h, _ := custom.Lookup(1); h != EvenByToss {
		t.Errorf("custom gap 1: %s", h)
	}
	bad := []struct {
		name  string
		tab   HandicapTable
		field string
	}{
		{"empty", HandicapTable{}, "handicap_table"},
		{"not from zero", HandicapTable{{1, Hirate}}, "handicap_table[0].min_gap"},
		{"gaps not increasing", HandicapTable{{0, EvenByToss}, {2, Hirate}, {2, KyoOchi}}, "handicap_table[2].min_gap"},
		{"unknown name", HandicapTable{{0, EvenByToss}, {1, "角香落ち"}}, "handicap_table[1].handicap"},
		{"even after handicap", HandicapTable{{0, EvenByToss}, {1, KyoOchi}, {2, Hirate}}, "handicap_table[2].handicap"},
		{"toss at a gap", HandicapTable{{0, Hirate}, {1, EvenByToss}}, "handicap_table[1].handicap"},
	}
	for _, tc := range bad {
		var fe *FieldError
		if err := tc.tab.Validate(); !errors.As(err, &fe) || fe.Field != tc.field {
			t.Errorf("%s: %v, want an error on %s", tc.name, err, tc.field)
		}
	}
}

// FuzzDecideTerms checks D-H on random rank pairs against the rule itself:
// equal ranks toss, a one-step gap gives the lower rank sente, any larger gap
// is a handicap game the stronger player (上手) starts.
func FuzzDecideTerms(f *testing.F) {
	f.Add(int8(3), int8(3))
	f.Add(int8(1), int8(0))
	f.Add(int8(-20), int8(9))
	f.Fuzz(func(t *testing.T, x, y int8) {
		ra, rb := Rank{Step: int(x)}, Rank{Step: int(y)}
		g, err := DecideTerms(DefaultHandicapTable(), "a", ra, "b", rb, "a")
		if err != nil {
			t.Fatal(err)
		}
		gap := int(x) - int(y)
		stronger, weaker := "a", "b"
		if gap < 0 {
			gap, stronger, weaker = -gap, "b", "a"
		}
		switch {
		case gap == 0:
			if g.Handicap != EvenByToss || g.Sente != "" || g.Tosser != "a" {
				t.Fatalf("equal: %+v", g)
			}
		case gap == 1:
			if g.Handicap != Hirate || g.Sente != weaker || g.Uwate != "" {
				t.Fatalf("gap 1: %+v", g)
			}
		default:
			if g.Handicap.IsEven() || g.Sente != stronger || g.Uwate != stronger || len(g.Handicap.Removed()) == 0 {
				t.Fatalf("gap %d: %+v", gap, g)
			}
		}
	})
}
