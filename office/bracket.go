package office

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"maps"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"kisen/pairing"
	"kisen/store"
)

// BracketGame is one game of a bracket with what the database knows of it.
type BracketGame struct {
	pairing.Game
	GameID         int64 // first game of the redo chain; 0 when none was created (bye, walkover, pending)
	DecidingGameID int64 // the chain's last game (D-R3)
	SenteID        int64 // of the chain's last game
	GoteID         int64
	Result         string // effective result of the chain's last game, "" when none
	Reason         string
	Redos          int // redo games so far (千日手/持将棋)
	SenteBy        string
	Furigoma       *pairing.Furigoma
	ScheduledOn    string
	Handicap       string            // the game's 手合割 (平手 for even games)
	Observed       *pairing.Furigoma // a physical 振り駒 entered as observed (EnterToss)
	Started        bool              // the chain's first game has started: sente is fixed
	// Version is the deciding game's newest result version (0: none), which
	// the quick result form posts back (issue 11).
	Version int
}

// StageBracket is one stage with results applied.
type StageBracket struct {
	Stage      store.KnockoutStage
	Slots      []string // with known qualifiers of earlier stages filled in
	Rounds     [][]BracketGame
	ThirdPlace *BracketGame
	// Consolation is the 交流戦 of the first-round losers, when the stage
	// runs one (store.KnockoutStage.Consolation), and its winner.
	Consolation         [][]BracketGame
	ConsolationChampion string
	Champion            string // entrant id, "" until decided
	Qualifiers          []string
	Finished            bool
	Withdrawn           []string
	Series              *SeriesView // title matches only
	// Ranking is a ranking group's 決定戦, 残留決定戦 and outcome (stages
	// with a table line only, D-G2…D-G4).
	Ranking *RankingView
}

// EventBracket is every visible stage of an event and the players named.
type EventBracket struct {
	Event  store.Event
	Stages []StageBracket
	// Players hold what brackets and the stage page show of a player: the
	// entrants' ID, Name and Rank, other fields zero
	// (store.EntrantsOfStagesNamed); a slot's player who is no entrant
	// here, read by id, holds PlayersShownByIDs's columns.
	Players map[int64]store.Player
	Staff   bool // the actor may manage the stages
}

// PlayerName names an entrant id: a player, or the placeholder itself.
func (eb EventBracket) PlayerName(id string) string {
	if p, ok := playerOfEntrant(id); ok {
		if pl, ok := eb.Players[p]; ok {
			return pl.Name
		}
	}
	return id
}

// EventBrackets computes every stage the actor may see, with winners
// advanced from the effective results (store.EffectiveResults through
// DecidingGame, so a redo chain counts by its deciding game, D-R3) and
// withdrawn players' opponents given walkovers.
//
// The computed brackets are kept under the event's revision (view_cache.go),
// read before anything else, so an unchanged event is not recomputed.
func (o *Office) EventBrackets(ctx context.Context, actor Actor, eventID int64) (EventBracket, error) {
	rev, err := o.eventRevision(ctx, eventID)
	if err != nil {
		return EventBracket{}, err
	}
	e, err := o.Event(ctx, actor, eventID)
	if err != nil {
		return EventBracket{}, err
	}
	stages, staff, err := o.visibleStages(ctx, actor, eventID) // the event's visibility was checked just above
	if err != nil {
		return EventBracket{}, err
	}
	key := "brackets:" + strconv.FormatInt(eventID, 10)
	for _, st := range stages { // staff see unpublished stages too
		key += ":" + strconv.FormatInt(st.ID, 10)
	}
	eb, err := kept(o.views, key, rev, func() (EventBracket, error) { return bracketsOf(ctx, o.store, e, stages, true) })
	eb.Staff = staff
	return eb, err
}

