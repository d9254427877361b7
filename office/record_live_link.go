package office

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"

	"kisen/store"
)

// The recorder's secret link (issue 26): the director or the arbiter
// (立会人, who runs the board on the day) of a game's event issues it for one game (a recorder without an account, a tablet left at
// the board) and may revoke it. Like the day's report links
// (office/day/report.go) only the SHA-256 of the token is stored, so a
// database read gives no working link; a new link revokes the old one.

// hashRecorderToken is the stored form of a recorder token.
func hashRecorderToken(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// IssueRecorderLink issues a new recorder link for a game, revoking any
// open one, and returns its token (shown once). Directors and arbiters
// only; anyone else is told the game does not exist.
func (o *Office) IssueRecorderLink(ctx context.Context, actor Actor, gameID int64) (string, error) {
	g, err := o.recorderLinkGame(ctx, actor, gameID)
	if err != nil {
		return "", err
	}
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("recorder token: %w", err)
	}
	token := base64.RawURLEncoding.EncodeToString(b[:])
	now := o.now()
	err = o.store.Tx(ctx, func(tx *store.Store) error {
		if _, err := tx.LockGame(ctx, g.ID); err != nil {
			return err
		}
		if err := tx.RevokeRecorderLinks(ctx, g.ID, actor.UserID, now); err != nil {
			return err
		}
		return tx.AddRecorderLink(ctx, &store.RecorderLink{GameID: g.ID, TokenHash: hashRecorderToken(token), IssuedBy: actor.UserID, IssuedAt: now})
	})
	if err != nil {
		return "", err
	}
	return token, nil
}

// RevokeRecorderLink closes a game's recorder link: its token no longer
// opens the game (404). Directors and arbiters only.
func (o *Office) RevokeRecorderLink(ctx context.Context, actor Actor, gameID int64) error {
	g, err := o.recorderLinkGame(ctx, actor, gameID)
	if err != nil {
		return err
	}
	return o.store.Tx(ctx, func(tx *store.Store) error {
		return tx.RevokeRecorderLinks(ctx, g.ID, actor.UserID, o.now())
	})
}

// RecorderLinkState says whether a game has an open recorder link (for
// the director's or arbiter's control); directors and arbiters only.
func (o *Office) RecorderLinkState(ctx context.Context, actor Actor, gameID int64) (store.RecorderLink, bool, error) {
	g, err := o.recorderLinkGame(ctx, actor, gameID)
	if err != nil {
		return store.RecorderLink{}, false, err
	}
	return o.store.RecorderLinkOpen(ctx, g.ID)
}

func (o *Office) recorderLinkGame(ctx context.Context, actor Actor, gameID int64) (store.Game, error) {
	if actor.Token != nil || actor.RecorderToken != "" {
		return store.Game{}, fmt.Errorf("game %d: recorder links are issued by a signed-in director or arbiter: %w", gameID, ErrNotFound)
	}
	g, err := o.store.GameByID(ctx, gameID)
	if err != nil {
		return g, err
	}
	if err := o.RequireEventRole(ctx, actor, g.EventID, RoleDirector, RoleArbiter); errors.Is(err, ErrForbidden) {
		return g, fmt.Errorf("game %d: not its director or arbiter: %w", gameID, ErrNotFound)
	} else if err != nil {
		return g, err
	}
	return g, nil
}

// RecorderLinkGame is the game an open recorder link opens (the page at
// /rec/<token>); a revoked, replaced or unknown token is ErrNotFound.
func (o *Office) RecorderLinkGame(ctx context.Context, token string) (int64, error) {
	if token == "" || len(token) > 64 {
		return 0, fmt.Errorf("recorder link: %w", ErrNotFound)
	}
	l, err := o.store.OpenRecorderLinkByHash(ctx, hashRecorderToken(token))
	if err != nil {
		return 0, err
	}
	return l.GameID, nil
}
