package office

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"kisen/pairing"
	"kisen/store"
)

// A ranking group (竜王戦-style, issue 24 item 8, docs/ranking-groups.md)
// is a knockout stage carrying its line of the organiser's table
// (store.KnockoutStage.RankingRule, D-G1). Its main bracket is the stage's
// ordinary bracket (R… games); its 昇級者決定戦 (P-…) and 残留決定戦 (S-…)
// games are computed by pairing.AdvanceRankingGroup and created like any
// bracket game as their players become known (D-G2, D-G3).

// parseRankingRule reads a table line strictly: unknown fields are refused.
func parseRankingRule(s string) (pairing.GroupRule, error) {
	var r pairing.GroupRule
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return r, err
	}
	if dec.More() {
		return r, fmt.Errorf("trailing data after the table line")
	}
	return r, nil
}

// stageRankingRule is st's table line; ok false for an ordinary stage.
func stageRankingRule(st store.KnockoutStage) (pairing.GroupRule, bool, error) {
	s := strings.TrimSpace(st.RankingRule)
	if s == "" {
		return pairing.GroupRule{}, false, nil
	}
	r, err := parseRankingRule(s)
	if err != nil {
		return r, false, fmt.Errorf("ranking rule: %w", err)
	}
	return r, true, nil
}

// checkRankingRule refuses, in words, a table line that is no JSON of a
// group's line, or one on a stage that cannot be a ranking group (a 番勝負,
// a stage sending qualifiers on or with a third-place game: a group plays
// its own bracket to the end, D-G1).
func checkRankingRule(v *ValidationError, in *StageInput) {
	in.RankingRule = strings.TrimSpace(in.RankingRule)
	if in.RankingRule == "" {
		return
	}
	r, err := parseRankingRule(in.RankingRule)
	switch {
	case err != nil || r.Group < 1:
		v.Add(0, "ranking_rule", "knockout.err.ranking_rule", nil)
	case in.Kind == StageSeries || in.Qualifiers != 0 || in.ThirdPlace:
		v.Add(0, "ranking_rule", "knockout.err.ranking_rule_stage", nil)
	}
}

// RankingView is a ranking group's losers' brackets and outcome.
type RankingView struct {
	Rule pairing.GroupRule
	// Playoff is the 昇級者決定戦 (出場者決定戦 in the top group) by round,
	// PlayoffThird its third-place game; Survival the 残留決定戦 (D-G2, D-G3).
	Playoff      [][]BracketGame
	PlayoffThird *BracketGame
	Survival     [][]BracketGame
	// Outcome is where the group's players end (entrant ids, D-G4).
	Outcome pairing.GroupOutcome
}

// isGroupGame: a ranking group's 決定戦 (P-…) or 残留決定戦 (S-…) game,
// which the main bracket does not know.
func isGroupGame(id string) bool {
	return strings.HasPrefix(id, "P-") || strings.HasPrefix(id, "S-")
}

// rankingOf fills sb.Ranking for a stage with a table line: the group's
// losers' brackets and outcome from the main bracket's slots (placeholders
// filled) and every result of the stage.
func rankingOf(sb *StageBracket, results []pairing.Result, chains map[string]chainResult, names bool) error {
	rule, ok, err := stageRankingRule(sb.Stage)
	if err != nil || !ok {
		return err
	}
	gp, err := pairing.AdvanceRankingGroup(pairing.RankingGroup{Rule: rule, Slots: sb.Slots, Results: results, Withdrawn: sb.Withdrawn})
	if err != nil {
		return fmt.Errorf("stage %d ranking group: %w", sb.Stage.ID, err)
	}
	rv := &RankingView{Rule: rule, Outcome: gp.Outcome}
	linked := func(rounds [][]pairing.LinkedGame) [][]BracketGame {
		out := make([][]BracketGame, len(rounds))
		for i, round := range rounds {
			for _, g := range round {
				out[i] = append(out[i], bracketGame(g.Game, chains, nil, names))
			}
		}
		return out
	}
	rv.Playoff, rv.Survival = linked(gp.Playoff), linked(gp.Survival)
	if tp := gp.PlayoffThird; tp != nil {
		g := bracketGame(tp.Game, chains, nil, names)
		rv.PlayoffThird = &g
	}
	sb.Ranking = rv
	// The group is over when its outcome is: the losers' brackets end
	// after the main final can (D-G4).
	sb.Finished = sb.Finished && gp.Outcome.Finished
	return nil
}

// ready are the group's 決定戦 and 残留決定戦 games whose two players are
// known and that have no game yet.
func (rv *RankingView) ready() []BracketGame {
	var out []BracketGame
	add := func(g BracketGame) {
		if g.Status == pairing.StatusReady && g.GameID == 0 {
			out = append(out, g)
		}
	}
	for _, round := range rv.Playoff {
		for _, g := range round {
			add(g)
		}
	}
	if rv.PlayoffThird != nil {
		add(*rv.PlayoffThird)
	}
	for _, round := range rv.Survival {
		for _, g := range round {
			add(g)
		}
	}
	return out
}

