package rating

import (
	"fmt"
	"math/rand/v2"
	"time"
)

// histSpec shapes a random game history for property tests and benchmarks.
type histSpec struct {
	players int
	games   int
	days    int  // games spread over this many days from 2024-01-01 JST
	noise   bool // unconfirmed, forfeit, handicap and 千日手/持将棋 chains
	// sequentialEvents gives each event a disjoint stretch of days, so
	// per-event periods never interleave.
	sequentialEvents bool
}

// quarterOf is an explicit period key for PeriodExplicit tests: the JST
// quarter of the date, e.g. "2024Q3".
func quarterOf(t time.Time) string {
	j := t.In(jst)
	return fmt.Sprintf("%dQ%d", j.Year(), (int(j.Month())-1)/3+1)
}

// randomHistory returns games in a random order. Game IDs are a random
// permutation, so ID order and date order disagree, and several games share
// a date, so the tie-breaks of the canonical order matter.
func randomHistory(rng *rand.Rand, spec histSpec) []Game {
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, jst)
	idPerm := rng.Perm(spec.games * 4)
	next := 0
	newID := func() string { id := fmt.Sprintf("g%07d", idPerm[next]); next++; return id }
	var games []Game
	for len(games) < spec.games {
		a := rng.IntN(spec.players)
		b := rng.IntN(spec.players - 1)
		if b >= a {
			b++
		}
		dayN := rng.IntN(spec.days)
		date := start.AddDate(0, 0, dayN)
		if rng.IntN(4) == 0 {
			date = date.Add(time.Duration(rng.IntN(12*60)) * time.Minute)
		}
		event := fmt.Sprintf("ev%02d", rng.IntN(8))
		if spec.sequentialEvents {
			event = fmt.Sprintf("ev%03d", dayN/10)
		}
		g := Game{ID: newID(), EventID: event, Date: date,
			Sente: fmt.Sprintf("p%04d", a), Gote: fmt.Sprintf("p%04d", b),
			Outcome: []Outcome{SenteWin, GoteWin}[rng.IntN(2)], Confirmed: true, Period: quarterOf(date)}
		if spec.noise {
			switch r := rng.IntN(100); {
			case r < 4:
				g.Confirmed = false
			case r < 7:
				g.Forfeit = true
			case r < 11:
				g.Handicap = true
			case r < 20:
				// A 千日手/持将棋 chain of one to three games on the same
				// day, colours swapping; usually ending with a result.
				chain := 1 + rng.IntN(3)
				prev := g
				prev.Outcome = []Outcome{Sennichite, Jishogi}[rng.IntN(2)]
				games = append(games, prev)
				for i := 0; i < chain; i++ {
					redo := prev
					redo.ID, redo.RedoOf = newID(), prev.ID
					redo.Sente, redo.Gote = prev.Gote, prev.Sente
					redo.Date = prev.Date.Add(time.Duration(rng.IntN(3)) * time.Hour)
					redo.Outcome = []Outcome{Sennichite, Jishogi}[rng.IntN(2)]
					if i == chain-1 && rng.IntN(5) > 0 {
						redo.Outcome = []Outcome{SenteWin, GoteWin}[rng.IntN(2)]
					}
					games = append(games, redo)
					prev = redo
				}
				continue
			case r < 22:
				g.Outcome = NoResult
			}
		}
		games = append(games, g)
	}
	rng.Shuffle(len(games), func(i, j int) { games[i], games[j] = games[j], games[i] })
	return games
}
