package store

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// The amateur tournament day (migration 00100, docs/amateur-day.md): an
// event marked by a DayEvent row holds classes, entrants with their
// reception state, drawn rounds and their boards. The rounds, boards and
// the desk's log are append-only.

// DayEvent marks an event as an amateur day (アマチュア大会).
type DayEvent struct {
	EventID   int64 `gorm:"primaryKey;autoIncrement:false"`
	CreatedAt time.Time
}

// DayClass is one class (クラス) of a day. Settings is the validated JSON of
// office/day.ClassSettings.
type DayClass struct {
	ID        int64  `gorm:"primaryKey"`
	EventID   int64  `gorm:"not null"`
	Name      string `gorm:"not null"`
	NameEn    string `gorm:"not null;default:''"`
	Position  int    `gorm:"not null;default:0"`
	Format    string `gorm:"not null"`
	Settings  string `gorm:"not null;default:'{}'"`
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Day check-in states.
const (
	CheckinExpected = "expected" // entered, not yet seen at the desk
	CheckinPresent  = "present"
	CheckinAbsent   = "absent"
	CheckinLate     = "late" // arrived after the start; drawn from the next round
)

// DayEntrant is one player entered in a class of a day.
type DayEntrant struct {
	ID           int64  `gorm:"primaryKey"`
	EventID      int64  `gorm:"not null"`
	ClassID      int64  `gorm:"not null"`
	PlayerID     int64  `gorm:"not null"`
	DeclaredRank string `gorm:"not null;default:''"`
	ClassBy      string `gorm:"not null;default:'rank'"` // rank or director
	WalkIn       bool   `gorm:"not null;default:false"`
	Checkin      string `gorm:"not null;default:'expected'"`
	CheckinBy    *int64
	CheckinAt    *time.Time
	WithdrawnBy  *int64
	WithdrawnAt  *time.Time
	// Version rises by one with every change to the row or to the
	// entrant's fee records (the desk's writes carry the one they saw).
	Version   int `gorm:"not null;default:0"`
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Withdrawn reports whether the entrant has left the day.
func (e DayEntrant) Withdrawn() bool { return e.WithdrawnAt != nil }

// DayEntrantRow is an entrant with the registry fields the desk shows.
type DayEntrantRow struct {
	DayEntrant
	Name        string
	Reading     string
	Rank        string
	Affiliation string
}

// DayRound is one drawn round of a class. Seed is a decimal uint64.
type DayRound struct {
	ID      int64  `gorm:"primaryKey"`
	ClassID int64  `gorm:"not null"`
	Number  int    `gorm:"not null"`
	Seed    string `gorm:"not null"`
	Blocks  string `gorm:"not null;default:'[]'"`
	NotKept string `gorm:"not null;default:'[]'"`
	DrawnBy int64  `gorm:"not null"`
	DrawnAt time.Time
}

// DayPairing is one board of a round (GameID and Board set) or one bye
// (ByePlayerID set).
type DayPairing struct {
	ID          int64 `gorm:"primaryKey"`
	RoundID     int64 `gorm:"not null"`
	Board       *int
	GameID      *int64
	ByePlayerID *int64
	SenteBy     string `gorm:"not null;default:''"`
	Furigoma    string `gorm:"not null;default:'{}'"`
}

// DayPairingRow is a pairing with its round's class and number.
type DayPairingRow struct {
	DayPairing
	ClassID int64
	Round   int
}

// DayLogEntry is one thing the desk did (append-only).
type DayLogEntry struct {
	ID       int64 `gorm:"primaryKey"`
	EventID  int64 `gorm:"not null"`
	ClassID  *int64
	PlayerID *int64
	Action   string `gorm:"not null"`
	Detail   string `gorm:"not null;default:'{}'"`
	ActorID  int64  `gorm:"not null"`
	At       time.Time
}

// TableName keeps the migration's singular name.
func (DayLogEntry) TableName() string { return "day_log" }

// CreateDayEvent marks an event as an amateur day.
func (s *Store) CreateDayEvent(ctx context.Context, eventID int64, now time.Time) error {
	return notFound(s.DB(ctx).Create(&DayEvent{EventID: eventID, CreatedAt: now.UTC()}).Error, "create day event")
}

// IsDayEvent reports whether the event is an amateur day.
func (s *Store) IsDayEvent(ctx context.Context, eventID int64) (bool, error) {
	var n int64
	err := s.DB(ctx).Model(&DayEvent{}).Where("event_id = ?", eventID).Count(&n).Error
	return n > 0, notFound(err, "day event")
}

// DayEventIDs lists which of ids are amateur days (one statement).
func (s *Store) DayEventIDs(ctx context.Context, ids []int64) (map[int64]bool, error) {
	out := map[int64]bool{}
	if len(ids) == 0 {
		return out, nil
	}
	var got []int64
	err := s.DB(ctx).Model(&DayEvent{}).Where("event_id IN ?", ids).Pluck("event_id", &got).Error
	for _, id := range got {
		out[id] = true
	}
	return out, notFound(err, "day events")
}

// CreateDayClass inserts a class; a name taken in the event is ErrConflict.
func (s *Store) CreateDayClass(ctx context.Context, c *DayClass) error {
	c.CreatedAt, c.UpdatedAt = c.CreatedAt.UTC(), c.UpdatedAt.UTC()
	return notFound(s.DB(ctx).Create(c).Error, "create day class")
}

// UpdateDayClass rewrites a class's name, position, format and settings.
func (s *Store) UpdateDayClass(ctx context.Context, c DayClass) error {
	res := s.DB(ctx).Model(&DayClass{}).Where("id = ?", c.ID).Updates(map[string]any{
		"name": c.Name, "name_en": c.NameEn, "position": c.Position, "format": c.Format,
		"settings": c.Settings, "updated_at": c.UpdatedAt.UTC(),
	})
	if res.Error != nil {
		return notFound(res.Error, "update day class")
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("day class %d: %w", c.ID, ErrNotFound)
	}
	return nil
}

// DayClassByID loads one class.
func (s *Store) DayClassByID(ctx context.Context, id int64) (DayClass, error) {
	var c DayClass
	err := s.DB(ctx).Where("id = ?", id).Take(&c).Error
	return c, notFound(err, fmt.Sprintf("day class %d", id))
}

// DayClassesOfEvent lists an event's classes by position, then id.
func (s *Store) DayClassesOfEvent(ctx context.Context, eventID int64) ([]DayClass, error) {
	var cs []DayClass
	err := s.DB(ctx).Where("event_id = ?", eventID).Order("position, id").Find(&cs).Error
	return cs, notFound(err, "day classes")
}

// AddDayEntrant inserts an entrant; a player already entered in the event
// is ErrConflict.
func (s *Store) AddDayEntrant(ctx context.Context, e *DayEntrant) error {
	e.CreatedAt, e.UpdatedAt = e.CreatedAt.UTC(), e.UpdatedAt.UTC()
	return notFound(s.DB(ctx).Create(e).Error, "add day entrant")
}

// DayEntrantOf loads the entrant row of a player in an event.
func (s *Store) DayEntrantOf(ctx context.Context, eventID, playerID int64) (DayEntrant, error) {
	var e DayEntrant
	err := s.DB(ctx).Where("event_id = ? AND player_id = ?", eventID, playerID).Take(&e).Error
	return e, notFound(err, fmt.Sprintf("day entrant %d of event %d", playerID, eventID))
}

// dayEntrantRows selects entrants with their registry fields, sorted by
// the reading.
func (s *Store) dayEntrantRows(ctx context.Context, where string, args ...any) ([]DayEntrantRow, error) {
	var out []DayEntrantRow
	err := s.DB(ctx).Table("day_entrants").
		Select("day_entrants.*, players.name AS name, players.reading AS reading, players.rank AS rank, players.affiliation AS affiliation").
		Joins("JOIN players ON players.id = day_entrants.player_id").
		Where(where, args...).Order("players.reading, day_entrants.id").Scan(&out).Error
	return out, notFound(err, "day entrants")
}

// DayEntrantsOfEvent lists every entrant of a day (one statement).
func (s *Store) DayEntrantsOfEvent(ctx context.Context, eventID int64) ([]DayEntrantRow, error) {
	return s.dayEntrantRows(ctx, "day_entrants.event_id = ?", eventID)
}

// DayEntrantsOfClass lists a class's entrants (one statement).
func (s *Store) DayEntrantsOfClass(ctx context.Context, classID int64) ([]DayEntrantRow, error) {
	return s.dayEntrantRows(ctx, "day_entrants.class_id = ?", classID)
}

// SetDayEntrantClass moves an entrant to another class of the same event.
func (s *Store) SetDayEntrantClass(ctx context.Context, id, classID int64, by string, now time.Time) error {
	return s.updateDayEntrant(ctx, id, map[string]any{"class_id": classID, "class_by": by, "updated_at": now.UTC()})
}

// SetDayCheckin records an entrant's reception state.
func (s *Store) SetDayCheckin(ctx context.Context, id int64, state string, by int64, now time.Time) error {
	return s.updateDayEntrant(ctx, id, map[string]any{"checkin": state, "checkin_by": by, "checkin_at": now.UTC(), "updated_at": now.UTC()})
}

// SetDayWithdrawn records that an entrant left the day; a second call is
// ErrConflict.
func (s *Store) SetDayWithdrawn(ctx context.Context, id, by int64, now time.Time) error {
	res := s.DB(ctx).Model(&DayEntrant{}).Where("id = ? AND withdrawn_at IS NULL", id).
		Updates(map[string]any{"withdrawn_by": by, "withdrawn_at": now.UTC(), "updated_at": now.UTC(), "version": gorm.Expr("version + 1")})
	if res.Error != nil {
		return notFound(res.Error, "withdraw day entrant")
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("day entrant %d is missing or already withdrawn: %w", id, ErrConflict)
	}
	return nil
}

// TouchDayEntrant raises an entrant's version (a fee record written).
func (s *Store) TouchDayEntrant(ctx context.Context, id int64, now time.Time) error {
	return s.updateDayEntrant(ctx, id, map[string]any{"updated_at": now.UTC()})
}

func (s *Store) updateDayEntrant(ctx context.Context, id int64, cols map[string]any) error {
	cols["version"] = gorm.Expr("version + 1")
	res := s.DB(ctx).Model(&DayEntrant{}).Where("id = ?", id).Updates(cols)
	if res.Error != nil {
		return notFound(res.Error, "update day entrant")
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("day entrant %d: %w", id, ErrNotFound)
	}
	return nil
}

// CreateDayRound inserts a drawn round; the same number twice is
// ErrConflict (two directors confirming at once: one wins).
func (s *Store) CreateDayRound(ctx context.Context, r *DayRound) error {
	r.DrawnAt = r.DrawnAt.UTC()
	return notFound(s.DB(ctx).Create(r).Error, "create day round")
}

// AddDayPairing inserts one board or bye of a round.
func (s *Store) AddDayPairing(ctx context.Context, p *DayPairing) error {
	return notFound(s.DB(ctx).Create(p).Error, "add day pairing")
}

// DayRoundsOfClass lists a class's rounds in order.
func (s *Store) DayRoundsOfClass(ctx context.Context, classID int64) ([]DayRound, error) {
	var rs []DayRound
	err := s.DB(ctx).Where("class_id = ?", classID).Order("number").Find(&rs).Error
	return rs, notFound(err, "day rounds")
}

// DayRoundsOfEvent lists every round of a day's classes (one statement).
func (s *Store) DayRoundsOfEvent(ctx context.Context, eventID int64) ([]DayRound, error) {
	var rs []DayRound
	err := s.DB(ctx).Where("class_id IN (SELECT id FROM day_classes WHERE event_id = ?)", eventID).
		Order("class_id, number").Find(&rs).Error
	return rs, notFound(err, "day rounds")
}

func (s *Store) dayPairingRows(ctx context.Context, where string, args ...any) ([]DayPairingRow, error) {
	var out []DayPairingRow
	err := s.DB(ctx).Table("day_pairings").
		Select("day_pairings.*, day_rounds.class_id AS class_id, day_rounds.number AS round").
		Joins("JOIN day_rounds ON day_rounds.id = day_pairings.round_id").
		Where(where, args...).Order("day_rounds.class_id, day_rounds.number, day_pairings.board, day_pairings.id").Scan(&out).Error
	return out, notFound(err, "day pairings")
}

// DayPairingsOfClass lists every board and bye of a class, by round and
// board (one statement).
func (s *Store) DayPairingsOfClass(ctx context.Context, classID int64) ([]DayPairingRow, error) {
	return s.dayPairingRows(ctx, "day_rounds.class_id = ?", classID)
}

// DayPairingsOfClassRound lists the boards and byes of round n of a class
// (one statement).
func (s *Store) DayPairingsOfClassRound(ctx context.Context, classID int64, n int) ([]DayPairingRow, error) {
	return s.dayPairingRows(ctx, "day_rounds.class_id = ? AND day_rounds.number = ?", classID, n)
}

// DayPairingsOfEvent lists every board and bye of a day (one statement).
func (s *Store) DayPairingsOfEvent(ctx context.Context, eventID int64) ([]DayPairingRow, error) {
	return s.dayPairingRows(ctx, "day_rounds.class_id IN (SELECT id FROM day_classes WHERE event_id = ?)", eventID)
}

// DayPairingOfGame finds the board a game was created for.
func (s *Store) DayPairingOfGame(ctx context.Context, gameID int64) (DayPairingRow, error) {
	rows, err := s.dayPairingRows(ctx, "day_pairings.game_id = ?", gameID)
	if err != nil {
		return DayPairingRow{}, err
	}
	if len(rows) == 0 {
		return DayPairingRow{}, fmt.Errorf("day board of game %d: %w", gameID, ErrNotFound)
	}
	return rows[0], nil
}

// AppendDayLog adds one entry to the desk's log.
func (s *Store) AppendDayLog(ctx context.Context, e *DayLogEntry) error {
	e.At = e.At.UTC()
	return notFound(s.DB(ctx).Create(e).Error, "append day log")
}

// DayLogOfEvent lists the desk's log of a day, newest first.
func (s *Store) DayLogOfEvent(ctx context.Context, eventID int64) ([]DayLogEntry, error) {
	var out []DayLogEntry
	err := s.DB(ctx).Where("event_id = ?", eventID).Order("id DESC").Find(&out).Error
	return out, notFound(err, "day log")
}

// DayLogOfClass lists one action of a class's desk log, oldest first.
func (s *Store) DayLogOfClass(ctx context.Context, classID int64, action string) ([]DayLogEntry, error) {
	var out []DayLogEntry
	err := s.DB(ctx).Where("class_id = ? AND action = ?", classID, action).Order("id").Find(&out).Error
	return out, notFound(err, "day log")
}

// DayLogOfEventAction lists one action of a day's desk log, oldest first.
func (s *Store) DayLogOfEventAction(ctx context.Context, eventID int64, action string) ([]DayLogEntry, error) {
	var out []DayLogEntry
	err := s.DB(ctx).Where("event_id = ? AND action = ?", eventID, action).Order("id").Find(&out).Error
	return out, notFound(err, "day log")
}

// LastDayLogOfPlayer is the newest record of one of actions about a player
// of a day written by actor (ErrNotFound when none).
func (s *Store) LastDayLogOfPlayer(ctx context.Context, eventID, playerID, actorID int64, actions []string) (DayLogEntry, error) {
	var e DayLogEntry
	err := s.DB(ctx).Where("event_id = ? AND player_id = ? AND actor_id = ? AND action IN ?", eventID, playerID, actorID, actions).
		Order("id DESC").Limit(1).Take(&e).Error
	return e, notFound(err, "day log of player")
}

// LockDayEntrant reads the entrant row of a player in an event and holds
// it for the rest of the transaction (as LockGame: FOR UPDATE on
// PostgreSQL; SQLite's transactions already hold the write lock), so two
// desks writing the same row take turns and the second sees the first's
// version. Call it inside Tx only.
func (s *Store) LockDayEntrant(ctx context.Context, eventID, playerID int64) (DayEntrant, error) {
	q := s.DB(ctx)
	if s.dialect == Postgres {
		q = q.Clauses(clause.Locking{Strength: "UPDATE"})
	}
	var e DayEntrant
	err := q.Where("event_id = ? AND player_id = ?", eventID, playerID).Take(&e).Error
	return e, notFound(err, fmt.Sprintf("lock day entrant %d of event %d", playerID, eventID))
}
