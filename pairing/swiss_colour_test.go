package pairing

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
)

// colourLine recomputes, from the rounds alone, each player's sides in
// the games played so far (+1 sente, −1 gote), in order.
func colourLine(rounds []SwissRound) map[string][]int {
	out := map[string][]int{}
	for _, r := range rounds {
		for _, g := range r.Games {
			out[g.Sente] = append(out[g.Sente], 1)
			out[g.Gote] = append(out[g.Gote], -1)
		}
	}
	return out
}

// colourFault reports whether, in the last game of their line, a player
// played a third game in a row on one side or ended past sente−gote ±limit
// on that side.
func colourFault(line []int, limit int) bool {
	k := len(line)
	if k == 0 {
		return false
	}
	side, sum := line[k-1], 0
	for _, c := range line {
		sum += c
	}
	third := k >= 3 && line[k-2] == side && line[k-3] == side
	return third || sum*side > limit
}

// eventBalance is the sente−gote limit after round r of a class of the
// given rounds, from the rule's wording (docs/swiss.md): within ±2 along
// the way, within ±1 after the class's last round.
func eventBalance(r, rounds int) int {
	if r == rounds {
		return 1
	}
	return 2
}

// swissEvent is a simulated class for the colour tests and the report:
// n players with distinct ratings, clubs and masters set to avoid, a
// withdrawal after round 3 in one class in four, random results with a
// draw now and then.
func swissEvent(seed uint64, n, rounds int, each func(r int, req SwissRequest, p SwissPairing)) (SwissRequest, error) {
	return swissEventIn(seed, n, rounds, swissColourMode{}, each)
}

// swissColourMode picks the colour rules of a simulated class: the draw's
// (zero value) or a test-only variant.
type swissColourMode struct{ soft, wider, strict bool }

func swissEventIn(seed uint64, n, rounds int, mode swissColourMode, each func(r int, req SwissRequest, p SwissPairing)) (SwissRequest, error) {
	rng := rand.New(rand.NewPCG(seed, 23))
	req := SwissRequest{Seed: seed, Settings: SwissSettings{Rounds: rounds, BalanceColours: true},
		softColours: mode.soft, widerBalance: mode.wider, strictBalance: mode.strict}
	for i := range n {
		req.Players = append(req.Players, SwissPlayer{ID: fmt.Sprintf("s%03d", i), Name: fmt.Sprintf("選手%d", i),
			Rating: 2000 - 7*i, Club: fmt.Sprintf("c%d", rng.IntN(max(1, n/8))), Master: fmt.Sprintf("m%d", rng.IntN(max(1, n/6)))})
	}
	for r := 1; r <= rounds; r++ {
		if r == 4 && seed%4 == 1 {
			req.Players[rng.IntN(n)].Withdrawn = true
		}
		req.Round = r
		p, err := DrawSwiss(req)
		if err != nil {
			return req, err
		}
		if each != nil {
			each(r, req, p)
		}
		rd := SwissRound{Bye: p.Bye}
		for _, g := range p.Games {
			switch x := rng.IntN(40); {
			case x == 0:
				g.Result = DrawnGame
			case x < 21:
				g.Result = SenteWins
			default:
				g.Result = GoteWins
			}
			rd.Games = append(rd.Games, g)
		}
		req.History = append(req.History, rd)
	}
	return req, nil
}

