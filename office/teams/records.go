package teams

import (
	"context"
	"fmt"
	"sort"

	"kisen/office"
	"kisen/pairing"
	"kisen/store"
)

// Records (issue 25 items 5 and 6, docs/team-matches.md): the crosstable
// of teams, each player's board record and the individual prizes, all
// derived from the rounds counted by the standings (the rounds whose
// orders are published, in order) and their matches' boards. Nothing is
// stored; every reader sees the same thing.
//
// The organiser's rule for the prizes (the default, shown in words on the
// prize page):
//   - a forfeit win (不戦勝) counts as a win, a forfeit loss as a loss; a
//     draw (持将棋 or 千日手 not replayed) and an unplayed board count as
//     neither; a board not yet final is not counted;
//   - 全勝賞: a player with a win in every round his team has played
//     (its match started) and nothing else: no loss, draw or board still
//     being played;
//   - 個人賞 by board: each player counts at the board he sat most (equal:
//     the higher board); on each board the most wins, then the fewest
//     losses; players level on both share the prize (ties shown as ties).

// PlayerResult is one board's result as one player sees it.
type PlayerResult string

const (
	PlayerPending     PlayerResult = "pending"
	PlayerWin         PlayerResult = "win"
	PlayerLoss        PlayerResult = "loss"
	PlayerDraw        PlayerResult = "draw"
	PlayerForfeitWin  PlayerResult = "forfeit_win"
	PlayerForfeitLoss PlayerResult = "forfeit_loss"
	PlayerUnplayed    PlayerResult = "unplayed"
)

// resultFor reads a board's outcome from one side (a: team A's player).
func resultFor(o pairing.BoardOutcome, a bool) PlayerResult {
	mine, theirs := pairing.BoardA, pairing.BoardB
	mineF, theirsF := pairing.BoardAForfeit, pairing.BoardBForfeit
	if !a {
		mine, theirs, mineF, theirsF = theirs, mine, theirsF, mineF
	}
	switch o {
	case mine:
		return PlayerWin
	case theirs:
		return PlayerLoss
	case mineF:
		return PlayerForfeitWin
	case theirsF:
		return PlayerForfeitLoss
	case pairing.BoardDraw:
		return PlayerDraw
	case pairing.BoardUnplayed:
		return PlayerUnplayed
	}
	return PlayerPending
}

// PlayerGame is one board a player sat at.
type PlayerGame struct {
	Round        int
	Board        int
	MatchID      int64
	GameID       int64 // 0: no game (a forfeit)
	Opponent     string
	OpponentTeam store.Team
	Result       PlayerResult
}

// BoardTally is a player's wins and losses on one board.
type BoardTally struct {
	Board, Wins, Losses, Draws int
}

// PlayerRecord is one rostered player's record in the event.
type PlayerRecord struct {
	Member  store.TeamMemberRow
	Team    store.Team
	Reserve bool
	Games   []PlayerGame // by round
	ByBoard []BoardTally // the boards he sat at, highest first
	Wins    int          // forfeit wins included
	Losses  int          // forfeit losses included
	Draws   int
	Pending int
	// MainBoard is the board he sat most (equal: the higher), 0 when none.
	MainBoard int
	Sweep     bool // 全勝: a win in every round his team played
}

// CrossCell is one match of a team against another, from the team's side.
type CrossCell struct {
	Round   int
	MatchID int64
	Outcome string // "won", "lost", "drawn", "pending" (boards in play), "scheduled" (not started)
	For     int    // board wins, forfeit wins included
	Against int
}

// TeamTotal is a team's matches across the crosstable (final ones only).
type TeamTotal struct {
	Won, Lost, Drawn, Pending int
	BoardWins, BoardLosses    int
}

// BoardPrize is one board's 個人賞: the best record, every player level on
// it sharing it.
type BoardPrize struct {
	Board        int
	Wins, Losses int
	Winners      []PlayerRecord
	Considered   int // players counted at this board
}

// Round is a team round as the pages read it (web/teams takes rounds from
// the office, never from the store: docs/rooms.md).
type Round = store.TeamRound

// RecordsView is an event's crosstable, records and prizes.
type RecordsView struct {
	Event    store.Event
	Settings Settings
	Teams    []store.Team
	Rounds   []store.TeamRound // the rounds counted
	// Cross[a][b] are team a's matches against team b (by round).
	Cross   map[int64]map[int64][]CrossCell
	Totals  map[int64]TeamTotal
	Matches []RecordMatch // every match of the rounds counted
	Players []PlayerRecord
	Sweeps  []PlayerRecord
	Prizes  []BoardPrize
}

