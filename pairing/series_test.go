package pairing

import (
	"errors"
	"testing"
)

func TestSeries_BestOfN(t *testing.T) {
	t.Parallel()
	s := Series{BestOf: 7, Players: [2]string{"A", "B"}}
	w := func(sente, winner string) SeriesGame { return SeriesGame{Sente: sente, Winner: winner} }
	redo := func(sente string, why NoResult) SeriesGame { return SeriesGame{Sente: sente, NoResult: why} }
	cases := []struct {
		name  string
		games []SeriesGame
		want  SeriesState
	}{
		{"game 1 by 振り駒", nil, SeriesState{NextGame: 1, NeedsFurigoma: true}},
		{"colours alternate", []SeriesGame{w("B", "A")}, SeriesState{Wins: [2]int{1, 0}, NextGame: 2, NextSente: "A"}},
		{"D_R1 sennichite redo swaps and keeps the number", []SeriesGame{w("B", "A"), redo("A", Sennichite)},
			SeriesState{Wins: [2]int{1, 0}, NextGame: 2, NextIsRedo: true, NextSente: "B"}},
		{"D_R1 redo of a redo swaps again", []SeriesGame{w("B", "A"), redo("A", Sennichite), redo("B", Jishogi)},
			SeriesState{Wins: [2]int{1, 0}, NextGame: 2, NextIsRedo: true, NextSente: "A"}},
		{"schedule after a redo follows the first attempt", []SeriesGame{w("B", "A"), redo("A", Sennichite), w("B", "B")},
			SeriesState{Wins: [2]int{1, 1}, NextGame: 3, NextSente: "B"}},
		{"deciding game 7 at 3–3 by 振り駒", []SeriesGame{w("A", "A"), w("B", "B"), w("A", "A"), w("B", "B"), w("A", "A"), w("B", "B")},
			SeriesState{Wins: [2]int{3, 3}, NextGame: 7, NeedsFurigoma: true}},
		{"redo of the deciding game swaps the tossed colours", []SeriesGame{w("A", "A"), w("B", "B"), w("A", "A"), w("B", "B"), w("A", "A"), w("B", "B"), redo("B", Jishogi)},
			SeriesState{Wins: [2]int{3, 3}, NextGame: 7, NextIsRedo: true, NextSente: "A"}},
		{"a sweep ends at 4–0", []SeriesGame{w("A", "A"), w("B", "A"), w("A", "A"), w("B", "A")},
			SeriesState{Wins: [2]int{4, 0}, Over: true, Champion: "A"}},
		{"ends 4–3 in game 7", []SeriesGame{w("A", "A"), w("B", "B"), w("A", "A"), w("B", "B"), w("A", "A"), w("B", "B"), w("A", "B")},
			SeriesState{Wins: [2]int{3, 4}, Over: true, Champion: "B"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Next(s, tc.games)
			if err != nil {
				t.Fatal(err)
			}
			if got.Need != 4 || got.Draws != 0 || got.MaxGames != 7 {
				t.Fatalf("need %d, draws %d, max games %d; want 4, 0, 7 (nothing counted)", got.Need, got.Draws, got.MaxGames)
			}
			got.Need, got.Draws, got.MaxGames = 0, 0, 0
			if got != tc.want {
				t.Fatalf("%+v\nwant %+v", got, tc.want)
			}
		})
	}
}