// TestDrawSwiss_ColourRulesHoldOverWholeEvents plays 160 classes of 12–85
// players over 5–9 rounds and recomputes every player's sides from the
// rounds produced: nobody plays a third game in a row on one side, goes
// past sente−gote ±2 before the class's last round or past ±1 in it,
// except players a round's report names in
// colour_rules_broken — and the report names exactly the players the
// rounds show breaking a rule. (That a relaxed round had no valid
// alternative is checked by brute force on small classes in
// TestDrawSwiss_ObjectiveMinimalAgainstBruteForce.)
func TestDrawSwiss_ColourRulesHoldOverWholeEvents(t *testing.T) {
	t.Parallel()
	relaxed, games := 0, 0
	for seed := uint64(0); seed < 160; seed++ {
		n := 12 + int(seed*37%74)
		rounds := 5 + int(seed%5)
		_, err := swissEvent(seed, n, rounds, func(r int, req SwissRequest, p SwissPairing) {
			line := colourLine(append(slices.Clone(req.History), SwissRound{Games: p.Games}))
			var faults []string
			for _, g := range p.Games {
				games++
				for _, id := range []string{g.Sente, g.Gote} {
					if colourFault(line[id], eventBalance(r, req.Settings.Rounds)) {
						faults = append(faults, id)
					}
				}
			}
			var named []string
			for _, b := range p.Report.ColourRulesBroken {
				named = append(named, b.ID)
				if b.Rule == RuleSwissBalance && b.Limit != eventBalance(r, req.Settings.Rounds) {
					t.Fatalf("seed %d round %d of %d: %s broken with limit ±%d", seed, r, req.Settings.Rounds, b.ID, b.Limit)
				}
			}
			slices.Sort(faults)
			slices.Sort(named)
			if !slices.Equal(faults, named) {
				t.Fatalf("seed %d round %d: the rounds show %v breaking a colour rule, the report names %v", seed, r, faults, named)
			}
			relaxed += len(named)
		})
		if err != nil {
			t.Fatalf("seed %d (%d players): %v", seed, n, err)
		}
	}
	t.Logf("%d games, %d colour rules relaxed", games, relaxed)
	if relaxed*200 > games {
		t.Fatalf("%d colour rules relaxed in %d games: more than one in 200", relaxed, games)
	}
}

// TestDrawSwiss_RoundOneColoursByLotPerBoard: in round 1 (nobody has a
// colour yet) sente is drawn by lot board by board, not given to the
// higher-ranked player: over 300 seeds of a 40-player class the upper
// player is sente on about half the boards, each seed mixes both, and the
// same seed draws the same colours.
func TestDrawSwiss_RoundOneColoursByLotPerBoard(t *testing.T) {
	t.Parallel()
	req := simClass(40, true)
	req.Round = 1
	rank := map[string]int{}
	for i, p := range req.Players {
		rank[p.ID] = i // simClass rates s000 highest
	}
	upperSente, boards := 0, 0
	for seed := range uint64(300) {
		req.Seed = seed
		p, err := DrawSwiss(req)
		if err != nil {
			t.Fatal(err)
		}
		again, _ := DrawSwiss(req)
		if fmt.Sprint(again.Games) != fmt.Sprint(p.Games) {
			t.Fatalf("seed %d: two draws differ", seed)
		}
		k := 0
		for _, g := range p.Games {
			if rank[g.Sente] < rank[g.Gote] {
				k++
			}
		}
		if k == 0 || k == len(p.Games) {
			t.Fatalf("seed %d: the upper player is sente on %d of %d boards", seed, k, len(p.Games))
		}
		upperSente += k
		boards += len(p.Games)
	}
	if f := float64(upperSente) / float64(boards); f < 0.45 || f > 0.55 {
		t.Fatalf("upper player sente on %.3f of %d boards, want about half", f, boards)
	}
}

// TestCheckSwiss_NeverPairFoundWhenAPlayerSitsTwice: a board pairing a
// "never" relation is a violation even when one of its players also sits
// on another board; so is a rematch; the player twice is reported too.
func TestCheckSwiss_NeverPairFoundWhenAPlayerSitsTwice(t *testing.T) {
	t.Parallel()
	req := SwissRequest{Round: 2, Seed: 1, Settings: SwissSettings{Rounds: 3, BalanceColours: true,
		Relations: SwissRelations{Family: RelationNever}},
		Players: []SwissPlayer{{ID: "a", Family: "f"}, {ID: "b", Family: "f"}, {ID: "c"}, {ID: "d"}},
		History: []SwissRound{{Games: []SwissGame{{Board: 1, Sente: "a", Gote: "c", Result: SenteWins}, {Board: 2, Sente: "d", Gote: "b", Result: SenteWins}}}}}
	p := SwissPairing{Round: 2, Games: []SwissGame{{Board: 1, Sente: "c", Gote: "a"}, {Board: 2, Sente: "b", Gote: "a"}, {Board: 3, Sente: "b", Gote: "d"}}}
	v, _, err := CheckSwiss(req, p)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, x := range v {
		got[x.Rule] = append(got[x.Rule], fmt.Sprint(x.Players))
	}
	if !slices.Contains(got[RuleSwissNever], "[b a]") {
		t.Errorf("never pair b–a on board 2 not found: %v", got)
	}
	if !slices.Contains(got[RuleSwissRematch], "[c a]") || !slices.Contains(got[RuleSwissRematch], "[b d]") {
		t.Errorf("rematches not found: %v", got)
	}
	if len(got[RuleSwissTwice]) != 2 {
		t.Errorf("players twice: %v", got[RuleSwissTwice])
	}
}

