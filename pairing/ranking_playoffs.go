package pairing

import (
	"fmt"
	"math/bits"
)

// Feed says where a side of a 決定戦 game comes from: the winner or the
// loser of an earlier game (a main game "R2-G3", or a 決定戦 game).
type Feed struct {
	Game  string `json:"game"`
	Loser bool   `json:"loser"`
}

// LinkedGame is a game of a losers' bracket with where its sides come from.
type LinkedGame struct {
	Game
	From [2]Feed
}

// GroupProgress is one group's games with results applied.
type GroupProgress struct {
	Group int
	// Main is the ランキング戦 by round (game IDs "R1-G1" …).
	Main [][]Game
	// Playoff is the 昇級者決定戦 by round ("P-R1-G1" …), PlayoffThird its
	// third-place game ("P-3P"); Survival the 残留決定戦 ("S-R1-G1" …).
	Playoff      [][]LinkedGame
	PlayoffThird *LinkedGame
	Survival     [][]LinkedGame
	// Next are the games ready to play: main, then 決定戦, then 残留決定戦.
	Next    []Game
	Outcome GroupOutcome
}

// RankingGroup is one group's drawn bracket and its results (main, 決定戦
// and 残留決定戦 games together, by game ID).
type RankingGroup struct {
	Rule    GroupRule
	Slots   []string
	Results []Result
	// Withdrawn players (棄権) lose every game they have not played, by
	// walkover: the opponent goes on, and the withdrawn player goes where a
	// loser of that game goes (into the 決定戦 or the 残留決定戦, and so, in
	// a 残留決定戦, towards relegation). D-G4.
	Withdrawn []string
}

// shape is the structure of a losers' bracket: its games by round and the
// feeds that come out of it.
type shape struct {
	rounds [][]LinkedGame
	out    []Feed // the players left at the end (決定戦 winners / relegated)
	third  *LinkedGame
}

// mainLosers are the feeds of the losers of main round r of a bracket of
// size lines.
func mainLosers(size, r int) []Feed {
	n := size >> r
	out := make([]Feed, n)
	for i := range out {
		out[i] = Feed{Game: fmt.Sprintf("R%d-G%d", r, i+1), Loser: true}
	}
	return out
}

// playRound pairs the feeds (a[i] against b[i]) as round k of a losers'
// bracket with prefix ("P-", "S-"); it returns the games and the feeds of
// the side that goes on (winners, or losers for the 残留決定戦).
func playRound(prefix string, k int, a, b []Feed, on bool) ([]LinkedGame, []Feed) {
	games := make([]LinkedGame, len(a))
	next := make([]Feed, len(a))
	for i := range a {
		id := fmt.Sprintf("%sR%d-G%d", prefix, k, i+1)
		games[i] = LinkedGame{Game: Game{ID: id, Round: k, Index: i + 1}, From: [2]Feed{a[i], b[i]}}
		next[i] = Feed{Game: id, Loser: on}
	}
	return games, next
}

// halves splits feeds into the first and second of each adjacent pair.
func halves(f []Feed) ([]Feed, []Feed) {
	a, b := make([]Feed, len(f)/2), make([]Feed, len(f)/2)
	for i := range a {
		a[i], b[i] = f[2*i], f[2*i+1]
	}
	return a, b
}

// playoffShape builds the 決定戦 for a bracket of size lines (the rule is
// valid). The losers of FromRound are its first round; before the losers of
// each later round enter, the survivors play once among themselves, so the
// survivors and the entrants are equally many; entrant i meets survivor
// n-1-i. Then the survivors play on until Winners are left.
func playoffShape(size int, p PlayoffRule) shape {
	var sh shape
	surv := mainLosers(size, p.FromRound)
	reduce := func() {
		a, b := halves(surv)
		var games []LinkedGame
		games, surv = playRound("P-", len(sh.rounds)+1, a, b, false)
		sh.rounds = append(sh.rounds, games)
	}
	for r := p.FromRound + 1; r <= p.ToRound; r++ {
		ent := mainLosers(size, r)
		for len(surv) > len(ent) {
			reduce()
		}
		rev := make([]Feed, len(ent))
		for i := range ent {
			rev[i] = ent[len(ent)-1-i]
		}
		var games []LinkedGame
		games, surv = playRound("P-", len(sh.rounds)+1, surv, rev, false)
		sh.rounds = append(sh.rounds, games)
	}
	for len(surv) > p.Winners {
		reduce()
	}
	sh.out = surv
	if p.ThirdPlace && len(sh.rounds) >= 2 {
		semi := sh.rounds[len(sh.rounds)-2]
		if len(semi) == 2 {
			sh.third = &LinkedGame{Game: Game{ID: "P-3P", Round: len(sh.rounds), Index: 2},
				From: [2]Feed{{Game: semi[0].ID, Loser: true}, {Game: semi[1].ID, Loser: true}}}
		}
	}
	return sh
}

