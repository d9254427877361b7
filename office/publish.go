package office

import (
	"context"
	"fmt"
	"time"

	"kisen/store"
)

// Publishing a knockout stage's draw or a league class's schedule makes the
// games real; when the event is still a draft it is published at the same
// time (recorded in its status history like any status change), because
// the public cannot see a draft event and a published draw or schedule is
// meant to be seen. Both confirmation forms say so first.

// publishDraftEvent moves the event from draft to published inside tx; an
// event already published (or finished) is left as it is. It reports
// whether it published the event.
func publishDraftEvent(ctx context.Context, tx *store.Store, eventID, by int64, now time.Time) (bool, error) {
	e, err := tx.EventByID(ctx, eventID)
	if err != nil {
		return false, err
	}
	if e.Status != StatusDraft {
		return false, nil
	}
	if err := tx.SetEventStatus(ctx, e.ID, StatusDraft, StatusPublished, by, now); err != nil {
		return false, err
	}
	return true, nil
}

// SchedulePublication is what the schedule's publish confirmation shows.
type SchedulePublication struct {
	Event store.Event
	Class store.LeagueClass
	Games int // games publication creates
	// EventGoesPublic: the event is a draft and becomes public with the
	// schedule.
	EventGoesPublic bool
}

// PreviewSchedulePublication is PublishSchedule's confirmation: the same
// permission check (directors and schedulers; ErrNotFound for whoever may
// not see a draft), the same state check (drawn, not yet published),
// nothing written.
func (o *Office) PreviewSchedulePublication(ctx context.Context, actor Actor, classID int64) (SchedulePublication, error) {
	c, err := o.store.LeagueClassByID(ctx, classID)
	if err != nil {
		return SchedulePublication{}, err
	}
	if err := o.requireClassRole(ctx, actor, c, schedulePublishers...); err != nil {
		return SchedulePublication{}, err
	}
	if c.Status != LeagueDrawn {
		return SchedulePublication{}, fmt.Errorf("league class %d is %s, not drawn: %w", c.ID, c.Status, ErrConflict)
	}
	e, err := o.store.EventByID(ctx, c.EventID)
	if err != nil {
		return SchedulePublication{}, err
	}
	sched, err := ClassSchedule(c)
	if err != nil {
		return SchedulePublication{}, err
	}
	p := SchedulePublication{Event: e, Class: c, EventGoesPublic: e.Status == StatusDraft}
	for _, r := range sched.Rounds {
		p.Games += len(r.Games)
	}
	return p, nil
}

// schedulePublishers may publish a league schedule (and with it a draft
// event).
var schedulePublishers = []string{RoleDirector, RoleScheduler}