// TestCheckSwiss_AvoidableColourBreakIsAViolation: round 3 of six players
// where a has played sente twice: giving a a third sente is a violation
// when a round keeps every colour rule, and the draw's own round passes.
func TestCheckSwiss_AvoidableColourBreakIsAViolation(t *testing.T) {
	t.Parallel()
	req := SwissRequest{Round: 3, Seed: 5, Settings: SwissSettings{Rounds: 4, BalanceColours: true},
		Players: []SwissPlayer{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}, {ID: "e"}, {ID: "f"}},
		History: []SwissRound{
			{Games: []SwissGame{{Board: 1, Sente: "a", Gote: "c", Result: SenteWins}, {Board: 2, Sente: "b", Gote: "d", Result: SenteWins}, {Board: 3, Sente: "e", Gote: "f", Result: SenteWins}}},
			{Games: []SwissGame{{Board: 1, Sente: "a", Gote: "f", Result: SenteWins}, {Board: 2, Sente: "b", Gote: "e", Result: GoteWins}, {Board: 3, Sente: "d", Gote: "c", Result: SenteWins}}},
		}}
	bad := SwissPairing{Round: 3, Games: []SwissGame{{Board: 1, Sente: "a", Gote: "e"}, {Board: 2, Sente: "c", Gote: "b"}, {Board: 3, Sente: "f", Gote: "d"}}}
	v, _, err := CheckSwiss(req, bad)
	if err != nil {
		t.Fatal(err)
	}
	if len(v) == 0 || v[0].Rule != RuleSwissThirdInARow || v[0].Players[0] != "a" {
		t.Fatalf("violations %v, want a's third sente in a row", v)
	}
	p, err := DrawSwiss(req)
	if err != nil {
		t.Fatal(err)
	}
	if v, _, err := CheckSwiss(req, p); err != nil || len(v) > 0 || len(p.Report.ColourRulesBroken) > 0 {
		t.Fatalf("the draw's round %v: %v %v", p, v, err)
	}
}

