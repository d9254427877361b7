package pairing

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// bruteMinCost is the cheapest perfect matching by enumeration; -1 when
// there is none.
func bruteMinCost(n int, cost [][]int64) int64 {
	best := int64(-1)
	used := make([]bool, n)
	var rec func(sum int64)
	rec = func(sum int64) {
		i := 0
		for i < n && used[i] {
			i++
		}
		if i == n {
			if best < 0 || sum < best {
				best = sum
			}
			return
		}
		used[i] = true
		for j := i + 1; j < n; j++ {
			if !used[j] && cost[i][j] >= 0 {
				used[j] = true
				rec(sum + cost[i][j])
				used[j] = false
			}
		}
		used[i] = false
	}
	rec(0)
	return best
}

func TestWeightedMatcher_MinCostPerfectMatchesBruteForce(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 3000 {
		n := 2 * (1 + rng.IntN(6))
		density := 0.3 + 0.7*rng.Float64()
		cost := make([][]int64, n)
		for i := range cost {
			cost[i] = make([]int64, n)
		}
		var maxC int64
		for i := range n {
			for j := i + 1; j < n; j++ {
				c := int64(-1)
				if rng.Float64() < density {
					c = int64(rng.IntN(4)) * int64(1+rng.IntN(3))
				}
				cost[i][j], cost[j][i] = c, c
				maxC = max(maxC, c)
			}
		}
		want := bruteMinCost(n, cost)
		m := newWeightedMatcher(n)
		top := maxC*int64(n+2) + 1
		for i := range n {
			for j := i + 1; j < n; j++ {
				if cost[i][j] >= 0 {
					m.setWeight(i+1, j+1, top-cost[i][j])
				}
			}
		}
		if trial%2 == 0 { // warm start on zero-cost pairs
			for i := 1; i <= n; i++ {
				for j := i + 1; j <= n && m.match[i] == 0; j++ {
					if m.match[j] == 0 && cost[i-1][j-1] == 0 {
						m.match[i], m.match[j] = j, i
					}
				}
			}
		}
		mate := m.solve(top)
		got := int64(0)
		perfect := true
		for i := 1; i <= n; i++ {
			j := mate[i]
			if j == 0 {
				perfect = false
				break
			}
			if mate[j] != i || cost[i-1][j-1] < 0 {
				t.Fatalf("trial %d: inconsistent mate %d↔%d", trial, i, j)
			}
			if i < j {
				got += cost[i-1][j-1]
			}
		}
		if !perfect {
			got = -1
		}
		if got != want {
			t.Fatalf("trial %d (n=%d): cost %d, brute force %d", trial, n, got, want)
		}
	}
}

// TestDrawSwiss_ObjectiveMinimalAgainstBruteForce compares every draw of
// small random classes (random histories, relations, withdrawals) with the
// best round found by enumerating all of them: the same feasibility, the
// bye in the same lowest tier, and the same objective (score-difference
// sum, then max, then avoidances, colour overflows and repeats).
func TestDrawSwiss_ObjectiveMinimalAgainstBruteForce(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 7))
	infeasible := 0
	for trial := range 1500 {
		n := 2 + rng.IntN(10)
		req := randomSwiss(rng, n, rng.IntN(5))
		o := newSwissOracle(req)
		want, tier, ok := o.brute()
		p, err := DrawSwiss(req)
		var nv *NoSwissPairingError
		switch {
		case errors.As(err, &nv):
			if ok {
				t.Fatalf("trial %d: draw says impossible (%v) but brute force found %v", trial, err, want)
			}
			infeasible++
			continue
		case errors.Is(err, ErrInvalid):
			if len(o.active()) < 2 {
				continue
			}
			t.Fatalf("trial %d: %v", trial, err)
		case err != nil:
			t.Fatalf("trial %d: %v", trial, err)
		}
		if !ok {
			t.Fatalf("trial %d: brute force finds no round, draw gave %+v", trial, p)
		}
		got, bad := o.judge(p)
		if len(bad) > 0 {
			t.Fatalf("trial %d: hard rules broken: %v", trial, bad)
		}
		if got != want {
			t.Fatalf("trial %d: objective %v, brute-force optimum %v\nreq %+v\ngot %+v", trial, got, want, req, p)
		}
		if p.Bye != "" && o.score[p.Bye] > tier {
			t.Fatalf("trial %d: bye to %s on %d half-points; the lowest feasible tier is %d", trial, p.Bye, o.score[p.Bye], tier)
		}
	}
	t.Logf("%d of 1500 classes had no valid round", infeasible)
}

