package league

import (
	"fmt"
	"slices"
)

// Result is one game played for a scheduled pairing. Winner is the
// winner's id, or "" when the game had no result (千日手 or 持将棋): such a
// game is replayed as a redo the same day (D-R1), and only the deciding
// game counts (D-R3, 001 第6条4), so one pairing may have several results
// but at most one with a winner.
type Result struct {
	Round  int    `json:"round"`
	Sente  string `json:"sente"`
	Gote   string `json:"gote"`
	Winner string `json:"winner"`
	// BothLose: neither player came (or both were ruled out), so the game
	// is decided as a loss for each side and a win for nobody; Winner is
	// then empty.
	BothLose bool `json:"both_lose,omitempty"`
}

// Outcome is what the term means for a player.
type Outcome string

const (
	OutcomeStays      Outcome = "stays"
	OutcomeChallenger Outcome = "challenger" // A class: 名人挑戦者
	OutcomePlayoff    Outcome = "playoff"    // tied for the challenger place: パラマス
	OutcomePromoted   Outcome = "promoted"
	OutcomeDemoted    Outcome = "demoted" // from C2: to フリークラス
)

// ClassRules are a class's promotion and demotion numbers; they change
// over time, so all are settings (DOMAIN.md, Standings).
type ClassRules struct {
	Challengers int `json:"challengers"` // top places that win the title challenge (A: 1)
	// Playoff settles a tie for the challenger place by a stepladder in
	// 順位 order; without it, and for every other tie, 順位 decides.
	Playoff        bool `json:"playoff"`
	Promote        int  `json:"promote"`
	AllWinsPromote bool `json:"all_wins_promote"` // a player who wins every game goes up, beyond Promote
	Demote         int  `json:"demote"`           // direct demotion places at the bottom
	// 降級点: the bottom floor(n × PointsNum / PointsDen) players who are
	// not promoted get one; PointsToDemote of them send a player down.
	PointsNum      int `json:"points_num"`
	PointsDen      int `json:"points_den"`
	PointsToDemote int `json:"points_to_demote"`
	// ErasedByWinningRecord is how many 降級点 a winning record (勝ち越し,
	// more wins than losses) erases.
	ErasedByWinningRecord int `json:"erased_by_winning_record"`
}

// DefaultClassRules gives the numbers of DOMAIN.md: A top challenger,
// bottom 2 down; B1 2 up, 3 down; B2/C1/C2 3 up plus every all-wins
// player, the bottom fifth get a 降級点, two send B2/C1 down and three
// send C2 to フリークラス; a winning record erases one.
func DefaultClassRules(c Class) (ClassRules, error) {
	switch c {
	case ClassA:
		return ClassRules{Challengers: 1, Playoff: true, Demote: 2}, nil
	case ClassB1:
		return ClassRules{Promote: 2, Demote: 3}, nil
	case ClassB2, ClassC1, ClassC2:
		r := ClassRules{Promote: 3, AllWinsPromote: true, PointsNum: 1, PointsDen: 5, PointsToDemote: 2, ErasedByWinningRecord: 1}
		if c == ClassC2 {
			r.PointsToDemote = 3
		}
		return r, nil
	}
	return ClassRules{}, fmt.Errorf("%w: class %q has no promotion rules", ErrInvalid, c)
}

// Term is one class's term as far as it has been played.
type Term struct {
	Class    Class
	Players  []string // 順位 order
	Schedule Schedule
	Results  []Result
	Points   map[string]int // 降級点 held before this term
	Rules    ClassRules
}

// Row is one player's line in the standings.
type Row struct {
	Place    int     `json:"place"`
	ID       string  `json:"id"`
	Junni    int     `json:"junni"` // this term's 順位, 1 = top
	Wins     int     `json:"wins"`
	Losses   int     `json:"losses"`
	Rests    int     `json:"rests"`    // 抜け番: neither a win nor a loss
	Unplayed int     `json:"unplayed"` // scheduled games without a decided result
	Outcome  Outcome `json:"outcome"`
	NewPoint bool    `json:"new_point"` // a 降級点 this term
	Erased   int     `json:"erased"`    // 降級点 erased by a winning record
	Points   int     `json:"points"`    // 降級点 held after this term
}

// Table is a class's standings.
type Table struct {
	Class Class `json:"class"`
	Rows  []Row `json:"rows"`
	// Final is true once every scheduled game has a decided result; until
	// then the outcomes are provisional.
	Final bool `json:"final"`
	// Playoff lists, in 順位 order, the players tied for the challenger
	// place; Stepladder gives their games.
	Playoff []string `json:"playoff,omitempty"`
}

