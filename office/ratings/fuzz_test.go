package ratings

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"

	"kisen/office"
	"kisen/rating"
	"kisen/store"
)

// FuzzDecodeRatingSettings: stored settings JSON never panics the
// decoder; what it accepts validates and survives a round trip; what it
// refuses is ErrInvalid.
func FuzzDecodeRatingSettings(f *testing.F) {
	for _, s := range []string{
		`{"model":"elo"}`, `{"model":"glicko2","glicko2":{"tau":0.3,"period":"event"}}`,
		`{"model":"elo","elo":{"k":0}}`, `{"model":"x"}`, `{}`, `[]`, `{"model":"elo","extra":1}`,
		`{"model":"elo","elo":{"provisional_games":10,"provisional_k":40},"rate_handicap":true}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := decodeRatingSettings(b)
		if err != nil {
			if !errors.Is(err, office.ErrInvalid) {
				t.Fatalf("error is not ErrInvalid: %v", err)
			}
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("accepted settings do not validate: %v", err)
		}
		again, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		back, err := decodeRatingSettings(again)
		if err != nil || !reflect.DeepEqual(back, s) {
			t.Fatalf("round trip: %+v → %s → %+v (%v)", s, again, back, err)
		}
	})
}

// FuzzRatingGames: whatever games and results the database holds (seats,
// redo links to anything, corrected results, handicaps, forfeits), the
// conversion hands the rating package input it accepts — so one odd row
// never stops every rating — and every game with a confirmed result is
// either passed on or counted as skipped.
func FuzzRatingGames(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte{3, 1, 2, 2, 0, 9, 3, 2, 1, 1, 1, 1, 4, 2, 1, 3, 0, 1})
	results := []string{office.ResultSenteWin, office.ResultGoteWin, office.ResultRedo, office.ResultBothLose, office.ResultPending}
	reasons := []string{"resignation", "forfeit", "sennichite", "jishogi_redo"}
	f.Fuzz(func(t *testing.T, b []byte) {
		const players = 4
		in := ratingInput{settings: DefaultRatingSettings(), effective: map[int64]store.ResultVersion{}}
		for p := int64(1); p <= players; p++ {
			in.players = append(in.players, p)
		}
		day := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
		for i := 0; i+5 < len(b) && len(in.games) < 60; i += 6 {
			id := int64(len(in.games) + 1)
			g := store.Game{ID: id, EventID: 1 + int64(b[i]%2), Handicap: "平手"}
			if s := int64(b[i+1] % (players + 1)); s > 0 {
				g.SentePlayerID = &s
			}
			if o := int64(b[i+2] % (players + 1)); o > 0 && (g.SentePlayerID == nil || o != *g.SentePlayerID) {
				g.GotePlayerID = &o
			}
			if r := int64(b[i+3] % 8); r > 0 && r != id && r <= int64(len(in.games))+2 {
				g.RedoOfID, g.RedoNumber = &r, 1
			}
			if b[i+3]&0x80 != 0 {
				g.Handicap = "香落ち"
			}
			d := day.AddDate(0, 0, int(b[i+4]%5)).Format(office.DateLayout)
			g.ScheduledOn = &d
			in.games = append(in.games, g)
			if b[i+5]%7 != 6 { // most games have a confirmed result
				by := int64(1)
				in.effective[id] = store.ResultVersion{
					GameResult:  store.GameResult{GameID: id, Result: results[int(b[i+5])%len(results)], Reason: reasons[int(b[i+5]>>3)%len(reasons)]},
					ConfirmedBy: &by,
				}
			}
		}
		games, skipped := ratingGames(in)
		roster := []string{"1", "2", "3", "4"}
		st, err := rating.Recompute(in.settings, roster, games)
		if err != nil {
			t.Fatalf("the rating package refused the converted games: %v", err)
		}
		leftOut := 0
		for _, n := range skipped {
			leftOut += n
		}
		if len(games)+leftOut != len(in.effective) {
			t.Fatalf("%d games with results, %d passed on and %d skipped before", len(in.effective), len(games), leftOut)
		}
		if rated := len(games) - len(st.Skipped()); rated < 0 {
			t.Fatalf("negative rated count")
		}
	})
}
