package pairing

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// The oracle recomputes everything a Swiss check needs straight from the
// request: scores, who met whom, colours, byes and relations. It never reads
// the draw's own state.
type swissOracle struct {
	req    SwissRequest
	score  map[string]int // half-points
	bye    map[string]bool
	met    map[[2]string]bool
	colour map[string]int
	last   map[string]int
	seq    map[string][]int // each player's sides in the games played, in order: +1 sente, −1 gote
	player map[string]SwissPlayer
}

func newSwissOracle(req SwissRequest) *swissOracle {
	o := &swissOracle{req: req, score: map[string]int{}, bye: map[string]bool{}, met: map[[2]string]bool{},
		colour: map[string]int{}, last: map[string]int{}, seq: map[string][]int{}, player: map[string]SwissPlayer{}}
	for _, p := range req.Players {
		o.player[p.ID] = p
	}
	for _, r := range req.History {
		for _, g := range r.Games {
			switch g.Result {
			case SenteWins:
				o.score[g.Sente] += 2
			case GoteWins:
				o.score[g.Gote] += 2
			case DrawnGame:
				o.score[g.Sente]++
				o.score[g.Gote]++
			}
			o.met[[2]string{g.Sente, g.Gote}] = true
			o.met[[2]string{g.Gote, g.Sente}] = true
			o.colour[g.Sente]++
			o.colour[g.Gote]--
			o.last[g.Sente], o.last[g.Gote] = 1, -1
			o.seq[g.Sente] = append(o.seq[g.Sente], 1)
			o.seq[g.Gote] = append(o.seq[g.Gote], -1)
		}
		if r.Bye != "" {
			o.bye[r.Bye] = true
			o.score[r.Bye] += 2
		}
	}
	return o
}

func (o *swissOracle) active() []string {
	var ids []string
	for _, p := range o.req.Players {
		if !p.Withdrawn {
			ids = append(ids, p.ID)
		}
	}
	return ids
}

// rel lists the relation kinds between a and b with their setting.
func (o *swissOracle) rel(a, b string) map[string]Relation {
	pa, pb := o.player[a], o.player[b]
	set := o.req.Settings.Relations
	or := func(r Relation) Relation {
		if r == "" {
			return RelationAvoid
		}
		return r
	}
	out := map[string]Relation{}
	if pa.Club != "" && pa.Club == pb.Club {
		out["club"] = or(set.Club)
	}
	if pa.Master == b || pb.Master == a {
		out["master_student"] = or(set.MasterStudent)
	}
	if pa.Master != "" && pa.Master == pb.Master {
		out["fellow_disciple"] = or(set.FellowDisciple)
	}
	if pa.Family != "" && pa.Family == pb.Family {
		out["family"] = or(set.Family)
	}
	return out
}

func (o *swissOracle) allowed(a, b string) bool {
	if o.met[[2]string{a, b}] {
		return false
	}
	for _, r := range o.rel(a, b) {
		if r == RelationNever {
			return false
		}
	}
	return true
}

func (o *swissOracle) avoidCount(a, b string) int {
	k := 0
	for _, r := range o.rel(a, b) {
		if r == RelationAvoid {
			k++
		}
	}
	return k
}

// breaksRule reports whether id taking side (+1 sente, −1 gote) plays a
// third game in a row on that side or ends past the sente−gote limit on
// that side — ±2 before the class's last round, ±1 in it — from the
// sequence of its games and the round number.
func (o *swissOracle) breaksRule(id string, side int) bool {
	q := o.seq[id]
	sum := side
	for _, c := range q {
		sum += c
	}
	third := len(q) >= 2 && q[len(q)-1] == side && q[len(q)-2] == side
	limit := 2
	if o.req.Round == o.req.Settings.Rounds {
		limit = 1
	}
	// Past the limit on the side taken: a player already past it (an old
	// or relaxed history) keeps the rule by the side that brings them back.
	return third || sum*side > limit
}

