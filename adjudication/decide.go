package adjudication

import (
	"cmp"
	"fmt"
	"slices"
)

// Decide is the outcome of one finished game under the organiser's
// settings. Bad settings or facts give an error naming the field
// (errors.Is(err, ErrInvalid)); Decide never panics on input.
//
// Precedence, from the strongest; each step can only be overridden by the
// ones above it:
//
//  1. 不戦 (forfeit): no game was played, so nothing else applies.
//  2. A foul loss declared by the arbiter (a foul_loss ruling in force or
//     the ending arbiter_foul_loss; D-K1, 000 第11条第5項六). Players must
//     follow it (第11条第8項); an appeal is a superseding ruling.
//  3. A foul found during the game (D-X2, 000 第10条第2項): the game is
//     wound back to the earliest foul and its offender loses, whatever
//     happened after it.
//  4. The ending, checked against the record, which is authoritative:
//     checkmate on the board, a 4th occurrence at the last move (perpetual
//     check loses, D-S4), and the 500-move rule (D-J4) override what was
//     reported; then resignation, time, 千日手 by agreement, 持将棋, or a
//     declaration judged from the position (D-J1..J3).
//  5. Fouls found after the game, including the record's illegal moves
//     nobody noticed (D-X3): the earliest offender loses whatever the
//     result, unless 投了優先 is set or the next game had started; 待った
//     and time forfeit cannot be claimed any more (D-X4).
//  6. A redo (no result) becomes the next redo game (D-R1..R3), unless the
//     event's repeated-redo policy applies (D-R4).
func Decide(s Settings, f Facts) (Outcome, error) {
	if err := s.Validate(); err != nil {
		return Outcome{}, prefixed("settings", err)
	}
	if err := f.Validate(); err != nil {
		return Outcome{}, err
	}
	eff, err := EffectiveRulings(f.Rulings)
	if err != nil {
		return Outcome{}, err
	}
	d := &decider{s: s, f: f, rec: f.Findings, rulings: eff}
	d.end = f.Ending.Ply
	if d.rec != nil {
		d.end = d.rec.Plies
		if m := d.rec.MaxMovesPly; m > 0 && m < d.end {
			d.end = m
		}
	}
	o, err := d.decide()
	if err != nil {
		return Outcome{}, err
	}
	if o.Rules == nil {
		o.Rules = []string{}
	}
	return o, nil
}

type decider struct {
	s       Settings
	f       Facts
	rec     *Findings
	rulings []Ruling
	// end is the last ply the game legally reached: the record's length,
	// or the 500-move rule's ply when that came first.
	end int
}

// foulEvent is a foul from any source, on one timeline.
type foulEvent struct {
	claim       int // index in Facts.Fouls; -1 the record; -2 the reported ending
	kind        FoulKind
	offender    Side
	ply         int // 0: unknown
	disputed    bool
	nextStarted bool
}

const (
	fromRecord = -1
	fromEnding = -2
)

// at is the ply the foul counts from: an unknown ply is the game's end.
func (e foulEvent) at(end int) int {
	if e.ply > 0 {
		return e.ply
	}
	if end > 0 {
		return end
	}
	return maxPlies + 1
}

func (d *decider) decide() (Outcome, error) {
	var o Outcome
	during, after, err := d.sortClaims(&o)
	if err != nil {
		return o, err
	}
	// 1. 不戦.
	if d.f.Ending.Kind == EndForfeit {
		return d.forfeit(o)
	}
	// 2. The arbiter's foul loss.
	if done, err := d.arbiterFoulLoss(&o); err != nil || done {
		d.finish(&o)
		return o, err
	}
	// 3. A foul found during the game.
	if d.f.Ending.Kind == EndFoul {
		evs, err := d.endingFoulEvents()
		if err != nil {
			return o, err
		}
		during = append(during, evs...)
	} else {
		after = append(after, d.recordFoulEvents()...)
	}
	decided := false
	if len(during) > 0 {
		ev, err := d.earliest(during)
		if err != nil {
			return o, err
		}
		d.foulLoss(&o, ev, ReasonFoul)
		o.cite("D-X2", "000 第10条第2項")
		decided = true
	}
	// 4. The ending.
	if !decided {
		if err := d.judgeEnding(&o); err != nil {
			return o, err
		}
	}
	// 5. Fouls found after the game.
	if o.Result != Pending {
		if err := d.afterGame(&o, after); err != nil {
			return o, err
		}
	}
	// 6. Redo games.
	if err := d.redo(&o); err != nil {
		return o, err
	}
	d.finish(&o)
	return o, nil
}

