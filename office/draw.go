package office

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"kisen/pairing"
	"kisen/store"
)

// DrawInput is the draw form: the witnesses' number ("" generates one,
// shown afterwards) and the draw date, the day lineage is read on (D-A1).
type DrawInput struct {
	StageID  int64
	Seed     string
	DrawDate string `field:"draw_date" validate:"required,date" msg:"events.err"` // YYYY-MM-DD
}

// StageDrawRequest builds the pairing request a stage's draw uses: its
// entrants (player ids in decimal), the qualifier placeholders of the stage
// before it, and each entrant's master as of drawDate from the registry's
// master history. `kisen draw bracket` given the same request as JSON makes
// the same draw.
func (o *Office) StageDrawRequest(ctx context.Context, st store.KnockoutStage, seed uint64, drawDate store.CivilDate) (pairing.DrawRequest, error) {
	return stageDrawRequest(ctx, o.store, st, seed, drawDate)
}

func stageDrawRequest(ctx context.Context, s *store.Store, st store.KnockoutStage, seed uint64, drawDate store.CivilDate) (pairing.DrawRequest, error) {
	req := pairing.DrawRequest{Stage: pairing.Stage(st.Kind), Seed: seed, DrawDate: drawDate.Time(), ThirdPlace: st.ThirdPlace, Qualifiers: st.Qualifiers}
	entrants, err := s.EntrantsOfStage(ctx, st.ID)
	if err != nil {
		return req, err
	}
	ids := make([]int64, len(entrants))
	for i, e := range entrants {
		ids[i] = e.PlayerID
	}
	players, err := s.PlayersByIDs(ctx, ids)
	if err != nil {
		return req, err
	}
	// D-A1 (001 第8条A1): the relation that counts is the one on the draw
	// date, so a master change after it does not move anyone.
	masters, err := s.MastersOn(ctx, drawDate, ids)
	if err != nil {
		return req, err
	}
	for _, e := range entrants {
		pe := pairing.Entrant{ID: entrantID(e.PlayerID), Name: players[e.PlayerID].Name, Seed: e.Seed}
		if e.EnterRound > 1 {
			pe.EnterRound = e.EnterRound
		}
		if k, ok := masters[e.PlayerID]; ok {
			pe.Master = masterEntrantID(k)
		}
		req.Entrants = append(req.Entrants, pe)
	}
	if prev, ok, err := previousStage(ctx, s, st); err != nil {
		return req, err
	} else if ok && prev.Qualifiers > 0 {
		req.Entrants = append(req.Entrants, pairing.QualifierEntrants(stageName(prev.ID), prev.Qualifiers)...)
	}
	return req, nil
}

// masterEntrantID turns a registry master key into pairing's Master: a
// registered master is named by their entrant id; an outside teacher by the
// key, which no entrant id equals, so it never makes a pair.
func masterEntrantID(k store.MasterKey) string {
	if id, ok := strings.CutPrefix(string(k), "p:"); ok {
		return id
	}
	return string(k)
}

func previousStage(ctx context.Context, s *store.Store, st store.KnockoutStage) (store.KnockoutStage, bool, error) {
	all, err := s.StagesOfEvent(ctx, st.EventID)
	if err != nil {
		return store.KnockoutStage{}, false, err
	}
	i := slices.IndexFunc(all, func(x store.KnockoutStage) bool { return x.ID == st.ID })
	if i <= 0 {
		return store.KnockoutStage{}, false, nil
	}
	return all[i-1], true, nil
}

// Who picked a draw's number, as its log records it (issue 24 item 3): the
// witnesses typed it, or the form was left empty and Kisen drew it from
// the operating system.
const (
	SeedByWitnesses = "witnesses"
	SeedByKisen     = "kisen"
)

// seedBy says who picked the number the form carried ("" → Kisen).
func seedBy(typed string) string {
	if strings.TrimSpace(typed) == "" {
		return SeedByKisen
	}
	return SeedByWitnesses
}

