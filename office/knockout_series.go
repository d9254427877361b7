package office

import (
	"context"
	"fmt"
	"strconv"
	"time"

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
}

// seriesView reads every attempt of every series game through its redo
// chain and asks pairing.Next what comes next (D-F: game 1 and the
// deciding game by 振り駒, alternating colours in between, D-R1 redos swap).
func seriesView(gs store.GameSet, st store.KnockoutStage, kgs []store.KnockoutGame, chains map[string]chainResult) (SeriesView, error) {
	var sv SeriesView
	slots, err := StageSlots(st)
	if err != nil {
		return sv, err
	}
	if len(slots) != 2 {
		return sv, nil // not drawn yet
	}
	sv.Players = [2]string{slots[0], slots[1]}
	var played []pairing.SeriesGame
	for n, kg := range kgs {
		c := chains[kg.BracketGame]
		id := kg.GameID
		for attempt := 0; attempt < 1000 && id != 0; attempt++ {
			g, ok := gs.Games[id]
			if !ok {
				return sv, fmt.Errorf("series game %d: %w", id, store.ErrNotFound)
			}
			gv := SeriesGameView{Number: n + 1, BracketGame: kg.BracketGame, GameID: g.ID, Redo: g.RedoNumber > 0}
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
			sv.Games = append(sv.Games, gv)
			switch {
			case !ok || eff.Result == ResultPending || eff.Result == ResultBothLose:
				sv.Waiting = true
			case eff.Result == ResultRedo:
				sg.NoResult = pairing.Sennichite
				if eff.Reason == "jishogi_redo" || eff.Reason == "declaration_redo" {
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
	state, err := pairing.Next(pairing.Series{BestOf: st.BestOf, Players: sv.Players}, played)
	if err != nil {
		return sv, fmt.Errorf("stage %d series: %w", st.ID, err)
	}
	sv.State = state
	return sv, nil
}

// syncSeries creates the next game of a published series once the last
// one is decided, one game at a time until the title is decided.
func syncSeries(ctx context.Context, s *store.Store, sb StageBracket, now time.Time) error {
	sv := sb.Series
	if sv.State.Over || sv.Waiting || sv.State.NextIsRedo || sv.State.NextGame == 0 {
		return nil
	}
	id := "S" + strconv.Itoa(sv.State.NextGame)
	dates := StageRoundDates(sb.Stage)
	date := ""
	if n := sv.State.NextGame; n <= len(dates) {
		date = dates[n-1]
	}
	sente := sv.State.NextSente // "" when 振り駒 decides (game 1 and the deciding game)
	return createBracketGame(ctx, s, now, sb.Stage, id, sv.Players, date, sente)
}
