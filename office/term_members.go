package office

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"kisen/league"
	"kisen/store"
)

// Where a member's place in the class came from (league_members.origin,
// migration 00200): the roll-over's groups (league.NextOrder), or a member
// change made before the draw.
const (
	OriginDemoted         = string(league.GroupDemotedFromAbove)
	OriginStayed          = string(league.GroupStayed)
	OriginPromoted        = string(league.GroupPromotedFromBelow)
	OriginStayedWithPoint = string(league.GroupStayedWithPoint)
	OriginAdded           = "added" // 新規: a new 四段, or added for another reason
	OriginMoved           = "moved" // moved here from another class of the term
)

// The member changes before a class's draw and the kinds of reason each
// takes (docs/leagues.md, "The next term before its draw").
const (
	TermAdd    = "add"
	TermRemove = "remove"
	TermMove   = "move"

	KindNewYondan = "new_yondan" // 新四段: joins C2 (add)
	KindPromoted  = "promoted"   // promoted from below, e.g. back from フリークラス (add)
	KindRetired   = "retired"    // 引退 (remove)
	KindFreeClass = "free_class" // フリークラス転出 (remove)
	KindOther     = "other"      // another reason, said in the reason text (any)
)

// TermKinds lists the reason kinds each change takes, in form order.
var TermKinds = map[string][]string{
	TermAdd:    {KindNewYondan, KindPromoted, KindOther},
	TermRemove: {KindRetired, KindFreeClass, KindOther},
	TermMove:   {KindOther},
}

// TermMemberInput is one member change made from a class page before the
// class's draw. Version is the term's member version the person saw
// (TermChanges.Version): a change on an older version is stale (409).
type TermMemberInput struct {
	ClassID  int64  // the class the change is made from
	Version  int    // the term's member version seen
	Action   string // TermAdd, TermRemove or TermMove
	Player   string // add: a federation number or an exact registry name
	PlayerID int64  // remove, move: the member
	ToClass  string // move: the class of the term the member goes to
	Kind     string // one of TermKinds[Action]
	Reason   string // required, said in words
	Points   int    // add: the 降級点 the player carries (0 … 9)
}

// TermChanges is what a class page shows of its term's member changes:
// the term's member version (for the forms) and the changes that touched
// the class, oldest first, with who made them.
type TermChanges struct {
	Version int
	Changes []store.LeagueMemberChange
	Actors  map[int64]string // user id → display name
	Players map[int64]store.Player
	Classes []string // the term's classes, for the move form
}

// TermMemberChanges reads the member changes of a class's term for its
// staff (directors and schedulers); a fixed number of statements.
func (o *Office) TermMemberChanges(ctx context.Context, actor Actor, classID int64) (TermChanges, error) {
	c, err := o.store.LeagueClassByID(ctx, classID)
	if err != nil {
		return TermChanges{}, err
	}
	if err := o.requireClassRole(ctx, actor, c, RoleDirector, RoleScheduler); err != nil {
		return TermChanges{}, err
	}
	var out TermChanges
	all, err := o.store.LeagueMemberChanges(ctx, c.EventID)
	if err != nil {
		return out, err
	}
	var users, players []int64
	for _, ch := range all {
		out.Version = max(out.Version, ch.Seq)
		if ch.FromClass == c.Class || ch.ToClass == c.Class {
			out.Changes = append(out.Changes, ch)
			users, players = append(users, ch.ActorID), append(players, ch.PlayerID)
		}
	}
	us, err := o.store.UsersByIDs(ctx, users)
	if err != nil {
		return out, err
	}
	out.Actors = make(map[int64]string, len(us))
	for id, u := range us {
		out.Actors[id] = u.DisplayName
	}
	if out.Players, err = o.store.PlayersShownByIDs(ctx, players); err != nil {
		return out, err
	}
	cs, err := o.store.LeagueClasses(ctx, c.EventID)
	if err != nil {
		return out, err
	}
	sortClasses(cs)
	for _, k := range cs {
		out.Classes = append(out.Classes, k.Class)
	}
	return out, nil
}

