package office

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"kisen/store"
)

// Per-event roles. Administrators (a flag on the user) hold every power in
// every event; these are granted per event (DOMAIN.md "People and roles";
// an arbiter's power is per event, 000 第11条).
const (
	RoleDirector  = "director"  // 大会責任者: runs the event, manages its roles
	RoleScheduler = "scheduler" // リーグ担当: draws and schedules
	RoleArbiter   = "arbiter"   // 立会人: rules on games (000 第11条)
	RoleRecorder  = "recorder"  // 記録係: keeps game records (000 第12条)
)

// EventRoleNames lists the per-event roles in display order.
var EventRoleNames = []string{RoleDirector, RoleScheduler, RoleArbiter, RoleRecorder}

// RequireEventRole fails with ErrForbidden unless the actor is an
// administrator or holds one of roles in the event; when the event is a
// draft the actor may not see (no role at all), it fails with ErrNotFound
// instead, as the event's pages do (visibility.go). Later capabilities
// (draws, results, rulings) call it before they act, and their previews
// call it with the same roles, so both answer alike.
func (o *Office) RequireEventRole(ctx context.Context, actor Actor, eventID int64, roles ...string) error {
	return requireEventRole(ctx, o.store, actor, eventID, roles...)
}

// holdsEventRole is RequireEventRole as a yes or no, for pages that only
// show or hide what a role may do. A signed-out visitor without an API
// token holds no role, so the answer costs no statement
// (RequireEventRole reads the event only to choose between not found and
// forbidden; issue 12).
func (o *Office) holdsEventRole(ctx context.Context, actor Actor, eventID int64, roles ...string) bool {
	if actor.Token == nil && actor.Anonymous() {
		return false
	}
	return o.RequireEventRole(ctx, actor, eventID, roles...) == nil
}

func requireEventRole(ctx context.Context, s *store.Store, actor Actor, eventID int64, roles ...string) error {
	if actor.Token != nil {
		if actor.Token.Allows(eventID, roles...) {
			return nil
		}
		return hiddenOrForbidden(ctx, s, actor, eventID,
			fmt.Errorf("event %d: token %d (%s) does not act as %v here: %w", eventID, actor.Token.ID, actor.Token.Scope, roles, ErrForbidden))
	}
	if actor.Admin && !actor.Anonymous() {
		return nil
	}
	var refused error
	if actor.Anonymous() {
		refused = fmt.Errorf("event %d: sign-in required: %w", eventID, ErrForbidden)
	} else {
		ok, err := s.HasEventRole(ctx, eventID, actor.UserID, roles...)
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
		refused = fmt.Errorf("event %d: user %d holds none of %v: %w", eventID, actor.UserID, roles, ErrForbidden)
	}
	return hiddenOrForbidden(ctx, s, actor, eventID, refused)
}

// RoleGrant names a role to grant or revoke.
type RoleGrant struct {
	EventID int64
	UserID  int64
	Role    string
}

// GrantEventRole gives a user a role in an event. Administrators and the
// event's directors may do it.
func (o *Office) GrantEventRole(ctx context.Context, actor Actor, in RoleGrant) error {
	return o.store.Tx(ctx, func(tx *store.Store) error {
		if _, err := tx.EventByID(ctx, in.EventID); err != nil {
			return err
		}
		if err := requireEventRole(ctx, tx, actor, in.EventID, RoleDirector); err != nil {
			return err
		}
		v := &ValidationError{}
		if !slices.Contains(EventRoleNames, in.Role) {
			v.Add(0, "role", "events.err.role", nil)
		}
		u, err := tx.UserByID(ctx, in.UserID)
		switch {
		case errors.Is(err, store.ErrNotFound) || (err == nil && u.Disabled):
			v.Add(0, "user", "events.err.user", nil)
		case err != nil:
			return err
		}
		if v.FieldMessage("role") == "" && v.FieldMessage("user") == "" {
			held, err := tx.HasEventRole(ctx, in.EventID, in.UserID, in.Role)
			if err != nil {
				return err
			}
			if held {
				v.Add(0, "user", "events.err.role_held", nil)
			}
		}
		if err := v.OrNil(); err != nil {
			return err
		}
		return tx.GrantEventRole(ctx, &store.EventRole{
			EventID: in.EventID, UserID: in.UserID, Role: in.Role, GrantedBy: actor.UserID, CreatedAt: o.now(),
		})
	})
}

// RevokeEventRole takes a role away. Administrators and the event's
// directors may do it; a role not held is ErrNotFound.
func (o *Office) RevokeEventRole(ctx context.Context, actor Actor, in RoleGrant) error {
	return o.store.Tx(ctx, func(tx *store.Store) error {
		if _, err := tx.EventByID(ctx, in.EventID); err != nil {
			return err
		}
		if err := requireEventRole(ctx, tx, actor, in.EventID, RoleDirector); err != nil {
			return err
		}
		held, err := tx.RevokeEventRole(ctx, in.EventID, in.UserID, in.Role)
		if err != nil {
			return err
		}
		if !held {
			return fmt.Errorf("event %d: user %d does not hold %q: %w", in.EventID, in.UserID, in.Role, ErrNotFound)
		}
		return nil
	})
}

// EventRoles lists the role holders of an event. Anyone who may see the
// event may see who runs it.
func (o *Office) EventRoles(ctx context.Context, actor Actor, eventID int64) ([]store.EventRoleHolder, error) {
	if _, err := o.Event(ctx, actor, eventID); err != nil {
		return nil, err
	}
	return o.store.EventRoles(ctx, eventID)
}

// UserEventRoles lists the roles a user holds; users see their own,
// administrators anyone's.
func (o *Office) UserEventRoles(ctx context.Context, actor Actor, userID int64) ([]store.UserEventRole, error) {
	if err := actor.RequireUser(); err != nil {
		return nil, err
	}
	if actor.UserID != userID && !actor.Admin {
		return nil, fmt.Errorf("roles of user %d: %w", userID, ErrForbidden)
	}
	return o.store.UserEventRoles(ctx, userID)
}
