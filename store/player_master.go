package store

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"gorm.io/gorm"
)

// MasterKey identifies a master for 師弟 and 兄弟弟子 checks: "p:<id>" for a
// registered player, "t:<name key>|<reading key>" for a teacher outside the
// registry (two rows name the same teacher when name and reading are equal
// after SearchKey folding). "" means no master.
type MasterKey string

// PlayerMasterKey is the key of a registered player as a master.
func PlayerMasterKey(id int64) MasterKey { return MasterKey("p:" + strconv.FormatInt(id, 10)) }

// TeacherMasterKey is the key of a teacher who is not in the registry.
func TeacherMasterKey(name, reading string) MasterKey {
	return MasterKey("t:" + SearchKey(name) + searchKeySeparator + SearchKey(reading))
}

// PlayerMaster is one period of a disciple's 師匠: from FromDate to ToDate,
// both days included; a zero ToDate means the period is still open.
// Corrections close a period and open another; rows are not rewritten.
type PlayerMaster struct {
	ID             int64 `gorm:"primaryKey"`
	DiscipleID     int64 `gorm:"not null"`
	MasterPlayerID *int64
	TeacherName    string
	TeacherReading string
	MasterKey      MasterKey `gorm:"not null"`
	FromDate       CivilDate `gorm:"not null"`
	ToDate         CivilDate
	CreatedAt      time.Time `gorm:"autoCreateTime:false"`
	UpdatedAt      time.Time `gorm:"autoUpdateTime:false"`
}

// BeforeSave derives the master key from who the master is.
func (m *PlayerMaster) BeforeSave(*gorm.DB) error {
	m.MasterKey = m.Key()
	m.CreatedAt = m.CreatedAt.UTC()
	m.UpdatedAt = m.UpdatedAt.UTC()
	return nil
}

// Key is the identity of this row's master.
func (m PlayerMaster) Key() MasterKey {
	if m.MasterPlayerID != nil {
		return PlayerMasterKey(*m.MasterPlayerID)
	}
	return TeacherMasterKey(m.TeacherName, m.TeacherReading)
}

// ActiveOn reports whether the period covers day d.
func (m PlayerMaster) ActiveOn(d CivilDate) bool {
	return !d.Before(m.FromDate) && (m.ToDate.IsZero() || !d.After(m.ToDate))
}

// Open reports whether the period has no end yet.
func (m PlayerMaster) Open() bool { return m.ToDate.IsZero() }

// activeOn restricts a query to periods covering day d.
func activeOn(db *gorm.DB, d CivilDate) *gorm.DB {
	return db.Where("from_date <= ? AND (to_date IS NULL OR to_date >= ?)", d, d)
}

// AddMasterPeriod inserts one period (office has validated it).
func (s *Store) AddMasterPeriod(ctx context.Context, m *PlayerMaster) error {
	return notFound(s.DB(ctx).Create(m).Error, "add master period")
}

// AddMasterPeriods inserts many periods (CSV import).
func (s *Store) AddMasterPeriods(ctx context.Context, ms []*PlayerMaster) error {
	if len(ms) == 0 {
		return nil
	}
	return notFound(s.DB(ctx).CreateInBatches(ms, 500).Error, "add master periods")
}

// CloseMasterPeriod sets the last day of an open period.
func (s *Store) CloseMasterPeriod(ctx context.Context, id int64, last CivilDate, now time.Time) error {
	// UpdateColumns: no hooks, so BeforeSave cannot recompute master_key
	// from an empty model.
	res := s.DB(ctx).Model(&PlayerMaster{}).Where("id = ? AND to_date IS NULL", id).
		UpdateColumns(map[string]any{"to_date": last, "updated_at": now.UTC()})
	if res.Error != nil {
		return fmt.Errorf("close master period %d: %w", id, res.Error)
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("close master period %d (not open): %w", id, ErrConflict)
	}
	return nil
}

// MasterPeriods is a disciple's whole 師匠 history, oldest first.
func (s *Store) MasterPeriods(ctx context.Context, discipleID int64) ([]PlayerMaster, error) {
	var ms []PlayerMaster
	err := s.DB(ctx).Where("disciple_id = ?", discipleID).Order("from_date, id").Find(&ms).Error
	if err != nil {
		return nil, fmt.Errorf("master history of player %d: %w", discipleID, err)
	}
	return ms, nil
}

