package office

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"kisen/league"
	"kisen/store"
)

// ScheduleInput draws a class's schedule.
type ScheduleInput struct {
	ClassID int64
	// Seed is the witnesses' number (decimal); empty: Kisen picks one and
	// shows it, so the draw can still be reproduced.
	Seed string
	// DrawDate (YYYY-MM-DD) is the day lineage is read on: each member's
	// 師匠 as of that day (D-A2..D-A5). Empty: today in Japan.
	DrawDate string `field:"draw_date" validate:"omitempty,date" msg:"league.err"`
	// RoundDates has one entry per round; an entry may list several dates
	// separated by spaces or commas (a round spread over days). Empty: no
	// calendar. The final round takes exactly one date (D-B1).
	RoundDates []string
}

// NoScheduleError is a draw that has no schedule: the league room's
// conflicts, with the class they belong to.
type NoScheduleError struct {
	ClassID int64
	*league.NoScheduleError
}

func (e *NoScheduleError) Unwrap() error { return ErrInvalid }

// LeagueDrawTimeBudget is how long one league draw may search, on the web
// and in `kisen draw league` (its --time-budget default); see
// docs/league-draw-limits.md.
const LeagueDrawTimeBudget = 5 * time.Second

// SetLeagueDrawBudget changes the draw's time budget (configuration, tests).
func (o *Office) SetLeagueDrawBudget(d time.Duration) { o.drawBudget = d }

// DrawOutOfTimeError is a draw whose search ran out of its time budget
// before it found a schedule: not a proof that none exists.
type DrawOutOfTimeError struct {
	ClassID int64
	Budget  time.Duration
	Err     error // the league room's *BudgetError
}

func (e *DrawOutOfTimeError) Error() string {
	return fmt.Sprintf("league class %d: ran out of time after %v: %v", e.ClassID, e.Budget, e.Err)
}

func (e *DrawOutOfTimeError) Unwrap() error { return e.Err }

// ClassTooLargeError refuses a draw for a class over the league room's
// size limit (league.MaxPlayers, league.MaxRoundRobinPlayers).
type ClassTooLargeError struct {
	ClassID      int64
	Players, Max int
}

func (e *ClassTooLargeError) Error() string {
	return fmt.Sprintf("league class %d: %d players is more than the %d a class may have", e.ClassID, e.Players, e.Max)
}

func (e *ClassTooLargeError) Unwrap() error { return ErrInvalid }

// ScheduleViolationsError refuses an edit that breaks rules without an
// override reason; Violations are the league checker's findings.
type ScheduleViolationsError struct {
	Violations []league.Violation
}

func (e *ScheduleViolationsError) Error() string {
	return fmt.Sprintf("the edit breaks %d rule(s); give an override reason", len(e.Violations))
}

func (e *ScheduleViolationsError) Unwrap() error { return ErrInvalid }

// newSeed picks a witnesses'-style number when none was given: eight
// digits, easy to read out and write down.
func newSeed() (uint64, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return 0, fmt.Errorf("seed: %w", err)
	}
	return 10_000_000 + binary.LittleEndian.Uint64(b[:])%90_000_000, nil
}

// parseRoundDates reads the calendar form into the league room's dates.
func parseRoundDates(v *ValidationError, entries []string, rounds int) ([][]time.Time, [][]string) {
	empty := true
	for _, e := range entries {
		empty = empty && strings.TrimSpace(e) == ""
	}
	if empty {
		return nil, nil
	}
	if len(entries) != rounds {
		v.Add(0, "round_dates", "league.err.round_dates_count", map[string]any{"Want": rounds, "Got": len(entries)})
		return nil, nil
	}
	out := make([][]time.Time, rounds)
	text := make([][]string, rounds)
	for r, e := range entries {
		fields := strings.FieldsFunc(e, func(c rune) bool { return c == ',' || c == ' ' || c == '、' })
		if len(fields) == 0 {
			v.Add(r+1, "round_dates", "league.err.round_date_missing", map[string]any{"Round": r + 1})
			continue
		}
		if r == rounds-1 && len(fields) > 1 {
			// D-B1 (001 第8条B1): the final round is played on one day.
			v.Add(r+1, "round_dates", "league.err.final_one_day", map[string]any{"Round": r + 1})
			continue
		}
		for _, f := range fields {
			t, err := time.Parse(time.DateOnly, f)
			if err != nil {
				v.Add(r+1, "round_dates", "league.err.date", map[string]any{"Round": r + 1, "Value": f})
				continue
			}
			out[r] = append(out[r], t)
			text[r] = append(text[r], f)
		}
	}
	return out, text
}

