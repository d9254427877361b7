// Package knockouts is the web room of knockout events: stages and their
// brackets, the draw and its previews, 振り駒, the handicap board, picks,
// bulk entry and series (docs/rooms.md).
package knockouts

import "kisen/web/site"

// Room serves the knockouts' pages over the shared server.
type Room struct {
	*site.Server
}
