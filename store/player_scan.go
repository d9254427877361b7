package store

import (
	"context"
	"database/sql"
	"fmt"
)

// PlayersShownByIDs is PlayersByIDs for the largest pages (a bracket of
// 1,024 names its players on every computed request): the same players,
// keyed the same way, with every column a page shows — not SearchKey,
// CreatedAt or UpdatedAt, which stay zero — read with one statement per
// playerIDChunk ids and scanned column by column instead of through gorm's
// reflection (issue 12; on SQLite the two timestamps cost more to scan
// than the rest of the row).
func (s *Store) PlayersShownByIDs(ctx context.Context, ids []int64) (map[int64]Player, error) {
	ids = playerUniqueIDs(ids)
	out := make(map[int64]Player, len(ids))
	for _, chunk := range playerChunks(ids, playerIDChunk) {
		if len(chunk) == 0 {
			continue
		}
		if err := s.scanPlayers(ctx, chunk, out); err != nil {
			return nil, fmt.Errorf("load players: %w", err)
		}
	}
	return out, nil
}

func (s *Store) scanPlayers(ctx context.Context, ids []int64, out map[int64]Player) error {
	rows, err := s.DB(ctx).Raw("SELECT id, number, name, reading, kind, rank, class, affiliation, birth_date"+
		" FROM players WHERE id IN ?", ids).Rows()
	if err != nil {
		return err
	}
	defer rows.Close()
	// One set of destinations for every row.
	var (
		p      Player
		number sql.NullString
	)
	dest := []any{&p.ID, &number, &p.Name, &p.Reading, &p.Kind, &p.Rank, &p.Class, &p.Affiliation, &p.BirthDate}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return err
		}
		row := p
		if number.Valid {
			v := number.String
			row.Number = &v
		}
		out[row.ID] = row
	}
	return rows.Err()
}
