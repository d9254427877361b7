package pairing

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// blocking is the blocks of a 2勝通過2敗失格 class: players by index in lot
// order within each block.
type blocking struct {
	p       *pools
	ids     []string
	members [][]int
	of      []int // block of each player
}

// blockID names block k as a whiteboard does: A … Z, AA, AB, …
func blockID(k int) string {
	s := ""
	for k++; k > 0; k = (k - 1) / 26 {
		s = string(rune('A'+(k-1)%26)) + s
	}
	return s
}

// blockSizes splits n players into blocks of four, with as few blocks of
// three as make the count fit: n ≡ 3 (mod 4) one, ≡ 2 two, ≡ 1 three.
// 1, 2 and 5 players cannot be split.
func blockSizes(n int) ([]int, bool) {
	threes := (4 - n%4) % 4
	if n < 3*threes || n < 3 {
		return nil, false
	}
	fours := (n - 3*threes) / 4
	sizes := make([]int, 0, fours+threes)
	for range fours {
		sizes = append(sizes, 4)
	}
	for range threes {
		sizes = append(sizes, 3)
	}
	return sizes, true
}

const neverCost = 1 << 20

// pairCost is what putting a and b in one block costs.
func (p *pools) pairCost(a, b int) int {
	avoid, never := p.weight(a, b)
	if never {
		return neverCost + avoid
	}
	return avoid
}

