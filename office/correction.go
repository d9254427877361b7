package office

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"kisen/pairing"
	"kisen/store"
)

// Corrections that change who advanced (issue 11). An edited result, a foul
// claim that reverses one, or a withdrawal can leave later bracket games
// (created when the old winner was known) with the wrong players. Every
// write that moves a bracket on goes through syncKnockout; its first step,
// correctKnockout, compares each existing bracket game with who the bracket
// now says plays there. Games that no longer match are "affected": the
// write is refused (CorrectionNeeded) unless the caller gave a reason and,
// when an affected game has a confirmed result, chose to void them
// (WithCorrection). With that consent the affected games (and their redo
// chains) are marked void in the same transaction, keeping their rows and
// history, and syncKnockout creates the right games in their slots.

// Correction kinds, kept on corrections.kind.
const (
	CorrectionResult     = "result"     // a new result version (RecordResult, EndGame)
	CorrectionClaim      = "claim"      // a foul claim (ClaimFoul)
	CorrectionWithdrawal = "withdrawal" // WithdrawEntrant, or a withdrawal result
)

// CorrectionConsent is what the person saving a correction agreed to.
type CorrectionConsent struct {
	Kind    string // one of the Correction… kinds
	Reason  string // required whenever later games are affected
	Void    bool   // void later games that have a confirmed result
	GameID  int64  // the corrected game, if any
	StageID int64  // the stage of a withdrawal, if any
	actor   int64  // who saves it (WithCorrection)
	preview bool   // PreviewCorrection: report and roll back
}

type correctionKey struct{}

// WithCorrection returns ctx carrying actor's consent for the writes made
// with it: a write that affects later games is saved (voiding them) only
// with a non-empty reason, and with Void when one of them has a confirmed
// result.
func WithCorrection(ctx context.Context, actor Actor, c CorrectionConsent) context.Context {
	c.actor = actor.UserID
	return context.WithValue(ctx, correctionKey{}, c)
}

func correctionOf(ctx context.Context) (CorrectionConsent, bool) {
	c, ok := ctx.Value(correctionKey{}).(CorrectionConsent)
	return c, ok
}

// AffectedGame is one existing later game that a correction would void.
type AffectedGame struct {
	StageID   int64
	StageName string
	// Stage is the game's stage as it stands: the page names the game's
	// round from its size (web GameLabel, issue 24 item 3).
	Stage       KnockoutStage
	BracketGame string // R2-G1, 3P, S5
	Round       int    // 0 for a series game
	GameID      int64  // the chain's first game
	Label       string
	ChainIDs    []int64  // the first game and its redo games (D-R3)
	Now         [2]int64 // sente and gote of the chain's first game
	After       [2]int64 // who the bracket now says plays there (0: nobody yet, or a walkover)
	AfterStatus string   // pairing's status of the slot after the change (pending, ready, walkover, empty, gone)
	Result      string   // the chain's newest result ("" when none)
	HasResult   bool
	Confirmed   bool // the chain's deciding result is confirmed
}

// CorrectionNeeded refuses a write that affects later games without the
// consent it needs. It unwraps to ErrConflict.
type CorrectionNeeded struct {
	Affected      []AffectedGame
	MissingReason bool
	MissingVoid   bool // an affected game has a confirmed result and voiding was not chosen
}

func (e *CorrectionNeeded) Error() string {
	var ids []string
	for _, a := range e.Affected {
		ids = append(ids, a.Label)
	}
	return fmt.Sprintf("correction affects later games %s (reason missing: %v, void not chosen: %v)", strings.Join(ids, ", "), e.MissingReason, e.MissingVoid)
}

func (e *CorrectionNeeded) Unwrap() error { return ErrConflict }

// NeedsVoid reports whether an affected game has a confirmed result.
func (e *CorrectionNeeded) NeedsVoid() bool {
	for _, a := range e.Affected {
		if a.Confirmed {
			return true
		}
	}
	return false
}

// previewDone carries PreviewCorrection's findings out of the transaction
// it rolls back.
type previewDone struct{ affected []AffectedGame }

func (previewDone) Error() string { return "correction preview (rolled back)" }

