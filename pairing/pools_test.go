package pairing

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
	"time"
)

// poolsOracle recomputes everything from the request's own results and
// player fields, never from the draw's bookkeeping.
type poolsOracle struct {
	req  PoolsRequest
	rec  map[string]Record
	met  map[[2]string]int
	byes map[string]int
}

func newPoolsOracle(req PoolsRequest) *poolsOracle {
	o := &poolsOracle{req: req, rec: map[string]Record{}, met: map[[2]string]int{}, byes: map[string]int{}}
	for _, g := range req.Games {
		w, l := g.Winner, g.Players[0]
		if l == w {
			l = g.Players[1]
		}
		r := o.rec[w]
		r.Wins++
		o.rec[w] = r
		r = o.rec[l]
		r.Losses++
		o.rec[l] = r
		o.met[orderedPair(g.Players[0], g.Players[1])]++
	}
	for _, b := range req.Byes {
		r := o.rec[b.Player]
		r.Wins++
		o.rec[b.Player] = r
		o.byes[b.Player]++
	}
	return o
}

func (o *poolsOracle) playing(id string) bool {
	r := o.rec[id]
	return r.Wins < o.req.Wins && r.Losses < o.req.Losses
}

// related lists the relation kinds between a and b from the player fields.
func (o *poolsOracle) related(a, b string) []string {
	var pa, pb PoolPlayer
	for _, pl := range o.req.Players {
		switch pl.ID {
		case a:
			pa = pl
		case b:
			pb = pl
		}
	}
	var out []string
	if pa.Club != "" && pa.Club == pb.Club {
		out = append(out, RelationClub)
	}
	if pa.Family != "" && pa.Family == pb.Family {
		out = append(out, RelationFamily)
	}
	if pa.Master != "" && pa.Master == pb.Master {
		out = append(out, RelationFellowDisciple)
	}
	if pa.Master == b || pb.Master == a {
		out = append(out, RelationMasterStudent)
	}
	return out
}

func (o *poolsOracle) policy(kind string) Policy { return o.req.Relations.of(kind) }

func (o *poolsOracle) never(a, b string) bool {
	for _, k := range o.related(a, b) {
		if o.policy(k) == PolicyNever {
			return true
		}
	}
	return false
}

// checkRound checks one drawn round against the oracle.
func checkPoolsRound(t *testing.T, req PoolsRequest, rd PoolsRound) {
	t.Helper()
	o := newPoolsOracle(req)
	seen := map[string]bool{}
	use := func(id string) {
		if seen[id] {
			t.Fatalf("round %d: %s twice", rd.Round, id)
		}
		seen[id] = true
		if !o.playing(id) {
			t.Fatalf("round %d: %s is paired but has finished with %v", rd.Round, id, o.rec[id])
		}
	}
	blockOf := map[string]string{}
	for _, b := range rd.Blocks {
		for _, id := range b.Players {
			blockOf[id] = b.ID
		}
	}
	for k, g := range rd.Pairings {
		if g.Board != k+1 {
			t.Fatalf("board %d at index %d", g.Board, k)
		}
		a, b := g.Players[0], g.Players[1]
		use(a)
		use(b)
		if o.never(a, b) {
			t.Fatalf("round %d: %s and %s are %v (never) and meet", rd.Round, a, b, o.related(a, b))
		}
		if req.Mode == PoolBlocks {
			if blockOf[a] != blockOf[b] || blockOf[a] != g.Block {
				t.Fatalf("round %d: %s (block %s) meets %s (block %s) on board of block %s", rd.Round, a, blockOf[a], b, blockOf[b], g.Block)
			}
			if o.rec[a] != o.rec[b] {
				t.Fatalf("round %d: block game %s %v vs %s %v", rd.Round, a, o.rec[a], b, o.rec[b])
			}
			if o.met[orderedPair(a, b)] > 0 && rd.Round != 3 {
				t.Fatalf("round %d: rematch %s–%s outside round 3", rd.Round, a, b)
			}
			if g.Rematch != (o.met[orderedPair(a, b)] > 0) {
				t.Fatalf("round %d: rematch flag %v for %s–%s", rd.Round, g.Rematch, a, b)
			}
		} else if o.met[orderedPair(a, b)] > 0 {
			t.Fatalf("round %d: rematch %s–%s", rd.Round, a, b)
		}
		if g.Records != [2]Record{o.rec[a], o.rec[b]} {
			t.Fatalf("round %d: records %v, oracle %v %v", rd.Round, g.Records, o.rec[a], o.rec[b])
		}
	}
	for _, id := range rd.Byes {
		use(id)
	}
	for _, pl := range req.Players {
		if o.playing(pl.ID) && !seen[pl.ID] {
			t.Fatalf("round %d: %s plays on (%v) but has no game and no bye", rd.Round, pl.ID, o.rec[pl.ID])
		}
	}
	if req.Mode == PoolRecords && len(rd.Byes) > 1 {
		t.Fatalf("round %d: %d byes", rd.Round, len(rd.Byes))
	}
	if req.Mode == PoolRecords && len(seen) <= 14 {
		checkPoolsByeOrder(t, req, rd) // brute force: small fields only
	}
	// Never-relations never share a block.
	for _, b := range rd.Blocks {
		for x := range b.Players {
			for y := x + 1; y < len(b.Players); y++ {
				if o.never(b.Players[x], b.Players[y]) {
					t.Fatalf("block %s holds %s and %s, related %v (never)", b.ID, b.Players[x], b.Players[y], o.related(b.Players[x], b.Players[y]))
				}
			}
		}
	}
}