// DisciplePeriods lists every period in which player masterID was someone's
// master, oldest first.
func (s *Store) DisciplePeriods(ctx context.Context, masterID int64) ([]PlayerMaster, error) {
	var ms []PlayerMaster
	err := s.DB(ctx).Where("master_player_id = ?", masterID).Order("from_date, disciple_id").Find(&ms).Error
	if err != nil {
		return nil, fmt.Errorf("disciples of player %d: %w", masterID, err)
	}
	return ms, nil
}

// AllPlayerMasterPeriods lists every period whose master is a registered
// player: the edges in which a 師弟 cycle could form.
func (s *Store) AllPlayerMasterPeriods(ctx context.Context) ([]PlayerMaster, error) {
	var ms []PlayerMaster
	if err := s.DB(ctx).Where("master_player_id IS NOT NULL").Order("id").Find(&ms).Error; err != nil {
		return nil, fmt.Errorf("load master periods: %w", err)
	}
	return ms, nil
}

// AllMasterPeriods lists every period (export, import).
func (s *Store) AllMasterPeriods(ctx context.Context) ([]PlayerMaster, error) {
	var ms []PlayerMaster
	if err := s.DB(ctx).Order("disciple_id, from_date, id").Find(&ms).Error; err != nil {
		return nil, fmt.Errorf("load master periods: %w", err)
	}
	return ms, nil
}

// MasterOn returns the period giving a disciple's master on day d; ok is
// false when the disciple had none that day.
func (s *Store) MasterOn(ctx context.Context, discipleID int64, d CivilDate) (m PlayerMaster, ok bool, err error) {
	var ms []PlayerMaster
	err = activeOn(s.DB(ctx).Where("disciple_id = ?", discipleID), d).Order("from_date DESC, id DESC").Limit(1).Find(&ms).Error
	if err != nil {
		return PlayerMaster{}, false, fmt.Errorf("master of player %d on %s: %w", discipleID, d, err)
	}
	if len(ms) == 0 {
		return PlayerMaster{}, false, nil
	}
	return ms[0], true, nil
}

// IsMasterOf reports whether player a was player b's 師匠 on day d.
func (s *Store) IsMasterOf(ctx context.Context, a, b int64, d CivilDate) (bool, error) {
	var n int64
	err := activeOn(s.DB(ctx).Model(&PlayerMaster{}).Where("disciple_id = ? AND master_player_id = ?", b, a), d).Count(&n).Error
	if err != nil {
		return false, fmt.Errorf("is %d master of %d on %s: %w", a, b, d, err)
	}
	return n > 0, nil
}

// AreFellowDisciples reports whether two different players had the same
// master (player or the same outside teacher) on day d (兄弟弟子).
func (s *Store) AreFellowDisciples(ctx context.Context, a, b int64, d CivilDate) (bool, error) {
	if a == b {
		return false, nil
	}
	keys, err := s.MastersOn(ctx, d, []int64{a, b})
	if err != nil {
		return false, err
	}
	ka, kb := keys[a], keys[b]
	return ka != "" && ka == kb, nil
}

// MastersOn returns the master key of each listed player on day d, in one
// query per 900 ids; players without a master that day are absent. This is
// what a draw asks for every entrant at once.
func (s *Store) MastersOn(ctx context.Context, d CivilDate, ids []int64) (map[int64]MasterKey, error) {
	out := make(map[int64]MasterKey, len(ids))
	for _, chunk := range playerChunks(playerUniqueIDs(ids), playerIDChunk) {
		var rows []PlayerMaster
		err := activeOn(s.DB(ctx).Select("disciple_id", "master_key").Where("disciple_id IN ?", chunk), d).Find(&rows).Error
		if err != nil {
			return nil, fmt.Errorf("masters on %s: %w", d, err)
		}
		for _, r := range rows {
			out[r.DiscipleID] = r.MasterKey
		}
	}
	return out, nil
}

// DisciplesOn lists the periods, covering day d, whose master has key k
// (ordered by disciple id).
func (s *Store) DisciplesOn(ctx context.Context, k MasterKey, d CivilDate) ([]PlayerMaster, error) {
	var ms []PlayerMaster
	err := activeOn(s.DB(ctx).Where("master_key = ?", string(k)), d).Order("disciple_id").Find(&ms).Error
	if err != nil {
		return nil, fmt.Errorf("disciples of %s on %s: %w", k, d, err)
	}
	return ms, nil
}