// bracketsOf reads through s, so inside a transaction it sees the
// transaction's own writes (a result just recorded). names loads the
// players named (pages); the sync inside a result's transaction needs none.
func bracketsOf(ctx context.Context, s *store.Store, e store.Event, stages []store.KnockoutStage, names bool) (EventBracket, error) {
	eb := EventBracket{Event: e, Players: map[int64]store.Player{}}
	// A title's rules may count a 持将棋 as a game of its 番勝負 (D-R3,
	// 000 第9条第9項): the event's own copy of the organiser's setting.
	settings, err := ParseEventSettings(e.Settings)
	if err != nil {
		return eb, err
	}
	countJishogi := settings.RedoCountsAsGame
	// Every chain of every stage, in three statements, with only the
	// columns a bracket is computed from.
	gs, err := s.GameSetOfEventLean(ctx, e.ID)
	if err != nil {
		return eb, err
	}
	// Every stage's entrants and bracket games, in one statement each.
	sids := make([]int64, len(stages))
	for i, st := range stages {
		sids[i] = st.ID
	}
	// A page names every entrant: their names come with them (a join).
	var entrants map[int64][]store.KnockoutEntrant
	if names {
		entrants, eb.Players, err = s.EntrantsOfStagesNamed(ctx, sids)
	} else {
		entrants, err = s.EntrantsOfStages(ctx, sids)
	}
	if err != nil {
		return eb, err
	}
	bracketGames, err := s.KnockoutGamesOfStages(ctx, sids)
	if err != nil {
		return eb, err
	}
	var runs []pairing.StageRun
	var games []map[string]chainResult
	var series []pendingSeries
	groupRuns := map[int64][]pairing.Result{} // a ranking group's results, main and 決定戦 together
	for _, st := range stages {
		es := entrants[st.ID]
		var withdrawn []string
		for _, en := range es {
			if en.Withdrawn {
				withdrawn = append(withdrawn, entrantID(en.PlayerID))
			}
		}
		kgs := bracketGames[st.ID]
		chains := make(map[string]chainResult, len(kgs))
		var results, groupResults []pairing.Result
		for _, kg := range kgs {
			c, err := readChain(gs, kg)
			if err != nil {
				return eb, err
			}
			chains[kg.BracketGame] = c
			if !c.decided {
				continue
			}
			r, won, out := c.outcome(kg.BracketGame)
			switch {
			case !won:
				withdrawn = append(withdrawn, out...) // both_lose: neither goes on
			case isGroupGame(kg.BracketGame):
				groupResults = append(groupResults, r) // a ranking group's 決定戦: not of the main bracket
			default:
				results = append(results, r)
			}
		}
		sb := StageBracket{Stage: st, Withdrawn: withdrawn}
		if len(groupResults) > 0 || st.RankingRule != "" {
			groupRuns[st.ID] = append(append([]pairing.Result(nil), results...), groupResults...)
		}
		if st.Kind == StageSeries {
			// Read once the earlier stages are: a series after a 本戦
			// waits for its challenger (issue 24 item 2).
			series = append(series, pendingSeries{at: len(eb.Stages), kgs: kgs, chains: chains})
			eb.Stages = append(eb.Stages, sb)
			continue
		}
		if st.Status == StageSetup {
			eb.Stages = append(eb.Stages, sb)
			continue
		}
		slots, err := StageSlots(st)
		if err != nil {
			return eb, err
		}
		runs = append(runs, pairing.StageRun{Name: stageName(st.ID), Results: results, Withdrawn: withdrawn,
			Bracket: pairing.Bracket{Stage: pairing.Stage(st.Kind), Size: len(slots), Slots: slots, ThirdPlace: st.ThirdPlace, Consolation: st.Consolation, Qualifiers: st.Qualifiers}})
		games = append(games, chains)
		eb.Stages = append(eb.Stages, sb)
	}
	var progress []pairing.StageProgress
	if len(runs) > 0 {
		var err error
		progress, err = advanceChains(runs)
		if err != nil {
			return eb, fmt.Errorf("event %d brackets: %w", e.ID, err)
		}
	}
	known := knownQualifiers(runs, progress)
	for _, ps := range series {
		sb := &eb.Stages[ps.at]
		slots, err := StageSlots(sb.Stage)
		if err != nil {
			return eb, err
		}
		sb.Slots = fillQualifiers(slots, known)
		sv, err := seriesView(gs, sb.Stage, sb.Slots, ps.kgs, ps.chains, countJishogi)
		if err != nil {
			return eb, err
		}
		sb.Series, sb.Champion, sb.Finished = &sv, sv.State.Champion, sv.State.Over
	}
	k := 0
	for i := range eb.Stages {
		sb := &eb.Stages[i]
		if sb.Stage.Kind == StageSeries || sb.Stage.Status == StageSetup {
			continue
		}
		p, chains := progress[k], games[k]
		k++
		sb.Slots, sb.Champion, sb.Qualifiers, sb.Finished = p.Slots, p.Progress.Champion, p.Progress.Qualifiers, p.Progress.Finished
		dates := StageRoundDates(sb.Stage)
		for _, round := range p.Progress.Rounds {
			row := make([]BracketGame, len(round))
			for j, g := range round {
				row[j] = bracketGame(g, chains, dates, names)
			}
			sb.Rounds = append(sb.Rounds, row)
		}
		if tp := p.Progress.ThirdPlace; tp != nil {
			g := bracketGame(*tp, chains, dates, names)
			g.Round = len(sb.Rounds)
			if g.Round > 0 && g.Round <= len(dates) {
				g.ScheduledOn = dates[g.Round-1]
			}
			sb.ThirdPlace = &g
		}
		sb.Consolation, sb.ConsolationChampion = consolationGames(p.Progress.Consolation, chains, dates, names)
		if err := rankingOf(sb, groupRuns[sb.Stage.ID], chains, names); err != nil {
			return eb, fmt.Errorf("event %d brackets: %w", e.ID, err)
		}
	}
	if !names {
		return eb, nil
	}
	// A slot's player who is no entrant of a stage read here (none
	// expected) is read by id.
	var missing []int64
	for _, sb := range eb.Stages {
		for _, id := range sb.Slots {
			if p, ok := playerOfEntrant(id); ok {
				if _, known := eb.Players[p]; !known {
					missing = append(missing, p)
				}
			}
		}
	}
	if len(missing) == 0 {
		return eb, nil
	}
	ps, err := s.PlayersShownByIDs(ctx, missing)
	if err != nil {
		return eb, err
	}
	maps.Copy(eb.Players, ps)
	return eb, nil
}

