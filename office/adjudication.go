package office

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"kisen/adjudication"
	"kisen/adjudication/analysis"
	"kisen/store"
)

// EndInput is how a game ended, as the arbiter or recorder reports it.
// Strings are form values; empty optional fields are left out.
type EndInput struct {
	Kind       string `field:"kind" validate:"required" msg:"previews.err,required=kind_required"` // adjudication.EndingKind
	By         string // "sente", "gote" or ""
	BothAbsent bool   // a forfeit where neither player came
	Foul       string // the foul, for kind foul
	// NoTimeLeft: the declarer's clock had run out (D-J3 condition 5 of
	// the 27-point declaration).
	NoTimeLeft bool
	// PointsSente/PointsGote: jishogi points agreed at the board, used
	// when there is no record to count them from.
	PointsSente, PointsGote string
	// RemainingSente/RemainingGote: minutes left on each clock; when empty
	// they come from the record's move times (D-R2).
	RemainingSente string `field:"remaining_sente" validate:"omitempty,intrange=0~2880" msg:"adjudication.err"`
	RemainingGote  string `field:"remaining_gote" validate:"omitempty,intrange=0~2880" msg:"adjudication.err"`
	Note           string
	// Version is the result version the person saw (0: not ended yet);
	// a stale one is refused with a *StaleError (issue 11).
	Version int
}

// Adjudicated is one run of the adjudication room over a game.
type Adjudicated struct {
	// Game is the JSON input the room decided (settings, facts, record).
	Game     adjudication.Game
	Outcome  adjudication.Outcome
	Findings *adjudication.Findings
	RecordID *int64
}

// Ended is what ending a game (or a later claim or ruling) stored.
type Ended struct {
	Adjudicated
	Result store.ResultVersion
	// Redo is the redo game created for a 千日手/持将棋, if any.
	Redo *store.Game
}

// decide runs the same path as `kisen adjudicate`: the game as JSON →
// adjudication.ParseGame → analysis.Read → Game.Decide.
func decide(g adjudication.Game) (adjudication.Game, adjudication.Outcome, *adjudication.Findings, error) {
	data, err := json.Marshal(g)
	if err != nil {
		return g, adjudication.Outcome{}, nil, err
	}
	parsed, err := adjudication.ParseGame(data)
	if err != nil {
		return g, adjudication.Outcome{}, nil, err
	}
	r, err := analysis.Read(parsed)
	if err != nil {
		return parsed, adjudication.Outcome{}, nil, err
	}
	o, err := parsed.Decide(r)
	if parsed.Remaining == nil && r.Remaining != nil {
		// Keep the clocks the record gave with the facts, as Decide used them.
		parsed.Remaining = r.Remaining
	}
	return parsed, o, r.Findings, err
}

// adjudicationBase is a game's settings, players, handicap, redo count,
// latest record and rulings: the facts every decision starts from.
func (o *Office) adjudicationBase(ctx context.Context, s *store.Store, g store.Game) (adjudication.Game, *int64, error) {
	settings, err := eventSettings(ctx, s, g.EventID)
	if err != nil {
		return adjudication.Game{}, nil, err
	}
	if g.SentePlayerID == nil || g.GotePlayerID == nil {
		v := &ValidationError{}
		v.Add(0, "", "games.err.no_players", nil)
		return adjudication.Game{}, nil, v
	}
	var players adjudication.Players
	for _, p := range []struct {
		id  int64
		out *adjudication.Player
	}{{*g.SentePlayerID, &players.Sente}, {*g.GotePlayerID, &players.Gote}} {
		pl, err := s.PlayerByID(ctx, p.id)
		if err != nil {
			return adjudication.Game{}, nil, err
		}
		*p.out = adjudication.Player{ID: strconv.FormatInt(pl.ID, 10), Name: pl.Name}
	}
	if settings.Time, err = gameTimeControl(ctx, s, g, settings.Time); err != nil {
		return adjudication.Game{}, nil, err
	}
	ag := adjudication.Game{Settings: settings.Settings}
	ag.GameID = strconv.FormatInt(g.ID, 10)
	ag.Players = players
	if g.Handicap != "平手" {
		ag.Handicap = g.Handicap
	}
	ag.RedoCount = g.RedoNumber
	if ag.Rulings, err = gameRulings(ctx, s, g.ID); err != nil {
		return adjudication.Game{}, nil, err
	}
	var recordID *int64
	if rec, ok, err := s.LatestGameRecord(ctx, g.ID); err != nil {
		return adjudication.Game{}, nil, err
	} else if ok {
		ag.Record, ag.Format = rec.Text, rec.Format
		recordID = &rec.ID
	}
	return ag, recordID, nil
}

