package office

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"kisen/league"
	"kisen/store"
)

// LeagueClassInput adds a class to a league event. Members lists the
// players in this term's 順位 order, one a line: a federation number or an
// exact registry name, optionally followed by a comma and the 降級点 held
// (e.g. "123,1"). Nil rule fields take the league room's class defaults.
type LeagueClassInput struct {
	EventID          int64
	Class            string // A … C2 for a junisen_term event, "" for a league event
	Members          string
	GamesPerPlayer   int  // 0: the class default (B2/C1/C2: 10); ignored for round robins
	Promote          *int `field:"promote" validate:"omitempty,gte=0,lte=200" msg:"league.err,gte=count,lte=count"`
	Demote           *int `field:"demote" validate:"omitempty,gte=0,lte=200" msg:"league.err,gte=count,lte=count"`
	PointsNum        *int `field:"points_num" validate:"omitempty,gte=0,lte=200" msg:"league.err,gte=count,lte=count"` // 降級点 ratio numerator
	PointsDen        *int `field:"points_den" validate:"omitempty,gte=0,lte=200" msg:"league.err,gte=count,lte=count"`
	PointsToDemote   *int `field:"points_to_demote" validate:"omitempty,gte=0,lte=200" msg:"league.err,gte=count,lte=count"`
	AllowanceMinutes int  `field:"allowance" validate:"gte=0,lte=1440" msg:"league.err,gte=allowance,lte=allowance"`
}

// DefaultClassSettings gives the settings and rules a new class starts
// with: the league room's defaults (DOMAIN.md, 001 第8条).
func DefaultClassSettings(eventKind, class string) (league.Settings, league.ClassRules, error) {
	kind := league.KindLeague
	if eventKind == EventJunisenTerm {
		kind = league.KindJunisen
	}
	s, err := league.DefaultSettings(kind, league.Class(class))
	if err != nil {
		return s, league.ClassRules{}, err
	}
	if kind == league.KindLeague {
		// Other leagues: no promotion numbers unless the scheduler sets them.
		return s, league.ClassRules{}, nil
	}
	r, err := league.DefaultClassRules(league.Class(class))
	return s, r, err
}

// AddLeagueClass creates a class with its members (directors and
// schedulers). Validation happens before anything is written; every bad
// member line is reported with its line number.
func (o *Office) AddLeagueClass(ctx context.Context, actor Actor, in LeagueClassInput) (store.LeagueClass, error) {
	if err := o.RequireEventRole(ctx, actor, in.EventID, RoleDirector, RoleScheduler); err != nil {
		return store.LeagueClass{}, err
	}
	var out store.LeagueClass
	err := o.store.Tx(ctx, func(tx *store.Store) error {
		e, err := tx.EventByID(ctx, in.EventID)
		if err != nil {
			return err
		}
		v := &ValidationError{}
		switch e.Kind {
		case EventJunisenTerm:
			if !slices.Contains(JunisenClasses, in.Class) {
				v.Add(0, "class", "league.err.class", map[string]any{"Value": in.Class})
			}
		case EventLeague:
			in.Class = "" // one group
		default:
			return fmt.Errorf("event %d is a %s: %w", e.ID, e.Kind, ErrInvalid)
		}
		existing, err := tx.LeagueClasses(ctx, in.EventID)
		if err != nil {
			return err
		}
		for _, c := range existing {
			if c.Class == in.Class {
				v.Add(0, "class", "league.err.class_exists", map[string]any{"Value": in.Class})
			}
		}
		settings, rules, err := DefaultClassSettings(e.Kind, in.Class)
		if err != nil && v.FieldMessage("class") == "" {
			return err
		}
		if in.GamesPerPlayer != 0 && !settings.RoundRobin {
			settings.GamesPerPlayer = in.GamesPerPlayer
		}
		checkInput(v, 0, in)
		applyRule := func(field string, dst *int, src *int) {
			if src != nil && v.FieldMessage(field) == "" {
				*dst = *src
			}
		}
		applyRule("promote", &rules.Promote, in.Promote)
		applyRule("demote", &rules.Demote, in.Demote)
		applyRule("points_num", &rules.PointsNum, in.PointsNum)
		applyRule("points_den", &rules.PointsDen, in.PointsDen)
		applyRule("points_to_demote", &rules.PointsToDemote, in.PointsToDemote)
		// domain rule, not a tag: a 降級点 ratio needs its denominator.
		if rules.PointsNum > 0 && rules.PointsDen == 0 {
			v.Add(0, "points_den", "league.err.count", nil)
		}
		ix, err := loadPlayerIndex(ctx, tx)
		if err != nil {
			return err
		}
		// domain rule, not a tag: members are lines naming registered players.
		members := parseMembers(in.Members, ix, v)
		if len(members) < 2 && v.FieldMessage("members") == "" {
			v.Add(0, "members", "league.err.members_few", nil)
		}
		if !settings.RoundRobin && len(members) >= 2 && settings.GamesPerPlayer > len(members)-1 {
			v.Add(0, "games_per_player", "league.err.games_per_player", map[string]any{"Max": len(members) - 1})
		}
		if settings.GamesPerPlayer < 0 {
			v.Add(0, "games_per_player", "league.err.count", nil)
		}
		if err := v.OrNil(); err != nil {
			return err
		}
		sj, _ := json.Marshal(settings)
		rj, _ := json.Marshal(rules)
		now := o.now().UTC()
		out = store.LeagueClass{
			EventID: in.EventID, Class: in.Class, Settings: string(sj), Rules: string(rj),
			AllowanceMinutes: in.AllowanceMinutes, Status: LeagueSetup,
			RoundDates: "[]", Schedule: "{}", Report: "{}", CreatedAt: now, UpdatedAt: now,
		}
		return tx.CreateLeagueClass(ctx, &out, members)
	})
	return out, err
}

