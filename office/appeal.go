package office

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"kisen/adjudication"
	"kisen/store"
)

// Appeals (異議) against a ruling: 000 第10条第8項 (D-X5: "official-game
// rulings can be appealed to the 常務会 later"), issue 24 item 5,
// docs/appeals.md. An appeal is filed by a party — entered by the event's
// staff for them — with each party's statement, a deadline from the event's
// settings (AppealDays) and the body that decides it. The decision
// supersedes the appealed ruling (upheld, replaced) or leaves it in force
// (dismissed); a decision that changes the result appends a result version
// in the same transaction, which checks the version the decider saw.

// Appeal bodies: who decides an appeal.
const (
	AppealBodyArbiter   = "arbiter"   // 立会人
	AppealBodyCouncil   = "council"   // 常務会 (000 第10条第8項)
	AppealBodyOrganiser = "organiser" // 主催者
)

// AppealBodies lists the deciding bodies in the order forms offer them.
var AppealBodies = []string{AppealBodyCouncil, AppealBodyArbiter, AppealBodyOrganiser}

// Appeal decisions.
const (
	AppealUpheld    = "upheld"    // the appeal succeeds: the ruling is taken back, the result before it restored
	AppealDismissed = "dismissed" // the appeal fails: the ruling stands
	AppealReplaced  = "replaced"  // the ruling is replaced by another outcome
)

// AppealDecisions lists the decisions in the order forms offer them.
var AppealDecisions = []string{AppealUpheld, AppealDismissed, AppealReplaced}

// AppealReplacements are the results a replacing decision may give. A
// 指し直し (ResultRedo) replays the game: the deciding body's 処置 (000
// 第10条第8項 「判断・処置し」) may order the game played again, as the rules
// replay a 千日手 or 持将棋 (第8条第4項, 第9条第7項); the replay is created
// through the one redo path (createRedoGame, D-R1) with the game's full
// allowance, since it is played on a later day (docs/appeals.md).
var AppealReplacements = []string{ResultSenteWin, ResultGoteWin, ResultBothLose, ResultRedo}

// reasonAppealDecision is the reason of a result an appeal's decision
// replaced (the decided outcome, not a rule the room applies).
const reasonAppealDecision = "appeal_decision"

// Appeal rows as the web reads them.
type (
	Appeal         = store.Appeal
	AppealDecision = store.AppealDecision
	AppealRow      = store.AppealRow
)

// AppealInput is the appeal form.
type AppealInput struct {
	RulingID        int64
	FiledBy         string // sente or gote: the party appealing
	StatementSente  string `field:"statement_sente" validate:"storable,max=4000" msg:"appeals.err,max=too_long"`
	StatementGote   string `field:"statement_gote" validate:"storable,max=4000" msg:"appeals.err,max=too_long"`
	StatementOthers string `field:"statement_others" validate:"storable,max=4000" msg:"appeals.err,max=too_long"`
	Body            string // AppealBodies
	// LateReason accepts an appeal filed after its deadline; without it a
	// late appeal is refused (docs/appeals.md).
	LateReason string `field:"late_reason" validate:"storable,max=2000" msg:"appeals.err,max=too_long"`
}

// AppealDecisionInput is the deciding body's decision.
type AppealDecisionInput struct {
	Decision    string // AppealDecisions
	Replacement string // AppealReplacements, for AppealReplaced
	Reasons     string `field:"reasons" validate:"storable,required,max=4000" msg:"appeals.err,required=reasons,max=too_long"`
	// Version is the result version the decider saw; a stale one is
	// refused with a *StaleError.
	Version int
}

// appealDeadline is the last moment an appeal against a ruling made at
// madeAt may be filed: AppealDays whole days after it.
func appealDeadline(madeAt time.Time, days int) time.Time {
	return madeAt.UTC().Add(time.Duration(days) * 24 * time.Hour)
}

// AppealDeadline is the deadline for appealing ruling r of a game of
// event eventID, from the event's settings.
func (o *Office) AppealDeadline(ctx context.Context, eventID int64, r store.RulingRow) (time.Time, error) {
	st, err := eventSettings(ctx, o.store, eventID)
	if err != nil {
		return time.Time{}, err
	}
	return appealDeadline(r.MadeAt, st.AppealDays), nil
}

