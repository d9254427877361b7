package office

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	"kisen/adjudication"
	"kisen/store"
)

// RulingInput is the ruling form (D-K1, 000 第11条第5項).
type RulingInput struct {
	Kind   string `field:"kind" validate:"enum=ruling_kind" msg:"adjudication.err,enum=ruling_kind"` // adjudication.RulingKind
	Player string // sente, gote or "" (required for time, caution, warning, foul loss)
	// DeltaMinutes is the time added (positive) or removed (negative) by a
	// time_adjust ruling.
	DeltaMinutes string
	Reason       string `field:"reason" validate:"storable,required,max=2000" msg:"adjudication.err,required=ruling_reason"`
	// Supersedes is the id of the ruling this one replaces (an appeal or a
	// correction); 0 for none.
	Supersedes int64
	// Version is the result version the person saw. It is checked when
	// the ruling changes the result (a foul loss, or one superseding a
	// foul loss); a stale one is refused with a *StaleError (issue 11).
	Version int
}

// toRuling is the room's view of a stored ruling; ids are strings there.
func toRuling(r store.RulingRow) adjudication.Ruling {
	out := adjudication.Ruling{
		ID: strconv.FormatInt(r.ID, 10), GameID: strconv.FormatInt(r.GameID, 10),
		Kind: adjudication.RulingKind(r.Kind), At: r.MadeAt.UTC(),
		Arbiter:     adjudication.Player{ID: strconv.FormatInt(r.ArbiterID, 10), Name: r.ArbiterName},
		ByOrganiser: r.ByOrganiser, Delta: adjudication.Duration(time.Duration(r.DeltaS) * time.Second),
		Reason: r.Reason,
	}
	if r.Player != "" {
		if s, err := adjudication.ParseSide(r.Player); err == nil {
			out.Player = &s
		}
	}
	if r.SupersedesID != nil {
		out.Supersedes = strconv.FormatInt(*r.SupersedesID, 10)
	}
	return out
}

func gameRulings(ctx context.Context, s *store.Store, gameID int64) ([]adjudication.Ruling, error) {
	rows, err := s.Rulings(ctx, gameID)
	if err != nil {
		return nil, err
	}
	out := make([]adjudication.Ruling, len(rows))
	for i, r := range rows {
		out[i] = toRuling(r)
	}
	return out, nil
}

// Rulings lists a game's rulings in the order they were made (public, like
// the game page).
func (o *Office) Rulings(ctx context.Context, gameID int64) ([]store.RulingRow, error) {
	return o.store.Rulings(ctx, gameID)
}

// rulingAuthority says whether actor may rule on the event's games: as its
// arbiter (立会人), or — when the event has no arbiter — as its director or
// an administrator, the organiser's delegate (D-K2, 000 第11条第10項).
func (o *Office) rulingAuthority(ctx context.Context, s *store.Store, actor Actor, eventID int64) (byOrganiser bool, err error) {
	if err := actor.RequireUser(); err != nil {
		return false, hiddenOrForbidden(ctx, s, actor, eventID, err)
	}
	if actor.Token != nil { // a rulings token acts as the event's arbiter
		return false, requireEventRole(ctx, s, actor, eventID, RoleArbiter)
	}
	isArbiter, err := s.HasEventRole(ctx, eventID, actor.UserID, RoleArbiter)
	if err != nil || isArbiter {
		return false, err
	}
	roles, err := s.EventRoles(ctx, eventID)
	if err != nil {
		return false, err
	}
	for _, r := range roles {
		if r.Role == RoleArbiter {
			return false, hiddenOrForbidden(ctx, s, actor, eventID,
				errors.Join(ErrForbidden, errors.New("the event has an arbiter; only the arbiter rules (D-K2)")))
		}
	}
	if err := requireEventRole(ctx, s, actor, eventID, RoleDirector); err != nil {
		return false, err
	}
	return true, nil
}