// Standings counts wins, losses, rests and unplayed games, orders the
// class (record, then 順位) and applies the class rules.
func Standings(t Term) (Table, error) {
	junni := make(map[string]int, len(t.Players))
	for i, id := range t.Players {
		if _, dup := junni[id]; dup {
			return Table{}, fmt.Errorf("%w: players: %q listed twice", ErrInvalid, id)
		}
		junni[id] = i
	}
	rows := make([]Row, len(t.Players))
	for i, id := range t.Players {
		rows[i] = Row{ID: id, Junni: i + 1, Outcome: OutcomeStays, Points: t.Points[id]}
	}
	// Scheduled pairings: round and pair → still undecided.
	type game struct {
		round int
		pair  Pair
	}
	open := map[game]bool{}
	for r, rd := range t.Schedule.Rounds {
		for _, g := range rd.Games {
			for _, id := range []string{g.Sente, g.Gote} {
				if _, ok := junni[id]; !ok {
					return Table{}, fmt.Errorf("%w: schedule round %d: %q is not in players", ErrInvalid, r+1, id)
				}
			}
			open[game{r + 1, normPair(g.Sente, g.Gote)}] = true
		}
		for _, id := range rd.Rests {
			i, ok := junni[id]
			if !ok {
				return Table{}, fmt.Errorf("%w: schedule round %d: resting %q is not in players", ErrInvalid, r+1, id)
			}
			rows[i].Rests++
		}
	}
	decided := map[game]bool{}
	for k, res := range t.Results {
		g := game{res.Round, normPair(res.Sente, res.Gote)}
		if _, ok := open[g]; !ok {
			return Table{}, fmt.Errorf("%w: results[%d]: %s–%s is not scheduled in round %d", ErrInvalid, k, res.Sente, res.Gote, res.Round)
		}
		if res.BothLose {
			if res.Winner != "" {
				return Table{}, fmt.Errorf("%w: results[%d]: both_lose with winner %q", ErrInvalid, k, res.Winner)
			}
			if decided[g] {
				return Table{}, fmt.Errorf("%w: results[%d]: %s–%s round %d already has a decided game", ErrInvalid, k, res.Sente, res.Gote, res.Round)
			}
			decided[g] = true
			rows[junni[res.Sente]].Losses++
			rows[junni[res.Gote]].Losses++
			continue
		}
		if res.Winner == "" {
			continue // 千日手 / 持将棋: the redo decides
		}
		if res.Winner != res.Sente && res.Winner != res.Gote {
			return Table{}, fmt.Errorf("%w: results[%d].winner %q played neither side", ErrInvalid, k, res.Winner)
		}
		if decided[g] {
			return Table{}, fmt.Errorf("%w: results[%d]: %s–%s round %d already has a decided game", ErrInvalid, k, res.Sente, res.Gote, res.Round)
		}
		decided[g] = true
		loser := res.Sente
		if loser == res.Winner {
			loser = res.Gote
		}
		rows[junni[res.Winner]].Wins++
		rows[junni[loser]].Losses++
	}
	for g := range open {
		if !decided[g] {
			rows[junni[g.pair[0]]].Unplayed++
			rows[junni[g.pair[1]]].Unplayed++
		}
	}
	slices.SortStableFunc(rows, func(a, b Row) int {
		if a.Wins != b.Wins {
			return b.Wins - a.Wins
		}
		if a.Losses != b.Losses {
			return a.Losses - b.Losses
		}
		return a.Junni - b.Junni
	})
	for i := range rows {
		rows[i].Place = i + 1
	}
	tab := Table{Class: t.Class, Rows: rows, Final: len(decided) == len(open)}
	if err := t.Rules.apply(&tab); err != nil {
		return Table{}, err
	}
	return tab, nil
}

func (cr ClassRules) apply(tab *Table) error {
	rows := tab.Rows
	n := len(rows)
	if cr.Challengers < 0 || cr.Promote < 0 || cr.Demote < 0 || cr.Challengers+cr.Promote+cr.Demote > n {
		return fmt.Errorf("%w: class rules: %d challengers, %d up and %d down do not fit %d players", ErrInvalid, cr.Challengers, cr.Promote, cr.Demote, n)
	}
	if cr.PointsNum < 0 || (cr.PointsNum > 0 && cr.PointsDen <= 0) {
		return fmt.Errorf("%w: class rules: 降級点 ratio %d/%d", ErrInvalid, cr.PointsNum, cr.PointsDen)
	}
	same := func(a, b Row) bool { return a.Wins == b.Wins && a.Losses == b.Losses }
	top := 0
	if cr.Challengers > 0 {
		if cr.Playoff && n > 1 && same(rows[0], rows[1]) {
			for top < n && same(rows[top], rows[0]) {
				rows[top].Outcome = OutcomePlayoff
				tab.Playoff = append(tab.Playoff, rows[top].ID)
				top++
			}
			// Rows with one record are already in 順位 order, the order
			// the stepladder runs in.
		} else {
			for ; top < cr.Challengers; top++ {
				rows[top].Outcome = OutcomeChallenger
			}
		}
	}
	for k := 0; k < cr.Promote && top < n; k, top = k+1, top+1 {
		rows[top].Outcome = OutcomePromoted
	}
	if cr.AllWinsPromote {
		for i := range rows {
			if rows[i].Losses == 0 && rows[i].Unplayed == 0 && rows[i].Wins > 0 {
				rows[i].Outcome = OutcomePromoted
			}
		}
	}
	for i := n - 1; i >= n-cr.Demote; i-- {
		rows[i].Outcome = OutcomeDemoted
	}
	for i := range rows {
		if rows[i].Wins > rows[i].Losses && rows[i].Points > 0 && cr.ErasedByWinningRecord > 0 {
			rows[i].Erased = min(rows[i].Points, cr.ErasedByWinningRecord)
			rows[i].Points -= rows[i].Erased
		}
	}
	if cr.PointsNum > 0 {
		k := n * cr.PointsNum / cr.PointsDen
		for i := n - 1; i >= 0 && k > 0; i-- {
			if rows[i].Outcome != OutcomeStays {
				continue
			}
			rows[i].NewPoint = true
			rows[i].Points++
			k--
			if cr.PointsToDemote > 0 && rows[i].Points >= cr.PointsToDemote {
				rows[i].Outcome = OutcomeDemoted
			}
		}
	}
	for i := range rows {
		if rows[i].Outcome == OutcomePromoted || rows[i].Outcome == OutcomeDemoted {
			// A player who changes class starts the new one without 降級点.
			rows[i].Points = 0
		}
	}
	return nil
}