// tosses decodes the 振り駒 for a page; the sync of a result needs none.
func bracketGame(g pairing.Game, chains map[string]chainResult, dates []string, tosses bool) BracketGame {
	bg := BracketGame{Game: g}
	if g.Round >= 1 && g.Round <= len(dates) {
		bg.ScheduledOn = dates[g.Round-1]
	}
	c, ok := chains[g.ID]
	if !ok {
		return bg
	}
	bg.GameID, bg.DecidingGameID, bg.Redos, bg.SenteBy, bg.Version = c.kg.GameID, c.last.ID, c.redos, c.kg.SenteBy, c.version
	if tosses {
		bg.Furigoma, bg.Observed = c.furigoma(), c.observed()
	}
	if c.last.SentePlayerID != nil {
		bg.SenteID = *c.last.SentePlayerID
	}
	if c.last.GotePlayerID != nil {
		bg.GoteID = *c.last.GotePlayerID
	}
	if c.eff.ID != 0 {
		bg.Result, bg.Reason = c.eff.Result, c.eff.Reason
	}
	if c.last.ScheduledOn != nil {
		bg.ScheduledOn = *c.last.ScheduledOn
	}
	bg.Handicap = c.last.Handicap
	bg.Started = c.redos > 0 || c.last.StartedAt != nil
	return bg
}

// tossRand is the generator of one bracket game's simulated 振り駒: the
// stage's draw seed mixed with the game's bracket id, so the same draw seed
// always gives the same tosses, whatever order games are created in.
func tossRand(seed string, bracketGame string) (*rand.Rand, error) {
	n, err := strconv.ParseUint(seed, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("draw seed %q: %w", seed, err)
	}
	h := fnv.New64a()
	_, _ = h.Write([]byte(bracketGame))
	return pairing.NewRand(n ^ h.Sum64()), nil
}