func (d *decider) finish(o *Outcome) {
	o.MatchComplete = o.Result != Redo && o.Result != Pending
	// A title's rules may count a 持将棋 as a game (000 第9条第9項); a
	// 千日手 is never one (000 第8条第7項 names no exception).
	o.CountsAsGame = o.Result != Redo || (d.s.RedoCountsAsGame && o.Reason != ReasonSennichite)
	if o.Result == Redo {
		switch {
		case o.Reason == ReasonSennichite:
			o.cite("D-R3", "000 第8条第7項")
		case d.s.RedoCountsAsGame:
			o.cite("D-R3", "000 第9条第9項")
		default:
			o.cite("D-R3", "001 第6条4")
		}
	}
}

// sortClaims splits the foul claims into fouls found during and after the
// game, turning clock-hand claims into warnings where the organiser says
// so and rejecting what is never a foul.
func (d *decider) sortClaims(o *Outcome) (during, after []foulEvent, err error) {
	for i, c := range d.f.Fouls {
		field := fmt.Sprintf("fouls[%d]", i)
		if d.rec != nil && c.Ply > d.rec.Plies {
			return nil, nil, fieldErr(field+".ply", "%d is after the record's last move (%d)", c.Ply, d.rec.Plies)
		}
		if d.rec == nil && d.f.Ending.Ply > 0 && c.Ply > d.f.Ending.Ply {
			return nil, nil, fieldErr(field+".ply", "%d is after the game's last move (ending.ply %d)", c.Ply, d.f.Ending.Ply)
		}
		if d.recordDenies(c) {
			o.Rejected = append(o.Rejected, Rejection{Claim: i, Kind: c.Kind, Code: "record_shows_no_foul",
				Message: "the record shows no such foul at that move; the record is authoritative", Rule: "D-K3", Article: "000 第12条第2項"})
			o.cite("D-K3", "000 第12条第2項")
			continue
		}
		if c.ClaimedBy == ClaimByThirdParty {
			// 000 第10条第9項 allows it in official games; amateur events
			// are silent, and a true foul is a foul whoever saw it.
			o.cite("D-X5", "000 第10条第9項")
		}
		switch c.Kind {
		case FoulNoCheckCall:
			o.Rejected = append(o.Rejected, Rejection{Claim: i, Kind: c.Kind, Code: "not_a_foul",
				Message: "not announcing 王手 is never a foul", Rule: "D-X6", Article: "004"})
			o.cite("D-X6", "004")
			continue
		case FoulClockHand:
			if d.s.ClockHand == ClockHandWarningThenLoss {
				msg := "press the clock with the hand that moved; a warning is due"
				if c.PriorWarnings > 0 {
					msg = "repeated after a warning: the arbiter may declare a foul loss"
				}
				o.Warnings = append(o.Warnings, Warning{Side: *c.Offender, Kind: c.Kind, Message: msg})
				o.cite("D-X6", "000 第10条第12項")
				continue
			}
		}
		ev := foulEvent{claim: i, kind: c.Kind, offender: *c.Offender, ply: c.Ply,
			disputed: c.Disputed, nextStarted: c.NextGameStarted || d.f.NextGameStarted}
		if c.Found == FoundDuring {
			during = append(during, ev)
		} else {
			after = append(after, ev)
		}
	}
	return during, after, nil
}