// AddRuling records an arbiter's ruling on a game, append-only; an appeal
// or correction supersedes an earlier ruling (D-K1). A foul-loss ruling —
// or one that supersedes a foul loss — decides the game again and appends
// the result version it gives. One transaction.
func (o *Office) AddRuling(ctx context.Context, actor Actor, gameID int64, in RulingInput) (store.Ruling, *Ended, error) {
	g, err := o.store.GameByID(ctx, gameID)
	if err != nil {
		return store.Ruling{}, nil, err
	}
	byOrganiser, err := o.rulingAuthority(ctx, o.store, actor, g.EventID)
	if err != nil {
		return store.Ruling{}, nil, err
	}
	v := &ValidationError{}
	in.Reason = strings.TrimSpace(in.Reason)
	row := store.Ruling{GameID: g.ID, Kind: in.Kind, Player: in.Player, Reason: in.Reason,
		ArbiterID: actor.UserID, ByOrganiser: byOrganiser, MadeAt: o.now().UTC(), EnteredVia: actor.enteredVia()}
	kind := adjudication.RulingKind(in.Kind)
	checkInput(v, 0, in)
	// domain rule, not a tag: who a ruling names and the time it moves
	// depend on its kind (D-K1).
	side := parseSide("player", in.Player, v)
	switch kind {
	case adjudication.RulingTimeAdjust, adjudication.RulingCaution, adjudication.RulingWarning, adjudication.RulingFoulLoss:
		if side == nil && v.FieldMessage("player") == "" {
			v.Add(0, "player", "adjudication.err.ruling_player", nil)
		}
	}
	if d := strings.TrimSpace(in.DeltaMinutes); d != "" || kind == adjudication.RulingTimeAdjust {
		n, err := strconv.Atoi(strings.TrimPrefix(d, "+"))
		switch {
		case kind != adjudication.RulingTimeAdjust:
			v.Add(0, "delta", "adjudication.err.delta_only_time", nil)
		case err != nil || n == 0 || n < -48*60 || n > 48*60:
			v.Add(0, "delta", "adjudication.err.delta", nil)
		default:
			row.DeltaS = n * 60
		}
	}
	if err := v.OrNil(); err != nil {
		return store.Ruling{}, nil, err
	}
	if in.Supersedes != 0 {
		row.SupersedesID = &in.Supersedes
	}
	var ended *Ended
	err = o.store.Tx(ctx, func(tx *store.Store) error {
		if _, err := tx.LockGame(ctx, g.ID); err != nil {
			return err
		}
		existing, err := tx.Rulings(ctx, g.ID)
		if err != nil {
			return err
		}
		supersedesFoulLoss := false
		if in.Supersedes != 0 {
			found := false
			for _, r := range existing {
				if r.ID == in.Supersedes {
					found, supersedesFoulLoss = true, r.Kind == string(adjudication.RulingFoulLoss)
				}
			}
			if !found {
				v.Add(0, "supersedes", "adjudication.err.supersedes_missing", nil)
				return v
			}
		}
		if kind == adjudication.RulingFoulLoss || supersedesFoulLoss {
			// The ruling decides the game again: the one version check.
			if g, err = lockSeenVersion(ctx, tx, g.ID, in.Version); err != nil {
				return err
			}
		}
		// Rulings are append-only in the database: the row is written last,
		// whole, with the result version it produced; the decision before
		// it already names it by its reserved id.
		if row.ID, err = tx.ReserveRulingID(ctx); err != nil {
			return err
		}
		// The room checks the whole log: every ruling valid, superseding
		// only an earlier ruling of this game, once, without cycles.
		all := make([]adjudication.Ruling, 0, len(existing)+1)
		for _, r := range existing {
			all = append(all, toRuling(r))
		}
		all = append(all, toRuling(store.RulingRow{Ruling: row, ArbiterName: actor.DisplayName}))
		if _, err := adjudication.EffectiveRulings(all); err != nil {
			return factsError(err)
		}
		if kind == adjudication.RulingFoulLoss || supersedesFoulLoss {
			e, err := o.decideAfterRuling(ctx, tx, actor, g, in.Reason, all)
			if err != nil {
				return err
			}
			ended, row.ResultID = &e, &e.Result.ID
		}
		if err := tx.AddRuling(ctx, &row); err != nil {
			if errors.Is(err, store.ErrConflict) {
				v.Add(0, "supersedes", "adjudication.err.supersedes_twice", nil)
				return v
			}
			return err
		}
		return logTokenUse(ctx, tx, actor, "ruling", g.ID, row.MadeAt)
	})
	if err != nil {
		return store.Ruling{}, nil, err
	}
	return row, ended, nil
}

