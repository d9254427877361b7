package teams

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"kisen/office"
	"kisen/pairing"
	"kisen/store"
)

// The organiser's match points (勝ち点) and tie-break order (issue 25,
// docs/team-matches.md "Match points and tie-breaks"). Points may be whole
// or half numbers (2/1/0 or 1/0.5/0): they are kept in half points. The
// engine counts whole numbers, so an event with a half point among its
// values hands it half points — doubling every match point keeps every
// order the standings and the Swiss draw make — and the display halves
// them again (Scoring.Shown, Scoring.ShownTiebreak); an event of whole
// points hands it match points as they are.

// Scoring is an event's match points in half points and its tie-breaks.
type Scoring struct {
	EventID      int64
	Points       pairing.TeamPoints // Win, Draw, Loss, Bye in half points; ByeBoardWins as is
	Tiebreaks    []pairing.TeamTiebreak
	Version      int // 0: nothing stored, the defaults
	ByeBoardWins int
}

// MaxMatchPoints is the most a match or a bye may be worth (in match
// points; the engine takes at most 100 half points).
const MaxMatchPoints = 50

// DefaultScoring is 2/1/0 with a bye worth 2 and the engine's tie-break
// order.
func DefaultScoring(eventID int64) Scoring {
	return Scoring{EventID: eventID, Points: pairing.TeamPoints{Win: 4, Draw: 2, Loss: 0, Bye: 4},
		Tiebreaks: pairing.DefaultTeamTiebreaks()}
}

// Halves reports whether the engine counts half points (some value is a
// half).
func (s Scoring) Halves() bool {
	p := s.Points
	return (p.Win|p.Draw|p.Loss|p.Bye)%2 != 0
}

// engine is the settings the engine reads for an event of boards boards.
func (s Scoring) engine(boards int) pairing.TeamSettings {
	tbs := s.Tiebreaks
	if tbs == nil {
		tbs = []pairing.TeamTiebreak{} // none chosen: no tie-break (nil would be the defaults)
	}
	p := s.Points
	if !s.Halves() {
		p.Win, p.Draw, p.Loss, p.Bye = p.Win/2, p.Draw/2, p.Loss/2, p.Bye/2
	}
	p.ByeBoardWins = min(s.ByeBoardWins, boards)
	return pairing.TeamSettings{Match: pairing.TeamMatchRules{Boards: boards}, Points: p, Tiebreaks: tbs}
}

func scoringOf(sc store.TeamEventScoring) Scoring {
	out := Scoring{EventID: sc.EventID, Version: sc.Version, ByeBoardWins: sc.ByeBoardWins,
		Points: pairing.TeamPoints{Win: sc.WinHalves, Draw: sc.DrawHalves, Loss: sc.LossHalves, Bye: sc.ByeHalves}}
	out.Tiebreaks = []pairing.TeamTiebreak{}
	for _, id := range strings.Split(sc.Tiebreaks, ",") {
		if id != "" {
			out.Tiebreaks = append(out.Tiebreaks, pairing.TeamTiebreak(id))
		}
	}
	return out
}

// readScoring reads an event's scoring (the defaults when none is stored).
func readScoring(ctx context.Context, s *store.Store, eventID int64) (Scoring, error) {
	sc, err := s.TeamScoringOf(ctx, eventID)
	if errors.Is(err, store.ErrNotFound) {
		return DefaultScoring(eventID), nil
	}
	if err != nil {
		return Scoring{}, err
	}
	return scoringOf(sc), nil
}

// HalfPoints shows a number of half points (as stored) as match points:
// 4 → "2", 3 → "1.5".
func HalfPoints(n int) string {
	if n%2 == 0 {
		return strconv.Itoa(n / 2)
	}
	return strconv.FormatFloat(float64(n)/2, 'f', 1, 64)
}

// Shown is a number of match points as the engine counted them (a
// standing's or a drawn team's) in the reader's terms.
func (s Scoring) Shown(n int) string {
	if s.Halves() {
		return HalfPoints(n)
	}
	return strconv.Itoa(n)
}

// ShownTiebreak is a tie-break's value as the reader knows it: the ones
// made of match points (direct, Buchholz, Sonneborn–Berger) halved back
// when the engine counted half points.
func (s Scoring) ShownTiebreak(v pairing.TeamTiebreakValue) float64 {
	switch v.Tiebreak {
	case pairing.TeamTiebreakDirect, pairing.TeamTiebreakBuchholz, pairing.TeamTiebreakSB:
		if s.Halves() {
			return v.Value / 2
		}
	}
	return v.Value
}

// Tiebreaks lists every tie-break the engine knows, in its default order
// (the choices of the form).
func Tiebreaks() []pairing.TeamTiebreak { return pairing.DefaultTeamTiebreaks() }

// ScoringInput is the form: match points as typed ("2", "1", "0.5"), the
// bye's board wins, and the tie-breaks by place (Tiebreaks[i] is place
// i+1; "" leaves the place empty).
type ScoringInput struct {
	EventID      int64
	Version      int
	Win          string
	Draw         string
	Loss         string
	Bye          string
	ByeBoardWins string
	Tiebreaks    []string
}

