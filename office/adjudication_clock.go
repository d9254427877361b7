package office

import (
	"context"
	"time"

	"kisen/adjudication"
	"kisen/rules"
	"kisen/rules/kifu"
	"kisen/store"
)

// GameClock is both clocks of a game at one ply of its newest record: the
// record's per-move times run through adjudication.Clock (D-T1..T3, byoyomi
// included), then the arbiters' time adjustments in force (D-K1, 000
// 第11条第5項四).
type GameClock struct {
	// Ply is the number of moves the clocks were charged for.
	Ply int
	// Timed is false when the game has no record or a move up to Ply has
	// no time; State then shows the game's allowances (plus adjustments).
	Timed bool
	// State is the clocks after Ply moves and the adjustments. A side in
	// byoyomi has State.InByoyomi set; State.Forfeited names a side whose
	// recorded time ran past the limit.
	State adjudication.ClockState
	// Adjusted is each side's net time added (negative: removed) by
	// rulings in force.
	Adjusted adjudication.Times
}

// ClockAt works out both clocks at ply (anyone who may see the game's
// event). Rulings carry no ply, so an adjustment in force is applied after
// the displayed moves: the page shows the time the arbiter's decision
// leaves each side with at that point.
func (o *Office) ClockAt(ctx context.Context, actor Actor, gameID int64, ply int) (GameClock, error) {
	g, _, err := o.Game(ctx, actor, gameID)
	if err != nil {
		return GameClock{}, err
	}
	return clockAt(ctx, o.store, g, ply)
}

func clockAt(ctx context.Context, s *store.Store, g store.Game, ply int) (GameClock, error) {
	settings, err := eventSettings(ctx, s, g.EventID)
	if err != nil {
		return GameClock{}, err
	}
	tc := settings.Time
	start := adjudication.Times{
		Sente: adjudication.Duration(time.Duration(g.SenteAllowanceS) * time.Second),
		Gote:  adjudication.Duration(time.Duration(g.GoteAllowanceS) * time.Second),
	}
	clock, err := adjudication.NewClockFrom(tc, start)
	if err != nil {
		return GameClock{}, factsError(err)
	}
	out := GameClock{}
	if nodes, first, ok, err := recordNodes(ctx, s, g); err != nil {
		return out, err
	} else if ok {
		out.Ply, out.Timed = min(max(ply, 0), len(nodes)), true
		for _, n := range nodes[:out.Ply] {
			if !n.HasTime {
				out.Timed = false
				break
			}
		}
		if out.Timed {
			mover := first
			for _, n := range nodes[:out.Ply] {
				if _, lost, err := clock.Apply(mover, n.Time); err != nil || lost {
					break // the forfeit is in the state; later times are moot
				}
				mover = mover.Opponent()
			}
		} else {
			clock, _ = adjudication.NewClockFrom(tc, start) // untimed: the allowances
		}
	}
	rulings, err := gameRulings(ctx, s, g.ID)
	if err != nil {
		return out, err
	}
	inForce, err := adjudication.EffectiveRulings(rulings)
	if err != nil {
		return out, factsError(err)
	}
	for _, r := range inForce {
		if r.Kind != adjudication.RulingTimeAdjust || r.Player == nil || r.Delta == 0 {
			continue
		}
		if _, err := clock.Adjust(*r.Player, r.Delta.D()); err != nil {
			break // after a forfeit the clocks no longer move
		}
		if *r.Player == adjudication.Sente {
			out.Adjusted.Sente += r.Delta
		} else {
			out.Adjusted.Gote += r.Delta
		}
	}
	out.State = clock.State()
	return out, nil
}

// recordNodes is the main line of the game's newest record with the side
// that moves first; ok is false when the game has no record.
func recordNodes(ctx context.Context, s *store.Store, g store.Game) ([]kifu.Node, adjudication.Side, bool, error) {
	rec, ok, err := s.LatestGameRecord(ctx, g.ID)
	if err != nil {
		return nil, adjudication.Sente, false, err
	}
	// The recorder's live record, when in force, with its move times
	// (issue 26).
	rows, err := s.GameMoves(ctx, g.ID)
	if err != nil {
		return nil, adjudication.Sente, false, err
	}
	if live, isLive := liveKifu(g, rows, rec, ok); isLive {
		first := adjudication.Sente
		if rules.NewPosition(live.Handicap).SideToMove() == rules.Gote {
			first = adjudication.Gote
		}
		return live.Main.Nodes, first, true, nil
	}
	if !ok {
		return nil, adjudication.Sente, false, nil
	}
	f := kifu.FormatUnknown
	if rec.Format != "" {
		if f, err = kifu.ParseFormat(rec.Format); err != nil {
			return nil, adjudication.Sente, false, err
		}
	}
	res, err := kifu.Read([]byte(rec.Text), "", f)
	if err != nil {
		return nil, adjudication.Sente, false, err // it was read when saved: the stored text is damaged
	}
	pos, err := res.Record.StartPosition()
	if err != nil {
		return nil, adjudication.Sente, false, err
	}
	first := adjudication.Sente
	if pos.SideToMove() == rules.Gote { // a handicap game: 上手 moves first
		first = adjudication.Gote
	}
	return res.Record.Main.Nodes, first, true, nil
}
