package store

import (
	"sync/atomic"

	"gorm.io/gorm"
)

// Statements is how many SQL statements this store's database handle has
// run since it was opened (every gorm statement kind, transactions
// included). The query-count tests compare it before and after a page, and
// the load benchmark reports it per request (issue 12: a page costs a fixed
// number of statements whatever the size of the event).
func (s *Store) Statements() int64 {
	if s.stmts == nil {
		return 0
	}
	return s.stmts.Load()
}

// countStatements registers, after every kind of gorm statement, a callback
// that adds one to n.
func countStatements(db *gorm.DB, n *atomic.Int64) error {
	count := func(g *gorm.DB) {
		if !g.DryRun { // a subquery is built in a dry run, not sent
			n.Add(1)
		}
	}
	return afterEveryStatement(db, "kisen:count_statements", count)
}

// afterEveryStatement registers fn under name after every kind of gorm
// statement (create, query, update, delete, row, raw).
func afterEveryStatement(db *gorm.DB, name string, fn func(*gorm.DB)) error {
	cb := db.Callback()
	for _, err := range []error{
		cb.Create().After("*").Register(name, fn),
		cb.Query().After("*").Register(name, fn),
		cb.Update().After("*").Register(name, fn),
		cb.Delete().After("*").Register(name, fn),
		cb.Row().After("*").Register(name, fn),
		cb.Raw().After("*").Register(name, fn),
	} {
		if err != nil {
			return err
		}
	}
	return nil
}
