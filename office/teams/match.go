package teams

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"

	"kisen/office"
	"kisen/pairing"
	"kisen/store"
)

// Team matches (issue 25 item 3, docs/team-matches.md). The director pairs
// the teams of a round by hand (MatchInput); once both orders are published
// the match is started (StartMatch): one 振り駒 decides board 1's colours
// and the boards alternate (pairing.TeamColours), every board with two
// players becomes an ordinary game, an empty board a forfeit for the side
// present. The match result is derived each time from the boards' games
// through pairing.DecideTeamMatch; it is never stored.

// MatchRoles may pair and start matches.
var MatchRoles = EditRoles

// MatchInput is the form that pairs two teams at a table of a round.
type MatchInput struct {
	RoundID int64
	Table   int   `field:"table"`
	TeamA   int64 `field:"team_a"`
	TeamB   int64 `field:"team_b"`
}

// CreateMatch pairs two teams of the round's event at a table (director;
// one transaction). A team already in a match of the round, a table taken,
// the same team twice or a team of another event is refused in words.
func (t *Teams) CreateMatch(ctx context.Context, actor office.Actor, in MatchInput) (store.TeamMatch, error) {
	var out store.TeamMatch
	r, err := t.roundOf(ctx, in.RoundID)
	if err != nil {
		return out, err
	}
	seed, err := newMatchSeed()
	if err != nil {
		return out, err
	}
	now := t.now().UTC()
	err = t.store.Tx(ctx, func(tx *store.Store) error {
		if _, err := requireTeamEvent(ctx, tx, actor, r.EventID, MatchRoles); err != nil {
			return err
		}
		if in.Table < 1 || in.Table > 10000 {
			return invalid("table", "teams.err.whole_number", map[string]any{"Min": 1, "Max": 10000})
		}
		teams, err := tx.TeamsOfEvent(ctx, r.EventID)
		if err != nil {
			return err
		}
		known := map[int64]bool{}
		for _, tm := range teams {
			known[tm.ID] = true
		}
		if !known[in.TeamA] {
			return invalid("team_a", "teams.err.choose", nil)
		}
		if !known[in.TeamB] {
			return invalid("team_b", "teams.err.choose", nil)
		}
		if in.TeamA == in.TeamB {
			return invalid("team_b", "teams.err.match_same_team", nil)
		}
		byes, err := tx.TeamByesOfEvent(ctx, r.EventID)
		if err != nil {
			return err
		}
		if b, ok := byes[r.ID]; ok && (b.TeamID == in.TeamA || b.TeamID == in.TeamB) {
			field := "team_a"
			if b.TeamID == in.TeamB {
				field = "team_b"
			}
			return invalid(field, "teams.err.match_bye", nil)
		}
		ms, err := tx.TeamMatchesOfRound(ctx, r.ID)
		if err != nil {
			return err
		}
		for _, m := range ms {
			if m.TableNo == in.Table {
				return invalid("table", "teams.err.match_table_taken", map[string]any{"Table": in.Table})
			}
			for _, id := range []int64{m.TeamAID, m.TeamBID} {
				if id == in.TeamA || id == in.TeamB {
					return invalid("team_b", "teams.err.match_team_busy", map[string]any{"Table": m.TableNo})
				}
			}
		}
		out = store.TeamMatch{EventID: r.EventID, RoundID: r.ID, TableNo: in.Table, TeamAID: in.TeamA, TeamBID: in.TeamB,
			Seed: seed, CreatedAt: now, UpdatedAt: now}
		return tx.CreateTeamMatch(ctx, &out)
	})
	return out, err
}

func newMatchSeed() (string, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return strconv.FormatUint(binary.LittleEndian.Uint64(b[:]), 10), nil
}