// drawBlocks deals the players into blocks by lot, then moves players
// between blocks to keep "never" relations apart and as few "avoid"
// relations together as a local search finds (docs/pools.md).
func (p *pools) drawBlocks(rng *rand.Rand) (*blocking, error) {
	n := len(p.req.Players)
	sizes, ok := blockSizes(n)
	if !ok {
		return nil, &NoPairingError{Round: 1, Reason: fmt.Sprintf("%d players cannot be split into blocks of four and three; use mode records", n)}
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	rng.Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
	bl := &blocking{p: p, of: make([]int, n)}
	at := 0
	for k, sz := range sizes {
		bl.ids = append(bl.ids, blockID(k))
		bl.members = append(bl.members, slices.Clone(order[at:at+sz]))
		for _, i := range order[at : at+sz] {
			bl.of[i] = k
		}
		at += sz
	}
	if err := p.pigeonhole(len(sizes)); err != nil {
		return nil, err
	}
	bl.improve(rng)
	for k, m := range bl.members {
		for x := range m {
			for y := x + 1; y < len(m); y++ {
				if p.never[pairKey(m[x], m[y])] {
					a, b := p.req.Players[m[x]], p.req.Players[m[y]]
					return nil, &NoPairingError{Round: 1, Players: sortedIDs(a.ID, b.ID),
						Reason: fmt.Sprintf("the search found no blocks keeping every \"never\" relation apart; %s and %s (%s) stay together in block %s — relax that relation to avoid",
							a.ID, b.ID, strings.Join(p.rel[m[x]][m[y]], ", "), bl.ids[k])}
				}
			}
		}
	}
	return bl, nil
}

// pigeonhole reports a "never" group larger than the number of blocks: a
// club, a family or one master's students that no split can keep apart.
func (p *pools) pigeonhole(blocks int) error {
	check := func(kind string, key func(PoolPlayer) string) error {
		if p.req.Relations.of(kind) != PolicyNever {
			return nil
		}
		by := map[string][]string{}
		for _, pl := range p.req.Players {
			if k := key(pl); k != "" {
				by[k] = append(by[k], pl.ID)
			}
		}
		keys := make([]string, 0, len(by))
		for k := range by {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if g := by[k]; len(g) > blocks {
				return &NoPairingError{Round: 1, Players: sortedIDs(g...),
					Reason: fmt.Sprintf("%s %q has %d players but there are only %d blocks, and the relation is set to never", kind, k, len(g), blocks)}
			}
		}
		return nil
	}
	for _, c := range []struct {
		kind string
		key  func(PoolPlayer) string
	}{
		{RelationClub, func(pl PoolPlayer) string { return pl.Club }},
		{RelationFamily, func(pl PoolPlayer) string { return pl.Family }},
		{RelationFellowDisciple, func(pl PoolPlayer) string { return pl.Master }},
	} {
		if err := check(c.kind, c.key); err != nil {
			return err
		}
	}
	return nil
}

// costIn is what player x costs in block k, not counting skip.
func (bl *blocking) costIn(x, k, skip int) int {
	c := 0
	for _, z := range bl.members[k] {
		if z != x && z != skip && bl.p.rel[x] != nil {
			if _, ok := bl.p.rel[x][z]; ok {
				c += bl.p.pairCost(x, z)
			}
		}
	}
	return c
}

// improve is a min-conflicts search: take a player who shares a block with
// a relation and swap them with the player elsewhere whose swap lowers the
// cost most (sideways moves allowed, so plateaus are crossed).
func (bl *blocking) improve(rng *rand.Rand) {
	n := len(bl.of)
	pos := func(x int) int { return slices.Index(bl.members[bl.of[x]], x) }
	// Stop at no conflict, or when n steps in a row have not lowered the
	// cost: "avoid" relations that cannot all be kept apart (a club bigger
	// than the block count) would otherwise keep the search going.
	total, best, stale := 0, 0, 0
	var conflicted []int
	for step := 0; step < 20*n+200 && stale < n+50; step++ {
		conflicted, total = conflicted[:0], 0
		for x := range n {
			if bl.p.rel[x] != nil {
				if c := bl.costIn(x, bl.of[x], -1); c > 0 {
					conflicted = append(conflicted, x)
					total += c
				}
			}
		}
		if len(conflicted) == 0 {
			return
		}
		if step == 0 || total < best {
			best, stale = total, 0
		} else {
			stale++
		}
		x := conflicted[rng.IntN(len(conflicted))]
		kx := bl.of[x]
		cx := bl.costIn(x, kx, -1)
		swap, bestDelta, ties := -1, 1, 0
		for y := range n {
			ky := bl.of[y]
			if ky == kx {
				continue
			}
			delta := bl.costIn(x, ky, y) + bl.costIn(y, kx, x) - cx - bl.costIn(y, ky, -1)
			switch {
			case delta < bestDelta:
				swap, bestDelta, ties = y, delta, 1
			case delta == bestDelta:
				ties++
				if rng.IntN(ties) == 0 {
					swap = y
				}
			}
		}
		if swap < 0 || bestDelta > 0 {
			continue
		}
		ky := bl.of[swap]
		px, py := pos(x), pos(swap)
		bl.members[kx][px], bl.members[ky][py] = swap, x
		bl.of[x], bl.of[swap] = ky, kx
	}
}

// givenBlocks validates blocks from the input: every player in exactly one
// block of three or four, sizes as blockSizes makes them.
func (p *pools) givenBlocks(in []PoolBlock) (*blocking, error) {
	n := len(p.req.Players)
	bl := &blocking{p: p, of: make([]int, n)}
	for i := range bl.of {
		bl.of[i] = -1
	}
	seenID := map[string]bool{}
	for k, b := range in {
		at := fmt.Sprintf("blocks[%d]", k)
		id := b.ID
		if id == "" {
			id = blockID(k)
		}
		if seenID[id] {
			return nil, fieldErr(at+".id", "duplicate block id %q", id)
		}
		seenID[id] = true
		if len(b.Players) != 3 && len(b.Players) != 4 {
			return nil, fieldErr(at+".players", "a block has 3 or 4 players, this one %d", len(b.Players))
		}
		var m []int
		for j, pid := range b.Players {
			i, ok := p.index[pid]
			if !ok {
				return nil, fieldErr(fmt.Sprintf("%s.players[%d]", at, j), "unknown player %q", pid)
			}
			if bl.of[i] >= 0 {
				return nil, fieldErr(fmt.Sprintf("%s.players[%d]", at, j), "%q is also in block %s", pid, bl.ids[bl.of[i]])
			}
			bl.of[i] = k
			m = append(m, i)
		}
		bl.ids = append(bl.ids, id)
		bl.members = append(bl.members, m)
	}
	for i, k := range bl.of {
		if k < 0 {
			return nil, fieldErr("blocks", "player %q is in no block", p.req.Players[i].ID)
		}
	}
	return bl, nil
}

func (bl *blocking) blocks() []PoolBlock {
	out := make([]PoolBlock, len(bl.ids))
	for k, id := range bl.ids {
		b := PoolBlock{ID: id}
		for _, i := range bl.members[k] {
			b.Players = append(b.Players, bl.p.req.Players[i].ID)
		}
		out[k] = b
	}
	return out
}

// notKept lists each avoided relation inside a block.
func (bl *blocking) notKept() []NotKept {
	var out []NotKept
	for k, m := range bl.members {
		for x := range m {
			for y := x + 1; y < len(m); y++ {
				out = append(out, bl.p.notKept(m[x], m[y], bl.ids[k], 0)...)
			}
		}
	}
	return out
}

// violations reports "never" relations sharing a block.
func (bl *blocking) violations() []Violation {
	var out []Violation
	for k, m := range bl.members {
		for x := range m {
			for y := x + 1; y < len(m); y++ {
				if bl.p.never[pairKey(m[x], m[y])] {
					a, b := bl.p.req.Players[m[x]].ID, bl.p.req.Players[m[y]].ID
					out = append(out, Violation{Rule: RulePoolNever, Players: []string{a, b},
						Message: fmt.Sprintf("%s and %s are %s, a relation set to never, and share block %s", a, b, strings.Join(bl.p.rel[m[x]][m[y]], ", "), bl.ids[k])})
				}
			}
		}
	}
	return out
}

// blockGames is one block's next round: games (by position order) and a
// bye (-1 for none). Round 1 pairs positions 1–2 and 3–4 (position 3 of a
// block of three has the bye); later rounds pair the block's playing
// players with equal records, and a record held by one player alone is a
// bye — the empty fourth place of a block of three (docs/pools.md).
func (bl *blocking) blockGames(k int, s *state) (games [][2]int, byes []int) {
	m := bl.members[k]
	if s.played == 0 {
		games = append(games, [2]int{m[0], m[1]})
		if len(m) == 4 {
			games = append(games, [2]int{m[2], m[3]})
		} else {
			byes = append(byes, m[2])
		}
		return games, byes
	}
	var groups [][]int
	var recs []Record
	for _, i := range m {
		if s.status[i] != StatusPlaying {
			continue
		}
		g := slices.Index(recs, s.rec[i])
		if g < 0 {
			recs = append(recs, s.rec[i])
			groups = append(groups, nil)
			g = len(groups) - 1
		}
		groups[g] = append(groups[g], i)
	}
	for _, g := range groups {
		for len(g) >= 2 {
			games = append(games, [2]int{g[0], g[1]})
			g = g[2:]
		}
		if len(g) == 1 {
			byes = append(byes, g[0])
		}
	}
	return games, byes
}

// expected is the set of next-round games (as [min, max]) and byes (as
// [player, -1]) the block schedule makes.
func (bl *blocking) expected(s *state) map[[2]int]bool {
	out := map[[2]int]bool{}
	for k := range bl.members {
		games, byes := bl.blockGames(k, s)
		for _, g := range games {
			out[[2]int{min(g[0], g[1]), max(g[0], g[1])}] = true
		}
		for _, b := range byes {
			out[[2]int{b, -1}] = true
		}
	}
	return out
}

// round is the next round of every block, boards numbered in block order.
func (bl *blocking) round(s *state) ([]PoolPairing, []string) {
	var pairs []PoolPairing
	var byes []string
	for k := range bl.members {
		games, bys := bl.blockGames(k, s)
		for _, g := range games {
			a, b := g[0], g[1]
			pairs = append(pairs, PoolPairing{Board: len(pairs) + 1, Block: bl.ids[k],
				Players: [2]string{bl.p.req.Players[a].ID, bl.p.req.Players[b].ID},
				Records: [2]Record{s.rec[a], s.rec[b]}, Rematch: s.met[pairKey(a, b)] > 0})
		}
		for _, b := range bys {
			byes = append(byes, bl.p.req.Players[b].ID)
		}
	}
	return pairs, byes
}
