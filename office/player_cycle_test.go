package office

import (
	"testing"

	"kisen/store"
)

func pday(s string) store.CivilDate {
	v, err := store.ParseCivilDate(s)
	if err != nil {
		panic(err)
	}
	return v
}

// A 師弟 relation must never loop (A master of B and B master of A on the
// same day), or the D-A checks of 001 第8条A would be meaningless.
func TestMasterGraph_D_A1_NoCycleOnAnyDay(t *testing.T) {
	t.Parallel()
	base := []masterEdge{
		{Disciple: 2, Master: 1, From: pday("2000-01-01"), To: pday("2009-12-31")}, // 1 → 2 in the 2000s
		{Disciple: 3, Master: 2, From: pday("2005-01-01")},                         // 2 → 3 from 2005
	}
	cases := []struct {
		name string
		e    masterEdge
		want bool
	}{
		{"self", masterEdge{Disciple: 4, Master: 4, From: pday("2000-01-01")}, true},
		{"direct swap overlapping", masterEdge{Disciple: 1, Master: 2, From: pday("2009-01-01")}, true},
		{"direct swap after the period ended", masterEdge{Disciple: 1, Master: 2, From: pday("2010-01-01")}, false},
		{"three-step loop overlapping", masterEdge{Disciple: 1, Master: 3, From: pday("2006-01-01"), To: pday("2006-12-31")}, true},
		{"three-step loop before 3 joined", masterEdge{Disciple: 1, Master: 3, From: pday("2001-01-01"), To: pday("2004-12-31")}, false},
		{"three-step loop after 1→2 ended", masterEdge{Disciple: 1, Master: 3, From: pday("2010-01-01")}, false},
		{"unrelated", masterEdge{Disciple: 5, Master: 1, From: pday("2000-01-01")}, false},
	}
	for _, c := range cases {
		g := newMasterGraph(base)
		if got := g.closesCycle(c.e); got != c.want {
			t.Errorf("%s: closesCycle = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestPeriodsOverlap(t *testing.T) {
	t.Parallel()
	z := store.CivilDate{}
	cases := []struct {
		af, at, bf, bt store.CivilDate
		want           bool
	}{
		{pday("2000-01-01"), pday("2000-12-31"), pday("2001-01-01"), z, false},
		{pday("2000-01-01"), pday("2001-01-01"), pday("2001-01-01"), z, true}, // both ends are included
		{pday("2000-01-01"), z, pday("2030-01-01"), pday("2030-01-02"), true},
		{pday("2005-01-01"), pday("2005-01-01"), pday("2000-01-01"), pday("2010-01-01"), true},
	}
	for i, c := range cases {
		if got := periodsOverlap(c.af, c.at, c.bf, c.bt); got != c.want {
			t.Errorf("case %d: %v, want %v", i, got, c.want)
		}
		if got := periodsOverlap(c.bf, c.bt, c.af, c.at); got != c.want {
			t.Errorf("case %d swapped: %v, want %v", i, got, c.want)
		}
	}
}
