package pairing

import (
	"fmt"
	"math/bits"
	"slices"
)

// Ranking groups (組, the 竜王戦 format; docs/ranking-groups.md).
//
// The seeds say nothing about this format: what is implemented is the
// publicly known shape, every count an organiser setting (GroupRule). Each
// group plays a knockout (ランキング戦) drawn like any other bracket. Around
// it the organiser may set
//
//   - a 昇級者決定戦 (in the top group called 出場者決定戦): a losers'
//     bracket in which the losers of main rounds FromRound…ToRound meet, the
//     losers of a later round entering deeper, so that every loser has met
//     the same number of games' worth of opposition (PlayoffRule);
//   - a 残留決定戦: the losers of one main round (usually the first) play
//     on among themselves, the loser going on each time, until as many
//     players as the organiser relegates are left (SurvivalRule);
//   - the places to the 本戦, each a finish (ランキング戦優勝, 準優勝, a
//     決定戦 winner …) and the 本戦 slot it fills (e.g. 「1組1位」);
//   - the finishes that are promoted (昇級) to the group above.
//
// Everything else stays (残留). NextTerm carries the promotions and
// relegations to the next term's groups.
//
// The rule ids (written down in docs/ranking-groups.md in DOMAIN's manner,
// beyond the seeds): D-G1 the organiser's table, D-G2 the 決定戦, D-G3 the
// 残留決定戦, D-G4 the outcome and the 本戦 slots, D-G5 the next term.

// FinishSource names where a place or a promotion comes from.
type FinishSource string

const (
	FinishWinner          FinishSource = "winner"            // ランキング戦優勝
	FinishRunnerUp        FinishSource = "runner_up"         // ランキング戦準優勝 (the final's loser)
	FinishPlayoffWinner   FinishSource = "playoff_winner"    // a winner of the 決定戦 (Index 1…Winners, in bracket order)
	FinishPlayoffRunnerUp FinishSource = "playoff_runner_up" // the loser of the 決定戦's final (Winners 1)
	FinishPlayoffThird    FinishSource = "playoff_third"     // the winner of the 決定戦's third-place game
)

// Finish is one finish of a group: Index counts the 決定戦's winners from 1
// (only for FinishPlayoffWinner).
type Finish struct {
	Source FinishSource `json:"source"`
	Index  int          `json:"index,omitempty"`
}

// GroupPlace is a finish that goes to the 本戦, at the slot the
// organiser's table names (e.g. 「1組1位」).
type GroupPlace struct {
	Finish
	Slot string `json:"slot"`
}

// PlayoffRule is the 昇級者決定戦 / 出場者決定戦: the losers of main rounds
// FromRound…ToRound (ToRound before the final) enter; the losers of
// FromRound pair off in bracket order, and the losers of each later round
// meet the survivors after one more game among the survivors, in reverse
// bracket order (D-G2). So the 決定戦's first round and the first round
// the next losers enter never repeat a game of the ランキング戦; later
// rounds can, as in any fixed losers' bracket. The games go on until
// Winners players are left; with Winners 1 the losers of the
// last-but-one round may play for third.
type PlayoffRule struct {
	FromRound  int  `json:"from_round"`
	ToRound    int  `json:"to_round"`
	Winners    int  `json:"winners"`
	ThirdPlace bool `json:"third_place,omitempty"`
}

// SurvivalRule is the 残留決定戦: the losers of main round Round play in
// bracket order; a winner stays, a loser plays again, until Relegated
// players are left, who are relegated (降級).
type SurvivalRule struct {
	Round     int `json:"round"`
	Relegated int `json:"relegated"`
}

// GroupRule is the organiser's line of the table for group Group (1 is the
// top group).
type GroupRule struct {
	Group    int           `json:"group"`
	Places   []GroupPlace  `json:"places"`
	Promoted []Finish      `json:"promoted"`
	Playoff  *PlayoffRule  `json:"playoff,omitempty"`
	Survival *SurvivalRule `json:"survival,omitempty"`
}

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

// PlaceResult is a 本戦 slot and who fills it ("" while undecided, or
// when every player who could have reached it was a bye).
type PlaceResult struct {
	Slot   string `json:"slot"`
	Player string `json:"player"`
}

