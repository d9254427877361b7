package office

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"time"

	"kisen/league"
	"kisen/store"
)

// ImportLeagueHistory reads an earlier term's pairings from CSV (see
// LeagueHistoryCSVColumns) into the term's draw history, replacing what an
// earlier import of the same term gave (directors and schedulers).
// termsAgo is 1 for last term (D-C1, D-C2) or 2 for the term before (D-C1:
// never three terms running). Any bad row → nothing is imported, and every
// bad row is reported with its line and field.
func (o *Office) ImportLeagueHistory(ctx context.Context, actor Actor, eventID int64, termsAgo int, data []byte) (int, error) {
	if err := o.RequireEventRole(ctx, actor, eventID, LeagueEditRoles...); err != nil {
		return 0, err
	}
	if termsAgo != 1 && termsAgo != 2 {
		v := &ValidationError{}
		v.Add(0, "terms_ago", "league.err.terms_ago", nil)
		return 0, v
	}
	rows, perr := parseLeagueHistoryCSV(data)
	if perr != nil {
		return 0, perr
	}
	var n int
	err := o.store.Tx(ctx, func(tx *store.Store) error {
		e, err := tx.EventByID(ctx, eventID)
		if err != nil {
			return err
		}
		if _, err := leagueKindOf(e); err != nil {
			return err
		}
		ix, err := loadPlayerIndex(ctx, tx)
		if err != nil {
			return err
		}
		out, v := resolveHistory(rows, ix, termsAgo, eventID, o.now().UTC())
		if err := v.OrNil(); err != nil {
			return err
		}
		n = len(out)
		return tx.ReplaceLeagueHistory(ctx, eventID, termsAgo, out)
	})
	return n, err
}

// resolveHistory looks the players up and checks the rows against each
// other: one class and one 順位 per player, one opponent per player and
// round, and both sides of a game agreeing.
func resolveHistory(rows []historyRow, ix playerIndex, termsAgo int, eventID int64, now time.Time) ([]store.LeagueHistory, *ValidationError) {
	v := &ValidationError{}
	type seat struct {
		player int64
		round  int
	}
	classOf := map[int64]string{}
	junniOf := map[int64]int{}
	opp := map[seat]int64{}
	lineOf := map[seat]int{}
	maxRound := map[string]int{}
	type game struct {
		a, b  int64
		round int
		class string
	}
	var games []game
	for _, r := range rows {
		p, code := ix.find(r.Player)
		if code != "" {
			v.Add(r.Line, "player", code, map[string]any{"Value": r.Player, "Line": r.Line})
			continue
		}
		if c, ok := classOf[p.ID]; ok && c != r.Class {
			v.Add(r.Line, "class", "league.csv.two_classes", map[string]any{"Value": p.Name, "Line": r.Line})
		}
		classOf[p.ID] = r.Class
		if j, ok := junniOf[p.ID]; ok && j != r.Junni {
			v.Add(r.Line, "junni", "league.csv.two_junni", map[string]any{"Value": p.Name, "Line": r.Line})
		}
		junniOf[p.ID] = r.Junni
		maxRound[r.Class] = max(maxRound[r.Class], r.Round)
		if r.Opponent == "" {
			continue // 抜け番
		}
		q, code := ix.find(r.Opponent)
		if code != "" {
			v.Add(r.Line, "opponent", code, map[string]any{"Value": r.Opponent, "Line": r.Line})
			continue
		}
		s := seat{p.ID, r.Round}
		if prev, ok := opp[s]; ok && prev != q.ID {
			v.Add(r.Line, "round", "league.csv.two_games", map[string]any{"Value": p.Name, "Line": r.Line, "First": lineOf[s]})
			continue
		}
		if prev, ok := opp[seat{q.ID, r.Round}]; ok && prev != p.ID {
			v.Add(r.Line, "opponent", "league.csv.mismatch", map[string]any{"Value": q.Name, "Line": r.Line, "First": lineOf[seat{q.ID, r.Round}]})
			continue
		}
		if _, ok := opp[s]; ok {
			continue // the same game listed twice from this side
		}
		opp[s], lineOf[s] = q.ID, r.Line
		if _, other := opp[seat{q.ID, r.Round}]; other {
			continue // already listed from the opponent's side
		}
		opp[seat{q.ID, r.Round}], lineOf[seat{q.ID, r.Round}] = p.ID, r.Line
		games = append(games, game{a: p.ID, b: q.ID, round: r.Round, class: r.Class})
	}
	out := make([]store.LeagueHistory, 0, len(games))
	for _, g := range games {
		out = append(out, store.LeagueHistory{EventID: eventID, TermsAgo: termsAgo, Class: g.class, Round: g.round,
			PlayerAID: g.a, PlayerBID: g.b, Final: termsAgo == 1 && g.round == maxRound[g.class], Source: "import", CreatedAt: now})
	}
	return out, v
}

// NextTermInput names the next term's event.
type NextTermInput struct {
	EventID   int64 // this term
	Name      string
	NameEn    string
	StartDate string
	EndDate   string
}

