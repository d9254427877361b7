// Package teams is the team event's entries and orders (団体戦, issue 25
// items 1 and 2, docs/team-entries.md): the event's settings (boards,
// reserves, the order rule, the majority forfeit), teams with their
// affiliation and roster (from the registry, or registered at entry with
// the amateur day's name matching), and each round's orders (オーダー),
// checked by pairing.CheckTeamOrder, hidden until every team's is in or
// the deadline passes, append-only once written. Each use case is one
// transaction over the store. It imports office, office/day (the name
// matching), pairing and store; office never imports it.
package teams

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"kisen/office"
	"kisen/pairing"
	"kisen/store"
)

// Teams runs the team event's use cases. It holds no per-request state.
type Teams struct {
	o     *office.Office
	store *store.Store
	now   func() time.Time
}

// New returns the team event's use cases over the office's store and clock.
func New(o *office.Office) *Teams {
	return &Teams{o: o, store: o.Store(), now: o.Now}
}

// Who may do what. Rosters and settings are the director's; orders are
// received by the director or an arbiter (the desk). Every role holder sees
// every order, published or not: Kisen has no team captain role, so the
// staff enter the orders the teams hand in (docs/team-entries.md).
var (
	EditRoles  = []string{office.RoleDirector}
	OrderRoles = []string{office.RoleDirector, office.RoleArbiter}
)

// Affiliation kinds of a team (used by the draws to keep teams of one
// school, club, 支部 or company apart).
const (
	AffiliationSchool  = "school"
	AffiliationClub    = "club"
	AffiliationBranch  = "branch" // 支部
	AffiliationCompany = "company"
	AffiliationOther   = "other"
)

// AffiliationKinds lists the kinds in display order.
var AffiliationKinds = []string{AffiliationSchool, AffiliationClub, AffiliationBranch, AffiliationCompany, AffiliationOther}

// Limits of the settings (the migration's checks).
const (
	MaxBoards   = 15
	MaxReserves = 15
)

// Settings is a team event's entry and order settings.
type Settings struct {
	EventID         int64
	Boards          int
	Reserves        int
	OrderRule       string // pairing.TeamOrderFree, TeamOrderByRank or TeamOrderFixed
	MajorityForfeit bool   // a team short of a majority of its boards forfeits the match
	Version         int
}

// RosterSize is how many players a team may register.
func (s Settings) RosterSize() int { return s.Boards + s.Reserves }

// Majority is the number of boards a team must fill.
func (s Settings) Majority() int { return pairing.TeamOrderMajority(s.Boards) }

func settingsOf(te store.TeamEvent) Settings {
	return Settings{EventID: te.EventID, Boards: te.Boards, Reserves: te.Reserves, OrderRule: te.OrderRule, MajorityForfeit: te.MajorityForfeit, Version: te.Version}
}

// SettingsInput is the settings form (numbers as typed).
type SettingsInput struct {
	EventID         int64
	Version         int
	Boards          string `field:"boards" validate:"intrange=1~15" msg:"teams.err"`
	Reserves        string `field:"reserves" validate:"intrange=0~15" msg:"teams.err"`
	OrderRule       string `field:"order_rule" validate:"oneof=free rank fixed" msg:"teams.err"`
	MajorityForfeit bool
}

func (in SettingsInput) read() (store.TeamEvent, error) {
	in.Boards, in.Reserves = strings.TrimSpace(in.Boards), strings.TrimSpace(in.Reserves)
	ve := &office.ValidationError{}
	office.CheckInput(ve, 0, &in)
	if err := ve.OrNil(); err != nil {
		return store.TeamEvent{}, err
	}
	b, _ := strconv.Atoi(in.Boards)
	r, _ := strconv.Atoi(in.Reserves)
	return store.TeamEvent{EventID: in.EventID, Boards: b, Reserves: r, OrderRule: in.OrderRule, MajorityForfeit: in.MajorityForfeit, Version: in.Version}, nil
}

// CreateTeamEvent adds a draft event that is a team event (administrators
// only), with its settings, in one transaction.
func (t *Teams) CreateTeamEvent(ctx context.Context, actor office.Actor, in office.EventInput, s SettingsInput) (store.Event, error) {
	te, serr := s.read()
	in.Kind = office.EventKnockout // the event's games are played as knockout or league rounds later; see 00260
	if err := actor.RequireAdmin(); err != nil {
		return store.Event{}, err
	}
	if serr != nil {
		return store.Event{}, serr
	}
	return t.o.CreateEventThen(ctx, actor, in, func(tx *store.Store, e store.Event) error {
		now := t.now()
		te.EventID, te.Version, te.CreatedAt, te.UpdatedAt = e.ID, 1, now, now
		return tx.CreateTeamEvent(ctx, &te)
	})
}