// GroupOutcome is where a group's players end. Every member of the group is
// in exactly one of Promoted, Relegated, Stays and Undecided; Undecided is
// empty once Finished, and Stays empty before.
type GroupOutcome struct {
	Group     int           `json:"group"`
	Places    []PlaceResult `json:"places"`
	Promoted  []string      `json:"promoted"`
	Relegated []string      `json:"relegated"`
	Stays     []string      `json:"stays"`
	Undecided []string      `json:"undecided"`
	Finished  bool          `json:"finished"`
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

// ValidateRankingTable checks the organiser's table (D-G1): groups 1…N, each
// rule fitting its bracket size (sizes[i] for rules[i]), the top group
// promoting nobody, the lowest relegating nobody, and every 本戦 slot named
// once.
func ValidateRankingTable(rules []GroupRule, sizes []int) error {
	if len(sizes) != len(rules) {
		return fieldErr("sizes", "%d sizes for %d groups", len(sizes), len(rules))
	}
	slots := map[string]int{}
	for i, r := range rules {
		if r.Group != i+1 {
			return codedErr(FieldRankingGroups, map[string]any{"Group": r.Group, "Want": i + 1},
				fmt.Sprintf("groups[%d].group", i), "group %d where group %d belongs; number the groups 1…N from the top", r.Group, i+1)
		}
		if err := validateGroupRule(r, sizes[i], fmt.Sprintf("groups[%d]", i)); err != nil {
			return err
		}
		if i == 0 && len(r.Promoted) > 0 {
			return codedErr(FieldRankingTopUp, map[string]any{"Group": r.Group},
				fmt.Sprintf("groups[%d].promoted", i), "group %d is the top group: nobody can be promoted from it", r.Group)
		}
		if i == len(rules)-1 && r.Survival != nil {
			return codedErr(FieldRankingBottom, map[string]any{"Group": r.Group},
				fmt.Sprintf("groups[%d].survival", i), "group %d is the lowest group: nobody can be relegated from it", r.Group)
		}
		for j, p := range r.Places {
			if prev, dup := slots[p.Slot]; dup {
				return codedErr(FieldRankingSlot, map[string]any{"Group": r.Group, "Slot": p.Slot},
					fmt.Sprintf("groups[%d].places[%d].slot", i, j), "本戦 slot %q is already filled from group %d", p.Slot, prev)
			}
			slots[p.Slot] = r.Group
		}
	}
	return nil
}

// validateGroupRule checks one rule against a bracket of size lines.
func validateGroupRule(r GroupRule, size int, at string) error {
	g := r.Group
	if size < 2 || size&(size-1) != 0 {
		return codedErr(FieldRankingSize, map[string]any{"Group": g, "Count": size},
			at+".slots", "%d lines is not a bracket of 2, 4, 8 … lines", size)
	}
	rounds := bits.TrailingZeros(uint(size))
	if p := r.Playoff; p != nil {
		if p.FromRound < 1 || p.ToRound < p.FromRound || p.ToRound >= rounds {
			return codedErr(FieldRankingPlayoff, map[string]any{"Group": g, "Rounds": rounds},
				at+".playoff", "rounds %d…%d: the losers who enter must come from rounds 1…%d, before the final", p.FromRound, p.ToRound, rounds-1)
		}
		left := size >> p.ToRound
		if p.Winners < 1 || p.Winners&(p.Winners-1) != 0 || p.Winners > left ||
			(p.FromRound == p.ToRound && p.Winners == left) {
			return codedErr(FieldRankingPlayoff, map[string]any{"Group": g, "Rounds": rounds},
				at+".playoff.winners", "%d winners: want 1, 2, 4 … below the %d players left after the last losers enter", p.Winners, left)
		}
		if p.ThirdPlace {
			sh := playoffShape(size, *p)
			if p.Winners != 1 || len(sh.rounds) < 2 || len(sh.rounds[len(sh.rounds)-2]) != 2 {
				return codedErr(FieldRankingPlayoff, map[string]any{"Group": g, "Rounds": rounds},
					at+".playoff.third_place", "a third-place game needs a 決定戦 that ends in one final after two semi-finals")
			}
		}
	}
	if s := r.Survival; s != nil {
		if s.Round < 1 || s.Round >= rounds {
			return codedErr(FieldRankingSurvival, map[string]any{"Group": g, "Rounds": rounds, "Entrants": 0},
				at+".survival.round", "round %d: the losers who play it must come from rounds 1…%d, before the final", s.Round, rounds-1)
		}
		n := size >> s.Round
		if s.Relegated < 1 || s.Relegated&(s.Relegated-1) != 0 || s.Relegated >= n {
			return codedErr(FieldRankingSurvival, map[string]any{"Group": g, "Rounds": rounds, "Entrants": n},
				at+".survival.relegated", "%d relegated: want 1, 2, 4 … below the %d losers of round %d", s.Relegated, n, s.Round)
		}
		if p := r.Playoff; p != nil && s.Round >= p.FromRound && s.Round <= p.ToRound {
			return codedErr(FieldRankingOverlap, map[string]any{"Group": g, "Round": s.Round},
				at+".survival.round", "the losers of round %d already enter the 決定戦", s.Round)
		}
	}
	has := func(f Finish) bool {
		switch f.Source {
		case FinishWinner, FinishRunnerUp:
			return f.Index == 0
		case FinishPlayoffWinner:
			return r.Playoff != nil && f.Index >= 1 && f.Index <= r.Playoff.Winners
		case FinishPlayoffRunnerUp:
			return r.Playoff != nil && r.Playoff.Winners == 1 && f.Index == 0
		case FinishPlayoffThird:
			return r.Playoff != nil && r.Playoff.ThirdPlace && f.Index == 0
		}
		return false
	}
	check := func(list []Finish, field string) error {
		seen := map[Finish]bool{}
		for j, f := range list {
			if !has(f) {
				return codedErr(FieldRankingFinish, map[string]any{"Group": g},
					fmt.Sprintf("%s.%s[%d]", at, field, j), "group %d has no finish %s %d", g, f.Source, f.Index)
			}
			if seen[f] {
				return codedErr(FieldRankingTwice, map[string]any{"Group": g},
					fmt.Sprintf("%s.%s[%d]", at, field, j), "finish %s %d listed twice", f.Source, f.Index)
			}
			seen[f] = true
		}
		return nil
	}
	places := make([]Finish, len(r.Places))
	for j, p := range r.Places {
		if p.Slot == "" {
			return codedErr(FieldRankingSlot, map[string]any{"Group": g, "Slot": ""},
				fmt.Sprintf("%s.places[%d].slot", at, j), "a place to the 本戦 needs the slot it fills")
		}
		places[j] = p.Finish
	}
	if err := check(places, "places"); err != nil {
		return err
	}
	return check(r.Promoted, "promoted")
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

// TermMove is one player's place in the next term: From 0 for a new
// entrant, else the group of this term.
type TermMove struct {
	Player string `json:"player"`
	From   int    `json:"from"`
	To     int    `json:"to"`
}

// NextTerm carries finished groups' outcomes to the next term (D-G5): a promoted
// player one group up, a relegated one one group down, the rest where they
// are, and the new entrants into the lowest group. Groups are listed from
// the top; the result holds each next-term group's members (relegated from
// above first, then those who stay, those promoted from below and the new
// entrants, each in the order given) and every player's move.
func NextTerm(outcomes []GroupOutcome, newEntrants []string) ([][]string, []TermMove, error) {
	n := len(outcomes)
	if n == 0 {
		return nil, nil, fieldErr("groups", "no groups")
	}
	seen := map[string]int{}
	for i, o := range outcomes {
		if o.Group != i+1 {
			return nil, nil, codedErr(FieldRankingGroups, map[string]any{"Group": o.Group, "Want": i + 1},
				fmt.Sprintf("groups[%d].group", i), "group %d where group %d belongs", o.Group, i+1)
		}
		if !o.Finished || len(o.Undecided) > 0 {
			return nil, nil, codedErr(FieldRankingUnfinish, map[string]any{"Group": o.Group},
				fmt.Sprintf("groups[%d]", i), "group %d has not finished", o.Group)
		}
		if i == 0 && len(o.Promoted) > 0 {
			return nil, nil, codedErr(FieldRankingTopUp, map[string]any{"Group": o.Group},
				fmt.Sprintf("groups[%d].promoted", i), "group %d is the top group: nobody can be promoted from it", o.Group)
		}
		if i == n-1 && len(o.Relegated) > 0 {
			return nil, nil, codedErr(FieldRankingBottom, map[string]any{"Group": o.Group},
				fmt.Sprintf("groups[%d].relegated", i), "group %d is the lowest group: nobody can be relegated from it", o.Group)
		}
		for _, list := range [][]string{o.Promoted, o.Relegated, o.Stays} {
			for _, id := range list {
				if _, dup := seen[id]; dup || id == "" {
					return nil, nil, codedErr(FieldRankingMember, map[string]any{"Player": id},
						fmt.Sprintf("groups[%d]", i), "%q is in two groups", id)
				}
				seen[id] = o.Group
			}
		}
	}
	for i, id := range newEntrants {
		if _, dup := seen[id]; dup || id == "" {
			return nil, nil, codedErr(FieldRankingMember, map[string]any{"Player": id},
				fmt.Sprintf("new_entrants[%d]", i), "%q is already in a group", id)
		}
		seen[id] = 0
	}
	groups := make([][]string, n)
	var moves []TermMove
	add := func(id string, from, to int) {
		groups[to-1] = append(groups[to-1], id)
		moves = append(moves, TermMove{Player: id, From: from, To: to})
	}
	for i := range outcomes {
		if i > 0 {
			for _, id := range outcomes[i-1].Relegated {
				add(id, i, i+1)
			}
		}
		for _, id := range outcomes[i].Stays {
			add(id, i+1, i+1)
		}
		if i+1 < n {
			for _, id := range outcomes[i+1].Promoted {
				add(id, i+2, i+1)
			}
		}
	}
	for _, id := range newEntrants {
		add(id, 0, n)
	}
	return groups, moves, nil
}

// MainSeat is the organiser's line for one 本戦 slot (D-G4): the seed it
// takes in the 本戦's draw and the round it enters there (0 or 1: round 1).
type MainSeat struct {
	Slot       string `json:"slot"`
	Seed       int    `json:"seed"`
	EnterRound int    `json:"enter_round,omitempty"`
}

// MainEventEntrants seeds the groups' places into the 本戦 (D-G4): every
// place of every group takes the seat its slot names, as an Entrant ready
// for Draw (whose own checks judge the seeds and entry rounds), in seed
// order. Every place must be decided and every seat filled.
func MainEventEntrants(outcomes []GroupOutcome, seats []MainSeat) ([]Entrant, error) {
	seat := map[string]MainSeat{}
	for i, s := range seats {
		if _, dup := seat[s.Slot]; dup || s.Slot == "" {
			return nil, codedErr(FieldRankingSeatTwice, map[string]any{"Slot": s.Slot},
				fmt.Sprintf("main_event[%d].slot", i), "本戦 slot %q is empty or named twice", s.Slot)
		}
		seat[s.Slot] = s
	}
	var out []Entrant
	filled := map[string]bool{}
	for i, o := range outcomes {
		for j, p := range o.Places {
			s, ok := seat[p.Slot]
			if !ok {
				return nil, codedErr(FieldRankingSeat, map[string]any{"Slot": p.Slot},
					fmt.Sprintf("groups[%d].places[%d]", i, j), "本戦 slot %q has no seat in the 本戦 table", p.Slot)
			}
			if p.Player == "" {
				return nil, codedErr(FieldRankingUnfinish, map[string]any{"Group": o.Group},
					fmt.Sprintf("groups[%d].places[%d]", i, j), "本戦 slot %q is not decided yet", p.Slot)
			}
			filled[p.Slot] = true
			out = append(out, Entrant{ID: p.Player, Seed: s.Seed, EnterRound: s.EnterRound})
		}
	}
	for i, s := range seats {
		if !filled[s.Slot] {
			return nil, codedErr(FieldRankingSeat, map[string]any{"Slot": s.Slot},
				fmt.Sprintf("main_event[%d].slot", i), "no group fills 本戦 slot %q", s.Slot)
		}
	}
	slices.SortStableFunc(out, func(a, b Entrant) int { return a.Seed - b.Seed })
	return out, nil
}
