package office

import "context"

// Who may do what on a knockout stage. The writes check these lists, and
// the stage page shows a form only to those the write would let through,
// so a form is never a dead end (a 403) for anyone who sees it.
var (
	// StageEditRoles add stages and entrants, draw and swap (stageTx's
	// default).
	StageEditRoles = []string{RoleDirector, RoleScheduler}
	// StagePublishRoles publish a draw (and with it a draft event).
	StagePublishRoles = []string{RoleDirector}
	// StageResultRoles enter quick results (QuickResult).
	StageResultRoles = []string{RoleDirector, RoleArbiter, RoleRecorder}
	// StageDirectorRoles withdraw entrants, enter observed tosses and seed
	// by rating.
	StageDirectorRoles = []string{RoleDirector}
)

// StageCan is what the actor may do on an event's stages.
type StageCan struct {
	Edit, Publish, Result, Direct bool
}

// StageCapabilities answers, for the stage page, what the actor's writes
// would be allowed to do.
func (o *Office) StageCapabilities(ctx context.Context, actor Actor, eventID int64) StageCan {
	can := func(roles []string) bool { return o.holdsEventRole(ctx, actor, eventID, roles...) }
	return StageCan{Edit: can(StageEditRoles), Publish: can(StagePublishRoles), Result: can(StageResultRoles), Direct: can(StageDirectorRoles)}
}
