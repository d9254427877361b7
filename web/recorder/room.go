// Package recorder is the web room of the recorder's page (記録係, issue
// 26, docs/recorder.md): one game's board, record and clock on a tablet
// at the board, reached by the event's staff or by the game's secret
// recorder link (/rec/<token>), and the director's issue and revoke of
// that link. Moves go to office.RecordMove; the page's script
// (static/recorder.js) keeps unsent moves on the device and resends them.
package recorder

import "kisen/web/site"

// Room serves the recorder's pages over the shared server.
type Room struct {
	*site.Server
}
