package pairing

import "slices"

// Team orders (オーダー, issue 25 item 2, docs/team-entries.md): before each
// round a team names, board by board, who of its roster plays. The
// organiser's rule decides which orders are allowed; CheckTeamOrder applies
// it. Pure: it reads only its arguments.

// Order rules of a team event.
const (
	// TeamOrderFree: any players of the roster on any boards.
	TeamOrderFree = "free"
	// TeamOrderByRank: a stronger player never sits on a lower board than a
	// weaker one (board 1, 主将, is the highest); players of equal rank,
	// or without a rank, are free among themselves.
	TeamOrderByRank = "rank"
	// TeamOrderFixed: the order is the roster's, fixed for the event: the
	// players who play sit in the order they were registered (a reserve
	// who comes in takes his registered place after those above him).
	TeamOrderFixed = "fixed"
)

// TeamOrderRules lists the rules in display order.
var TeamOrderRules = []string{TeamOrderFree, TeamOrderByRank, TeamOrderFixed}

// Breaches of an order.
const (
	TeamBreachTooManyBoards = "boards"     // more boards than the event plays
	TeamBreachNotOnRoster   = "not_roster" // Board's player is not on the team's roster
	TeamBreachTwice         = "twice"      // the same player on Board and Other
	TeamBreachRank          = "rank"       // Board (higher) holds a weaker player than Other (lower)
	TeamBreachFixed         = "fixed"      // Board (higher) holds a player registered after Other's
)

// TeamRosterMember is one registered player of a team: Position is the
// registration order (1 first; positions after the event's boards are
// reserves, 補欠), Rank his rank at entry when HasRank.
type TeamRosterMember struct {
	PlayerID int64
	Position int
	Rank     Rank
	HasRank  bool
}

// TeamOrderBreach is one reason an order is refused. Board (and Other, for
// the breaches between two boards) are 1-based board numbers; PlayerID and
// OtherID are the players on them.
type TeamOrderBreach struct {
	Kind     string
	Board    int
	Other    int
	PlayerID int64
	OtherID  int64
}

// TeamOrderCheck is what an order means: the breaches that refuse it, the
// boards left empty (each a forfeit loss, 不戦敗), how many boards are
// filled, and whether that is short of a majority of the boards (the
// team forfeits the match when the organiser says so).
type TeamOrderCheck struct {
	Breaches        []TeamOrderBreach
	ForfeitBoards   []int
	Players         int
	ShortOfMajority bool
}

// OK reports that the order breaks no rule.
func (c TeamOrderCheck) OK() bool { return len(c.Breaches) == 0 }

// TeamOrderMajority is the number of boards that is a majority of boards.
func TeamOrderMajority(boards int) int { return boards/2 + 1 }

// CheckTeamOrder checks order (order[i] is board i+1's player, 0 for an
// empty board) against the team's roster, the event's number of boards and
// rule. Breaches come in board order.
func CheckTeamOrder(rule string, boards int, roster []TeamRosterMember, order []int64) TeamOrderCheck {
	var c TeamOrderCheck
	byID := make(map[int64]TeamRosterMember, len(roster))
	for _, m := range roster {
		byID[m.PlayerID] = m
	}
	for b := boards; b < len(order); b++ {
		if order[b] != 0 {
			c.Breaches = append(c.Breaches, TeamOrderBreach{Kind: TeamBreachTooManyBoards, Board: b + 1, PlayerID: order[b]})
		}
	}
	type seat struct {
		board int
		m     TeamRosterMember
	}
	var seats []seat
	firstBoard := map[int64]int{}
	for i := 0; i < boards; i++ {
		id := int64(0)
		if i < len(order) {
			id = order[i]
		}
		if id == 0 {
			c.ForfeitBoards = append(c.ForfeitBoards, i+1)
			continue
		}
		c.Players++
		if first, dup := firstBoard[id]; dup {
			c.Breaches = append(c.Breaches, TeamOrderBreach{Kind: TeamBreachTwice, Board: first, Other: i + 1, PlayerID: id, OtherID: id})
			continue
		}
		firstBoard[id] = i + 1
		m, ok := byID[id]
		if !ok {
			c.Breaches = append(c.Breaches, TeamOrderBreach{Kind: TeamBreachNotOnRoster, Board: i + 1, PlayerID: id})
			continue
		}
		seats = append(seats, seat{i + 1, m})
	}
	// Pairs of seated roster players, higher board first: each pair out of
	// the rule's order is named, so the message lists every board to move.
	for x := 0; x < len(seats); x++ {
		for y := x + 1; y < len(seats); y++ {
			hi, lo := seats[x], seats[y]
			switch rule {
			case TeamOrderByRank:
				if hi.m.HasRank && lo.m.HasRank && hi.m.Rank.Step < lo.m.Rank.Step {
					c.Breaches = append(c.Breaches, TeamOrderBreach{Kind: TeamBreachRank, Board: hi.board, Other: lo.board, PlayerID: hi.m.PlayerID, OtherID: lo.m.PlayerID})
				}
			case TeamOrderFixed:
				if hi.m.Position > lo.m.Position {
					c.Breaches = append(c.Breaches, TeamOrderBreach{Kind: TeamBreachFixed, Board: hi.board, Other: lo.board, PlayerID: hi.m.PlayerID, OtherID: lo.m.PlayerID})
				}
			}
		}
	}
	slices.SortStableFunc(c.Breaches, func(a, b TeamOrderBreach) int {
		if a.Board != b.Board {
			return a.Board - b.Board
		}
		return a.Other - b.Other
	})
	c.ShortOfMajority = c.Players < TeamOrderMajority(boards)
	return c
}