// TestCheckSwiss_BalanceLimitIsTheEvents: round 2 of six players after
// three sente wins, judged as a round of a 3-round class and as the last
// round of a 2-round class. Pairing the winners a–c and the losers d–f
// takes a to sente−gote +2 and f to −2: allowed before the last round
// (no colour violation, and the draw's own round keeps the score
// difference at the one floater), a violation of ±1 in the last round,
// each message naming the limit, where the draw ends everyone within ±1.
func TestCheckSwiss_BalanceLimitIsTheEvents(t *testing.T) {
	t.Parallel()
	req := SwissRequest{Round: 2, Seed: 3, Settings: SwissSettings{BalanceColours: true},
		Players: []SwissPlayer{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}, {ID: "e"}, {ID: "f"}},
		History: []SwissRound{{Games: []SwissGame{{Board: 1, Sente: "a", Gote: "b", Result: SenteWins},
			{Board: 2, Sente: "c", Gote: "d", Result: SenteWins}, {Board: 3, Sente: "e", Gote: "f", Result: SenteWins}}}}}
	round := SwissPairing{Round: 2, Games: []SwissGame{{Board: 1, Sente: "a", Gote: "c"},
		{Board: 2, Sente: "b", Gote: "e"}, {Board: 3, Sente: "d", Gote: "f"}}}
	for _, rounds := range []int{3, 2} {
		req.Settings.Rounds = rounds
		v, _, err := CheckSwiss(req, round)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, x := range v {
			if x.Rule != RuleSwissBalance {
				t.Errorf("%d rounds: unexpected violation %v", rounds, x)
				continue
			}
			got = append(got, x.Players[0])
			if !strings.Contains(x.Message, "past ±1 in the class's last round") {
				t.Errorf("%d rounds: message %q does not name the limit", rounds, x.Message)
			}
		}
		p, err := DrawSwiss(req)
		if err != nil {
			t.Fatal(err)
		}
		bal := map[string]int{}
		for _, g := range append(slices.Clone(req.History[0].Games), p.Games...) {
			bal[g.Sente]++
			bal[g.Gote]--
		}
		out := 0
		for _, b := range bal {
			out += int(b2i(b > 1 || b < -1))
		}
		switch rounds {
		case 3:
			if len(got) > 0 {
				t.Errorf("3 rounds: ±2 in round 2 judged a violation for %v", got)
			}
			if p.Report.ScoreDiffSum != 1 || len(p.Report.ColourRulesBroken) > 0 {
				t.Errorf("3 rounds: the draw's round %v", p)
			}
		case 2:
			if !slices.Equal(got, []string{"a", "f"}) {
				t.Errorf("2 rounds: balance violations for %v, want a and f", got)
			}
			if out > 0 || p.Report.ScoreDiffSum != 3 || len(p.Report.ColourRulesBroken) > 0 {
				t.Errorf("2 rounds: the draw's round %v leaves %d players past ±1", p, out)
			}
		}
	}
}

// TestDrawSwiss_ImpossibleRoundNamesPlayersByID: the certificate lists
// the input's ids, not display names (two players may share a name).
func TestDrawSwiss_ImpossibleRoundNamesPlayersByID(t *testing.T) {
	t.Parallel()
	req := SwissRequest{Round: 2, Seed: 1, Settings: SwissSettings{Rounds: 3},
		Players: []SwissPlayer{{ID: "p1", Name: "佐藤"}, {ID: "p2", Name: "佐藤"}},
		History: []SwissRound{{Games: []SwissGame{{Board: 1, Sente: "p1", Gote: "p2", Result: SenteWins}}}}}
	_, err := DrawSwiss(req)
	var nv *NoSwissPairingError
	if !errors.As(err, &nv) {
		t.Fatalf("err %v", err)
	}
	var ids []string
	for _, g := range nv.Groups {
		ids = append(ids, g...)
	}
	ids = append(ids, nv.Barrier...)
	slices.Sort(ids)
	if !slices.Equal(ids, []string{"p1", "p2"}) {
		t.Fatalf("certificate %v %v, want the ids p1 and p2", nv.Groups, nv.Barrier)
	}
}

