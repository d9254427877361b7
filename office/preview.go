package office

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"kisen/store"
)

// Previews before irreversible steps (issue 13): a write that stores a
// result, publishes a draw or a schedule, or takes one back is first run in
// a transaction that is always rolled back, and what it added — result
// versions, games created, games made void, who moved on in a bracket, a
// champion — is read back before the rollback. The page shows that in
// words and asks once; the confirmation runs the very same write for real
// (with the version the person saw, issue 11). The preview is the write
// itself, not a second model of it, so it cannot disagree with what will be
// stored.

// Effects is what a write would store.
type Effects struct {
	Results []EffectResult // result versions appended
	Created []EffectGame   // games created (next bracket games, redo games, a schedule's games)
	Voided  []EffectGame   // games made void
	// Advances: a player newly placed in a later bracket game.
	Advances []EffectAdvance
	// Champions: a stage whose champion changes (Before or After 0: none).
	Champions []EffectChampion
	// Qualified: players who newly qualify from a stage for the next one.
	Qualified       []EffectQualifier
	EventGoesPublic bool
	// Stages are the event's published stages before and after the write
	// (read for the comparison anyway): the page names a bracket game's
	// round from its stage's size (web GameLabel, issue 24 item 3).
	Stages []KnockoutStage
}

// Empty reports whether the write would store nothing a page needs to say.
func (e Effects) Empty() bool {
	return len(e.Results)+len(e.Created)+len(e.Voided)+len(e.Advances)+len(e.Champions)+len(e.Qualified) == 0 && !e.EventGoesPublic
}

// EffectResult is one result version a write appends.
type EffectResult struct {
	GameID      int64
	Label       string
	Sente, Gote int64
	Result      string
	Reason      string
	Version     int
	Confirmed   bool   // counts at once (the event does not require a second person)
	Before      string // the result in force before ("" when none)
	ScheduledOn string // the game's date, "" when none
}

// EffectGame is a game a write creates or makes void.
type EffectGame struct {
	GameID      int64
	Label       string
	Sente, Gote int64 // 0 while the seat is not known
	ScheduledOn string
	RedoOf      int64 // a redo game (指し直し) of this game
}

// EffectAdvance: Player is now placed in bracket game BracketGame of a
// stage, round Round (Final: the stage's last round), facing Opponent (0:
// not known yet).
type EffectAdvance struct {
	StageID     int64
	StageName   string
	StageNameEn string // the stage's English name and kind (pages in English)
	StageKind   string
	BracketGame string
	Round       int
	Final       bool
	// ThirdPlace: the game is the 三位決定戦 (its players are the
	// semi-final losers), not the final (issue 24 item 3).
	ThirdPlace bool
	// Rounds and Qualifiers are the stage's, so a page can name Round
	// as staff do (pairing.NameRound).
	Rounds, Qualifiers int
	Player             int64
	Opponent           int64
}

// EffectChampion is a stage's champion before and after the write.
type EffectChampion struct {
	StageID       int64
	StageName     string
	StageNameEn   string
	StageKind     string
	Before, After int64
}

// EffectQualifier is a player who qualifies from a stage.
type EffectQualifier struct {
	StageID     int64
	StageName   string
	StageNameEn string
	StageKind   string
	Player      int64
}

// dryRunDone rolls a dry run's transaction back.
type dryRunDone struct{}

func (dryRunDone) Error() string { return "dry run (rolled back)" }

// DryRun runs write against an Office whose store is a transaction that is
// rolled back whatever happens, and reports what the write added to event
// eventID. An error of the write (a validation error, a *StaleError, a
// *CorrectionNeeded, ErrForbidden) comes back as it is.
func (o *Office) DryRun(ctx context.Context, eventID int64, write func(ctx context.Context, o *Office) error) (Effects, error) {
	var eff Effects
	err := o.store.Tx(ctx, func(tx *store.Store) error {
		before, err := tx.EventMarksNow(ctx, eventID)
		if err != nil {
			return err
		}
		e, err := tx.EventByID(ctx, eventID)
		if err != nil {
			return err
		}
		pre, err := bracketSnapshot(ctx, tx, e)
		if err != nil {
			return err
		}
		// A throwaway cache: views computed inside the transaction must
		// never outlive its rollback.
		dry := &Office{store: tx, now: o.now, drawBudget: o.drawBudget, views: &viewCache{}}
		// The preview is the question about a game dated in the future: it
		// shows the date (web's note), and its confirmation is the answer.
		if err := write(context.WithValue(ctx, futureKey{}, false), dry); err != nil {
			return err
		}
		if eff, err = effectsSince(ctx, tx, e, before, pre); err != nil {
			return err
		}
		return dryRunDone{}
	})
	if errors.As(err, new(dryRunDone)) {
		return eff, nil
	}
	return Effects{}, err
}

