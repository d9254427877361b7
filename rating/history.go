package rating

import (
	"math"
	"slices"
	"strings"
	"time"
)

// GameResult is a game's result for one player.
type GameResult string

const (
	Win  GameResult = "win"
	Loss GameResult = "loss"
)

// HistoryEntry is one rated game in a player's history, for a chart. Under
// Glicko-2 the games of one period are rated together, so they share the
// period's before and after values.
type HistoryEntry struct {
	Date     time.Time  `json:"date"`
	Game     string     `json:"game"`
	Event    string     `json:"event,omitempty"`
	Period   string     `json:"period,omitempty"`
	Opponent string     `json:"opponent"`
	Sente    bool       `json:"sente"`
	Result   GameResult `json:"result"`
	Before   float64    `json:"before"`
	After    float64    `json:"after"`
	// OpponentBefore is the opponent's rating going into the game (period).
	OpponentBefore float64 `json:"opponent_before"`
	RDBefore       float64 `json:"rd_before,omitempty"`
	RDAfter        float64 `json:"rd_after,omitempty"`
}

func (p *player) record(g Game, won bool, before, after, oppBefore, rdBefore, rdAfter float64) {
	me, opp := g.Sente, g.Gote
	if (g.Outcome == SenteWin) != won {
		me, opp = g.Gote, g.Sente
	}
	res := Loss
	if won {
		res = Win
		p.wins++
	} else {
		p.losses++
	}
	p.games++
	p.rated = true
	if g.Date.After(p.lastPlayed) {
		p.lastPlayed = g.Date
	}
	p.history = append(p.history, HistoryEntry{
		Date: g.Date, Game: g.ID, Event: g.EventID, Opponent: opp, Sente: me == g.Sente,
		Result: res, Before: before, After: after, OpponentBefore: oppBefore,
		RDBefore: rdBefore, RDAfter: rdAfter,
	})
}

// Rating is a player's current rating. Under Glicko-2, RD is as of the end
// of the latest rating period, grown for the periods the player sat out.
type Rating struct {
	Player     string    `json:"player"`
	Rating     float64   `json:"rating"`
	RD         float64   `json:"rd,omitempty"`
	Volatility float64   `json:"volatility,omitempty"`
	Games      int       `json:"games"`
	Wins       int       `json:"wins"`
	Losses     int       `json:"losses"`
	LastPlayed time.Time `json:"last_played,omitzero"`
}

// Report is everything a state knows, as plain values.
type Report struct {
	Model   Model                     `json:"model"`
	Rated   int                       `json:"rated"`
	Ratings []Rating                  `json:"ratings"`
	History map[string][]HistoryEntry `json:"history"`
	Skipped []Skip                    `json:"skipped"`
}

// Ratings lists every player on the roster by player ID; players who have
// not played have the initial rating and zero games.
func (st *State) Ratings() []Rating {
	out := make([]Rating, 0, len(st.players))
	for id, p := range st.players {
		out = append(out, st.ratingOf(id, p))
	}
	slices.SortFunc(out, func(a, b Rating) int { return strings.Compare(a.Player, b.Player) })
	return out
}

// Rating returns one player's rating; ok is false for an unknown player.
func (st *State) Rating(id string) (Rating, bool) {
	p, ok := st.players[id]
	if !ok {
		return Rating{}, false
	}
	return st.ratingOf(id, p), true
}

func (st *State) ratingOf(id string, p *player) Rating {
	r := Rating{Player: id, Rating: p.rating, Games: p.games, Wins: p.wins, Losses: p.losses, LastPlayed: p.lastPlayed}
	if st.settings.Model == ModelGlicko2 {
		r.RD, r.Volatility = p.rd, p.vol
		if p.rated && st.open != nil {
			if idle := st.open.index - p.period; idle > 0 {
				phi := p.rd / glicko2Scale
				r.RD = math.Sqrt(phi*phi+float64(idle)*p.vol*p.vol) * glicko2Scale
			}
		}
	}
	return r
}

// History is a player's rated games in canonical order (a copy).
func (st *State) History(id string) []HistoryEntry {
	if p, ok := st.players[id]; ok {
		return append([]HistoryEntry{}, p.history...)
	}
	return nil
}

// Skipped lists the games that are not rated, in canonical order.
func (st *State) Skipped() []Skip {
	out := make([]Skip, 0, len(st.skipped))
	for _, s := range st.skipped {
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b Skip) int { return CompareGames(st.seen[a.Game], st.seen[b.Game]) })
	return out
}

// Report gathers ratings, histories and skipped games.
func (st *State) Report() Report {
	r := Report{Model: st.settings.Model, Rated: st.rated, Ratings: st.Ratings(),
		History: make(map[string][]HistoryEntry, len(st.players)), Skipped: st.Skipped()}
	for id, p := range st.players {
		r.History[id] = append([]HistoryEntry{}, p.history...) // [] rather than null in JSON
	}
	return r
}