// recordDenies reports a claimed foul the record can judge and does not
// show: an illegal move or a perpetual check at a move the rules engine
// checked (or, with no ply given, anywhere in a record checked to the end).
func (d *decider) recordDenies(c FoulClaim) bool {
	if d.rec == nil {
		return false
	}
	checked := d.rec.checkedPlies()
	if c.Ply > checked || (c.Ply == 0 && !d.rec.Complete) {
		return false
	}
	matches := func(ply int) bool { return c.Ply == 0 || c.Ply == ply }
	switch c.Kind {
	case FoulNifu, FoulDeadPiece, FoulUchifuzume, FoulIgnoredCheck, FoulIllegalMovement, FoulIllegalPromotion, FoulWrongSide:
		return d.rec.Foul == nil || !matches(d.rec.Foul.Ply)
	case FoulPerpetualCheck:
		for _, s := range d.rec.Sennichite {
			if s.Perpetual && matches(s.Ply) {
				return false
			}
		}
		return true
	}
	return false
}

func (d *decider) forfeit(o Outcome) (Outcome, error) {
	if len(d.f.Fouls) > 0 {
		return o, fieldErr("fouls", "a forfeited game (不戦) was not played, so it has no fouls")
	}
	for _, r := range d.rulings {
		if r.Kind == RulingFoulLoss {
			return o, fieldErr("rulings", "ruling %q declares a foul loss in a game that was not played (不戦)", r.ID)
		}
	}
	e := d.f.Ending
	// The seeds do not cover absence; the event's own rules do (000 第1条
	// 第2項 lets organisers add rules): the absent player loses.
	o.cite("", "000 第1条第2項")
	if e.BothAbsent {
		o.Result, o.Reason = BothLose, ReasonDoubleForfeit
	} else {
		o.lose(*e.By, ReasonForfeit, 0)
	}
	d.finish(&o)
	return o, nil
}

// arbiterFoulLoss applies step 2; done reports that it decided the game.
func (d *decider) arbiterFoulLoss(o *Outcome) (bool, error) {
	var against []Side
	byOrganiser := false
	for _, r := range d.rulings {
		if r.Kind == RulingFoulLoss {
			if !slices.Contains(against, *r.Player) {
				against = append(against, *r.Player)
			}
			byOrganiser = byOrganiser || r.ByOrganiser
		}
	}
	for _, r := range d.f.Rulings {
		if r.Kind == RulingFoulLoss && !slices.ContainsFunc(d.rulings, func(x Ruling) bool { return x.ID == r.ID }) {
			o.note("ruling_superseded", fmt.Sprintf("the foul loss of ruling %q is no longer in force: a later ruling superseded it", r.ID))
			o.cite("D-K1", "000 第10条第8項")
		}
	}
	e := d.f.Ending
	if e.Kind == EndArbiterFoulLoss {
		if e.By == nil && len(against) == 0 {
			return false, fieldErr("ending.by", "an arbiter's foul loss names the offender (or include the foul_loss ruling)")
		}
		if e.By != nil && !slices.Contains(against, *e.By) {
			against = append(against, *e.By)
		}
	}
	switch len(against) {
	case 0:
		return false, nil
	case 2:
		return false, fieldErr("rulings", "foul losses are in force against both sente and gote; an appeal or correction must supersede one (D-K1)")
	}
	o.lose(against[0], ReasonArbiterFoulLoss, d.end)
	o.cite("D-K1", "000 第11条第5項六")
	if byOrganiser {
		o.cite("D-K2", "000 第11条第10項")
	}
	for i := range d.f.Fouls {
		o.Rejected = append(o.Rejected, Rejection{Claim: i, Kind: d.f.Fouls[i].Kind, Code: "arbiter_ruled",
			Message: "the arbiter's ruling decides the game", Rule: "D-K1", Article: "000 第11条第8項"})
	}
	return true, nil
}