func parseSide(field, s string, v *ValidationError) *adjudication.Side {
	if s == "" {
		return nil
	}
	side, err := adjudication.ParseSide(s)
	if err != nil {
		v.Add(0, field, "adjudication.err.side", nil)
		return nil
	}
	return &side
}

// parseMinutes reads minutes a tag (intrange) has checked; ok is false
// when none were given or the tag refused them.
func parseMinutes(field, s string, v *ValidationError) (adjudication.Duration, bool) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || v.FieldMessage(field) != "" {
		return 0, false
	}
	return adjudication.Duration(time.Duration(n) * time.Minute), true
}

// endFacts turns the end form into the facts' ending, points and times.
func endFacts(ag *adjudication.Game, in EndInput) *ValidationError {
	v := &ValidationError{}
	// How the game ended is always chosen (issue 13): never inferred from
	// the record's last word behind the person's back.
	in.Kind = strings.TrimSpace(in.Kind)
	in.RemainingSente, in.RemainingGote = strings.TrimSpace(in.RemainingSente), strings.TrimSpace(in.RemainingGote)
	checkInput(v, 0, in)
	// domain rule, not a tag: sides, points and minutes typed as text are
	// read by the parse that gives the room its values.
	e := adjudication.Ending{Kind: adjudication.EndingKind(in.Kind), By: parseSide("by", in.By, v), BothAbsent: in.BothAbsent}
	if in.Foul != "" {
		e.Foul = adjudication.FoulKind(in.Foul)
	}
	if e.Kind == adjudication.EndDeclaration {
		left := !in.NoTimeLeft
		e.TimeLeft = &left
	}
	ag.Ending = e
	ps, gs := strings.TrimSpace(in.PointsSente), strings.TrimSpace(in.PointsGote)
	if ps != "" || gs != "" {
		a, errA := strconv.Atoi(ps)
		b, errB := strconv.Atoi(gs)
		if errA != nil || errB != nil {
			v.Add(0, "points_sente", "adjudication.err.points", nil)
		} else {
			ag.Points = &adjudication.Points{Sente: a, Gote: b}
		}
	}
	rs, okS := parseMinutes("remaining_sente", in.RemainingSente, v)
	rg, okG := parseMinutes("remaining_gote", in.RemainingGote, v)
	switch {
	case okS && okG:
		ag.Remaining = &adjudication.Times{Sente: rs, Gote: rg}
	case okS != okG && len(v.Fields) == 0:
		v.Add(0, "remaining_sente", "adjudication.err.remaining_both", nil)
	}
	return v
}

// PreviewEnd computes the outcome of ending a game as reported, saving
// nothing (directors, arbiters, recorders).
func (o *Office) PreviewEnd(ctx context.Context, actor Actor, gameID int64, in EndInput) (Adjudicated, error) {
	g, err := o.store.GameByID(ctx, gameID)
	if err != nil {
		return Adjudicated{}, err
	}
	if err := o.RequireEventRole(ctx, actor, g.EventID, ResultEntryRoles...); err != nil {
		return Adjudicated{}, err
	}
	return o.adjudicateEnd(ctx, o.store, g, in)
}

func (o *Office) adjudicateEnd(ctx context.Context, s *store.Store, g store.Game, in EndInput) (Adjudicated, error) {
	ag, recordID, err := o.adjudicationBase(ctx, s, g)
	if err != nil {
		return Adjudicated{}, err
	}
	if err := endFacts(&ag, in).OrNil(); err != nil {
		return Adjudicated{}, err
	}
	parsed, out, findings, err := decide(ag)
	if err != nil {
		return Adjudicated{}, factsError(err)
	}
	a := Adjudicated{Game: parsed, Outcome: out, Findings: findings, RecordID: recordID}
	if out.Redo != nil && out.Redo.Allowance == nil {
		// A 持将棋 its 番勝負 counts as a game makes no redo game (000 第9条
		// 第9項), so it needs no clocks.
		if counted, err := countedInSeries(ctx, s, g, string(out.Reason)); err != nil || counted {
			return a, err
		}
		// D-R2: the redo game's time comes from each side's remaining
		// time; without it the redo game cannot be set up.
		v := &ValidationError{}
		v.Add(0, "remaining_sente", "adjudication.err.remaining_required", nil)
		return a, v
	}
	return a, nil
}

