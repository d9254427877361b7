package rating

import "math"

// eloScale is the logistic scale: a 400-point gap means the stronger player
// is expected to score ten times as often as the weaker.
const eloScale = 400

// ExpectedScore is the Elo expectation of a player rated r against one
// rated opp: 1 / (1 + 10^((opp − r)/400)).
func ExpectedScore(r, opp float64) float64 {
	return 1 / (1 + math.Pow(10, (opp-r)/eloScale))
}

// kFor is the player's K for their next game: the provisional K while they
// have played fewer than ProvisionalGames rated games.
func (e EloSettings) kFor(gamesPlayed int) float64 {
	if e.ProvisionalGames > 0 && gamesPlayed < e.ProvisionalGames {
		return e.ProvisionalK
	}
	return e.K
}

// rateElo applies one decisive game. The loser's expectation is taken as
// 1 − the winner's so that, with equal K, the two changes cancel exactly.
func (st *State) rateElo(g Game) {
	w, l := st.players[g.Winner()], st.players[g.Loser()]
	ew := ExpectedScore(w.rating, l.rating)
	el := 1 - ew
	wBefore, lBefore := w.rating, l.rating
	w.rating = wBefore + st.settings.Elo.kFor(w.games)*(1-ew)
	l.rating = lBefore + st.settings.Elo.kFor(l.games)*(0-el)
	w.record(g, true, wBefore, w.rating, lBefore, 0, 0)
	l.record(g, false, lBefore, l.rating, wBefore, 0, 0)
}
