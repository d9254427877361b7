package office

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"kisen/store"
)

// API tokens (issue 15 part 4, docs/api.md). A director gives a program a
// token for one event and one scope; the program sends it as
// "Authorization: Bearer <secret>". The token acts as the role its scope
// names, in its event only, and every write it makes carries its name
// (EnteredVia) and a line in api_token_uses, in the write's transaction.
//
// A token actor keeps the UserID of the director who created it, so the
// rows it writes name a real user, but it is never an administrator and
// never holds that user's roles: requireEventRole, holdsEventRole,
// rulingAuthority and Events ask the token, not the user.

// Token scopes.
const (
	ScopeResults = "results" // enter results (as a 記録係 would)
	ScopeRecords = "records" // save records and append moves
	ScopeRulings = "rulings" // file rulings (as the event's 立会人)
	// ScopeConfirmations confirms results where the event requires a
	// second person's confirmation (as a 立会人 would on the game page).
	ScopeConfirmations = "confirmations"
	ScopeReadDrafts    = "read_drafts" // read the event through the API while it is a draft
)

// TokenScopes lists the scopes in display order.
var TokenScopes = []string{ScopeResults, ScopeRecords, ScopeRulings, ScopeConfirmations, ScopeReadDrafts}

// ErrUnauthorized: no valid token (unknown, expired or revoked); web
// answers 401. The three are told apart in the log only.
var ErrUnauthorized = errors.New("unauthorized")

// Token limits.
const (
	maxTokenName    = 100
	MaxTokenLife    = 366 * 24 * time.Hour
	tokenSecretSize = 32
	tokenPrefix     = "kisen_"
	// touchEvery bounds how often a token's last use is written.
	touchEvery = time.Minute
)

// TokenGrant is what a token lets its bearer do.
type TokenGrant struct {
	ID      int64
	Name    string
	EventID int64
	Scope   string
}

// role is the event role the scope acts as ("" for read_drafts).
func (g TokenGrant) role() string {
	switch g.Scope {
	case ScopeResults, ScopeRecords:
		return RoleRecorder
	case ScopeRulings, ScopeConfirmations:
		return RoleArbiter
	}
	return ""
}

// Allows reports whether the grant acts in eventID as one of roles.
func (g TokenGrant) Allows(eventID int64, roles ...string) bool {
	r := g.role()
	return g.EventID == eventID && r != "" && slices.Contains(roles, r)
}

// enteredVia is the token's name for rows written by actor ("" from the web).
func (a Actor) enteredVia() string {
	if a.Token == nil {
		return ""
	}
	return a.Token.Name
}

// logTokenUse appends the audit line of a write made through a token, in
// the write's transaction; nothing for the web.
func logTokenUse(ctx context.Context, tx *store.Store, a Actor, action string, gameID int64, now time.Time) error {
	if a.Token == nil {
		return nil
	}
	g := gameID
	return tx.AppendAPITokenUse(ctx, &store.APITokenUse{TokenID: a.Token.ID, Action: action, GameID: &g, At: now.UTC()})
}

// TokenInput is the form that creates a token.
type TokenInput struct {
	EventID   int64
	Name      string `field:"name" validate:"storable,required,max=100" msg:"api.err,required=name_required,max=name_long"`
	Scope     string `field:"scope" validate:"enum=token_scope" msg:"api.err,enum=scope"`
	ExpiresOn string `field:"expires_on" validate:"date" msg:"api.err,date=expiry"` // YYYY-MM-DD: the token works until the end of that day (Japan)
}

// CreatedToken is a new token and its secret, which is shown once.
type CreatedToken struct {
	Token  store.APIToken
	Secret string
}

