package teams

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"kisen/office"
	"kisen/pairing"
	"kisen/store"
)

// Orders (オーダー, issue 25 item 2, docs/team-entries.md). Before each
// round every team hands in its board order from its roster by the round's
// deadline; the event's rule (pairing.CheckTeamOrder) refuses a breach in
// words naming the boards and players. An empty board is a forfeit loss
// (不戦敗); a team short of a majority of its boards forfeits the match
// when the organiser says so (Settings.MajorityForfeit).
//
// Hidden until published: a round's orders are published together when
// every team of the event has one in, or when the deadline passes. Until
// then only the event's role holders (who receive them) see any order; to
// everyone else a hidden order is not found, like a missing one.
//
// Append-only: each submission is a new team_orders row superseding the
// last; once the round is published a new one is a correction and needs a
// reason. A write carries the id of the order it replaces (0: none) as its
// version; a stale one is ErrConflict.

// japan is the zone deadlines are typed and shown in (no daylight saving).
var japan = time.FixedZone("JST", 9*60*60)

// DeadlineLayout is how a deadline is typed (Japan time).
const DeadlineLayout = "2006-01-02T15:04"

// RoundInput is the round form: its number (new rounds) and deadline.
type RoundInput struct {
	EventID  int64
	RoundID  int64 // 0: a new round
	Version  int
	Number   string
	Deadline string // DeadlineLayout, Japan time
}

// SaveRound adds a round or moves its deadline (directors). A deadline
// lies in the future, and cannot move once the round's orders are
// published.
func (t *Teams) SaveRound(ctx context.Context, actor office.Actor, in RoundInput) (store.TeamRound, error) {
	var out store.TeamRound
	err := t.store.Tx(ctx, func(tx *store.Store) error {
		if _, err := requireTeamEvent(ctx, tx, actor, in.EventID, EditRoles); err != nil {
			return err
		}
		ve := &office.ValidationError{}
		now := t.now()
		dl, err := time.ParseInLocation(DeadlineLayout, strings.TrimSpace(in.Deadline), japan)
		switch {
		case err != nil:
			ve.Add(0, "deadline", "teams.err.deadline", nil)
		case !dl.After(now): // a deadline already passed would publish at once
			ve.Add(0, "deadline", "teams.err.deadline_past", nil)
		}
		rounds, err := tx.TeamRoundsOfEvent(ctx, in.EventID)
		if err != nil {
			return err
		}
		if in.RoundID == 0 {
			n, err := strconv.Atoi(strings.TrimSpace(in.Number))
			if err != nil || n < 1 || n > 99 {
				ve.Add(0, "number", "teams.err.round_number", map[string]any{"Max": 99})
			}
			for _, r := range rounds {
				if r.Number == n {
					ve.Add(0, "number", "teams.err.round_exists", map[string]any{"Round": n})
				}
			}
			if err := ve.OrNil(); err != nil {
				return err
			}
			out = store.TeamRound{EventID: in.EventID, Number: n, Deadline: dl, CreatedAt: now, UpdatedAt: now}
			return tx.CreateTeamRound(ctx, &out)
		}
		var cur *store.TeamRound
		for i := range rounds {
			if rounds[i].ID == in.RoundID {
				cur = &rounds[i]
			}
		}
		if cur == nil {
			return fmt.Errorf("team round %d: %w", in.RoundID, office.ErrNotFound)
		}
		if cur.Version != in.Version {
			return fmt.Errorf("team round %d changed: %w", in.RoundID, office.ErrConflict)
		}
		if err := ve.OrNil(); err != nil {
			return err
		}
		st, err := t.roundStateIn(ctx, tx, *cur)
		if err != nil {
			return err
		}
		if st.published(now) {
			return invalid("deadline", "teams.err.deadline_published", nil)
		}
		cur.Deadline, cur.UpdatedAt = dl, now
		if err := tx.UpdateTeamRoundDeadline(ctx, cur); err != nil {
			return err
		}
		out = *cur
		return nil
	})
	return out, err
}

// roundState is a round with the event's teams and every order of the round.
type roundState struct {
	round    store.TeamRound
	settings store.TeamEvent
	teams    []store.Team
	orders   []store.TeamOrder // of this round, oldest first
	boards   map[int64][]store.TeamOrderBoard
	members  []store.TeamMemberRow
	bye      int64 // the team with the round's bye (not in teams: it hands in no order), 0 none
}

// withoutBye drops the round's bye team from the teams that hand in an
// order (issue 25, the team Swiss draw's bye: no match, no order).
func (st *roundState) withoutBye(byes map[int64]store.TeamRoundBye) {
	b, ok := byes[st.round.ID]
	if !ok {
		return
	}
	st.bye = b.TeamID
	st.teams = slices.DeleteFunc(slices.Clone(st.teams), func(tm store.Team) bool { return tm.ID == b.TeamID })
}