// simulate plays a whole class with the draw, random results.
func simulate(t testing.TB, req SwissRequest, rounds int, rng *rand.Rand, check func(r int, req SwissRequest, p SwissPairing)) SwissRequest {
	for r := 1; r <= rounds; r++ {
		req.Round = r
		p, err := DrawSwiss(req)
		if err != nil {
			if t == nil {
				panic(err)
			}
			t.Fatalf("round %d: %v", r, err)
		}
		if check != nil {
			check(r, req, p)
		}
		var rd SwissRound
		for _, g := range p.Games {
			res := SenteWins
			if rng.IntN(2) == 0 {
				res = GoteWins
			}
			g.Result = res
			rd.Games = append(rd.Games, g)
		}
		rd.Bye = p.Bye
		req.History = append(req.History, rd)
	}
	return req
}

func simClass(n int, balance bool) SwissRequest {
	req := SwissRequest{Settings: SwissSettings{Rounds: 7, BalanceColours: balance}}
	for i := range n {
		req.Players = append(req.Players, SwissPlayer{ID: fmt.Sprintf("s%03d", i), Rating: 2000 - i,
			Club: fmt.Sprintf("c%d", i%9), Master: fmt.Sprintf("m%d", i%17)})
	}
	return req
}

func TestDrawSwiss_FullEventsKeepHardRules(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		n       int
		balance bool
		never   bool
	}{
		{"even field, colours balanced", 40, true, false},
		{"odd field, colours balanced", 41, true, false},
		{"odd field, furigoma", 33, false, false},
		{"club never", 37, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(tc.n), 3))
			req := simClass(tc.n, tc.balance)
			if tc.never {
				req.Settings.Relations.Club = RelationNever
			}
			req.Seed = 99
			byes := map[string]int{}
			simulate(t, req, 7, rng, func(r int, req SwissRequest, p SwissPairing) {
				o := newSwissOracle(req)
				if _, bad := o.judge(p); len(bad) > 0 {
					t.Fatalf("round %d: %v", r, bad)
				}
				if p.Bye != "" {
					byes[p.Bye]++
					for _, id := range o.active() {
						if !o.bye[id] && o.score[id] < o.score[p.Bye] {
							// allowed only if that lower tier leaves no valid round:
							// the brute-force test proves tiers on small classes.
							t.Logf("round %d: bye to %s over lower-scored %s", r, p.Bye, id)
						}
					}
				}
			})
			for id, k := range byes {
				if k > 1 {
					t.Errorf("%s had %d byes", id, k)
				}
			}
		})
	}
}

// TestDrawSwiss_ColourBalanceWithinOne: with colours balanced and no
// relation rules, 40 players over 7 rounds end with every player's sente
// and gote counts within one, recounted from the games.
func TestDrawSwiss_ColourBalanceWithinOne(t *testing.T) {
	t.Parallel()
	for seed := range uint64(5) {
		rng := rand.New(rand.NewPCG(seed, 5))
		req := simClass(40, true)
		req.Settings.Relations = SwissRelations{Club: RelationIgnore, MasterStudent: RelationIgnore, FellowDisciple: RelationIgnore, Family: RelationIgnore}
		req.Seed = seed
		end := simulate(t, req, 7, rng, nil)
		bal := map[string]int{}
		for _, r := range end.History {
			for _, g := range r.Games {
				bal[g.Sente]++
				bal[g.Gote]--
			}
		}
		for id, b := range bal {
			if b > 1 || b < -1 {
				t.Errorf("seed %d: %s ends sente−gote %+d", seed, id, b)
			}
		}
	}
}

func TestDrawSwiss_SameInputSameRoundWhateverTheOrder(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(11, 11))
	req := simulate(t, simClass(30, true), 3, rng, nil)
	req.Round = 4
	a, err := DrawSwiss(req)
	if err != nil {
		t.Fatal(err)
	}
	shuffled := req
	shuffled.Players = slices.Clone(req.Players)
	slices.Reverse(shuffled.Players)
	b, err := DrawSwiss(shuffled)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("player order changed the draw:\n%v\n%v", a, b)
	}
	req.Seed++
	c, _ := DrawSwiss(req)
	if fmt.Sprint(a.Games) == fmt.Sprint(c.Games) {
		t.Log("another seed drew the same round (possible, rare)")
	}
}