// StartMatch starts a match at the version the director saw (stale: a
// *office.StaleError-free store.ErrConflict, 409): both orders must be
// published. One transaction: the toss, the boards and their games.
func (t *Teams) StartMatch(ctx context.Context, actor office.Actor, matchID int64, version int) (store.TeamMatch, error) {
	var out store.TeamMatch
	m0, err := t.store.TeamMatchByID(ctx, matchID)
	if err != nil {
		return out, err
	}
	now := t.now().UTC()
	err = t.store.Tx(ctx, func(tx *store.Store) error {
		if _, err := requireTeamEvent(ctx, tx, actor, m0.EventID, MatchRoles); err != nil {
			return err
		}
		m, err := tx.TeamMatchByID(ctx, matchID)
		if err != nil {
			return err
		}
		if m.Version != version || m.Started {
			return fmt.Errorf("team match %d changed since version %d: %w", m.ID, version, store.ErrConflict)
		}
		r, err := tx.TeamRoundByID(ctx, m.RoundID)
		if err != nil {
			return err
		}
		st, err := t.roundStateIn(ctx, tx, r)
		if err != nil {
			return err
		}
		if !st.published(now) {
			return invalid("", "teams.err.match_orders_hidden", nil)
		}
		var a, b OrderView
		for _, v := range st.views(now) {
			switch v.Team.ID {
			case m.TeamAID:
				a = v
			case m.TeamBID:
				b = v
			}
		}
		boards := st.settings.Boards
		aSente, record, err := office.TeamMatchToss(m.Seed, m.ID)
		if err != nil {
			return err
		}
		colours, err := pairing.TeamColours(pairing.TeamColourRule("alternate"), boards, []bool{aSente})
		if err != nil {
			return err
		}
		m.Furigoma, m.UpdatedAt = record, now
		// Both short: every board is left unplayed and no team is named.
		switch {
		case a.MatchForfeit && !b.MatchForfeit:
			m.ForfeitTeamID = &m.TeamAID
		case b.MatchForfeit && !a.MatchForfeit:
			m.ForfeitTeamID = &m.TeamBID
		}
		rows := make([]store.TeamMatchBoard, boards)
		for i := range rows {
			row := store.TeamMatchBoard{Board: i + 1, ASente: colours[i]}
			// A team that forfeits the match puts no one on any board.
			if !a.MatchForfeit && i < len(a.Boards) && a.Boards[i].PlayerID != 0 {
				id := a.Boards[i].PlayerID
				row.APlayerID = &id
			}
			if !b.MatchForfeit && i < len(b.Boards) && b.Boards[i].PlayerID != 0 {
				id := b.Boards[i].PlayerID
				row.BPlayerID = &id
			}
			if row.APlayerID != nil && row.BPlayerID != nil {
				sente, gote := *row.APlayerID, *row.BPlayerID
				if !row.ASente {
					sente, gote = gote, sente
				}
				label := fmt.Sprintf("第%d回戦 第%d卓 %d将", r.Number, m.TableNo, i+1)
				gid, err := office.CreateTeamBoardGameIn(ctx, tx, m.EventID, label, sente, gote, now)
				if err != nil {
					return err
				}
				row.GameID = &gid
			}
			rows[i] = row
		}
		if err := tx.StartTeamMatch(ctx, &m, rows); err != nil {
			return err
		}
		out = m
		return nil
	})
	var ve *office.ValidationError
	if errors.As(err, &ve) {
		return m0, err // the match as read, for the form shown again
	}
	return out, err
}

// MatchBoard is one board of a match as a page shows it.
type MatchBoard struct {
	Board   int
	A, B    OrderBoard // the players (PlayerID 0: an empty board)
	ASente  bool
	GameID  int64 // 0: no game (an empty board or a match forfeit)
	Outcome pairing.BoardOutcome
}

// MatchView is a match with its boards and the result derived from them.
type MatchView struct {
	Match       store.TeamMatch
	A, B        store.Team
	Boards      []MatchBoard
	Result      pairing.TeamMatchResult
	ForfeitTeam string // the team that forfeited the match, "" none
}

// RoundMatchesView is a round's matches for the reader.
type RoundMatchesView struct {
	Round   RoundView
	Matches []MatchView
}