// HashTokenSecret is what is stored of a secret.
func HashTokenSecret(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// CreateAPIToken makes a token (directors of the event and
// administrators; a token cannot make tokens).
func (o *Office) CreateAPIToken(ctx context.Context, actor Actor, in TokenInput) (CreatedToken, error) {
	if err := o.requireTokenManager(ctx, actor, in.EventID); err != nil {
		return CreatedToken{}, err
	}
	now := o.now().UTC()
	v := &ValidationError{}
	in.Name, in.ExpiresOn = strings.TrimSpace(in.Name), strings.TrimSpace(in.ExpiresOn)
	name := in.Name
	checkInput(v, 0, in)
	var expires time.Time
	if v.FieldMessage("expires_on") == "" {
		// domain rule, not a tag: a token lives from tomorrow to MaxTokenLife.
		d, _ := time.ParseInLocation(DateLayout, in.ExpiresOn, playerTokyo)
		expires = d.AddDate(0, 0, 1).UTC() // the end of that day in Japan
		if !expires.After(now) || expires.Sub(now) > MaxTokenLife {
			v.Add(0, "expires_on", "api.err.expiry_range", nil)
		}
	}
	if err := v.OrNil(); err != nil {
		return CreatedToken{}, err
	}
	raw := make([]byte, tokenSecretSize)
	if _, err := rand.Read(raw); err != nil {
		return CreatedToken{}, fmt.Errorf("token secret: %w", err)
	}
	secret := tokenPrefix + base64.RawURLEncoding.EncodeToString(raw)
	t := store.APIToken{EventID: in.EventID, Name: name, Scope: in.Scope, SecretHash: HashTokenSecret(secret),
		CreatedBy: actor.UserID, CreatedAt: now, ExpiresAt: expires}
	if err := o.store.CreateAPIToken(ctx, &t); err != nil {
		return CreatedToken{}, err
	}
	return CreatedToken{Token: t, Secret: secret}, nil
}

func (o *Office) requireTokenManager(ctx context.Context, actor Actor, eventID int64) error {
	if actor.Token != nil {
		return fmt.Errorf("a token cannot manage tokens: %w", ErrForbidden)
	}
	return o.RequireEventRole(ctx, actor, eventID, RoleDirector)
}

// APITokens lists an event's tokens (directors and administrators).
func (o *Office) APITokens(ctx context.Context, actor Actor, eventID int64) ([]store.APITokenRow, error) {
	if err := o.requireTokenManager(ctx, actor, eventID); err != nil {
		return nil, err
	}
	return o.store.APITokensOfEvent(ctx, eventID)
}

// RevokeAPIToken stops a token at once (directors and administrators).
func (o *Office) RevokeAPIToken(ctx context.Context, actor Actor, eventID, tokenID int64) error {
	if err := o.requireTokenManager(ctx, actor, eventID); err != nil {
		return err
	}
	// Another event's token is not found, exactly as a missing one: the
	// 409 "already revoked" is for this event's tokens only (issue 21).
	t, err := o.store.APITokenByID(ctx, tokenID)
	if err != nil {
		return err
	}
	if t.EventID != eventID {
		return fmt.Errorf("api token %d is not of event %d: %w", tokenID, eventID, ErrNotFound)
	}
	return o.store.RevokeAPIToken(ctx, eventID, tokenID, actor.UserID, o.now())
}

// APITokenUses lists the writes a token made (directors and administrators).
func (o *Office) APITokenUses(ctx context.Context, actor Actor, eventID, tokenID int64) ([]store.APITokenUse, error) {
	if err := o.requireTokenManager(ctx, actor, eventID); err != nil {
		return nil, err
	}
	t, err := o.store.APITokenByID(ctx, tokenID)
	if err != nil {
		return nil, err
	}
	if t.EventID != eventID {
		return nil, fmt.Errorf("api token %d is not of event %d: %w", tokenID, eventID, ErrNotFound)
	}
	return o.store.APITokenUses(ctx, tokenID)
}

// AuthenticateToken finds the actor a bearer secret stands for. The
// secret is looked up by its hash (which reveals nothing about secrets
// close to it) and the stored hash compared again in constant time.
func (o *Office) AuthenticateToken(ctx context.Context, secret string) (Actor, error) {
	if !strings.HasPrefix(secret, tokenPrefix) || len(secret) > 200 {
		return Actor{}, fmt.Errorf("malformed token: %w", ErrUnauthorized)
	}
	hash := HashTokenSecret(secret)
	t, err := o.store.APITokenByHash(ctx, hash)
	if errors.Is(err, store.ErrNotFound) {
		return Actor{}, fmt.Errorf("unknown token: %w", ErrUnauthorized)
	}
	if err != nil {
		return Actor{}, err
	}
	if subtle.ConstantTimeCompare([]byte(t.SecretHash), []byte(hash)) != 1 {
		return Actor{}, fmt.Errorf("unknown token: %w", ErrUnauthorized)
	}
	now := o.now().UTC()
	switch {
	case t.RevokedAt != nil:
		return Actor{}, fmt.Errorf("token %d was revoked: %w", t.ID, ErrUnauthorized)
	case !now.Before(t.ExpiresAt):
		return Actor{}, fmt.Errorf("token %d expired: %w", t.ID, ErrUnauthorized)
	}
	u, err := o.store.UserByID(ctx, t.CreatedBy)
	if err != nil {
		return Actor{}, err
	}
	if u.Disabled { // the director who vouched for it can no longer sign in
		return Actor{}, fmt.Errorf("token %d: its creator is disabled: %w", t.ID, ErrUnauthorized)
	}
	if t.LastUsedAt == nil || now.Sub(*t.LastUsedAt) >= touchEvery {
		if err := o.store.TouchAPIToken(ctx, t.ID, now); err != nil {
			return Actor{}, err
		}
	}
	name := u.DisplayName
	if name == "" {
		name = u.Login
	}
	return Actor{UserID: u.ID, Login: u.Login, DisplayName: name,
		Token: &TokenGrant{ID: t.ID, Name: t.Name, EventID: t.EventID, Scope: t.Scope}}, nil
}