// CanFileAppeal reports whether actor may enter appeals on the event's
// games (the event's directors and arbiters, administrators).
func (o *Office) CanFileAppeal(ctx context.Context, actor Actor, eventID int64) bool {
	return o.RequireEventRole(ctx, actor, eventID, ResultReviewRoles...) == nil
}

// FileAppeal records an appeal against one of the game's rulings, entered
// by the event's director or arbiter for the party who appeals. The
// filer's statement is required; an appeal after the deadline is refused
// unless a LateReason accepts it. A ruling is appealed once; a ruling
// already superseded cannot be appealed.
func (o *Office) FileAppeal(ctx context.Context, actor Actor, gameID int64, in AppealInput) (store.Appeal, error) {
	g, err := o.store.GameByID(ctx, gameID)
	if err != nil {
		return store.Appeal{}, err
	}
	if err := o.RequireEventRole(ctx, actor, g.EventID, ResultReviewRoles...); err != nil {
		return store.Appeal{}, err
	}
	v := &ValidationError{}
	in.StatementSente, in.StatementGote = strings.TrimSpace(in.StatementSente), strings.TrimSpace(in.StatementGote)
	in.StatementOthers, in.LateReason = strings.TrimSpace(in.StatementOthers), strings.TrimSpace(in.LateReason)
	checkInput(v, 0, in)
	// domain rules, not tags: a party appeals, with their own statement,
	// to one of the bodies.
	switch in.FiledBy {
	case "sente":
		if in.StatementSente == "" && v.FieldMessage("statement_sente") == "" {
			v.Add(0, "statement_sente", "appeals.err.statement_required", nil)
		}
	case "gote":
		if in.StatementGote == "" && v.FieldMessage("statement_gote") == "" {
			v.Add(0, "statement_gote", "appeals.err.statement_required", nil)
		}
	default:
		v.Add(0, "filed_by", "appeals.err.filed_by", nil)
	}
	if !slices.Contains(AppealBodies, in.Body) {
		v.Add(0, "body", "appeals.err.body", nil)
	}
	if err := v.OrNil(); err != nil {
		return store.Appeal{}, err
	}
	settings, err := eventSettings(ctx, o.store, g.EventID)
	if err != nil {
		return store.Appeal{}, err
	}
	now := o.now().UTC()
	a := store.Appeal{GameID: g.ID, RulingID: in.RulingID, FiledBy: in.FiledBy, StatementSente: in.StatementSente,
		StatementGote: in.StatementGote, StatementOthers: in.StatementOthers, Body: in.Body, LateReason: in.LateReason,
		EnteredBy: actor.UserID, FiledAt: now}
	err = o.store.Tx(ctx, func(tx *store.Store) error {
		if _, err := tx.LockGame(ctx, g.ID); err != nil {
			return err
		}
		rulings, err := tx.Rulings(ctx, g.ID)
		if err != nil {
			return err
		}
		r, ok := rulingOf(rulings, in.RulingID)
		if !ok {
			v.Add(0, "ruling", "appeals.err.ruling", nil)
			return v
		}
		if supersededBy(rulings, r.ID) != 0 {
			v.Add(0, "ruling", "appeals.err.ruling_superseded", nil)
			return v
		}
		a.DeadlineAt = appealDeadline(r.MadeAt, settings.AppealDays)
		if now.After(a.DeadlineAt) && a.LateReason == "" {
			v.Add(0, "late_reason", "appeals.err.late", map[string]any{"Days": settings.AppealDays})
			return v
		}
		if !now.After(a.DeadlineAt) {
			a.LateReason = "" // in time: nothing to override
		}
		if err := tx.AddAppeal(ctx, &a); err != nil {
			if errors.Is(err, store.ErrConflict) {
				v.Add(0, "ruling", "appeals.err.already", nil)
				return v
			}
			return err
		}
		return nil
	})
	return a, err
}