// TestSwissColourReport prints what the colour rules cost in score
// differences: 200 classes of 12–131 players over 6 or 7 rounds
// (swissEvent, seeds 0–199), drawn four ways — the event's balance (this
// draw: sente−gote within ±2 before the last round, ±1 in it); ±1 after
// every game; ±2 throughout (FIDE's absolute colour rule, as in
// bbpPairings); and colours as the last objective terms (the draw before
// issue 23); no third in a row in all but the last; the last three are
// test-only switches — whole events each way, and every round of this
// draw's events redrawn the other ways on the same history. Run with
// KISEN_SWISS_COLOUR_REPORT=1 go test -run TestSwissColourReport -v ./pairing/
func TestSwissColourReport(t *testing.T) {
	if os.Getenv("KISEN_SWISS_COLOUR_REPORT") != "1" {
		t.Skip("set KISEN_SWISS_COLOUR_REPORT=1 to print the report")
	}
	modes := []swissColourMode{{}, {strict: true}, {wider: true}, {soft: true}}
	const nm = 4
	type tally struct {
		rounds, players, third, outside, outside2, endOut, broken int
		diff, maxDiff                                             float64
		same                                                      [nm]float64    // Σ on this draw's events' rounds, per mode
		bySize                                                    [3][nm]float64 // by field size
		byParity                                                  [2][nm]float64 // even rounds / odd rounds
		last                                                      [nm]float64    // the last round
	}
	bucket := func(n int) int { return min(2, (n-12)/40) }
	run := func(mode swissColourMode) tally {
		var tl tally
		for seed := uint64(0); seed < 200; seed++ {
			n := 12 + int(seed*53%120)
			rounds := 6 + int(seed%2)
			end, err := swissEventIn(seed, n, rounds, mode, func(r int, req SwissRequest, p SwissPairing) {
				tl.rounds++
				tl.diff += p.Report.ScoreDiffSum
				tl.maxDiff = max(tl.maxDiff, p.Report.ScoreDiffMax)
				tl.broken += len(p.Report.ColourRulesBroken)
				if mode != (swissColourMode{}) {
					return
				}
				for k, m := range modes {
					q := p
					if k > 0 {
						other := req
						other.softColours, other.widerBalance, other.strictBalance = m.soft, m.wider, m.strict
						var err error
						if q, err = DrawSwiss(other); err != nil {
							t.Fatal(err)
						}
					}
					tl.same[k] += q.Report.ScoreDiffSum
					tl.bySize[bucket(n)][k] += q.Report.ScoreDiffSum
					tl.byParity[r%2][k] += q.Report.ScoreDiffSum
					if r == rounds {
						tl.last[k] += q.Report.ScoreDiffSum
					}
				}
			})
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			for _, l := range colourLine(end.History) {
				tl.players++
				third, out, out2, sum := false, false, false, 0
				for k, c := range l {
					sum += c
					third = third || k >= 2 && l[k-1] == c && l[k-2] == c
					out = out || sum > 1 || sum < -1
					out2 = out2 || sum > 2 || sum < -2
				}
				tl.third += int(b2i(third))
				tl.outside += int(b2i(out))
				tl.outside2 += int(b2i(out2))
				tl.endOut += int(b2i(sum > 1 || sum < -1))
			}
		}
		return tl
	}
	var ts [nm]tally
	for k, m := range modes {
		ts[k] = run(m)
	}
	row := func(name string, f func(tl tally) string) {
		t.Logf("%-36s %14s %14s %14s %14s", name, f(ts[0]), f(ts[1]), f(ts[2]), f(ts[3]))
	}
	d := func(x int) string { return fmt.Sprint(x) }
	w := func(x float64) string { return fmt.Sprintf("%.1f", x) }
	t.Logf("200 classes of 12–131 players, 6 or 7 rounds; whole events, each drawn its own way")
	row("", func(tl tally) string {
		return map[int]string{0: "±2, ±1 at end", 1: "±1 every game", 2: "±2 (FIDE)", 3: "before"}[slices.Index(ts[:], tl)]
	})
	row("rounds", func(tl tally) string { return d(tl.rounds) })
	row("Σ score differences (wins)", func(tl tally) string { return w(tl.diff) })
	row("largest difference in a game", func(tl tally) string { return w(tl.maxDiff) })
	row("players", func(tl tally) string { return d(tl.players) })
	row("players with 3 in a row", func(tl tally) string { return d(tl.third) })
	row("players ever past sente−gote ±1", func(tl tally) string { return d(tl.outside) })
	row("players ever past ±2", func(tl tally) string { return d(tl.outside2) })
	row("players ending past ±1", func(tl tally) string { return d(tl.endOut) })
	row("colour rules broken (players)", func(tl tally) string { return d(tl.broken) })
	h := ts[0]
	pct := func(x, base float64) string { return fmt.Sprintf("%.1f (%+.0f%%)", x, 100*(x-base)/base) }
	line := func(name string, x [nm]float64) {
		t.Logf("%-24s %18s %18s %18s %10.1f", name, pct(x[0], x[3]), pct(x[1], x[3]), pct(x[2], x[3]), x[3])
	}
	t.Logf("this draw's events' %d rounds redrawn each way, Σ score differences", h.rounds)
	line("all", h.same)
	for b, name := range []string{"12–51 players", "52–91 players", "92–131 players"} {
		line(name, h.bySize[b])
	}
	line("even rounds", h.byParity[0])
	line("odd rounds", h.byParity[1])
	line("last round", h.last)
}