// endingFoulEvents are the fouls behind an ending "foul": what the record
// shows and what was reported.
func (d *decider) endingFoulEvents() ([]foulEvent, error) {
	evs := d.recordFoulEvents()
	e := d.f.Ending
	if e.By != nil {
		evs = append(evs, foulEvent{claim: fromEnding, kind: e.Foul, offender: *e.By})
	}
	if len(evs) == 0 {
		return nil, fieldErr("ending.by", "name the offender of the foul (the record shows none)")
	}
	return evs, nil
}

// recordFoulEvents are the record's fouls up to the game's legal end: the
// first illegal move and every perpetual-check 千日手.
func (d *decider) recordFoulEvents() []foulEvent {
	if d.rec == nil {
		return nil
	}
	var evs []foulEvent
	if f := d.rec.Foul; f != nil && f.Ply <= d.end {
		evs = append(evs, foulEvent{claim: fromRecord, kind: f.Kind, offender: f.Offender, ply: f.Ply, nextStarted: d.f.NextGameStarted})
	}
	for _, s := range d.rec.Sennichite {
		if s.Perpetual && s.Ply <= d.end {
			evs = append(evs, foulEvent{claim: fromRecord, kind: FoulPerpetualCheck, offender: *s.Loser, ply: s.Ply, nextStarted: d.f.NextGameStarted})
		}
	}
	return evs
}

// earliest is the foul that counts: the first on the timeline. At the same
// ply the record beats a report; two reports against different sides at
// the same ply cannot be ordered.
func (d *decider) earliest(evs []foulEvent) (foulEvent, error) {
	evs = slices.Clone(evs)
	slices.SortStableFunc(evs, func(a, b foulEvent) int {
		if c := cmp.Compare(a.at(d.end), b.at(d.end)); c != 0 {
			return c
		}
		return cmp.Compare(sourceRank(a), sourceRank(b))
	})
	first := evs[0]
	for _, ev := range evs[1:] {
		if ev.at(d.end) != first.at(d.end) {
			break
		}
		if ev.offender != first.offender && first.claim != fromRecord && ev.claim != fromRecord {
			return first, fieldErr("fouls", "fouls by sente and gote both count from ply %d; give each foul's ply so the earlier decides (D-X2)", first.at(d.end))
		}
	}
	return first, nil
}

// sourceRank orders fouls at the same ply: the record, then the claims in
// their order, then the reported ending.
func sourceRank(e foulEvent) int {
	switch e.claim {
	case fromRecord:
		return -1
	case fromEnding:
		return maxPlies
	}
	return e.claim
}

// foulLoss makes ev's offender lose, citing the foul.
func (d *decider) foulLoss(o *Outcome, ev foulEvent, reason Reason) {
	if ev.disputed {
		o.Result, o.Winner, o.Loser = Pending, nil, nil
		o.Reason, o.DecidedBy, o.Ply = ReasonDisputedFoul, "arbiter", ev.at(d.end)
		o.Foul = ev.kind
		o.cite("D-X5", "000 第10条第7項")
		return
	}
	ply := ev.ply
	if ply == 0 {
		ply = d.end
	}
	o.lose(ev.offender, reason, ply)
	o.Foul = ev.kind
	switch ev.kind {
	case "":
	case FoulClockHand:
		o.cite("D-X6", ev.kind.Article())
	case FoulPerpetualCheck:
		o.cite("D-X1", ev.kind.Article())
		o.cite("D-S4", "000 第10条第10項")
	default:
		o.cite("D-X1", ev.kind.Article())
	}
}

func (d *decider) overridden(o *Outcome, what string) {
	o.note("record_overrides_report", fmt.Sprintf("reported %s, but the record shows otherwise; the record is authoritative", what))
}

