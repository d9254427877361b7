package pairing

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

func ids(games []Game) []string {
	var out []string
	for _, g := range games {
		out = append(out, g.ID)
	}
	return out
}

func TestAdvance_WinnersByesAndChampion(t *testing.T) {
	t.Parallel()
	// 8 slots, seed 1 (slot 0) has a bye.
	b := Bracket{Slots: []string{"s1", "", "a", "b", "c", "d", "e", "f"}}
	p, err := Advance(b, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(p.Next); !slices.Equal(got, []string{"R1-G2", "R1-G3", "R1-G4"}) {
		t.Fatalf("next %v", got)
	}
	if p.Rounds[0][0].Status != StatusWalkover || p.Rounds[1][0].Players[0] != "s1" {
		t.Fatalf("the bye should send s1 to round 2: %+v / %+v", p.Rounds[0][0], p.Rounds[1][0])
	}
	res := []Result{{Game: "R1-G2", Winner: "b"}, {Game: "R1-G3", Winner: "c"}, {Game: "R1-G4", Winner: "f", Kind: Forfeit}}
	p, err = Advance(b, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(p.Next); !slices.Equal(got, []string{"R2-G1", "R2-G2"}) {
		t.Fatalf("next %v", got)
	}
	if g := p.Rounds[1][1]; g.Players != [2]string{"c", "f"} {
		t.Fatalf("R2-G2 players %v", g.Players)
	}
	res = append(res, Result{Game: "R2-G1", Winner: "s1"}, Result{Game: "R2-G2", Winner: "f"}, Result{Game: "R3-G1", Winner: "f"})
	p, err = Advance(b, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.Champion != "f" || !p.Finished || len(p.Next) != 0 {
		t.Fatalf("champion %q finished %v next %v", p.Champion, p.Finished, ids(p.Next))
	}
}

func TestAdvance_WithdrawalAdvancesOpponent(t *testing.T) {
	t.Parallel()
	b := Bracket{Slots: []string{"a", "b", "c", "d"}}
	p, err := Advance(b, []Result{{Game: "R1-G1", Winner: "a"}}, []string{"d"})
	if err != nil {
		t.Fatal(err)
	}
	if g := p.Rounds[0][1]; g.Status != StatusWalkover || g.Winner != "c" {
		t.Fatalf("c should advance without a game: %+v", g)
	}
	if got := ids(p.Next); !slices.Equal(got, []string{"R2-G1"}) {
		t.Fatalf("next %v", got)
	}
	// A result recorded before the withdrawal stands.
	p, err = Advance(b, []Result{{Game: "R1-G2", Winner: "d"}, {Game: "R1-G1", Winner: "b"}}, []string{"d"})
	if err != nil {
		t.Fatal(err)
	}
	if g := p.Rounds[1][0]; g.Status != StatusWalkover || p.Champion != "b" {
		t.Fatalf("d withdrew after winning R1-G2; b should take the final without a game: %+v, champion %q", g, p.Champion)
	}
	// Both finalists withdraw: no champion, bracket finished.
	p, err = Advance(b, []Result{{Game: "R1-G1", Winner: "a"}, {Game: "R1-G2", Winner: "c"}}, []string{"a", "c"})
	if err != nil {
		t.Fatal(err)
	}
	if p.Champion != "" || !p.Finished {
		t.Fatalf("champion %q finished %v", p.Champion, p.Finished)
	}
}

func TestAdvance_ThirdPlaceAndConsolation(t *testing.T) {
	t.Parallel()
	b := Bracket{Slots: []string{"a", "b", "c", "d", "e", "f", "g", ""}, ThirdPlace: true, Consolation: true}
	res := []Result{{Game: "R1-G1", Winner: "a"}, {Game: "R1-G2", Winner: "c"}, {Game: "R1-G3", Winner: "e"},
		{Game: "R2-G1", Winner: "a"}, {Game: "R2-G2", Winner: "e"}}
	p, err := Advance(b, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.ThirdPlace == nil || p.ThirdPlace.Players != [2]string{"c", "g"} || p.ThirdPlace.Status != StatusReady {
		t.Fatalf("third place %+v", p.ThirdPlace)
	}
	// Consolation: losers b, d, f of R1-G1..G3; g had a bye, so slot 4 is empty.
	c := p.Consolation
	if c == nil || c.Rounds[0][0].Players != [2]string{"b", "d"} || c.Rounds[0][1].Status != StatusWalkover || c.Rounds[0][1].Winner != "f" {
		t.Fatalf("consolation %+v", c)
	}
	want := []string{"R3-G1", "3P", "C-R1-G1"}
	if got := ids(p.Next); !slices.Equal(got, want) {
		t.Fatalf("next %v, want %v", got, want)
	}
	res = append(res, Result{Game: "R3-G1", Winner: "e"}, Result{Game: "3P", Winner: "g"},
		Result{Game: "C-R1-G1", Winner: "d"}, Result{Game: "C-R2-G1", Winner: "f"})
	p, err = Advance(b, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.Champion != "e" || p.ThirdPlace.Winner != "g" || p.Consolation.Champion != "f" || !p.Finished {
		t.Fatalf("champion %q third %q consolation %q finished %v", p.Champion, p.ThirdPlace.Winner, p.Consolation.Champion, p.Finished)
	}
}

func TestAdvance_BadResults(t *testing.T) {
	t.Parallel()
	b := Bracket{Slots: []string{"a", "b", "c", "d"}}
	cases := []struct {
		name  string
		res   []Result
		field string
	}{
		{"unknown game", []Result{{Game: "R9-G1", Winner: "a"}}, "results[0].game"},
		{"game not ready", []Result{{Game: "R2-G1", Winner: "a"}}, "results[0].game"},
		{"winner not playing", []Result{{Game: "R1-G1", Winner: "c"}}, "results[0].winner"},
		{"two results", []Result{{Game: "R1-G1", Winner: "a"}, {Game: "R1-G1", Winner: "b"}}, "results[1].game"},
		{"bad kind", []Result{{Game: "R1-G1", Winner: "a", Kind: "resigned"}}, "results[0].kind"},
	}
	for _, tc := range cases {
		_, err := Advance(b, tc.res, nil)
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != tc.field {
			t.Errorf("%s: %v, want an error on %s", tc.name, err, tc.field)
		}
	}
	if _, err := Advance(Bracket{Slots: []string{"a", "b", "c"}}, nil, nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("3 slots accepted: %v", err)
	}
}

// FuzzAdvance plays random brackets to the end with random winners, random
// forfeits and random withdrawals, and checks invariants: every recorded
// winner was in the game, no player loses twice or plays after losing, the
// champion lost no game, and the event finishes within size results.
func FuzzAdvance(f *testing.F) {
	f.Add(uint64(1), uint8(5), uint8(10))
	f.Add(uint64(2), uint8(64), uint8(0))
	f.Add(uint64(3), uint8(2), uint8(50))
	f.Fuzz(func(t *testing.T, seed uint64, n8, withdrawPct uint8) {
		rng := rand.New(rand.NewPCG(seed, 1))
		n := 2 + int(n8)%127
		var es []Entrant
		for i := range n {
			es = append(es, Entrant{ID: fmt.Sprintf("p%d", i), Seed: map[bool]int{true: i + 1}[i < n/4]})
		}
		b, err := Draw(DrawRequest{Stage: MainEvent, Entrants: es, Seed: seed, ThirdPlace: rng.IntN(2) == 0, Consolation: rng.IntN(2) == 0})
		if err != nil {
			t.Fatal(err)
		}
		var withdrawn []string
		for _, e := range es {
			if rng.IntN(100) < int(withdrawPct%60) {
				withdrawn = append(withdrawn, e.ID)
			}
		}
		var res []Result
		for step := 0; ; step++ {
			if step > 2*b.Size {
				t.Fatalf("no finish after %d steps", step)
			}
			p, err := Advance(b, res, withdrawn)
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Next) == 0 {
				if !p.Finished {
					t.Fatalf("nothing to play but not finished")
				}
				checkPlayedOut(t, p, res, withdrawn)
				return
			}
			g := p.Next[rng.IntN(len(p.Next))]
			r := Result{Game: g.ID, Winner: g.Players[rng.IntN(2)]}
			if rng.IntN(10) == 0 {
				r.Kind = Forfeit
			}
			res = append(res, r)
		}
	})
}

func checkPlayedOut(t *testing.T, p Progress, res []Result, withdrawn []string) {
	t.Helper()
	lost := map[string]string{}
	for _, round := range p.Rounds {
		for _, g := range round {
			for _, pl := range g.Players {
				if game, ok := lost[pl]; ok && pl != "" {
					t.Fatalf("%s plays %s after losing %s", pl, g.ID, game)
				}
			}
			if g.Status != StatusDone {
				continue
			}
			if g.Winner != g.Players[0] && g.Winner != g.Players[1] {
				t.Fatalf("%s won by %s, not a player %v", g.ID, g.Winner, g.Players)
			}
			for _, pl := range g.Players {
				if pl != g.Winner {
					lost[pl] = g.ID
				}
			}
		}
	}
	if p.Champion != "" {
		if _, ok := lost[p.Champion]; ok {
			t.Fatalf("champion %s lost %s", p.Champion, lost[p.Champion])
		}
		if slices.Contains(withdrawn, p.Champion) && len(res) == 0 {
			t.Fatalf("champion %s withdrew before playing", p.Champion)
		}
	}
}