// parseSeed reads the witnesses' number; "" draws a fresh one from the
// operating system so nobody chooses it.
func parseSeed(v *ValidationError, s string) uint64 {
	s = strings.TrimSpace(s)
	if s == "" {
		var b [8]byte
		if _, err := rand.Read(b[:]); err == nil {
			return binary.BigEndian.Uint64(b[:]) >> 11 // 53 bits: easy to read aloud and to type in JSON
		}
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		v.Add(0, "seed", "knockout.err.seed_number", nil)
	}
	return n
}

// DrawStage makes (or remakes, before publication) a stage's draw
// (directors and schedulers). When no draw satisfies D-A1 the error is a
// ValidationError naming the players who make it so.
func (o *Office) DrawStage(ctx context.Context, actor Actor, in DrawInput) (store.KnockoutStage, error) {
	var out store.KnockoutStage
	err := o.stageTx(ctx, actor, in.StageID, func(tx *store.Store, st store.KnockoutStage) error {
		if st.Status == StagePublished {
			return fmt.Errorf("stage %d is published; its draw is final: %w", st.ID, ErrConflict)
		}
		v := &ValidationError{}
		// domain rule, not a tag: the witnesses' number, or a fresh one.
		seed := parseSeed(v, in.Seed)
		in.DrawDate = strings.TrimSpace(in.DrawDate)
		if !checkInput(v, 0, in) || len(v.Fields) > 0 {
			return v
		}
		date, err := store.ParseCivilDate(in.DrawDate)
		if err != nil {
			return err
		}
		var slots []string
		method := "series"
		if st.Kind == StageSeries {
			slots, err = seriesSlots(ctx, tx, st)
			if err != nil {
				return err
			}
		} else {
			req, err := stageDrawRequest(ctx, tx, st, seed, date)
			if err != nil {
				return err
			}
			// Said here in the reader's words: the pairing room's own
			// message for this is English text for the command line.
			if len(req.Entrants) < 2 {
				v.Add(0, "", "knockout.err.too_few_entrants", map[string]any{"Count": len(req.Entrants)})
				return v
			}
			b, err := pairing.Draw(req)
			var nv *pairing.NoValidDrawError
			var fe *pairing.FieldError
			// The pairing room's errors carry a code and the ids they name;
			// they are said in the reader's words (issue 24 item 3), never
			// as the room's English sentence.
			switch {
			case errors.As(err, &nv):
				code, args := noDrawWords(nv, o.nameList(ctx, tx, nv.Players), o.pairList(ctx, tx, nv.Pairs))
				v.Add(0, "", code, args)
				return v
			case errors.As(err, &fe):
				code, args := drawInputWords(fe, o.nameList(ctx, tx, idsIn(fe.Params)))
				v.Add(0, "", code, args)
				return v
			case err != nil:
				return err
			}
			slots, method = b.Slots, b.Method
			// A ranking group's line is judged against the drawn
			// bracket's size (D-G1), in the reader's words.
			if rule, ok, err := stageRankingRule(st); err != nil {
				return err
			} else if ok {
				if _, err := pairing.AdvanceRankingGroup(pairing.RankingGroup{Rule: rule, Slots: slots}); errors.As(err, &fe) {
					code, args := RankingInputWords(fe, nil)
					v.Add(0, "", code, args) // said with the draw's other refusals
					return v
				} else if err != nil {
					return err
				}
			}
		}
		st.Status, st.DrawSeed, st.DrawDate, st.Method, st.Slots = StageDrawn, strconv.FormatUint(seed, 10), date.String(), method, mustJSON(slots)
		st.UpdatedAt = o.now()
		if err := tx.UpdateStage(ctx, &st); err != nil {
			return err
		}
		out = st
		return tx.AppendDrawLog(ctx, &store.DrawLogEntry{StageID: st.ID, Action: "draw", ActorID: actor.UserID, At: o.now(),
			Detail: mustJSON(map[string]any{"seed": st.DrawSeed, "seed_by": seedBy(in.Seed), "draw_date": st.DrawDate, "method": method, "slots": slots})})
	})
	return out, err
}

