package store

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"
)

// PlayerKind is what a player is: 棋士, 女流棋士, 奨励会員 or amateur.
type PlayerKind string

const (
	PlayerProfessional PlayerKind = "professional" // 棋士
	PlayerWomens       PlayerKind = "womens"       // 女流棋士
	PlayerShoreikai    PlayerKind = "shoreikai"    // 奨励会員
	PlayerAmateur      PlayerKind = "amateur"      // アマチュア
)

// PlayerKinds lists every kind in display order.
var PlayerKinds = []PlayerKind{PlayerProfessional, PlayerWomens, PlayerShoreikai, PlayerAmateur}

// PlayerClass is a 順位戦 class; "" means none.
type PlayerClass string

const (
	PlayerClassNone PlayerClass = ""
	PlayerClassA    PlayerClass = "A"
	PlayerClassB1   PlayerClass = "B1"
	PlayerClassB2   PlayerClass = "B2"
	PlayerClassC1   PlayerClass = "C1"
	PlayerClassC2   PlayerClass = "C2"
	PlayerClassFree PlayerClass = "FREE" // フリークラス
)

// PlayerClasses lists the classes from the top (none excluded).
var PlayerClasses = []PlayerClass{PlayerClassA, PlayerClassB1, PlayerClassB2, PlayerClassC1, PlayerClassC2, PlayerClassFree}

// Player is one person in the registry. Name and Reading are as entered
// (Reading in hiragana, see office); SearchKey is derived on every write.
type Player struct {
	ID          int64   `gorm:"primaryKey"`
	Number      *string // federation player number; nil when none, unique otherwise
	Name        string  `gorm:"not null"`
	Reading     string  `gorm:"not null"`
	Kind        PlayerKind
	Rank        string
	Class       PlayerClass
	Affiliation string
	BirthDate   CivilDate
	SearchKey   string    `gorm:"not null"`
	CreatedAt   time.Time `gorm:"autoCreateTime:false"`
	UpdatedAt   time.Time `gorm:"autoUpdateTime:false"`
}

// BeforeSave keeps the search key in step with name and reading, whatever
// the write path (create, update, batch import).
func (p *Player) BeforeSave(*gorm.DB) error {
	p.SearchKey = playerSearchKey(p.Name, p.Reading)
	p.CreatedAt = p.CreatedAt.UTC()
	p.UpdatedAt = p.UpdatedAt.UTC()
	return nil
}

// NumberOrEmpty is the federation number, "" when there is none.
func (p Player) NumberOrEmpty() string {
	if p.Number == nil {
		return ""
	}
	return *p.Number
}

// CreatePlayer inserts p and sets its ID. A taken federation number gives
// ErrConflict.
func (s *Store) CreatePlayer(ctx context.Context, p *Player) error {
	return notFound(s.DB(ctx).Create(p).Error, "create player")
}

// CreatePlayers inserts many players in batches (CSV import) and sets
// their IDs.
func (s *Store) CreatePlayers(ctx context.Context, ps []*Player) error {
	if len(ps) == 0 {
		return nil
	}
	return notFound(s.DB(ctx).CreateInBatches(ps, 500).Error, "create players")
}

// UpdatePlayer writes every field of p (by ID).
func (s *Store) UpdatePlayer(ctx context.Context, p *Player) error {
	res := s.DB(ctx).Model(p).Select("*").Omit("id", "created_at").Updates(p)
	if err := notFound(res.Error, fmt.Sprintf("update player %d", p.ID)); err != nil {
		return err
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("update player %d: %w", p.ID, ErrNotFound)
	}
	return nil
}

// PlayerByID loads one player.
func (s *Store) PlayerByID(ctx context.Context, id int64) (Player, error) {
	var p Player
	err := s.DB(ctx).Where("id = ?", id).Take(&p).Error
	return p, notFound(err, fmt.Sprintf("player %d", id))
}

// PlayerByNumber loads the player with a federation number.
func (s *Store) PlayerByNumber(ctx context.Context, number string) (Player, error) {
	var p Player
	err := s.DB(ctx).Where("number = ?", number).Take(&p).Error
	return p, notFound(err, fmt.Sprintf("player number %q", number))
}

// PlayersByIDs loads the players with the given ids (missing ids are left
// out), keyed by id.
func (s *Store) PlayersByIDs(ctx context.Context, ids []int64) (map[int64]Player, error) {
	return rowsByID(ctx, s, ids, "load players", func(p Player) int64 { return p.ID })
}

// rowsByID loads the rows of T with the given ids, keyed by id: one
// statement per playerIDChunk ids, so one for any page.
func rowsByID[T any](ctx context.Context, s *Store, ids []int64, what string, id func(T) int64) (map[int64]T, error) {
	out := make(map[int64]T, len(ids))
	for _, chunk := range playerChunks(playerUniqueIDs(ids), playerIDChunk) {
		var rows []T
		if err := s.DB(ctx).Where("id IN ?", chunk).Find(&rows).Error; err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		for _, r := range rows {
			out[id(r)] = r
		}
	}
	return out, nil
}

// PlayerSearch is one page of the player list.
type PlayerSearch struct {
	Query  string // matched against name and reading through SearchKey
	Limit  int    // 0 = no limit
	Offset int
}

// SearchPlayers returns one page of players matching q, sorted by reading
// (ARCHITECTURE: Japanese names sort by よみ), and the total match count.
func (s *Store) SearchPlayers(ctx context.Context, q PlayerSearch) ([]Player, int64, error) {
	db := s.DB(ctx).Model(&Player{})
	if pat := searchPattern(q.Query); pat != "" {
		db = db.Where(`search_key LIKE ? ESCAPE '\'`, pat)
	}
	var total int64
	if err := db.Count(&total).Error; err != nil {
		return nil, 0, fmt.Errorf("count players: %w", err)
	}
	page := db.Order("reading, id")
	if q.Limit > 0 {
		page = page.Limit(q.Limit).Offset(q.Offset)
	}
	var ps []Player
	if err := page.Find(&ps).Error; err != nil {
		return nil, 0, fmt.Errorf("search players: %w", err)
	}
	return ps, total, nil
}

// AllPlayers returns every player sorted by reading (export, import).
func (s *Store) AllPlayers(ctx context.Context) ([]Player, error) {
	ps, _, err := s.SearchPlayers(ctx, PlayerSearch{})
	return ps, err
}

// playerIDChunk keeps IN lists under both databases' parameter limits
// (SQLite since 3.32: 32,766; PostgreSQL: 65,535) while letting a page of
// a 1,024-entrant bracket name its players in one statement (issue 12).
const playerIDChunk = 30000

func playerChunks[T any](xs []T, n int) [][]T {
	var out [][]T
	for len(xs) > n {
		out = append(out, xs[:n])
		xs = xs[n:]
	}
	if len(xs) > 0 {
		out = append(out, xs)
	}
	return out
}

func playerUniqueIDs(ids []int64) []int64 {
	seen := make(map[int64]bool, len(ids))
	out := make([]int64, 0, len(ids))
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}
