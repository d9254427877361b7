package office

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"strings"

	"kisen/pairing"
	"kisen/store"
)

// StageInput is the stage form.
type StageInput struct {
	EventID    int64
	Name       string `field:"name" validate:"storable,required,max=200" msg:"events.err"`
	NameEn     string `field:"name_en" validate:"storable,max=200" msg:"events.err"` // optional English name, shown on English pages
	Kind       string `field:"kind" validate:"enum=stage_kind" msg:"knockout.err,enum=kind"`
	ThirdPlace bool   // 三位決定戦
	// Qualifiers is how many players go on to the next stage (a power of
	// two, 1 for the stage winner); 0 plays to a champion. Their places in
	// the next stage are placeholders drawn like unseeded players.
	Qualifiers int `field:"qualifiers" validate:"gte=0,lte=1024" msg:"knockout.err,gte=qualifiers,lte=qualifiers"`
	BestOf     int // 番勝負 length, series only (odd)
	// RoundDates are the game dates per round, YYYY-MM-DD separated by
	// spaces or commas; round r uses the r-th date (the third-place game
	// the final's).
	RoundDates       string
	AllowanceMinutes int `field:"allowance" validate:"gte=0,lte=1440" msg:"games.err,gte=allowance,lte=allowance"`
	// RankingRule makes the stage a ranking group (竜王戦-style, D-G1): its
	// line of the organiser's table as JSON (pairing.GroupRule); "" for
	// an ordinary stage. It is checked against the bracket at the draw.
	RankingRule string
}

func (in *StageInput) check(eventKind string) ([]string, *ValidationError) {
	in.Name, in.NameEn = strings.TrimSpace(in.Name), strings.TrimSpace(in.NameEn)
	v := &ValidationError{}
	checkInput(v, 0, in)
	// domain rule, not a tag: which stage kinds the event's kind allows.
	switch {
	case eventKind == EventTitleMatch && in.Kind != StageSeries:
		v.Add(0, "kind", "knockout.err.kind_title_match", nil)
	case eventKind != EventKnockout && eventKind != EventTitleMatch:
		v.Add(0, "kind", "knockout.err.event_kind", nil)
	}
	// domain rule, not a tag: qualifiers fill a bracket, a power of two.
	if v.FieldMessage("qualifiers") == "" && bits.OnesCount(uint(in.Qualifiers)) > 1 {
		v.Add(0, "qualifiers", "knockout.err.qualifiers", nil)
	}
	if in.Kind == StageSeries {
		// domain rule, not a tag: a series (番勝負) has an odd length.
		if in.BestOf < 1 || in.BestOf > 15 || in.BestOf%2 == 0 {
			v.Add(0, "best_of", "knockout.err.best_of", nil)
		}
	} else {
		in.BestOf = 0
	}
	checkRankingRule(v, in)
	// domain rule, not a tag: a list of dates, each named in its message.
	var dates []string
	for _, d := range strings.FieldsFunc(in.RoundDates, func(r rune) bool { return r == ',' || r == ' ' || r == '、' || r == '\n' }) {
		if _, ok := checkDate(v, "round_dates", d); ok {
			dates = append(dates, d)
		}
	}
	return dates, v
}

// SeriesFollows reports whether a 番勝負 stage may be added after the
// event's stages (issue 24 item 2): in a knockout event, when the last
// stage is a 本戦 (the 挑戦者決定トーナメント) that sends one player on
// — the challenger, who meets the title holder waiting in the series.
func SeriesFollows(eventKind string, existing []store.KnockoutStage) bool {
	if eventKind != EventKnockout || len(existing) == 0 {
		return false
	}
	last := existing[len(existing)-1]
	return last.Kind == string(pairing.MainEvent) && last.Qualifiers == 1
}

// checkStageOrder: domain rules, not tags, on where a stage may go. A
// title-match event holds one series; in a knockout event a series only
// follows a 本戦 with one qualifier (SeriesFollows), and it is the event's
// last stage: nothing follows the title match.
func checkStageOrder(v *ValidationError, eventKind string, in StageInput, existing []store.KnockoutStage) {
	if n := len(existing); n > 0 && existing[n-1].Kind == StageSeries {
		if in.Kind == StageSeries {
			v.Add(0, "kind", "knockout.err.one_series", nil)
		} else {
			v.Add(0, "kind", "knockout.err.after_series", nil)
		}
		return
	}
	if in.Kind != StageSeries || eventKind != EventKnockout {
		return
	}
	if !SeriesFollows(eventKind, existing) {
		v.Add(0, "kind", "knockout.err.kind_knockout", nil)
	}
	if in.Qualifiers != 0 {
		v.Add(0, "qualifiers", "knockout.err.series_qualifiers", nil)
	}
}

// CreateStage adds a stage after the event's last one (directors and
// schedulers).
func (o *Office) CreateStage(ctx context.Context, actor Actor, in StageInput) (store.KnockoutStage, error) {
	if err := o.RequireEventRole(ctx, actor, in.EventID, StageEditRoles...); err != nil {
		return store.KnockoutStage{}, err
	}
	var st store.KnockoutStage
	err := o.store.Tx(ctx, func(tx *store.Store) error {
		e, err := tx.EventByID(ctx, in.EventID)
		if err != nil {
			return err
		}
		dates, v := in.check(e.Kind)
		existing, err := tx.StagesOfEvent(ctx, in.EventID)
		if err != nil {
			return err
		}
		checkStageOrder(v, e.Kind, in, existing)
		if err := v.OrNil(); err != nil {
			return err
		}
		now := o.now().UTC()
		st = store.KnockoutStage{EventID: in.EventID, Position: len(existing) + 1, Name: in.Name, NameEn: in.NameEn, Kind: in.Kind,
			ThirdPlace: in.ThirdPlace, Qualifiers: in.Qualifiers, BestOf: in.BestOf, RoundDates: mustJSON(dates),
			AllowanceMinutes: in.AllowanceMinutes, Status: StageSetup, Slots: "[]", RankingRule: in.RankingRule, CreatedAt: now, UpdatedAt: now}
		if n := len(existing); n > 0 {
			st.Position = existing[n-1].Position + 1
		}
		return tx.CreateStage(ctx, &st)
	})
	return st, err
}