// decideAfterRuling re-decides a game with its rulings in force: from the
// last adjudication's facts when the game was adjudicated, otherwise as an
// arbiter's foul loss (D-K1, 000 第11条第5項六). rulings is the game's
// whole log with the new ruling, which is not stored yet.
func (o *Office) decideAfterRuling(ctx context.Context, tx *store.Store, actor Actor, g store.Game, note string, rulings []adjudication.Ruling) (Ended, error) {
	ag, recordID, err := o.redecideBase(ctx, tx, g)
	var ve *ValidationError
	if errors.As(err, &ve) {
		// Not adjudicated before: the game ends with the foul loss.
		ag, recordID, err = o.adjudicationBase(ctx, tx, g)
		ag.Ending = adjudication.Ending{Kind: adjudication.EndArbiterFoulLoss}
	}
	if err != nil {
		return Ended{}, err
	}
	// In the order the store lists them (made_at, then id: the new one last).
	ag.Rulings = slices.Clone(rulings)
	slices.SortStableFunc(ag.Rulings, func(a, b adjudication.Ruling) int { return a.At.Compare(b.At) })
	if ag.Ending.Kind == adjudication.EndArbiterFoulLoss && ag.Ending.By == nil && !foulLossInForce(ag.Rulings) {
		// The game ended only by a foul loss that an appeal has now
		// superseded: its result is the one before the foul loss
		// (000 第10条第8項; issue 24 item 5), or none when it had none.
		if resultID, err := supersededFoulLossResult(ctx, tx, g, rulings); err != nil {
			return Ended{}, err
		} else if resultID != 0 {
			if prev, err := versionBefore(ctx, tx, g.ID, resultID); err != nil {
				return Ended{}, err
			} else if prev != nil {
				rv, err := o.restoreBefore(ctx, tx, actor, g, resultID, note, o.now().UTC())
				return Ended{Result: rv}, err
			}
		}
		oc := adjudication.Outcome{Result: adjudication.Pending, Reason: reasonFoulLossSuperseded, DecidedBy: "arbiter",
			Rules: []string{"D-K1"}, Articles: []string{"000 第10条第8項"}}
		return o.storeOutcome(ctx, tx, actor, g, Adjudicated{Game: ag, Outcome: oc, RecordID: recordID}, note)
	}
	parsed, oc, findings, err := decide(ag)
	if err != nil {
		return Ended{}, factsError(err)
	}
	return o.storeOutcome(ctx, tx, actor, g, Adjudicated{Game: parsed, Outcome: oc, Findings: findings, RecordID: recordID}, note)
}

// supersededFoulLossResult is the result version produced by the
// foul-loss ruling that the newest ruling of rulings (the last, not yet
// stored) supersedes; 0 when it supersedes none or one without a result.
func supersededFoulLossResult(ctx context.Context, tx *store.Store, g store.Game, rulings []adjudication.Ruling) (int64, error) {
	if len(rulings) == 0 {
		return 0, nil
	}
	sup, err := strconv.ParseInt(rulings[len(rulings)-1].Supersedes, 10, 64)
	if err != nil {
		return 0, nil // supersedes nothing
	}
	rows, err := tx.Rulings(ctx, g.ID)
	if err != nil {
		return 0, err
	}
	if r, ok := rulingOf(rows, sup); ok && r.Kind == string(adjudication.RulingFoulLoss) && r.ResultID != nil {
		return *r.ResultID, nil
	}
	return 0, nil
}

// foulLossInForce reports whether a foul-loss ruling is in force.
func foulLossInForce(rs []adjudication.Ruling) bool {
	eff, err := adjudication.EffectiveRulings(rs)
	if err != nil {
		return false
	}
	for _, r := range eff {
		if r.Kind == adjudication.RulingFoulLoss {
			return true
		}
	}
	return false
}

// CanRule reports whether actor may record rulings on the event's games
// (for showing the ruling form; AddRuling checks again).
func (o *Office) CanRule(ctx context.Context, actor Actor, eventID int64) bool {
	_, err := o.rulingAuthority(ctx, o.store, actor, eventID)
	return err == nil
}