// RollOver creates the next 順位戦 term from this one (directors and
// schedulers): the league room's NextOrder gives every class's members and
// 順位 (demoted from above, stayers, promoted from below, stayers with a
// new 降級点) and the 降級点 they carry; C2's demoted leave for フリークラス.
// A class missing from this term is created when players move into it.
// This term's pairings become the next term's "last term" (D-C1, D-C2)
// and this term's last-term pairings its "term before". The event's roles
// are copied so the same people run the next term.
func (o *Office) RollOver(ctx context.Context, actor Actor, in NextTermInput) (store.Event, error) {
	if err := o.RequireEventRole(ctx, actor, in.EventID, RoleDirector, RoleScheduler); err != nil {
		return store.Event{}, err
	}
	var next store.Event
	err := o.store.Tx(ctx, func(tx *store.Store) error {
		e, err := tx.EventByID(ctx, in.EventID)
		if err != nil {
			return err
		}
		v := &ValidationError{}
		if e.Kind != EventJunisenTerm {
			v.Add(0, "event", "league.err.not_junisen", nil)
			return v
		}
		ein := EventInput{OrganiserID: e.OrganiserID, Name: in.Name, NameEn: in.NameEn, Kind: EventJunisenTerm, StartDate: in.StartDate, EndDate: in.EndDate, Venue: e.Venue}
		v = ein.check()
		classes, err := tx.LeagueClasses(ctx, e.ID)
		if err != nil {
			return err
		}
		sortClasses(classes)
		tables := map[string]*league.Table{}
		byClass := map[string]store.LeagueClass{}
		var schedules []league.Schedule
		for _, c := range classes {
			d, err := loadClassDetail(ctx, tx, e, c)
			if err != nil {
				return err
			}
			st, err := (&Office{store: tx, now: o.now}).standingsOf(ctx, d)
			if err != nil {
				return err
			}
			if c.Status != LeaguePublished || !st.Table.Final {
				v.Add(0, "classes", "league.err.not_final", map[string]any{"Value": c.Class})
			}
			if len(st.Table.Playoff) > 0 {
				v.Add(0, "classes", "league.err.playoff", map[string]any{"Value": c.Class})
			}
			t := st.Table
			tables[c.Class], byClass[c.Class] = &t, c
			schedules = append(schedules, d.Schedule)
		}
		if len(classes) == 0 {
			v.Add(0, "classes", "league.err.no_classes", nil)
		}
		if err := v.OrNil(); err != nil {
			return err
		}
		now := o.now().UTC()
		next = store.Event{OrganiserID: e.OrganiserID, Name: in.Name, NameEn: in.NameEn, Kind: EventJunisenTerm,
			StartDate: in.StartDate, EndDate: in.EndDate, Venue: e.Venue, Status: StatusDraft, Settings: e.Settings,
			CreatedBy: actor.UserID, CreatedAt: now, UpdatedAt: now}
		if err := tx.CreateEvent(ctx, &next); err != nil {
			return err
		}
		for i, cl := range JunisenClasses {
			this := tables[cl]
			var above, below *league.Table
			if i > 0 {
				above = tables[JunisenClasses[i-1]]
			}
			if i+1 < len(JunisenClasses) {
				below = tables[JunisenClasses[i+1]]
			}
			if this == nil && above == nil && below == nil {
				continue
			}
			if this == nil {
				this = &league.Table{Class: league.Class(cl), Final: true}
			}
			order, err := league.NextOrder(*this, above, below)
			if err != nil {
				return fmt.Errorf("next term class %s: %w", cl, err)
			}
			if len(order) == 0 {
				continue
			}
			c, ok := byClass[cl]
			if !ok {
				settings, rules, err := DefaultClassSettings(EventJunisenTerm, cl)
				if err != nil {
					return err
				}
				sj, _ := json.Marshal(settings)
				rj, _ := json.Marshal(rules)
				c = store.LeagueClass{Settings: string(sj), Rules: string(rj)}
				if len(classes) > 0 {
					c.AllowanceMinutes = classes[0].AllowanceMinutes
				}
			}
			nc := store.LeagueClass{EventID: next.ID, Class: cl, Settings: c.Settings, Rules: c.Rules, AllowanceMinutes: c.AllowanceMinutes,
				Status: LeagueSetup, RoundDates: "[]", Schedule: "{}", Report: "{}", CreatedAt: now, UpdatedAt: now}
			var members []store.LeagueMember
			for k, np := range order {
				pid, ok := playerOfLeagueID(np.ID)
				if !ok {
					return fmt.Errorf("next term class %s: bad player id %q", cl, np.ID)
				}
				members = append(members, store.LeagueMember{PlayerID: pid, Junni: k + 1, Points: np.Points, Origin: string(np.Group)})
			}
			if err := tx.CreateLeagueClass(ctx, &nc, members); err != nil {
				return err
			}
		}
		// D-C1 / D-C2 history: this term's games are next term's last term.
		var hist []store.LeagueHistory
		for ci, s := range schedules {
			for _, r := range s.Rounds {
				for _, g := range r.Games {
					a, _ := playerOfLeagueID(g.Sente)
					b, _ := playerOfLeagueID(g.Gote)
					hist = append(hist, store.LeagueHistory{EventID: next.ID, TermsAgo: 1, Class: classes[ci].Class, Round: r.Number,
						PlayerAID: a, PlayerBID: b, Final: r.Number == len(s.Rounds), Source: "rollover", CreatedAt: now})
				}
			}
		}
		old, err := tx.LeagueHistoryOf(ctx, e.ID)
		if err != nil {
			return err
		}
		for _, h := range old {
			if h.TermsAgo == 1 {
				hist = append(hist, store.LeagueHistory{EventID: next.ID, TermsAgo: 2, Class: h.Class, Round: h.Round,
					PlayerAID: h.PlayerAID, PlayerBID: h.PlayerBID, Source: "rollover", CreatedAt: now})
			}
		}
		if err := tx.AddLeagueHistory(ctx, hist); err != nil {
			return err
		}
		roles, err := tx.EventRoles(ctx, e.ID)
		if err != nil {
			return err
		}
		for _, r := range roles {
			if err := tx.GrantEventRole(ctx, &store.EventRole{EventID: next.ID, UserID: r.UserID, Role: r.Role, GrantedBy: actor.UserID, CreatedAt: now}); err != nil && !errors.Is(err, store.ErrConflict) {
				return err
			}
		}
		return nil
	})
	return next, err
}
