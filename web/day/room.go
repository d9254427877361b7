// Package day is the web room of the amateur tournament day: classes,
// reception and the desk, fees, boards and their tosses, the class's final
// knockout, paper (sheets, slips, QR), the players' own reports and the
// director's view (docs/rooms.md, docs/amateur-day.md).
package day

import "kisen/web/site"

// Room serves the day's pages over the shared server.
type Room struct {
	*site.Server
}