func TestDrawSwiss_NeverRelationsAreNotPairedEvenInRoundOne(t *testing.T) {
	t.Parallel()
	req := SwissRequest{Round: 1, Seed: 3, Settings: SwissSettings{Rounds: 3,
		Relations: SwissRelations{Club: RelationNever, Family: RelationNever, MasterStudent: RelationNever, FellowDisciple: RelationNever}}}
	for i := range 8 {
		req.Players = append(req.Players, SwissPlayer{ID: fmt.Sprintf("p%d", i), Club: fmt.Sprintf("c%d", i%2)})
	}
	for seed := range uint64(50) {
		req.Seed = seed
		p, err := DrawSwiss(req)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range p.Games {
			if g.Sente[1]%2 == g.Gote[1]%2 {
				t.Fatalf("seed %d: %s and %s share a club", seed, g.Sente, g.Gote)
			}
		}
	}
}

func TestDrawSwiss_AvoidanceNotKeptIsReportedByName(t *testing.T) {
	t.Parallel()
	// Four players of one club: every pairing keeps two club pairs together.
	req := SwissRequest{Round: 1, Seed: 1, Settings: SwissSettings{Rounds: 3}}
	for _, n := range []string{"青木", "井上", "上田", "江口"} {
		req.Players = append(req.Players, SwissPlayer{ID: n, Name: n, Club: "本郷支部"})
	}
	p, err := DrawSwiss(req)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Report.NotKept) != 2 {
		t.Fatalf("not kept %+v, want 2", p.Report.NotKept)
	}
	for _, a := range p.Report.NotKept {
		if a.Relation != RelClub || a.Players[0] == "" || a.Board == 0 {
			t.Errorf("avoidance %+v", a)
		}
	}
}

func TestDrawSwiss_ImpossibleRoundExplains(t *testing.T) {
	t.Parallel()
	// Three players after two rounds: everyone has met, one has had the bye.
	req := SwissRequest{Round: 3, Seed: 1, Settings: SwissSettings{Rounds: 3},
		Players: []SwissPlayer{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}},
		History: []SwissRound{
			{Games: []SwissGame{{Sente: "a", Gote: "b", Result: SenteWins}, {Sente: "c", Gote: "d", Result: SenteWins}}},
			{Games: []SwissGame{{Sente: "a", Gote: "c", Result: SenteWins}, {Sente: "b", Gote: "d", Result: SenteWins}}},
		}}
	req.Players[0].Club, req.Players[3].Club = "x", "x"
	req.Settings.Relations.Club = RelationNever
	_, err := DrawSwiss(req)
	var nv *NoSwissPairingError
	if !errors.As(err, &nv) {
		t.Fatalf("err %v, want NoSwissPairingError", err)
	}
	if len(nv.Groups) <= len(nv.Barrier) {
		t.Errorf("certificate %+v does not show the shortage", nv)
	}
}

func TestDrawSwiss_BadInputNamesTheField(t *testing.T) {
	t.Parallel()
	base := func() SwissRequest {
		return SwissRequest{Round: 1, Settings: SwissSettings{Rounds: 3},
			Players: []SwissPlayer{{ID: "a"}, {ID: "b"}}}
	}
	for _, tc := range []struct {
		field string
		edit  func(r *SwissRequest)
	}{
		{"players[1].id", func(r *SwissRequest) { r.Players[1].ID = "a" }},
		{"players[0].rank", func(r *SwissRequest) { r.Players[0].Rank = "強い" }},
		{"settings.rounds", func(r *SwissRequest) { r.Settings.Rounds = 0 }},
		{"round", func(r *SwissRequest) { r.Round = 2 }},
		{"settings.relations.club", func(r *SwissRequest) { r.Settings.Relations.Club = "sometimes" }},
		{"settings.tiebreaks[0]", func(r *SwissRequest) { r.Settings.Tiebreaks = []Tiebreak{"elo"} }},
		{"rounds[0].games[0].result", func(r *SwissRequest) {
			r.History = []SwissRound{{Games: []SwissGame{{Sente: "a", Gote: "b"}}}}
			r.Round = 2
		}},
		{"rounds[0].games[0].gote", func(r *SwissRequest) {
			r.History = []SwissRound{{Games: []SwissGame{{Sente: "a", Gote: "zz", Result: SenteWins}}}}
			r.Round = 2
		}},
		{"rounds[1].bye", func(r *SwissRequest) {
			r.History = []SwissRound{{Bye: "a"}, {Bye: "a"}}
			r.Round = 3
		}},
	} {
		r := base()
		tc.edit(&r)
		_, err := DrawSwiss(r)
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != tc.field {
			t.Errorf("%s: err %v", tc.field, err)
		}
	}
}