// groupAffected lists a ranking group's existing 決定戦 and 残留決定戦 games
// whose players no longer match (knockoutAffected's walk, continued): round
// r of both losers' brackets is computed from the main results that count
// and the group games of earlier rounds that still match. Every group game
// the shapes hold is entered in ss.rounds after the main bracket's last
// round (offset), so only one the group no longer has is "gone".
func groupAffected(ctx context.Context, s *store.Store, ss *stageState, main []pairing.Result, withdrawn, slots []string, offset int) ([]AffectedGame, error) {
	rule, _, err := stageRankingRule(ss.st)
	if err != nil {
		return nil, err
	}
	valid := map[string]bool{}
	round := map[string]int{}
	var out []AffectedGame
	for r := 1; ; r++ {
		results := append([]pairing.Result(nil), main...)
		gone := append([]string(nil), withdrawn...)
		for _, kg := range ss.kgs {
			c := ss.chains[kg.BracketGame]
			if !isGroupGame(kg.BracketGame) || !valid[kg.BracketGame] || round[kg.BracketGame] >= r || !c.decided {
				continue
			}
			if res, won, out := c.outcome(kg.BracketGame); won {
				results = append(results, res)
			} else {
				gone = append(gone, out...)
			}
		}
		gp, err := pairing.AdvanceRankingGroup(pairing.RankingGroup{Rule: rule, Slots: slots, Results: results, Withdrawn: gone})
		if err != nil {
			return nil, fmt.Errorf("stage %d ranking group: %w", ss.st.ID, err)
		}
		if r > len(gp.Playoff) && r > len(gp.Survival) {
			return out, nil
		}
		var games []pairing.Game
		for _, rounds := range [][][]pairing.LinkedGame{gp.Playoff, gp.Survival} {
			if r <= len(rounds) {
				for _, g := range rounds[r-1] {
					games = append(games, g.Game)
				}
			}
		}
		if gp.PlayoffThird != nil && r == len(gp.Playoff) {
			games = append(games, gp.PlayoffThird.Game)
		}
		for _, g := range games {
			round[g.ID] = r
			ss.rounds[g.ID] = offset + r
			c, ok := ss.chains[g.ID]
			if !ok {
				continue
			}
			if slotMatches(g, c) {
				valid[g.ID] = true
				continue
			}
			a, err := affectedGame(ctx, s, ss.st, c, 0)
			if err != nil {
				return nil, err
			}
			a.AfterStatus = string(g.Status)
			for i, id := range g.Players {
				if g.Status != pairing.StatusPending || id != "" {
					a.After[i], _ = playerOfEntrant(id)
				}
			}
			out = append(out, a)
		}
	}
}

// SeatMainEvent enters the groups' 本戦 places into the 本戦 stage stageID
// (D-G4, pairing.MainEventEntrants): seats is the organiser's 本戦 table as
// JSON, for each slot the groups fill the seed and entry round it takes in
// the 本戦's draw. Every group stage of the event must have finished, every
// place have a seat and every seat a place; the entrants are added before
// the 本戦's draw (directors), all or none. Refusals are said in words.
func (o *Office) SeatMainEvent(ctx context.Context, actor Actor, stageID int64, seats string) error {
	return o.stageTx(ctx, actor, stageID, func(tx *store.Store, st store.KnockoutStage) error {
		if st.Status != StageSetup {
			return fmt.Errorf("stage %d is %s; entrants change before the draw: %w", st.ID, st.Status, ErrConflict)
		}
		v := &ValidationError{}
		var table []pairing.MainSeat
		dec := json.NewDecoder(strings.NewReader(seats))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&table); err != nil || dec.More() || len(table) == 0 {
			v.Add(0, "main_seats", "knockout.err.main_seats", nil)
			return v
		}
		if st.RankingRule != "" || st.Kind == StageSeries {
			v.Add(0, "main_seats", "knockout.err.main_seats_stage", nil)
			return v
		}
		for _, s := range table {
			// the entrant form's own bounds (EntrantInput): a seed enters
			// after round 1 only with a seed.
			if s.Seed < 0 || s.Seed > 4096 || s.EnterRound < 0 || s.EnterRound > 12 || s.EnterRound > 1 && s.Seed == 0 {
				v.Add(0, "main_seats", "knockout.err.main_seats", nil)
				return v
			}
		}
		e, err := tx.EventByID(ctx, st.EventID)
		if err != nil {
			return err
		}
		eb, ok, err := publishedBrackets(ctx, tx, e)
		if err != nil {
			return err
		}
		var outcomes []pairing.GroupOutcome
		if ok {
			for _, sb := range eb.Stages {
				if sb.Ranking != nil {
					outcomes = append(outcomes, sb.Ranking.Outcome)
				}
			}
		}
		if len(outcomes) == 0 {
			v.Add(0, "main_seats", "knockout.err.main_seats_no_groups", nil)
			return v
		}
		entrants, err := pairing.MainEventEntrants(outcomes, table)
		var fe *pairing.FieldError
		if errors.As(err, &fe) {
			code, args := RankingInputWords(fe, nil)
			v.Add(0, "main_seats", code, args)
			return v
		} else if err != nil {
			return err
		}
		now := o.now()
		for _, en := range entrants {
			id, ok := playerOfEntrant(en.ID)
			if !ok {
				continue // a place only byes could reach: nobody to seat
			}
			err := tx.AddEntrant(ctx, &store.KnockoutEntrant{StageID: st.ID, PlayerID: id, Seed: en.Seed, EnterRound: max(en.EnterRound, 1), CreatedAt: now})
			if errors.Is(err, store.ErrConflict) {
				v.Add(0, "main_seats", "knockout.err.already_entered", nil)
				return v
			} else if err != nil {
				return err
			}
		}
		return nil
	}, RoleDirector)
}
