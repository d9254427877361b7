// Package games is the web room of one game and its event's games: the
// game page with its result, record, rulings, redo games and clock, the
// board, downloads (KIF, CSA, zip), undo and the staff's start page
// (docs/rooms.md).
package games

import "kisen/web/site"

// Room serves the games' pages over the shared server.
type Room struct {
	*site.Server
}