// correctKnockout is syncKnockout's first step (see the file comment).
func correctKnockout(ctx context.Context, s *store.Store, e store.Event, now time.Time) error {
	consent, has := correctionOf(ctx)
	var affected []AffectedGame
	var err error
	switch e.Kind {
	case EventKnockout, EventTitleMatch:
		affected, err = knockoutAffected(ctx, s, e)
	case EventLeague, EventJunisenTerm:
		affected, err = leagueAffected(ctx, s, e, now) // playoff games (correction_league.go)
	}
	if err != nil {
		return err
	}
	if has && consent.preview {
		return previewDone{affected: affected}
	}
	if len(affected) == 0 {
		return nil
	}
	if has {
		if v := (&ValidationError{}); !checkReason(v, "correction_reason", optionalReason{strings.TrimSpace(consent.Reason)}) {
			return v
		}
	}
	need := &CorrectionNeeded{Affected: affected}
	need.MissingReason = !has || strings.TrimSpace(consent.Reason) == ""
	need.MissingVoid = need.NeedsVoid() && (!has || !consent.Void)
	if need.MissingReason || need.MissingVoid {
		return need
	}
	return voidAffected(ctx, s, e, consent, affected, now)
}

// voidAffected records the correction and marks every game of each
// affected chain void (append-only; the rows and their results stay).
func voidAffected(ctx context.Context, s *store.Store, e store.Event, consent CorrectionConsent, affected []AffectedGame, now time.Time) error {
	actor := consent.actor
	c := store.Correction{EventID: e.ID, Kind: consent.Kind, Reason: strings.TrimSpace(consent.Reason), VoidChosen: consent.Void, ActorID: actor, At: now}
	if c.Kind == "" {
		c.Kind = CorrectionResult
	}
	var resultID int64
	if consent.GameID != 0 {
		id := consent.GameID
		c.GameID = &id
		if rv, ok, err := s.LatestResult(ctx, id); err != nil {
			return err
		} else if ok {
			resultID = rv.ID
		}
	}
	if consent.StageID != 0 {
		id := consent.StageID
		c.StageID = &id
	}
	if err := s.AddCorrection(ctx, &c); err != nil {
		return err
	}
	for _, a := range affected {
		for _, gid := range a.ChainIDs {
			if _, void, err := s.GameVoidOf(ctx, gid); err != nil {
				return err
			} else if void {
				continue
			}
			cid := c.ID
			if err := s.VoidGame(ctx, &store.GameVoid{GameID: gid, ResultID: resultID, VoidedBy: actor, VoidedAt: now, CorrectionID: &cid}); err != nil {
				return err
			}
		}
	}
	return nil
}

// stageState is one published stage as the detection reads it.
type stageState struct {
	st        store.KnockoutStage
	slots     []string
	withdrawn []string
	kgs       []store.KnockoutGame
	chains    map[string]chainResult
	rounds    map[string]int // bracket game → round (3P: the final's)
	last      int            // number of rounds
}