// SyncEventGames creates the games that have become playable: both players
// known (round 1 after publication, later rounds as winners are decided).
// RecordResult, ConfirmResult, EndGame and CreateRedoGame call it inside
// their own transaction (syncKnockout), so a result recorded anywhere
// advances the bracket; calling it again is harmless.
func (o *Office) SyncEventGames(ctx context.Context, eventID int64) error {
	return o.store.Tx(ctx, func(tx *store.Store) error {
		e, err := tx.EventByID(ctx, eventID)
		if err != nil {
			return err
		}
		return syncKnockout(ctx, tx, e, o.now())
	})
}

// syncKnockout creates, through s (a transaction), every game of e's
// published stages whose two players are known and that has no game yet.
// Events that are not knockouts or title matches have nothing to do.
func syncKnockout(ctx context.Context, s *store.Store, e store.Event, now time.Time) error {
	return advanceKnockout(ctx, s, e, now, true)
}

// advanceKnockout is syncKnockout; corrections false skips looking for
// later games a correction changed, for a write that cannot have changed
// any (the first result in force of a game: nothing was built on it yet).
func advanceKnockout(ctx context.Context, s *store.Store, e store.Event, now time.Time, corrections bool) error {
	if corrections {
		if err := correctKnockout(ctx, s, e, now); err != nil { // later games a correction changed (correction.go)
			return err
		}
	} else if c, ok := correctionOf(ctx); ok && c.preview {
		return previewDone{} // nothing affected; the preview still rolls back
	}
	if e.Kind != EventKnockout && e.Kind != EventTitleMatch {
		return nil
	}
	eb, ok, err := publishedBrackets(ctx, s, e)
	if err != nil || !ok {
		return err
	}
	var todo []newBracketGame
	for _, sb := range eb.Stages {
		if sb.Series != nil {
			if g, ok := nextSeriesGame(sb); ok {
				todo = append(todo, g)
			}
			continue
		}
		var ready []BracketGame
		for _, round := range sb.Rounds {
			for _, g := range round {
				if g.Status == pairing.StatusReady && g.GameID == 0 {
					ready = append(ready, g)
				}
			}
		}
		if tp := sb.ThirdPlace; tp != nil && tp.Status == pairing.StatusReady && tp.GameID == 0 {
			ready = append(ready, *tp)
		}
		for _, round := range sb.Consolation {
			for _, g := range round {
				if g.Status == pairing.StatusReady && g.GameID == 0 {
					ready = append(ready, g)
				}
			}
		}
		if rv := sb.Ranking; rv != nil {
			ready = append(ready, rv.ready()...)
		}
		for _, g := range ready {
			todo = append(todo, newBracketGame{Stage: sb.Stage, ID: g.ID, Players: g.Players, Date: g.ScheduledOn})
		}
	}
	return createBracketGames(ctx, s, now, e.ID, todo)
}

// newBracketGame is a bracket game to create: its stage, bracket id, two
// entrants, day ("" none) and a 番勝負's fixed sente ("" none).
type newBracketGame struct {
	Stage      store.KnockoutStage
	ID         string
	Players    [2]string
	Date       string
	FixedSente string
}

// createBracketGames creates the games of todo, all of eventID: what
// decides how each starts is read once for all of them (startReads), so a
// round of any size costs the same reads and one game's writes a game.
func createBracketGames(ctx context.Context, s *store.Store, now time.Time, eventID int64, todo []newBracketGame) error {
	if len(todo) == 0 {
		return nil
	}
	var ids []int64
	for _, g := range todo {
		for _, p := range g.Players {
			if id, ok := playerOfEntrant(p); ok {
				ids = append(ids, id)
			}
		}
	}
	reads := newStartReads(s, eventID, ids)
	for _, g := range todo {
		if err := createBracketGame(ctx, s, reads, now, g.Stage, g.ID, g.Players, g.Date, g.FixedSente); err != nil {
			return err
		}
	}
	return nil
}