// colourCost is (players breaking a colour rule, players past ±1, level
// players repeating their colour) with sente given to s.
func (o *swissOracle) colourCost(s, g string) (int, int, int) {
	broken, strong, weak := 0, 0, 0
	if o.req.Settings.BalanceColours {
		if o.breaksRule(s, 1) {
			broken++
		}
		if o.breaksRule(g, -1) {
			broken++
		}
	}
	if o.colour[s]+1 > 1 {
		strong++
	}
	if o.colour[g]-1 < -1 {
		strong++
	}
	if o.colour[s] == 0 && o.last[s] == 1 {
		weak++
	}
	if o.colour[g] == 0 && o.last[g] == -1 {
		weak++
	}
	return broken, strong, weak
}

// swissScore is the objective in order: players breaking a colour rule,
// sum and max of score differences, avoid relations kept together, colour
// overflows, colour repeats.
type swissScore [6]int

func less(a, b swissScore) bool { return slices.Compare(a[:], b[:]) < 0 }

func (o *swissOracle) diff(a, b string) int {
	d := o.score[a] - o.score[b]
	if d < 0 {
		d = -d
	}
	return d
}

// judge scores a drawn round and lists its hard-rule breaches.
func (o *swissOracle) judge(p SwissPairing) (swissScore, []string) {
	var bad []string
	var sc swissScore
	seen := map[string]int{}
	for _, g := range p.Games {
		seen[g.Sente]++
		seen[g.Gote]++
		if o.met[[2]string{g.Sente, g.Gote}] {
			bad = append(bad, fmt.Sprintf("rematch %s–%s", g.Sente, g.Gote))
		}
		for k, r := range o.rel(g.Sente, g.Gote) {
			if r == RelationNever {
				bad = append(bad, fmt.Sprintf("never relation %s paired %s–%s", k, g.Sente, g.Gote))
			}
		}
		d := o.diff(g.Sente, g.Gote)
		sc[1] += d
		sc[2] = max(sc[2], d)
		sc[3] += o.avoidCount(g.Sente, g.Gote)
		if o.req.Settings.BalanceColours {
			b, s, w := o.colourCost(g.Sente, g.Gote)
			sc[0] += b
			sc[4] += s
			sc[5] += w
		}
	}
	if p.Bye != "" {
		seen[p.Bye]++
		if o.bye[p.Bye] {
			bad = append(bad, "second bye for "+p.Bye)
		}
	}
	act := o.active()
	for _, id := range act {
		if seen[id] != 1 {
			bad = append(bad, fmt.Sprintf("%s appears %d times", id, seen[id]))
		}
	}
	if len(seen) != len(act) {
		bad = append(bad, "a withdrawn or unknown player is drawn")
	}
	if (len(act)%2 == 1) != (p.Bye != "") {
		bad = append(bad, "bye present iff the field is odd")
	}
	return sc, bad
}

// brute enumerates every valid round and returns the best score and the
// bye's score tier; ok is false when no valid round exists. In a
// colour-balancing class it looks first for rounds that break no colour
// rule (in every bye tier), and only when there is none for any round.
func (o *swissOracle) brute() (best swissScore, byeScore int, ok bool) {
	if o.req.Settings.BalanceColours {
		if best, tier, ok := o.bruteWith(true); ok {
			return best, tier, ok
		}
	}
	return o.bruteWith(false)
}

