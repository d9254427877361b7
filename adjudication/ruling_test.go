package adjudication

import (
	"fmt"
	"testing"
	"time"
)

var t0 = time.Date(2026, 5, 14, 10, 0, 0, 0, time.UTC)

func ruling(id string, kind RulingKind, minute int) Ruling {
	r := Ruling{ID: id, GameID: "g1", Kind: kind, At: t0.Add(time.Duration(minute) * time.Minute),
		Arbiter: Player{ID: "a1", Name: "立会人"}, Reason: "because"}
	switch kind {
	case RulingTimeAdjust:
		r.Player, r.Delta = sp(Sente), dur("5m")
	case RulingCaution, RulingWarning, RulingFoulLoss:
		r.Player = sp(Gote)
	}
	return r
}

// D-K1 (000 第11条第5項): every kind, each valid with its required fields.
func TestRuling_D_K1_EveryKindValidates(t *testing.T) {
	t.Parallel()
	for i, k := range RulingKinds() {
		if err := ruling("r", k, i).Validate(); err != nil {
			t.Fatalf("%s: %v", k, err)
		}
	}
	if len(RulingKinds()) != 8 {
		t.Fatalf("000 第11条第5項 lists seven measures, caution and warning apart: 8 kinds, got %d", len(RulingKinds()))
	}
}

func TestRuling_D_K1_BadRulingsNameTheField(t *testing.T) {
	t.Parallel()
	cases := []struct {
		field string
		edit  func(*Ruling)
	}{
		{"id", func(r *Ruling) { r.ID = " " }},
		{"game_id", func(r *Ruling) { r.GameID = "" }},
		{"kind", func(r *Ruling) { r.Kind = "shout" }},
		{"at", func(r *Ruling) { r.At = time.Time{} }},
		{"arbiter", func(r *Ruling) { r.Arbiter = Player{} }},
		{"reason", func(r *Ruling) { r.Reason = "  " }},
		{"player", func(r *Ruling) { r.Kind, r.Player = RulingFoulLoss, nil }},
		{"delta", func(r *Ruling) { r.Kind, r.Player, r.Delta = RulingTimeAdjust, sp(Sente), 0 }},
		{"delta", func(r *Ruling) { r.Delta = dur("1m") }},
		{"supersedes", func(r *Ruling) { r.Supersedes = r.ID }},
	}
	for _, c := range cases {
		r := ruling("r1", RulingEnvironment, 0)
		c.edit(&r)
		wantFieldErr(t, r.Validate(), c.field)
	}
}

// D-K2 (000 第11条第10項): without an arbiter the organiser rules, and
// must still be named.
func TestRuling_D_K2_OrganiserRulesWithoutArbiter(t *testing.T) {
	t.Parallel()
	r := ruling("r1", RulingWarning, 0)
	r.ByOrganiser, r.Arbiter = true, Player{Name: "大会責任者"}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	r.Arbiter = Player{}
	wantFieldErr(t, r.Validate(), "arbiter")
}

// D-K1: rulings are never edited, only superseded; an appeal replaces
// the ruling it names, and a chain of corrections leaves the last.
func TestEffectiveRulings_D_K1_Supersession(t *testing.T) {
	t.Parallel()
	a := ruling("a", RulingFoulLoss, 0)
	b := ruling("b", RulingOther, 30)
	b.Supersedes = "a"
	c := ruling("c", RulingCaution, 10)
	d := ruling("d", RulingFoulLoss, 60)
	d.Supersedes = "b"
	cases := []struct {
		name string
		in   []Ruling
		want []string
	}{
		{"none", nil, nil},
		{"nothing superseded, ordered by time", []Ruling{b, c, ruling("e", RulingClockStop, 5)}, []string{"e", "c", "b"}},
		{"appeal replaces the foul loss", []Ruling{a, b, c}, []string{"c", "b"}},
		{"a correction of the appeal", []Ruling{d, a, b, c}, []string{"c", "d"}},
	}
	for _, tc := range cases {
		tc.in = append([]Ruling(nil), tc.in...)
		if tc.name == "nothing superseded, ordered by time" {
			tc.in[0].Supersedes = ""
		}
		got, err := EffectiveRulings(tc.in)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if len(got) != len(tc.want) {
			t.Fatalf("%s: got %d rulings, want %v", tc.name, len(got), tc.want)
		}
		for i, id := range tc.want {
			if got[i].ID != id {
				t.Fatalf("%s: ruling %d is %s, want %s", tc.name, i, got[i].ID, id)
			}
		}
	}
}

func TestEffectiveRulings_D_K1_Rejects(t *testing.T) {
	t.Parallel()
	a := ruling("a", RulingWarning, 0)
	missing := ruling("b", RulingOther, 5)
	missing.Supersedes = "zz"
	early := ruling("c", RulingOther, -5)
	early.Supersedes = "a"
	other := ruling("d", RulingOther, 5)
	other.GameID, other.Supersedes = "g2", "a"
	first := ruling("e", RulingOther, 5)
	first.Supersedes = "a"
	second := ruling("f", RulingOther, 6)
	second.Supersedes = "a"
	x := ruling("x", RulingOther, 0)
	x.Supersedes = "y"
	y := ruling("y", RulingOther, 0)
	y.Supersedes = "x"
	cases := []struct {
		name  string
		in    []Ruling
		field string
	}{
		{"missing", []Ruling{a, missing}, "rulings[1].supersedes"},
		{"earlier than what it supersedes", []Ruling{a, early}, "rulings[1].supersedes"},
		{"another game", []Ruling{a, other}, "rulings[1].supersedes"},
		{"superseded twice", []Ruling{a, first, second}, "rulings[2].supersedes"},
		{"cycle", []Ruling{x, y}, "rulings[1].supersedes"},
		{"duplicate id", []Ruling{a, a}, "rulings[1].id"},
		{"invalid ruling", []Ruling{{ID: "q"}}, "rulings[0].game_id"},
	}
	for _, c := range cases {
		_, err := EffectiveRulings(c.in)
		if err == nil {
			t.Fatalf("%s: accepted", c.name)
		}
		wantFieldErr(t, err, c.field)
	}
}

// BenchmarkEffectiveRulings: a game's worth of rulings is a handful; a
// chain of 1000 corrections is far beyond any real game.
func BenchmarkEffectiveRulings(b *testing.B) {
	rs := make([]Ruling, 1000)
	for i := range rs {
		rs[i] = ruling(fmt.Sprintf("r%d", i), RulingCaution, i)
		if i > 0 {
			rs[i].Supersedes = rs[i-1].ID
		}
	}
	for b.Loop() {
		if _, err := EffectiveRulings(rs); err != nil {
			b.Fatal(err)
		}
	}
}