// The graph's weights are the objective, pair by pair, recomputed the
// plain way (the met map, relations, colourClash): no edge for a rematch or
// a never relation; otherwise top − (difference, avoid relations kept,
// colour overflows and repeats, each at its weight). The colour order key
// sorts every pair as colourOrder does. Checked on every pair of a
// 500-player round 5 and of 400 random classes (relations, draws,
// withdrawals, odd fields); one scratch is reused, as the draw does.
func TestSwissGraph_WeightsAreTheObjective(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 14))
	var sc swissScratch
	edges := 0
	for trial := range 401 {
		req := randomSwiss(rng, 2+rng.IntN(60), rng.IntN(6))
		if trial == 0 {
			req = benchSwiss500(3, 4)
			req.Round = 5
		}
		s, err := newSwissState(req, true)
		if err != nil {
			continue
		}
		lot := s.active()
		if len(lot) < 2 {
			continue
		}
		rng.Shuffle(len(lot), func(i, j int) { lot[i], lot[j] = lot[j], lot[i] })
		relaxed := trial%2 == 1
		g := s.graphIn(lot, &sc, relaxed)
		c := g.costs
		w := g.n + 1
		minPos := noLimit
		for x := 1; x < w; x++ {
			for y := 1; y < w; y++ {
				if x == y || x == g.byeV || y == g.byeV {
					if g.w[x*w+y] != 0 {
						t.Fatalf("trial %d: %d–%d is an edge", trial, x, y)
					}
					continue
				}
				a, b := lot[x-1], lot[y-1]
				never, avoid := s.relations(a, b)
				if s.met[pairKey(a, b)] || never {
					if _, ok := g.pair(x, y); ok || g.w[x*w+y] != 0 {
						t.Fatalf("trial %d: %d–%d may not meet but is an edge", trial, x, y)
					}
					continue
				}
				if req.Settings.BalanceColours && !relaxed {
					if broken, _, _ := s.colourClash(a, b); broken > 0 {
						if _, ok := g.pair(x, y); ok {
							t.Fatalf("trial %d: %d–%d breaks a colour rule but is an edge", trial, x, y)
						}
						continue
					}
				}
				edges++
				d := s.score[a] - s.score[b]
				if d < 0 {
					d = -d
				}
				if d > 0 {
					minPos = min(minPos, d)
				}
				cost := int64(d)*c.diff + int64(len(avoid))*c.avoid
				if req.Settings.BalanceColours {
					broken, strong, weak := s.colourClash(a, b)
					cost += int64(broken)*c.broken + int64(strong)*c.strong + int64(weak)*c.weak
				}
				if gd, ok := g.pair(x, y); !ok || gd != d || g.w[x*w+y] != g.top-cost {
					t.Fatalf("trial %d: %d–%d diff %d cost %d, want %d and %d", trial, x, y, gd, g.top-g.w[x*w+y], d, cost)
				}
				if zero := g.zero[(x-1)*g.zeroWords+(y-1)/64]&(1<<((y-1)%64)) != 0; zero != (cost == 0) {
					t.Fatalf("trial %d: %d–%d in the zero-cost graph: %v, cost %d", trial, x, y, zero, cost)
				}
				if se, _ := s.colourOrder(a, b); (s.colourKey(a) < s.colourKey(b)) != (se == a) {
					t.Fatalf("trial %d: colour key and colourOrder disagree on %d–%d", trial, x, y)
				}
			}
		}
		if g.minPos != minPos {
			t.Fatalf("trial %d: smallest positive difference %d, want %d", trial, g.minPos, minPos)
		}
	}
	if edges < 150000 {
		t.Fatalf("only %d edges checked", edges)
	}
}

// A player twice in one played round: the message names both places (the
// field names are formatted only on error).
func TestDrawSwiss_PlayerTwiceInARoundNamesBothPlaces(t *testing.T) {
	t.Parallel()
	req := SwissRequest{Round: 2, Settings: SwissSettings{Rounds: 3},
		Players: []SwissPlayer{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}},
		History: []SwissRound{{Games: []SwissGame{{Sente: "a", Gote: "b", Result: SenteWins}, {Sente: "c", Gote: "a", Result: GoteWins}}}}}
	_, err := DrawSwiss(req)
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Field != "rounds[0].games[1].gote" || fe.Reason != `"a" already plays in this round (rounds[0].games[0].sente)` {
		t.Fatalf("err %#v", err)
	}
	req.History = []SwissRound{{Games: []SwissGame{{Sente: "a", Gote: "b", Result: SenteWins}}, Bye: "b"}}
	_, err = DrawSwiss(req)
	if !errors.As(err, &fe) || fe.Field != "rounds[0].bye" || fe.Reason != `"b" already plays in this round (rounds[0].games[0].gote)` {
		t.Fatalf("err %#v", err)
	}
}