// RoundMatches reads a round's matches with their boards and results. The
// staff see them always; anyone else once the round's orders are published
// (before that the round's matches are not found, like a missing round).
// Statements: the round view's, the matches, their boards, the event's
// game set and its rosters — the same for any number of teams.
func (t *Teams) RoundMatches(ctx context.Context, actor office.Actor, roundID int64) (RoundMatchesView, error) {
	rv, err := t.RoundOrders(ctx, actor, roundID)
	if err != nil {
		return RoundMatchesView{}, err
	}
	if !rv.Staff && !rv.Published {
		return RoundMatchesView{}, fmt.Errorf("matches of team round %d: %w", roundID, office.ErrNotFound)
	}
	ms, err := t.store.TeamMatchesOfRound(ctx, roundID)
	if err != nil {
		return RoundMatchesView{}, err
	}
	out := RoundMatchesView{Round: rv}
	if len(ms) == 0 {
		return out, nil
	}
	ids := make([]int64, len(ms))
	for i, m := range ms {
		ids[i] = m.ID
	}
	boards, err := t.store.TeamMatchBoardsOf(ctx, ids)
	if err != nil {
		return RoundMatchesView{}, err
	}
	gs, err := t.store.GameSetOfEvent(ctx, rv.Event.ID)
	if err != nil {
		return RoundMatchesView{}, err
	}
	members, err := t.store.TeamMembersOfEvent(ctx, rv.Event.ID)
	if err != nil {
		return RoundMatchesView{}, err
	}
	teams := map[int64]store.Team{}
	for _, ov := range rv.Orders {
		teams[ov.Team.ID] = ov.Team
	}
	// The players by roster, not by the current order: a board shows who
	// sat there when the match started.
	names := map[int64]OrderBoard{}
	for _, mb := range members {
		names[mb.PlayerID] = OrderBoard{PlayerID: mb.PlayerID, Name: mb.Name, Rank: mb.Rank, Reserve: mb.Position > rv.Settings.Boards}
	}
	for _, m := range ms {
		v, err := matchView(m, boards[m.ID], gs, teams, names, rv.Settings.Boards)
		if err != nil {
			return RoundMatchesView{}, err
		}
		out.Matches = append(out.Matches, v)
	}
	return out, nil
}

// matchView derives a match's boards and result: a board with a game reads
// its chain's official result, an empty board is a forfeit for the side
// present (both empty: unplayed); a match not started is pending on every
// board.
func matchView(m store.TeamMatch, rows []store.TeamMatchBoard, gs store.GameSet, teams map[int64]store.Team,
	names map[int64]OrderBoard, boards int) (MatchView, error) {
	v := MatchView{Match: m, A: teams[m.TeamAID], B: teams[m.TeamBID]}
	if m.ForfeitTeamID != nil {
		v.ForfeitTeam = teams[*m.ForfeitTeamID].Name
	}
	outcomes := make([]pairing.BoardOutcome, boards)
	for _, row := range rows {
		if row.Board < 1 || row.Board > boards {
			continue
		}
		mb := MatchBoard{Board: row.Board, ASente: row.ASente}
		if row.APlayerID != nil {
			mb.A = names[*row.APlayerID]
			mb.A.PlayerID = *row.APlayerID
		}
		if row.BPlayerID != nil {
			mb.B = names[*row.BPlayerID]
			mb.B.PlayerID = *row.BPlayerID
		}
		switch {
		case row.GameID != nil:
			mb.GameID = *row.GameID
			o, err := office.TeamBoardOutcome(gs, *row.GameID, *row.APlayerID)
			if err != nil && !errors.Is(err, store.ErrNotFound) {
				return v, err
			}
			mb.Outcome = o
		case row.APlayerID != nil:
			mb.Outcome = pairing.BoardAForfeit
		case row.BPlayerID != nil:
			mb.Outcome = pairing.BoardBForfeit
		default:
			mb.Outcome = pairing.BoardUnplayed
		}
		outcomes[row.Board-1] = mb.Outcome
		v.Boards = append(v.Boards, mb)
	}
	res, err := pairing.DecideTeamMatch(pairing.TeamMatchRules{Boards: boards}, outcomes)
	if err != nil {
		return v, err
	}
	v.Result = res
	return v, nil
}