// halves reads a match-point number: whole or half, 0 to MaxMatchPoints.
func halves(s string) (int, bool) {
	s = strings.TrimSpace(strings.NewReplacer("．", ".", "０", "0", "１", "1", "２", "2", "３", "3", "４", "4",
		"５", "5", "６", "6", "７", "7", "８", "8", "９", "9").Replace(s))
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || f < 0 || f > MaxMatchPoints || f*2 != math.Trunc(f*2) {
		return 0, false
	}
	return int(f * 2), true
}

func (in ScoringInput) read(boards int) (Scoring, error) {
	ve := &office.ValidationError{}
	out := Scoring{EventID: in.EventID, Version: in.Version, Tiebreaks: []pairing.TeamTiebreak{}}
	for _, f := range []struct {
		field string
		text  string
		to    *int
	}{{"win", in.Win, &out.Points.Win}, {"draw", in.Draw, &out.Points.Draw}, {"loss", in.Loss, &out.Points.Loss}, {"bye", in.Bye, &out.Points.Bye}} {
		n, ok := halves(f.text)
		if !ok {
			ve.Add(0, f.field, "teams.err.points", map[string]any{"Max": MaxMatchPoints})
			continue
		}
		*f.to = n
	}
	if ve.OrNil() == nil && (out.Points.Win == 0 || out.Points.Win < out.Points.Draw || out.Points.Draw < out.Points.Loss) {
		ve.Add(0, "win", "teams.err.points_order", nil)
	}
	n, err := strconv.Atoi(strings.TrimSpace(in.ByeBoardWins))
	if err != nil || n < 0 || n > boards {
		ve.Add(0, "bye_board_wins", "teams.err.whole_number", map[string]any{"Min": 0, "Max": boards})
	}
	out.ByeBoardWins = n
	known := map[string]bool{}
	for _, tb := range pairing.DefaultTeamTiebreaks() {
		known[string(tb)] = true
	}
	first := map[string]int{}
	for i, id := range in.Tiebreaks {
		id = strings.TrimSpace(id)
		field := "tiebreak_" + strconv.Itoa(i+1)
		switch {
		case id == "":
			continue
		case !known[id]:
			ve.Add(0, field, "teams.err.tiebreak_unknown", map[string]any{"N": i + 1})
			continue
		case first[id] > 0:
			ve.Add(0, field, "teams.err.tiebreak_twice", map[string]any{"N": i + 1, "First": first[id]})
			continue
		}
		first[id] = i + 1
		out.Tiebreaks = append(out.Tiebreaks, pairing.TeamTiebreak(id))
	}
	return out, ve.OrNil()
}

// EventScoring reads a team event's scoring for anyone who may see the
// event.
func (t *Teams) EventScoring(ctx context.Context, actor office.Actor, eventID int64) (store.Event, Settings, Scoring, error) {
	e, s, err := t.EventSettings(ctx, actor, eventID)
	if err != nil {
		return e, s, Scoring{}, err
	}
	sc, err := readScoring(ctx, t.store, eventID)
	return e, s, sc, err
}

// UpdateScoring changes the match points and tie-break order (directors)
// at the version seen (stale: ErrConflict). Bad input is refused in words,
// naming each field, and nothing is written. The standings and the next
// draw read the new values; drawn rounds stay as they are.
func (t *Teams) UpdateScoring(ctx context.Context, actor office.Actor, in ScoringInput) (Scoring, error) {
	if err := office.RequireEventRoleIn(ctx, t.store, actor, in.EventID, EditRoles...); err != nil {
		return Scoring{}, err
	}
	var out Scoring
	err := t.store.Tx(ctx, func(tx *store.Store) error {
		te, err := requireTeamEvent(ctx, tx, actor, in.EventID, EditRoles)
		if err != nil {
			return err
		}
		next, err := in.read(te.Boards)
		if err != nil {
			return err
		}
		cur, err := readScoring(ctx, tx, in.EventID)
		if err != nil {
			return err
		}
		if cur.Version != in.Version {
			return fmt.Errorf("team event %d scoring changed: %w", in.EventID, office.ErrConflict)
		}
		ids := make([]string, len(next.Tiebreaks))
		for i, tb := range next.Tiebreaks {
			ids[i] = string(tb)
		}
		row := store.TeamEventScoring{EventID: in.EventID, WinHalves: next.Points.Win, DrawHalves: next.Points.Draw,
			LossHalves: next.Points.Loss, ByeHalves: next.Points.Bye, ByeBoardWins: next.ByeBoardWins,
			Tiebreaks: strings.Join(ids, ","), Version: cur.Version, UpdatedAt: t.now()}
		if err := tx.SaveTeamScoring(ctx, &row); err != nil {
			return err
		}
		out = scoringOf(row)
		return nil
	})
	return out, err
}
