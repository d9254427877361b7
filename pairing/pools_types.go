package pairing

import "fmt"

// PoolMode is how a pools preliminary pairs its rounds.
type PoolMode string

// Policy is what a draw does with one relation between two players.
type Policy string

// RelationPolicy is the class setting per relation. An empty field means
// "avoid".
type RelationPolicy struct {
	Club           Policy
	MasterStudent  Policy
	FellowDisciple Policy
	Family         Policy
}

// PoolPlayer is one checked-in player of the class.
type PoolPlayer struct {
	ID     string
	Name   string
	Club   string // "" for none
	Master string // the master's ID (an entrant or not); "" for none
	Family string // a family key shared by relatives; "" for none
}

// PoolGame is one played game of an earlier round.
type PoolGame struct {
	Round   int
	Board   int
	Players [2]string
	Winner  string
}

// PoolBye is a round a player sat out; it counts as a win (不戦勝).
type PoolBye struct {
	Round  int
	Player string
}

// PoolBlock is one block of the blocks mode, players in lot order: round 1
// pairs positions 1–2 and 3–4 (a block of three gives position 3 a bye).
type PoolBlock struct {
	ID      string
	Players []string
}

// PoolsRequest is a preliminary so far: the class, its settings, the
// blocks (blocks mode; drawn from Seed when empty) and every result.
type PoolsRequest struct {
	Players   []PoolPlayer
	Wins      int // N of N勝通過
	Losses    int // M of M敗失格
	Mode      PoolMode
	Relations RelationPolicy
	Blocks    []PoolBlock
	Games     []PoolGame
	Byes      []PoolBye
	Seed      uint64
	// Proposed is a next round to judge (CheckPools only): the draw's
	// pairings, perhaps edited at the desk, before they are played.
	Proposed *PoolProposal
}

// PoolProposal is an unplayed round: its games and byes.
type PoolProposal struct {
	Games [][2]string
	Byes  []string
}

// PoolPairing is one game of the drawn round.
type PoolPairing struct {
	Board   int
	Block   string // "" in records mode
	Players [2]string
	Records [2]Record
	// Rematch is true only for a block's round-3 game between players who
	// met in round 1 (the block leaves no choice; see docs/pools.md).
	Rematch bool
}

// Record is a player's wins and losses, byes counted as wins.
type Record struct {
	Wins, Losses int
}

func (r Record) String() string { return fmt.Sprintf("%d-%d", r.Wins, r.Losses) }

// PoolStanding is one player's state after the results given.
type PoolStanding struct {
	ID     string
	Name   string
	Block  string
	Record Record
	Byes   int
	Status string
	// Round is when the player qualified or went out (0 while playing).
	Round int
	// BlockPlace is 1 for a block's 2-0 qualifier, 2 for its 2-1 qualifier
	// (blocks mode), so the final can spread block winners.
	BlockPlace int
}

// NotKept is a relation the draw could not keep apart, by player names.
type NotKept struct {
	Relation string
	Players  [2]string
	Names    [2]string
	Block    string // blocks mode: the block they share
	Board    int    // records mode: the board they meet on
}

// PoolsRound is the next round of a preliminary.
type PoolsRound struct {
	Round     int // 0 when Finished
	Blocks    []PoolBlock
	Pairings  []PoolPairing
	Byes      []string // players with a bye (不戦勝) this round
	NotKept   []NotKept
	Standings []PoolStanding // in input order
	Finished  bool
}

// NoPairingError: the input is valid but no pairing keeps the hard rules
// (no rematch, "never" relations). CLI exit 1.
type NoPairingError struct {
	Round   int
	Players []string
	Reason  string
}

func (e *NoPairingError) Error() string {
	return fmt.Sprintf("no pairing for round %d: %s", e.Round, e.Reason)
}