// EndGame decides how a game ended with the event's settings and its
// stored record, and stores the outcome as a new result version (with the
// facts it was decided on). A 千日手 or 持将棋 that is replayed creates the
// redo game at once: sides as adjudication gives them (swapped for an even
// game, D-R1) and each side's time by D-R2. One transaction.
func (o *Office) EndGame(ctx context.Context, actor Actor, gameID int64, in EndInput) (Ended, error) {
	g, err := o.store.GameByID(ctx, gameID)
	if err != nil {
		return Ended{}, err
	}
	if err := o.RequireEventRole(ctx, actor, g.EventID, ResultEntryRoles...); err != nil {
		return Ended{}, err
	}
	var out Ended
	err = o.store.Tx(ctx, func(tx *store.Store) error {
		g, err := lockSeenVersion(ctx, tx, gameID, in.Version)
		if err != nil {
			return err
		}
		a, err := o.adjudicateEnd(ctx, tx, g, in)
		if err != nil {
			return err
		}
		out, err = o.storeOutcome(ctx, tx, actor, g, a, in.Note)
		return err
	})
	return out, err
}

// storeOutcome appends the outcome as a result version, keeps the facts,
// and creates the redo game when one is due and not yet there.
func (o *Office) storeOutcome(ctx context.Context, tx *store.Store, actor Actor, g store.Game, a Adjudicated, note string) (Ended, error) {
	out := Ended{Adjudicated: a}
	outcome, err := json.Marshal(a.Outcome)
	if err != nil {
		return out, err
	}
	in := ResultInput{Result: string(a.Outcome.Result), Reason: string(a.Outcome.Reason), Outcome: outcome, Note: strings.TrimSpace(note)}
	if err := checkResult(g, in).OrNil(); err != nil {
		return out, err
	}
	now := o.now().UTC()
	if out.Result, err = appendResult(ctx, tx, actor, g, in, now); err != nil {
		return out, err
	}
	facts := a.Game
	facts.Record, facts.Format = "", "" // the record is kept in game_records
	data, err := json.Marshal(facts)
	if err != nil {
		return out, err
	}
	if err := tx.AddGameAdjudication(ctx, &store.GameAdjudication{GameID: g.ID, ResultID: out.Result.ID, RecordID: a.RecordID, Facts: string(data), CreatedAt: now}); err != nil {
		return out, err
	}
	if a.Outcome.Redo == nil || a.Outcome.Redo.Allowance == nil {
		return out, nil
	}
	if redos, err := tx.RedoGames(ctx, g.ID); err != nil {
		return out, err
	} else if len(redos) > 0 {
		return out, nil // an earlier version already created it
	}
	if counted, err := countedInSeries(ctx, tx, g, string(a.Outcome.Reason)); err != nil {
		return out, err
	} else if counted {
		return out, nil // a game of the 番勝負: the next game follows, no redo (000 第9条第9項)
	}
	redo, err := createRedoGame(ctx, tx, g, *a.Outcome.Redo, now)
	if err != nil {
		return out, err
	}
	out.Redo = &redo
	return out, nil
}

// FoulClaimInput is a foul pointed out (D-X2..X5).
type FoulClaimInput struct {
	Kind     string // adjudication.FoulKind
	Offender string // sente or gote
	Ply      string `field:"ply" validate:"omitempty,intrange=1~100000" msg:"adjudication.err"` // the move it was made at; "" when unknown
	Found    string `field:"found" validate:"enum=found" msg:"adjudication.err,enum=found"`     // during or after
	// ClaimedBy: opponent, third_party, arbiter or recorder (D-X5).
	ClaimedBy string
	// NextGame overrides whether the event's next game had begun when
	// the foul came to light (D-X3, 000 第10条第5項: the result then
	// stands): NextGameAsFound ("", derived from the event's games as of
	// the claim), NextGameStarted or NextGameNotStarted. An override needs
	// NextGameReason; the ruling log keeps which it was and why.
	NextGame       string
	NextGameReason string `field:"next_game_reason" validate:"storable,max=2000" msg:"adjudication.err"`
	Disputed       bool
	Note           string
	// Version is the result version the person saw; a stale one is
	// refused with a *StaleError (issue 11).
	Version int
}

