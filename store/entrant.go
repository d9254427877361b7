package store

import (
	"context"
	"fmt"
	"time"
)

// KnockoutEntrant is one registered player in a stage: Seed 0 is unseeded;
// EnterRound > 1 is a seeded player who starts in a later round.
type KnockoutEntrant struct {
	ID         int64 `gorm:"primaryKey"`
	StageID    int64 `gorm:"not null"`
	PlayerID   int64 `gorm:"not null"`
	Seed       int   `gorm:"not null;default:0"`
	EnterRound int   `gorm:"not null;default:1"`
	Withdrawn  bool  `gorm:"not null;default:false"`
	CreatedAt  time.Time
}

// AddEntrant inserts e; a player already in the stage is ErrConflict.
func (s *Store) AddEntrant(ctx context.Context, e *KnockoutEntrant) error {
	e.CreatedAt = e.CreatedAt.UTC()
	return notFound(s.DB(ctx).Create(e).Error, "add entrant")
}

// EntrantsOfStage lists a stage's entrants by seed (seeded first), then id.
func (s *Store) EntrantsOfStage(ctx context.Context, stageID int64) ([]KnockoutEntrant, error) {
	// Scanned by hand: a 1,024-entrant stage is read on every bracket page
	// and every result's sync (issue 12).
	rows, err := s.DB(ctx).Raw("SELECT id, stage_id, player_id, seed, enter_round, withdrawn, created_at FROM knockout_entrants"+
		" WHERE stage_id = ? ORDER BY CASE WHEN seed = 0 THEN 1 ELSE 0 END, seed, id", stageID).Rows()
	if err != nil {
		return nil, notFound(err, "entrants of stage")
	}
	defer rows.Close()
	var out []KnockoutEntrant
	for rows.Next() {
		var e KnockoutEntrant
		if err := rows.Scan(&e.ID, &e.StageID, &e.PlayerID, &e.Seed, &e.EnterRound, &e.Withdrawn, &e.CreatedAt); err != nil {
			return nil, fmt.Errorf("entrants of stage: %w", err)
		}
		out = append(out, e)
	}
	return out, notFound(rows.Err(), "entrants of stage")
}

// EntrantsOfStages reads the entrants of several stages (an event's) in
// one statement, by stage, each in EntrantsOfStage's order (issue 12: a
// bracket page costs the same statements however many stages it shows).
// CreatedAt stays zero: a bracket never shows it, and scanning a
// timestamp cost more than the rest of the row.
func (s *Store) EntrantsOfStages(ctx context.Context, stageIDs []int64) (map[int64][]KnockoutEntrant, error) {
	return s.entrantsOfStages(ctx, stageIDs, nil)
}

// EntrantsOfStagesNamed is EntrantsOfStages with each entrant's player's
// ID, Name and Rank — what a bracket and its stage page show of an entrant;
// every other field stays zero — in the same statement (a join). A bracket
// page names every entrant: reading them by id afterwards cost a second
// statement with an IN list of every entrant, and the columns no bracket
// shows cost more to scan than the entrants (issue 12).
// TestEntrantsOfStagesNamed_SameAsSeparateReads checks it against
// EntrantsOfStages and PlayersShownByIDs.
func (s *Store) EntrantsOfStagesNamed(ctx context.Context, stageIDs []int64) (map[int64][]KnockoutEntrant, map[int64]Player, error) {
	players := map[int64]Player{}
	out, err := s.entrantsOfStages(ctx, stageIDs, players)
	return out, players, err
}

// entrantsOfStages reads the entrants, and their players into players when
// it is not nil.
func (s *Store) entrantsOfStages(ctx context.Context, stageIDs []int64, players map[int64]Player) (map[int64][]KnockoutEntrant, error) {
	out := make(map[int64][]KnockoutEntrant, len(stageIDs))
	if len(stageIDs) == 0 {
		return out, nil
	}
	q := "SELECT e.id, e.stage_id, e.player_id, e.seed, e.enter_round, e.withdrawn FROM knockout_entrants e"
	if players != nil {
		q = "SELECT e.id, e.stage_id, e.player_id, e.seed, e.enter_round, e.withdrawn, p.name, p.rank" +
			" FROM knockout_entrants e JOIN players p ON p.id = e.player_id"
	}
	rows, err := s.DB(ctx).Raw(q+" WHERE e.stage_id IN ? ORDER BY e.stage_id, CASE WHEN e.seed = 0 THEN 1 ELSE 0 END, e.seed, e.id", stageIDs).Rows()
	if err != nil {
		return nil, notFound(err, "entrants of stages")
	}
	defer rows.Close()
	// One slice for every row; each stage's entrants are a sub-slice of it
	// (they arrive by stage).
	var all []KnockoutEntrant
	var (
		e          KnockoutEntrant
		name, rank string
	)
	dest := []any{&e.ID, &e.StageID, &e.PlayerID, &e.Seed, &e.EnterRound, &e.Withdrawn}
	if players != nil {
		dest = append(dest, &name, &rank)
	}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return nil, fmt.Errorf("entrants of stages: %w", err)
		}
		all = append(all, e)
		if players != nil {
			players[e.PlayerID] = Player{ID: e.PlayerID, Name: name, Rank: rank}
		}
	}
	if err := rows.Err(); err != nil {
		return nil, notFound(err, "entrants of stages")
	}
	fileRuns(all, func(e *KnockoutEntrant) int64 { return e.StageID }, out)
	return out, nil
}

// RemoveEntrant deletes one entrant of a stage.
func (s *Store) RemoveEntrant(ctx context.Context, stageID, entrantID int64) error {
	res := s.DB(ctx).Where("stage_id = ? AND id = ?", stageID, entrantID).Delete(&KnockoutEntrant{})
	if res.Error != nil {
		return notFound(res.Error, "remove entrant")
	}
	if res.RowsAffected == 0 {
		return notFound(ErrNotFound, "entrant")
	}
	return nil
}

// SetEntrantWithdrawn marks a player as withdrawn (棄権) from a stage.
func (s *Store) SetEntrantWithdrawn(ctx context.Context, stageID, playerID int64) error {
	res := s.DB(ctx).Model(&KnockoutEntrant{}).Where("stage_id = ? AND player_id = ?", stageID, playerID).Update("withdrawn", true)
	if res.Error != nil {
		return notFound(res.Error, "withdraw entrant")
	}
	if res.RowsAffected == 0 {
		return notFound(ErrNotFound, "entrant")
	}
	return nil
}

// EventHasWithdrawals reports whether any stage of the event has a
// withdrawn entrant, in one statement.
func (s *Store) EventHasWithdrawals(ctx context.Context, eventID int64) (bool, error) {
	var n int64
	err := s.DB(ctx).Model(&KnockoutEntrant{}).
		Where("withdrawn AND stage_id IN (?)", s.DB(ctx).Model(&KnockoutStage{}).Select("id").Where("event_id = ?", eventID)).
		Count(&n).Error
	return n > 0, notFound(err, "withdrawals of event")
}
