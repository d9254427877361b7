package rating

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"
)

// fuzzSettings picks a model and settings (valid or not) from two bytes.
func fuzzSettings(b0, b1 byte) Settings {
	s := DefaultSettings([]Model{ModelElo, ModelGlicko2, ModelGlicko2, ModelGlicko2}[b0%4])
	s.Glicko2.Period = []PeriodRule{PeriodMonth, PeriodMonth, PeriodEvent, PeriodExplicit}[b0/4%4]
	s.RateHandicap = b0&16 != 0
	if b0&32 != 0 {
		s.Elo.ProvisionalGames, s.Elo.ProvisionalK = int(b1%8), float64(b1)
	}
	if b0&64 != 0 {
		s.Glicko2.Tau = float64(b1) / 25 // 0 is invalid on purpose
		s.Glicko2.InitialRD = float64(b1) * 40
		s.Elo.K = float64(b1) * 4
	}
	return s
}

// fuzzGames decodes 7 bytes a game: players (some unknown or empty),
// outcome (some invalid), flags, date, event/period and a redo link.
func fuzzGames(data []byte) []Game {
	roster := []string{"a", "b", "c", "d", "a", "b", "zz", ""}
	outcomes := []Outcome{SenteWin, GoteWin, SenteWin, GoteWin, Sennichite, Jishogi, NoResult, "draw"}
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, jst)
	var games []Game
	for i := 0; i+7 <= len(data); i += 7 {
		b := data[i : i+7]
		g := Game{
			ID:        fmt.Sprintf("g%d", i/7),
			EventID:   fmt.Sprintf("e%d", b[5]%4),
			Period:    fmt.Sprintf("p%d", b[5]/4%4),
			Date:      base.AddDate(0, 0, int(b[4])*3).Add(time.Duration(b[6]%4) * time.Hour),
			Sente:     roster[b[0]%8],
			Gote:      roster[b[1]%8],
			Outcome:   outcomes[b[2]%8],
			Confirmed: b[3]&1 == 0,
			Forfeit:   b[3]&2 != 0 && b[3]&4 != 0,
			Handicap:  b[3]&8 != 0,
		}
		if b[3]&16 != 0 && len(games) > 0 {
			g.RedoOf = games[int(b[6])%len(games)].ID
		}
		if b[3]&96 == 96 { // an empty or a repeated ID
			if b[6]&1 == 0 || len(games) == 0 {
				g.ID = ""
			} else {
				g.ID = games[0].ID
			}
		}
		if b[4] == 255 {
			g.Date = time.Time{}
		}
		games = append(games, g)
	}
	return games
}

// FuzzRecompute: whatever the input, no panic; bad input is ErrInvalid;
// good input gives usable ratings, the same result for any input order and
// for any split into two batches.
func FuzzRecompute(f *testing.F) {
	f.Add([]byte{0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 2, 0, 1, 0, 0})
	f.Add([]byte{1, 2, 3, 4, 1, 0, 1, 3, 2, 4, 0, 16, 1, 1, 0, 1, 0, 0, 16, 2, 1, 0})
	f.Add([]byte{66, 9, 0, 1, 0, 0, 3, 9, 1, 0, 1, 8, 40, 5, 3, 1, 3, 1, 0, 90, 6, 3})
	f.Add([]byte{5, 200, 0, 1, 0, 96, 255, 0, 0, 0, 1, 1, 96, 0, 0, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		s := fuzzSettings(data[0], data[1])
		games := fuzzGames(data[2:])
		players := []string{"a", "b", "c", "d"}
		st, err := Recompute(s, players, games)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error is not ErrInvalid: %v", err)
			}
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		checkInvariants(t, s, games, st)
		want := st.Report()
		rated, skipped, err := Eligible(s, players, games)
		if err != nil || len(rated)+len(skipped) != len(games) || len(rated) != want.Rated {
			t.Fatalf("Eligible: %d rated + %d skipped of %d games (report says %d), err %v", len(rated), len(skipped), len(games), want.Rated, err)
		}
		rev := slices.Clone(games)
		slices.Reverse(rev)
		if got := mustRecompute(t, s, players, rev).Report(); !reflect.DeepEqual(got, want) {
			t.Fatal("reversed input gives a different report")
		}
		sorted := slices.Clone(games)
		slices.SortFunc(sorted, CompareGames)
		cut := int(data[1]) % (len(sorted) + 1)
		inc := mustRecompute(t, s, players, sorted[:cut])
		switch err := inc.Apply(sorted[cut:]); {
		case err == nil:
			if !reflect.DeepEqual(inc.Report(), want) {
				t.Fatalf("split at %d differs from recompute", cut)
			}
		case errors.Is(err, ErrOutOfOrder) && s.Model == ModelGlicko2 && s.Glicko2.Period != PeriodMonth:
			// Overlapping periods: the caller recomputes.
		default:
			t.Fatalf("split at %d: %v", cut, err)
		}
	})
}

func mustRecompute(t *testing.T, s Settings, players []string, games []Game) *State {
	t.Helper()
	st, err := Recompute(s, players, games)
	if err != nil {
		t.Fatalf("Recompute: %v", err)
	}
	return st
}

// FuzzGamesJSON: games as the command line will read them. Any JSON that
// decodes must be rated or rejected with ErrInvalid, never panic.
func FuzzGamesJSON(f *testing.F) {
	f.Add(`[{"id":"g1","date":"2026-04-01T10:00:00+09:00","sente":"a","gote":"b","outcome":"sente_win","confirmed":true}]`)
	f.Add(`[{"id":"g1","date":"2026-04-01T10:00:00+09:00","sente":"a","gote":"b","outcome":"sennichite","confirmed":true},` +
		`{"id":"g2","date":"2026-04-01T11:00:00+09:00","sente":"b","gote":"a","outcome":"gote_win","confirmed":true,"redo_of":"g1"}]`)
	f.Add(`[{"id":"g1","date":"0001-01-01T00:00:00Z","sente":"a","gote":"a","outcome":"draw"}]`)
	f.Add(`[{"id":"g1","date":"9999-12-31T23:59:59Z","sente":"a","gote":"c","outcome":"gote_win","confirmed":true,"handicap":true}]`)
	f.Fuzz(func(t *testing.T, in string) {
		var games []Game
		if json.Unmarshal([]byte(in), &games) != nil {
			return
		}
		for _, m := range []Model{ModelElo, ModelGlicko2} {
			s := DefaultSettings(m)
			st, err := Recompute(s, []string{"a", "b", "c"}, games)
			if err != nil {
				if !errors.Is(err, ErrInvalid) {
					t.Fatalf("%s: error is not ErrInvalid: %v", m, err)
				}
				continue
			}
			checkInvariants(t, s, games, st)
			if _, err := json.Marshal(st.Report()); err != nil {
				t.Fatalf("%s: report does not encode: %v", m, err)
			}
		}
	})
}
