package rating_test

import (
	"encoding/json"
	"fmt"
	"strings"

	"kisen/rating"
)

// The JSON a caller hands in (docs/rating-engine.md). Elo, K 32: a and b start at
// 1500; a wins the decided redo of a 千日手, so a goes to 1516 and b to 1484.
func ExampleRecompute() {
	in := `{
	  "settings": {"model": "elo"},
	  "players": ["a", "b"],
	  "games": [
	    {"id": "g1", "event_id": "ryuo-35", "date": "2026-04-01T10:00:00+09:00",
	     "sente": "a", "gote": "b", "outcome": "sennichite", "confirmed": true},
	    {"id": "g2", "event_id": "ryuo-35", "date": "2026-04-01T15:30:00+09:00",
	     "sente": "b", "gote": "a", "outcome": "gote_win", "confirmed": true, "redo_of": "g1"}
	  ]
	}`
	var req struct {
		Settings rating.Settings `json:"settings"`
		Players  []string        `json:"players"`
		Games    []rating.Game   `json:"games"`
	}
	req.Settings = rating.DefaultSettings(rating.ModelElo) // fields left out keep their defaults
	if err := json.NewDecoder(strings.NewReader(in)).Decode(&req); err != nil {
		fmt.Println(err)
		return
	}
	st, err := rating.Recompute(req.Settings, req.Players, req.Games)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range st.Ratings() {
		fmt.Printf("%s %.0f (%d–%d)\n", r.Player, r.Rating, r.Wins, r.Losses)
	}
	for _, s := range st.Skipped() {
		fmt.Printf("%s not rated: %s by %s\n", s.Game, s.Reason, s.RedoneBy)
	}
	// Output:
	// a 1516 (1–0)
	// b 1484 (0–1)
	// g1 not rated: redone by g2
}
