package day

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"kisen/office"
	"kisen/pairing"
	"kisen/store"
)

// EntryInput enters a registered player in a day.
type EntryInput struct {
	EventID  int64
	PlayerID int64
	// Rank is the declared 段級位; "" takes the registry's rank.
	Rank string
	// ClassID 0 puts the player in the class their rank falls in; another
	// class is the director's override, recorded as such.
	ClassID int64
	// FeeCategory is the entrant's fee category (FeeCategoryFull or
	// FeeCategoryReduced); "" is full, and records nothing.
	FeeCategory string
}

// Entrant is one entrant as the desk sees them.
type Entrant = store.DayEntrantRow

// Entrants lists a day's entrants by reading (anyone who may see the
// event; one statement).
func (d *Day) Entrants(ctx context.Context, actor office.Actor, eventID int64) ([]Entrant, error) {
	if _, err := d.o.Event(ctx, actor, eventID); err != nil {
		return nil, err
	}
	return d.store.DayEntrantsOfEvent(ctx, eventID)
}

// Enter enters a registered player (directors). The class follows from
// the declared rank unless the director names another (override, logged
// with both classes).
func (d *Day) Enter(ctx context.Context, actor office.Actor, in EntryInput) (store.DayEntrant, error) {
	var out store.DayEntrant
	err := d.store.Tx(ctx, func(tx *store.Store) error {
		var err error
		out, err = enterIn(ctx, tx, actor, in, false, d.now())
		return err
	})
	return out, err
}

// enterIn is Enter inside tx; walkIn marks a desk registration.
func enterIn(ctx context.Context, tx *store.Store, actor office.Actor, in EntryInput, walkIn bool, now time.Time) (store.DayEntrant, error) {
	if _, err := requireDay(ctx, tx, actor, in.EventID, deskRoles); err != nil {
		return store.DayEntrant{}, err
	}
	p, err := tx.PlayerByID(ctx, in.PlayerID)
	if errors.Is(err, store.ErrNotFound) {
		return store.DayEntrant{}, invalid("player", "day.err.player_unknown", nil)
	} else if err != nil {
		return store.DayEntrant{}, err
	}
	rank := strings.TrimSpace(in.Rank)
	if rank == "" {
		rank = p.Rank
	} else if r, err := pairing.ParseRank(rank); err != nil {
		return store.DayEntrant{}, invalid("rank", "day.err.rank", nil)
	} else {
		rank = r.String()
	}
	classes, err := classesIn(ctx, tx, in.EventID)
	if err != nil {
		return store.DayEntrant{}, err
	}
	byRank, fits := ClassForRank(classes, rank)
	e := store.DayEntrant{EventID: in.EventID, PlayerID: p.ID, DeclaredRank: rank, ClassBy: "rank", WalkIn: walkIn, Checkin: store.CheckinExpected, CreatedAt: now, UpdatedAt: now}
	switch {
	case in.ClassID != 0:
		i := slices.IndexFunc(classes, func(c Class) bool { return c.ID == in.ClassID })
		if i < 0 {
			return store.DayEntrant{}, invalid("class", "day.err.choose", nil)
		}
		e.ClassID = in.ClassID
		if !fits || byRank.ID != in.ClassID {
			e.ClassBy = "director"
		}
	case fits:
		e.ClassID = byRank.ID
	case len(classes) == 0:
		return store.DayEntrant{}, invalid("class", "day.err.no_classes", nil)
	default:
		return store.DayEntrant{}, invalid("class", "day.err.no_class_for_rank", map[string]any{"Rank": rank})
	}
	var set ClassSettings
	if i := slices.IndexFunc(classes, func(c Class) bool { return c.ID == e.ClassID }); i >= 0 {
		set = classes[i].Settings
	}
	cat, err := feeCategory(set, in.FeeCategory)
	if err != nil {
		return store.DayEntrant{}, err
	}
	if err := tx.AddDayEntrant(ctx, &e); errors.Is(err, store.ErrConflict) {
		return store.DayEntrant{}, invalid("player", "day.err.already_entered", map[string]any{"Name": p.Name})
	} else if err != nil {
		return store.DayEntrant{}, err
	}
	detail := map[string]any{"class": e.ClassID, "rank": rank, "by": e.ClassBy}
	if e.ClassBy == "director" && fits {
		detail["rank_class"] = byRank.ID
	}
	if err := tx.AppendDayLog(ctx, &store.DayLogEntry{EventID: in.EventID, ClassID: &e.ClassID, PlayerID: &p.ID, Action: LogEnter, Detail: mustJSON(detail), ActorID: actor.UserID, At: now}); err != nil {
		return store.DayEntrant{}, err
	}
	if cat == FeeCategoryReduced {
		return e, appendFee(ctx, tx, actor, e, feeEntry{Category: cat}, now)
	}
	return e, nil
}

