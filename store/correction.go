package store

import (
	"context"
	"time"
)

// Correction is a change that altered who advanced in a bracket: an edited
// result, a foul claim that reverses one, a withdrawal. The later games it
// made void name it in game_voids. Rows are never updated or deleted.
type Correction struct {
	ID         int64  `gorm:"primaryKey"`
	EventID    int64  `gorm:"not null"`
	Kind       string `gorm:"not null"` // result, claim, withdrawal
	GameID     *int64
	StageID    *int64
	Reason     string `gorm:"not null"`
	VoidChosen bool   `gorm:"not null;default:false"`
	ActorID    int64  `gorm:"not null"`
	At         time.Time
}

// AddCorrection appends a correction.
func (s *Store) AddCorrection(ctx context.Context, c *Correction) error {
	c.At = c.At.UTC()
	return notFound(s.DB(ctx).Create(c).Error, "add correction")
}

// CorrectionByID loads one correction.
func (s *Store) CorrectionByID(ctx context.Context, id int64) (Correction, error) {
	var c Correction
	err := s.DB(ctx).Where("id = ?", id).Take(&c).Error
	return c, notFound(err, "correction")
}

// VoidBracketGameRow is a void game of a bracket slot with the seats it
// had.
type VoidBracketGameRow struct {
	StageID     int64
	BracketGame string
	GameID      int64
	Label       string
	SenteID     *int64
	GoteID      *int64
}

// VoidBracketGamesOfEvent lists the void games of every bracket slot of
// an event, oldest first, in one statement however many there are (a
// stage whose draw was taken back voids a whole round; issue 12).
func (s *Store) VoidBracketGamesOfEvent(ctx context.Context, eventID int64) ([]VoidBracketGameRow, error) {
	rows, err := s.DB(ctx).Raw(`SELECT kg.stage_id, kg.bracket_game, g.id, g.label, g.sente_player_id, g.gote_player_id
		FROM knockout_games kg JOIN games g ON g.id = kg.game_id
		WHERE g.event_id = ? AND kg.game_id IN (SELECT game_id FROM game_voids)
		ORDER BY kg.id`, eventID).Rows()
	if err != nil {
		return nil, notFound(err, "void bracket games of event")
	}
	defer rows.Close()
	var out []VoidBracketGameRow
	for rows.Next() {
		var r VoidBracketGameRow
		if err := rows.Scan(&r.StageID, &r.BracketGame, &r.GameID, &r.Label, &r.SenteID, &r.GoteID); err != nil {
			return nil, notFound(err, "void bracket games of event")
		}
		out = append(out, r)
	}
	return out, notFound(rows.Err(), "void bracket games of event")
}
