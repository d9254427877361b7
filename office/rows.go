package office

import "kisen/store"

// The rows the office's use cases hand to the web. They are the store's
// row types under the office's name, so the web room reads and renders
// them without importing kisen/store: every read still goes through a use
// case that knows the actor (docs/rooms.md, "web reads through office").
// A type is named here only when a use case returns it; none of them
// carries a way back to the database.
type (
	APITokenRow      = store.APITokenRow
	Changes          = store.Changes
	DayEntrantRow    = store.DayEntrantRow
	DayReportResult  = store.DayReportResult
	Event            = store.Event
	EventRevision    = store.EventRevision
	Game             = store.Game
	KnockoutStage    = store.KnockoutStage
	Organiser        = store.Organiser
	Player           = store.Player
	PlayerClass      = store.PlayerClass
	PlayerKey        = store.PlayerKey
	PlayerKind       = store.PlayerKind
	PlayerMaster     = store.PlayerMaster
	PlayerSearch     = store.PlayerSearch
	RatedKey         = store.RatedKey
	RatingChartPoint = store.RatingChartPoint
	ResultVersion    = store.ResultVersion
	Ruling           = store.Ruling
	User             = store.User
)

// A day entrant's arrival (store.Checkin*).
const (
	CheckinExpected = store.CheckinExpected
	CheckinPresent  = store.CheckinPresent
	CheckinLate     = store.CheckinLate
	CheckinAbsent   = store.CheckinAbsent
)

// A player's kind and 順位戦 class (store.Player*).
const (
	PlayerProfessional = store.PlayerProfessional
	PlayerWomens       = store.PlayerWomens
	PlayerShoreikai    = store.PlayerShoreikai
	PlayerAmateur      = store.PlayerAmateur

	PlayerClassA    = store.PlayerClassA
	PlayerClassB1   = store.PlayerClassB1
	PlayerClassB2   = store.PlayerClassB2
	PlayerClassC1   = store.PlayerClassC1
	PlayerClassC2   = store.PlayerClassC2
	PlayerClassFree = store.PlayerClassFree
)

// PlayerKinds and PlayerClasses list the kinds and classes in their order
// on forms.
var (
	PlayerKinds   = store.PlayerKinds
	PlayerClasses = store.PlayerClasses
)

// More rows, for the API, game, bracket, live, embed, event and health pages.
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
