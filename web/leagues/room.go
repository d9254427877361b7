// Package leagues is the web room of round robins and 順位戦 classes:
// events' leagues, a class's table, draw and settings, playoffs, the
// schedule's publication, previews and the CSV and calendar exports
// (docs/rooms.md).
package leagues

import "kisen/web/site"

// Room serves the leagues' pages over the shared server.
type Room struct {
	*site.Server
}