// publishedBrackets computes e's published stages through s, without
// naming players (the sync of a result and a preview's snapshot); ok is
// false when no stage is published.
func publishedBrackets(ctx context.Context, s *store.Store, e store.Event) (EventBracket, bool, error) {
	all, err := s.StagesOfEvent(ctx, e.ID)
	if err != nil {
		return EventBracket{}, false, err
	}
	var published []store.KnockoutStage
	for _, st := range all {
		if st.Status == StagePublished {
			published = append(published, st)
		}
	}
	if len(published) == 0 {
		return EventBracket{}, false, nil
	}
	eb, err := bracketsOf(ctx, s, e, published, false)
	return eb, err == nil, err
}

// createBracketGame creates the game of one bracket game; decideStart
// chooses the handicap and sente (a 番勝負's fixedSente, the rank gap, or a
// simulated 振り駒 tossed by the 上座 player, D-Z1).
// It runs in a nested transaction (a savepoint inside the caller's), so a
// concurrent creation of the same bracket game (unique key) is a no-op
// that does not abort the caller.
func createBracketGame(ctx context.Context, s *store.Store, reads *startReads, now time.Time, st store.KnockoutStage, id string, players [2]string, date, fixedSente string) error {
	a, okA := playerOfEntrant(players[0])
	b, okB := playerOfEntrant(players[1])
	if !okA || !okB {
		return nil // a placeholder still waiting for an earlier stage
	}
	on := now
	if d, err := time.Parse(time.DateOnly, date); err == nil {
		on = d
	}
	start, err := decideStart(ctx, reads, st, id, players, a, b, fixedSente, on)
	if err != nil {
		return err
	}
	label := st.Name + " " + id
	now = now.UTC()
	err = s.Tx(ctx, func(tx *store.Store) error {
		if exists, err := tx.KnockoutGameExists(ctx, st.ID, id); err != nil || exists {
			return err
		}
		g := store.Game{EventID: st.EventID, Label: label, SentePlayerID: &start.Sente, GotePlayerID: &start.Gote, Handicap: start.Handicap,
			SenteAllowanceS: st.AllowanceMinutes * 60, GoteAllowanceS: st.AllowanceMinutes * 60, CreatedAt: now, UpdatedAt: now}
		if date != "" {
			d := date
			g.ScheduledOn = &d
		}
		if err := tx.CreateGame(ctx, &g); err != nil {
			return err
		}
		return tx.AddKnockoutGame(ctx, &store.KnockoutGame{StageID: st.ID, BracketGame: id, GameID: g.ID, SenteBy: start.SenteBy, Furigoma: start.Furigoma, CreatedAt: now})
	})
	if errors.Is(err, store.ErrConflict) {
		return nil // another request created it first
	}
	return err
}

// QuickResultInput is the bracket page's result form: who won and why.
type QuickResultInput struct {
	StageID     int64
	BracketGame string
	WinnerID    int64  `field:"winner" validate:"gt=0" msg:"previews.err,gt=winner_required"`
	Reason      string `field:"reason" validate:"storable,enum=quick_reason" msg:"knockout.err,enum=reason"` // one of QuickReasons
	// GameID is the chain's deciding game the person saw and Version its
	// result version then (0: none); if either moved on the result is
	// refused with a *StaleError (issue 11).
	GameID  int64
	Version int
}

// QuickResultRoles may enter a bracket game's quick result.
var QuickResultRoles = []string{RoleDirector, RoleArbiter, RoleRecorder}