func (t *Teams) roundStateIn(ctx context.Context, tx *store.Store, r store.TeamRound) (roundState, error) {
	st := roundState{round: r}
	var err error
	if st.settings, err = tx.TeamEventByID(ctx, r.EventID); err != nil {
		return st, err
	}
	if st.teams, err = tx.TeamsOfEvent(ctx, r.EventID); err != nil {
		return st, err
	}
	byes, err := tx.TeamByesOfEvent(ctx, r.EventID)
	if err != nil {
		return st, err
	}
	st.withoutBye(byes)
	all, boards, err := tx.TeamOrdersOfEvent(ctx, r.EventID)
	if err != nil {
		return st, err
	}
	for _, o := range all {
		if o.RoundID == r.ID {
			st.orders = append(st.orders, o)
		}
	}
	st.boards = boards
	if st.members, err = tx.TeamMembersOfEvent(ctx, r.EventID); err != nil {
		return st, err
	}
	return st, nil
}

// current is each team's latest order of the round.
func (st roundState) current() map[int64]store.TeamOrder {
	out := map[int64]store.TeamOrder{}
	for _, o := range st.orders {
		out[o.TeamID] = o
	}
	return out
}

// published reports whether the round's orders are published at now:
// every team has one in, or the deadline has passed.
func (st roundState) published(now time.Time) bool {
	if !now.Before(st.round.Deadline) {
		return true
	}
	cur := st.current()
	if len(st.teams) == 0 {
		return false
	}
	for _, tm := range st.teams {
		if _, ok := cur[tm.ID]; !ok {
			return false
		}
	}
	return true
}

// publishedAt is when the round's orders were published (the deadline, or
// the last team's first order before it), zero while hidden.
func (st roundState) publishedAt(now time.Time) time.Time {
	if !st.published(now) {
		return time.Time{}
	}
	first := map[int64]time.Time{}
	for _, o := range st.orders {
		if _, ok := first[o.TeamID]; !ok {
			first[o.TeamID] = o.SubmittedAt
		}
	}
	var last time.Time
	for _, tm := range st.teams {
		at, ok := first[tm.ID]
		if !ok || at.After(st.round.Deadline) {
			return st.round.Deadline
		}
		if at.After(last) {
			last = at
		}
	}
	if last.IsZero() {
		return st.round.Deadline
	}
	return last
}

// ordersOpenIn reports whether a round of the event takes orders now (its
// deadline not passed) and has some in. No team is added then: a round
// published because every team's order was in would hide its orders again.
func ordersOpenIn(ctx context.Context, tx *store.Store, eventID int64, now time.Time) (bool, error) {
	rounds, err := tx.TeamRoundsOfEvent(ctx, eventID)
	if err != nil {
		return false, err
	}
	open := map[int64]bool{}
	for _, r := range rounds {
		if now.Before(r.Deadline) {
			open[r.ID] = true
		}
	}
	if len(open) == 0 {
		return false, nil
	}
	orders, _, err := tx.TeamOrdersOfEvent(ctx, eventID)
	if err != nil {
		return false, err
	}
	for _, o := range orders {
		if open[o.RoundID] {
			return true, nil
		}
	}
	return false, nil
}

// roster is a team's roster for the rule check.
func (st roundState) roster(teamID int64) ([]pairing.TeamRosterMember, map[int64]store.TeamMemberRow) {
	var out []pairing.TeamRosterMember
	byID := map[int64]store.TeamMemberRow{}
	for _, m := range st.members {
		if m.TeamID != teamID {
			continue
		}
		rm := pairing.TeamRosterMember{PlayerID: m.PlayerID, Position: m.Position}
		if r, err := pairing.ParseRank(m.Rank); err == nil && m.Rank != "" {
			rm.Rank, rm.HasRank = r, true
		}
		out = append(out, rm)
		byID[m.PlayerID] = m
	}
	return out, byID
}

// OrderInput is one team's order for a round: Players[i] is board i+1's
// player (0: empty, a forfeit). Version is the id of the order it replaces
// (0 when the team has none); Reason is required once the round's orders
// are published (a correction).
type OrderInput struct {
	RoundID int64
	TeamID  int64
	Version int64
	Players []int64
	Reason  string
}

