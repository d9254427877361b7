package league

import (
	"errors"
	"testing"
	"time"
)

// TestInputError_GamesOverClass_IsCoded: a class of 8 set to 10 games a
// player (what a roll-over copies from a larger class) is refused with a
// code and the numbers a page says in words; the command line's English
// sentence is kept (issue 24 item 3).
func TestInputError_GamesOverClass_IsCoded(t *testing.T) {
	t.Parallel()
	d := classDraw(t, ClassC2, 8, 1)
	d.Settings.GamesPerPlayer = 10
	_, _, err := Generate(d)
	var ie *InputError
	if !errors.As(err, &ie) || !errors.Is(err, ErrInvalid) {
		t.Fatalf("got %v, want an InputError wrapping ErrInvalid", err)
	}
	if ie.Code != InputGamesOverClass || ie.Field != "games_per_player" || ie.Params["Games"] != 10 || ie.Params["Classmates"] != 7 || ie.Params["Players"] != 8 {
		t.Fatalf("got %+v", ie)
	}
	if err.Error() != "invalid league input: games_per_player 10 exceeds the 7 classmates each player has" {
		t.Fatalf("the command line's sentence changed: %q", err)
	}
}

// TestInputError_EveryValidationIsCoded: each shape error of a draw
// carries a code (none falls through as bare English).
func TestInputError_EveryValidationIsCoded(t *testing.T) {
	t.Parallel()
	cases := map[string]func(*Draw){
		InputClass:          func(d *Draw) { d.Class = "Z" },
		InputTooFewPlayers:  func(d *Draw) { d.Players = d.Players[:1] },
		InputPlayerID:       func(d *Draw) { d.Players[1].ID = d.Players[0].ID },
		InputOwnMaster:      func(d *Draw) { d.Players[0].Master = d.Players[0].ID },
		InputGamesTooFew:    func(d *Draw) { d.Settings.GamesPerPlayer = 0 },
		InputPair:           func(d *Draw) { d.Relatives = append(d.Relatives, Pair{d.Players[0].ID, d.Players[0].ID}) },
		InputPreviousTerms:  func(d *Draw) { d.PreviousTerms = make([][]Pair, 3) },
		InputDateMissing:    func(d *Draw) { d.Dates = make([][]time.Time, d.RoundCount()) },
		InputSettings:       func(d *Draw) { d.Settings.SenteGote.MaxRun = 0 },
		InputTooManyPlayers: func(d *Draw) { d.Players = append(d.Players, make([]Player, maxPlayers(false))...) },
	}
	for code, breakIt := range cases {
		d := classDraw(t, ClassC2, 12, 1)
		breakIt(&d)
		err := d.validate()
		var ie *InputError
		if !errors.As(err, &ie) || ie.Code != code {
			t.Errorf("%s: got %v", code, err)
		}
	}
}

// TestNoScheduleError_TooFewGamesIsCoded: rules that leave a player too few
// possible opponents are reported with a code, not only English.
func TestNoScheduleError_TooFewGamesIsCoded(t *testing.T) {
	t.Parallel()
	d := classDraw(t, ClassC2, 6, 1)
	d.Settings.GamesPerPlayer = 5 // a round robin of 6 …
	d.PreviousTerms = [][]Pair{{{d.Players[0].ID, d.Players[1].ID}}}
	d.Settings.PreviousTerm = PreviousForbid // … with one pairing forbidden
	_, _, err := Generate(d)
	var nse *NoScheduleError
	if !errors.As(err, &nse) || !nse.Proven || nse.Code != NoScheduleTooFewGames {
		t.Fatalf("got %v", err)
	}
}
