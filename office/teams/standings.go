package teams

import (
	"context"
	"strconv"

	"kisen/office"
	"kisen/pairing"
	"kisen/store"
)

// StandingsView is the team standings (issue 25 item 4's table, computed by
// pairing.TeamStandings from the matches of item 3): match points, board
// wins, then the organiser's tie-breaks each with its value (a round's
// bye counts the organiser's bye points).
type StandingsView struct {
	Event    store.Event
	Settings Settings
	Lines    []pairing.TeamStanding
	Teams    map[string]store.Team // by the engine's team id
	Rounds   int                   // rounds counted
	Scoring  Scoring               // the organiser's points and tie-breaks; Lines count as Scoring.Shown says
}

// Standings reads the team standings for anyone who may see the event.
// A round counts once its orders are published (to everyone; the staff
// see the same table, so it never shows what the public may not see). Its
// matches count board by board from the games' official results; a match
// not yet final is pending and not counted (pairing.TeamStandings).
// Statements: the event, the rounds, the teams, the orders, the matches,
// their boards, the event's games, its scoring and its byes — the same for
// any number of teams.
func (t *Teams) Standings(ctx context.Context, actor office.Actor, eventID int64) (StandingsView, error) {
	e, s, err := t.EventSettings(ctx, actor, eventID)
	if err != nil {
		return StandingsView{}, err
	}
	v := StandingsView{Event: e, Settings: s, Teams: map[string]store.Team{}}
	play, err := readEventPlay(ctx, t.store, eventID)
	if err != nil {
		return v, err
	}
	rounds, teamRows, ms, boards, gs := play.rounds, play.teams, play.matches, play.boards, play.games
	orders, _, err := t.store.TeamOrdersOfEvent(ctx, eventID)
	if err != nil {
		return v, err
	}
	if v.Scoring, err = readScoring(ctx, t.store, eventID); err != nil {
		return v, err
	}
	byes, err := t.store.TeamByesOfEvent(ctx, eventID)
	if err != nil {
		return v, err
	}
	req := pairing.TeamStandingsRequest{Settings: v.Scoring.engine(s.Boards), Seed: uint64(eventID)}
	byID := map[int64]store.Team{}
	for _, tm := range teamRows {
		id := strconv.FormatInt(tm.ID, 10)
		byID[tm.ID] = tm
		v.Teams[id] = tm
		req.Teams = append(req.Teams, pairing.Team{ID: id, Name: tm.Name, Affiliation: tm.Affiliation})
	}
	now := t.now()
	for _, r := range rounds {
		st := roundState{round: r, teams: teamRows}
		st.withoutBye(byes)
		for _, o := range orders {
			if o.RoundID == r.ID {
				st.orders = append(st.orders, o)
			}
		}
		if !st.published(now) {
			break // rounds count in order; a later round waits for this one
		}
		var tr pairing.TeamRound
		if b, ok := byes[r.ID]; ok {
			tr.Bye = strconv.FormatInt(b.TeamID, 10)
		}
		for _, m := range ms {
			if m.RoundID != r.ID {
				continue
			}
			mv, err := matchView(m, boards[m.ID], gs, byID, nil, s.Boards)
			if err != nil {
				return v, err
			}
			outcomes := make([]pairing.BoardOutcome, s.Boards)
			for _, b := range mv.Boards {
				outcomes[b.Board-1] = b.Outcome
			}
			tr.Matches = append(tr.Matches, pairing.TeamMatch{Table: m.TableNo, A: strconv.FormatInt(m.TeamAID, 10),
				B: strconv.FormatInt(m.TeamBID, 10), Boards: outcomes})
		}
		req.Rounds = append(req.Rounds, tr)
	}
	v.Rounds = len(req.Rounds)
	if v.Lines, err = pairing.TeamStandings(req); err != nil {
		return v, err
	}
	return v, nil
}
