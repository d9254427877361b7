package pairing

import (
	"slices"
	"time"
)

// 席次: who sits at the 上座 (the upper seat) of a game. The seeds say only
// that the 上座 player's 歩 are tossed (000 第7条1, 001 第3条) and that
// formally the upper side (上位の側) tosses (003); the order that decides the
// 上座 is federation practice beyond the seeds, written down as D-Z1 in
// docs/seating.md:
//
//  1. titles held on the day (more titles first; equal counts, the higher
//     title in the title order — TitleOrder);
//  2. 段位 (the higher 段 first);
//  3. 順位戦 class (A, B1, B2, C1, C2, フリークラス, then none);
//  4. 順位 within the same class (the smaller number first);
//  5. the date of promotion to the present 段 (the earlier first);
//  6. seniority: the date of becoming professional (四段; the earlier
//     first), then the federation's player number (the smaller first,
//     numbers being given in that order).
//
// A criterion with an unknown value on either side ties and the next one
// decides. When every criterion ties the organiser decides; Joza then
// names the player given first (the caller passes the organiser's order).
//
// Amateur events (JozaAmateur, D-Z2): the higher 段級 first; otherwise the
// organiser decides, i.e. the player given first.

// TitleHeld is a title a player holds from From until Until (zero: still
// holds it).
type TitleHeld struct {
	Title string
	From  time.Time
	Until time.Time
}

// PlayerStanding is what decides a player's 席次. ID is the caller's key,
// returned by Joza; every other field may be unknown (zero).
type PlayerStanding struct {
	ID        string
	Titles    []TitleHeld
	Rank      Rank
	HasRank   bool
	Class     string    // 順位戦 class: A, B1, B2, C1, C2, FREE or ""
	ClassRank int       // 順位 within Class, 1 = top; 0 unknown
	RankSince time.Time // promoted to the present 段 on
	ProSince  time.Time // became professional (四段) on
	Number    int       // the federation's player number; 0 none
}

// JozaReason names the criterion that decided the 上座 (the web shows it in
// words).
type JozaReason string

const (
	JozaByTitles    JozaReason = "titles"     // titles held
	JozaByRank      JozaReason = "rank"       // 段位 (段級 at amateur events)
	JozaByClass     JozaReason = "class"      // 順位戦 class
	JozaByClassRank JozaReason = "class_rank" // 順位 within the class
	JozaByRankSince JozaReason = "rank_since" // promoted to the 段 earlier
	JozaBySeniority JozaReason = "seniority"  // professional earlier / smaller number
	JozaByOrganiser JozaReason = "organiser"  // every criterion tied: the organiser's order
	JozaByOverride  JozaReason = "override"   // the organiser overrode it for this game (office)
)

// DefaultTitleOrder is the federation's order of its eight titles (序列),
// highest first, as published when this was written. The order changes
// when sponsors change; callers may pass their own (Precedence).
func DefaultTitleOrder() []string {
	return []string{"竜王", "名人", "王位", "叡王", "王座", "棋王", "王将", "棋聖"}
}

// Precedence orders players for the 上座 under a title order.
type Precedence struct {
	TitleOrder []string // highest first; a title not listed ranks below every listed one
}

// Joza decides who of a and b sits at the 上座 on the date on (D-Z1): the
// first player's ID and the criterion that decided it.
func Joza(a, b PlayerStanding, on time.Time) (string, JozaReason) {
	return Precedence{TitleOrder: DefaultTitleOrder()}.Joza(a, b, on)
}

// Joza is the package function under p's title order.
func (p Precedence) Joza(a, b PlayerStanding, on time.Time) (string, JozaReason) {
	ta, tb := p.titles(a, on), p.titles(b, on)
	criteria := []struct {
		why  JozaReason
		cmpr int // < 0: a first; > 0: b first; 0: tie
	}{
		{JozaByTitles, cmpTitles(ta, tb)},
		{JozaByRank, cmpRank(a, b)},
		{JozaByClass, cmpKnown(classOrder(a.Class), classOrder(b.Class))},
		{JozaByClassRank, cmpClassRank(a, b)},
		{JozaByRankSince, cmpDate(a.RankSince, b.RankSince)},
		{JozaBySeniority, cmpSeniority(a, b)},
	}
	for _, c := range criteria {
		switch {
		case c.cmpr < 0:
			return a.ID, c.why
		case c.cmpr > 0:
			return b.ID, c.why
		}
	}
	return a.ID, JozaByOrganiser
}

// JozaAmateur decides the 上座 at an amateur event (D-Z2): the higher 段級,
// else the organiser's order (a first).
func JozaAmateur(a, b PlayerStanding) (string, JozaReason) {
	switch c := cmpRank(a, b); {
	case c < 0:
		return a.ID, JozaByRank
	case c > 0:
		return b.ID, JozaByRank
	}
	return a.ID, JozaByOrganiser
}

// titles are the positions in the title order of the titles s holds on
// the date, best first (an unlisted title is len(order)).
func (p Precedence) titles(s PlayerStanding, on time.Time) []int {
	var out []int
	for _, t := range s.Titles {
		if t.Title == "" || (!t.From.IsZero() && on.Before(t.From)) || (!t.Until.IsZero() && !on.Before(t.Until)) {
			continue
		}
		i := slices.Index(p.TitleOrder, t.Title)
		if i < 0 {
			i = len(p.TitleOrder)
		}
		out = append(out, i)
	}
	slices.Sort(out)
	return out
}

// cmpTitles: more titles first; equal counts, the best title first, then
// the next best, and so on.
func cmpTitles(a, b []int) int {
	if len(a) != len(b) {
		return len(b) - len(a)
	}
	for i := range a {
		if a[i] != b[i] {
			return a[i] - b[i]
		}
	}
	return 0
}

func cmpRank(a, b PlayerStanding) int {
	if !a.HasRank || !b.HasRank {
		return 0
	}
	return b.Rank.Step - a.Rank.Step
}

// classOrder is the 順位戦 class's place from the top, 0 when none.
func classOrder(c string) int {
	if i := slices.Index([]string{"A", "B1", "B2", "C1", "C2", "FREE"}, c); i >= 0 {
		return i + 1
	}
	return 0
}

// cmpKnown compares two places from the top (1 best); 0 (none) ranks below
// every place, so a player in a class is above one in none.
func cmpKnown(a, b int) int {
	switch {
	case a == b:
		return 0
	case a == 0:
		return 1
	case b == 0:
		return -1
	}
	return a - b
}

// cmpClassRank: the 順位 decides only inside the same class and when both
// are known.
func cmpClassRank(a, b PlayerStanding) int {
	if a.Class == "" || a.Class != b.Class || a.ClassRank <= 0 || b.ClassRank <= 0 {
		return 0
	}
	return a.ClassRank - b.ClassRank
}

// cmpDate: the earlier date first; unknown on either side ties.
func cmpDate(a, b time.Time) int {
	if a.IsZero() || b.IsZero() {
		return 0
	}
	return a.Compare(b)
}

func cmpSeniority(a, b PlayerStanding) int {
	if c := cmpDate(a.ProSince, b.ProSince); c != 0 {
		return c
	}
	if a.Number <= 0 || b.Number <= 0 {
		return 0
	}
	return a.Number - b.Number
}
