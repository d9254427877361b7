package adjudication

import "testing"

// Worked examples of 001 第6条1・2 (the seed states the rule; the numbers
// are ours). Times are per player, indexed by the ended game's sides.
func TestRedoAllowance_D_R2_WorkedExamples(t *testing.T) {
	t.Parallel()
	sixHours := chess("6h", Byoyomi60)
	ninetyMin := chess("1h30m", Byoyomi60)
	noTopUp := sixHours
	noTopUp.RedoTopUp = false
	cases := []struct {
		name        string
		tc          TimeControl
		sente, gote string
		wantS       string
		wantG       string
	}{
		{"lower under an hour: both get the 20 minutes it lacks", sixHours, "2h10m", "40m", "2h30m", "1h"},
		{"both at an hour or more: each keeps what is left", sixHours, "3h", "1h5m", "3h", "1h5m"},
		{"exactly one hour needs nothing", sixHours, "1h", "4h", "1h", "4h"},
		{"in byoyomi (nothing left): both get an hour", sixHours, "0s", "10m", "1h", "1h10m"},
		{"never beyond the original allowance", ninetyMin, "5m", "1h25m", "1h", "1h30m"},
		{"time the arbiter added above the allowance is kept, not topped up", sixHours, "6h30m", "30m", "6h30m", "1h"},
		{"top-up switched off", noTopUp, "2h10m", "40m", "2h10m", "40m"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := RedoAllowance(c.tc, Times{Sente: dur(c.sente), Gote: dur(c.gote)})
			if err != nil {
				t.Fatal(err)
			}
			if got.Sente != dur(c.wantS) || got.Gote != dur(c.wantG) {
				t.Fatalf("got sente %s gote %s, want %s / %s", got.Sente, got.Gote, c.wantS, c.wantG)
			}
		})
	}
}

// 001 第6条1 as properties over many remaining times: when a top-up
// happens both get the same amount, the lower ends at exactly one hour
// unless the allowance caps it, and nobody ends above the allowance.
func TestRedoAllowance_D_R2_Properties(t *testing.T) {
	t.Parallel()
	tc := chess("2h", Byoyomi60)
	for s := Duration(0); s <= dur("2h"); s += dur("7m") {
		for g := Duration(0); g <= dur("2h"); g += dur("11m") {
			got, err := RedoAllowance(tc, Times{Sente: s, Gote: g})
			if err != nil {
				t.Fatal(err)
			}
			addS, addG := got.Sente-s, got.Gote-g
			lower := min(s, g)
			if lower >= dur("1h") {
				if addS != 0 || addG != 0 {
					t.Fatalf("%s/%s: no top-up due, got %s/%s", s, g, got.Sente, got.Gote)
				}
				continue
			}
			if min(got.Sente, got.Gote) != dur("1h") {
				t.Fatalf("%s/%s: lower clock ends at %s", s, g, min(got.Sente, got.Gote))
			}
			if got.Sente > dur("2h") || got.Gote > dur("2h") {
				t.Fatalf("%s/%s: above the allowance: %s/%s", s, g, got.Sente, got.Gote)
			}
			for _, pair := range [][2]Duration{{addS, dur("2h") - s}, {addG, dur("2h") - g}} {
				if pair[0] != min(dur("1h")-lower, pair[1]) {
					t.Fatalf("%s/%s: addition %s, want the shared %s capped at %s", s, g, pair[0], dur("1h")-lower, pair[1])
				}
			}
		}
	}
}