// survivalShape builds the 残留決定戦 (D-G3): the losers of main round Round pair
// off in bracket order, and the losers go on until Relegated are left.
func survivalShape(size int, s SurvivalRule) shape {
	var sh shape
	left := mainLosers(size, s.Round)
	for len(left) > s.Relegated {
		a, b := halves(left)
		var games []LinkedGame
		games, left = playRound("S-", len(sh.rounds)+1, a, b, true)
		sh.rounds = append(sh.rounds, games)
	}
	sh.out = left
	return sh
}

// RankingPlayoffFeeds is the 決定戦 of a group's rule for a bracket of size
// lines, before any result: its games by round with where each side comes
// from (the CLI and the docs show it).
func RankingPlayoffFeeds(rule GroupRule, size int) ([][]LinkedGame, error) {
	if err := validateGroupRule(rule, size, "group"); err != nil {
		return nil, err
	}
	if rule.Playoff == nil {
		return nil, nil
	}
	return playoffShape(size, *rule.Playoff).rounds, nil
}

// pair is a game's winner and loser as sides.
type pair struct{ win, lose side }

// AdvanceRankingGroup applies the results to one group: the main bracket,
// the 決定戦 and the 残留決定戦 (their players known as the main results
// come in), and the group's outcome (D-G4).
func AdvanceRankingGroup(g RankingGroup) (GroupProgress, error) {
	r := g.Rule
	size := len(g.Slots)
	if err := validateGroupRule(r, size, "group"); err != nil {
		return GroupProgress{}, err
	}
	a := advancer{results: map[string]Result{}, at: map[string]int{}, used: map[string]bool{}, withdrawn: map[string]bool{}}
	for _, id := range g.Withdrawn {
		a.withdrawn[id] = true
	}
	// game is a.game with the loser of a walkover a withdrawal gave: the
	// withdrawn player (the first, if both withdrew).
	game := func(id string, round, index int, x, y side) (Game, pair, error) {
		gm, w, err := a.game(id, round, index, x, y)
		if err != nil {
			return gm, pair{}, err
		}
		l := loserOf(gm, x, y)
		if gm.Status == StatusWalkover || gm.Status == StatusEmpty {
			switch {
			case x.id != "" && a.withdrawn[x.id]:
				l = x
			case y.id != "" && a.withdrawn[y.id]:
				l = y
			}
		}
		return gm, pair{w, l}, nil
	}
	members := map[string]bool{}
	var order []string
	for i, id := range g.Slots {
		if id == "" {
			continue
		}
		if members[id] {
			return GroupProgress{}, codedErr(FieldRankingMember, map[string]any{"Player": id},
				fmt.Sprintf("slots[%d]", i), "%q is on two lines of the bracket", id)
		}
		members[id] = true
		order = append(order, id)
	}
	if len(order) == 0 {
		return GroupProgress{}, codedErr(FieldRankingNoEntrant, map[string]any{"Group": r.Group},
			"slots", "group %d has nobody in its bracket", r.Group)
	}
	for i, res := range g.Results {
		if _, dup := a.results[res.Game]; dup {
			return GroupProgress{}, fieldErr(fmt.Sprintf("results[%d].game", i), "second result for %s", res.Game)
		}
		if res.Kind != "" && res.Kind != Played && res.Kind != Forfeit {
			return GroupProgress{}, fieldErr(fmt.Sprintf("results[%d].kind", i), "unknown kind %q (want played or forfeit)", res.Kind)
		}
		a.results[res.Game] = res
		a.at[res.Game] = i
	}
	gp := GroupProgress{Group: r.Group}
	fed := map[string]pair{}
	sides := make([]side, size)
	for i, id := range g.Slots {
		sides[i] = side{id: id}
	}
	rounds := bits.TrailingZeros(uint(size))
	for k := 1; k <= rounds; k++ {
		games := make([]Game, len(sides)/2)
		next := make([]side, len(games))
		for i := range games {
			gm, wl, err := game(fmt.Sprintf("R%d-G%d", k, i+1), k, i+1, sides[2*i], sides[2*i+1])
			if err != nil {
				return GroupProgress{}, err
			}
			games[i], next[i] = gm, wl.win
			fed[gm.ID] = wl
		}
		gp.Main = append(gp.Main, games)
		sides = next
	}
	final := gp.Main[rounds-1][0].ID
	finishes := map[Finish]side{
		{Source: FinishWinner}:   fed[final].win,
		{Source: FinishRunnerUp}: fed[final].lose,
	}
	play := func(games []LinkedGame) error {
		for i := range games {
			lg := &games[i]
			var s [2]side
			for j, f := range lg.From {
				p := fed[f.Game]
				s[j] = p.win
				if f.Loser {
					s[j] = p.lose
				}
			}
			gm, wl, err := game(lg.ID, lg.Round, lg.Index, s[0], s[1])
			if err != nil {
				return err
			}
			lg.Game = gm
			fed[gm.ID] = wl
		}
		return nil
	}
	if r.Playoff != nil {
		sh := playoffShape(size, *r.Playoff)
		for _, games := range sh.rounds {
			if err := play(games); err != nil {
				return GroupProgress{}, err
			}
		}
		if sh.third != nil {
			t := []LinkedGame{*sh.third}
			if err := play(t); err != nil {
				return GroupProgress{}, err
			}
			gp.PlayoffThird = &t[0]
			finishes[Finish{Source: FinishPlayoffThird}] = fed["P-3P"].win
		}
		gp.Playoff = sh.rounds
		for i, f := range sh.out {
			finishes[Finish{Source: FinishPlayoffWinner, Index: i + 1}] = fed[f.Game].win
		}
		if len(sh.out) == 1 {
			finishes[Finish{Source: FinishPlayoffRunnerUp}] = fed[sh.out[0].Game].lose
		}
	}
	var relegated []side
	if r.Survival != nil {
		sh := survivalShape(size, *r.Survival)
		for _, games := range sh.rounds {
			if err := play(games); err != nil {
				return GroupProgress{}, err
			}
		}
		gp.Survival = sh.rounds
		for _, f := range sh.out {
			relegated = append(relegated, fed[f.Game].lose)
		}
	}
	for i, res := range g.Results {
		if !a.used[res.Game] {
			return GroupProgress{}, fieldErr(fmt.Sprintf("results[%d].game", i), "%q is not a game awaiting a result in this group", res.Game)
		}
	}
	finished := true
	ready := func(g Game) {
		switch g.Status {
		case StatusReady:
			gp.Next = append(gp.Next, g)
			finished = false
		case StatusPending:
			finished = false
		}
	}
	for _, round := range gp.Main {
		for _, g := range round {
			ready(g)
		}
	}
	for _, round := range gp.Playoff {
		for _, g := range round {
			ready(g.Game)
		}
	}
	if gp.PlayoffThird != nil {
		ready(gp.PlayoffThird.Game)
	}
	for _, round := range gp.Survival {
		for _, g := range round {
			ready(g.Game)
		}
	}
	out := GroupOutcome{Group: r.Group, Finished: finished, Places: []PlaceResult{},
		Promoted: []string{}, Relegated: []string{}, Stays: []string{}, Undecided: []string{}}
	for _, p := range r.Places {
		out.Places = append(out.Places, PlaceResult{Slot: p.Slot, Player: finishes[p.Finish].id})
	}
	fate := map[string]bool{}
	for _, f := range r.Promoted {
		if id := finishes[f].id; id != "" {
			out.Promoted = append(out.Promoted, id)
			fate[id] = true
		}
	}
	for _, s := range relegated {
		if s.id != "" {
			out.Relegated = append(out.Relegated, s.id)
			fate[s.id] = true
		}
	}
	for _, id := range order {
		switch {
		case fate[id]:
		case finished:
			out.Stays = append(out.Stays, id)
		default:
			out.Undecided = append(out.Undecided, id)
		}
	}
	gp.Outcome = out
	return gp, nil
}
