package store

import (
	"context"
	"errors"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// AppSetting is one instance-wide key/value pair.
type AppSetting struct {
	Key       string `gorm:"primaryKey"`
	Value     string `gorm:"not null"`
	UpdatedAt time.Time
}

// GetSetting reads a setting; ok is false when it is absent.
func (s *Store) GetSetting(ctx context.Context, key string) (value string, ok bool, err error) {
	var row AppSetting
	err = s.DB(ctx).Where("key = ?", key).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return "", false, nil
	}
	if err != nil {
		return "", false, notFound(err, "read setting "+key)
	}
	return row.Value, true, nil
}

// PutSetting writes a setting, replacing an older value.
func (s *Store) PutSetting(ctx context.Context, key, value string, now time.Time) error {
	row := AppSetting{Key: key, Value: value, UpdatedAt: now.UTC()}
	err := s.DB(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "key"}},
		DoUpdates: clause.AssignmentColumns([]string{"value", "updated_at"}),
	}).Create(&row).Error
	return notFound(err, "write setting "+key)
}

// DeleteSetting removes a setting if present.
func (s *Store) DeleteSetting(ctx context.Context, key string) error {
	return notFound(s.DB(ctx).Where("key = ?", key).Delete(&AppSetting{}).Error, "delete setting "+key)
}
