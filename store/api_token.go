package store

import (
	"context"
	"fmt"
	"time"
)

// APIToken lets a program act on one event with one scope (issue 15,
// docs/api.md). SecretHash is the hex SHA-256 of the secret; the secret
// itself is never stored.
type APIToken struct {
	ID         int64     `gorm:"primaryKey"`
	EventID    int64     `gorm:"not null"`
	Name       string    `gorm:"not null"`
	Scope      string    `gorm:"not null"`
	SecretHash string    `gorm:"not null;uniqueIndex"`
	CreatedBy  int64     `gorm:"not null"`
	CreatedAt  time.Time `gorm:"autoCreateTime:false"`
	ExpiresAt  time.Time
	LastUsedAt *time.Time
	RevokedAt  *time.Time
	RevokedBy  *int64
}

// TableName keeps gorm from spelling it "a_p_i_tokens".
func (APIToken) TableName() string { return "api_tokens" }

// APITokenUse is one write made through a token (append-only).
type APITokenUse struct {
	ID      int64  `gorm:"primaryKey"`
	TokenID int64  `gorm:"not null"`
	Action  string `gorm:"not null"`
	GameID  *int64
	At      time.Time
}

// TableName names the audit table.
func (APITokenUse) TableName() string { return "api_token_uses" }

// APITokenRow is a token with the name of who created it, for the staff
// page.
type APITokenRow struct {
	APIToken
	CreatedByName string
	Uses          int64
}

// CreateAPIToken inserts t.
func (s *Store) CreateAPIToken(ctx context.Context, t *APIToken) error {
	return notFound(s.DB(ctx).Create(t).Error, "create api token")
}

// APITokenByHash finds the token whose secret hashes to hash.
func (s *Store) APITokenByHash(ctx context.Context, hash string) (APIToken, error) {
	var t APIToken
	err := s.DB(ctx).Where("secret_hash = ?", hash).Take(&t).Error
	return t, notFound(err, "api token")
}

// APITokenByID loads one token.
func (s *Store) APITokenByID(ctx context.Context, id int64) (APIToken, error) {
	var t APIToken
	err := s.DB(ctx).Where("id = ?", id).Take(&t).Error
	return t, notFound(err, fmt.Sprintf("api token %d", id))
}

// APITokensOfEvent lists an event's tokens, newest first, with their
// creators' names and how many writes each made (one statement).
func (s *Store) APITokensOfEvent(ctx context.Context, eventID int64) ([]APITokenRow, error) {
	var out []APITokenRow
	err := s.DB(ctx).Table("api_tokens").
		Select("api_tokens.*, COALESCE(NULLIF(u.display_name, ''), u.login) AS created_by_name, "+
			"(SELECT COUNT(*) FROM api_token_uses w WHERE w.token_id = api_tokens.id) AS uses").
		Joins("JOIN users u ON u.id = api_tokens.created_by").
		Where("api_tokens.event_id = ?", eventID).Order("api_tokens.id DESC").Scan(&out).Error
	return out, notFound(err, "list api tokens")
}

// RevokeAPIToken marks token id of event revoked; a token already revoked
// keeps its first revocation (ErrConflict).
func (s *Store) RevokeAPIToken(ctx context.Context, eventID, id, by int64, now time.Time) error {
	res := s.DB(ctx).Model(&APIToken{}).Where("id = ? AND event_id = ? AND revoked_at IS NULL", id, eventID).
		Updates(map[string]any{"revoked_at": now.UTC(), "revoked_by": by})
	if res.Error != nil {
		return notFound(res.Error, "revoke api token")
	}
	if res.RowsAffected == 0 {
		if _, err := s.APITokenByID(ctx, id); err != nil {
			return err
		}
		return fmt.Errorf("api token %d is already revoked: %w", id, ErrConflict)
	}
	return nil
}

// TouchAPIToken records when a token was last used.
func (s *Store) TouchAPIToken(ctx context.Context, id int64, now time.Time) error {
	return notFound(s.DB(ctx).Model(&APIToken{}).Where("id = ?", id).Update("last_used_at", now.UTC()).Error, "touch api token")
}

// AppendAPITokenUse adds one line to the tokens' audit log.
func (s *Store) AppendAPITokenUse(ctx context.Context, u *APITokenUse) error {
	return AppendOnly(notFound(s.DB(ctx).Create(u).Error, "log api token use"))
}

// APITokenUses lists a token's writes, oldest first.
func (s *Store) APITokenUses(ctx context.Context, tokenID int64) ([]APITokenUse, error) {
	var out []APITokenUse
	err := s.DB(ctx).Where("token_id = ?", tokenID).Order("id").Find(&out).Error
	return out, notFound(err, "list api token uses")
}