// QuickResult records a bracket game's result on the chain's current game
// (directors, arbiters, recorders). The version check, the result, a
// withdrawal's mark on the loser and the games that became playable are
// one transaction with the game row locked (issue 11).
func (o *Office) QuickResult(ctx context.Context, actor Actor, in QuickResultInput) error {
	st, err := o.store.StageByID(ctx, in.StageID)
	if err != nil {
		return err
	}
	if err := requireStageRole(ctx, o.store, actor, st, QuickResultRoles...); err != nil {
		return err
	}
	// The bracket game and the game the form saw belong to this stage
	// before the form is judged (issue 21): another stage's or event's
	// game is not found, as a missing one.
	kg, err := o.store.KnockoutGameOf(ctx, st.ID, in.BracketGame)
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("stage %d has no game %q: %w", st.ID, in.BracketGame, ErrNotFound)
	} else if err != nil {
		return err
	}
	if err := chainHolds(ctx, o.store, kg.GameID, in.GameID); err != nil {
		return err
	}
	// No winner is assumed (issue 13): the form starts with none chosen.
	v := &ValidationError{}
	checkInput(v, 0, in)
	if err := v.OrNil(); err != nil {
		return err
	}
	return o.store.Tx(ctx, func(tx *store.Store) error {
		last, eff, decided, err := lockChainGame(ctx, tx, kg.GameID, in.GameID, in.Version)
		if err != nil {
			return err
		}
		if _, void, err := tx.GameVoidOf(ctx, kg.GameID); err != nil {
			return err
		} else if void { // its draw was taken back (UnpublishStage)
			return fmt.Errorf("game %d is void: %w", kg.GameID, ErrConflict)
		}
		if decided || eff.Result == ResultRedo {
			return staleError(ctx, tx, last.ID, in.Version)
		}
		result, loser := "", int64(0)
		switch {
		case last.SentePlayerID != nil && last.GotePlayerID != nil && *last.SentePlayerID == in.WinnerID:
			result, loser = ResultSenteWin, *last.GotePlayerID
		case last.SentePlayerID != nil && last.GotePlayerID != nil && *last.GotePlayerID == in.WinnerID:
			result, loser = ResultGoteWin, *last.SentePlayerID
		default:
			v.Add(0, "winner", "knockout.err.winner", nil)
			return v
		}
		now := o.now().UTC()
		rin := ResultInput{Result: result, Reason: in.Reason, Version: in.Version}
		if err := checkResult(last, rin).OrNil(); err != nil {
			return err
		}
		if _, err := appendResult(ctx, tx, actor, last, rin, now); err != nil {
			return err
		}
		if in.Reason != ReasonWithdrawal {
			return nil // appendResult synced the bracket
		}
		if err := tx.SetEntrantWithdrawn(ctx, st.ID, loser); err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		if err := tx.AppendDrawLog(ctx, &store.DrawLogEntry{StageID: st.ID, Action: "withdraw", ActorID: actor.UserID, At: now,
			Detail: mustJSON(map[string]any{"player": entrantID(loser), "game": in.BracketGame})}); err != nil {
			return err
		}
		e, err := tx.EventByID(ctx, st.EventID)
		if err != nil {
			return err
		}
		return syncKnockout(ctx, tx, e, now) // the walkovers the withdrawal gives
	})
}

// WithdrawEntrant records that a player left a published stage (棄権): each
// later opponent gets a walkover (directors).
func (o *Office) WithdrawEntrant(ctx context.Context, actor Actor, stageID, playerID int64, reason string) error {
	if v := (&ValidationError{}); !checkReason(v, "reason", optionalReason{strings.TrimSpace(reason)}) {
		return v
	}
	ctx = withdrawalConsent(ctx, actor, stageID, reason)
	return o.stageTx(ctx, actor, stageID, func(tx *store.Store, st store.KnockoutStage) error {
		if st.Status != StagePublished {
			return fmt.Errorf("stage %d is %s; before publication remove the entrant instead: %w", st.ID, st.Status, ErrConflict)
		}
		if err := tx.SetEntrantWithdrawn(ctx, stageID, playerID); err != nil {
			return err
		}
		if err := tx.AppendDrawLog(ctx, &store.DrawLogEntry{StageID: st.ID, Action: "withdraw", Reason: reason, ActorID: actor.UserID, At: o.now(),
			Detail: mustJSON(map[string]any{"player": entrantID(playerID)})}); err != nil {
			return err
		}
		e, err := tx.EventByID(ctx, st.EventID)
		if err != nil {
			return err
		}
		return syncKnockout(ctx, tx, e, o.now()) // same transaction: a withdrawal that voids later games is all or nothing
	}, RoleDirector)
}
