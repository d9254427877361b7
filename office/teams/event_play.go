package teams

import (
	"context"

	"kisen/store"
)

// eventPlay is what the standings, the records and the draw read of an
// event's play so far: its rounds, teams, matches with their boards and
// the event's games. Statements: five, the same for any number of teams.
type eventPlay struct {
	rounds  []store.TeamRound
	teams   []store.Team
	matches []store.TeamMatch
	boards  map[int64][]store.TeamMatchBoard // by match id
	games   store.GameSet
}

// readEventPlay reads an event's play (eventPlay).
func readEventPlay(ctx context.Context, s *store.Store, eventID int64) (eventPlay, error) {
	var p eventPlay
	var err error
	if p.rounds, err = s.TeamRoundsOfEvent(ctx, eventID); err != nil {
		return p, err
	}
	if p.teams, err = s.TeamsOfEvent(ctx, eventID); err != nil {
		return p, err
	}
	if p.matches, err = s.TeamMatchesOfEvent(ctx, eventID); err != nil {
		return p, err
	}
	ids := make([]int64, len(p.matches))
	for i, m := range p.matches {
		ids[i] = m.ID
	}
	if p.boards, err = s.TeamMatchBoardsOf(ctx, ids); err != nil {
		return p, err
	}
	p.games, err = s.GameSetOfEvent(ctx, eventID)
	return p, err
}
