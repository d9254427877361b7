package rating

import (
	"testing"
)

// Expected values below are worked by hand from E = 1/(1+10^((Rb−Ra)/400))
// and R' = R + K(S − E); they are not produced by this package.
func TestElo_ExpectedScore(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		r, opp    float64
		want, tol float64
	}{
		{"equal ratings", 1500, 1500, 0.5, 0},
		{"200 above: 1/(1+10^-0.5)", 1600, 1400, 0.7597469, 1e-7},
		{"200 below: 1/(1+10^0.5)", 1400, 1600, 0.2402531, 1e-7},
		{"400 above: 10/11", 2000, 1600, 0.9090909, 1e-7},
		{"800 below: 1/101", 1200, 2000, 0.0099010, 1e-7},
	} {
		t.Run(tc.name, func(t *testing.T) {
			near(t, "E", ExpectedScore(tc.r, tc.opp), tc.want, tc.tol)
		})
	}
}

func TestElo_OneGame(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name                 string
		winner, loser        float64 // ratings before, set by earlier games
		wantWinner, wantLose float64
	}{
		// 1500 v 1500: E = 0.5, so ±32·0.5.
		{"equal", 1500, 1500, 1516, 1484},
		// Favourite by 200 wins: +32·(1−0.7597469) = +7.688098.
		{"favourite wins", 1600, 1400, 1607.688098, 1392.311902},
		// Underdog by 200 wins: +32·0.7597469 = +24.311902.
		{"upset", 1400, 1600, 1424.311902, 1575.688098},
		// Favourite by 400 wins: +32/11 = +2.909091.
		{"400 gap", 2000, 1600, 2002.909091, 1597.090909},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := DefaultSettings(ModelElo)
			st, err := NewState(s, []string{"w", "l"})
			if err != nil {
				t.Fatal(err)
			}
			st.players["w"].rating, st.players["l"].rating = tc.winner, tc.loser
			if err := st.Apply([]Game{win("g1", day(2026, 4, 1), "w", "l")}); err != nil {
				t.Fatal(err)
			}
			near(t, "winner", mustRating(t, st, "w").Rating, tc.wantWinner, 1e-6)
			near(t, "loser", mustRating(t, st, "l").Rating, tc.wantLose, 1e-6)
		})
	}
}

func TestElo_SequenceUsesUpdatedRatings(t *testing.T) {
	t.Parallel()
	// a beats b (1516/1484), then b beats a: E_b = 1/(1+10^(32/400)) =
	// 0.4540781, so b gains 32·0.5459219 = 17.469502.
	st, err := Recompute(DefaultSettings(ModelElo), []string{"a", "b"}, []Game{
		win("g2", day(2026, 4, 2), "b", "a"),
		win("g1", day(2026, 4, 1), "a", "b"),
	})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "a", mustRating(t, st, "a").Rating, 1498.530498, 1e-6)
	near(t, "b", mustRating(t, st, "b").Rating, 1501.469502, 1e-6)
	h := st.History("b")
	if len(h) != 2 || h[0].Game != "g1" || h[1].Game != "g2" {
		t.Fatalf("history of b = %+v, want g1 then g2", h)
	}
	near(t, "b before g2", h[1].Before, 1484, 1e-9)
	near(t, "a before g2 as b's opponent", h[1].OpponentBefore, 1516, 1e-9)
	if h[0].Result != Loss || h[1].Result != Win || h[1].Opponent != "a" || !h[1].Sente {
		t.Errorf("history of b = %+v", h)
	}
}

func TestElo_SettingsInitialAndK(t *testing.T) {
	t.Parallel()
	s := DefaultSettings(ModelElo)
	s.Elo.Initial, s.Elo.K = 1200, 16
	st, err := Recompute(s, []string{"a", "b", "idle"}, []Game{win("g1", day(2026, 4, 1), "a", "b")})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "a", mustRating(t, st, "a").Rating, 1208, 1e-9)
	near(t, "b", mustRating(t, st, "b").Rating, 1192, 1e-9)
	if r := mustRating(t, st, "idle"); r.Rating != 1200 || r.Games != 0 {
		t.Errorf("idle player = %+v, want 1200 with no games", r)
	}
}

func TestElo_ProvisionalK(t *testing.T) {
	t.Parallel()
	// Provisional K 40 for each player's first 2 games, then 32.
	s := DefaultSettings(ModelElo)
	s.Elo.ProvisionalGames, s.Elo.ProvisionalK = 2, 40
	st, err := NewState(s, []string{"new", "old"})
	if err != nil {
		t.Fatal(err)
	}
	st.players["old"].games = 10 // an established player
	if err := st.Apply([]Game{win("g1", day(2026, 4, 1), "new", "old")}); err != nil {
		t.Fatal(err)
	}
	// E = 0.5 each: new gains 40·0.5, old loses 32·0.5.
	near(t, "new", mustRating(t, st, "new").Rating, 1520, 1e-9)
	near(t, "old", mustRating(t, st, "old").Rating, 1484, 1e-9)
	// Second game still provisional, third not. new 1520 beats old 1484:
	// E = 1/(1+10^(−36/400)) = 0.5516235; new +40·0.4483765 = 17.935058,
	// old −32·0.4483765 = 14.348047.
	if err := st.Apply([]Game{win("g2", day(2026, 4, 2), "new", "old")}); err != nil {
		t.Fatal(err)
	}
	near(t, "new after g2", mustRating(t, st, "new").Rating, 1537.935058, 1e-6)
	near(t, "old after g2", mustRating(t, st, "old").Rating, 1469.651954, 1e-6)
	// Third game with K = 32 for both: old 1469.651954 beats new: E_old =
	// 1/(1+10^(68.283105/400)) = 0.4029787, so ±32·0.5970213 = 19.104682.
	if err := st.Apply([]Game{win("g3", day(2026, 4, 3), "old", "new")}); err != nil {
		t.Fatal(err)
	}
	near(t, "new after g3", mustRating(t, st, "new").Rating, 1518.830376, 1e-6)
	near(t, "old after g3", mustRating(t, st, "old").Rating, 1488.756636, 1e-6)
}