// seriesSlots: a 番勝負 has exactly two players, the title holder (seed 1)
// listed first. In a knockout event the series follows a 本戦 that sends
// one player on (issue 24 item 2): its only entrant is the holder, and the
// second slot is that stage's qualifier placeholder, filled once the 本戦's
// final is decided — so the draw works before the challenger is known.
// Who tosses for game 1 is decided by 席次 when the game is made (D-Z1).
func seriesSlots(ctx context.Context, tx *store.Store, st store.KnockoutStage) ([]string, error) {
	es, err := tx.EntrantsOfStage(ctx, st.ID)
	if err != nil {
		return nil, err
	}
	prev, ok, err := previousStage(ctx, tx, st)
	if err != nil {
		return nil, err
	}
	if ok && prev.Qualifiers == 1 {
		if len(es) != 1 {
			v := &ValidationError{}
			v.Add(0, "", "knockout.err.series_holder", map[string]any{"Count": len(es)})
			return nil, v
		}
		return []string{entrantID(es[0].PlayerID), pairing.QualifierID(stageName(prev.ID), 1)}, nil
	}
	if len(es) != 2 {
		v := &ValidationError{}
		v.Add(0, "", "knockout.err.series_players", map[string]any{"Count": len(es)})
		return nil, v
	}
	return []string{entrantID(es[0].PlayerID), entrantID(es[1].PlayerID)}, nil
}

// NameList is a list of names in a message's arguments: the web joins it
// in the reader's language (「、」 or ", ").
type NameList []string

// nameList names entrant ids (a player's name, or the id of a placeholder).
func (o *Office) nameList(ctx context.Context, s *store.Store, ids []string) NameList {
	return NameList(playerNameList(ctx, s, ids))
}

// pairList names 師弟 pairs, one "A・B" entry each.
func (o *Office) pairList(ctx context.Context, s *store.Store, pairs [][2]string) NameList {
	var ids []string
	for _, p := range pairs {
		ids = append(ids, p[0], p[1])
	}
	if len(ids) == 0 {
		return nil
	}
	names := o.nameList(ctx, s, ids)
	out := make(NameList, 0, len(pairs))
	for i := 0; i+1 < len(names); i += 2 {
		out = append(out, names[i]+"・"+names[i+1])
	}
	return out
}

// idsIn is the player id a pairing error names (its Params' "Player").
func idsIn(params map[string]any) []string {
	if id, ok := params["Player"].(string); ok && id != "" {
		return []string{id}
	}
	return nil
}

// noDrawWords is the message code and arguments for a draw no bracket can
// satisfy: the players and the 師弟 pairs that make it so.
func noDrawWords(nv *pairing.NoValidDrawError, players, pairs NameList) (string, map[string]any) {
	if nv.Code == pairing.NoDrawSeedsMeet {
		return "names.err.draw.seeds_meet", map[string]any{"Players": players}
	}
	return "names.err.draw.master_student", map[string]any{"Players": players, "Pairs": pairs}
}

// drawInputWords is the message code and arguments for input the pairing
// room refuses; a code without words of its own gets a general message
// (never the room's English).
func drawInputWords(fe *pairing.FieldError, player NameList) (string, map[string]any) {
	args := map[string]any{}
	for k, v := range fe.Params {
		args[k] = v
	}
	if len(player) > 0 {
		args["Player"] = player[0]
	}
	switch fe.Code {
	case pairing.FieldTooFewEntrants, pairing.FieldBracketSize, pairing.FieldSeedGap, pairing.FieldSeedNoLine,
		pairing.FieldEntryNeedsByes, pairing.FieldEntryRound, pairing.FieldEntryUnseeded, pairing.FieldQualifiers:
		return "names.err.draw." + fe.Code, args
	}
	return "names.err.draw.input", args
}

// playerNameList names entrant ids: a player by name, anything else (a
// placeholder, an unknown id) as given.
func playerNameList(ctx context.Context, s *store.Store, ids []string) []string {
	var pids []int64
	for _, id := range ids {
		if p, ok := playerOfEntrant(id); ok {
			pids = append(pids, p)
		}
	}
	ps, _ := s.PlayersByIDs(ctx, pids)
	names := make([]string, 0, len(ids))
	for _, id := range ids {
		if p, ok := playerOfEntrant(id); ok && ps[p].Name != "" {
			names = append(names, ps[p].Name)
		} else {
			names = append(names, id)
		}
	}
	return names
}