// Stages lists an event's stages the actor may see: the public sees
// published stages of public events; directors, schedulers, arbiters and
// recorders see every stage.
func (o *Office) Stages(ctx context.Context, actor Actor, eventID int64) ([]store.KnockoutStage, error) {
	if _, err := o.Event(ctx, actor, eventID); err != nil {
		return nil, err
	}
	stages, _, err := o.visibleStages(ctx, actor, eventID)
	return stages, err
}

// visibleStages is Stages after the event's visibility was checked, and
// whether the actor is its staff (canManageStages).
func (o *Office) visibleStages(ctx context.Context, actor Actor, eventID int64) ([]store.KnockoutStage, bool, error) {
	all, err := o.store.StagesOfEvent(ctx, eventID)
	if err != nil {
		return nil, false, err
	}
	if o.canManageStages(ctx, actor, eventID) {
		return all, true, nil
	}
	out := all[:0]
	for _, st := range all {
		if st.Status == StagePublished {
			out = append(out, st)
		}
	}
	return out, false, nil
}

// canManageStages: the event's staff see unpublished stages.
func (o *Office) canManageStages(ctx context.Context, actor Actor, eventID int64) bool {
	return o.holdsEventRole(ctx, actor, eventID, RoleDirector, RoleScheduler, RoleArbiter, RoleRecorder)
}

// Stage loads one stage for an actor who may see it.
func (o *Office) Stage(ctx context.Context, actor Actor, stageID int64) (store.KnockoutStage, error) {
	st, err := o.store.StageByID(ctx, stageID)
	if err != nil {
		return st, err
	}
	if _, err := o.Event(ctx, actor, st.EventID); err != nil {
		return store.KnockoutStage{}, err
	}
	if st.Status != StagePublished && !o.canManageStages(ctx, actor, st.EventID) {
		return store.KnockoutStage{}, fmt.Errorf("stage %d: %w", stageID, ErrNotFound)
	}
	return st, nil
}

// EntrantInput adds a registered player to a stage.
type EntrantInput struct {
	StageID    int64
	PlayerID   int64
	Seed       int `field:"seed" validate:"gte=0,lte=4096" msg:"knockout.err,gte=seed,lte=seed"`                    // 0 unseeded
	EnterRound int `field:"enter_round" validate:"gte=0,lte=12" msg:"knockout.err,gte=enter_round,lte=enter_round"` // 0 or 1: round 1
}

// AddEntrant adds a player to a stage before its draw (directors and
// schedulers).
func (o *Office) AddEntrant(ctx context.Context, actor Actor, in EntrantInput) (store.KnockoutEntrant, error) {
	var e store.KnockoutEntrant
	err := o.stageTx(ctx, actor, in.StageID, func(tx *store.Store, st store.KnockoutStage) error {
		if st.Status != StageSetup {
			return fmt.Errorf("stage %d is %s; entrants change before the draw: %w", st.ID, st.Status, ErrConflict)
		}
		v := &ValidationError{}
		checkInput(v, 0, in)
		// domain rule, not a tag: only a seed may enter after round 1.
		if v.FieldMessage("enter_round") == "" && in.EnterRound > 1 && in.Seed == 0 {
			v.Add(0, "enter_round", "knockout.err.enter_round", nil)
		}
		if _, err := tx.PlayerByID(ctx, in.PlayerID); errors.Is(err, store.ErrNotFound) {
			v.Add(0, "player_id", "knockout.err.player", nil)
		} else if err != nil {
			return err
		}
		if err := v.OrNil(); err != nil {
			return err
		}
		e = store.KnockoutEntrant{StageID: st.ID, PlayerID: in.PlayerID, Seed: in.Seed, EnterRound: max(in.EnterRound, 1), CreatedAt: o.now()}
		err := tx.AddEntrant(ctx, &e)
		if errors.Is(err, store.ErrConflict) {
			v.Add(0, "player_id", "knockout.err.already_entered", nil)
			return v
		}
		return err
	})
	return e, err
}

// RemoveEntrant takes a player out of a stage before its draw.
func (o *Office) RemoveEntrant(ctx context.Context, actor Actor, stageID, entrantID int64) error {
	return o.stageTx(ctx, actor, stageID, func(tx *store.Store, st store.KnockoutStage) error {
		if st.Status != StageSetup {
			return fmt.Errorf("stage %d is %s; entrants change before the draw: %w", st.ID, st.Status, ErrConflict)
		}
		return tx.RemoveEntrant(ctx, stageID, entrantID)
	})
}

// stageTx runs fn in one transaction after checking that the actor directs
// or schedules the stage's event.
func (o *Office) stageTx(ctx context.Context, actor Actor, stageID int64, fn func(tx *store.Store, st store.KnockoutStage) error, roles ...string) error {
	if len(roles) == 0 {
		roles = StageEditRoles
	}
	return o.store.Tx(ctx, func(tx *store.Store) error {
		st, err := tx.StageByID(ctx, stageID)
		if err != nil {
			return err
		}
		if err := requireStageRole(ctx, tx, actor, st, roles...); err != nil {
			return err
		}
		return fn(tx, st)
	})
}
