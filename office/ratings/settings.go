package ratings

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

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
	Model            string  `field:"model" validate:"oneof=elo glicko2" msg:"rating.err,oneof=model"`
	EloInitial       float64 `field:"elo_initial" validate:"gte=-1e6,lte=1e6" msg:"rating.err"`
	EloK             float64 `field:"elo_k" validate:"gt=0,lte=1000" msg:"rating.err,gt=range_open,lte=range_open"`
	ProvisionalGames int     `field:"provisional_games" validate:"gte=0,lte=10000" msg:"rating.err"`
	ProvisionalK     float64 `field:"provisional_k" validate:"gt=0,lte=1000" msg:"rating.err,gt=range_open,lte=range_open"` // judged when ProvisionalGames > 0
	G2Initial        float64 `field:"g2_initial" validate:"gte=-1e6,lte=1e6" msg:"rating.err"`
	G2InitialRD      float64 `field:"g2_initial_rd" validate:"gt=0,lte=1e4" msg:"rating.err,gt=range_open,lte=range_open"`
	G2Volatility     float64 `field:"g2_volatility" validate:"gt=0,lte=10" msg:"rating.err,gt=range_open,lte=range_open"`
	G2Tau            float64 `field:"g2_tau" validate:"gt=0,lte=10" msg:"rating.err,gt=range_open,lte=range_open"`
	// "explicit" needs a period on every game, which Kisen's games do not
	// carry, so the form offers month and event only.
	G2Period     string `field:"g2_period" validate:"oneof=month event" msg:"rating.err,oneof=period"`
	RateHandicap bool
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
	// The tags state every range (rating.Settings.Validate's); both blocks
	// are checked whatever the model, so a saved switch of model later
	// never meets a stored value out of range. A NaN or an infinity is out
	// of every range.
	all := &office.ValidationError{}
	office.CheckInput(all, 0, in)
	for _, f := range all.Fields {
		if f.Field != "provisional_k" || in.ProvisionalGames > 0 {
			v.Fields = append(v.Fields, f)
		}
	}
	if len(v.Fields) == 0 {
		// domain rule, not a tag: the rating room's own check of the whole.
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
