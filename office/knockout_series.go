package office

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strconv"

	"kisen/adjudication"
	"kisen/pairing"
	"kisen/store"
)

// SeriesGameView is one attempt of a 番勝負 (redo games included).
type SeriesGameView struct {
	Number      int // game number; a redo keeps the number it replays
	BracketGame string
	GameID      int64
	SenteID     int64
	GoteID      int64
	Result      string // effective result, "" while unplayed
	Reason      string
	Redo        bool // this attempt replays an earlier one (D-R1)
	// Counted: a 持将棋 the title's rules count as a game with no winner
	// (000 第9条第9項, 001 第6条4): it is not replayed; the next game has
	// the next number.
	Counted     bool
	SenteBy     string
	Furigoma    *pairing.Furigoma
	Observed    *pairing.Furigoma // a physical 振り駒 entered as observed
	ScheduledOn string
	Version     int // newest result version of this attempt (0: none), for the quick result form
}

// SeriesView is a title match's series so far and what comes next.
type SeriesView struct {
	Players [2]string
	Games   []SeriesGameView
	State   pairing.SeriesState
	Waiting bool // an attempt is still being played (or its redo game not created yet)
	// CountJishogi is the event's setting (RedoCountsAsGame, D-R3) the
	// tally follows; Chains the series games created so far (S1…Sn), each
	// with its redo games.
	CountJishogi bool
	Chains       int
	// AwaitsChallenger: the series follows a 本戦 whose final is not
	// decided yet; Players holds the 本戦's qualifier placeholder (issue 24
	// item 2) and no game exists.
	AwaitsChallenger bool
}

// jishogiReason: a redo result's reason that is a 持将棋 (by agreement,
// at move 500, or a declaration in the 24–30 range), not a 千日手.
func jishogiReason(reason string) bool {
	switch adjudication.Reason(reason) {
	case adjudication.ReasonJishogiRedo, adjudication.ReasonDeclarationRedo, adjudication.ReasonMaxMoves:
		return true
	}
	return false
}

// seriesView reads every attempt of every series game through its redo
// chain and asks pairing.Next what comes next (D-F: game 1 and the
// deciding game by 振り駒, alternating colours in between, D-R1 redos swap).
//
// countJishogi is the event's RedoCountsAsGame (D-R3): a 持将棋 then counts
// as a game with no winner (000 第9条第9項, 001 第6条4), its chain ends
// there and the next numbered game follows; a 千日手 is replayed and never
// counted (000 第8条第7項).
//
// slots are the stage's two slots with known qualifiers filled in: a series
// after a 本戦 still waiting for its final names the challenger by its
// placeholder (AwaitsChallenger), and no game is made until it is known.
func seriesView(gs store.GameSet, st store.KnockoutStage, slots []string, kgs []store.KnockoutGame, chains map[string]chainResult, countJishogi bool) (SeriesView, error) {
	sv := SeriesView{CountJishogi: countJishogi, Chains: len(kgs)}
	if len(slots) != 2 {
		return sv, nil // not drawn yet
	}
	sv.Players = [2]string{slots[0], slots[1]}
	for _, id := range slots {
		if _, ok := playerOfEntrant(id); !ok {
			sv.AwaitsChallenger = true
		}
	}
	var played []pairing.SeriesGame
	for n, kg := range kgs {
		number := n + 1 // a counted 持将棋 ends its chain, so chain k is game k
		c := chains[kg.BracketGame]
		id := kg.GameID
		for attempt := 0; attempt < 1000 && id != 0; attempt++ {
			g, ok := gs.Games[id]
			if !ok {
				return sv, fmt.Errorf("series game %d: %w", id, store.ErrNotFound)
			}
			gv := SeriesGameView{Number: number, BracketGame: kg.BracketGame, GameID: g.ID, Redo: g.RedoNumber > 0}
			if attempt == 0 {
				gv.SenteBy, gv.Furigoma, gv.Observed = kg.SenteBy, c.furigoma(), c.observed()
			}
			if g.SentePlayerID != nil {
				gv.SenteID = *g.SentePlayerID
			}
			if g.GotePlayerID != nil {
				gv.GoteID = *g.GotePlayerID
			}
			if g.ScheduledOn != nil {
				gv.ScheduledOn = *g.ScheduledOn
			}
			eff, ok := gs.Effective(g.ID)
			if lv, has := gs.Latest(g.ID); has {
				gv.Version = lv.Version
			}
			id = 0
			sg := pairing.SeriesGame{Sente: entrantID(gv.SenteID)}
			if ok {
				gv.Result, gv.Reason = eff.Result, eff.Reason
			}
			counted := ok && eff.Result == ResultRedo && countJishogi && jishogiReason(eff.Reason)
			gv.Counted = counted
			sv.Games = append(sv.Games, gv)
			switch {
			case !ok || eff.Result == ResultPending || eff.Result == ResultBothLose:
				sv.Waiting = true
			case counted:
				// 000 第9条第9項: one game of the series, no redo; a redo
				// game created for it is not a game of the series.
				sg.NoResult = pairing.Jishogi
				played = append(played, sg)
			case eff.Result == ResultRedo:
				sg.NoResult = pairing.Sennichite
				if jishogiReason(eff.Reason) {
					sg.NoResult = pairing.Jishogi
				}
				played = append(played, sg)
				redos := gs.Redos(g.ID)
				if len(redos) == 0 {
					sv.Waiting = true // the adjudication flow creates the redo game (D-R2 allowances)
				} else {
					id = redos[0].ID
				}
			default:
				sg.Winner = entrantID(gv.SenteID)
				if eff.Result == ResultGoteWin {
					sg.Winner = entrantID(gv.GoteID)
				}
				played = append(played, sg)
			}
		}
		if sv.Waiting {
			break
		}
	}
	state, err := pairing.Next(pairing.Series{BestOf: st.BestOf, Players: sv.Players, CountJishogi: countJishogi}, played)
	if err != nil {
		return sv, fmt.Errorf("stage %d series: %w", st.ID, err)
	}
	sv.State = state
	return sv, nil
}

