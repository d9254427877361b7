package games

import (
	"context"
	"strings"

	"kisen/office"
	"kisen/web/site"
)

// dayChangeLine says a change at an amateur day's desk in words (issue 23
// §5), with the page it is about: the class page for a draw, the day's
// page for the desk's other changes (the reception itself is the
// director's alone).
func dayChangeLine(ctx context.Context, ch office.StartChange, actor, event string) (string, string) {
	d := ch.Day
	class := site.LocalName(ctx, d.ClassName, d.ClassNameEn)
	href := "/events/" + site.I64(ch.EventID) + "/day"
	state := ""
	switch d.State {
	case office.CheckinPresent, office.CheckinLate, office.CheckinAbsent, office.CheckinExpected:
		state = site.T(ctx, "start.day.state."+d.State)
	}
	names := strings.Join(d.Players, site.T(ctx, "start.day.name_sep"))
	if d.Count > len(d.Players) {
		names = site.T(ctx, "start.change.day.more", "Names", names, "More", d.Count-len(d.Players))
	}
	args := []any{"Actor", actor, "Event", event, "Class", class, "Names", names, "State", state, "N", d.Count}
	switch {
	case d.Action == office.DayLogDraw && ch.ClassID != 0:
		key := "start.change.day.draw"
		if d.Byes > 0 {
			key = "start.change.day.draw_byes"
		}
		return "/day/classes/" + site.I64(ch.ClassID), site.T(ctx, key, append(args, "Round", d.Round, "Boards", d.Boards, "Byes", d.Byes)...)
	case d.Action == office.DayLogCheckin && state != "" && d.Count > 1:
		return href, site.T(ctx, "start.change.day.checkin_many", args...)
	case d.Action == office.DayLogCheckin && state != "" && d.Count == 1:
		return href, site.T(ctx, "start.change.day.checkin_one", args...)
	case d.Action == office.DayLogWalkIn && state != "" && d.Count == 1:
		return href, site.T(ctx, "start.change.day.walk_in", args...)
	case d.Action == office.DayLogWithdraw && d.Count == 1:
		return href, site.T(ctx, "start.change.day.withdraw", args...)
	}
	return href, site.T(ctx, "start.change.day.other", args...)
}