// playPools draws and plays every round to the end, the winner of each
// game by rng; it returns the final request (all results) and the blocks.
func playPools(t *testing.T, req PoolsRequest, rng *rand.Rand) (PoolsRequest, []PoolBlock) {
	t.Helper()
	for range 2 * (req.Wins + req.Losses) {
		rd, err := DrawPools(req)
		if err != nil {
			t.Fatalf("round after %d games: %v", len(req.Games), err)
		}
		checkPoolsRound(t, req, rd)
		if rd.Finished {
			return req, rd.Blocks
		}
		req.Blocks = rd.Blocks
		for _, g := range rd.Pairings {
			req.Games = append(req.Games, PoolGame{Round: rd.Round, Board: g.Board, Players: g.Players, Winner: g.Players[rng.IntN(2)]})
		}
		for _, id := range rd.Byes {
			req.Byes = append(req.Byes, PoolBye{Round: rd.Round, Player: id})
		}
	}
	t.Fatalf("not finished after %d rounds", 2*(req.Wins+req.Losses))
	return req, nil
}

func poolsField(rng *rand.Rand, n, clubs, masters int) []PoolPlayer {
	out := make([]PoolPlayer, n)
	for i := range out {
		out[i] = PoolPlayer{ID: fmt.Sprintf("p%03d", i), Name: fmt.Sprintf("選手%d", i)}
		if clubs > 0 && rng.IntN(3) == 0 {
			out[i].Club = fmt.Sprintf("club%d", rng.IntN(clubs))
		}
		if masters > 0 && rng.IntN(4) == 0 {
			out[i].Master = fmt.Sprintf("m%d", rng.IntN(masters))
		}
		if i > 0 && rng.IntN(20) == 0 {
			out[i].Family = "fam" + out[i-1].ID
			out[i-1].Family = out[i].Family
		}
	}
	return out
}

// checkFinal: every player ends with exactly N wins (qualified) or
// exactly M losses (out), and in blocks mode every block yields two.
func checkPoolsFinal(t *testing.T, req PoolsRequest, blocks []PoolBlock) {
	t.Helper()
	o := newPoolsOracle(req)
	for _, pl := range req.Players {
		r := o.rec[pl.ID]
		if (r.Wins == req.Wins) == (r.Losses == req.Losses) || r.Wins > req.Wins || r.Losses > req.Losses {
			t.Fatalf("%s ends %v; want exactly %d wins or exactly %d losses", pl.ID, r, req.Wins, req.Losses)
		}
	}
	for _, b := range blocks {
		q := 0
		for _, id := range b.Players {
			if o.rec[id].Wins == 2 {
				q++
			}
		}
		if q != 2 {
			t.Fatalf("block %s (%d players) yields %d qualifiers, want 2", b.ID, len(b.Players), q)
		}
	}
	v, _, err := CheckPools(req)
	if err != nil || len(v) > 0 {
		t.Fatalf("--check of the whole preliminary: %v %v", err, v)
	}
}

