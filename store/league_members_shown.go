package store

import (
	"context"
	"database/sql"
	"fmt"
)

// LeagueMembersShown is LeagueMembers and PlayersByIDs of those members in
// one statement (a join), scanned column by column: read on every computed
// league table (issue 12). The members come in 順位 order as LeagueMembers
// gives them; the players are keyed by id and hold PlayersShownByIDs's
// columns (SearchKey, CreatedAt and UpdatedAt stay zero).
// TestLeagueMembersShown_SameAsFullReads checks it against both reads.
func (s *Store) LeagueMembersShown(ctx context.Context, classID int64) ([]LeagueMember, map[int64]Player, error) {
	rows, err := s.DB(ctx).Raw("SELECT m.id, m.player_id, m.junni, m.points, m.origin,"+
		" p.number, p.name, p.reading, p.kind, p.rank, p.class, p.affiliation, p.birth_date"+
		" FROM league_members m JOIN players p ON p.id = m.player_id WHERE m.class_id = ? ORDER BY m.junni", classID).Rows()
	if err != nil {
		return nil, nil, notFound(err, fmt.Sprintf("league members of class %d", classID))
	}
	defer rows.Close()
	var members []LeagueMember
	players := map[int64]Player{}
	for rows.Next() {
		var (
			m      = LeagueMember{ClassID: classID}
			p      Player
			number sql.NullString
		)
		if err := rows.Scan(&m.ID, &m.PlayerID, &m.Junni, &m.Points, &m.Origin,
			&number, &p.Name, &p.Reading, &p.Kind, &p.Rank, &p.Class, &p.Affiliation, &p.BirthDate); err != nil {
			return nil, nil, fmt.Errorf("league members of class %d: %w", classID, err)
		}
		if number.Valid {
			v := number.String
			p.Number = &v
		}
		p.ID = m.PlayerID
		members = append(members, m)
		players[p.ID] = p
	}
	return members, players, notFound(rows.Err(), fmt.Sprintf("league members of class %d", classID))
}