// appealDecider checks that actor may decide an appeal to body: the
// event's arbiter decides as 立会人 (the director where the event has none,
// D-K2); the 常務会's and the organiser's decisions are entered by the
// event's director or an administrator. byOrganiser marks the superseding
// ruling as not the arbiter's.
func (o *Office) appealDecider(ctx context.Context, s *store.Store, actor Actor, eventID int64, body string) (byOrganiser bool, err error) {
	if body == AppealBodyArbiter {
		return o.rulingAuthority(ctx, s, actor, eventID)
	}
	return true, requireEventRole(ctx, s, actor, eventID, RoleDirector)
}

// CanDecideAppeal reports whether actor may decide an appeal to body.
func (o *Office) CanDecideAppeal(ctx context.Context, actor Actor, eventID int64, body string) bool {
	_, err := o.appealDecider(ctx, o.store, actor, eventID, body)
	return err == nil
}

// DecideAppeal records the decision on an appeal, once. Upheld: a ruling
// supersedes the appealed one and, when that was a foul loss, the result
// becomes what it was before the foul loss (the version before it, copied
// with its facts). Replaced: a ruling supersedes the appealed one and the
// decided result is appended. Dismissed: the ruling stands. One
// transaction, with the version the decider saw (stale: *StaleError).
func (o *Office) DecideAppeal(ctx context.Context, actor Actor, gameID, appealID int64, in AppealDecisionInput) (store.AppealDecision, error) {
	g, err := o.store.GameByID(ctx, gameID)
	if err != nil {
		return store.AppealDecision{}, err
	}
	appeals, err := o.store.AppealsOfGame(ctx, g.ID)
	if err != nil {
		return store.AppealDecision{}, err
	}
	ap, ok := appealOf(appeals, appealID)
	if !ok {
		return store.AppealDecision{}, fmt.Errorf("appeal %d of game %d: %w", appealID, gameID, ErrNotFound)
	}
	byOrganiser, err := o.appealDecider(ctx, o.store, actor, g.EventID, ap.Body)
	if err != nil {
		return store.AppealDecision{}, err
	}
	v := &ValidationError{}
	in.Reasons = strings.TrimSpace(in.Reasons)
	checkInput(v, 0, in)
	// domain rules, not tags: one of the decisions; a replacement names
	// the result it gives, and only a replacement does.
	if !slices.Contains(AppealDecisions, in.Decision) {
		v.Add(0, "decision", "appeals.err.decision", nil)
	}
	if in.Decision == AppealReplaced && !slices.Contains(AppealReplacements, in.Replacement) {
		v.Add(0, "replacement", "appeals.err.replacement", nil)
	}
	if in.Decision != AppealReplaced {
		in.Replacement = ""
	}
	if err := v.OrNil(); err != nil {
		return store.AppealDecision{}, err
	}
	now := o.now().UTC()
	d := store.AppealDecision{AppealID: ap.ID, GameID: g.ID, Decision: in.Decision, Replacement: in.Replacement, Reasons: in.Reasons,
		DecidedBy: actor.UserID, DecidedAt: now}
	err = o.store.Tx(ctx, func(tx *store.Store) error {
		g, err := lockSeenVersion(ctx, tx, g.ID, in.Version)
		if err != nil {
			return err
		}
		again, err := tx.AppealsOfGame(ctx, g.ID)
		if err != nil {
			return err
		}
		if cur, _ := appealOf(again, ap.ID); cur.Decision != nil {
			v.Add(0, "decision", "appeals.err.decided", nil)
			return v
		}
		rulings, err := tx.Rulings(ctx, g.ID)
		if err != nil {
			return err
		}
		appealed, _ := rulingOf(rulings, ap.RulingID)
		if in.Decision == AppealDismissed {
			return addDecision(ctx, tx, &d, v)
		}
		if supersededBy(rulings, appealed.ID) != 0 {
			// Superseded since it was appealed (a correction): the
			// decision has nothing left to take back.
			v.Add(0, "decision", "appeals.err.ruling_superseded", nil)
			return v
		}
		// The superseding ruling: kind other, the decision's reasons, the
		// body's decision (by the organiser unless the arbiter decided).
		rid, err := tx.ReserveRulingID(ctx)
		if err != nil {
			return err
		}
		sup := appealed.ID
		ruling := store.Ruling{ID: rid, GameID: g.ID, Kind: string(adjudication.RulingOther), Reason: in.Reasons,
			ArbiterID: actor.UserID, ByOrganiser: byOrganiser, SupersedesID: &sup, MadeAt: now, EnteredVia: actor.enteredVia()}
		all := make([]adjudication.Ruling, 0, len(rulings)+1)
		for _, r := range rulings {
			all = append(all, toRuling(r))
		}
		all = append(all, toRuling(store.RulingRow{Ruling: ruling, ArbiterName: actor.DisplayName}))
		if _, err := adjudication.EffectiveRulings(all); err != nil {
			return factsError(err)
		}
		var result *store.ResultVersion
		switch {
		case in.Decision == AppealReplaced:
			if in.Replacement == ResultRedo {
				// A game already replayed (its 千日手's redo game stands)
				// is not replayed twice: decide on the replay instead.
				if redos, err := tx.RedoGames(ctx, g.ID); err != nil {
					return err
				} else if len(redos) > 0 {
					v.Add(0, "replacement", "appeals.err.replay_exists", nil)
					return v
				}
			}
			rv, err := appendAppealResult(ctx, tx, actor, g, in.Replacement, in.Reasons, now)
			if err != nil {
				return err
			}
			result = &rv
			if in.Replacement == ResultRedo {
				if err := appealReplay(ctx, tx, g, now); err != nil {
					return err
				}
			}
		case appealed.Kind == string(adjudication.RulingFoulLoss) && appealed.ResultID != nil:
			rv, err := o.restoreBefore(ctx, tx, actor, g, *appealed.ResultID, in.Reasons, now)
			if err != nil {
				return err
			}
			result = &rv
		}
		if result != nil {
			ruling.ResultID, d.ResultID = &result.ID, &result.ID
		}
		if err := tx.AddRuling(ctx, &ruling); err != nil {
			if errors.Is(err, store.ErrConflict) {
				v.Add(0, "decision", "appeals.err.ruling_superseded", nil)
				return v
			}
			return err
		}
		d.RulingID = &ruling.ID
		return addDecision(ctx, tx, &d, v)
	})
	if err != nil {
		return store.AppealDecision{}, err
	}
	return d, nil
}