func TestPools_EveryPlayerEndsWithNWinsOrMLosses(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name          string
		mode          PoolMode
		wins, losses  int
		players       int
		clubs, master int
	}{
		{"2/2 blocks of four", PoolBlocks, 2, 2, 16, 0, 0},
		{"2/2 blocks with one of three", PoolBlocks, 2, 2, 7, 0, 0},
		{"2/2 blocks with two of three", PoolBlocks, 2, 2, 10, 3, 2},
		{"2/2 blocks with three of three", PoolBlocks, 2, 2, 13, 4, 3},
		{"2/2 blocks of three only", PoolBlocks, 2, 2, 9, 0, 0},
		{"2/2 records", PoolRecords, 2, 2, 23, 3, 3},
		{"3勝通過2敗失格 records", PoolRecords, 3, 2, 40, 5, 4},
		{"2勝通過3敗失格 records", PoolRecords, 2, 3, 31, 5, 4},
		{"3/3 records", PoolRecords, 3, 3, 64, 8, 6},
		{"1/1 records", PoolRecords, 1, 1, 11, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for seed := uint64(0); seed < 30; seed++ {
				rng := rand.New(rand.NewPCG(seed, 7))
				req := PoolsRequest{Players: poolsField(rng, c.players, c.clubs, c.master), Wins: c.wins, Losses: c.losses, Mode: c.mode, Seed: seed}
				final, blocks := playPools(t, req, rng)
				checkPoolsFinal(t, final, blocks)
			}
		})
	}
}

func TestPools_BlockOfFourSchedule(t *testing.T) {
	t.Parallel()
	pl := []PoolPlayer{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}}
	req := PoolsRequest{Players: pl, Wins: 2, Losses: 2, Mode: PoolBlocks, Blocks: []PoolBlock{{ID: "A", Players: []string{"a", "b", "c", "d"}}}}
	rd, err := DrawPools(req)
	if err != nil {
		t.Fatal(err)
	}
	if len(rd.Pairings) != 2 || rd.Pairings[0].Players != [2]string{"a", "b"} || rd.Pairings[1].Players != [2]string{"c", "d"} || len(rd.Byes) != 0 {
		t.Fatalf("round 1: %+v byes %v", rd.Pairings, rd.Byes)
	}
	req.Games = []PoolGame{{Round: 1, Players: [2]string{"a", "b"}, Winner: "a"}, {Round: 1, Players: [2]string{"c", "d"}, Winner: "d"}}
	rd, _ = DrawPools(req)
	if len(rd.Pairings) != 2 || rd.Pairings[0].Players != [2]string{"a", "d"} || rd.Pairings[1].Players != [2]string{"b", "c"} {
		t.Fatalf("round 2 (winners, losers): %+v", rd.Pairings)
	}
	req.Games = append(req.Games, PoolGame{Round: 2, Players: [2]string{"a", "d"}, Winner: "d"}, PoolGame{Round: 2, Players: [2]string{"b", "c"}, Winner: "b"})
	rd, _ = DrawPools(req)
	if len(rd.Pairings) != 1 || rd.Pairings[0].Players != [2]string{"a", "b"} || !rd.Pairings[0].Rematch {
		t.Fatalf("round 3 (the two 1-1 players, a rematch of round 1): %+v", rd.Pairings)
	}
	var q []string
	for _, s := range rd.Standings {
		if s.Status == StatusQualified {
			q = append(q, fmt.Sprintf("%s%d", s.ID, s.BlockPlace))
		}
	}
	if !slices.Equal(q, []string{"d1"}) {
		t.Fatalf("qualified after round 2: %v, want d as block winner", q)
	}
}

func TestPools_BlockOfThreeByeCountsAsWin(t *testing.T) {
	t.Parallel()
	pl := []PoolPlayer{{ID: "a"}, {ID: "b"}, {ID: "c"}}
	req := PoolsRequest{Players: pl, Wins: 2, Losses: 2, Mode: PoolBlocks, Blocks: []PoolBlock{{ID: "A", Players: []string{"a", "b", "c"}}}}
	rd, _ := DrawPools(req)
	if len(rd.Pairings) != 1 || rd.Pairings[0].Players != [2]string{"a", "b"} || !slices.Equal(rd.Byes, []string{"c"}) {
		t.Fatalf("round 1: %+v byes %v", rd.Pairings, rd.Byes)
	}
	req.Games = []PoolGame{{Round: 1, Players: [2]string{"a", "b"}, Winner: "b"}}
	req.Byes = []PoolBye{{Round: 1, Player: "c"}}
	rd, _ = DrawPools(req)
	if len(rd.Pairings) != 1 || rd.Pairings[0].Players != [2]string{"b", "c"} || !slices.Equal(rd.Byes, []string{"a"}) {
		t.Fatalf("round 2: the two 1-0 players meet, the 0-1 player has the bye: %+v byes %v", rd.Pairings, rd.Byes)
	}
}

