package office

import (
	"cmp"
	"context"
	"slices"

	"kisen/adjudication"

	"kisen/store"
)

// The public side of the live record (issue 26 item 5, docs/recorder.md
// "The live board"): the live board of one game and the list of an
// event's games with a live record. Both read as the public whoever asks
// (like embeds): a draft event, or a game of an unpublished stage or
// class, is ErrNotFound even for its staff, who see the recorder's page.

// LiveBoard is a game's live record as the public sees it.
type LiveBoard struct {
	Game   store.Game
	Event  store.Event
	Record LiveRecord
	// Decided: the game has a result in force (the board then shows the
	// game as ended, not in play).
	Decided bool
	Result  string // the result in force when Decided (adjudication.Result)
}

// PublicLiveBoard reads a game's live record for the live board: the
// visibility checks, the game's time control (its redo chain), the
// moves, and the result versions — a fixed number of statements whatever
// the ply (the moves are one statement, replayed in memory).
func (o *Office) PublicLiveBoard(ctx context.Context, gameID int64) (LiveBoard, error) {
	g, e, err := o.Game(ctx, Actor{}, gameID)
	if err != nil {
		return LiveBoard{}, err
	}
	// Settings the rooms refuse leave the board without a clock (the
	// moves and their times still show), as on the game page.
	s, err := ParseEventSettings(e.Settings)
	if err != nil {
		s = EventSettings{}
	}
	if s.Time, err = gameTimeControl(ctx, o.store, g, s.Time); err != nil {
		return LiveBoard{}, err
	}
	st, err := loadLive(ctx, o.store, g, s)
	if err != nil {
		return LiveBoard{}, err
	}
	hist, err := o.store.ResultHistory(ctx, g.ID)
	if err != nil {
		return LiveBoard{}, err
	}
	out := LiveBoard{Game: g, Event: e, Record: st.record()}
	if res, ok := store.EffectiveOf(hist); ok && res.Result != string(adjudication.Pending) {
		out.Decided, out.Result = true, res.Result
	}
	return out, nil
}

// LiveGame is one line of an event's live games: a game with a live
// record in force.
type LiveGame struct {
	Game    store.Game
	Plies   int // moves in force
	Decided bool
}

// PublicLiveGames lists the games of a published event that have a live
// record, those in play first, then by id: the event's game set, the
// hidden games and every live move of the event (a fixed number of
// statements). Void games and games of unpublished parts are left out.
func (o *Office) PublicLiveGames(ctx context.Context, eventID int64) (store.Event, []LiveGame, error) {
	e, err := o.Event(ctx, Actor{}, eventID)
	if err != nil {
		return e, nil, err
	}
	gs, hidden, err := o.EventGames(ctx, Actor{}, eventID)
	if err != nil {
		return e, nil, err
	}
	moves, err := o.store.GameMovesOfEvent(ctx, eventID)
	if err != nil {
		return e, nil, err
	}
	var out []LiveGame
	for id, rows := range moves {
		g, ok := gs.Games[id]
		if !ok || hidden[id] || gs.Void[id] {
			continue
		}
		n := 0
		for _, r := range rows {
			if !r.Undone {
				n++
			}
		}
		if n == 0 {
			continue
		}
		lg := LiveGame{Game: g, Plies: n}
		if res, ok := gs.Effective(id); ok && res.Result != string(adjudication.Pending) {
			lg.Decided = true
		}
		out = append(out, lg)
	}
	slices.SortFunc(out, func(a, b LiveGame) int {
		if a.Decided != b.Decided {
			if a.Decided {
				return 1
			}
			return -1
		}
		return cmp.Compare(a.Game.ID, b.Game.ID)
	})
	return e, out, nil
}