// judgeEnding is step 4.
func (d *decider) judgeEnding(o *Outcome) error {
	e := d.f.Ending
	rec := d.rec
	complete := rec != nil && rec.Complete
	if rec != nil {
		maxPly := rec.MaxMovesPly
		// Mate ends the game at once (000 第6条第1項).
		if complete && rec.Mate && (maxPly == 0 || rec.Plies <= maxPly) {
			mated := rec.SideToMove
			reason := ReasonCheckmate
			switch {
			case e.Kind == EndResign && *e.By == mated:
				reason = ReasonResignation
			case e.Kind == EndMate && (e.By == nil || *e.By == mated):
			default:
				d.overridden(o, string(e.Kind))
			}
			o.lose(mated, reason, rec.Plies)
			o.cite("", "000 第6条第1項")
			o.cite("", "000 第2条第4項")
			return nil
		}
		// A 4th occurrence at the last move ends the game as 千日手.
		if n := len(rec.Sennichite); n > 0 && rec.Sennichite[n-1].Ply == d.end {
			last := rec.Sennichite[n-1]
			o.cite("D-S1", "000 第8条第1項")
			if last.Perpetual {
				if e.Kind != EndSennichite || (e.PerpetualCheckBy != nil && *e.PerpetualCheckBy != *last.Loser) {
					d.overridden(o, string(e.Kind))
				}
				o.lose(*last.Loser, ReasonPerpetualCheck, last.Ply)
				o.Foul = FoulPerpetualCheck
				o.cite("D-S4", "000 第10条第10項")
				o.cite("D-X1", FoulPerpetualCheck.Article())
				return nil
			}
			if e.Kind != EndSennichite || e.PerpetualCheckBy != nil {
				d.overridden(o, string(e.Kind))
			}
			o.redo(ReasonSennichite, last.Ply)
			o.cite("", "000 第8条第4項")
			return nil
		}
		// Move 500: 持将棋 whatever the points (D-J4).
		if maxPly > 0 {
			if e.Kind != EndMaxMoves {
				d.overridden(o, string(e.Kind))
			}
			o.redo(ReasonMaxMoves, maxPly)
			o.cite("D-J4", "000 第9条第6項")
			return nil
		}
	}
	switch e.Kind {
	case EndResign:
		o.lose(*e.By, ReasonResignation, d.end)
		o.cite("", "000 第6条第1項")
	case EndMate:
		if complete {
			return fieldErr("ending.kind", "mate, but the record's final position is not checkmate")
		}
		if e.By == nil {
			return fieldErr("ending.by", "name the side that was mated (or give the record)")
		}
		o.lose(*e.By, ReasonCheckmate, d.end)
		o.cite("", "000 第6条第1項")
		o.cite("", "000 第2条第4項")
	case EndTimeForfeit:
		o.lose(*e.By, ReasonTimeForfeit, d.end)
		o.Foul = FoulTimeForfeit
		o.cite("D-X1", FoulTimeForfeit.Article())
		if d.s.Time.Timing == Stopwatch {
			o.cite("D-T1", "001 第4条A2")
		} else {
			o.cite("D-T2", "001 第4条B")
		}
		if d.s.Time.Byoyomi != ByoyomiNone {
			o.cite("D-T3", "001 第5条")
		}
	case EndSennichite:
		return d.sennichite(o, complete)
	case EndJishogiAgreement:
		var pts Points
		switch {
		case complete && rec.Points != nil:
			pts = *rec.Points
			if err := pts.validate(); err != nil {
				// A record from a custom start may lack pieces.
				return prefixed("findings.points", err)
			}
			if d.f.Points != nil && *d.f.Points != pts {
				o.note("record_overrides_report", fmt.Sprintf("reported points %d–%d, the record's final position counts %d–%d", d.f.Points.Sente, d.f.Points.Gote, pts.Sente, pts.Gote))
			}
		case d.f.Points != nil:
			pts = *d.f.Points
		default:
			return fieldErr("points", "持将棋 by agreement needs both sides' points (or a complete record)")
		}
		j := JishogiAgreement(d.s, pts)
		o.Result, o.Winner, o.Loser, o.Reason, o.Points, o.Ply = j.Result, j.Winner, j.Loser, j.Reason, j.Points, d.end
		for _, r := range j.Rules {
			o.cite(r, "")
		}
		for _, a := range j.Articles {
			o.cite("", a)
		}
	case EndDeclaration:
		return d.declaration(o, complete)
	case EndMaxMoves:
		if rec != nil {
			return fieldErr("ending.kind", "max_moves, but the record (%d moves) never reaches the 500-move rule (D-J4)", rec.Plies)
		}
		if e.Ply < maxMovesLimit {
			return fieldErr("ending.ply", "%d: the 500-move rule needs at least %d moves (D-J4)", e.Ply, maxMovesLimit)
		}
		o.redo(ReasonMaxMoves, e.Ply)
		o.cite("D-J4", "000 第9条第6項")
	default:
		// forfeit, foul and arbiter_foul_loss were settled by steps 1–3.
		return fieldErr("ending.kind", "%s could not be settled from the facts given", e.Kind)
	}
	return nil
}

