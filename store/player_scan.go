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
	rows, err := s.DB(ctx).Raw("SELECT "+playerShownColumns("players", true)+" FROM players WHERE id IN ?", ids).Rows()
	if err != nil {
		return err
	}
	defer rows.Close()
	var r playerShownRow
	dest := r.dest(true)
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return err
		}
		p := r.player(r.p.ID)
		out[p.ID] = p
	}
	return rows.Err()
}

// playerShownColumns are the columns PlayersShownByIDs reads, of table t,
// without its id when the statement has it already (a join).
func playerShownColumns(t string, id bool) string {
	cols := t + ".number, " + t + ".name, " + t + ".reading, " + t + ".kind, " + t + ".rank, " + t + ".class, " + t + ".affiliation, " + t + ".birth_date"
	if id {
		return t + ".id, " + cols
	}
	return cols
}

// playerShownRow receives playerShownColumns, row after row, through the
// same destinations (one set per statement, not per row).
type playerShownRow struct {
	p      Player // Number stays nil: it arrives in number
	number sql.NullString
}

// dest are the destinations of playerShownColumns(t, id).
func (r *playerShownRow) dest(id bool) []any {
	d := []any{&r.p.ID, &r.number, &r.p.Name, &r.p.Reading, &r.p.Kind, &r.p.Rank, &r.p.Class, &r.p.Affiliation, &r.p.BirthDate}
	if !id {
		return d[1:]
	}
	return d
}

// player is the row scanned last, as player id.
func (r *playerShownRow) player(id int64) Player {
	p := r.p
	p.ID = id
	if r.number.Valid {
		v := r.number.String
		p.Number = &v
	}
	return p
}