func TestPools_NeverRelationsNeverShareABlockOrGame(t *testing.T) {
	t.Parallel()
	for _, mode := range []PoolMode{PoolBlocks, PoolRecords} {
		for seed := uint64(0); seed < 40; seed++ {
			rng := rand.New(rand.NewPCG(seed, 11))
			req := PoolsRequest{Players: poolsField(rng, 48, 12, 6), Wins: 2, Losses: 2, Mode: mode, Seed: seed,
				Relations: RelationPolicy{Club: PolicyNever, MasterStudent: PolicyNever, FellowDisciple: PolicyNever, Family: PolicyNever}}
			final, blocks := playPools(t, req, rng) // checkPoolsRound checks every block and game
			checkPoolsFinal(t, final, blocks)
		}
	}
}

func TestPools_AvoidancesNotKeptAreReportedByName(t *testing.T) {
	t.Parallel()
	// Eight players of one club in two blocks: the club cannot be kept apart.
	var pl []PoolPlayer
	for i := range 8 {
		pl = append(pl, PoolPlayer{ID: fmt.Sprintf("p%d", i), Name: fmt.Sprintf("名%d", i), Club: "同じ支部"})
	}
	rd, err := DrawPools(PoolsRequest{Players: pl, Wins: 2, Losses: 2, Mode: PoolBlocks, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(rd.NotKept) != 12 { // two blocks of four, six pairs each
		t.Fatalf("%d not kept, want 12: %+v", len(rd.NotKept), rd.NotKept)
	}
	for _, nk := range rd.NotKept {
		if nk.Relation != RelationClub || nk.Names[0] == "" || nk.Names[0] == nk.Players[0] || nk.Block == "" {
			t.Fatalf("not kept %+v: want the club relation with names and block", nk)
		}
	}
	// A club of three in three blocks (nine players) is kept apart.
	pl = nil
	for i := range 9 {
		pl = append(pl, PoolPlayer{ID: fmt.Sprintf("p%d", i)})
	}
	pl[0].Club, pl[1].Club, pl[2].Club = "x", "x", "x"
	for seed := uint64(0); seed < 50; seed++ {
		rd, err := DrawPools(PoolsRequest{Players: pl, Wins: 2, Losses: 2, Mode: PoolBlocks, Seed: seed})
		if err != nil || len(rd.NotKept) != 0 {
			t.Fatalf("seed %d: %v, not kept %+v", seed, err, rd.NotKept)
		}
	}
	// With never, a club bigger than the block count has no draw.
	var np *NoPairingError
	if _, err = DrawPools(PoolsRequest{Players: pl[:8], Wins: 2, Losses: 2, Mode: PoolBlocks, Relations: RelationPolicy{Club: PolicyNever}}); !errors.As(err, &np) {
		t.Fatalf("3 of a club in 2 blocks of four with never: %v, want NoPairingError", err)
	}
	pl[2].Club = ""
	if rd, err := DrawPools(PoolsRequest{Players: pl[:8], Wins: 2, Losses: 2, Mode: PoolBlocks, Relations: RelationPolicy{Club: PolicyNever}}); err != nil || len(rd.NotKept) != 0 {
		t.Fatalf("2 of a club in 2 blocks of four with never: %v %+v", err, rd.NotKept)
	}
	for i := range 8 {
		pl[i].Club = "x"
	}
	if _, err = DrawPools(PoolsRequest{Players: pl[:8], Wins: 2, Losses: 2, Mode: PoolBlocks, Relations: RelationPolicy{Club: PolicyNever}}); !errors.As(err, &np) {
		t.Fatalf("8 of one club in 2 blocks with never: %v, want NoPairingError", err)
	}
}

func TestPools_RecordsModeFloatsAtMostOnePerOddGroup(t *testing.T) {
	t.Parallel()
	// Round 2 after a random round 1 with no relations: the groups are 1-0
	// and 0-1 (plus a bye's 1-0); an odd group floats one player down.
	for seed := uint64(0); seed < 100; seed++ {
		rng := rand.New(rand.NewPCG(seed, 3))
		n := 10 + rng.IntN(40)
		req := PoolsRequest{Players: poolsField(rng, n, 0, 0), Wins: 3, Losses: 3, Mode: PoolRecords, Seed: seed}
		for round := 0; round < 3; round++ {
			rd, err := DrawPools(req)
			if err != nil {
				t.Fatal(err)
			}
			o := newPoolsOracle(req)
			groups := map[Record]int{}
			for _, pl := range req.Players {
				if o.playing(pl.ID) && !slices.Contains(rd.Byes, pl.ID) {
					groups[o.rec[pl.ID]]++
				}
			}
			odd := 0
			for _, c := range groups {
				odd += c % 2
			}
			mixed := 0
			for _, g := range rd.Pairings {
				if o.rec[g.Players[0]] != o.rec[g.Players[1]] {
					mixed++
					if recordDistance(o.rec[g.Players[0]], o.rec[g.Players[1]]) > 2 && round < 2 {
						t.Fatalf("seed %d round %d: float %v–%v", seed, rd.Round, o.rec[g.Players[0]], o.rec[g.Players[1]])
					}
				}
			}
			if round < 2 && mixed > odd {
				t.Fatalf("seed %d round %d: %d mixed games for %d odd groups %v", seed, rd.Round, mixed, odd, groups)
			}
			for _, g := range rd.Pairings {
				req.Games = append(req.Games, PoolGame{Round: rd.Round, Players: g.Players, Winner: g.Players[rng.IntN(2)]})
			}
			for _, id := range rd.Byes {
				req.Byes = append(req.Byes, PoolBye{Round: rd.Round, Player: id})
			}
		}
	}
}

func TestPools_SameRequestSameRound(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 1))
	pl := poolsField(rng, 37, 5, 3)
	for _, mode := range []PoolMode{PoolBlocks, PoolRecords} {
		req := PoolsRequest{Players: pl, Wins: 2, Losses: 2, Mode: mode, Seed: 99}
		a, _ := DrawPools(req)
		b, _ := DrawPools(req)
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Fatalf("%s: same request, different rounds", mode)
		}
	}
}

