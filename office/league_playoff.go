package office

import (
	"context"
	"errors"
	"fmt"

	"kisen/league"
	"kisen/store"
)

// LeaguePlayoffGameView is one stepladder game (パラマス) with its players
// and where it stands.
type LeaguePlayoffGameView struct {
	Number    int
	Higher    int64 // the higher 順位, waiting
	Lower     int64 // 0 while it is the winner of an undecided game
	LowerFrom int   // the game whose winner plays (0 for the first game)
	GameID    int64 // 0 until created
	Current   int64 // the redo chain's last game
	Version   int   // the last game's newest result version (0: none), issue 11
	Winner    int64 // 0 while undecided
}

// LeaguePlayoff is the playoff of a class whose final table ties for the
// challenger place (league.Table.Playoff, in 順位 order).
type LeaguePlayoff struct {
	Games []LeaguePlayoffGameView
	State league.PlayoffState // Next: the game to create next; Challenger once over
	// NextHigher / NextLower are the next game's players (registry ids).
	NextHigher, NextLower int64
	Challenger            int64
}

// playoffOf follows the class's playoff games and, once the last is
// decided, marks the challenger in tab (league.Table.SettlePlayoff). nil
// when the table is not final or has no tie for the challenger place.
func (o *Office) playoffOf(ctx context.Context, gs store.GameSet, classID int64, tab *league.Table) (*LeaguePlayoff, error) {
	if !tab.Final || len(tab.Playoff) < 2 {
		return nil, nil
	}
	steps, err := league.Stepladder(tab.Playoff)
	if err != nil {
		return nil, err
	}
	made, err := o.store.LeaguePlayoffGames(ctx, classID)
	if err != nil {
		return nil, err
	}
	out := &LeaguePlayoff{}
	var winners []string
	for i, g := range steps {
		v := LeaguePlayoffGameView{Number: g.Number, LowerFrom: g.LowerFrom}
		v.Higher, _ = playerOfLeagueID(g.Higher)
		v.Lower, _ = playerOfLeagueID(g.Lower)
		if g.LowerFrom > 0 && g.LowerFrom <= len(winners) {
			v.Lower, _ = playerOfLeagueID(winners[g.LowerFrom-1])
		}
		if i < len(made) {
			if made[i].Number != g.Number {
				return nil, fmt.Errorf("league class %d: playoff game %d stored as number %d", classID, g.Number, made[i].Number)
			}
			v.GameID = made[i].GameID
			last, eff, ok, err := deciding(gs, v.GameID)
			if err != nil {
				return nil, err
			}
			v.Current = last.ID
			if lv, ok := gs.Latest(last.ID); ok {
				v.Version = lv.Version
			}
			if ok && last.SentePlayerID != nil && last.GotePlayerID != nil {
				switch eff.Result {
				case ResultSenteWin:
					v.Winner = *last.SentePlayerID
				case ResultGoteWin:
					v.Winner = *last.GotePlayerID
				}
			}
			w := ""
			if v.Winner != 0 {
				w = leaguePlayerID(v.Winner)
			}
			winners = append(winners, w)
		}
		out.Games = append(out.Games, v)
	}
	if out.State, err = league.PlayoffProgress(steps, winners); err != nil {
		return nil, fmt.Errorf("league class %d playoff: %w", classID, err)
	}
	// A game created but not yet decided is not "next" to create.
	if out.State.Next > 0 && out.State.Next <= len(made) {
		out.State = league.PlayoffState{}
	}
	out.NextHigher, _ = playerOfLeagueID(out.State.Higher)
	out.NextLower, _ = playerOfLeagueID(out.State.Lower)
	if out.State.Challenger != "" {
		out.Challenger, _ = playerOfLeagueID(out.State.Challenger)
		if err := tab.SettlePlayoff(out.State.Challenger); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// PlayoffGameInput creates the next playoff game; Date (YYYY-MM-DD) is
// optional.
type PlayoffGameInput struct {
	ClassID int64
	Date    string
}

// CreatePlayoffGame creates the next stepladder game of a class whose final
// table ties for the challenger place (directors and schedulers), one game
// at a time: the next game exists only once the game before it is decided
// (DOMAIN.md: A class, パラマス in 順位 order). The lower-ranked player
// takes sente until the 振り駒 on the day; the arbiter corrects the seats on
// the game page (docs/leagues-web.md).
func (o *Office) CreatePlayoffGame(ctx context.Context, actor Actor, in PlayoffGameInput) (store.Game, error) {
	d, err := o.LeagueClass(ctx, actor, in.ClassID)
	if err != nil {
		return store.Game{}, err
	}
	if err := o.RequireEventRole(ctx, actor, d.Class.EventID, RoleDirector, RoleScheduler); err != nil {
		return store.Game{}, err
	}
	if d.Class.Status != LeaguePublished {
		return store.Game{}, fmt.Errorf("league class %d is %s, not published: %w", d.Class.ID, d.Class.Status, ErrConflict)
	}
	st, err := o.standingsOf(ctx, d)
	if err != nil {
		return store.Game{}, err
	}
	if st.Playoff == nil {
		return store.Game{}, fmt.Errorf("league class %d has no playoff (table final: %v): %w", d.Class.ID, st.Table.Final, ErrConflict)
	}
	next := st.Playoff.State.Next
	if next == 0 {
		return store.Game{}, fmt.Errorf("league class %d: no playoff game can be created now (over, or the last one is undecided): %w", d.Class.ID, ErrConflict)
	}
	lower, higher := st.Playoff.NextLower, st.Playoff.NextHigher
	gi := GameInput{EventID: d.Class.EventID, Label: playoffLabel(d.Class.Class, next), SenteID: &lower, GoteID: &higher,
		AllowanceMinutes: d.Class.AllowanceMinutes, ScheduledOn: in.Date}
	row, v := gi.check()
	if err := v.OrNil(); err != nil {
		return store.Game{}, err
	}
	err = o.store.Tx(ctx, func(tx *store.Store) error {
		now := o.now().UTC()
		row.CreatedAt, row.UpdatedAt = now, now
		if err := tx.CreateGame(ctx, row); err != nil {
			return err
		}
		err := tx.CreateLeaguePlayoffGame(ctx, &store.LeaguePlayoffGame{ClassID: d.Class.ID, Number: next, GameID: row.ID})
		if errors.Is(err, store.ErrConflict) {
			return fmt.Errorf("league class %d playoff game %d exists already: %w", d.Class.ID, next, ErrConflict)
		}
		if err != nil {
			return err
		}
		return tx.AppendLeagueLog(ctx, &store.LeagueLogEntry{ClassID: d.Class.ID, Action: "playoff",
			Detail: fmt.Sprintf(`{"number":%d,"game":%d}`, next, row.ID), Violations: "[]", ActorID: actor.UserID, At: now})
	})
	if err != nil {
		return store.Game{}, err
	}
	return *row, nil
}

// playoffLabel names a playoff game: "A PO1".
func playoffLabel(class string, n int) string {
	l := fmt.Sprintf("PO%d", n)
	if class != "" {
		l = class + " " + l
	}
	return l
}
