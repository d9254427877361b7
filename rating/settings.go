package rating

import (
	"errors"
	"fmt"
	"math"
)

// ErrInvalid marks input that is malformed; the message names the field.
var ErrInvalid = errors.New("invalid rating input")

// ErrOutOfOrder marks games handed to Apply that sort before games the state
// has already rated. The caller recomputes from all games instead.
var ErrOutOfOrder = errors.New("games out of canonical order")

// Model is the rating system.
type Model string

const (
	ModelElo     Model = "elo"
	ModelGlicko2 Model = "glicko2"
)

// PeriodRule says how Glicko-2 groups games into rating periods.
type PeriodRule string

const (
	// PeriodMonth: one period per calendar month in Japan Standard Time.
	PeriodMonth PeriodRule = "month"
	// PeriodEvent: one period per event (Game.EventID).
	PeriodEvent PeriodRule = "event"
	// PeriodExplicit: the caller names each game's period (Game.Period).
	PeriodExplicit PeriodRule = "explicit"
)

// EloSettings are the Elo parameters.
type EloSettings struct {
	// Initial is an unrated player's rating.
	Initial float64 `json:"initial"`
	// K is the most a rating moves in one game.
	K float64 `json:"k"`
	// ProvisionalGames > 0 gives a player ProvisionalK instead of K for
	// their first ProvisionalGames rated games, so newcomers settle fast.
	ProvisionalGames int     `json:"provisional_games"`
	ProvisionalK     float64 `json:"provisional_k"`
}

// Glicko2Settings are the Glicko-2 parameters (Glickman, "Example of the
// Glicko-2 system", step 1).
type Glicko2Settings struct {
	Initial           float64    `json:"initial"`
	InitialRD         float64    `json:"initial_rd"`
	InitialVolatility float64    `json:"initial_volatility"`
	Tau               float64    `json:"tau"` // system constant τ
	Period            PeriodRule `json:"period"`
}

// Settings choose the model and what counts.
type Settings struct {
	Model   Model           `json:"model"`
	Elo     EloSettings     `json:"elo"`
	Glicko2 Glicko2Settings `json:"glicko2"`
	// RateHandicap rates 駒落ち games too. Off by default: a handicap game
	// measures the two players against an adjusted board, not each other.
	RateHandicap bool `json:"rate_handicap"`
}

// DefaultSettings returns the documented defaults for a model: Elo 1500 and
// K 32 without a provisional K; Glicko-2 1500, RD 350, σ 0.06, τ 0.5 and
// monthly periods; handicap games unrated.
func DefaultSettings(m Model) Settings {
	return Settings{
		Model: m,
		Elo:   EloSettings{Initial: 1500, K: 32},
		Glicko2: Glicko2Settings{
			Initial: 1500, InitialRD: 350, InitialVolatility: 0.06, Tau: 0.5,
			Period: PeriodMonth,
		},
	}
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// Validate reports every setting that is out of range.
func (s Settings) Validate() error {
	var errs []error
	bad := func(field string, v any, want string) {
		errs = append(errs, fmt.Errorf("settings: %s = %v: %s: %w", field, v, want, ErrInvalid))
	}
	switch s.Model {
	case ModelElo:
		e := s.Elo
		if !finite(e.Initial) || math.Abs(e.Initial) > 1e6 {
			bad("elo.initial", e.Initial, "must be a finite number of at most a million")
		}
		if !finite(e.K) || e.K <= 0 || e.K > 1000 {
			bad("elo.k", e.K, "must be above 0 and at most 1000")
		}
		if e.ProvisionalGames < 0 {
			bad("elo.provisional_games", e.ProvisionalGames, "must not be negative")
		}
		if e.ProvisionalGames > 0 && (!finite(e.ProvisionalK) || e.ProvisionalK <= 0 || e.ProvisionalK > 1000) {
			bad("elo.provisional_k", e.ProvisionalK, "must be above 0 and at most 1000 when provisional_games is set")
		}
	case ModelGlicko2:
		g := s.Glicko2
		if !finite(g.Initial) || math.Abs(g.Initial) > 1e6 {
			bad("glicko2.initial", g.Initial, "must be a finite number of at most a million")
		}
		if !finite(g.InitialRD) || g.InitialRD <= 0 || g.InitialRD > 1e4 {
			bad("glicko2.initial_rd", g.InitialRD, "must be above 0 and at most 10000")
		}
		if !finite(g.InitialVolatility) || g.InitialVolatility <= 0 || g.InitialVolatility > 10 {
			bad("glicko2.initial_volatility", g.InitialVolatility, "must be above 0 and at most 10")
		}
		// Glickman suggests 0.3–1.2; anything positive works numerically.
		if !finite(g.Tau) || g.Tau <= 0 || g.Tau > 10 {
			bad("glicko2.tau", g.Tau, "must be above 0 and at most 10")
		}
		switch g.Period {
		case PeriodMonth, PeriodEvent, PeriodExplicit:
		default:
			bad("glicko2.period", fmt.Sprintf("%q", g.Period), `must be "month", "event" or "explicit"`)
		}
	default:
		bad("model", fmt.Sprintf("%q", s.Model), `must be "elo" or "glicko2"`)
	}
	return errors.Join(errs...)
}