func TestPools_BadInputNamesTheField(t *testing.T) {
	t.Parallel()
	pl := []PoolPlayer{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}}
	cases := []struct {
		field string
		req   PoolsRequest
	}{
		{"players", PoolsRequest{Players: pl[:1], Wins: 2, Losses: 2, Mode: PoolRecords}},
		{"wins", PoolsRequest{Players: pl, Wins: 0, Losses: 2, Mode: PoolRecords}},
		{"losses", PoolsRequest{Players: pl, Wins: 2, Losses: 11, Mode: PoolRecords}},
		{"mode", PoolsRequest{Players: pl, Wins: 3, Losses: 2, Mode: PoolBlocks}},
		{"mode", PoolsRequest{Players: pl, Wins: 2, Losses: 2, Mode: "swiss"}},
		{"players[1].id", PoolsRequest{Players: []PoolPlayer{{ID: "a"}, {ID: "a"}}, Wins: 2, Losses: 2, Mode: PoolRecords}},
		{"relations.club", PoolsRequest{Players: pl, Wins: 2, Losses: 2, Mode: PoolRecords, Relations: RelationPolicy{Club: "sometimes"}}},
		{"games[0].players[1]", PoolsRequest{Players: pl, Wins: 2, Losses: 2, Mode: PoolRecords, Games: []PoolGame{{Round: 1, Players: [2]string{"a", "z"}, Winner: "a"}}}},
		{"games[0].winner", PoolsRequest{Players: pl, Wins: 2, Losses: 2, Mode: PoolRecords, Games: []PoolGame{{Round: 1, Players: [2]string{"a", "b"}}}}},
		{"games[0].round", PoolsRequest{Players: pl, Wins: 2, Losses: 2, Mode: PoolRecords, Games: []PoolGame{{Round: 0, Players: [2]string{"a", "b"}, Winner: "a"}}}},
		{"blocks", PoolsRequest{Players: pl, Wins: 2, Losses: 2, Mode: PoolBlocks, Games: []PoolGame{{Round: 1, Players: [2]string{"a", "b"}, Winner: "a"}}}},
		{"blocks[0].players", PoolsRequest{Players: pl, Wins: 2, Losses: 2, Mode: PoolBlocks, Blocks: []PoolBlock{{Players: []string{"a", "b"}}}}},
		{"games", PoolsRequest{Players: pl, Wins: 2, Losses: 2, Mode: PoolRecords, Games: []PoolGame{{Round: 1, Players: [2]string{"a", "b"}, Winner: "a"}}}},
	}
	for _, c := range cases {
		_, err := DrawPools(c.req)
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != c.field || !errors.Is(err, ErrInvalid) {
			t.Errorf("want field %s, got %v", c.field, err)
		}
	}
}