func (o *swissOracle) bruteWith(keepColours bool) (best swissScore, byeScore int, ok bool) {
	act := o.active()
	tiers := []int{-1}
	if len(act)%2 == 1 {
		tiers = nil
		for _, id := range act {
			if !o.bye[id] {
				tiers = append(tiers, o.score[id])
			}
		}
		slices.Sort(tiers)
		tiers = slices.Compact(tiers)
	}
	for _, tier := range tiers {
		found := false
		used := map[string]bool{}
		var rec func(sc swissScore, byeDone bool)
		rec = func(sc swissScore, byeDone bool) {
			i := 0
			for i < len(act) && used[act[i]] {
				i++
			}
			if i == len(act) {
				if !found || less(sc, best) {
					best, found = sc, true
				}
				return
			}
			a := act[i]
			used[a] = true
			if !byeDone && tier >= 0 && !o.bye[a] && o.score[a] <= tier {
				rec(sc, true)
			}
			{
				for _, b := range act[i+1:] {
					if used[b] || !o.allowed(a, b) {
						continue
					}
					used[b] = true
					n := sc
					d := o.diff(a, b)
					n[1] += d
					n[2] = max(n[2], d)
					n[3] += o.avoidCount(a, b)
					if o.req.Settings.BalanceColours {
						c1 := [3]int{}
						c1[0], c1[1], c1[2] = o.colourCost(a, b)
						c2 := [3]int{}
						c2[0], c2[1], c2[2] = o.colourCost(b, a)
						if slices.Compare(c2[:], c1[:]) < 0 {
							c1 = c2
						}
						if keepColours && c1[0] > 0 {
							used[b] = false
							continue
						}
						n[0] += c1[0]
						n[4] += c1[1]
						n[5] += c1[2]
					}
					rec(n, byeDone)
					used[b] = false
				}
			}
			used[a] = false
		}
		// An odd field cannot be used up without the bye, so every
		// complete round has one.
		rec(swissScore{}, tier < 0)
		if found {
			return best, tier, true
		}
	}
	return swissScore{}, 0, false
}

// randomSwiss builds a class with random relations and a random history of
// played rounds (random pairings, not the draw's), so rematch and bye
// constraints bite in every shape.
func randomSwiss(rng *rand.Rand, n, played int) SwissRequest {
	req := SwissRequest{Seed: rng.Uint64()}
	for i := range n {
		p := SwissPlayer{ID: fmt.Sprintf("p%02d", i), Name: fmt.Sprintf("棋士%d", i), Rating: rng.IntN(3) * 100}
		if rng.IntN(3) == 0 {
			p.Club = fmt.Sprintf("club%d", rng.IntN(3))
		}
		if rng.IntN(4) == 0 {
			p.Family = fmt.Sprintf("fam%d", rng.IntN(2))
		}
		if rng.IntN(3) == 0 {
			p.Master = fmt.Sprintf("p%02d", rng.IntN(n))
			if p.Master == p.ID {
				p.Master = "teacher"
			}
		}
		p.Withdrawn = n > 3 && rng.IntN(12) == 0
		req.Players = append(req.Players, p)
	}
	rels := []Relation{RelationNever, RelationAvoid, RelationIgnore}
	req.Settings = SwissSettings{Rounds: played + 1 + rng.IntN(3), BalanceColours: rng.IntN(3) > 0,
		Relations: SwissRelations{Club: rels[rng.IntN(3)], MasterStudent: rels[rng.IntN(3)],
			FellowDisciple: rels[rng.IntN(3)], Family: rels[rng.IntN(3)]}}
	hadBye := map[string]bool{}
	met := map[[2]string]bool{}
	results := []GameResult{SenteWins, GoteWins, SenteWins, GoteWins, DrawnGame}
	for range played {
		ids := make([]string, 0, n)
		for _, p := range req.Players {
			ids = append(ids, p.ID)
		}
		rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
		var r SwissRound
		if len(ids)%2 == 1 {
			for k, id := range ids {
				if !hadBye[id] {
					r.Bye, hadBye[id] = id, true
					ids = append(ids[:k:k], ids[k+1:]...)
					break
				}
			}
			if r.Bye == "" {
				ids = ids[1:] // everyone had one: someone sits out unscored
			}
		}
		for k := 0; k+1 < len(ids); k += 2 {
			a, b := ids[k], ids[k+1]
			if met[[2]string{a, b}] && rng.IntN(2) == 0 {
				continue // mostly no rematches in the past either
			}
			met[[2]string{a, b}], met[[2]string{b, a}] = true, true
			r.Games = append(r.Games, SwissGame{Board: k/2 + 1, Sente: a, Gote: b, Result: results[rng.IntN(len(results))]})
		}
		req.History = append(req.History, r)
	}
	req.Round = played + 1
	return req
}
