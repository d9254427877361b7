package office

import (
	"context"
	"fmt"
	"strings"

	"kisen/store"
)

// Users lists every user (administrators only).
func (a Accounts) Users(ctx context.Context, actor Actor) ([]store.User, error) {
	if err := actor.RequireAdmin(); err != nil {
		return nil, err
	}
	return a.o.store.Users(ctx)
}

// ActiveUsers lists users who are not disabled, for choosing a role
// holder; administrators and directors may ask (a director sees logins
// and names, nothing more).
func (o *Office) ActiveUsers(ctx context.Context, actor Actor) ([]store.User, error) {
	if err := actor.RequireUser(); err != nil {
		return nil, err
	}
	all, err := o.store.Users(ctx)
	if err != nil {
		return nil, err
	}
	out := all[:0]
	for _, u := range all {
		if !u.Disabled {
			u.PasswordHash = ""
			out = append(out, u)
		}
	}
	return out, nil
}

// NewUser is the form an administrator fills to add a user.
type NewUser struct {
	Login       string `field:"login" validate:"required,minbytes=3,maxbytes=32,login" msg:"accounts.err,minbytes=login_length,maxbytes=login_length"`
	DisplayName string `field:"display_name" validate:"storable,required,max=100" msg:"accounts.err"`
	Password    string `field:"password" validate:"required,min=10,maxbytes=1024" msg:"accounts.err,min=password_short,maxbytes=password_long"` // initial password, handed over by the administrator
	Password2   string
}

// CreateUser adds a (non-administrator) user.
func (a Accounts) CreateUser(ctx context.Context, actor Actor, in NewUser) (store.User, error) {
	if err := actor.RequireAdmin(); err != nil {
		return store.User{}, err
	}
	in.Login, in.DisplayName = NormalizeLogin(in.Login), strings.TrimSpace(in.DisplayName)
	login, name := in.Login, in.DisplayName
	v := &ValidationError{}
	checkInput(v, 0, in)
	checkNewPassword(v, "password", "password2", in.Password, in.Password2, login)
	if v.FieldMessage("login") == "" {
		if _, err := a.o.store.UserByLogin(ctx, login); err == nil {
			v.Add(0, "login", "accounts.err.login_taken", nil)
		}
	}
	if err := v.OrNil(); err != nil {
		return store.User{}, err
	}
	hash, err := HashPassword(in.Password, a.params, nil)
	if err != nil {
		return store.User{}, err
	}
	now := a.o.now()
	u := store.User{Login: login, DisplayName: name, PasswordHash: hash, CreatedAt: now, UpdatedAt: now}
	err = a.o.store.Tx(ctx, func(tx *store.Store) error { return tx.CreateUser(ctx, &u) })
	if err != nil {
		// A concurrent insert of the same login lost the race.
		return store.User{}, fmt.Errorf("create user %s: %w", login, err)
	}
	return u, nil
}

// SetUserDisabled disables or re-enables a user. Disabling the last active
// administrator is refused.
func (a Accounts) SetUserDisabled(ctx context.Context, actor Actor, userID int64, disabled bool) error {
	return a.changeUser(ctx, actor, userID, func(u store.User) (store.UserUpdate, bool) {
		return store.UserUpdate{Disabled: &disabled}, disabled && u.IsAdmin && !u.Disabled
	})
}

// SetUserAdmin grants or revokes the administrator flag. Revoking it from
// the last active administrator is refused.
func (a Accounts) SetUserAdmin(ctx context.Context, actor Actor, userID int64, admin bool) error {
	return a.changeUser(ctx, actor, userID, func(u store.User) (store.UserUpdate, bool) {
		return store.UserUpdate{IsAdmin: &admin}, !admin && u.IsAdmin && !u.Disabled
	})
}

// changeUser applies an administrator's change to a user in one
// transaction under the administrators lock; losesAdmin says whether the
// change takes away an active administrator, which needs another to stay.
func (a Accounts) changeUser(ctx context.Context, actor Actor, userID int64,
	change func(store.User) (up store.UserUpdate, losesAdmin bool)) error {
	if err := actor.RequireAdmin(); err != nil {
		return err
	}
	now := a.o.now()
	return a.o.store.Tx(ctx, func(tx *store.Store) error {
		if err := tx.LockAdmins(ctx); err != nil {
			return err
		}
		u, err := tx.UserByID(ctx, userID)
		if err != nil {
			return err
		}
		up, losesAdmin := change(u)
		if losesAdmin {
			n, err := tx.CountActiveAdmins(ctx)
			if err != nil {
				return err
			}
			if n <= 1 {
				v := &ValidationError{}
				v.Add(0, "user", "accounts.err.last_admin", nil)
				return v
			}
		}
		return tx.UpdateUser(ctx, u.ID, up, now)
	})
}