// TestSeries_000_9_9_CountedJishogi: where the title's rules count a 持将棋
// game (000 第9条第9項, 001 第6条4), it is a game with no winner: the next
// game is a new number with alternating colours, the series may last one
// game longer, the wins needed stay four; a 千日手 is still replayed and
// not counted (000 第8条第7項). Without the setting the same record is a
// redo that keeps the number.
func TestSeries_000_9_9_CountedJishogi(t *testing.T) {
	t.Parallel()
	w := func(sente, winner string) SeriesGame { return SeriesGame{Sente: sente, Winner: winner} }
	j := SeriesGame{Sente: "B", NoResult: Jishogi}
	games := []SeriesGame{w("A", "A"), w("B", "B"), w("A", "A"), j} // game 4 持将棋, B sente
	counted, err := Next(Series{BestOf: 7, Players: [2]string{"A", "B"}, CountJishogi: true}, games)
	if err != nil {
		t.Fatal(err)
	}
	if counted.Wins != [2]int{2, 1} || counted.Draws != 1 || counted.MaxGames != 8 || counted.Need != 4 ||
		counted.NextGame != 5 || counted.NextIsRedo || counted.NextSente != "A" || counted.Over {
		t.Fatalf("counted: %+v, want game 5 (not a redo) with A sente, 8 games at most", counted)
	}
	plain, err := Next(Series{BestOf: 7, Players: [2]string{"A", "B"}}, games)
	if err != nil {
		t.Fatal(err)
	}
	if plain.Draws != 0 || plain.MaxGames != 7 || plain.NextGame != 4 || !plain.NextIsRedo || plain.NextSente != "A" {
		t.Fatalf("not counted: %+v, want game 4 replayed with A sente", plain)
	}
	// A 千日手 is never counted, whatever the setting.
	sen, err := Next(Series{BestOf: 7, Players: [2]string{"A", "B"}, CountJishogi: true}, []SeriesGame{w("A", "A"), {Sente: "B", NoResult: Sennichite}})
	if err != nil {
		t.Fatal(err)
	}
	if sen.Draws != 0 || sen.NextGame != 2 || !sen.NextIsRedo || sen.MaxGames != 7 {
		t.Fatalf("counted setting, 千日手: %+v, want game 2 replayed", sen)
	}
	// 3–3 with a counted 持将棋: game 8 exists; a 持将棋 in the deciding
	// game leaves 3–3, so the next game is by 振り駒 again; 4 wins end it.
	long := []SeriesGame{w("A", "A"), w("B", "B"), w("A", "A"), j, w("A", "B"), w("B", "A"), w("A", "B")}
	st, err := Next(Series{BestOf: 7, Players: [2]string{"A", "B"}, CountJishogi: true}, long)
	if err != nil {
		t.Fatal(err)
	}
	if st.Wins != [2]int{3, 3} || st.NextGame != 8 || !st.NeedsFurigoma || st.MaxGames != 8 {
		t.Fatalf("3–3 after a counted 持将棋: %+v, want game 8 by 振り駒", st)
	}
	st, err = Next(Series{BestOf: 7, Players: [2]string{"A", "B"}, CountJishogi: true}, append(long, SeriesGame{Sente: "A", NoResult: Jishogi}))
	if err != nil {
		t.Fatal(err)
	}
	if st.NextGame != 9 || !st.NeedsFurigoma || st.MaxGames != 9 {
		t.Fatalf("持将棋 in the deciding game: %+v, want game 9 by 振り駒", st)
	}
	st, err = Next(Series{BestOf: 7, Players: [2]string{"A", "B"}, CountJishogi: true}, append(long, w("B", "A")))
	if err != nil {
		t.Fatal(err)
	}
	if !st.Over || st.Champion != "A" || st.Wins != [2]int{4, 3} {
		t.Fatalf("after game 8: %+v, want A the champion 4–3", st)
	}
}

func TestSeries_BestOf3And5(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ n, deciding int }{{3, 3}, {5, 5}} {
		s := Series{BestOf: c.n, Players: [2]string{"A", "B"}}
		var games []SeriesGame
		sente := "A"
		for k := 1; k < c.deciding; k++ { // alternate wins so the series reaches its last game
			winner := []string{"A", "B"}[k%2]
			games = append(games, SeriesGame{Sente: sente, Winner: winner})
			sente = map[string]string{"A": "B", "B": "A"}[sente]
		}
		st, err := Next(s, games)
		if err != nil {
			t.Fatal(err)
		}
		if st.NextGame != c.deciding || !st.NeedsFurigoma || st.Over {
			t.Errorf("best of %d: %+v, want game %d by 振り駒", c.n, st, c.deciding)
		}
	}
}