// IsTeamEvent reports whether an event is a team event.
func (t *Teams) IsTeamEvent(ctx context.Context, eventID int64) (bool, error) {
	_, err := t.store.TeamEventByID(ctx, eventID)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}

// TeamEventIDs reports which of the events ids are team events (one
// statement); the caller has read the events through office.Events.
func (t *Teams) TeamEventIDs(ctx context.Context, ids []int64) (map[int64]bool, error) {
	return t.store.TeamEventIDs(ctx, ids)
}

// EventKindTeam is the events form's choice for a team event: an event of
// kind knockout marked as a team event (CreateTeamEvent).
const EventKindTeam = "team"

// DefaultSettings are a new team event's settings from the events form
// (three boards, two reserves, free orders); the teams page changes them.
func DefaultSettings() SettingsInput {
	return SettingsInput{Boards: "3", Reserves: "2", OrderRule: pairing.TeamOrderFree}
}

// requireTeamEvent checks the actor holds one of roles in the event and
// that it is a team event, and locks its row (writers take turns).
func requireTeamEvent(ctx context.Context, tx *store.Store, actor office.Actor, eventID int64, roles []string) (store.TeamEvent, error) {
	if err := office.RequireEventRoleIn(ctx, tx, actor, eventID, roles...); err != nil {
		return store.TeamEvent{}, err
	}
	return tx.LockTeamEvent(ctx, eventID)
}

// isStaff reports whether the actor holds any role in the event (or is an
// administrator): they see every order.
func isStaff(ctx context.Context, s *store.Store, actor office.Actor, eventID int64) (bool, error) {
	err := office.RequireEventRoleIn(ctx, s, actor, eventID, office.StaffRoles...)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, office.ErrForbidden), errors.Is(err, store.ErrNotFound):
		return false, nil
	}
	return false, err
}

// EventSettings reads a team event's settings for anyone who may see the
// event (ErrNotFound for an event that is not a team event).
func (t *Teams) EventSettings(ctx context.Context, actor office.Actor, eventID int64) (store.Event, Settings, error) {
	e, err := t.o.Event(ctx, actor, eventID)
	if err != nil {
		return store.Event{}, Settings{}, err
	}
	te, err := t.store.TeamEventByID(ctx, eventID)
	if err != nil {
		return store.Event{}, Settings{}, err
	}
	return e, settingsOf(te), nil
}

// UpdateSettings changes the settings (directors) at the version seen.
// The boards cannot change once an order has been submitted, and the
// roster size cannot fall below a team's registered players.
func (t *Teams) UpdateSettings(ctx context.Context, actor office.Actor, in SettingsInput) (Settings, error) {
	next, err := in.read()
	if err != nil {
		if herr := office.RequireEventRoleIn(ctx, t.store, actor, in.EventID, EditRoles...); herr != nil {
			return Settings{}, herr
		}
		return Settings{}, err
	}
	var out Settings
	err = t.store.Tx(ctx, func(tx *store.Store) error {
		cur, err := requireTeamEvent(ctx, tx, actor, in.EventID, EditRoles)
		if err != nil {
			return err
		}
		if cur.Version != in.Version {
			return fmt.Errorf("team event %d settings changed: %w", in.EventID, office.ErrConflict)
		}
		ve := &office.ValidationError{}
		if next.Boards != cur.Boards {
			orders, _, err := tx.TeamOrdersOfEvent(ctx, in.EventID)
			if err != nil {
				return err
			}
			if len(orders) > 0 {
				ve.Add(0, "boards", "teams.err.boards_fixed", nil)
			}
		}
		members, err := tx.TeamMembersOfEvent(ctx, in.EventID)
		if err != nil {
			return err
		}
		count := map[int64]int{}
		for _, m := range members {
			count[m.TeamID]++
		}
		for _, n := range count {
			if n > next.Boards+next.Reserves {
				ve.Add(0, "reserves", "teams.err.roster_too_small", map[string]any{"N": n})
				break
			}
		}
		if err := ve.OrNil(); err != nil {
			return err
		}
		next.Version, next.UpdatedAt = cur.Version, t.now()
		if err := tx.UpdateTeamEvent(ctx, &next); err != nil {
			return err
		}
		out = settingsOf(next)
		return nil
	})
	return out, err
}

// RequireEditor answers, before a form is shown or read, whether the
// actor may change the event's teams and rosters (issue 21: permission
// before validation); a draft the actor may not see is not found.
func (t *Teams) RequireEditor(ctx context.Context, actor office.Actor, eventID int64) error {
	return office.RequireEventRoleIn(ctx, t.store, actor, eventID, EditRoles...)
}