// knockoutAffected lists the existing bracket games of e whose players no
// longer match the bracket. It walks the stages in order and each stage
// round by round: the results that count for round r are those of earlier
// rounds' games that still match, so a game whose players changed neither
// feeds a wrong winner on nor stops the bracket from being computed.
func knockoutAffected(ctx context.Context, s *store.Store, e store.Event) ([]AffectedGame, error) {
	all, err := s.StagesOfEvent(ctx, e.ID)
	if err != nil {
		return nil, err
	}
	var states, series []*stageState
	var affected []AffectedGame
	gs, err := s.GameSetOfEvent(ctx, e.ID)
	if err != nil {
		return nil, err
	}
	for _, st := range all {
		if st.Status != StagePublished {
			continue
		}
		ss := &stageState{st: st, chains: map[string]chainResult{}, rounds: map[string]int{}}
		es, err := s.EntrantsOfStage(ctx, st.ID)
		if err != nil {
			return nil, err
		}
		for _, en := range es {
			if en.Withdrawn {
				ss.withdrawn = append(ss.withdrawn, entrantID(en.PlayerID))
			}
		}
		if ss.kgs, err = s.KnockoutGamesOfStage(ctx, st.ID); err != nil {
			return nil, err
		}
		for _, kg := range ss.kgs {
			c, err := readChain(gs, kg)
			if err != nil {
				return nil, err
			}
			ss.chains[kg.BracketGame] = c
		}
		if st.Kind == StageSeries {
			if ss.slots, err = StageSlots(st); err != nil {
				return nil, err
			}
			series = append(series, ss) // after the stages before it: its challenger comes from them
			continue
		}
		if ss.slots, err = StageSlots(st); err != nil {
			return nil, err
		}
		states = append(states, ss)
	}
	// seriesDone checks the 番勝負 stages once the knockout's games are
	// judged: a series after a 本戦 plays the 本戦's winner as the stages
	// stand with only the games that still match (issue 24 item 2).
	seriesDone := func(known map[string]string) ([]AffectedGame, error) {
		for _, ss := range series {
			a, err := seriesAffected(ctx, s, ss, fillQualifiers(ss.slots, known))
			if err != nil {
				return nil, err
			}
			affected = append(affected, a...)
		}
		return affected, nil
	}
	if len(states) == 0 {
		return seriesDone(nil)
	}
	valid := map[*stageState]map[string]bool{}
	for _, ss := range states {
		valid[ss] = map[string]bool{}
	}
	// runs builds pairing's input with the results that count: every valid
	// game of stages before k, valid games of stage k before round r.
	runs := func(k, r int) []pairing.StageRun {
		var out []pairing.StageRun
		for i, ss := range states {
			run := pairing.StageRun{Name: stageName(ss.st.ID), Withdrawn: append([]string(nil), ss.withdrawn...),
				Bracket: pairing.Bracket{Stage: pairing.Stage(ss.st.Kind), Size: len(ss.slots), Slots: ss.slots, ThirdPlace: ss.st.ThirdPlace, Consolation: ss.st.Consolation, Qualifiers: ss.st.Qualifiers}}
			for _, kg := range ss.kgs {
				if i > k || !valid[ss][kg.BracketGame] || i == k && ss.rounds[kg.BracketGame] >= r || isGroupGame(kg.BracketGame) {
					continue
				}
				c := ss.chains[kg.BracketGame]
				if !c.decided {
					continue
				}
				if r, won, gone := c.outcome(kg.BracketGame); won {
					run.Results = append(run.Results, r)
				} else {
					run.Withdrawn = append(run.Withdrawn, gone...)
				}
			}
			out = append(out, run)
		}
		return out
	}
	for k, ss := range states {
		p, err := advanceChains(runs(k, 0))
		if err != nil {
			return nil, fmt.Errorf("event %d brackets: %w", e.ID, err)
		}
		prog := p[k].Progress
		ss.last = len(prog.Rounds)
		for _, round := range prog.Rounds {
			for _, g := range round {
				ss.rounds[g.ID] = g.Round
			}
		}
		if prog.ThirdPlace != nil {
			ss.rounds[prog.ThirdPlace.ID] = ss.last
		}
		// The 交流戦's round c counts as round last+c: it follows from the
		// main round 1 and its own earlier rounds.
		cons := 0
		if prog.Consolation != nil {
			cons = len(prog.Consolation.Rounds)
			for c, round := range prog.Consolation.Rounds {
				for _, g := range round {
					ss.rounds[g.ID] = ss.last + 1 + c
				}
			}
		}
		for r := 1; r <= ss.last+cons; r++ {
			p, err := advanceChains(runs(k, r))
			if err != nil {
				return nil, fmt.Errorf("event %d brackets: %w", e.ID, err)
			}
			prog := p[k].Progress
			var games []pairing.Game
			switch {
			case r <= ss.last:
				games = append(games, prog.Rounds[r-1]...)
			case prog.Consolation != nil:
				games = append(games, prog.Consolation.Rounds[r-ss.last-1]...)
			}
			if r == ss.last && prog.ThirdPlace != nil {
				games = append(games, *prog.ThirdPlace)
			}
			for _, g := range games {
				c, ok := ss.chains[g.ID]
				if !ok {
					continue
				}
				if slotMatches(g, c) {
					valid[ss][g.ID] = true
					continue
				}
				a, err := affectedGame(ctx, s, ss.st, c, r)
				if err != nil {
					return nil, err
				}
				a.AfterStatus = string(g.Status)
				for i, id := range g.Players {
					if g.Status != pairing.StatusPending || id != "" {
						a.After[i], _ = playerOfEntrant(id)
					}
				}
				affected = append(affected, a)
			}
		}
		// A ranking group's 決定戦 and 残留決定戦 games, from the main
		// games that still match (D-G2, D-G3).
		if _, ok, err := stageRankingRule(ss.st); err != nil {
			return nil, err
		} else if ok {
			run := runs(k, ss.last+cons+1)[k]
			p, err := advanceChains(runs(k, ss.last+cons+1))
			if err != nil {
				return nil, fmt.Errorf("event %d brackets: %w", e.ID, err)
			}
			a, err := groupAffected(ctx, s, ss, run.Results, run.Withdrawn, p[k].Slots, ss.last+cons)
			if err != nil {
				return nil, err
			}
			affected = append(affected, a...)
		}
		// A game the bracket no longer has at all (e.g. 3P removed).
		for _, kg := range ss.kgs {
			if _, ok := ss.rounds[kg.BracketGame]; !ok {
				a, err := affectedGame(ctx, s, ss.st, ss.chains[kg.BracketGame], 0)
				if err != nil {
					return nil, err
				}
				a.AfterStatus = "gone"
				affected = append(affected, a)
			}
		}
	}
	if len(series) == 0 {
		return affected, nil
	}
	final := runs(len(states), 0) // every stage's games that still match
	p, err := advanceChains(final)
	if err != nil {
		return nil, fmt.Errorf("event %d brackets: %w", e.ID, err)
	}
	return seriesDone(knownQualifiers(final, p))
}