// 001 第6条3: an allowance of an hour or less follows the event's rule.
func TestRedoAllowance_D_R2_ShortAllowanceIsTheEventsRule(t *testing.T) {
	t.Parallel()
	cases := []struct {
		rule        ShortAllowanceRedo
		allowance   string
		sente, gote string
		wantS       string
		wantG       string
	}{
		{ShortRestart, "1h", "10m", "40m", "1h", "1h"},
		{ShortRemaining, "1h", "10m", "40m", "10m", "40m"},
		{ShortTopUp, "1h", "10m", "40m", "1h", "1h"},
		{ShortTopUp, "30m", "5m", "20m", "30m", "30m"},
		{ShortTopUp, "30m", "25m", "30m", "30m", "30m"},
		{ShortRestart, "0s", "0s", "0s", "0s", "0s"},
	}
	for _, c := range cases {
		tc := chess(c.allowance, Byoyomi30)
		tc.ShortAllowanceRedo = c.rule
		got, err := RedoAllowance(tc, Times{Sente: dur(c.sente), Gote: dur(c.gote)})
		if err != nil {
			t.Fatal(err)
		}
		if got.Sente != dur(c.wantS) || got.Gote != dur(c.wantG) {
			t.Fatalf("%s %s from %s/%s: got %s/%s, want %s/%s", c.rule, c.allowance, c.sente, c.gote, got.Sente, got.Gote, c.wantS, c.wantG)
		}
	}
}

// D-R1 and D-R2 through a chain (D-R3): colours swap each time and each
// player keeps their own time.
func TestNextRedo_D_R1_D_R2_D_R3_Chain(t *testing.T) {
	t.Parallel()
	s := DefaultSettings()
	a, b := Player{Name: "A"}, Player{Name: "B"}
	g1 := Players{Sente: a, Gote: b}
	r1, err := NextRedo(s, g1, "", &Times{Sente: dur("2h"), Gote: dur("30m")}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if r1.Number != 1 || r1.Players.Sente != b || r1.Players.Gote != a || !r1.ColoursSwapped {
		t.Fatalf("first redo: %+v", r1)
	}
	if r1.Allowance.Sente != dur("1h") || r1.Allowance.Gote != dur("2h30m") {
		t.Fatalf("first redo allowance: B %s, A %s; want 1h and 2h30m", r1.Allowance.Sente, r1.Allowance.Gote)
	}
	if r1.Break != dur("30m") || !r1.SameDay {
		t.Fatalf("a redo follows a 30-minute break the same day (001 第6条): %+v", r1)
	}
	// The redo ends again without result: B (sente) has 20m, A 1h50m.
	r2, err := NextRedo(s, r1.Players, "", &Times{Sente: dur("20m"), Gote: dur("1h50m")}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if r2.Number != 2 || r2.Players.Sente != a || r2.Players.Gote != b {
		t.Fatalf("second redo: %+v", r2)
	}
	if r2.Allowance.Sente != dur("2h30m") || r2.Allowance.Gote != dur("1h") {
		t.Fatalf("second redo allowance: A %s, B %s; want 2h30m and 1h", r2.Allowance.Sente, r2.Allowance.Gote)
	}
}

// In a handicap game the giver stays the giver (003): no swap.
func TestNextRedo_D_R1_HandicapKeepsRoles(t *testing.T) {
	t.Parallel()
	p := Players{Sente: Player{Name: "下手"}, Gote: Player{Name: "上手"}}
	g, err := NextRedo(DefaultSettings(), p, "角落ち", &Times{Sente: dur("2h"), Gote: dur("30m")}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if g.ColoursSwapped || g.Players != p || g.Handicap != "角落ち" {
		t.Fatalf("handicap redo: %+v", g)
	}
	if g.Allowance.Sente != dur("2h30m") || g.Allowance.Gote != dur("1h") {
		t.Fatalf("handicap redo allowance %+v", g.Allowance)
	}
}

func TestRedoAllowance_BadInput(t *testing.T) {
	t.Parallel()
	_, err := RedoAllowance(chess("6h", Byoyomi60), Times{Sente: dur("-1m")})
	wantFieldErr(t, err, "remaining.sente")
	_, err = NextRedo(DefaultSettings(), Players{}, "", nil, -1)
	wantFieldErr(t, err, "redo_count")
}
