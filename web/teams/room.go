// Package teams is the web room of team events (団体戦, issue 25 items 1
// and 2, docs/team-entries.md): teams and rosters (the staff edit, the
// public reads), a round's orders and each team's order (entered by the
// staff, published together), and the printed order sheet.
package teams

import (
	"kisen/office/teams"
	"kisen/web/site"
)

// Room serves the team event's pages over the shared server. Teams is the
// office room over the server's office (built with the server; it holds no
// per-request state).
type Room struct {
	*site.Server
	Teams *teams.Teams
}