func TestPools_NoPairingWhenOnlyRematchesRemain(t *testing.T) {
	t.Parallel()
	// 3勝通過3敗失格 with two players left who already met: no game exists.
	pl := []PoolPlayer{{ID: "a"}, {ID: "b"}}
	req := PoolsRequest{Players: pl, Wins: 3, Losses: 3, Mode: PoolRecords,
		Games: []PoolGame{{Round: 1, Players: [2]string{"a", "b"}, Winner: "a"}}}
	var np *NoPairingError
	if _, err := DrawPools(req); !errors.As(err, &np) || len(np.Players) != 2 {
		t.Fatalf("%v, want NoPairingError naming a and b", err)
	}
}

func TestPools_CheckFindsBrokenRounds(t *testing.T) {
	t.Parallel()
	pl := []PoolPlayer{{ID: "a", Club: "x"}, {ID: "b", Club: "x"}, {ID: "c"}, {ID: "d"}}
	req := PoolsRequest{Players: pl, Wins: 2, Losses: 2, Mode: PoolRecords, Relations: RelationPolicy{Club: PolicyNever},
		Games: []PoolGame{
			{Round: 1, Players: [2]string{"a", "b"}, Winner: "a"},
			{Round: 2, Players: [2]string{"a", "b"}, Winner: "a"},
			{Round: 2, Players: [2]string{"c", "a"}, Winner: "c"},
		}}
	v, _, err := CheckPools(req)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, x := range v {
		got[x.Rule] = true
	}
	for _, r := range []string{RulePoolNever, RulePoolRematch, RulePoolTwice, RulePoolMissing} {
		if !got[r] {
			t.Errorf("missing %s in %+v", r, v)
		}
	}
	// Blocks: a game the schedule does not make.
	req = PoolsRequest{Players: pl, Wins: 2, Losses: 2, Mode: PoolBlocks, Blocks: []PoolBlock{{ID: "A", Players: []string{"a", "b", "c", "d"}}},
		Games: []PoolGame{{Round: 1, Players: [2]string{"a", "c"}, Winner: "a"}, {Round: 1, Players: [2]string{"b", "d"}, Winner: "b"}}}
	v, _, _ = CheckPools(req)
	if len(v) == 0 || v[0].Rule != RulePoolSchedule {
		t.Fatalf("%+v, want %s", v, RulePoolSchedule)
	}
}

func FuzzPools(f *testing.F) {
	f.Add(uint64(1), uint8(12), uint8(2), uint8(2), false, uint8(3), uint8(0))
	f.Add(uint64(2), uint8(7), uint8(2), uint8(2), true, uint8(1), uint8(1))
	f.Add(uint64(3), uint8(30), uint8(3), uint8(2), false, uint8(5), uint8(2))
	f.Add(uint64(4), uint8(5), uint8(2), uint8(2), true, uint8(0), uint8(0))
	f.Fuzz(func(t *testing.T, seed uint64, n, wins, losses uint8, blocks bool, clubs, policy uint8) {
		rng := rand.New(rand.NewPCG(seed, 5))
		pol := []Policy{PolicyAvoid, PolicyNever, PolicyIgnore}[policy%3]
		req := PoolsRequest{Players: poolsField(rng, int(n%60), int(clubs%10), int(clubs%4)), Wins: int(wins%4) + 1, Losses: int(losses%4) + 1,
			Mode: PoolRecords, Seed: seed, Relations: RelationPolicy{Club: pol, MasterStudent: pol, Family: pol}}
		if blocks {
			req.Mode, req.Wins, req.Losses = PoolBlocks, 2, 2
		}
		for range 2 * (req.Wins + req.Losses) {
			rd, err := DrawPools(req)
			var np *NoPairingError
			var fe *FieldError
			switch {
			case errors.As(err, &np):
				return // valid input, no pairing: the hard rules forbid every one
			case errors.As(err, &fe):
				if len(req.Players) >= 2 && len(req.Games) > 0 {
					t.Fatalf("the draw rejects its own history: %v", err)
				}
				return
			case err != nil:
				t.Fatalf("untyped error %v", err)
			}
			checkPoolsRound(t, req, rd)
			if rd.Finished {
				checkPoolsFinal(t, req, rd.Blocks)
				return
			}
			req.Blocks = rd.Blocks
			for _, g := range rd.Pairings {
				req.Games = append(req.Games, PoolGame{Round: rd.Round, Players: g.Players, Winner: g.Players[rng.IntN(2)]})
			}
			for _, id := range rd.Byes {
				req.Byes = append(req.Byes, PoolBye{Round: rd.Round, Player: id})
			}
		}
		t.Fatal("not finished")
	})
}