// stageSnap is a published stage's bracket as a preview compares it.
type stageSnap struct {
	stage      store.KnockoutStage
	name       string
	nameEn     string // English name and kind: for the reader's language (web stageName)
	kind       string
	champion   int64
	qualifiers map[int64]bool
	games      map[string][2]string
	rounds     map[string]int
	last       int  // the stage's number of rounds
	champion1  bool // the last round is a final (the stage has one winner, not qualifiers)
	third      string
	cut        int // the stage's qualifiers setting
}

func bracketSnapshot(ctx context.Context, s *store.Store, e store.Event) (map[int64]*stageSnap, error) {
	out := map[int64]*stageSnap{}
	if e.Kind != EventKnockout && e.Kind != EventTitleMatch {
		return out, nil
	}
	eb, ok, err := publishedBrackets(ctx, s, e)
	if err != nil {
		return nil, err
	}
	if !ok {
		return out, nil
	}
	for _, sb := range eb.Stages {
		sn := &stageSnap{stage: sb.Stage, name: sb.Stage.Name, nameEn: sb.Stage.NameEn, kind: sb.Stage.Kind, qualifiers: map[int64]bool{}, games: map[string][2]string{}, rounds: map[string]int{}, last: len(sb.Rounds),
			champion1: sb.Stage.Qualifiers <= 1, cut: sb.Stage.Qualifiers}
		sn.champion, _ = playerOfEntrant(sb.Champion)
		for _, q := range sb.Qualifiers {
			if p, ok := playerOfEntrant(q); ok {
				sn.qualifiers[p] = true
			}
		}
		for r, round := range sb.Rounds {
			for _, g := range round {
				sn.games[g.ID] = g.Players
				sn.rounds[g.ID] = r + 1
			}
		}
		if sb.ThirdPlace != nil {
			sn.games[sb.ThirdPlace.ID] = sb.ThirdPlace.Players
			sn.rounds[sb.ThirdPlace.ID] = len(sb.Rounds)
			sn.third = sb.ThirdPlace.ID
		}
		out[sb.Stage.ID] = sn
	}
	return out, nil
}