// buildDraw assembles the league room's Draw for a class: members in 順位
// order with their 師匠 as of the draw date, and the earlier terms'
// storedDraw rebuilds the draw a class was scheduled with (its recorded
// seed, draw date and round dates), so a stored schedule can be judged
// again under the class's current settings and lineage.
func storedDraw(ctx context.Context, tx *store.Store, e store.Event, c store.LeagueClass) (league.Draw, error) {
	seed, _ := strconv.ParseUint(c.DrawSeed, 10, 64)
	on, err := store.ParseCivilDate(c.DrawDate)
	if err != nil {
		return league.Draw{}, fmt.Errorf("league class %d draw date: %w", c.ID, err)
	}
	var dates [][]time.Time
	for _, ds := range ClassRoundDates(c) {
		var row []time.Time
		for _, s := range ds {
			t, _ := time.Parse(time.DateOnly, s)
			row = append(row, t)
		}
		dates = append(dates, row)
	}
	return buildDraw(ctx, tx, e, c, seed, on, dates)
}

// pairings imported or rolled over into this event.
func buildDraw(ctx context.Context, tx *store.Store, e store.Event, c store.LeagueClass, seed uint64, on store.CivilDate, dates [][]time.Time) (league.Draw, error) {
	kind, err := leagueKindOf(e)
	if err != nil {
		return league.Draw{}, err
	}
	settings, _, err := classSettings(c)
	if err != nil {
		return league.Draw{}, err
	}
	members, err := tx.LeagueMembers(ctx, c.ID)
	if err != nil {
		return league.Draw{}, err
	}
	ids := make([]int64, len(members))
	for i, m := range members {
		ids[i] = m.PlayerID
	}
	masters, err := tx.MastersOn(ctx, on, ids)
	if err != nil {
		return league.Draw{}, err
	}
	d := league.Draw{Kind: kind, Class: league.Class(c.Class), Seed: seed, Settings: settings, Dates: dates}
	for _, m := range members {
		p := league.Player{ID: leaguePlayerID(m.PlayerID)}
		if k, ok := masters[m.PlayerID]; ok {
			p.Master = masterLeagueID(k)
		}
		d.Players = append(d.Players, p)
	}
	// 肉親 among the members, from the registry (federation practice: the
	// class's Settings.Relatives says how they are kept apart).
	rels, err := tx.RelativesAmong(ctx, ids)
	if err != nil {
		return league.Draw{}, err
	}
	for _, r := range rels {
		d.Relatives = append(d.Relatives, league.Pair{leaguePlayerID(r.PlayerAID), leaguePlayerID(r.PlayerBID)})
	}
	hist, err := tx.LeagueHistoryOf(ctx, e.ID)
	if err != nil {
		return league.Draw{}, err
	}
	d.PreviousTerms = make([][]league.Pair, 2)
	for _, h := range hist {
		p := league.Pair{leaguePlayerID(h.PlayerAID), leaguePlayerID(h.PlayerBID)}
		d.PreviousTerms[h.TermsAgo-1] = append(d.PreviousTerms[h.TermsAgo-1], p)
		if h.TermsAgo == 1 && h.Final {
			d.PreviousFinalRound = append(d.PreviousFinalRound, p)
		}
	}
	if len(d.PreviousTerms[1]) == 0 {
		d.PreviousTerms = d.PreviousTerms[:1]
		if len(d.PreviousTerms[0]) == 0 {
			d.PreviousTerms = nil
		}
	}
	return d, nil
}

// masterLeagueID turns a master key into the league room's master id: a
// registered master is their player id (so 師弟 inside the class is seen),
// an outside teacher keeps the key (two students of one teacher are
// fellow disciples).
func masterLeagueID(k store.MasterKey) string {
	s := string(k)
	if rest, ok := strings.CutPrefix(s, "p:"); ok {
		return rest
	}
	return s
}

