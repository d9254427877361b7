package pairing

import (
	"slices"
	"testing"
)

func g(s, o string, r GameResult) SwissGame { return SwissGame{Sente: s, Gote: o, Result: r} }

// Five players, three rounds, one bye each round. By hand:
//
//	A: beat B, beat C, lost to E          2 wins  ソルコフ B1+C2+E3=6  SB B1+C2=3
//	B: lost to A, lost to E, beat D       1       A2+E3+D1=6          D1=1
//	C: beat D, lost to A, bye             2       D1+A2=3             D1=1
//	D: lost to C, bye, lost to B          1       C2+B1=3             0
//	E: bye, beat B, beat A                3       B1+A2=3             B1+A2=3
//
// so E; A before C on ソルコフ (6 > 3); B before D (6 > 3).
func standingsFixture() SwissRequest {
	return SwissRequest{Seed: 1, Settings: SwissSettings{Rounds: 3},
		Players: []SwissPlayer{{ID: "A"}, {ID: "B"}, {ID: "C"}, {ID: "D"}, {ID: "E"}},
		History: []SwissRound{
			{Games: []SwissGame{g("A", "B", SenteWins), g("C", "D", SenteWins)}, Bye: "E"},
			{Games: []SwissGame{g("C", "A", GoteWins), g("B", "E", GoteWins)}, Bye: "D"},
			{Games: []SwissGame{g("A", "E", GoteWins), g("D", "B", GoteWins)}, Bye: "C"},
		}}
}

func TestSwissStandings_MatchHandComputedFixture(t *testing.T) {
	t.Parallel()
	st, err := SwissStandings(standingsFixture())
	if err != nil {
		t.Fatal(err)
	}
	want := []SwissStanding{
		{Rank: 1, ID: "E", Wins: 3, Solkoff: 3, SB: 3, Games: 2, Byes: 1},
		{Rank: 2, ID: "A", Wins: 2, Solkoff: 6, SB: 3, Games: 3},
		{Rank: 3, ID: "C", Wins: 2, Solkoff: 3, SB: 1, Games: 2, Byes: 1},
		{Rank: 4, ID: "B", Wins: 1, Solkoff: 6, SB: 1, Games: 3},
		{Rank: 5, ID: "D", Wins: 1, Solkoff: 3, SB: 0, Games: 2, Byes: 1},
	}
	if !slices.Equal(st, want) {
		t.Errorf("got  %+v\nwant %+v", st, want)
	}
}

// Four players, a full round robin: X beat Y, Y beat Z and W, Z beat X,
// X beat W, W beat Z. X and Y both have 2 wins and ソルコフ 4 (Y2+Z1+W1,
// X2+Z1+W1); SB X 3 (Y2+W1), Y 2 (Z1+W1); X beat Y directly.
func roundRobinFixture(tb []Tiebreak) SwissRequest {
	return SwissRequest{Settings: SwissSettings{Rounds: 3, Tiebreaks: tb},
		Players: []SwissPlayer{{ID: "W"}, {ID: "X"}, {ID: "Y"}, {ID: "Z"}},
		History: []SwissRound{
			{Games: []SwissGame{g("X", "Y", SenteWins), g("Z", "W", GoteWins)}},
			{Games: []SwissGame{g("Y", "Z", SenteWins), g("W", "X", GoteWins)}},
			{Games: []SwissGame{g("Z", "X", SenteWins), g("Y", "W", SenteWins)}},
		}}
}

func TestSwissStandings_TiebreakOrderIsASetting(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		tb   []Tiebreak
		top  []string // first two ids
		rank [2]int
	}{
		{"direct decides", []Tiebreak{TiebreakDirect}, []string{"X", "Y"}, [2]int{1, 2}},
		{"SB decides", []Tiebreak{TiebreakSB}, []string{"X", "Y"}, [2]int{1, 2}},
		{"ソルコフ alone leaves a tie", []Tiebreak{TiebreakSolkoff}, nil, [2]int{1, 1}},
		{"ソルコフ then direct", []Tiebreak{TiebreakSolkoff, TiebreakDirect}, []string{"X", "Y"}, [2]int{1, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, err := SwissStandings(roundRobinFixture(tc.tb))
			if err != nil {
				t.Fatal(err)
			}
			if st[0].Rank != tc.rank[0] || st[1].Rank != tc.rank[1] {
				t.Errorf("ranks %d %d, want %v", st[0].Rank, st[1].Rank, tc.rank)
			}
			if tc.top != nil && (st[0].ID != tc.top[0] || st[1].ID != tc.top[1]) {
				t.Errorf("top two %s %s, want %v", st[0].ID, st[1].ID, tc.top)
			}
		})
	}
}

func TestSwissStandings_LotSeparatesEveryTieBySeed(t *testing.T) {
	t.Parallel()
	firsts := map[string]bool{}
	for seed := range uint64(40) {
		req := roundRobinFixture([]Tiebreak{TiebreakLot})
		req.Seed = seed
		st, err := SwissStandings(req)
		if err != nil {
			t.Fatal(err)
		}
		for i, x := range st {
			if x.Rank != i+1 {
				t.Fatalf("seed %d: rank %d at %d: the lot leaves no tie", seed, x.Rank, i+1)
			}
		}
		firsts[st[0].ID] = true
	}
	if len(firsts) != 2 {
		t.Errorf("first place over 40 lots: %v, want both X and Y", firsts)
	}
}
