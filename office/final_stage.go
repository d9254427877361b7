package office

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"kisen/pairing"
	"kisen/store"
)

// DrawnStageInput is a knockout stage whose draw was made elsewhere: a
// day's class final placed by pairing.PlaceFinal (docs/final-knockout.md).
type DrawnStageInput struct {
	Stage StageInput
	// Consolation runs a 交流戦 for the first-round losers.
	Consolation bool
	// Players are the entrants (unseeded: the slots place them).
	Players []int64
	// Slots are the bracket in order, a player id per slot, 0 a bye.
	Slots    []int64
	Seed     uint64
	DrawDate store.CivilDate
	// Method is recorded with the draw, e.g. "final".
	Method string
	// HandicapPolicy is the stage's own 手合割 policy (StageHandicap*; ''
	// keeps the event's) and EvenGap its grades played even (mixed).
	HandicapPolicy string
	EvenGap        int
}

// CreateDrawnStageIn creates a stage, its entrants and its draw inside tx
// (directors and schedulers of the event): the stage is left drawn and
// unpublished, so the director reviews it, may swap slots, and publishes
// it through the stage's usual pages. The slots must hold every entrant
// once with the byes where the standard draw puts them (pairing.Check,
// everyone unseeded); the draw goes to the stage's append-only draw log.
func CreateDrawnStageIn(ctx context.Context, tx *store.Store, actor Actor, in DrawnStageInput, now time.Time) (store.KnockoutStage, error) {
	if err := requireEventRole(ctx, tx, actor, in.Stage.EventID, StageEditRoles...); err != nil {
		return store.KnockoutStage{}, err
	}
	e, err := tx.EventByID(ctx, in.Stage.EventID)
	if err != nil {
		return store.KnockoutStage{}, err
	}
	dates, v := in.Stage.check(e.Kind)
	if in.Stage.Qualifiers != 0 || in.Stage.Kind == StageSeries {
		v.Add(0, "kind", "knockout.err.kind", nil)
	}
	if err := v.OrNil(); err != nil {
		return store.KnockoutStage{}, err
	}
	existing, err := tx.StagesOfEvent(ctx, e.ID)
	if err != nil {
		return store.KnockoutStage{}, err
	}
	now = now.UTC()
	st := store.KnockoutStage{EventID: e.ID, Position: 1, Name: in.Stage.Name, NameEn: in.Stage.NameEn, Kind: in.Stage.Kind,
		ThirdPlace: in.Stage.ThirdPlace, Consolation: in.Consolation, RoundDates: mustJSON(dates), AllowanceMinutes: in.Stage.AllowanceMinutes,
		HandicapPolicy: in.HandicapPolicy, EvenGap: in.EvenGap, Status: StageSetup, Slots: "[]", CreatedAt: now, UpdatedAt: now}
	if n := len(existing); n > 0 {
		st.Position = existing[n-1].Position + 1
	}
	if err := tx.CreateStage(ctx, &st); err != nil {
		return store.KnockoutStage{}, err
	}
	for _, p := range in.Players {
		en := store.KnockoutEntrant{StageID: st.ID, PlayerID: p, EnterRound: 1, CreatedAt: now}
		if err := tx.AddEntrant(ctx, &en); err != nil {
			return store.KnockoutStage{}, fmt.Errorf("stage %d entrant %d: %w", st.ID, p, err)
		}
	}
	slots := make([]string, len(in.Slots))
	for s, p := range in.Slots {
		if p != 0 {
			slots[s] = entrantID(p)
		}
	}
	req, err := stageDrawRequest(ctx, tx, st, in.Seed, in.DrawDate)
	if err != nil {
		return store.KnockoutStage{}, err
	}
	b := pairing.Bracket{Stage: req.Stage, Size: len(slots), Slots: slots, ThirdPlace: st.ThirdPlace, Consolation: st.Consolation}
	if bad, err := pairing.Check(b, req); err != nil || len(bad) > 0 {
		if err == nil {
			err = fmt.Errorf("%s", bad[0].Message)
		}
		return store.KnockoutStage{}, fmt.Errorf("stage %d: the placed slots are not a valid draw (internal error): %w", st.ID, err)
	}
	st.Status, st.DrawSeed, st.DrawDate, st.Method, st.Slots = StageDrawn, strconv.FormatUint(in.Seed, 10), in.DrawDate.String(), in.Method, mustJSON(slots)
	if err := tx.UpdateStage(ctx, &st); err != nil {
		return store.KnockoutStage{}, err
	}
	return st, tx.AppendDrawLog(ctx, &store.DrawLogEntry{StageID: st.ID, Action: "draw", ActorID: actor.UserID, At: now,
		Detail: mustJSON(map[string]any{"seed": st.DrawSeed, "draw_date": st.DrawDate, "method": in.Method, "slots": slots})})
}

// EntrantIDOf is how a registered player appears in a stage's slots.
func EntrantIDOf(playerID int64) string { return entrantID(playerID) }

// finalViolations are the final's own rules (pairing.CheckFinal: block
// winners, byes by place, block separation, relations in round 1) that
// slots break when st is a day class's final, judged with the request it
// was placed from; nil for any other stage. The knockout's Check already
// reports the shape (size, each entrant once, byes), so only the final's
// rules are kept.
func finalViolations(ctx context.Context, s *store.Store, st store.KnockoutStage, slots []string) ([]pairing.Violation, error) {
	f, ok, err := s.DayFinalOfStage(ctx, st.ID)
	if err != nil || !ok {
		return nil, err
	}
	var req pairing.FinalRequest
	if err := json.Unmarshal([]byte(f.Request), &req); err != nil {
		return nil, fmt.Errorf("stage %d final request: %w", st.ID, err)
	}
	if len(req.Qualifiers) == 0 {
		return nil, nil // built before the request was kept
	}
	all, err := pairing.CheckFinal(req, slots)
	if err != nil {
		return nil, fmt.Errorf("stage %d final check: %w", st.ID, err)
	}
	var out []pairing.Violation
	for _, v := range all {
		if strings.HasPrefix(v.Rule, "final-") {
			out = append(out, v)
		}
	}
	return out, nil
}