// parseMembers reads the member lines; problems go into v under "members"
// with the line number.
func parseMembers(text string, ix playerIndex, v *ValidationError) []store.LeagueMember {
	var out []store.LeagueMember
	seen := map[int64]int{}
	for i, line := range strings.Split(text, "\n") {
		n := i + 1
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		ref, pts, hasPts := strings.Cut(line, ",")
		p, code := ix.find(ref)
		if code != "" {
			v.Add(n, "members", code, map[string]any{"Value": strings.TrimSpace(ref), "Line": n})
			continue
		}
		points := 0
		if hasPts {
			k, err := strconv.Atoi(strings.TrimSpace(pts))
			if err != nil || k < 0 || k > 9 {
				v.Add(n, "members", "league.err.points", map[string]any{"Value": strings.TrimSpace(pts), "Line": n})
				continue
			}
			points = k
		}
		if first, dup := seen[p.ID]; dup {
			v.Add(n, "members", "league.err.member_twice", map[string]any{"Value": p.Name, "Line": n, "First": first})
			continue
		}
		seen[p.ID] = n
		out = append(out, store.LeagueMember{PlayerID: p.ID, Junni: len(out) + 1, Points: points})
	}
	return out
}

// LeagueOverview is an event's league page: the classes in class order.
type LeagueOverview struct {
	Event   store.Event
	Classes []store.LeagueClass
	Counts  map[int64]int // members per class
	History int           // earlier-term pairings known to the draw
}

// League loads an event's league overview for anyone who may see the
// event: the classes the actor may see (mayViewClass).
func (o *Office) League(ctx context.Context, actor Actor, eventID int64) (LeagueOverview, error) {
	e, err := o.store.EventByID(ctx, eventID)
	if err != nil {
		return LeagueOverview{}, err
	}
	if err := requireLeagueView(ctx, o.store, actor, e); err != nil {
		return LeagueOverview{}, err
	}
	if _, err := leagueKindOf(e); err != nil {
		return LeagueOverview{}, fmt.Errorf("event %d has no league: %w", eventID, store.ErrNotFound)
	}
	cs, err := o.store.LeagueClasses(ctx, eventID)
	if err != nil {
		return LeagueOverview{}, err
	}
	// Unpublished classes are left out for whoever is not the event's
	// staff, as unpublished stages are (visibleStages).
	if slices.ContainsFunc(cs, func(c store.LeagueClass) bool { return c.Status != LeaguePublished }) {
		staff, err := holdsEventRole(ctx, o.store, actor, eventID, StaffRoles...)
		if err != nil {
			return LeagueOverview{}, err
		}
		if !staff {
			cs = slices.DeleteFunc(cs, func(c store.LeagueClass) bool { return c.Status != LeaguePublished })
		}
	}
	sortClasses(cs)
	counts := map[int64]int{}
	for _, c := range cs {
		ms, err := o.store.LeagueMembers(ctx, c.ID)
		if err != nil {
			return LeagueOverview{}, err
		}
		counts[c.ID] = len(ms)
	}
	h, err := o.store.LeagueHistoryOf(ctx, eventID)
	if err != nil {
		return LeagueOverview{}, err
	}
	return LeagueOverview{Event: e, Classes: cs, Counts: counts, History: len(h)}, nil
}

// LeagueClassDetail is everything a class page shows.
type LeagueClassDetail struct {
	Event    store.Event
	Class    store.LeagueClass
	Members  []store.LeagueMember
	Players  map[int64]store.Player
	Settings league.Settings
	Rules    league.ClassRules
	Schedule league.Schedule
	Report   league.Report
	Log      []store.LeagueLogEntry
	Rounds   int // rounds the schedule has or will have
}

// LeagueClass loads one class for anyone who may see it: its event's rule,
// then the class's own (mayViewClass: unpublished only for the staff).
func (o *Office) LeagueClass(ctx context.Context, actor Actor, classID int64) (LeagueClassDetail, error) {
	c, err := o.store.LeagueClassByID(ctx, classID)
	if err != nil {
		return LeagueClassDetail{}, err
	}
	e, err := o.store.EventByID(ctx, c.EventID)
	if err != nil {
		return LeagueClassDetail{}, err
	}
	if err := requireLeagueView(ctx, o.store, actor, e); err != nil {
		return LeagueClassDetail{}, err
	}
	if err := mayViewClass(ctx, o.store, actor, c); err != nil {
		return LeagueClassDetail{}, err
	}
	return loadClassDetail(ctx, o.store, e, c)
}

func loadClassDetail(ctx context.Context, s *store.Store, e store.Event, c store.LeagueClass) (LeagueClassDetail, error) {
	d := LeagueClassDetail{Event: e, Class: c}
	var err error
	// Members and their players in one statement, with the columns pages
	// show (issue 12: read on every computed league table).
	if d.Members, d.Players, err = s.LeagueMembersShown(ctx, c.ID); err != nil {
		return d, err
	}
	if d.Settings, d.Rules, err = classSettings(c); err != nil {
		return d, err
	}
	if d.Schedule, err = ClassSchedule(c); err != nil {
		return d, err
	}
	d.Report = ClassReport(c)
	if d.Log, err = s.LeagueLog(ctx, c.ID); err != nil {
		return d, err
	}
	kind, err := leagueKindOf(e)
	if err != nil {
		return d, err
	}
	dr := league.Draw{Kind: kind, Class: league.Class(c.Class), Players: make([]league.Player, len(d.Members)), Settings: d.Settings}
	d.Rounds = dr.RoundCount()
	return d, nil
}
