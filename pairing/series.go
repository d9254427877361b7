package pairing

import "fmt"

// Series is a 番勝負: best of BestOf games (odd) between two players.
type Series struct {
	BestOf  int
	Players [2]string
	// CountJishogi: the title's rules count a 持将棋 game as a game of the
	// series (000 第9条第9項, 001 第6条4; the organiser's setting, D-R3). A
	// counted 持将棋 is a game with no winner: it takes a game number and
	// the series goes on with the next numbered game (colours alternating as
	// after any game), so the series can last one game longer for each; the
	// wins needed stay BestOf/2+1. A 千日手 is never counted (000 第8条第7項
	// names no exception): it is replayed with colours swapped.
	CountJishogi bool
}

// NoResult names why a game produced no winner and is replayed (D-R1).
type NoResult string

const (
	Sennichite NoResult = "sennichite" // 千日手
	Jishogi    NoResult = "jishogi"    // 持将棋
)

// SeriesGame is one game as played, redo games included, in order.
type SeriesGame struct {
	Sente    string
	Winner   string   // "" when NoResult is set
	NoResult NoResult // 千日手/持将棋: the game is replayed and keeps its number
}

// SeriesState is where a series stands after the games so far.
type SeriesState struct {
	Wins [2]int // wins of Players[0], Players[1]
	// Need is the wins that take the series (BestOf/2+1); Draws the
	// counted 持将棋 games so far (always 0 unless Series.CountJishogi);
	// MaxGames the longest the series can still last (BestOf + Draws).
	Need, Draws, MaxGames int
	Over                  bool
	Champion              string
	// The next game (when not Over): its number (a redo keeps the number of
	// the game it replays), whether it is a redo, and who is sente — or
	// NeedsFurigoma when 振り駒 decides (game 1 and the deciding game).
	NextGame      int
	NextIsRedo    bool
	NextSente     string
	NeedsFurigoma bool
}

// Next reads a series' games and says what comes next. Game 1 and the
// deciding game (the last possible one, reached only with both players one
// win from the title) are decided by 振り駒; in between, colours alternate
// by game number, game k's sente being game k−1's first-attempt gote. A
// redo after 千日手 or 持将棋 swaps the colours of the attempt it replays
// (D-R1, 000 第8条第4項, 001 第6条) and does not advance the game count
// (000 第8条第7項: a 千日手 is not a game); the schedule of later games
// follows the first attempt, so redos never shift it.
func Next(s Series, games []SeriesGame) (SeriesState, error) {
	if s.BestOf < 1 || s.BestOf%2 == 0 {
		return SeriesState{}, fieldErr("best_of", "%d is not an odd number of games", s.BestOf)
	}
	a, b := s.Players[0], s.Players[1]
	if a == "" || b == "" || a == b {
		return SeriesState{}, fieldErr("players", "need two different players, got %q and %q", a, b)
	}
	other := func(p string) string {
		if p == a {
			return b
		}
		return a
	}
	need := s.BestOf/2 + 1
	st := SeriesState{NextGame: 1, Need: need}
	var lastFirstSente, lastAttemptSente string
	for i, g := range games {
		at := fmt.Sprintf("games[%d]", i)
		if st.Over {
			return SeriesState{}, fieldErr(at, "the series was already decided by games[%d]", i-1)
		}
		if g.Sente != a && g.Sente != b {
			return SeriesState{}, fieldErr(at+".sente", "%q is not in this series", g.Sente)
		}
		if want := st.expectedSente(need, lastFirstSente, lastAttemptSente, other); want != "" && g.Sente != want {
			return SeriesState{}, fieldErr(at+".sente", "%q is sente, but game %d should have %q as sente", g.Sente, st.NextGame, want)
		}
		if !st.NextIsRedo {
			lastFirstSente = g.Sente
		}
		lastAttemptSente = g.Sente
		switch {
		case (g.NoResult == Sennichite || g.NoResult == Jishogi) && g.Winner != "":
			return SeriesState{}, fieldErr(at+".winner", "a %s game has no winner", g.NoResult)
		case g.NoResult == Jishogi && s.CountJishogi:
			// 000 第9条第9項: the title counts it as a game; no redo.
			st.NextIsRedo = false
			st.Draws++
			st.NextGame++
			continue
		case g.NoResult == Sennichite || g.NoResult == Jishogi:
			st.NextIsRedo = true
			continue
		case g.NoResult != "":
			return SeriesState{}, fieldErr(at+".no_result", "unknown %q (want sennichite or jishogi)", g.NoResult)
		case g.Winner == a:
			st.Wins[0]++
		case g.Winner == b:
			st.Wins[1]++
		default:
			return SeriesState{}, fieldErr(at+".winner", "%q is not in this series", g.Winner)
		}
		st.NextIsRedo = false
		switch {
		case st.Wins[0] == need:
			st.Over, st.Champion = true, a
		case st.Wins[1] == need:
			st.Over, st.Champion = true, b
		default:
			st.NextGame++
		}
	}
	st.MaxGames = s.BestOf + st.Draws
	if !st.Over {
		if want := st.expectedSente(need, lastFirstSente, lastAttemptSente, other); want != "" {
			st.NextSente = want
		} else {
			st.NeedsFurigoma = true
		}
	} else {
		st.NextGame = 0
	}
	return st, nil
}

// expectedSente is "" when 振り駒 decides the next attempt: game 1 and the
// deciding game, played with both players one win from the title. Without
// counted 持将棋 that is exactly the game numbered BestOf; with them, every
// game played at that score (a counted 持将棋 in the deciding game leaves
// the score, so the next game is by 振り駒 again).
func (st *SeriesState) expectedSente(need int, lastFirst, lastAttempt string, other func(string) string) string {
	switch {
	case st.NextIsRedo:
		return other(lastAttempt) // D-R1: the redo swaps sente and gote
	case st.NextGame == 1 || (st.Wins[0] == need-1 && st.Wins[1] == need-1):
		return ""
	default:
		return other(lastFirst)
	}
}