// GenerateSchedule draws a class's schedule with the league room (the same
// function `kisen draw league` calls, so the same input and seed give the
// same schedule) and keeps it for review (directors and schedulers). A
// *NoScheduleError names the conflicting rules and players; nothing is
// written then.
func (o *Office) GenerateSchedule(ctx context.Context, actor Actor, in ScheduleInput) (store.LeagueClass, error) {
	c, err := o.store.LeagueClassByID(ctx, in.ClassID)
	if err != nil {
		return store.LeagueClass{}, err
	}
	if err := o.requireClassRole(ctx, actor, c, RoleDirector, RoleScheduler); err != nil {
		return store.LeagueClass{}, err
	}
	v := &ValidationError{}
	// domain rule, not a tag: the witnesses' number, or a fresh one.
	var seed uint64
	if s := strings.TrimSpace(in.Seed); s != "" {
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			v.Add(0, "seed", "league.err.seed", map[string]any{"Value": s})
		}
	} else if seed, err = newSeed(); err != nil {
		return store.LeagueClass{}, err
	}
	in.DrawDate = strings.TrimSpace(in.DrawDate)
	on := playerToday(o.now())
	if checkInput(v, 0, in) && in.DrawDate != "" {
		if on, err = store.ParseCivilDate(in.DrawDate); err != nil {
			return store.LeagueClass{}, err
		}
	}
	err = o.store.Tx(ctx, func(tx *store.Store) error {
		c, err = tx.LeagueClassByID(ctx, in.ClassID)
		if err != nil {
			return err
		}
		if c.Status == LeaguePublished {
			return fmt.Errorf("league class %d is published: %w", c.ID, ErrConflict)
		}
		e, err := tx.EventByID(ctx, c.EventID)
		if err != nil {
			return err
		}
		d, err := buildDraw(ctx, tx, e, c, seed, on, nil)
		if err != nil {
			return err
		}
		// Settings that no longer fit the class's size (a roll-over copies
		// them; members change before the draw) are refused in the
		// reader's words before the engine is asked (issue 24).
		if ms := ClassFit(d.Settings, len(d.Players)); len(ms) > 0 {
			return &SettingsMisfitError{ClassID: c.ID, Misfits: ms}
		}
		dates, text := parseRoundDates(v, in.RoundDates, d.RoundCount())
		if err := v.OrNil(); err != nil {
			return err
		}
		d.Dates = dates
		if limit := maxLeaguePlayers(d); len(d.Players) > limit {
			return &ClassTooLargeError{ClassID: c.ID, Players: len(d.Players), Max: limit}
		}
		// The budget is wall time (elapsed, measured on the monotonic
		// clock), not the office's business clock.
		deadline := time.Now().Add(o.drawBudget)
		stop := func() bool { return ctx.Err() != nil || !time.Now().Before(deadline) }
		sched, report, err := league.GenerateWithOptions(d, league.Options{Stop: stop})
		var nse *league.NoScheduleError
		switch {
		case errors.Is(err, league.ErrBudget):
			return &DrawOutOfTimeError{ClassID: c.ID, Budget: o.drawBudget, Err: err}
		case errors.As(err, &nse):
			return &NoScheduleError{ClassID: c.ID, NoScheduleError: nse}
		case errors.Is(err, league.ErrInvalid):
			field, code, args := leagueInputWords(err, func(ids []string) NameList { return NameList(playerNameList(ctx, tx, ids)) })
			v.Add(0, field, code, args)
			return v
		case err != nil:
			return err
		}
		sj, _ := json.Marshal(sched)
		rj, _ := json.Marshal(report)
		dj, _ := json.Marshal(text)
		if text == nil {
			dj = []byte("[]")
		}
		c.Status, c.DrawSeed, c.DrawDate = LeagueDrawn, strconv.FormatUint(seed, 10), on.String()
		c.RoundDates, c.Schedule, c.Report = string(dj), string(sj), string(rj)
		now := o.now()
		if err := tx.SaveLeagueDraw(ctx, c, now); err != nil {
			return err
		}
		detail, _ := json.Marshal(map[string]any{"seed": c.DrawSeed, "seed_by": seedBy(in.Seed), "draw_date": c.DrawDate, "rematches": report.PreviousTermRematches})
		return tx.AppendLeagueLog(ctx, &store.LeagueLogEntry{ClassID: c.ID, Action: "generate", Detail: string(detail), Violations: "[]", ActorID: actor.UserID, At: now})
	})
	return c, err
}