func TestSeries_RejectsBadRecords(t *testing.T) {
	t.Parallel()
	s := Series{BestOf: 5, Players: [2]string{"A", "B"}}
	cases := []struct {
		name  string
		s     Series
		games []SeriesGame
		field string
	}{
		{"even length", Series{BestOf: 4, Players: [2]string{"A", "B"}}, nil, "best_of"},
		{"same player", Series{BestOf: 3, Players: [2]string{"A", "A"}}, nil, "players"},
		{"wrong colour in game 2", s, []SeriesGame{{Sente: "A", Winner: "A"}, {Sente: "A", Winner: "B"}}, "games[1].sente"},
		{"redo without swap", s, []SeriesGame{{Sente: "A", NoResult: Sennichite}, {Sente: "A", Winner: "A"}}, "games[1].sente"},
		{"stranger wins", s, []SeriesGame{{Sente: "A", Winner: "C"}}, "games[0].winner"},
		{"winner in a sennichite", s, []SeriesGame{{Sente: "A", Winner: "A", NoResult: Sennichite}}, "games[0].winner"},
		{"game after the end", Series{BestOf: 1, Players: [2]string{"A", "B"}}, []SeriesGame{{Sente: "A", Winner: "A"}, {Sente: "B", Winner: "A"}}, "games[1]"},
	}
	for _, tc := range cases {
		_, err := Next(tc.s, tc.games)
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != tc.field {
			t.Errorf("%s: %v, want an error on %s", tc.name, err, tc.field)
		}
	}
}

// FuzzSeries feeds random game records: none panics, and an accepted record
// has a consistent state — over exactly when someone has a majority, and a
// next game with either a known sente or a 振り駒, never both.
func FuzzSeries(f *testing.F) {
	f.Add(uint8(7), []byte{0, 1, 1, 0, 2, 0, 1})
	f.Add(uint8(3), []byte{3, 3, 0})
	f.Add(uint8(135), []byte{0, 1, 1, 3, 1, 0, 0, 1}) // best of 7, a counted 持将棋 in game 2
	f.Fuzz(func(t *testing.T, n uint8, raw []byte) {
		s := Series{BestOf: int(n%9) | 1, Players: [2]string{"A", "B"}, CountJishogi: n >= 128}
		var games []SeriesGame
		for i := 0; i+1 < len(raw) && len(games) < 40; i += 2 {
			g := SeriesGame{Sente: s.Players[raw[i]%2]}
			switch raw[i+1] % 4 {
			case 0, 1:
				g.Winner = s.Players[raw[i+1]%2]
			case 2:
				g.NoResult = Sennichite
			case 3:
				g.NoResult = Jishogi
			}
			games = append(games, g)
		}
		st, err := Next(s, games)
		if err != nil {
			return
		}
		need := s.BestOf/2 + 1
		if st.Wins[0] > need || st.Wins[1] > need {
			t.Fatalf("wins %v beyond %d", st.Wins, need)
		}
		if st.Over != (st.Wins[0] == need || st.Wins[1] == need) {
			t.Fatalf("over=%v with wins %v", st.Over, st.Wins)
		}
		if !st.Over && (st.NextSente == "") == !st.NeedsFurigoma {
			t.Fatalf("next sente %q and needs furigoma %v", st.NextSente, st.NeedsFurigoma)
		}
		if !st.Over && st.NextGame != st.Wins[0]+st.Wins[1]+st.Draws+1 {
			t.Fatalf("next game %d after wins %v and %d counted 持将棋", st.NextGame, st.Wins, st.Draws)
		}
		if st.MaxGames != s.BestOf+st.Draws || (!s.CountJishogi && st.Draws != 0) {
			t.Fatalf("max games %d, draws %d, counting %v", st.MaxGames, st.Draws, s.CountJishogi)
		}
	})
}