// RecordMatch is a match of a counted round with its round number.
type RecordMatch struct {
	Round int
	MatchView
}

// EventRecords reads the crosstable, every player's record and the prizes
// for anyone who may see the event (404 like a missing one otherwise).
// Statements: the event and its settings, the rounds, the teams, the
// orders, the matches, their boards, the event's games and the rosters —
// the same for any number of teams.
func (t *Teams) EventRecords(ctx context.Context, actor office.Actor, eventID int64) (RecordsView, error) {
	e, s, err := t.EventSettings(ctx, actor, eventID)
	if err != nil {
		return RecordsView{}, err
	}
	v := RecordsView{Event: e, Settings: s, Cross: map[int64]map[int64][]CrossCell{}, Totals: map[int64]TeamTotal{}}
	play, err := readEventPlay(ctx, t.store, eventID)
	if err != nil {
		return v, err
	}
	rounds, ms, boards, gs := play.rounds, play.matches, play.boards, play.games
	v.Teams = play.teams
	orders, _, err := t.store.TeamOrdersOfEvent(ctx, eventID)
	if err != nil {
		return v, err
	}
	members, err := t.store.TeamMembersOfEvent(ctx, eventID)
	if err != nil {
		return v, err
	}
	byID := map[int64]store.Team{}
	for _, tm := range v.Teams {
		byID[tm.ID] = tm
	}
	names := map[int64]OrderBoard{}
	for _, mb := range members {
		names[mb.PlayerID] = OrderBoard{PlayerID: mb.PlayerID, Name: mb.Name, Rank: mb.Rank, Reserve: mb.Position > s.Boards}
	}
	now := t.now()
	for _, r := range rounds {
		st := roundState{round: r, teams: v.Teams}
		for _, o := range orders {
			if o.RoundID == r.ID {
				st.orders = append(st.orders, o)
			}
		}
		if !st.published(now) {
			break // as the standings: rounds count in order
		}
		v.Rounds = append(v.Rounds, r)
		for _, m := range ms {
			if m.RoundID != r.ID {
				continue
			}
			mv, err := matchView(m, boards[m.ID], gs, byID, names, s.Boards)
			if err != nil {
				return v, err
			}
			v.Matches = append(v.Matches, RecordMatch{Round: r.Number, MatchView: mv})
		}
	}
	v.cross()
	v.records(members)
	return v, nil
}

// cross fills the crosstable and each team's totals.
func (v *RecordsView) cross() {
	add := func(team, opp int64, c CrossCell) {
		if v.Cross[team] == nil {
			v.Cross[team] = map[int64][]CrossCell{}
		}
		v.Cross[team][opp] = append(v.Cross[team][opp], c)
		tot := v.Totals[team]
		switch c.Outcome {
		case "won":
			tot.Won++
		case "lost":
			tot.Lost++
		case "drawn":
			tot.Drawn++
		default:
			tot.Pending++
		}
		if c.Outcome != "pending" && c.Outcome != "scheduled" {
			tot.BoardWins += c.For
			tot.BoardLosses += c.Against
		}
		v.Totals[team] = tot
	}
	for _, m := range v.Matches {
		a := CrossCell{Round: m.Round, MatchID: m.Match.ID, Outcome: "pending", For: m.Result.Wins[0], Against: m.Result.Wins[1]}
		b := CrossCell{Round: m.Round, MatchID: m.Match.ID, Outcome: "pending", For: m.Result.Wins[1], Against: m.Result.Wins[0]}
		if !m.Match.Started {
			a.Outcome, b.Outcome = "scheduled", "scheduled"
		}
		if m.Match.Started && m.Result.Final {
			switch m.Result.Outcome {
			case pairing.TeamAWins:
				a.Outcome, b.Outcome = "won", "lost"
			case pairing.TeamBWins:
				a.Outcome, b.Outcome = "lost", "won"
			default:
				a.Outcome, b.Outcome = "drawn", "drawn"
			}
		}
		add(m.Match.TeamAID, m.Match.TeamBID, a)
		add(m.Match.TeamBID, m.Match.TeamAID, b)
	}
}