// leagueInputWords is the form field, message code and arguments for draw
// input the league room refuses (issue 24 item 3): its code and values,
// the players by name, never the room's English sentence. A code without
// words of its own gets a general message.
func leagueInputWords(err error, names func([]string) NameList) (field, code string, args map[string]any) {
	var ie *league.InputError
	if !errors.As(err, &ie) {
		return "", "names.err.league.other", map[string]any{}
	}
	args = map[string]any{}
	for k, v := range ie.Params {
		args[k] = v
	}
	if id, ok := ie.Params["Player"].(string); ok && id != "" {
		args["Player"] = names([]string{id})[0]
	}
	switch ie.Code {
	case league.InputDatesCount, league.InputDateMissing, league.InputFinalOneDay:
		field = "round_dates"
	}
	switch ie.Code {
	case league.InputClass, league.InputKind, league.InputTooFewPlayers, league.InputTooManyPlayers, league.InputPlayerID,
		league.InputOwnMaster, league.InputGamesTooFew, league.InputGamesOverClass, league.InputPair, league.InputPreviousTerms,
		league.InputDatesCount, league.InputDateMissing, league.InputFinalOneDay, league.InputSettings:
		return field, "names.err.league." + ie.Code, args
	}
	return field, "names.err.league.other", args
}

// Schedule edits.
const (
	EditSwap = "swap" // exchange the gote players of two games of one round
	EditFlip = "flip" // exchange sente and gote of one game
	EditMove = "move" // give one game another date
)

// ScheduleEdit changes a drawn schedule by hand. Round and Game are
// 1-based (Game counts the round's games in order); Other is the second
// game of a swap; Date the new date of a move.
type ScheduleEdit struct {
	ClassID int64
	Op      string
	Round   int
	Game    int
	Other   int
	Date    string
	Reason  string `field:"reason" validate:"storable,max=2000" msg:"limits.err,max=too_long.reason"` // required when the edit breaks a rule (the override)
}

// EditSchedule applies one edit to a drawn (unpublished) schedule. The
// league checker judges the result; when it breaks a rule the edit needs
// an override reason, which the append-only log keeps with the
// violations.
func (o *Office) EditSchedule(ctx context.Context, actor Actor, in ScheduleEdit) (league.Report, error) {
	c, err := o.store.LeagueClassByID(ctx, in.ClassID)
	if err != nil {
		return league.Report{}, err
	}
	if err := o.requireClassRole(ctx, actor, c, RoleDirector, RoleScheduler); err != nil {
		return league.Report{}, err
	}
	var report league.Report
	err = o.store.Tx(ctx, func(tx *store.Store) error {
		c, err = tx.LeagueClassByID(ctx, in.ClassID)
		if err != nil {
			return err
		}
		if c.Status != LeagueDrawn {
			return fmt.Errorf("league class %d is %s, not drawn: %w", c.ID, c.Status, ErrConflict)
		}
		sched, err := ClassSchedule(c)
		if err != nil {
			return err
		}
		v := &ValidationError{}
		applyEdit(v, &sched, in)
		if err := v.OrNil(); err != nil {
			return err
		}
		e, err := tx.EventByID(ctx, c.EventID)
		if err != nil {
			return err
		}
		d, err := storedDraw(ctx, tx, e, c)
		if err != nil {
			return err
		}
		report, err = league.Check(d, sched)
		if err != nil {
			return err
		}
		in.Reason = strings.TrimSpace(in.Reason)
		reason := in.Reason
		if v := (&ValidationError{}); !checkInput(v, 0, in) {
			return v
		}
		if len(report.Violations) > 0 && reason == "" {
			return &ScheduleViolationsError{Violations: report.Violations}
		}
		sj, _ := json.Marshal(sched)
		rj, _ := json.Marshal(report)
		c.Schedule, c.Report = string(sj), string(rj)
		now := o.now()
		if err := tx.SaveLeagueDraw(ctx, c, now); err != nil {
			return err
		}
		detail, _ := json.Marshal(map[string]any{"op": in.Op, "round": in.Round, "game": in.Game, "other": in.Other, "date": in.Date})
		vj, _ := json.Marshal(report.Violations)
		if report.Violations == nil {
			vj = []byte("[]")
		}
		return tx.AppendLeagueLog(ctx, &store.LeagueLogEntry{ClassID: c.ID, Action: in.Op, Detail: string(detail), Violations: string(vj), Reason: reason, ActorID: actor.UserID, At: now})
	})
	return report, err
}

