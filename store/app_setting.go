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

// SettingOrCreate reads a setting, creating it with the value of create when
// it is absent. Processes that race to create it agree on one value: the
// insert does nothing when another process's row is already there
// (ON CONFLICT DO NOTHING, both databases), and every process then reads
// the row that won. create is called only when the setting was absent at the
// first read.
func (s *Store) SettingOrCreate(ctx context.Context, key string, create func() (string, error), now time.Time) (string, error) {
	if v, ok, err := s.GetSetting(ctx, key); err != nil || ok {
		return v, err
	}
	v, err := create()
	if err != nil {
		return "", err
	}
	row := AppSetting{Key: key, Value: v, UpdatedAt: now.UTC()}
	if err := s.DB(ctx).Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "key"}}, DoNothing: true}).Create(&row).Error; err != nil {
		return "", notFound(err, "create setting "+key)
	}
	v, ok, err := s.GetSetting(ctx, key)
	if err == nil && !ok {
		err = errors.New("setting " + key + " vanished after it was created")
	}
	return v, err
}
