package pairing

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

var seatDay = time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)

func day(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

// TestJoza_D_Z1_EachCriterionDecidesOnlyWhenEarlierTie (000 第7条1, 001 第3条:
// the 上座 player tosses; D-Z1 the order): for each criterion, two players
// equal in every earlier criterion and differing in it, with every later
// criterion pointing the other way, are decided by it — and by it alone.
func TestJoza_D_Z1_EachCriterionDecidesOnlyWhenEarlierTie(t *testing.T) {
	t.Parallel()
	// base is a player equal to every other base; each step below makes the
	// upper player better in one criterion and worse in every later one.
	base := func(id string) PlayerStanding {
		return PlayerStanding{ID: id, Rank: Dan(7), HasRank: true, Class: "B1", ClassRank: 5,
			RankSince: day(2020, 4, 1), ProSince: day(2010, 10, 1), Number: 280}
	}
	type tweak func(better, worse *PlayerStanding)
	steps := []struct {
		why JozaReason
		set tweak
	}{
		{JozaByTitles, func(b, w *PlayerStanding) { b.Titles = []TitleHeld{{Title: "棋聖", From: day(2026, 1, 1)}} }},
		{JozaByRank, func(b, w *PlayerStanding) { b.Rank = Dan(8) }},
		{JozaByClass, func(b, w *PlayerStanding) { b.Class = "A" }},
		{JozaByClassRank, func(b, w *PlayerStanding) { b.ClassRank, w.ClassRank = 2, 3 }},
		{JozaByRankSince, func(b, w *PlayerStanding) { b.RankSince = day(2019, 1, 1) }},
		{JozaBySeniority, func(b, w *PlayerStanding) { b.ProSince = day(2009, 4, 1) }},
	}
	for k, s := range steps {
		up, low := base("up"), base("low")
		s.set(&up, &low)
		// every later criterion favours the lower player
		for _, later := range steps[k+1:] {
			if later.why == JozaByClassRank && s.why == JozaByClass {
				continue // 順位 compares within one class only
			}
			later.set(&low, &up)
		}
		for _, order := range [][2]PlayerStanding{{up, low}, {low, up}} {
			first, why := Joza(order[0], order[1], seatDay)
			if first != "up" || why != s.why {
				t.Errorf("%s: Joza(%s, %s) = %s by %s, want up by %s", s.why, order[0].ID, order[1].ID, first, why, s.why)
			}
		}
	}
	// all equal: the organiser's order, i.e. the player given first
	a, b := base("a"), base("b")
	if first, why := Joza(a, b, seatDay); first != "a" || why != JozaByOrganiser {
		t.Errorf("all tied: %s by %s", first, why)
	}
	if first, why := Joza(b, a, seatDay); first != "b" || why != JozaByOrganiser {
		t.Errorf("all tied, other order: %s by %s", first, why)
	}
}

// TestJoza_D_Z1_Titles: more titles first; equal counts by the title
// order; a title held only after or before the day does not count.
func TestJoza_D_Z1_Titles(t *testing.T) {
	t.Parallel()
	nine := PlayerStanding{ID: "nine", Rank: Dan(9), HasRank: true, Class: "A", ClassRank: 1}
	h := func(id string, titles ...string) PlayerStanding {
		p := PlayerStanding{ID: id, Rank: Dan(5), HasRank: true, Class: "C2"}
		for _, x := range titles {
			p.Titles = append(p.Titles, TitleHeld{Title: x})
		}
		return p
	}
	cases := []struct {
		a, b PlayerStanding
		want string
	}{
		{h("one", "棋聖"), nine, "one"},                   // a title holder above a 九段 in A
		{h("two", "王将", "棋聖"), h("one", "竜王"), "two"},   // two titles above one, whatever the order
		{h("ryuo", "竜王"), h("meijin", "名人"), "ryuo"},    // equal counts: 竜王 before 名人 (DefaultTitleOrder)
		{h("kisei", "棋聖"), h("other", "女流名人"), "kisei"}, // an unlisted title ranks below the eight
	}
	for _, c := range cases {
		for _, order := range [][2]PlayerStanding{{c.a, c.b}, {c.b, c.a}} {
			if first, why := Joza(order[0], order[1], seatDay); first != c.want || why != JozaByTitles {
				t.Errorf("%s vs %s: %s by %s, want %s", order[0].ID, order[1].ID, first, why, c.want)
			}
		}
	}
	lost := PlayerStanding{ID: "lost", Rank: Dan(5), HasRank: true, Titles: []TitleHeld{{Title: "名人", From: day(2024, 5, 1), Until: day(2026, 5, 20)}}}
	future := PlayerStanding{ID: "future", Rank: Dan(5), HasRank: true, Titles: []TitleHeld{{Title: "名人", From: day(2026, 6, 2)}}}
	if first, why := Joza(lost, nine, seatDay); first != "nine" || why != JozaByRank {
		t.Errorf("a title lost before the day counted: %s by %s", first, why)
	}
	if first, _ := Joza(lost, nine, day(2026, 5, 19)); first != "lost" {
		t.Errorf("a title held on the day did not count")
	}
	if first, why := Joza(future, nine, seatDay); first != "nine" || why != JozaByRank {
		t.Errorf("a title won after the day counted: %s by %s", first, why)
	}
	own := Precedence{TitleOrder: []string{"名人", "竜王"}}
	if first, _ := own.Joza(h("ryuo", "竜王"), h("meijin", "名人"), seatDay); first != "meijin" {
		t.Errorf("the caller's title order ignored")
	}
}

// TestJoza_D_Z1_Properties over random standings, checked without Joza's
// own comparisons: the answer does not depend on the argument order unless
// the organiser decides; the deciding criterion's values differ in the
// winner's favour; and every earlier criterion is equal or unknown.
func TestJoza_D_Z1_Properties(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(24, 1))
	classes := []string{"", "A", "B1", "B2", "C1", "C2", "FREE"}
	titles := []string{"竜王", "名人", "棋聖", "女流王位"}
	dates := []time.Time{{}, day(2001, 4, 1), day(2005, 10, 1), day(2015, 4, 1)}
	gen := func(id string) PlayerStanding {
		p := PlayerStanding{ID: id, Class: classes[rng.IntN(len(classes))], ClassRank: rng.IntN(4),
			RankSince: dates[rng.IntN(len(dates))], ProSince: dates[rng.IntN(len(dates))], Number: rng.IntN(3) * 100}
		if rng.IntN(5) > 0 {
			p.Rank, p.HasRank = Dan(4+rng.IntN(6)), true
		}
		for range rng.IntN(3) {
			if rng.IntN(3) == 0 {
				p.Titles = append(p.Titles, TitleHeld{Title: titles[rng.IntN(len(titles))]})
			}
		}
		return p
	}
	classIdx := map[string]int{"A": 1, "B1": 2, "B2": 3, "C1": 4, "C2": 5, "FREE": 6, "": 99}
	titleKey := func(p PlayerStanding) []int { // the test's own 序列: 竜王 0, 名人 1, 棋聖 7, unlisted 8
		var out []int
		for _, x := range p.Titles {
			out = append(out, map[string]int{"竜王": 0, "名人": 1, "棋聖": 7, "女流王位": 8}[x.Title])
		}
		slices.Sort(out)
		return out
	}
	seen := map[JozaReason]int{}
	for range 20000 {
		a, b := gen("a"), gen("b")
		first, why := Joza(a, b, seatDay)
		seen[why]++
		f2, w2 := Joza(b, a, seatDay)
		if why != w2 || (why != JozaByOrganiser && first != f2) {
			t.Fatalf("order matters: %+v %+v: %s/%s vs %s/%s", a, b, first, why, f2, w2)
		}
		win, lose := a, b
		if first == "b" {
			win, lose = b, a
		}
		tw, tl := titleKey(win), titleKey(lose)
		if why == JozaByTitles {
			if len(tw) < len(tl) || (len(tw) == len(tl) && slices.Compare(tw, tl) >= 0) {
				t.Fatalf("titles decided for %+v over %+v", win, lose)
			}
			continue
		}
		if !slices.Equal(tw, tl) {
			t.Fatalf("%s decided though titles differ: %+v %+v", why, win, lose)
		}
		rankTie := !win.HasRank || !lose.HasRank || win.Rank == lose.Rank
		if why == JozaByRank {
			if rankTie || win.Rank.Step <= lose.Rank.Step {
				t.Fatalf("rank decided for %+v over %+v", win, lose)
			}
			continue
		}
		if !rankTie {
			t.Fatalf("%s decided though ranks differ: %+v %+v", why, win, lose)
		}
		if why == JozaByClass {
			if classIdx[win.Class] >= classIdx[lose.Class] {
				t.Fatalf("class decided for %+v over %+v", win, lose)
			}
			continue
		}
		if win.Class != lose.Class {
			t.Fatalf("%s decided though classes differ: %+v %+v", why, win, lose)
		}
		crTie := win.Class == "" || win.ClassRank == 0 || lose.ClassRank == 0 || win.ClassRank == lose.ClassRank
		if why == JozaByClassRank {
			if crTie || win.ClassRank > lose.ClassRank {
				t.Fatalf("順位 decided for %+v over %+v", win, lose)
			}
			continue
		}
		if !crTie {
			t.Fatalf("%s decided though 順位 differ: %+v %+v", why, win, lose)
		}
		rsTie := win.RankSince.IsZero() || lose.RankSince.IsZero() || win.RankSince.Equal(lose.RankSince)
		if why == JozaByRankSince {
			if rsTie || !win.RankSince.Before(lose.RankSince) {
				t.Fatalf("promotion date decided for %+v over %+v", win, lose)
			}
			continue
		}
		if !rsTie {
			t.Fatalf("%s decided though promotion dates differ: %+v %+v", why, win, lose)
		}
		psTie := win.ProSince.IsZero() || lose.ProSince.IsZero() || win.ProSince.Equal(lose.ProSince)
		numTie := win.Number == 0 || lose.Number == 0 || win.Number == lose.Number
		if why == JozaBySeniority {
			if psTie && (numTie || win.Number > lose.Number) || !psTie && !win.ProSince.Before(lose.ProSince) {
				t.Fatalf("seniority decided for %+v over %+v", win, lose)
			}
			continue
		}
		if !psTie || !numTie || why != JozaByOrganiser || first != "a" {
			t.Fatalf("%s/%s though seniority differs: %+v %+v", first, why, win, lose)
		}
	}
	for _, w := range []JozaReason{JozaByTitles, JozaByRank, JozaByClass, JozaByClassRank, JozaByRankSince, JozaBySeniority, JozaByOrganiser} {
		if seen[w] == 0 {
			t.Errorf("no pair decided by %s", w)
		}
	}
}

// TestJoza_D_Z2_Amateur: at amateur events the higher 段級 sits at the 上座;
// equal or unknown ranks, the organiser's order (the player given first).
func TestJoza_D_Z2_Amateur(t *testing.T) {
	t.Parallel()
	three := PlayerStanding{ID: "3d", Rank: Dan(3), HasRank: true}
	kyu := PlayerStanding{ID: "1k", Rank: Kyu(1), HasRank: true, Titles: []TitleHeld{{Title: "名人"}}}
	if first, why := JozaAmateur(kyu, three); first != "3d" || why != JozaByRank {
		t.Errorf("higher 段級: %s by %s", first, why)
	}
	other := PlayerStanding{ID: "other3d", Rank: Dan(3), HasRank: true}
	if first, why := JozaAmateur(other, three); first != "other3d" || why != JozaByOrganiser {
		t.Errorf("equal 段級: %s by %s", first, why)
	}
	if first, why := JozaAmateur(PlayerStanding{ID: "x"}, three); first != "x" || why != JozaByOrganiser {
		t.Errorf("unknown 段級: %s by %s", first, why)
	}
}
