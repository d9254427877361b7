package store

import "context"

// Superuser reports whether the connection's PostgreSQL role is a
// superuser: a superuser passes every grant and can switch the append-only
// triggers off (docs/operations.md, "The database role"), so `kisen` warns
// when it runs as one. SQLite has no roles: false.
func (s *Store) Superuser(ctx context.Context) (bool, error) {
	if s.dialect != Postgres {
		return false, nil
	}
	var super bool
	err := s.DB(ctx).Raw("SELECT rolsuper FROM pg_roles WHERE rolname = current_user").Scan(&super).Error
	return super, err
}