// SubmitOrder records a team's order for a round (directors and arbiters)
// in one transaction. A breach of the event's rule is a ValidationError
// naming the boards and players; nothing is written then.
func (t *Teams) SubmitOrder(ctx context.Context, actor office.Actor, in OrderInput) (store.TeamOrder, error) {
	var out store.TeamOrder
	err := t.store.Tx(ctx, func(tx *store.Store) error {
		r, tm, err := roundAndTeamIn(ctx, tx, in.RoundID, in.TeamID)
		if err != nil {
			return err
		}
		if _, err := requireTeamEvent(ctx, tx, actor, r.EventID, OrderRoles); err != nil {
			return err
		}
		st, err := t.roundStateIn(ctx, tx, r)
		if err != nil {
			return err
		}
		if tm.ID == st.bye {
			return invalid("", "teams.err.order_bye", map[string]any{"Round": r.Number})
		}
		prev, had := st.current()[tm.ID]
		if (had && prev.ID != in.Version) || (!had && in.Version != 0) {
			return fmt.Errorf("the order of team %d in round %d changed: %w", tm.ID, r.Number, office.ErrConflict)
		}
		// Issue 25 item 3: once the team's match is started its boards are
		// games; the order they were made from no longer changes.
		ms, err := tx.TeamMatchesOfRound(ctx, r.ID)
		if err != nil {
			return err
		}
		for _, m := range ms {
			if m.Started && (m.TeamAID == tm.ID || m.TeamBID == tm.ID) {
				return invalid("", "teams.err.order_match_started", map[string]any{"Table": m.TableNo})
			}
		}
		now := t.now()
		ve := &office.ValidationError{}
		reason := office.NFC(strings.TrimSpace(in.Reason))
		corr := st.published(now) && had
		if corr && reason == "" {
			ve.Add(0, "reason", "teams.err.reason_needed", nil)
		}
		if len([]rune(reason)) > 500 {
			ve.Add(0, "reason", "teams.err.too_long", map[string]any{"Max": 500})
		}
		roster, byID := st.roster(tm.ID)
		c := pairing.CheckTeamOrder(st.settings.OrderRule, st.settings.Boards, roster, in.Players)
		for _, b := range c.Breaches {
			ve.Add(0, "board_"+strconv.Itoa(b.Board), "teams.err.order_"+b.Kind, map[string]any{
				"Board": b.Board, "Other": b.Other,
				"Player": nameOf(byID, b.PlayerID), "OtherPlayer": nameOf(byID, b.OtherID),
				"Rank": byID[b.PlayerID].Rank, "OtherRank": byID[b.OtherID].Rank,
			})
		}
		if c.Players == 0 && ve.OrNil() == nil {
			ve.Add(0, "board_1", "teams.err.order_empty", nil)
		}
		if err := ve.OrNil(); err != nil {
			return err
		}
		o := store.TeamOrder{EventID: r.EventID, RoundID: r.ID, TeamID: tm.ID, Reason: reason, Late: !now.Before(r.Deadline), SubmittedBy: actor.UserID, SubmittedAt: now}
		if had {
			o.SupersedesID = &prev.ID
		}
		boards := make([]store.TeamOrderBoard, st.settings.Boards)
		for i := range boards {
			boards[i].Board = i + 1
			if i < len(in.Players) && in.Players[i] != 0 {
				id := in.Players[i]
				boards[i].PlayerID = &id
			}
		}
		if err := tx.AddTeamOrder(ctx, &o, boards); err != nil {
			return err
		}
		out = o
		return nil
	})
	return out, err
}

func nameOf(byID map[int64]store.TeamMemberRow, id int64) string {
	if m, ok := byID[id]; ok {
		return m.Name
	}
	return ""
}

// roundAndTeamIn reads a round and a team of the same event.
func roundAndTeamIn(ctx context.Context, tx *store.Store, roundID, teamID int64) (store.TeamRound, store.Team, error) {
	tm, err := tx.TeamByID(ctx, teamID)
	if err != nil {
		return store.TeamRound{}, store.Team{}, err
	}
	rounds, err := tx.TeamRoundsOfEvent(ctx, tm.EventID)
	if err != nil {
		return store.TeamRound{}, store.Team{}, err
	}
	for _, r := range rounds {
		if r.ID == roundID {
			return r, tm, nil
		}
	}
	return store.TeamRound{}, store.Team{}, fmt.Errorf("round %d of team %d's event: %w", roundID, teamID, office.ErrNotFound)
}

// OrderBoard is one board of an order as shown.
type OrderBoard struct {
	Board    int
	PlayerID int64 // 0: empty, a forfeit (不戦敗)
	Name     string
	Rank     string
	Reserve  bool // the player is registered as a reserve (補欠)
}

// OrderView is a team's current order for a round and what it means.
type OrderView struct {
	Team            store.Team
	Order           store.TeamOrder // zero when the team has none
	Missing         bool            // no order: every board is a forfeit
	Boards          []OrderBoard
	ForfeitBoards   []int
	ShortOfMajority bool // fewer players than a majority of the boards
	MatchForfeit    bool // … and the event says such a team forfeits the match
	Corrections     int  // orders that replaced an earlier one with a reason
	Late            bool
}

