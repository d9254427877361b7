// Package live is the web room of pages shown elsewhere: embeds of a
// published bracket or league table on an organiser's site, and the
// projector (docs/rooms.md, docs/embeds.md, docs/live.md).
package live

import (
	"kisen/web/knockouts"
	"kisen/web/site"
)

// Room serves embeds and the projector over the shared server.
type Room struct {
	*site.Server
	// Knockouts draws the brackets an embed or the projector shows.
	Knockouts *knockouts.Room
}