// nextSeriesGame is the next game of a published series to create once
// the last one is decided, one game at a time until the title is decided
// (ok false: none yet).
func nextSeriesGame(sb StageBracket) (newBracketGame, bool) {
	sv := sb.Series
	if sv.AwaitsChallenger || sv.State.Over || sv.Waiting || sv.State.NextIsRedo || sv.State.NextGame == 0 {
		return newBracketGame{}, false
	}
	// S1…Sn name the chains in order; with counted 持将棋 a chain can hold
	// two game numbers, so the next chain is named by count, not number.
	id := "S" + strconv.Itoa(sv.Chains+1)
	dates := StageRoundDates(sb.Stage)
	date := ""
	if n := sv.State.NextGame; n <= len(dates) {
		date = dates[n-1]
	}
	sente := sv.State.NextSente // "" when 振り駒 decides (game 1 and the deciding game)
	return newBracketGame{Stage: sb.Stage, ID: id, Players: sv.Players, Date: date, FixedSente: sente}, true
}

// countedInSeries reports whether a game ending with this redo reason is a
// 持将棋 its 番勝負 counts as a game (the event's RedoCountsAsGame, D-R3,
// 000 第9条第9項): then it is not replayed, the series' next game follows.
// A 千日手 is always replayed (000 第8条第7項); games outside a 番勝負 keep
// their redo.
func countedInSeries(ctx context.Context, tx *store.Store, g store.Game, reason string) (bool, error) {
	if !jishogiReason(reason) {
		return false, nil
	}
	settings, err := eventSettings(ctx, tx, g.EventID)
	if err != nil || !settings.RedoCountsAsGame {
		return false, err
	}
	root := g
	for i := 0; i < 1000 && root.RedoOfID != nil; i++ {
		if root, err = tx.GameByID(ctx, *root.RedoOfID); err != nil {
			return false, err
		}
	}
	kg, err := tx.KnockoutGameByGameID(ctx, root.ID)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	st, err := tx.StageByID(ctx, kg.StageID)
	if err != nil {
		return false, err
	}
	return st.Kind == StageSeries, nil
}

// pendingSeries is a 番勝負 stage read after the stages before it.
type pendingSeries struct {
	at     int // index in EventBracket.Stages
	kgs    []store.KnockoutGame
	chains map[string]chainResult
}

// knownQualifiers maps each decided qualifier placeholder ("s12#1") to the
// player who fills it, by pairing.AdvanceEvent's rule: a stage with one
// qualifier sends its champion, a stage with more its qualifiers in
// bracket order.
func knownQualifiers(runs []pairing.StageRun, progress []pairing.StageProgress) map[string]string {
	known := map[string]string{}
	for i, run := range runs {
		if i >= len(progress) || run.Bracket.Qualifiers < 1 {
			continue
		}
		winners := progress[i].Progress.Qualifiers
		if run.Bracket.Qualifiers == 1 {
			winners = []string{progress[i].Progress.Champion}
		}
		for k, w := range winners {
			if w != "" {
				known[pairing.QualifierID(run.Name, k+1)] = w
			}
		}
	}
	return known
}

// fillQualifiers puts every known qualifier in its placeholder's slot.
func fillQualifiers(slots []string, known map[string]string) []string {
	out := make([]string, len(slots))
	for i, id := range slots {
		out[i] = cmp.Or(known[id], id)
	}
	return out
}