// entrantIn loads and checks an entrant of a day inside tx.
func entrantIn(ctx context.Context, tx *store.Store, actor office.Actor, eventID, playerID int64) (store.DayEntrant, error) {
	if _, err := requireDay(ctx, tx, actor, eventID, deskRoles); err != nil {
		return store.DayEntrant{}, err
	}
	return tx.DayEntrantOf(ctx, eventID, playerID)
}

// MoveEntrant is the director's override of an entrant's class, logged
// with the class before. An entrant already drawn in a round of their
// class cannot move (ErrConflict).
func (d *Day) MoveEntrant(ctx context.Context, actor office.Actor, eventID, playerID, classID int64) error {
	return d.store.Tx(ctx, func(tx *store.Store) error {
		e, err := entrantIn(ctx, tx, actor, eventID, playerID)
		if err != nil {
			return err
		}
		c, err := tx.DayClassByID(ctx, classID)
		if errors.Is(err, store.ErrNotFound) || (err == nil && c.EventID != eventID) {
			return invalid("class", "day.err.choose", nil)
		} else if err != nil {
			return err
		}
		if c.ID == e.ClassID {
			return nil
		}
		drawn, err := drawnIn(ctx, tx, e.EventID, e.ClassID, playerID)
		if err != nil {
			return err
		}
		if drawn {
			return invalid("class", "day.err.class_drawn", nil)
		}
		now := d.now()
		if err := tx.SetDayEntrantClass(ctx, e.ID, classID, "director", now); err != nil {
			return err
		}
		return tx.AppendDayLog(ctx, &store.DayLogEntry{EventID: eventID, ClassID: &classID, PlayerID: &playerID, Action: LogOverride,
			Detail: mustJSON(map[string]any{"from": e.ClassID, "to": classID}), ActorID: actor.UserID, At: now})
	})
}

// CheckinStates are the reception states the desk sets.
var CheckinStates = []string{store.CheckinPresent, store.CheckinLate, store.CheckinAbsent, store.CheckinExpected}

// CheckIn records an entrant's reception state: present, late, absent (or
// back to expected), with who and when (directors). Only present and late
// entrants are drawn. It compares no version (the command line, seeds);
// the desk's page calls CheckInSeen.
func (d *Day) CheckIn(ctx context.Context, actor office.Actor, eventID, playerID int64, state string) error {
	return d.CheckInSeen(ctx, actor, DeskWrite{EventID: eventID, PlayerID: playerID, Version: Unchecked}, state)
}

// CheckInSeen is CheckIn on the version of the entrant's row the desk saw:
// one transaction, stale (office.ErrConflict) when the row changed since.
func (d *Day) CheckInSeen(ctx context.Context, actor office.Actor, w DeskWrite, state string) error {
	if !slices.Contains(CheckinStates, state) {
		return invalid("checkin", "day.err.choose", nil)
	}
	return d.store.Tx(ctx, func(tx *store.Store) error {
		e, err := deskEntrantIn(ctx, tx, actor, w)
		if err != nil {
			return err
		}
		return setCheckin(ctx, tx, actor, e, state, 0, d.now())
	})
}

// setCheckin writes a reception state and its desk-log record (undo names
// the record it reverts, 0 none).
func setCheckin(ctx context.Context, tx *store.Store, actor office.Actor, e store.DayEntrant, state string, undo int64, now time.Time) error {
	if e.Withdrawn() {
		return invalid("checkin", "day.err.withdrawn", nil)
	}
	if err := tx.SetDayCheckin(ctx, e.ID, state, actor.UserID, now); err != nil {
		return err
	}
	detail := map[string]any{"from": e.Checkin, "to": state}
	if undo != 0 {
		detail["undo"] = undo
	}
	return tx.AppendDayLog(ctx, &store.DayLogEntry{EventID: e.EventID, ClassID: &e.ClassID, PlayerID: &e.PlayerID, Action: LogCheckin,
		Detail: mustJSON(detail), ActorID: actor.UserID, At: now})
}

// drawable reports whether an entrant is drawn: checked in and not
// withdrawn.
func drawable(e store.DayEntrant) bool {
	return !e.Withdrawn() && (e.Checkin == store.CheckinPresent || e.Checkin == store.CheckinLate)
}

// drawnIn reports whether a player has a board or a bye in a round of the
// class.
func drawnIn(ctx context.Context, tx *store.Store, eventID, classID, playerID int64) (bool, error) {
	ps, err := tx.DayPairingsOfClass(ctx, classID)
	if err != nil || len(ps) == 0 {
		return false, err
	}
	games, err := tx.GamesOfEvent(ctx, eventID)
	if err != nil {
		return false, err
	}
	seats := map[int64][2]int64{}
	for _, g := range games {
		seats[g.ID] = [2]int64{deref64(g.SentePlayerID), deref64(g.GotePlayerID)}
	}
	for _, p := range ps {
		if p.ByePlayerID != nil && *p.ByePlayerID == playerID {
			return true, nil
		}
		if p.GameID != nil && (seats[*p.GameID][0] == playerID || seats[*p.GameID][1] == playerID) {
			return true, nil
		}
	}
	return false, nil
}