func addDecision(ctx context.Context, tx *store.Store, d *store.AppealDecision, v *ValidationError) error {
	if err := tx.AddAppealDecision(ctx, d); err != nil {
		if errors.Is(err, store.ErrConflict) {
			v.Add(0, "decision", "appeals.err.decided", nil)
			return v
		}
		return err
	}
	return nil
}

// appendAppealResult appends the result an appeal's decision gave, with an
// outcome naming the article.
func appendAppealResult(ctx context.Context, tx *store.Store, actor Actor, g store.Game, result, note string, now time.Time) (store.ResultVersion, error) {
	oc := adjudication.Outcome{Result: adjudication.Result(result), Reason: reasonAppealDecision,
		Rules: []string{"D-X5", "D-K1"}, Articles: []string{"000 第10条第8項"}}
	switch result {
	case ResultSenteWin:
		w, l := adjudication.Sente, adjudication.Gote
		oc.Winner, oc.Loser = &w, &l
	case ResultGoteWin:
		w, l := adjudication.Gote, adjudication.Sente
		oc.Winner, oc.Loser = &w, &l
	}
	data, err := json.Marshal(oc)
	if err != nil {
		return store.ResultVersion{}, err
	}
	in := ResultInput{Result: result, Reason: reasonAppealDecision, Outcome: data, Note: note}
	if err := checkResult(g, in).OrNil(); err != nil {
		return store.ResultVersion{}, err
	}
	return appendResult(ctx, tx, actor, g, in, now)
}