// ChangeTermMember makes one member change before the class's draw
// (directors and schedulers), in one transaction that carries the term's
// member version seen: a stale version is ErrConflict (409), and so is a
// draw that landed meanwhile. Every change is recorded append-only with
// who, when and the reason. A class already drawn refuses with
// term.err.drawn: its members are fixed from the draw on (there is no
// undoing a draw, and a schedule drawn for other members would be wrong).
//
// 順位 after the change (DOMAIN.md, "Next term's 順位 within a class"; the
// seeds say nothing of new members): the others keep their order and are
// numbered again from 1. A new 四段 joins C2 at the bottom (federation
// practice: 新四段 start at the foot of C級2組); a player promoted from
// below joins the "promoted from below" group, above the stayers who got a
// 降級点 and anyone added after the roll-over; any other addition and a
// player moved in join at the bottom.
func (o *Office) ChangeTermMember(ctx context.Context, actor Actor, in TermMemberInput) error {
	c, err := o.store.LeagueClassByID(ctx, in.ClassID)
	if err != nil {
		return err
	}
	if err := o.requireClassRole(ctx, actor, c, RoleDirector, RoleScheduler); err != nil {
		return err
	}
	v := &ValidationError{}
	if !slices.Contains([]string{TermAdd, TermRemove, TermMove}, in.Action) {
		v.Add(0, "action", "term.err.action", nil)
		return v
	}
	if !slices.Contains(TermKinds[in.Action], in.Kind) {
		v.Add(0, "kind", "term.err.kind", nil)
	}
	in.Reason = strings.TrimSpace(in.Reason)
	switch {
	case in.Reason == "":
		v.Add(0, "reason", "term.err.reason", nil)
	case utf8.RuneCountInString(in.Reason) > 500:
		v.Add(0, "reason", "term.err.reason_long", map[string]any{"Max": 500})
	}
	if in.Action == TermAdd && (in.Points < 0 || in.Points > 9) {
		v.Add(0, "points", "term.err.points", nil)
	}
	pre := v.Fields
	return o.store.Tx(ctx, func(tx *store.Store) error {
		v := &ValidationError{Fields: slices.Clone(pre)} // a retried transaction starts again
		c, err := tx.LeagueClassByID(ctx, in.ClassID)
		if err != nil {
			return err
		}
		e, err := tx.EventByID(ctx, c.EventID)
		if err != nil {
			return err
		}
		if c.Status != LeagueSetup {
			v.Add(0, "", "term.err.drawn", nil)
			return v
		}
		classes, err := tx.LeagueClasses(ctx, c.EventID)
		if err != nil {
			return err
		}
		// Hold the classes the change touches, in id order (two moves the
		// other way round cannot deadlock), while they are before their
		// draw: a concurrent change of the same classes waits here and then
		// finds the version moved on; a draw that landed first is 409.
		hold := []int64{c.ID}
		for _, k := range classes {
			if in.Action == TermMove && k.Class == in.ToClass && k.ID != c.ID && k.Status == LeagueSetup {
				hold = append(hold, k.ID)
			}
		}
		slices.Sort(hold)
		for _, id := range hold {
			if err := tx.HoldLeagueClassSetup(ctx, id, o.now()); err != nil {
				return err
			}
		}
		// The members the person saw: checked before what they asked for is
		// judged against members they may not have seen. Changes of other
		// classes of the term made meanwhile are caught by the change's
		// unique (term, seq).
		seen, err := tx.TermMemberVersion(ctx, c.EventID)
		if err != nil {
			return err
		}
		if seen != in.Version {
			return fmt.Errorf("term %d member version %d, the change saw %d: %w", c.EventID, seen, in.Version, ErrConflict)
		}
		members := map[string][]store.LeagueMember{}
		byClass := map[string]store.LeagueClass{}
		where := map[int64]string{} // player → class in this term
		for _, k := range classes {
			ms, err := tx.LeagueMembers(ctx, k.ID)
			if err != nil {
				return err
			}
			members[k.Class], byClass[k.Class] = ms, k
			for _, m := range ms {
				where[m.PlayerID] = k.Class
			}
		}
		ch := store.LeagueMemberChange{EventID: c.EventID, Seq: in.Version + 1, Action: in.Action, Kind: in.Kind,
			Reason: in.Reason, ActorID: actor.UserID, At: o.now()}
		touched := map[string]bool{c.Class: true}
		switch in.Action {
		case TermAdd:
			ix, err := loadPlayerIndex(ctx, tx)
			if err != nil {
				return err
			}
			p, code := ix.find(in.Player)
			if code != "" {
				v.Add(0, "player", code, map[string]any{"Value": strings.TrimSpace(in.Player)})
				break
			}
			if k, ok := where[p.ID]; ok {
				v.Add(0, "player", "term.err.member_already", map[string]any{"Name": p.Name, "Class": k})
				break
			}
			if in.Kind == KindNewYondan && (e.Kind != EventJunisenTerm || c.Class != "C2") {
				v.Add(0, "kind", "term.err.new_yondan_c2", nil)
				break
			}
			m := store.LeagueMember{PlayerID: p.ID, Points: in.Points, Origin: OriginAdded}
			at := len(members[c.Class])
			if in.Kind == KindPromoted {
				m.Origin = OriginPromoted
				at = promotedPlace(members[c.Class])
			}
			members[c.Class] = slices.Insert(members[c.Class], at, m)
			ch.PlayerID, ch.ToClass, ch.Points = p.ID, c.Class, in.Points
		case TermRemove, TermMove:
			i := slices.IndexFunc(members[c.Class], func(m store.LeagueMember) bool { return m.PlayerID == in.PlayerID })
			if i < 0 {
				v.Add(0, "player_id", "term.err.not_member", nil)
				break
			}
			m := members[c.Class][i]
			members[c.Class] = slices.Delete(members[c.Class], i, i+1)
			ch.PlayerID, ch.FromClass, ch.Points = m.PlayerID, c.Class, m.Points
			if in.Action == TermRemove {
				break
			}
			to, ok := byClass[in.ToClass]
			switch {
			case !ok:
				v.Add(0, "to_class", "term.err.to_class", nil)
			case to.ID == c.ID:
				v.Add(0, "to_class", "term.err.same_class", nil)
			case to.Status != LeagueSetup:
				v.Add(0, "to_class", "term.err.to_drawn", map[string]any{"Class": to.Class})
			default:
				m.Origin = OriginMoved
				members[to.Class] = append(members[to.Class], m)
				ch.ToClass, touched[to.Class] = to.Class, true
			}
		}
		if err := v.OrNil(); err != nil {
			return err
		}
		for k := range touched {
			ms := members[k]
			for i := range ms {
				ms[i].Junni = i + 1
				if ms[i].PlayerID == ch.PlayerID && k == ch.ToClass {
					ch.Junni = i + 1
				}
			}
			if err := tx.ReplaceLeagueMembers(ctx, byClass[k].ID, ms); err != nil {
				return err
			}
		}
		return tx.AppendLeagueMemberChange(ctx, &ch)
	})
}