// ClaimFoul re-decides a game that has ended with one more foul claim and
// appends the outcome as a new result version that supersedes the last
// (D-X3, D-X4; 投了優先 from the event's settings). Directors and arbiters.
func (o *Office) ClaimFoul(ctx context.Context, actor Actor, gameID int64, in FoulClaimInput) (Ended, error) {
	g, err := o.store.GameByID(ctx, gameID)
	if err != nil {
		return Ended{}, err
	}
	if err := o.RequireEventRole(ctx, actor, g.EventID, ResultReviewRoles...); err != nil {
		return Ended{}, err
	}
	v := &ValidationError{}
	in.Ply = strings.TrimSpace(in.Ply)
	claim := adjudication.FoulClaim{Kind: adjudication.FoulKind(in.Kind), Offender: parseSide("offender", in.Offender, v),
		Found: adjudication.Found(in.Found), ClaimedBy: adjudication.Claimant(in.ClaimedBy), Disputed: in.Disputed}
	// domain rule, not a tag: a foul the rules name, a side, a move number.
	if !claim.Kind.Valid() {
		v.Add(0, "foul", "adjudication.err.end_foul", nil)
	}
	if claim.Offender == nil && v.FieldMessage("offender") == "" {
		v.Add(0, "offender", "adjudication.err.side", nil)
	}
	nextGameInput(&in, v)
	checkInput(v, 0, in)
	claim.Ply, _ = strconv.Atoi(in.Ply)
	if err := v.OrNil(); err != nil {
		return Ended{}, err
	}
	var out Ended
	err = o.store.Tx(ctx, func(tx *store.Store) error {
		g, err := lockSeenVersion(ctx, tx, gameID, in.Version)
		if err != nil {
			return err
		}
		ag, recordID, err := o.redecideBase(ctx, tx, g)
		if err != nil {
			return err
		}
		if err := settleNextGame(ctx, tx, g, in, &claim, o.now()); err != nil {
			return err
		}
		ag.Fouls = append(ag.Fouls, claim)
		parsed, oc, findings, err := decide(ag)
		if err != nil {
			return factsError(err)
		}
		out, err = o.storeOutcome(ctx, tx, actor, g, Adjudicated{Game: parsed, Outcome: oc, Findings: findings, RecordID: recordID}, in.Note)
		return err
	})
	return out, err
}

// redecideBase is the facts of the game's last adjudication with today's
// record and rulings, ready for one more claim or ruling.
func (o *Office) redecideBase(ctx context.Context, tx *store.Store, g store.Game) (adjudication.Game, *int64, error) {
	last, ok, err := tx.LatestGameAdjudication(ctx, g.ID)
	if err != nil {
		return adjudication.Game{}, nil, err
	}
	if !ok {
		v := &ValidationError{}
		v.Add(0, "", "adjudication.err.not_ended", nil)
		return adjudication.Game{}, nil, v
	}
	base, recordID, err := o.adjudicationBase(ctx, tx, g)
	if err != nil {
		return adjudication.Game{}, nil, err
	}
	prev, err := adjudication.ParseGame([]byte(last.Facts))
	if err != nil {
		return adjudication.Game{}, nil, fmt.Errorf("stored facts of game %d: %w", g.ID, err)
	}
	// The reported ending, clocks, points and earlier claims stand; the
	// settings, record and rulings are today's.
	base.Ending, base.Remaining, base.Points, base.Declaration = prev.Ending, prev.Remaining, prev.Points, prev.Declaration
	base.Fouls, base.NextGameStarted = prev.Fouls, prev.NextGameStarted
	return base, recordID, nil
}

// LastAdjudication is the outcome and facts of the game's latest
// adjudicated result version; ok is false when it has none.
func (o *Office) LastAdjudication(ctx context.Context, gameID int64) (adjudication.Game, adjudication.Outcome, bool, error) {
	last, ok, err := o.store.LatestGameAdjudication(ctx, gameID)
	if err != nil || !ok {
		return adjudication.Game{}, adjudication.Outcome{}, false, err
	}
	g, err := adjudication.ParseGame([]byte(last.Facts))
	if err != nil {
		return adjudication.Game{}, adjudication.Outcome{}, false, fmt.Errorf("stored facts of game %d: %w", gameID, err)
	}
	rv, err := o.store.GameResultByID(ctx, last.ResultID)
	if err != nil {
		return g, adjudication.Outcome{}, false, err
	}
	var oc adjudication.Outcome
	if err := json.Unmarshal([]byte(rv.Outcome), &oc); err != nil {
		return g, oc, false, fmt.Errorf("stored outcome of result %d: %w", rv.ID, err)
	}
	return g, oc, true, nil
}

// gameTimeControl is the event's time control with the allowance the
// game's chain actually started with: a game may be given its own
// allowance, and a redo game's clocks start from the remaining time, while
// D-R2's "never beyond the original allowance" means the first game's
// (001 第6条1).
func gameTimeControl(ctx context.Context, s *store.Store, g store.Game, tc adjudication.TimeControl) (adjudication.TimeControl, error) {
	root := g
	for range 1000 { // a longer chain is corrupt data
		if root.RedoOfID == nil {
			break
		}
		parent, err := s.GameByID(ctx, *root.RedoOfID)
		if err != nil {
			return tc, err
		}
		root = parent
	}
	if root.SenteAllowanceS > 0 && root.SenteAllowanceS == root.GoteAllowanceS {
		cand := tc
		cand.Allowance = adjudication.Duration(time.Duration(root.SenteAllowanceS) * time.Second)
		if cand.Validate() == nil { // e.g. a stopwatch counts whole minutes only
			tc = cand
		}
	}
	return tc, nil
}