// appealReplay creates the replay (指し直し) an appeal's decision ordered,
// inside its transaction, after the redo version was appended: through
// createRedoGame, the one path for redo games — colours swapped for an
// even game, the 上手 keeping the first move in a handicap game (D-R1) —
// and with each player's full allowance of the chain's first game: the
// replay is played on a later day, so no remaining time carries over
// (D-R2 adds nothing beyond the original allowance).
func appealReplay(ctx context.Context, tx *store.Store, g store.Game, now time.Time) error {
	settings, err := eventSettings(ctx, tx, g.EventID)
	if err != nil {
		return err
	}
	tc, err := gameTimeControl(ctx, tx, g, settings.Time)
	if err != nil {
		return err
	}
	plan, err := redoPlan(ctx, tx, g, adjudication.Times{Sente: tc.Allowance, Gote: tc.Allowance})
	if err != nil {
		return err
	}
	_, err = createRedoGame(ctx, tx, g, plan, now)
	return err
}

// restoreBefore appends, as the game's newest result version, the version
// that stood before version resultID (the one a foul-loss ruling
// produced): its result, reason and outcome, and the facts it was decided
// on when it was adjudicated, so that a later claim starts from them. When
// the foul loss was the game's first result, the game has no result
// before it: the new version is pending (foul_loss_superseded).
func (o *Office) restoreBefore(ctx context.Context, tx *store.Store, actor Actor, g store.Game, resultID int64, note string, now time.Time) (store.ResultVersion, error) {
	prev, err := versionBefore(ctx, tx, g.ID, resultID)
	if err != nil {
		return store.ResultVersion{}, err
	}
	if prev == nil {
		oc := adjudication.Outcome{Result: adjudication.Pending, Reason: reasonFoulLossSuperseded, DecidedBy: "arbiter",
			Rules: []string{"D-K1"}, Articles: []string{"000 第10条第8項"}}
		data, err := json.Marshal(oc)
		if err != nil {
			return store.ResultVersion{}, err
		}
		return appendResult(ctx, tx, actor, g, ResultInput{Result: ResultPending, Reason: reasonFoulLossSuperseded, Outcome: data, Note: note}, now)
	}
	facts, adjudicated, err := tx.GameAdjudicationOfResult(ctx, prev.ID)
	if err != nil {
		return store.ResultVersion{}, err
	}
	if adjudicated {
		// Through storeOutcome, the one path for an adjudicated outcome: the
		// facts are kept with the new version, and a restored 千日手/持将棋
		// gets its redo game again (the foul loss made the first one void).
		ag, err := adjudication.ParseGame([]byte(facts.Facts))
		if err != nil {
			return store.ResultVersion{}, fmt.Errorf("stored facts of result %d: %w", prev.ID, err)
		}
		var oc adjudication.Outcome
		if err := json.Unmarshal([]byte(prev.Outcome), &oc); err != nil {
			return store.ResultVersion{}, fmt.Errorf("stored outcome of result %d: %w", prev.ID, err)
		}
		e, err := o.storeOutcome(ctx, tx, actor, g, Adjudicated{Game: ag, Outcome: oc, RecordID: facts.RecordID}, note)
		return e.Result, err
	}
	in := ResultInput{Result: prev.Result, Reason: prev.Reason, Outcome: json.RawMessage(prev.Outcome), Note: note}
	if err := checkResult(g, in).OrNil(); err != nil {
		return store.ResultVersion{}, err
	}
	return appendResult(ctx, tx, actor, g, in, now)
}

// versionBefore is the result version stored just before version resultID
// of the game (nil when resultID was its first).
func versionBefore(ctx context.Context, tx *store.Store, gameID, resultID int64) (*store.ResultVersion, error) {
	hist, err := tx.ResultHistory(ctx, gameID)
	if err != nil {
		return nil, err
	}
	for i, h := range hist {
		if h.ID == resultID && i > 0 {
			return &hist[i-1], nil
		}
	}
	return nil, nil
}

// AppealsOfGame lists a game's appeals with their decisions, for an actor
// who may see the game (404 otherwise, like the game).
func (o *Office) AppealsOfGame(ctx context.Context, actor Actor, gameID int64) ([]store.AppealRow, error) {
	if _, _, err := o.Game(ctx, actor, gameID); err != nil {
		return nil, err
	}
	return o.store.AppealsOfGame(ctx, gameID)
}