// applyEdit changes s in place; bad coordinates go into v.
func applyEdit(v *ValidationError, s *league.Schedule, in ScheduleEdit) {
	if in.Round < 1 || in.Round > len(s.Rounds) {
		v.Add(0, "round", "league.err.round", map[string]any{"Value": in.Round})
		return
	}
	games := s.Rounds[in.Round-1].Games
	inRange := func(field string, k int) bool {
		if k < 1 || k > len(games) {
			v.Add(0, field, "league.err.game", map[string]any{"Value": k})
			return false
		}
		return true
	}
	if !inRange("game", in.Game) {
		return
	}
	g := &games[in.Game-1]
	switch in.Op {
	case EditFlip:
		g.Sente, g.Gote = g.Gote, g.Sente
	case EditSwap:
		if !inRange("other", in.Other) {
			return
		}
		if in.Other == in.Game {
			v.Add(0, "other", "league.err.game", map[string]any{"Value": in.Other})
			return
		}
		h := &games[in.Other-1]
		g.Gote, h.Gote = h.Gote, g.Gote
	case EditMove:
		t, err := time.Parse(time.DateOnly, strings.TrimSpace(in.Date))
		if err != nil {
			v.Add(0, "date", "league.err.date", map[string]any{"Round": in.Round, "Value": in.Date})
			return
		}
		g.Date = t
	default:
		v.Add(0, "op", "league.err.op", map[string]any{"Value": in.Op})
	}
}

// PublishSchedule fixes a drawn schedule: one game per scheduled game, with
// sente and gote fixed in advance (D-B2, 001 第8条B2) and its date
// (directors and schedulers). A draft event is published with it, as
// publishing a stage does (publish.go); PreviewSchedulePublication is its
// confirmation.
func (o *Office) PublishSchedule(ctx context.Context, actor Actor, classID int64) error {
	c, err := o.store.LeagueClassByID(ctx, classID)
	if err != nil {
		return err
	}
	if err := o.requireClassRole(ctx, actor, c, schedulePublishers...); err != nil {
		return err
	}
	return o.store.Tx(ctx, func(tx *store.Store) error {
		c, err := tx.LeagueClassByID(ctx, classID)
		if err != nil {
			return err
		}
		if c.Status != LeagueDrawn {
			return fmt.Errorf("league class %d is %s, not drawn: %w", c.ID, c.Status, ErrConflict)
		}
		sched, err := ClassSchedule(c)
		if err != nil {
			return err
		}
		now := o.now().UTC()
		for _, r := range sched.Rounds {
			for k, g := range r.Games {
				sente, ok1 := playerOfLeagueID(g.Sente)
				gote, ok2 := playerOfLeagueID(g.Gote)
				if !ok1 || !ok2 {
					return fmt.Errorf("league class %d round %d: bad player ids %q–%q", c.ID, r.Number, g.Sente, g.Gote)
				}
				in := GameInput{EventID: c.EventID, Label: gameLabel(c.Class, r.Number, k+1),
					SenteID: &sente, GoteID: &gote, AllowanceMinutes: c.AllowanceMinutes}
				if !g.Date.IsZero() {
					in.ScheduledOn = g.Date.Format(time.DateOnly)
				}
				row, v := in.check()
				if err := v.OrNil(); err != nil {
					return err
				}
				row.CreatedAt, row.UpdatedAt = now, now
				if err := tx.CreateGame(ctx, row); err != nil {
					return err
				}
				if err := tx.CreateLeagueGame(ctx, &store.LeagueGame{ClassID: c.ID, Round: r.Number, GameID: row.ID}); err != nil {
					return err
				}
			}
		}
		if err := tx.SetLeagueClassStatus(ctx, c.ID, LeagueDrawn, LeaguePublished, now); err != nil {
			return err
		}
		if _, err := publishDraftEvent(ctx, tx, c.EventID, actor.UserID, now); err != nil {
			return err
		}
		return tx.AppendLeagueLog(ctx, &store.LeagueLogEntry{ClassID: c.ID, Action: "publish", Detail: "{}", Violations: "[]", ActorID: actor.UserID, At: now})
	})
}

// gameLabel names a league game: "C2 R3-2" (class, round, game of the
// round); a league group has no class.
func gameLabel(class string, round, k int) string {
	l := fmt.Sprintf("R%d-%d", round, k)
	if class != "" {
		l = class + " " + l
	}
	return l
}

// maxLeaguePlayers is the league room's class size limit for d.
func maxLeaguePlayers(d league.Draw) int {
	if d.Settings.RoundRobin {
		return league.MaxRoundRobinPlayers
	}
	return league.MaxPlayers
}
