// Package players is the web room of the player registry and the
// ratings: the list, a player's page and form, the master import, the
// picker, relatives (肉親), and the ratings pages and CSV (docs/rooms.md).
package players

import "kisen/web/site"

// Room serves the players' and ratings' pages over the shared server.
type Room struct {
	*site.Server
}