// records derives every rostered player's record, the 全勝 players and
// the prizes by board.
func (v *RecordsView) records(members []store.TeamMemberRow) {
	games := map[int64][]PlayerGame{}
	for _, m := range v.Matches {
		for _, bd := range m.Boards {
			for _, side := range []struct {
				me, opp OrderBoard
				a       bool
				oppTeam store.Team
			}{{bd.A, bd.B, true, m.B}, {bd.B, bd.A, false, m.A}} {
				if side.me.PlayerID == 0 {
					continue
				}
				games[side.me.PlayerID] = append(games[side.me.PlayerID], PlayerGame{Round: m.Round, Board: bd.Board, MatchID: m.Match.ID,
					GameID: bd.GameID, Opponent: side.opp.Name, OpponentTeam: side.oppTeam, Result: resultFor(bd.Outcome, side.a)})
			}
		}
	}
	teams := map[int64]store.Team{}
	for _, tm := range v.Teams {
		teams[tm.ID] = tm
	}
	played := map[int64]map[int]bool{} // team → rounds with its match started
	for _, m := range v.Matches {
		if !m.Match.Started {
			continue
		}
		for _, id := range []int64{m.Match.TeamAID, m.Match.TeamBID} {
			if played[id] == nil {
				played[id] = map[int]bool{}
			}
			played[id][m.Round] = true
		}
	}
	for _, mb := range members {
		pr := PlayerRecord{Member: mb, Team: teams[mb.TeamID], Reserve: mb.Position > v.Settings.Boards, Games: games[mb.PlayerID]}
		sort.SliceStable(pr.Games, func(i, j int) bool { return pr.Games[i].Round < pr.Games[j].Round })
		tally := map[int]*BoardTally{}
		sat := map[int]int{}
		rounds := map[int]bool{}
		clean := true
		for _, g := range pr.Games {
			if tally[g.Board] == nil {
				tally[g.Board] = &BoardTally{Board: g.Board}
			}
			bt := tally[g.Board]
			sat[g.Board]++
			switch g.Result {
			case PlayerWin, PlayerForfeitWin:
				pr.Wins++
				bt.Wins++
				rounds[g.Round] = true
			case PlayerLoss, PlayerForfeitLoss:
				pr.Losses++
				bt.Losses++
				clean = false
			case PlayerDraw:
				pr.Draws++
				bt.Draws++
				clean = false
			case PlayerPending:
				pr.Pending++
				clean = false
			default:
				clean = false
			}
		}
		for b := 1; b <= v.Settings.Boards; b++ {
			if bt := tally[b]; bt != nil {
				pr.ByBoard = append(pr.ByBoard, *bt)
				if pr.MainBoard == 0 || sat[b] > sat[pr.MainBoard] {
					pr.MainBoard = b
				}
			}
		}
		pr.Sweep = clean && len(rounds) > 0 && len(rounds) == len(played[mb.TeamID])
		v.Players = append(v.Players, pr)
		if pr.Sweep {
			v.Sweeps = append(v.Sweeps, pr)
		}
	}
	for b := 1; b <= v.Settings.Boards; b++ {
		p := BoardPrize{Board: b}
		for _, pr := range v.Players {
			if pr.MainBoard != b {
				continue
			}
			p.Considered++
			switch {
			case pr.Wins == 0:
			case len(p.Winners) == 0 || pr.Wins > p.Wins || pr.Wins == p.Wins && pr.Losses < p.Losses:
				p.Winners, p.Wins, p.Losses = []PlayerRecord{pr}, pr.Wins, pr.Losses
			case pr.Wins == p.Wins && pr.Losses == p.Losses:
				p.Winners = append(p.Winners, pr)
			}
		}
		v.Prizes = append(v.Prizes, p)
	}
}

// TeamRecord is one team with its players' records and its matches.
type TeamRecord struct {
	RecordsView
	Team    store.Team
	Players []PlayerRecord // the team's, in roster order
	Matches []RecordMatch  // the team's, by round
}