// GameAppeals lists the appeals of a game the web has already read
// through Game (the game page's ruling log links them): one statement
// more for the page, two when it has any.
func (o *Office) GameAppeals(ctx context.Context, gameID int64) ([]store.AppealRow, error) {
	return o.store.AppealsOfGame(ctx, gameID)
}

// AppealCase is one appeal as its page and its document read it: the
// game, the ruling appealed and the ruling that decided it, the appeal
// with its decision, the result before the ruling, the result the ruling
// gave and the result in force now, in the players' names.
type AppealCase struct {
	Game   store.Game
	Event  store.Event
	Sente  string
	Gote   string
	Appeal store.AppealRow
	// Ruling is the ruling appealed; Decision the ruling that superseded
	// it by the decision (nil while undecided or when dismissed).
	Ruling         store.RulingRow
	DecisionRuling *store.RulingRow
	// Before is the result version before the appealed ruling's (nil when
	// the ruling gave none, or the game had none before it); RulingResult
	// the one the ruling gave; Resulting the one the decision gave; Now
	// the newest version.
	Before, RulingResult, Resulting, Now *store.ResultVersion
	// Version is the newest result version's number (0: none), for the
	// decision form's stale check.
	Version int
}

// AppealCaseOf reads one appeal for an actor who may see its game (404
// otherwise, and for an appeal of another game). A fixed number of
// statements whatever the game's history.
func (o *Office) AppealCaseOf(ctx context.Context, actor Actor, gameID, appealID int64) (AppealCase, error) {
	g, e, err := o.Game(ctx, actor, gameID)
	if err != nil {
		return AppealCase{}, err
	}
	appeals, err := o.store.AppealsOfGame(ctx, g.ID)
	if err != nil {
		return AppealCase{}, err
	}
	ap, ok := appealOf(appeals, appealID)
	if !ok {
		return AppealCase{}, fmt.Errorf("appeal %d of game %d: %w", appealID, gameID, ErrNotFound)
	}
	c := AppealCase{Game: g, Event: e, Appeal: ap}
	rulings, err := o.store.Rulings(ctx, g.ID)
	if err != nil {
		return c, err
	}
	c.Ruling, _ = rulingOf(rulings, ap.RulingID)
	if ap.Decision != nil && ap.Decision.RulingID != nil {
		if r, ok := rulingOf(rulings, *ap.Decision.RulingID); ok {
			c.DecisionRuling = &r
		}
	}
	hist, err := o.store.ResultHistory(ctx, g.ID)
	if err != nil {
		return c, err
	}
	for i := range hist {
		h := &hist[i]
		if c.Ruling.ResultID != nil && h.ID == *c.Ruling.ResultID {
			c.RulingResult = h
			if i > 0 {
				c.Before = &hist[i-1]
			}
		}
		if ap.Decision != nil && ap.Decision.ResultID != nil && h.ID == *ap.Decision.ResultID {
			c.Resulting = h
		}
	}
	if n := len(hist); n > 0 {
		c.Now, c.Version = &hist[n-1], hist[n-1].Version
	}
	ids := []int64{}
	for _, id := range []*int64{g.SentePlayerID, g.GotePlayerID} {
		if id != nil {
			ids = append(ids, *id)
		}
	}
	players, err := o.store.PlayersByIDs(ctx, ids)
	if err != nil {
		return c, err
	}
	for _, p := range players {
		if g.SentePlayerID != nil && p.ID == *g.SentePlayerID {
			c.Sente = p.Name
		}
		if g.GotePlayerID != nil && p.ID == *g.GotePlayerID {
			c.Gote = p.Name
		}
	}
	return c, nil
}

func rulingOf(rs []store.RulingRow, id int64) (store.RulingRow, bool) {
	for _, r := range rs {
		if r.ID == id {
			return r, true
		}
	}
	return store.RulingRow{}, false
}

func supersededBy(rs []store.RulingRow, id int64) int64 {
	for _, r := range rs {
		if r.SupersedesID != nil && *r.SupersedesID == id {
			return r.ID
		}
	}
	return 0
}

func appealOf(as []store.AppealRow, id int64) (store.AppealRow, bool) {
	for _, a := range as {
		if a.ID == id {
			return a, true
		}
	}
	return store.AppealRow{}, false
}
