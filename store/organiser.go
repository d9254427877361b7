package store

import (
	"context"
	"fmt"
	"time"
)

// Organiser is a body that runs events (主催者) and owns their rule
// settings. Settings is a JSON object; later issues give it fields.
type Organiser struct {
	ID        int64  `gorm:"primaryKey"`
	Name      string `gorm:"not null"`
	NameEn    string `gorm:"not null;default:''"`
	Kind      string `gorm:"not null"`
	Note      string `gorm:"not null;default:''"`
	Settings  string `gorm:"not null;default:'{}'"`
	CreatedAt time.Time
	UpdatedAt time.Time
}

// CreateOrganiser inserts o.
func (s *Store) CreateOrganiser(ctx context.Context, o *Organiser) error {
	if o.Settings == "" {
		o.Settings = "{}"
	}
	o.CreatedAt, o.UpdatedAt = o.CreatedAt.UTC(), o.UpdatedAt.UTC()
	return notFound(s.DB(ctx).Create(o).Error, "create organiser")
}

// UpdateOrganiser saves the descriptive columns of o (not its settings,
// which have their own use cases).
func (s *Store) UpdateOrganiser(ctx context.Context, o Organiser, now time.Time) error {
	res := s.DB(ctx).Model(&Organiser{}).Where("id = ?", o.ID).Updates(map[string]any{
		"name": o.Name, "name_en": o.NameEn, "kind": o.Kind, "note": o.Note, "updated_at": now.UTC(),
	})
	if res.Error != nil {
		return notFound(res.Error, "update organiser")
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("update organiser %d: %w", o.ID, ErrNotFound)
	}
	return nil
}

// OrganiserByID loads one organiser.
func (s *Store) OrganiserByID(ctx context.Context, id int64) (Organiser, error) {
	var o Organiser
	err := s.DB(ctx).Where("id = ?", id).Take(&o).Error
	return o, notFound(err, "organiser")
}

// Organisers lists every organiser by name.
func (s *Store) Organisers(ctx context.Context) ([]Organiser, error) {
	var out []Organiser
	err := s.DB(ctx).Order("name, id").Find(&out).Error
	return out, notFound(err, "list organisers")
}
