package store

import (
	"context"
	"errors"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Session is one scs session row.
type Session struct {
	Token  string `gorm:"primaryKey"`
	Data   []byte `gorm:"not null"`
	Expiry time.Time
}

// SessionStore implements scs.CtxStore over the sessions table, on both
// databases. The clock is passed in so expiry is testable.
type SessionStore struct {
	s   *Store
	now func() time.Time
}

// NewSessionStore returns a session store reading the time from now.
func NewSessionStore(s *Store, now func() time.Time) *SessionStore {
	return &SessionStore{s: s, now: now}
}

// FindCtx returns the data of an unexpired session.
func (ss *SessionStore) FindCtx(ctx context.Context, token string) ([]byte, bool, error) {
	var row Session
	err := ss.s.DB(ctx).Where("token = ? AND expiry > ?", token, ss.now().UTC()).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return row.Data, true, nil
}

// CommitCtx stores or replaces a session.
func (ss *SessionStore) CommitCtx(ctx context.Context, token string, b []byte, expiry time.Time) error {
	row := Session{Token: token, Data: b, Expiry: expiry.UTC()}
	return ss.s.DB(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "token"}},
		DoUpdates: clause.AssignmentColumns([]string{"data", "expiry"}),
	}).Create(&row).Error
}

// DeleteCtx removes a session.
func (ss *SessionStore) DeleteCtx(ctx context.Context, token string) error {
	return ss.s.DB(ctx).Where("token = ?", token).Delete(&Session{}).Error
}

// Find, Commit and Delete satisfy scs.Store; scs prefers the Ctx forms.
func (ss *SessionStore) Find(token string) ([]byte, bool, error) {
	return ss.FindCtx(context.Background(), token)
}
func (ss *SessionStore) Commit(token string, b []byte, expiry time.Time) error {
	return ss.CommitCtx(context.Background(), token, b, expiry)
}
func (ss *SessionStore) Delete(token string) error {
	return ss.DeleteCtx(context.Background(), token)
}

// DeleteExpired removes sessions past their expiry; the server calls it
// now and then.
func (ss *SessionStore) DeleteExpired(ctx context.Context) (int64, error) {
	res := ss.s.DB(ctx).Where("expiry <= ?", ss.now().UTC()).Delete(&Session{})
	return res.RowsAffected, res.Error
}
