package office

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"kisen/store"
)

// SetupTokenLifetime is how long a first-run setup link stays valid.
const SetupTokenLifetime = 24 * time.Hour

// setupTokenHash is what the database keeps of a token: its SHA-256.
func setupTokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// NewSetupToken returns a fresh one-time token for creating the first
// administrator, or "" when an administrator exists. Only the token's
// hash and expiry are stored. Each call adds a token and leaves earlier
// unexpired ones valid, so every process sharing the database can print a
// working link; the raw token is never stored, so it cannot be shown
// again — a restart prints a new one. Expired tokens are pruned.
func (a Accounts) NewSetupToken(ctx context.Context) (string, error) {
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return "", fmt.Errorf("setup token: %w", err)
	}
	token := base64.RawURLEncoding.EncodeToString(raw)
	now := a.o.now()
	var out string
	err := a.o.store.Tx(ctx, func(tx *store.Store) error {
		if err := tx.LockAdmins(ctx); err != nil {
			return err
		}
		n, err := countAdmins(ctx, tx)
		if err != nil || n > 0 {
			return err
		}
		if err := tx.PruneSetupTokens(ctx, now); err != nil {
			return err
		}
		if err := tx.PutSetupToken(ctx, setupTokenHash(token), now.Add(SetupTokenLifetime), now); err != nil {
			return err
		}
		out = token
		return nil
	})
	return out, err
}

// countAdmins counts administrators, disabled or not: setup is for an
// instance that never had one.
func countAdmins(ctx context.Context, s *store.Store) (int64, error) {
	var n int64
	err := s.DB(ctx).Model(&store.User{}).Where("is_admin = ?", true).Count(&n).Error
	if err != nil {
		return 0, fmt.Errorf("count administrators: %w", err)
	}
	return n, nil
}

// CheckSetupToken succeeds when no administrator exists and token is a
// stored, unexpired setup token; otherwise it fails with ErrNotFound (the
// setup page then does not exist).
func (a Accounts) CheckSetupToken(ctx context.Context, token string) error {
	return checkSetupToken(ctx, a.o.store, token, a.o.now())
}

func checkSetupToken(ctx context.Context, s *store.Store, token string, now time.Time) error {
	if strings.TrimSpace(token) == "" {
		return fmt.Errorf("setup token missing: %w", ErrNotFound)
	}
	n, err := countAdmins(ctx, s)
	if err != nil {
		return err
	}
	if n > 0 {
		return fmt.Errorf("setup: an administrator exists: %w", ErrNotFound)
	}
	ok, err := s.SetupTokenValid(ctx, setupTokenHash(token), now)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("setup token unknown or expired: %w", ErrNotFound)
	}
	return nil
}

// SetupInput is the first-run form.
type SetupInput struct {
	Token       string
	Login       string `field:"login" validate:"required,minbytes=3,maxbytes=32,login" msg:"accounts.err,minbytes=login_length,maxbytes=login_length"`
	DisplayName string `field:"display_name" validate:"storable,required,max=100" msg:"accounts.err"`
	Password    string `field:"password" validate:"required,min=10,maxbytes=1024" msg:"accounts.err,min=password_short,maxbytes=password_long"`
	Password2   string
}

// CompleteSetup creates the first administrator and consumes every setup
// token. It re-checks inside one transaction, holding the administrators
// lock, that no administrator exists — so two processes sharing one
// PostgreSQL cannot both create one; the loser gets ErrNotFound.
func (a Accounts) CompleteSetup(ctx context.Context, in SetupInput) (store.User, error) {
	in.Login, in.DisplayName = NormalizeLogin(in.Login), strings.TrimSpace(in.DisplayName)
	login, name := in.Login, in.DisplayName
	v := &ValidationError{}
	checkInput(v, 0, in)
	checkNewPassword(v, "password", "password2", in.Password, in.Password2, login)
	// A bad token is not a form error: the page itself is gone.
	if err := a.CheckSetupToken(ctx, in.Token); err != nil {
		return store.User{}, err
	}
	if err := v.OrNil(); err != nil {
		return store.User{}, err
	}
	hash, err := HashPassword(in.Password, a.params, nil)
	if err != nil {
		return store.User{}, err
	}
	now := a.o.now()
	u := store.User{Login: login, DisplayName: name, PasswordHash: hash, IsAdmin: true, CreatedAt: now, UpdatedAt: now}
	err = a.o.store.Tx(ctx, func(tx *store.Store) error {
		if err := tx.LockAdmins(ctx); err != nil {
			return err
		}
		if err := checkSetupToken(ctx, tx, in.Token, now); err != nil {
			return err
		}
		if err := tx.CreateUser(ctx, &u); err != nil {
			return err
		}
		return tx.DeleteSetupTokens(ctx)
	})
	if err != nil {
		return store.User{}, fmt.Errorf("first-run setup: %w", err)
	}
	return u, nil
}
