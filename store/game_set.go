package store

import (
	"context"
	"fmt"
	"slices"
)

// GameSet is what pages need to know of a set of games, read in three
// statements whatever its size (issue 12): the games with their whole redo
// chains, every result version with its confirmation, and the void marks.
// office computes effective results and deciding games from it in memory
// (office/game_set.go); the same code serves one game and a thousand.
type GameSet struct {
	Games    map[int64]Game
	Versions map[int64][]ResultVersion // per game, oldest first
	Void     map[int64]bool            // game_voids
	redos    map[int64][]Game          // non-void redo games per game they replay
}

// Redos lists the redo games that replay game id, in order (redo number,
// then id), leaving out void ones — RedoGames read from the set.
func (gs GameSet) Redos(id int64) []Game { return gs.redos[id] }

// Latest is a game's newest result version, confirmed or not.
func (gs GameSet) Latest(id int64) (ResultVersion, bool) {
	vs := gs.Versions[id]
	if len(vs) == 0 {
		return ResultVersion{}, false
	}
	return vs[len(vs)-1], true
}

// Effective is a game's result in force: its latest confirmed version.
func (gs GameSet) Effective(id int64) (ResultVersion, bool) { return EffectiveOf(gs.Versions[id]) }

// EffectiveOf is the result in force among a game's versions (oldest
// first): the latest confirmed one. It is the one definition every reader
// uses (EffectiveResult, EffectiveResults, GameSet.Effective).
func EffectiveOf(vs []ResultVersion) (ResultVersion, bool) {
	for i := len(vs) - 1; i >= 0; i-- {
		if vs[i].Confirmed() {
			return vs[i], true
		}
	}
	return ResultVersion{}, false
}

// chainCTE names, as chain(id), the games matched by roots (a condition
// on games) and every redo game replaying them, at any depth.
func chainCTE(roots string) string {
	return "WITH RECURSIVE chain(id) AS (SELECT id FROM games WHERE " + roots +
		" UNION SELECT g.id FROM games g JOIN chain ON g.redo_of_id = chain.id) "
}

// gameSet reads the games matched by roots (a condition on the games
// table with args) with their redo chains, in three statements.
func (s *Store) gameSet(ctx context.Context, what, roots string, args ...any) (GameSet, error) {
	return s.gameSetIn(ctx, what, chainCTE(roots), "SELECT id FROM chain", args...)
}

// gameSetIn reads the games whose ids the query in gives (after the WITH
// clause cte, "" for none), in three statements.
func (s *Store) gameSetIn(ctx context.Context, what, cte, in string, args ...any) (GameSet, error) {
	gs := GameSet{Games: map[int64]Game{}, Versions: map[int64][]ResultVersion{}, Void: map[int64]bool{}, redos: map[int64][]Game{}}
	var games []Game
	if err := s.DB(ctx).Raw(cte+"SELECT * FROM games WHERE id IN ("+in+")", args...).Scan(&games).Error; err != nil {
		return gs, fmt.Errorf("games of %s: %w", what, err)
	}
	var vs []ResultVersion
	if err := s.DB(ctx).Raw(cte+"SELECT game_results.*, conf.confirmed_by AS confirmed_by, conf.confirmed_at AS confirmed_at FROM game_results"+
		" LEFT JOIN game_result_confirmations conf ON conf.game_result_id = game_results.id"+
		" WHERE game_results.game_id IN ("+in+") ORDER BY game_results.game_id, game_results.version", args...).Scan(&vs).Error; err != nil {
		return gs, fmt.Errorf("results of %s: %w", what, err)
	}
	var voids []int64
	if err := s.DB(ctx).Raw(cte+"SELECT game_id FROM game_voids WHERE game_id IN ("+in+")", args...).Scan(&voids).Error; err != nil {
		return gs, fmt.Errorf("void games of %s: %w", what, err)
	}
	for _, id := range voids {
		gs.Void[id] = true
	}
	for _, g := range games {
		gs.Games[g.ID] = g
		if g.RedoOfID != nil && !gs.Void[g.ID] {
			gs.redos[*g.RedoOfID] = append(gs.redos[*g.RedoOfID], g)
		}
	}
	for _, rs := range gs.redos {
		slices.SortFunc(rs, func(a, b Game) int {
			if a.RedoNumber != b.RedoNumber {
				return a.RedoNumber - b.RedoNumber
			}
			return int(a.ID - b.ID)
		})
	}
	for _, v := range vs {
		gs.Versions[v.GameID] = append(gs.Versions[v.GameID], v)
	}
	return gs, nil
}

// GameSetOfEvent reads every game of an event. A redo game belongs to the
// event of the game it replays, so no chain needs following.
func (s *Store) GameSetOfEvent(ctx context.Context, eventID int64) (GameSet, error) {
	return s.gameSetIn(ctx, fmt.Sprintf("event %d", eventID), "", "SELECT id FROM games WHERE event_id = ?", eventID)
}

// GameSetOfChain reads one game and its redo chain.
func (s *Store) GameSetOfChain(ctx context.Context, gameID int64) (GameSet, error) {
	return s.gameSet(ctx, fmt.Sprintf("game %d", gameID), "id = ?", gameID)
}

// GameSetOfPlayer reads every game a player sits in, with their chains.
func (s *Store) GameSetOfPlayer(ctx context.Context, playerID int64) (GameSet, error) {
	return s.gameSet(ctx, fmt.Sprintf("player %d", playerID), "sente_player_id = ? OR gote_player_id = ?", playerID, playerID)
}
