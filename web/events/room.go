// Package events is the web room of events and organisers: the events
// list and an event's page, its status and roles, the organisers, their
// adjudication settings and handicap tables (docs/rooms.md).
package events

import "kisen/web/site"

// Room serves the events' and organisers' pages over the shared server.
type Room struct {
	*site.Server
}