// promotedPlace is where a player promoted from below joins (DOMAIN.md:
// after the demoted and the stayers without a new 降級点 and those already
// promoted, before the stayers who got one and anyone added or moved in).
func promotedPlace(ms []store.LeagueMember) int {
	for i, m := range ms {
		switch m.Origin {
		case OriginStayedWithPoint, OriginAdded, OriginMoved:
			return i
		}
	}
	return len(ms)
}

// SettingMisfit is one class setting that no longer fits the class's size
// (docs/leagues.md): Code names it, Value is the setting, Players the
// class size, and Suggest the value that fits (0: none).
type SettingMisfit struct {
	Code    string // fit.too_few, fit.games_over, fit.split_four, fit.odd_games
	Field   string // the setting's form field
	Value   int
	Players int
	Suggest int
}

// ClassFit checks a class's settings against its size before any draw is
// tried, so the draw never meets a size the engine must refuse: at least
// two players; a partial league's games per player at most the classmates
// each has; and, in an odd class, an even number of games (every game takes
// two players, so an odd class cannot all play an odd number). A round
// robin fits any size of two or more.
func ClassFit(s league.Settings, players int) []SettingMisfit {
	if players < 2 {
		return []SettingMisfit{{Code: "fit.too_few", Field: "members", Players: players}}
	}
	if s.RoundRobin {
		return nil
	}
	g := s.GamesPerPlayer
	// Four players who each play three games cannot split both their
	// first two and their last two games between sente and gote (the
	// league room's structure check, D-B2 practice): two games then fit.
	splitBoth := s.SenteGote.SplitFirstTwo && s.SenteGote.SplitLastTwo
	var out []SettingMisfit
	if g > players-1 {
		// players-1 is even in an odd class, so it fits the parity check.
		sug := players - 1
		if players == 4 && splitBoth {
			sug = 2
		}
		return append(out, SettingMisfit{Code: "fit.games_over", Field: "games_per_player", Value: g, Players: players, Suggest: sug})
	}
	if players == 4 && g == 3 && splitBoth {
		return append(out, SettingMisfit{Code: "fit.split_four", Field: "games_per_player", Value: g, Players: players, Suggest: 2})
	}
	if players%2 == 1 && g%2 == 1 {
		sug := g - 1
		if sug < 1 {
			sug = g + 1
		}
		if sug > players-1 {
			sug = 0
		}
		out = append(out, SettingMisfit{Code: "fit.odd_games", Field: "games_per_player", Value: g, Players: players, Suggest: sug})
	}
	return out
}

// SettingsMisfitError refuses a draw whose class settings no longer fit
// the class's size (ClassFit), before the engine is asked.
type SettingsMisfitError struct {
	ClassID int64
	Misfits []SettingMisfit
}

func (e *SettingsMisfitError) Error() string {
	return fmt.Sprintf("league class %d: settings do not fit the class (%d problems)", e.ClassID, len(e.Misfits))
}

// Unwrap lets errors.Is(err, ErrInvalid) hold.
func (e *SettingsMisfitError) Unwrap() error { return ErrInvalid }