// poolsBench is a 2勝通過2敗失格 class of n with clubs and masters.
func poolsBench(n int, seed uint64, mode PoolMode) PoolsRequest {
	rng := rand.New(rand.NewPCG(seed, 9))
	return PoolsRequest{Players: poolsField(rng, n, n/10, n/20), Wins: 2, Losses: 2, Mode: mode, Seed: seed}
}

func BenchmarkPoolsRound1Blocks300(b *testing.B) {
	reqs := make([]PoolsRequest, 32)
	for i := range reqs {
		reqs[i] = poolsBench(300, uint64(i), PoolBlocks)
	}
	i := 0
	for b.Loop() {
		if _, err := DrawPools(reqs[i%len(reqs)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

func BenchmarkPoolsRound2Records300(b *testing.B) {
	req := poolsBench(300, 1, PoolRecords)
	rd, _ := DrawPools(req)
	rng := rand.New(rand.NewPCG(1, 1))
	for _, g := range rd.Pairings {
		req.Games = append(req.Games, PoolGame{Round: 1, Players: g.Players, Winner: g.Players[rng.IntN(2)]})
	}
	for b.Loop() {
		if _, err := DrawPools(req); err != nil {
			b.Fatal(err)
		}
	}
}

// playedPools is a whole preliminary of n players, every result in.
func playedPools(t testing.TB, n int, seed uint64, mode PoolMode) PoolsRequest {
	req := poolsBench(n, seed, mode)
	rng := rand.New(rand.NewPCG(seed, 2))
	for {
		rd, err := DrawPools(req)
		if err != nil {
			t.Fatal(err)
		}
		if rd.Finished {
			return req
		}
		req.Blocks = rd.Blocks
		for _, g := range rd.Pairings {
			req.Games = append(req.Games, PoolGame{Round: rd.Round, Board: g.Board, Players: g.Players, Winner: g.Players[rng.IntN(2)]})
		}
		for _, id := range rd.Byes {
			req.Byes = append(req.Byes, PoolBye{Round: rd.Round, Player: id})
		}
	}
}

func BenchmarkPoolsCheck500(b *testing.B) {
	req := playedPools(b, 500, 1, PoolBlocks)
	for b.Loop() {
		if v, _, err := CheckPools(req); err != nil || len(v) > 0 {
			b.Fatal(err, v)
		}
	}
}

// TestPoolsBenchReport prints percentiles over 200 seeds. Run with
// KISEN_BENCH_REPORT=1 go test -run TestPoolsBenchReport -v ./pairing/
func TestPoolsBenchReport(t *testing.T) {
	if os.Getenv("KISEN_BENCH_REPORT") != "1" {
		t.Skip("set KISEN_BENCH_REPORT=1 to print the benchmark report")
	}
	const seeds = 200
	report := func(what string, fn func(seed uint64) func()) {
		var times, cpu []time.Duration
		for seed := uint64(0); seed < seeds; seed++ {
			run := fn(seed)
			start, c0 := time.Now(), cpuTime()
			run()
			times = append(times, time.Since(start))
			cpu = append(cpu, cpuTime()-c0)
		}
		t.Logf("%s, %d seeds:\n  wall: %s\n  cpu:  %s", what, seeds, percentiles(times), percentiles(cpu))
	}
	for _, mode := range []PoolMode{PoolBlocks, PoolRecords} {
		report(fmt.Sprintf("2勝通過2敗失格 round 1, 300 players, %s", mode), func(seed uint64) func() {
			req := poolsBench(300, seed, mode)
			return func() {
				if _, err := DrawPools(req); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
	report("2勝通過2敗失格 round 2, 300 players, records", func(seed uint64) func() {
		req := poolsBench(300, seed, PoolRecords)
		rd, _ := DrawPools(req)
		for _, g := range rd.Pairings {
			req.Games = append(req.Games, PoolGame{Round: 1, Players: g.Players, Winner: g.Players[0]})
		}
		for _, id := range rd.Byes {
			req.Byes = append(req.Byes, PoolBye{Round: 1, Player: id})
		}
		return func() {
			if _, err := DrawPools(req); err != nil {
				t.Fatal(err)
			}
		}
	})
	for _, mode := range []PoolMode{PoolBlocks, PoolRecords} {
		report(fmt.Sprintf("--check of a whole preliminary, 500 players, %s", mode), func(seed uint64) func() {
			req := playedPools(t, 500, seed, mode)
			return func() {
				if v, _, err := CheckPools(req); err != nil || len(v) > 0 {
					t.Fatal(err, v)
				}
			}
		})
	}
}

func TestPools_GivenBlocksWithANeverPairAreRefused(t *testing.T) {
	t.Parallel()
	pl := []PoolPlayer{{ID: "a", Family: "f"}, {ID: "b", Family: "f"}, {ID: "c"}, {ID: "d"}}
	_, err := DrawPools(PoolsRequest{Players: pl, Wins: 2, Losses: 2, Mode: PoolBlocks, Relations: RelationPolicy{Family: PolicyNever},
		Blocks: []PoolBlock{{ID: "A", Players: []string{"a", "b", "c", "d"}}}})
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Field != "blocks" {
		t.Fatalf("%v, want a FieldError on blocks", err)
	}
}

func TestPools_CheckJudgesTheProposedRound(t *testing.T) {
	t.Parallel()
	for _, mode := range []PoolMode{PoolBlocks, PoolRecords} {
		rng := rand.New(rand.NewPCG(4, 4))
		req := PoolsRequest{Players: poolsField(rng, 22, 4, 3), Wins: 2, Losses: 2, Mode: mode, Seed: 4}
		for round := 1; round <= 2; round++ {
			rd, err := DrawPools(req)
			if err != nil {
				t.Fatal(err)
			}
			req.Blocks = rd.Blocks
			pr := &PoolProposal{Byes: rd.Byes}
			for _, g := range rd.Pairings {
				pr.Games = append(pr.Games, g.Players)
			}
			req.Proposed = pr
			if v, _, err := CheckPools(req); err != nil || len(v) > 0 {
				t.Fatalf("%s round %d: the draw's own round: %v %v", mode, round, err, v)
			}
			// Drop the last game: its two players are then missing.
			edited := &PoolProposal{Games: slices.Clone(pr.Games[:len(pr.Games)-1]), Byes: pr.Byes}
			req.Proposed = edited
			v, _, _ := CheckPools(req)
			missing := 0
			for _, x := range v {
				if x.Rule == RulePoolMissing {
					missing++
				}
			}
			if missing != 2 {
				t.Fatalf("%s round %d: dropped a game, got %+v", mode, round, v)
			}
			req.Proposed = nil
			for _, g := range rd.Pairings {
				req.Games = append(req.Games, PoolGame{Round: rd.Round, Players: g.Players, Winner: g.Players[rng.IntN(2)]})
			}
			for _, id := range rd.Byes {
				req.Byes = append(req.Byes, PoolBye{Round: rd.Round, Player: id})
			}
			if round == 2 && mode == PoolRecords {
				// Propose round 3 as a replay of round 1's first game plus the rest.
				g := req.Games[0]
				req.Proposed = &PoolProposal{Games: [][2]string{g.Players}}
				v, _, _ := CheckPools(req)
				var rules []string
				for _, x := range v {
					rules = append(rules, x.Rule)
				}
				if o := newPoolsOracle(req); o.playing(g.Players[0]) && o.playing(g.Players[1]) && !slices.Contains(rules, RulePoolRematch) {
					t.Fatalf("proposed rematch %v not found: %v", g.Players, rules)
				}
			}
		}
	}
}

func TestPools_NeverGroupLargerThanTheBlockCountIsRefusedByName(t *testing.T) {
	t.Parallel()
	var pl []PoolPlayer
	for i := range 8 {
		pl = append(pl, PoolPlayer{ID: fmt.Sprintf("p%d", i)})
	}
	pl[1].Master, pl[2].Master, pl[3].Master = "m", "m", "m" // three students, two blocks
	_, err := DrawPools(PoolsRequest{Players: pl, Wins: 2, Losses: 2, Mode: PoolBlocks, Relations: RelationPolicy{FellowDisciple: PolicyNever}})
	var np *NoPairingError
	if !errors.As(err, &np) || !slices.Equal(np.Players, []string{"p1", "p2", "p3"}) {
		t.Fatalf("%v, want NoPairingError naming p1 p2 p3", err)
	}
}
