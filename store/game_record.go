package store

import (
	"context"
	"fmt"
	"time"
)

// GameRecord is one version of a game's record (棋譜); rows are never
// updated. Moves are the main line in USI, space-separated, from StartSFEN.
type GameRecord struct {
	ID        int64  `gorm:"primaryKey"`
	GameID    int64  `gorm:"not null"`
	Version   int    `gorm:"not null"`
	Format    string `gorm:"not null"`
	Text      string `gorm:"not null"`
	StartSFEN string `gorm:"column:start_sfen;not null"`
	Moves     string `gorm:"not null;default:''"`
	Plies     int    `gorm:"not null"`
	HasFoul   bool   `gorm:"not null;default:false"`
	Findings  string `gorm:"not null;default:'{}'"`
	EnteredBy int64  `gorm:"not null"`
	EnteredAt time.Time
	// EnteredVia names the API token the version came through ("" for the
	// web; migration 00115).
	EnteredVia string `gorm:"not null;default:''"`
}

// AppendGameRecord adds the next version of a game's record.
func (s *Store) AppendGameRecord(ctx context.Context, r *GameRecord) error {
	var last struct{ V *int }
	if err := s.DB(ctx).Model(&GameRecord{}).Select("MAX(version) AS v").Where("game_id = ?", r.GameID).Scan(&last).Error; err != nil {
		return fmt.Errorf("append game record: %w", err)
	}
	r.Version = 1
	if last.V != nil {
		r.Version = *last.V + 1
	}
	r.EnteredAt = r.EnteredAt.UTC()
	return notFound(s.DB(ctx).Create(r).Error, "append game record")
}

// GameRecords lists every record version of a game, oldest first.
func (s *Store) GameRecords(ctx context.Context, gameID int64) ([]GameRecord, error) {
	var out []GameRecord
	err := s.DB(ctx).Where("game_id = ?", gameID).Order("version").Find(&out).Error
	return out, notFound(err, "list game records")
}

// GameRecordVersions lists a game's record versions, oldest first, without
// their text, moves and findings: what a page lists about each version.
// A page that shows the moves loads the newest version alone
// (LatestGameRecord), so it never holds every version's text at once — a
// relay appends one version per move (issue 21 item 7).
func (s *Store) GameRecordVersions(ctx context.Context, gameID int64) ([]GameRecord, error) {
	var out []GameRecord
	err := s.DB(ctx).Select("id", "game_id", "version", "format", "start_sfen", "plies", "has_foul", "entered_by", "entered_at", "entered_via").
		Where("game_id = ?", gameID).Order("version").Find(&out).Error
	return out, notFound(err, "list game record versions")
}

// LatestGameRecordMoves is the newest record version without its text and
// findings: its start, moves and plies, what a board or the API shows. ok
// is false when the game has none.
func (s *Store) LatestGameRecordMoves(ctx context.Context, gameID int64) (GameRecord, bool, error) {
	var out []GameRecord
	err := s.DB(ctx).Select("id", "game_id", "version", "format", "start_sfen", "moves", "plies", "has_foul", "entered_by", "entered_at", "entered_via").
		Where("game_id = ?", gameID).Order("version DESC").Limit(1).Find(&out).Error
	if err != nil || len(out) == 0 {
		return GameRecord{}, false, notFound(err, "latest game record moves")
	}
	return out[0], true, nil
}

// LatestGameRecord is the newest record version of a game; ok is false
// when the game has none.
func (s *Store) LatestGameRecord(ctx context.Context, gameID int64) (GameRecord, bool, error) {
	var out []GameRecord
	err := s.DB(ctx).Where("game_id = ?", gameID).Order("version DESC").Limit(1).Find(&out).Error
	if err != nil || len(out) == 0 {
		return GameRecord{}, false, notFound(err, "latest game record")
	}
	return out[0], true, nil
}

// GameRecordByID loads one record version.
func (s *Store) GameRecordByID(ctx context.Context, id int64) (GameRecord, error) {
	var r GameRecord
	err := s.DB(ctx).Where("id = ?", id).Take(&r).Error
	return r, notFound(err, fmt.Sprintf("game record %d", id))
}

// RecordedGamesOfPlayer is the set of the player's games that have a stored
// record, in one statement (the record page marks them; it never loads a
// record to do so).
func (s *Store) RecordedGamesOfPlayer(ctx context.Context, playerID int64) (map[int64]bool, error) {
	var ids []int64
	err := s.DB(ctx).Model(&GameRecord{}).Distinct("game_id").
		Where("game_id IN (?)", s.DB(ctx).Model(&Game{}).Select("id").Where("sente_player_id = ? OR gote_player_id = ?", playerID, playerID)).
		Pluck("game_id", &ids).Error
	if err != nil {
		return nil, fmt.Errorf("recorded games of player %d: %w", playerID, err)
	}
	out := make(map[int64]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out, nil
}
