package rating

import (
	"cmp"
	"strings"
	"time"
)

// Outcome is how a game ended.
type Outcome string

const (
	SenteWin Outcome = "sente_win"
	GoteWin  Outcome = "gote_win"
	// Sennichite (千日手) and Jishogi (持将棋) are no result: the game is
	// replayed and is not counted as a game (D-R3, 000 第8条第7項, 第9条第9項).
	Sennichite Outcome = "sennichite"
	Jishogi    Outcome = "jishogi"
	// NoResult is any other game without a winner (無勝負). Shogi has no
	// draws; such a game is accepted and ignored.
	NoResult Outcome = "no_result"
)

func (o Outcome) valid() bool {
	switch o {
	case SenteWin, GoteWin, Sennichite, Jishogi, NoResult:
		return true
	}
	return false
}

// Decisive reports whether the outcome has a winner.
func (o Outcome) Decisive() bool { return o == SenteWin || o == GoteWin }

// Game is one game as the rating room sees it. Players are IDs from the
// roster; the date is the instant the game was played (or its day).
type Game struct {
	ID      string    `json:"id"`
	EventID string    `json:"event_id,omitempty"`
	Date    time.Time `json:"date"`
	Sente   string    `json:"sente"`
	Gote    string    `json:"gote"`
	Outcome Outcome   `json:"outcome"`
	// Confirmed is set once the result is final (signed off, no claim
	// pending). Unconfirmed games are skipped.
	Confirmed bool `json:"confirmed"`
	// Forfeit marks 不戦勝/不戦敗: the result stands for the event but the
	// game was not played, so it is not rated.
	Forfeit bool `json:"forfeit,omitempty"`
	// Handicap marks a 駒落ち game (anything but 平手).
	Handicap bool `json:"handicap,omitempty"`
	// RedoOf is the ID of the 千日手/持将棋 game this game replays
	// (指し直し, D-R1). The earlier game must be without a result.
	RedoOf string `json:"redo_of,omitempty"`
	// Period names the Glicko-2 rating period under PeriodExplicit.
	Period string `json:"period,omitempty"`
}

// Winner and Loser of a decisive game; empty strings otherwise.
func (g Game) Winner() string {
	switch g.Outcome {
	case SenteWin:
		return g.Sente
	case GoteWin:
		return g.Gote
	}
	return ""
}

func (g Game) Loser() string {
	switch g.Outcome {
	case SenteWin:
		return g.Gote
	case GoteWin:
		return g.Sente
	}
	return ""
}

// samePair reports whether two games are between the same two players, in
// either colour (a redo swaps sente and gote, D-R1).
func samePair(a, b Game) bool {
	return (a.Sente == b.Sente && a.Gote == b.Gote) || (a.Sente == b.Gote && a.Gote == b.Sente)
}

// orderKey is the canonical order: date, then event id, then game id. Game
// IDs are unique, so the order is total and does not depend on the order
// games were handed in.
type orderKey struct {
	date  time.Time
	event string
	id    string
}

func keyOf(g Game) orderKey { return orderKey{g.Date, g.EventID, g.ID} }

func (k orderKey) compare(o orderKey) int {
	if c := k.date.Compare(o.date); c != 0 {
		return c
	}
	if c := strings.Compare(k.event, o.event); c != 0 {
		return c
	}
	return cmp.Compare(k.id, o.id)
}

// CompareGames orders games canonically (date, event id, game id).
func CompareGames(a, b Game) int { return keyOf(a).compare(keyOf(b)) }