// TeamRecords reads one team's page: its roster with each player's
// record and its matches (the event's records, so the same statements for
// any number of teams).
func (t *Teams) TeamRecords(ctx context.Context, actor office.Actor, teamID int64) (TeamRecord, error) {
	tm, err := t.store.TeamByID(ctx, teamID)
	if err != nil {
		return TeamRecord{}, err
	}
	rv, err := t.EventRecords(ctx, actor, tm.EventID)
	if err != nil {
		return TeamRecord{}, err
	}
	out := TeamRecord{RecordsView: rv, Team: tm}
	for _, p := range rv.Players {
		if p.Member.TeamID == teamID {
			out.Players = append(out.Players, p)
		}
	}
	for _, m := range rv.Matches {
		if m.Match.TeamAID == teamID || m.Match.TeamBID == teamID {
			out.Matches = append(out.Matches, m)
		}
	}
	return out, nil
}

// SheetView is one team's order sheet for a round: the roster, and the
// order when the reader may see it (else the boards are left blank to
// fill in).
type SheetView struct {
	Round RoundView
	Team  TeamView
	Order *OrderView // nil: blank boxes
}

// OrderSheet reads a team's order sheet for a round (anyone who may see the
// event: a blank sheet shows only the public roster; the order itself is
// filled in once the reader may see it).
func (t *Teams) OrderSheet(ctx context.Context, actor office.Actor, roundID, teamID int64) (SheetView, error) {
	rv, err := t.RoundOrders(ctx, actor, roundID)
	if err != nil {
		return SheetView{}, err
	}
	tm, err := t.store.TeamByID(ctx, teamID)
	if err != nil {
		return SheetView{}, err
	}
	if tm.EventID != rv.Event.ID {
		return SheetView{}, fmt.Errorf("team %d in round %d: %w", teamID, roundID, office.ErrNotFound)
	}
	members, err := t.store.TeamMembersOfEvent(ctx, tm.EventID)
	if err != nil {
		return SheetView{}, err
	}
	v := SheetView{Round: rv, Team: TeamView{Team: tm}}
	for _, m := range members {
		if m.TeamID == teamID {
			v.Team.Members = append(v.Team.Members, RosterMember{TeamMemberRow: m, Reserve: m.Position > rv.Settings.Boards})
		}
	}
	for i := range rv.Orders {
		if rv.Orders[i].Team.ID == teamID && !rv.Orders[i].Missing {
			v.Order = &rv.Orders[i]
		}
	}
	return v, nil
}

// SlipView is the match result slip (対戦結果票) of one match or of every
// match of a round.
type SlipView struct {
	Round   RoundMatchesView
	Matches []SlipMatch
}

// SlipMatch is one match on paper: its boards with the players (from the
// match once started, else from the published orders) and the colours when
// known.
type SlipMatch struct {
	MatchView
	Boards  []MatchBoard // every board, 1 … boards
	Colours bool         // the colours are known (the match started)
}

// MatchSlips reads the result slips of a round's matches (matchID 0: every
// match; else that match only, ErrNotFound when it is not of the round).
// The same visibility as the round's matches page.
func (t *Teams) MatchSlips(ctx context.Context, actor office.Actor, roundID, matchID int64) (SlipView, error) {
	rm, err := t.RoundMatches(ctx, actor, roundID)
	if err != nil {
		return SlipView{}, err
	}
	v := SlipView{Round: rm}
	orders := map[int64]OrderView{}
	for _, ov := range rm.Round.Orders {
		orders[ov.Team.ID] = ov
	}
	boards := rm.Round.Settings.Boards
	for _, m := range rm.Matches {
		if matchID != 0 && m.Match.ID != matchID {
			continue
		}
		sm := SlipMatch{MatchView: m, Colours: m.Match.Started}
		if m.Match.Started {
			sm.Boards = m.Boards
		} else {
			a, b := orders[m.A.ID], orders[m.B.ID]
			for i := range boards {
				mb := MatchBoard{Board: i + 1}
				if rm.Round.Published && i < len(a.Boards) {
					mb.A = a.Boards[i]
				}
				if rm.Round.Published && i < len(b.Boards) {
					mb.B = b.Boards[i]
				}
				sm.Boards = append(sm.Boards, mb)
			}
		}
		v.Matches = append(v.Matches, sm)
	}
	if matchID != 0 && len(v.Matches) == 0 {
		return SlipView{}, fmt.Errorf("team match %d in round %d: %w", matchID, roundID, office.ErrNotFound)
	}
	return v, nil
}

// MatchRound is the round of a match (for the slip's address).
func (t *Teams) MatchRound(ctx context.Context, matchID int64) (int64, error) {
	m, err := t.store.TeamMatchByID(ctx, matchID)
	if err != nil {
		return 0, err
	}
	return m.RoundID, nil
}