func (d *decider) sennichite(o *Outcome, complete bool) error {
	e := d.f.Ending
	if complete {
		if d.rec.FinalOccurrences < 2 {
			return fieldErr("ending.kind", "sennichite, but the record's final position has occurred only once: 千日手 needs a 4th occurrence, or an agreement inside a repeating cycle (D-S1, D-S2)")
		}
		if e.PerpetualCheckBy != nil {
			d.overridden(o, "perpetual check")
		}
		// Fewer than four occurrences: the players agreed inside the cycle.
		o.redo(ReasonSennichite, d.end)
		o.cite("D-S2", "000 第8条第2項")
		o.cite("", "000 第8条第4項")
		return nil
	}
	o.cite("D-S1", "000 第8条第1項")
	if e.PerpetualCheckBy != nil {
		o.lose(*e.PerpetualCheckBy, ReasonPerpetualCheck, d.end)
		o.Foul = FoulPerpetualCheck
		o.cite("D-S4", "000 第10条第10項")
		o.cite("D-X1", FoulPerpetualCheck.Article())
		return nil
	}
	o.redo(ReasonSennichite, d.end)
	o.cite("", "000 第8条第4項")
	return nil
}

func (d *decider) declaration(o *Outcome, complete bool) error {
	e := d.f.Ending
	if d.s.Declaration == DeclarationNone {
		return fieldErr("ending.kind", "declaration, but settings.declaration is none (the event has no 入玉宣言法)")
	}
	declarer := *e.By
	var facts DeclarationFacts
	switch {
	case complete && d.rec.Declaration != nil:
		if d.rec.SideToMove != declarer {
			return fieldErr("ending.by", "%s declared, but the record has %s to move; one declares on one's own turn (D-J3)", declarer, d.rec.SideToMove)
		}
		facts = *d.rec.Declaration
	case d.f.Declaration != nil:
		facts = *d.f.Declaration
	default:
		return fieldErr("declaration", "a declaration is judged on the declarer's king_in_camp, pieces_in_camp, points and in_check (or a complete record)")
	}
	timeLeft := e.TimeLeft == nil || *e.TimeLeft
	v := JudgeDeclaration(d.s.Declaration, declarer, facts, d.end, timeLeft)
	switch v.Result {
	case "win":
		o.lose(declarer.Opponent(), ReasonDeclarationWin, d.end)
	case "redo":
		o.redo(ReasonDeclarationRedo, d.end)
	default:
		o.lose(declarer, ReasonDeclarationFail, d.end)
		o.FailedConditions = v.Failed
	}
	o.DeclaredPoints = &v.Points
	if d.s.Declaration == Declaration27 {
		o.cite("D-J3", "004")
	} else {
		o.cite("D-J3", "000 第9条第5項")
		o.cite("", "001 第6条B2")
	}
	return nil
}

