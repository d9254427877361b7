// Package events is the web room of events and organisers: the events
// list and an event's page, its status and roles, the organisers, their
// adjudication settings and handicap tables (docs/rooms.md).
package events

import (
	"kisen/office/teams"
	"kisen/web/site"
)

// Room serves the events' and organisers' pages over the shared server.
// Teams is the team events' office room (which events are team events, and
// creating one).
type Room struct {
	*site.Server
	Teams *teams.Teams
}