func effectsSince(ctx context.Context, tx *store.Store, e store.Event, m store.EventMarks, pre map[int64]*stageSnap) (Effects, error) {
	var eff Effects
	after, err := tx.EventByID(ctx, e.ID)
	if err != nil {
		return eff, err
	}
	eff.EventGoesPublic = e.Status == StatusDraft && after.Status != StatusDraft
	games, err := tx.GamesAddedSince(ctx, e.ID, m)
	if err != nil {
		return eff, err
	}
	for _, g := range games {
		eff.Created = append(eff.Created, effectGame(g))
	}
	voids, err := tx.VoidsAddedSince(ctx, e.ID, m)
	if err != nil {
		return eff, err
	}
	for _, v := range voids {
		g, err := tx.GameByID(ctx, v.GameID)
		if err != nil {
			return eff, err
		}
		eff.Voided = append(eff.Voided, effectGame(g))
	}
	results, err := tx.ResultsAddedSince(ctx, e.ID, m)
	if err != nil {
		return eff, err
	}
	for _, r := range results {
		g, err := tx.GameByID(ctx, r.GameID)
		if err != nil {
			return eff, err
		}
		er := EffectResult{GameID: g.ID, Label: g.Label, Result: r.Result, Reason: r.Reason, Version: r.Version}
		if g.SentePlayerID != nil {
			er.Sente = *g.SentePlayerID
		}
		if g.GotePlayerID != nil {
			er.Gote = *g.GotePlayerID
		}
		if g.ScheduledOn != nil {
			er.ScheduledOn = *g.ScheduledOn
		}
		if rv, err := tx.GameResultByID(ctx, r.ID); err != nil {
			return eff, err
		} else {
			er.Confirmed = rv.Confirmed()
		}
		hist, err := tx.ResultHistory(ctx, g.ID)
		if err != nil {
			return eff, err
		}
		for _, h := range hist {
			if h.ID < r.ID && h.Confirmed() {
				er.Before = h.Result
			}
		}
		eff.Results = append(eff.Results, er)
	}
	post, err := bracketSnapshot(ctx, tx, after)
	if err != nil {
		return eff, err
	}
	for id, sn := range post {
		old := pre[id]
		if old == nil {
			old = &stageSnap{qualifiers: map[int64]bool{}, games: map[string][2]string{}}
		}
		if sn.champion != old.champion {
			eff.Champions = append(eff.Champions, EffectChampion{StageID: id, StageName: sn.name, StageNameEn: sn.nameEn, StageKind: sn.kind, Before: old.champion, After: sn.champion})
		}
		for p := range sn.qualifiers {
			if !old.qualifiers[p] {
				eff.Qualified = append(eff.Qualified, EffectQualifier{StageID: id, StageName: sn.name, StageNameEn: sn.nameEn, StageKind: sn.kind, Player: p})
			}
		}
		if old.name == "" {
			continue // a stage published by this write: its games are listed as created
		}
		for gid, players := range sn.games {
			was := old.games[gid]
			for i, p := range players {
				pid, ok := playerOfEntrant(p)
				if !ok || was[0] == p || was[1] == p {
					continue
				}
				opp, _ := playerOfEntrant(players[1-i])
				eff.Advances = append(eff.Advances, EffectAdvance{StageID: id, StageName: sn.name, StageNameEn: sn.nameEn, StageKind: sn.kind, BracketGame: gid,
					Round: sn.rounds[gid], Final: sn.champion1 && sn.rounds[gid] == sn.last && gid != sn.third, ThirdPlace: gid == sn.third,
					Rounds: sn.last, Qualifiers: sn.cut, Player: pid, Opponent: opp})
			}
		}
	}
	eff.Stages = snapStages(pre, post)
	sortEffects(&eff)
	return eff, nil
}

// snapStages are the stages of two snapshots, each once (the newer
// version), by id.
func snapStages(pre, post map[int64]*stageSnap) []KnockoutStage {
	var out []KnockoutStage
	for id, sn := range pre {
		if post[id] == nil {
			out = append(out, sn.stage)
		}
	}
	for _, sn := range post {
		out = append(out, sn.stage)
	}
	slices.SortFunc(out, func(a, b KnockoutStage) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

func effectGame(g store.Game) EffectGame {
	out := EffectGame{GameID: g.ID, Label: g.Label}
	if g.SentePlayerID != nil {
		out.Sente = *g.SentePlayerID
	}
	if g.GotePlayerID != nil {
		out.Gote = *g.GotePlayerID
	}
	if g.ScheduledOn != nil {
		out.ScheduledOn = *g.ScheduledOn
	}
	if g.RedoOfID != nil {
		out.RedoOf = *g.RedoOfID
	}
	return out
}

// sortEffects orders the map-derived lists so a page reads the same twice.
func sortEffects(e *Effects) {
	slices.SortFunc(e.Advances, func(a, b EffectAdvance) int {
		return cmp.Or(cmp.Compare(a.StageID, b.StageID), cmp.Compare(a.Round, b.Round), cmp.Compare(a.BracketGame, b.BracketGame), cmp.Compare(a.Player, b.Player))
	})
	slices.SortFunc(e.Champions, func(a, b EffectChampion) int { return cmp.Compare(a.StageID, b.StageID) })
	slices.SortFunc(e.Qualified, func(a, b EffectQualifier) int {
		return cmp.Or(cmp.Compare(a.StageID, b.StageID), cmp.Compare(a.Player, b.Player))
	})
}

// EventOfGame is the event a game belongs to (for DryRun).
func (o *Office) EventOfGame(ctx context.Context, gameID int64) (int64, error) {
	g, err := o.store.GameByID(ctx, gameID)
	if err != nil {
		return 0, fmt.Errorf("game %d: %w", gameID, err)
	}
	return g.EventID, nil
}