// stageBracket is the stage's stored draw as a pairing bracket with the
// request it was drawn from.
func stageBracket(ctx context.Context, s *store.Store, st store.KnockoutStage) (pairing.Bracket, pairing.DrawRequest, error) {
	slots, err := StageSlots(st)
	if err != nil {
		return pairing.Bracket{}, pairing.DrawRequest{}, err
	}
	seed, _ := strconv.ParseUint(st.DrawSeed, 10, 64)
	date, err := store.ParseCivilDate(st.DrawDate)
	if err != nil {
		return pairing.Bracket{}, pairing.DrawRequest{}, fmt.Errorf("stage %d draw date: %w", st.ID, err)
	}
	req, err := stageDrawRequest(ctx, s, st, seed, date)
	if err != nil {
		return pairing.Bracket{}, pairing.DrawRequest{}, err
	}
	b := pairing.Bracket{Stage: req.Stage, Size: len(slots), Slots: slots, Seed: seed, DrawDate: req.DrawDate,
		ThirdPlace: st.ThirdPlace, Qualifiers: st.Qualifiers, Method: st.Method}
	return b, req, nil
}

// StageViolations checks a drawn stage against every draw rule (the
// constraint report of the review page).
func (o *Office) StageViolations(ctx context.Context, actor Actor, stageID int64) ([]pairing.Violation, error) {
	st, err := o.Stage(ctx, actor, stageID)
	if err != nil {
		return nil, err
	}
	if st.Kind == StageSeries || st.Status == StageSetup {
		return nil, nil
	}
	b, req, err := stageBracket(ctx, o.store, st)
	if err != nil {
		return nil, err
	}
	out, err := pairing.Check(b, req)
	if err != nil {
		return nil, err
	}
	fv, err := finalViolations(ctx, o.store, st, b.Slots)
	return append(out, fv...), err
}

// SwapInput exchanges two slots (0-based) of a drawn stage.
type SwapInput struct {
	StageID int64
	A, B    int
	Reason  string `field:"reason" validate:"storable,max=2000" msg:"events.err"` // required when the swap breaks a rule
}

// SwapBreaks are the rules a swap would break that the bracket keeps now.
// Nothing is saved.
func (o *Office) SwapBreaks(ctx context.Context, actor Actor, in SwapInput) ([]pairing.Violation, error) {
	var out []pairing.Violation
	err := o.stageTx(ctx, actor, in.StageID, func(tx *store.Store, st store.KnockoutStage) error {
		_, v, err := swapStage(ctx, tx, st, in)
		out = v
		return err
	})
	return out, err
}

func swapStage(ctx context.Context, tx *store.Store, st store.KnockoutStage, in SwapInput) (pairing.Bracket, []pairing.Violation, error) {
	if st.Status != StageDrawn || st.Kind == StageSeries {
		return pairing.Bracket{}, nil, fmt.Errorf("stage %d is %s; only a drawn, unpublished bracket can be edited: %w", st.ID, st.Status, ErrConflict)
	}
	b, req, err := stageBracket(ctx, tx, st)
	if err != nil {
		return pairing.Bracket{}, nil, err
	}
	if in.A < 0 || in.A >= len(b.Slots) || in.B < 0 || in.B >= len(b.Slots) || in.A == in.B {
		v := &ValidationError{}
		v.Add(0, "b", "knockout.err.slots", map[string]any{"Max": len(b.Slots)})
		return pairing.Bracket{}, nil, v
	}
	before, err := pairing.Check(b, req)
	if err != nil {
		return pairing.Bracket{}, nil, err
	}
	nb, after, err := pairing.Swap(b, req, in.A, in.B)
	if err != nil {
		return pairing.Bracket{}, nil, err
	}
	// A day class's final is judged by its own rules too (final_stage.go).
	fb, err := finalViolations(ctx, tx, st, b.Slots)
	if err != nil {
		return pairing.Bracket{}, nil, err
	}
	fa, err := finalViolations(ctx, tx, st, nb.Slots)
	if err != nil {
		return pairing.Bracket{}, nil, err
	}
	return nb, newViolations(append(before, fb...), append(after, fa...)), nil
}