// RoundView is a round's orders as the reader may see them.
type RoundView struct {
	Event       store.Event
	Settings    Settings
	Round       store.TeamRound
	Published   bool
	PublishedAt time.Time
	Staff       bool        // the reader holds a role in the event: sees hidden orders
	CanSubmit   bool        // the reader may submit orders
	Orders      []OrderView // every team, in entry order: to the staff always, to others once published
	Submitted   int         // teams with an order in
}

func (st roundState) views(now time.Time) []OrderView {
	cur := st.current()
	corrections := map[int64]int{} // team → orders that replaced one with a reason
	for _, o := range st.orders {
		if o.SupersedesID != nil && o.Reason != "" {
			corrections[o.TeamID]++
		}
	}
	var out []OrderView
	for _, tm := range st.teams {
		_, byID := st.roster(tm.ID)
		v := OrderView{Team: tm}
		o, ok := cur[tm.ID]
		players := make([]int64, st.settings.Boards)
		if ok {
			v.Order, v.Late, v.Corrections = o, o.Late, corrections[tm.ID]
			for _, b := range st.boards[o.ID] {
				if b.PlayerID != nil && b.Board >= 1 && b.Board <= len(players) {
					players[b.Board-1] = *b.PlayerID
				}
			}
		} else {
			v.Missing = true
		}
		for i, id := range players {
			ob := OrderBoard{Board: i + 1, PlayerID: id}
			if m, on := byID[id]; on {
				ob.Name, ob.Rank, ob.Reserve = m.Name, m.Rank, m.Position > st.settings.Boards
			}
			v.Boards = append(v.Boards, ob)
		}
		c := pairing.CheckTeamOrder(pairing.TeamOrderFree, st.settings.Boards, nil, players)
		v.ForfeitBoards, v.ShortOfMajority = c.ForfeitBoards, c.ShortOfMajority
		v.MatchForfeit = c.ShortOfMajority && st.settings.MajorityForfeit
		out = append(out, v)
	}
	return out
}

// Rounds lists a team event's rounds for anyone who may see the event.
func (t *Teams) Rounds(ctx context.Context, actor office.Actor, eventID int64) ([]store.TeamRound, error) {
	if _, _, err := t.EventSettings(ctx, actor, eventID); err != nil {
		return nil, err
	}
	return t.store.TeamRoundsOfEvent(ctx, eventID)
}

// RoundOrders reads a round's orders for the reader: the staff see every
// order, published or not (with who has handed one in); everyone else sees
// them once published, and before that only that they are not yet.
func (t *Teams) RoundOrders(ctx context.Context, actor office.Actor, roundID int64) (RoundView, error) {
	r, err := t.roundOf(ctx, roundID)
	if err != nil {
		return RoundView{}, err
	}
	e, s, err := t.EventSettings(ctx, actor, r.EventID)
	if err != nil {
		return RoundView{}, err
	}
	v := RoundView{Event: e, Settings: s, Round: r}
	if v.Staff, err = isStaff(ctx, t.store, actor, r.EventID); err != nil {
		return RoundView{}, err
	}
	if v.Staff {
		v.CanSubmit = office.RequireEventRoleIn(ctx, t.store, actor, r.EventID, OrderRoles...) == nil
	}
	st, err := t.roundStateIn(ctx, t.store, r)
	if err != nil {
		return RoundView{}, err
	}
	now := t.now()
	v.Published, v.PublishedAt = st.published(now), st.publishedAt(now)
	v.Submitted = len(st.current())
	if v.Published || v.Staff {
		v.Orders = st.views(now)
	}
	return v, nil
}

// TeamOrder reads one team's order for a round. To anyone but the staff an
// order that is hidden (the round not yet published) or missing is
// ErrNotFound alike.
func (t *Teams) TeamOrder(ctx context.Context, actor office.Actor, roundID, teamID int64) (OrderView, RoundView, error) {
	v, err := t.RoundOrders(ctx, actor, roundID)
	if err != nil {
		return OrderView{}, RoundView{}, err
	}
	for _, ov := range v.Orders {
		if ov.Team.ID == teamID {
			if ov.Missing && !v.Staff {
				break
			}
			return ov, v, nil
		}
	}
	return OrderView{}, RoundView{}, fmt.Errorf("order of team %d in round %d: %w", teamID, roundID, office.ErrNotFound)
}

// roundOf reads a round by id.
func (t *Teams) roundOf(ctx context.Context, roundID int64) (store.TeamRound, error) {
	return t.store.TeamRoundByID(ctx, roundID)
}
