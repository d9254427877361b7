package ratings

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"

	"kisen/office"
	"kisen/rating"
	"kisen/store"
)

// RatingSettingsKey is the app_settings key holding the instance's rating
// settings as JSON (rating.Settings). Absent means DefaultRatingSettings.
const RatingSettingsKey = "rating.settings"

// DefaultRatingSettings are used until an administrator saves others: Elo
// with the rating package's defaults (1500, K 32), handicap games unrated.
// Elo is the default because anyone can check a change by hand from the
// two ratings before the game.
func DefaultRatingSettings() rating.Settings { return rating.DefaultSettings(rating.ModelElo) }

// RatingSettings reads the instance's rating settings. Public: the rating
// list says how ratings are computed.
func (o *Ratings) RatingSettings(ctx context.Context) (rating.Settings, error) {
	s, _, err := ratingSettingsIn(ctx, o.store)
	return s, err
}

// ratingSettingsIn reads the settings and the raw JSON they came from
// ("" for the defaults), which is part of the rating fingerprint.
func ratingSettingsIn(ctx context.Context, s *store.Store) (rating.Settings, string, error) {
	raw, ok, err := s.GetSetting(ctx, RatingSettingsKey)
	if err != nil {
		return rating.Settings{}, "", err
	}
	if !ok {
		return DefaultRatingSettings(), "", nil
	}
	set, err := decodeRatingSettings([]byte(raw))
	if err != nil {
		return rating.Settings{}, "", fmt.Errorf("stored %s: %w", RatingSettingsKey, err)
	}
	return set, raw, nil
}

// decodeRatingSettings reads JSON over the defaults of its model, so left
// out fields keep their documented values; unknown fields are refused.
func decodeRatingSettings(b []byte) (rating.Settings, error) {
	var head struct {
		Model rating.Model `json:"model"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return rating.Settings{}, fmt.Errorf("rating settings: %v: %w", err, office.ErrInvalid)
	}
	s := rating.DefaultSettings(head.Model)
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return rating.Settings{}, fmt.Errorf("rating settings: %v: %w", err, office.ErrInvalid)
	}
	if err := s.Validate(); err != nil {
		return rating.Settings{}, fmt.Errorf("rating settings: %v: %w", err, office.ErrInvalid)
	}
	return s, nil
}

// RatingSettingsInput is the settings form, one field per setting.
type RatingSettingsInput struct {
	Model            string
	EloInitial       float64
	EloK             float64
	ProvisionalGames int
	ProvisionalK     float64
	G2Initial        float64
	G2InitialRD      float64
	G2Volatility     float64
	G2Tau            float64
	G2Period         string
	RateHandicap     bool
}

// RatingSettingsInputOf fills the form from settings.
func RatingSettingsInputOf(s rating.Settings) RatingSettingsInput {
	return RatingSettingsInput{
		Model: string(s.Model), EloInitial: s.Elo.Initial, EloK: s.Elo.K,
		ProvisionalGames: s.Elo.ProvisionalGames, ProvisionalK: s.Elo.ProvisionalK,
		G2Initial: s.Glicko2.Initial, G2InitialRD: s.Glicko2.InitialRD, G2Volatility: s.Glicko2.InitialVolatility,
		G2Tau: s.Glicko2.Tau, G2Period: string(s.Glicko2.Period), RateHandicap: s.RateHandicap,
	}
}

// check turns the form into settings, naming each field out of range with
// a message id (the ranges are rating.Settings.Validate's).
func (in RatingSettingsInput) check() (rating.Settings, *office.ValidationError) {
	v := &office.ValidationError{}
	s := rating.Settings{
		Model: rating.Model(in.Model),
		Elo:   rating.EloSettings{Initial: in.EloInitial, K: in.EloK, ProvisionalGames: in.ProvisionalGames, ProvisionalK: in.ProvisionalK},
		Glicko2: rating.Glicko2Settings{Initial: in.G2Initial, InitialRD: in.G2InitialRD, InitialVolatility: in.G2Volatility,
			Tau: in.G2Tau, Period: rating.PeriodRule(in.G2Period)},
		RateHandicap: in.RateHandicap,
	}
	between := func(field string, x, lo, hi float64, openLo bool) {
		if math.IsNaN(x) || math.IsInf(x, 0) || x > hi || x < lo || (openLo && x == lo) {
			code := "rating.err.range"
			if openLo {
				code = "rating.err.range_open"
			}
			v.Add(0, field, code, map[string]any{"Min": lo, "Max": hi})
		}
	}
	switch s.Model {
	case rating.ModelElo, rating.ModelGlicko2:
	default:
		v.Add(0, "model", "rating.err.model", nil)
	}
	// Both blocks are checked whatever the model, so a saved switch of
	// model later never meets a stored value out of range.
	between("elo_initial", in.EloInitial, -1e6, 1e6, false)
	between("elo_k", in.EloK, 0, 1000, true)
	if in.ProvisionalGames < 0 || in.ProvisionalGames > 10000 {
		v.Add(0, "provisional_games", "rating.err.range", map[string]any{"Min": 0, "Max": 10000})
	}
	if in.ProvisionalGames > 0 {
		between("provisional_k", in.ProvisionalK, 0, 1000, true)
	}
	between("g2_initial", in.G2Initial, -1e6, 1e6, false)
	between("g2_initial_rd", in.G2InitialRD, 0, 1e4, true)
	between("g2_volatility", in.G2Volatility, 0, 10, true)
	between("g2_tau", in.G2Tau, 0, 10, true)
	switch s.Glicko2.Period {
	case rating.PeriodMonth, rating.PeriodEvent:
	default:
		// "explicit" needs a period on every game, which Kisen's games do
		// not carry, so the form offers month and event only.
		v.Add(0, "g2_period", "rating.err.period", nil)
	}
	if len(v.Fields) == 0 {
		if err := s.Validate(); err != nil {
			v.Add(0, "model", "rating.err.model", nil)
		}
	}
	return s, v
}

// SetRatingSettings saves the rating settings (administrators). The next
// read of any rating recomputes everything under them.
func (o *Ratings) SetRatingSettings(ctx context.Context, actor office.Actor, in RatingSettingsInput) (rating.Settings, error) {
	if err := actor.RequireAdmin(); err != nil {
		return rating.Settings{}, fmt.Errorf("rating settings: %w", err)
	}
	s, v := in.check()
	if err := v.OrNil(); err != nil {
		return rating.Settings{}, err
	}
	b, err := json.Marshal(s)
	if err != nil {
		return rating.Settings{}, err
	}
	err = o.store.Tx(ctx, func(tx *store.Store) error {
		return tx.PutSetting(ctx, RatingSettingsKey, string(b), o.now())
	})
	return s, err
}

// ValidateRatingSettings checks the form without saving, so a form with
// some unreadable numbers can still report every other field.
func ValidateRatingSettings(in RatingSettingsInput) error {
	_, v := in.check()
	return v.OrNil()
}
