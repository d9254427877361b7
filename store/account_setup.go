package store

import (
	"context"
	"fmt"
	"time"
)

// setupTokenPrefix starts the app_settings key of each first-run setup
// token; the rest of the key is the token's SHA-256 (hex) and the value its
// expiry. One row per token lets several processes each print their own
// link without overwriting another's.
const setupTokenPrefix = "setup.token."

// PutSetupToken stores the hash of a setup token valid until expires.
func (s *Store) PutSetupToken(ctx context.Context, hashHex string, expires, now time.Time) error {
	return s.PutSetting(ctx, setupTokenPrefix+hashHex, expires.UTC().Format(time.RFC3339Nano), now)
}

// SetupTokenValid reports whether a token with this hash is stored and
// unexpired at now.
func (s *Store) SetupTokenValid(ctx context.Context, hashHex string, now time.Time) (bool, error) {
	v, ok, err := s.GetSetting(ctx, setupTokenPrefix+hashHex)
	if err != nil || !ok {
		return false, err
	}
	exp, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return false, fmt.Errorf("setup token expiry %q: %w", v, err)
	}
	return now.Before(exp), nil
}

// DeleteSetupTokens removes every setup token (used once the first
// administrator exists).
func (s *Store) DeleteSetupTokens(ctx context.Context) error {
	err := s.DB(ctx).Where("key LIKE ? ESCAPE '\\'", likeEscape(setupTokenPrefix)+"%").Delete(&AppSetting{}).Error
	return notFound(err, "delete setup tokens")
}

// PruneSetupTokens removes tokens expired at now.
func (s *Store) PruneSetupTokens(ctx context.Context, now time.Time) error {
	var rows []AppSetting
	if err := s.DB(ctx).Where("key LIKE ? ESCAPE '\\'", likeEscape(setupTokenPrefix)+"%").Find(&rows).Error; err != nil {
		return notFound(err, "list setup tokens")
	}
	for _, r := range rows {
		exp, err := time.Parse(time.RFC3339Nano, r.Value)
		if err == nil && now.Before(exp) {
			continue
		}
		if err := s.DeleteSetting(ctx, r.Key); err != nil {
			return err
		}
	}
	return nil
}