// slotMatches: the chain's players are the two the bracket puts in the
// slot. A walkover slot (a withdrawn player) still matches a game that has
// a decided result — pairing lets a recorded result stand over a later
// withdrawal — but not one still waiting to be played.
func slotMatches(g pairing.Game, c chainResult) bool {
	if g.Players[0] == "" || g.Players[1] == "" || g.Status == pairing.StatusPending || g.Status == pairing.StatusEmpty {
		return false
	}
	first := firstPlayers(c)
	same := first[0] == g.Players[0] && first[1] == g.Players[1] || first[0] == g.Players[1] && first[1] == g.Players[0]
	if !same {
		return false
	}
	return g.Status == pairing.StatusReady || c.decided
}

// firstPlayers names the two players of a chain (its deciding game's seats;
// a redo only swaps them).
func firstPlayers(c chainResult) [2]string {
	var out [2]string
	if c.last.SentePlayerID != nil {
		out[0] = entrantID(*c.last.SentePlayerID)
	}
	if c.last.GotePlayerID != nil {
		out[1] = entrantID(*c.last.GotePlayerID)
	}
	return out
}

// affectedGame describes chain c as it stands, with every game of its redo
// chain (void ones skipped).
func affectedGame(ctx context.Context, s *store.Store, st store.KnockoutStage, c chainResult, round int) (AffectedGame, error) {
	first, err := s.GameByID(ctx, c.kg.GameID)
	if err != nil {
		return AffectedGame{}, err
	}
	a := AffectedGame{StageID: st.ID, StageName: st.Name, Stage: st, BracketGame: c.kg.BracketGame, Round: round, GameID: first.ID, Label: first.Label}
	if first.SentePlayerID != nil {
		a.Now[0] = *first.SentePlayerID
	}
	if first.GotePlayerID != nil {
		a.Now[1] = *first.GotePlayerID
	}
	queue := []int64{first.ID}
	for len(queue) > 0 && len(a.ChainIDs) < 1000 {
		id := queue[0]
		queue = queue[1:]
		a.ChainIDs = append(a.ChainIDs, id)
		redos, err := s.AllRedoGames(ctx, id)
		if err != nil {
			return a, err
		}
		for _, r := range redos {
			queue = append(queue, r.ID)
		}
	}
	latest, has, err := s.LatestResult(ctx, c.last.ID)
	if err != nil {
		return a, err
	}
	if has {
		a.HasResult, a.Result = true, latest.Result
	}
	a.Confirmed = c.eff.ID != 0 && c.eff.Confirmed()
	return a, nil
}

