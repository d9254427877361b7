package office

import "kisen/store"

// More of the store's rows and helpers under the office's name, for the
// web's API, game, bracket, live, embed, event and health pages (issue 22
// §1; rows.go has the rest). Like rows.go, every row reaches the web
// through a use case that knows the actor, or says in its comment why the
// caller has already checked.
type (
	CivilDate       = store.CivilDate
	Dialect         = store.Dialect
	DrawLogEntry    = store.DrawLogEntry
	GameSet         = store.GameSet
	GameVoid        = store.GameVoid
	KnockoutEntrant = store.KnockoutEntrant
	WatchOptions    = store.WatchOptions
)

// The database dialects (store.SQLite, store.Postgres).
const (
	SQLite   = store.SQLite
	Postgres = store.Postgres
)

// ParseCivilDate reads a calendar day written YYYY-MM-DD ("" is the zero
// day).
func ParseCivilDate(s string) (CivilDate, error) { return store.ParseCivilDate(s) }

// EffectiveOf is the result in force among a game's versions (oldest
// first): the newest confirmed one.
func EffectiveOf(vs []ResultVersion) (ResultVersion, bool) { return store.EffectiveOf(vs) }
