package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// SeatFacts are the registry's facts that decide a player's 席次 (D-Z1,
// docs/seating.md): rank, class, number, titles held (comma separated, in
// the federation's names), the day of promotion to the present 段 and the
// day of becoming professional.
type SeatFacts struct {
	ID        int64
	Kind      PlayerKind
	Rank      string
	Class     PlayerClass
	Number    string
	Titles    string
	RankSince CivilDate
	ProSince  CivilDate
}

// SeatFactsOf reads the 席次 facts of the players ids (one statement); a
// missing id is absent from the map.
func (s *Store) SeatFactsOf(ctx context.Context, ids []int64) (map[int64]SeatFacts, error) {
	if len(ids) == 0 {
		return map[int64]SeatFacts{}, nil
	}
	return scanSeatFacts(s.DB(ctx).Raw("SELECT id, kind, rank, class, number, titles, rank_since, pro_since FROM players WHERE id IN ?", ids).Rows())
}

// AllSeatFacts reads the 席次 facts of every player (one statement; the
// players CSV export and import).
func (s *Store) AllSeatFacts(ctx context.Context) (map[int64]SeatFacts, error) {
	return scanSeatFacts(s.DB(ctx).Raw("SELECT id, kind, rank, class, number, titles, rank_since, pro_since FROM players").Rows())
}

func scanSeatFacts(rows *sql.Rows, err error) (map[int64]SeatFacts, error) {
	if err != nil {
		return nil, fmt.Errorf("seat facts: %w", err)
	}
	defer rows.Close()
	out := map[int64]SeatFacts{}
	for rows.Next() {
		var f SeatFacts
		var number sql.NullString
		if err := rows.Scan(&f.ID, &f.Kind, &f.Rank, &f.Class, &number, &f.Titles, &f.RankSince, &f.ProSince); err != nil {
			return nil, fmt.Errorf("seat facts: %w", err)
		}
		f.Number = number.String
		out[f.ID] = f
	}
	return out, rows.Err()
}

// SetSeatFacts records a player's titles, promotion day and professional
// day (the registry's 席次 facts beside rank and class).
func (s *Store) SetSeatFacts(ctx context.Context, id int64, titles string, rankSince, proSince CivilDate, now time.Time) error {
	res := s.DB(ctx).Model(&Player{}).Where("id = ?", id).
		Updates(map[string]any{"titles": titles, "rank_since": rankSince, "pro_since": proSince, "updated_at": now.UTC()})
	if res.Error != nil {
		return notFound(res.Error, "set seat facts")
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("player %d: %w", id, ErrNotFound)
	}
	return nil
}

// SeatOverride is an organiser's decision of one game's 上座 with its
// reason (append-only: a later row supersedes an earlier one).
type SeatOverride struct {
	ID      int64 `gorm:"primaryKey"`
	GameID  int64
	JozaID  int64
	Reason  string
	ActorID int64
	At      time.Time `gorm:"autoCreateTime:false"`
}

// AddSeatOverride appends an override.
func (s *Store) AddSeatOverride(ctx context.Context, o *SeatOverride) error {
	o.At = o.At.UTC()
	return AppendOnly(notFound(s.DB(ctx).Create(o).Error, "add seat override"))
}

// SeatOverridesOf lists the overrides of games, oldest first (one
// statement); the last of a game is the one in force.
func (s *Store) SeatOverridesOf(ctx context.Context, gameIDs []int64) ([]SeatOverride, error) {
	var out []SeatOverride
	if len(gameIDs) == 0 {
		return out, nil
	}
	err := s.DB(ctx).Where("game_id IN ?", gameIDs).Order("id").Find(&out).Error
	return out, notFound(err, "seat overrides")
}

// Junni is a player's 順位 in a 順位戦 class.
type Junni struct {
	Class PlayerClass
	Junni int
}

// JunniOn reads each player's 順位 in the 順位戦 term (an event of kind
// junisen_term) running on day (YYYY-MM-DD), one statement; a player in
// no such term is absent. When terms overlap, the latest started wins.
func (s *Store) JunniOn(ctx context.Context, ids []int64, day string) (map[int64]Junni, error) {
	out := map[int64]Junni{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := s.DB(ctx).Raw(`SELECT lm.player_id, lc.class, lm.junni FROM league_members lm
		JOIN league_classes lc ON lc.id = lm.class_id JOIN events e ON e.id = lc.event_id
		WHERE e.kind = 'junisen_term' AND lm.player_id IN ? AND e.start_date <= ? AND e.end_date >= ?
		ORDER BY e.start_date, e.id`, ids, day, day).Rows()
	if err != nil {
		return nil, fmt.Errorf("junni: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var j Junni
		if err := rows.Scan(&id, &j.Class, &j.Junni); err != nil {
			return nil, fmt.Errorf("junni: %w", err)
		}
		out[id] = j // later terms overwrite earlier ones
	}
	return out, rows.Err()
}