// seriesAffected: a 番勝負 game created after the series was already over
// (its earlier games corrected so that one player has a majority before it)
// is affected. So is every game of a series whose challenger changed (a
// correction of the 本戦's final, issue 24 item 2): players are the
// series' two slots as the stages now stand; the first such game is
// replaced by a game 1 between them (or waits while the challenger is
// unknown), the later ones are gone.
func seriesAffected(ctx context.Context, s *store.Store, ss *stageState, players []string) ([]AffectedGame, error) {
	need := ss.st.BestOf/2 + 1
	wins := map[string]int{}
	over, wrong := false, false
	var out []AffectedGame
	for _, kg := range ss.kgs {
		c := ss.chains[kg.BracketGame]
		if !wrong && len(players) == 2 {
			first := firstPlayers(c)
			if !(first[0] == players[0] && first[1] == players[1] || first[0] == players[1] && first[1] == players[0]) {
				wrong = true
				a, err := affectedGame(ctx, s, ss.st, c, 0)
				if err != nil {
					return nil, err
				}
				a.AfterStatus = string(pairing.StatusReady)
				for i, id := range players {
					pid, ok := playerOfEntrant(id)
					if !ok {
						a.AfterStatus = string(pairing.StatusPending)
					}
					a.After[i] = pid
				}
				out = append(out, a)
				continue
			}
		}
		if over || wrong {
			a, err := affectedGame(ctx, s, ss.st, c, 0)
			if err != nil {
				return nil, err
			}
			a.AfterStatus = "gone"
			out = append(out, a)
			continue
		}
		if c.decided {
			if w, ok := c.winnerOf(); ok {
				wins[w]++
				over = wins[w] >= need
			}
		}
	}
	return out, nil
}

// CorrectionChange is a change to try without saving (PreviewCorrection):
// exactly one of its parts is set.
type CorrectionChange struct {
	GameID   int64
	Result   *ResultInput    // a result version entered by hand (RecordResult)
	End      *EndInput       // a game ended (again) on the game page (EndGame)
	Claim    *FoulClaimInput // a foul claim (ClaimFoul)
	Withdraw *Withdrawal     // a player leaves a stage (WithdrawEntrant)
}

// Withdrawal is a stage withdrawal to preview.
type Withdrawal struct {
	StageID, PlayerID int64
	Reason            string
}

// PreviewCorrection runs the change in a transaction that is rolled back
// and lists the later games it would void. Permission and validation
// errors are those of the change itself.
func (o *Office) PreviewCorrection(ctx context.Context, actor Actor, ch CorrectionChange) ([]AffectedGame, error) {
	ctx = PreviewOnly(ctx, actor)
	var err error
	switch {
	case ch.Result != nil:
		_, err = o.RecordResult(ctx, actor, ch.GameID, *ch.Result)
	case ch.End != nil:
		_, err = o.EndGame(ctx, actor, ch.GameID, *ch.End)
	case ch.Claim != nil:
		_, err = o.ClaimFoul(ctx, actor, ch.GameID, *ch.Claim)
	case ch.Withdraw != nil:
		err = o.WithdrawEntrant(ctx, actor, ch.Withdraw.StageID, ch.Withdraw.PlayerID, ch.Withdraw.Reason)
	default:
		return nil, fmt.Errorf("preview correction: nothing to try: %w", ErrInvalid)
	}
	if affected, ok := CorrectionPreview(err); ok {
		return affected, nil
	}
	if err == nil {
		// The change never reached the bracket (e.g. a validation-free path
		// that writes nothing a bracket reads): nothing is affected.
		return nil, nil
	}
	return nil, err
}

// withdrawalConsent: a withdrawal's own reason is the correction's reason
// unless the caller already gave a consent (the web's preview page, which
// also carries the void choice).
func withdrawalConsent(ctx context.Context, actor Actor, stageID int64, reason string) context.Context {
	if c, ok := correctionOf(ctx); ok {
		if c.Kind == "" {
			c.Kind = CorrectionWithdrawal
		}
		if c.StageID == 0 {
			c.StageID = stageID
		}
		if c.Reason == "" {
			c.Reason = reason
		}
		return context.WithValue(ctx, correctionKey{}, c)
	}
	return WithCorrection(ctx, actor, CorrectionConsent{Kind: CorrectionWithdrawal, Reason: reason, StageID: stageID})
}

// PreviewOnly returns ctx under which the next write that reaches a bracket
// is rolled back and reports the later games it would void
// (CorrectionPreview reads them from the error).
func PreviewOnly(ctx context.Context, actor Actor) context.Context {
	return WithCorrection(ctx, actor, CorrectionConsent{preview: true})
}

// CorrectionPreview reads the affected games out of the error a write made
// under PreviewOnly returns; ok is false for any other error (and nil).
func CorrectionPreview(err error) ([]AffectedGame, bool) {
	var done previewDone
	if errors.As(err, &done) {
		return done.affected, true
	}
	return nil, false
}