// newViolations are those of after that before does not have: rules the
// edit breaks, not ones an earlier override already accepted.
func newViolations(before, after []pairing.Violation) []pairing.Violation {
	key := func(x pairing.Violation) string {
		ps := slices.Clone(x.Players)
		slices.Sort(ps)
		return x.Rule + "|" + strings.Join(ps, ",") + "|" + fmt.Sprint(x.Slots)
	}
	had := map[string]bool{}
	for _, x := range before {
		had[key(x)] = true
	}
	var out []pairing.Violation
	for _, x := range after {
		if !had[key(x)] {
			out = append(out, x)
		}
	}
	return out
}

// SwapSlots saves a swap. When it breaks a rule the director must give an
// override reason (pairing.RequireOverride); the swap, the broken rules and
// the reason go to the append-only audit trail.
func (o *Office) SwapSlots(ctx context.Context, actor Actor, in SwapInput) ([]pairing.Violation, error) {
	var broke []pairing.Violation
	err := o.stageTx(ctx, actor, in.StageID, func(tx *store.Store, st store.KnockoutStage) error {
		nb, v, err := swapStage(ctx, tx, st, in)
		if err != nil {
			return err
		}
		broke = v
		in.Reason = strings.TrimSpace(in.Reason)
		reason := in.Reason
		// domain rule, not a tag: a reason is needed when the swap breaks a rule.
		if err := pairing.RequireOverride(v, reason); err != nil {
			ve := &ValidationError{}
			ve.Add(0, "reason", "knockout.err.override_required", nil)
			return ve
		}
		if ve := (&ValidationError{}); !checkInput(ve, 0, in) {
			return ve
		}
		old, _ := StageSlots(st)
		st.Slots, st.Method, st.UpdatedAt = mustJSON(nb.Slots), "manual", o.now()
		if err := tx.UpdateStage(ctx, &st); err != nil {
			return err
		}
		return tx.AppendDrawLog(ctx, &store.DrawLogEntry{StageID: st.ID, Action: "swap", Reason: reason, ActorID: actor.UserID, At: o.now(),
			Detail: mustJSON(map[string]any{"a": in.A, "b": in.B, "players": []string{old[in.A], old[in.B]}, "violations": v})})
	})
	return broke, err
}

// PublishStage makes a drawn stage final and public and creates the games
// that can be played (round 1, sente by 振り駒). Decision: the stage is
// marked published, and a draft event is published with it (recorded in the
// event's status history), since the public cannot see a draft event.
func (o *Office) PublishStage(ctx context.Context, actor Actor, stageID int64) error {
	err := o.stageTx(ctx, actor, stageID, func(tx *store.Store, st store.KnockoutStage) error {
		if st.Status != StageDrawn {
			return fmt.Errorf("stage %d is %s; draw it first: %w", st.ID, st.Status, ErrConflict)
		}
		st.Status, st.UpdatedAt = StagePublished, o.now()
		if err := tx.UpdateStage(ctx, &st); err != nil {
			return err
		}
		if _, err := publishDraftEvent(ctx, tx, st.EventID, actor.UserID, o.now()); err != nil {
			return err
		}
		return tx.AppendDrawLog(ctx, &store.DrawLogEntry{StageID: st.ID, Action: "publish", ActorID: actor.UserID, At: o.now(), Detail: "{}"})
	}, StagePublishRoles...)
	if err != nil {
		return err
	}
	st, err := o.store.StageByID(ctx, stageID)
	if err != nil {
		return err
	}
	return o.SyncEventGames(ctx, st.EventID)
}

// DrawLog is a stage's audit trail (staff only).
func (o *Office) DrawLog(ctx context.Context, actor Actor, stageID int64) ([]store.DrawLogEntry, error) {
	st, err := o.store.StageByID(ctx, stageID)
	if err != nil {
		return nil, err
	}
	if err := requireStageRole(ctx, o.store, actor, st, RoleDirector, RoleScheduler, RoleArbiter, RoleRecorder); err != nil {
		return nil, err
	}
	return o.store.DrawLog(ctx, stageID)
}