// afterGame is step 5.
func (d *decider) afterGame(o *Outcome, evs []foulEvent) error {
	slices.SortStableFunc(evs, func(a, b foulEvent) int { return cmp.Compare(a.at(d.end), b.at(d.end)) })
	reject := func(ev foulEvent, code, msg, rule, article string) {
		o.Rejected = append(o.Rejected, Rejection{Claim: max(ev.claim, fromRecord), Kind: ev.kind, Code: code, Message: msg, Rule: rule, Article: article})
		o.cite(rule, article)
	}
	var live []foulEvent
	for _, ev := range evs {
		switch {
		case ev.kind == FoulPerpetualCheck && ev.claim == fromRecord && o.Reason == ReasonPerpetualCheck && ev.ply == o.Ply:
			continue // the ending itself
		case !ev.kind.claimableAfterGame():
			reject(ev, "not_claimable_after_game", "待った and time forfeit cannot be pointed out after the game", "D-X4", "000 第10条第6項")
		case o.Ply > 0 && ev.ply > o.Ply:
			reject(ev, "after_decision", fmt.Sprintf("made at ply %d, after the game was decided at ply %d", ev.ply, o.Ply), "D-X2", "000 第10条第2項")
		case d.s.ResignationPriority:
			reject(ev, "resignation_priority", "the event applies 投了優先: the result at the end stands", "D-X3", "000 第10条第4項")
		case ev.nextStarted:
			reject(ev, "next_game_started", "found after the event's next game had begun: the result at the end stands", "D-X3", "000 第10条第5項")
		default:
			live = append(live, ev)
		}
	}
	if len(live) == 0 {
		return nil
	}
	ev, err := d.earliest(live)
	if err != nil {
		return err
	}
	before := o.Reason
	d.foulLoss(o, ev, ReasonFoulAfterGame)
	o.cite("D-X3", "000 第10条第3項")
	if before != "" {
		o.note("result_overturned", fmt.Sprintf("the result at the end (%s) gives way to the foul found after the game", before))
	}
	return nil
}

// redo is step 6.
func (d *decider) redo(o *Outcome) error {
	if o.Result != Redo {
		return nil
	}
	if rr := d.s.RepeatedRedo; rr.Then != RedoAgain && d.f.RedoCount >= rr.After {
		o.note("redo_limit", fmt.Sprintf("%d redo games already played; the event's policy after %d is %s", d.f.RedoCount, rr.After, rr.Then))
		o.cite("D-R4", "000 第8条第5項")
		switch rr.Then {
		case RedoGoteWins:
			o.lose(Sente, ReasonRedoLimitGote, o.Ply)
		case RedoFurigoma:
			o.Result, o.Reason, o.DecidedBy = Pending, ReasonRedoLimitToss, "furigoma"
		default:
			o.Result, o.Reason, o.DecidedBy = Pending, ReasonRedoLimitArbiter, "arbiter"
		}
		return nil
	}
	g, err := NextRedo(d.s, d.f.Players, d.f.Handicap, d.f.Remaining, d.f.RedoCount)
	if err != nil {
		return err
	}
	o.Redo = &g
	switch o.Reason {
	case ReasonSennichite:
		o.cite("D-R1", "000 第8条第4項")
	default:
		o.cite("D-R1", "000 第9条第7項")
	}
	o.cite("", "001 第6条")
	if d.f.Remaining != nil {
		o.cite("D-R2", "001 第6条1")
	} else {
		o.note("no_remaining_times", "the remaining times were not given, so the redo game's allowance is not set (D-R2)")
	}
	if d.f.RedoCount > 0 {
		if o.Reason == ReasonSennichite {
			o.cite("D-R3", "000 第8条第6項")
		} else {
			o.cite("D-R3", "000 第9条第8項")
		}
	}
	return nil
}
