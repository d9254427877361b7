package day

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"kisen/office"
	"kisen/pairing"
	"kisen/store"
)

// Entries before the day (issue 23 §1, docs/amateur-day-entries.md): a
// public form per day, open while the director says and until the
// deadline; each class may have a cap, past which entries wait in order; a
// private link lets the entrant see or withdraw their entry; the director
// approves (the entrant registered or merged with a registered player and
// entered in their class), edits or refuses. Each action is one
// transaction carrying the version seen.

// The public form's rate limit per client address (a GCRA bucket in the
// API's shared table, so every process spends from it): ten entries at
// once, then one every 30 seconds.
const (
	EntryRateEvery = 30 * time.Second
	EntryRateBurst = 10
)

var (
	// ErrEntryClosed: the form is not open (never opened, closed, or past
	// its deadline). The page says so; nothing is stored.
	ErrEntryClosed = errors.New("the entry form is closed")
	// ErrEntryRate: the address sent too many entries. HTTP 429.
	ErrEntryRate = errors.New("too many entries from this address")
	// ErrBadEntryToken: no entry has this private link. HTTP 404.
	ErrBadEntryToken = fmt.Errorf("no entry has this link: %w", office.ErrNotFound)
)

// Entry states (store.DayEntry.Status), for the web.
const (
	EntryPending   = store.EntryPending
	EntryApproved  = store.EntryApproved
	EntryWaiting   = store.EntryWaiting
	EntryRefused   = store.EntryRefused
	EntryWithdrawn = store.EntryWithdrawn
)

// EntryStatuses are the states in the order the director's list shows
// them.
var EntryStatuses = []string{EntryPending, EntryWaiting, EntryApproved, EntryRefused, EntryWithdrawn}

// Log actions of entries (store.DayLogEntry.Action).
const (
	LogEntryApproved = "entry_approved"
	LogEntryRefused  = "entry_refused"
)

// EntrySettings is a day's entry form as the office reads it.
type EntrySettings struct {
	Open     bool
	Deadline *time.Time
	Caps     map[int64]int // class id → places; absent or 0: no cap
	Version  int           // 0 before the director first saves
}

// OpenAt reports whether the form takes entries at now.
func (s EntrySettings) OpenAt(now time.Time) bool {
	return s.Open && (s.Deadline == nil || now.Before(*s.Deadline))
}

func entrySettingsIn(ctx context.Context, tx *store.Store, eventID int64) (EntrySettings, error) {
	row, err := tx.DayEntrySettingsOf(ctx, eventID)
	if errors.Is(err, store.ErrNotFound) {
		return EntrySettings{Caps: map[int64]int{}}, nil
	} else if err != nil {
		return EntrySettings{}, err
	}
	out := EntrySettings{Open: row.Open, Deadline: row.Deadline, Caps: map[int64]int{}, Version: row.Version}
	var caps map[string]int
	_ = json.Unmarshal([]byte(row.Caps), &caps) // written only by SetEntrySettings
	for k, v := range caps {
		if id, err := strconv.ParseInt(k, 10, 64); err == nil && v > 0 {
			out.Caps[id] = v
		}
	}
	return out, nil
}

// EntrySettingsOf reads a day's entry settings (directors).
func (d *Day) EntrySettingsOf(ctx context.Context, actor office.Actor, eventID int64) (EntrySettings, error) {
	if _, err := requireDay(ctx, d.store, actor, eventID, deskRoles); err != nil {
		return EntrySettings{}, err
	}
	return entrySettingsIn(ctx, d.store, eventID)
}

// EntryOpen reports whether a day's form takes entries now (one
// statement; the caller has checked the actor may see the day).
func (d *Day) EntryOpen(ctx context.Context, eventID int64) (bool, error) {
	set, err := entrySettingsIn(ctx, d.store, eventID)
	return set.OpenAt(d.now()), err
}

// EntrySettingsInput is the director's settings form: open or closed, a
// deadline typed in Japan time (YYYY-MM-DDTHH:MM, blank for none) and a
// cap per class (blank or 0 for none).
type EntrySettingsInput struct {
	EventID  int64
	Open     bool
	Deadline string
	Caps     map[int64]string
	Version  int
}

// SetEntrySettings saves the entry settings at the version seen (stale:
// ErrConflict). A cap raised lets the first waiting entries of the class
// into the pending list, in the order they came.
func (d *Day) SetEntrySettings(ctx context.Context, actor office.Actor, in EntrySettingsInput) error {
	return d.store.Tx(ctx, func(tx *store.Store) error {
		if _, err := requireDay(ctx, tx, actor, in.EventID, deskRoles); err != nil {
			return err
		}
		if err := tx.LockDayEvent(ctx, in.EventID); err != nil {
			return err
		}
		classes, err := classesIn(ctx, tx, in.EventID)
		if err != nil {
			return err
		}
		ve := &office.ValidationError{}
		// domain rule, not a tag: a deadline in Japan time and whole
		// numbers typed per class.
		row := store.DayEntrySettings{EventID: in.EventID, Open: in.Open, UpdatedAt: d.now()}
		if s := strings.TrimSpace(in.Deadline); s != "" {
			t, err := time.ParseInLocation("2006-01-02T15:04", s, japan)
			if err != nil {
				ve.Add(0, "deadline", "day_entry.err.deadline", nil)
			} else {
				row.Deadline = &t
			}
		}
		caps := map[string]int{}
		for _, c := range classes {
			s := strings.TrimSpace(in.Caps[c.ID])
			if s == "" {
				continue
			}
			n, err := strconv.Atoi(s)
			if err != nil || n < 0 || n > 10000 {
				ve.Add(0, "cap_"+strconv.FormatInt(c.ID, 10), "day_entry.err.cap", map[string]any{"Max": 10000})
				continue
			}
			if n > 0 {
				caps[strconv.FormatInt(c.ID, 10)] = n
			}
		}
		if err := ve.OrNil(); err != nil {
			return err
		}
		row.Caps = mustJSON(caps)
		if _, err := tx.SaveDayEntrySettings(ctx, row, in.Version); err != nil {
			return err
		}
		for _, c := range classes {
			if err := promoteIn(ctx, tx, c.ID, caps[strconv.FormatInt(c.ID, 10)], d.now()); err != nil {
				return err
			}
		}
		return nil
	})
}

// japan is the zone deadlines are typed in (no daylight saving time).
var japan = time.FixedZone("JST", 9*60*60)

// occupiedIn counts the places a class has taken: its entrants not
// withdrawn and its pending entries (an approved entry is an entrant).
func occupiedIn(ctx context.Context, tx *store.Store, classID int64) (int, error) {
	n, err := tx.CountDayEntrantsOfClass(ctx, classID)
	if err != nil {
		return 0, err
	}
	p, err := tx.CountDayEntries(ctx, classID, store.EntryPending)
	return n + p, err
}

// promoteIn moves the first waiting entries of a class to pending while
// it has room under cap (0: no cap, every waiting entry moves). Promotion
// is automatic; the director still approves, as any pending entry.
func promoteIn(ctx context.Context, tx *store.Store, classID int64, cap int, now time.Time) error {
	waiting, err := tx.DayEntriesOfClass(ctx, classID, store.EntryWaiting)
	if err != nil || len(waiting) == 0 {
		return err
	}
	room := len(waiting)
	if cap > 0 {
		n, err := occupiedIn(ctx, tx, classID)
		if err != nil {
			return err
		}
		room = cap - n
	}
	for i := 0; i < room && i < len(waiting); i++ {
		e := waiting[i]
		e.Status, e.UpdatedAt = store.EntryPending, now
		if err := tx.UpdateDayEntry(ctx, &e); err != nil {
			return err
		}
	}
	return nil
}

// EntryFormInput is what an entrant (or the director editing an entry) types.
type EntryFormInput struct {
	EventID int64
	Name    string `field:"name" validate:"nocontrol,storable,required,max=60" msg:"players.err"`
	Reading string `field:"reading" validate:"nocontrol,storable,required,max=60" msg:"players.err"`
	Rank    string `field:"rank" validate:"nocontrol,storable,required,max=20" msg:"players.err"`
	Club    string `field:"club" validate:"nocontrol,storable,max=60" msg:"players.err"`
	Contact string `field:"contact" validate:"nocontrol,storable,required,max=200" msg:"players.err"`
	// ClassID 0 takes the first class the rank falls in; another must
	// take the rank too (the director alone places outside the rules).
	ClassID int64
}

// checkEntry validates an entry's fields and finds its class; director
// lets the class be any of the day's. Problems go to ve.
func checkEntry(ve *office.ValidationError, in *EntryFormInput, classes []Class, director bool) store.DayEntry {
	in.Name, in.Reading = office.NFC(strings.TrimSpace(in.Name)), office.NFC(strings.TrimSpace(in.Reading))
	in.Rank, in.Club, in.Contact = office.NFC(strings.TrimSpace(in.Rank)), office.NFC(strings.TrimSpace(in.Club)), office.NFC(strings.TrimSpace(in.Contact))
	failed := office.CheckInputFields(ve, 0, in)
	e := store.DayEntry{EventID: in.EventID, Name: in.Name, Club: in.Club, Contact: in.Contact}
	// domain rule, not a tag: a よみ in kana, the rank grammar, and the
	// class the rank falls in.
	if !failed["reading"] {
		if r, ok := office.NormaliseReading(in.Reading); ok {
			e.Reading = r
		} else {
			ve.Add(0, "reading", "players.err.reading_kana", nil)
		}
	}
	if failed["rank"] {
		return e
	}
	r, err := pairing.ParseRank(in.Rank)
	if err != nil {
		ve.Add(0, "rank", "day.err.rank", nil)
		return e
	}
	e.Rank = r.String()
	switch {
	case len(classes) == 0:
		ve.Add(0, "class", "day.err.no_classes", nil)
	case in.ClassID != 0:
		i := slices.IndexFunc(classes, func(c Class) bool { return c.ID == in.ClassID })
		if i < 0 || (!director && !classes[i].Settings.Takes(r)) {
			ve.Add(0, "class", "day_entry.err.class_rank", map[string]any{"Rank": e.Rank})
		} else {
			e.ClassID = in.ClassID
		}
	default:
		if c, ok := ClassForRank(classes, e.Rank); ok {
			e.ClassID = c.ID
		} else {
			ve.Add(0, "rank", "day.err.no_class_for_rank", map[string]any{"Rank": e.Rank})
		}
	}
	return e
}

// EntryForm is what the public form needs: the day's name, its classes
// and whether it is open now.
type EntryForm struct {
	Event    store.Event
	Classes  []Class
	Settings EntrySettings
	Open     bool
}

// publicDay loads a day the actor may see: a draft is not found, but for
// its staff and administrators (who may try the form before publishing).
func (d *Day) publicDay(ctx context.Context, actor office.Actor, eventID int64) (store.Event, error) {
	e, err := d.o.Event(ctx, actor, eventID)
	if err != nil {
		return store.Event{}, err
	}
	ok, err := d.store.IsDayEvent(ctx, eventID)
	if err != nil {
		return store.Event{}, err
	}
	if !ok {
		return store.Event{}, notDay(eventID)
	}
	return e, nil
}

// EntryFormOf reads the public form of a day (anyone; a day the actor may
// not see is not found).
func (d *Day) EntryFormOf(ctx context.Context, actor office.Actor, eventID int64) (EntryForm, error) {
	e, err := d.publicDay(ctx, actor, eventID)
	if err != nil {
		return EntryForm{}, err
	}
	set, err := entrySettingsIn(ctx, d.store, eventID)
	if err != nil {
		return EntryForm{}, err
	}
	classes, err := classesIn(ctx, d.store, eventID)
	if err != nil {
		return EntryForm{}, err
	}
	return EntryForm{Event: e, Classes: classes, Settings: set, Open: set.OpenAt(d.now())}, nil
}

// SubmitEntry takes an entry from the public form (no account): the
// address's rate limit first, then the form must be open, then every
// field is checked and nothing is stored unless all are good. A class at
// its cap puts the entry on the waiting list. It returns the entry and its
// private link's token (only its hash is kept).
func (d *Day) SubmitEntry(ctx context.Context, actor office.Actor, in EntryFormInput, ip string) (store.DayEntry, string, error) {
	now := d.now()
	ok, _, err := d.store.RateSpend(ctx, "day-entry:"+ip, now, EntryRateEvery, EntryRateBurst)
	if err != nil {
		return store.DayEntry{}, "", err
	}
	if !ok {
		return store.DayEntry{}, "", ErrEntryRate
	}
	if _, err := d.publicDay(ctx, actor, in.EventID); err != nil {
		return store.DayEntry{}, "", err
	}
	var out store.DayEntry
	token, hash, err := newToken()
	if err != nil {
		return store.DayEntry{}, "", err
	}
	err = d.store.Tx(ctx, func(tx *store.Store) error {
		if err := tx.LockDayEvent(ctx, in.EventID); err != nil {
			return err
		}
		set, err := entrySettingsIn(ctx, tx, in.EventID)
		if err != nil {
			return err
		}
		if !set.OpenAt(now) {
			return ErrEntryClosed
		}
		classes, err := classesIn(ctx, tx, in.EventID)
		if err != nil {
			return err
		}
		ve := &office.ValidationError{}
		e := checkEntry(ve, &in, classes, false)
		if err := ve.OrNil(); err != nil {
			return err
		}
		if err := notTwiceIn(ctx, tx, e, 0); err != nil {
			return err
		}
		e.Status, e.Source, e.TokenHash, e.CreatedAt, e.UpdatedAt = store.EntryPending, "form", &hash, now, now
		n, err := occupiedIn(ctx, tx, e.ClassID)
		if err != nil {
			return err
		}
		waiting, err := tx.CountDayEntries(ctx, e.ClassID, store.EntryWaiting)
		if err != nil {
			return err
		}
		if c := set.Caps[e.ClassID]; c > 0 && (n >= c || waiting > 0) {
			e.Status = store.EntryWaiting
		}
		if err := tx.AddDayEntry(ctx, &e); err != nil {
			return err
		}
		out = e
		return nil
	})
	if err != nil {
		return store.DayEntry{}, "", err
	}
	return out, token, nil
}

// notTwiceIn refuses an entry whose folded name and reading are those of
// another live entry (pending, waiting or approved) of the day.
func notTwiceIn(ctx context.Context, tx *store.Store, e store.DayEntry, self int64) error {
	all, err := tx.DayEntriesOfEvent(ctx, e.EventID)
	if err != nil {
		return err
	}
	fn, fr := office.FoldName(e.Name), office.FoldName(e.Reading)
	for _, o := range all {
		if o.ID == self || o.Status == store.EntryRefused || o.Status == store.EntryWithdrawn {
			continue
		}
		if office.FoldName(o.Name) == fn && office.FoldName(o.Reading) == fr {
			return invalid("name", "day_entry.err.twice", nil)
		}
	}
	return nil
}

// EntryOfLink is an entry as its private link shows it.
type EntryOfLink struct {
	Entry     store.DayEntry
	Event     store.Event
	ClassName string
	ClassEn   string
	// Place is the entry's place on its class's waiting list (1 = next),
	// 0 when it is not waiting.
	Place int
	// CanWithdraw: pending, waiting, or approved before the entrant is
	// drawn in a round.
	CanWithdraw bool
}

// entryOfToken finds an entry by its link. Wrong links count towards the
// address's limit of misses, shared with the report links.
func (d *Day) entryOfToken(ctx context.Context, tx *store.Store, token, ip string) (store.DayEntry, error) {
	if err := d.missCheck(ctx, ip); err != nil {
		return store.DayEntry{}, err
	}
	e, err := tx.DayEntryByHash(ctx, hashToken(token))
	if errors.Is(err, store.ErrNotFound) {
		if merr := d.miss(ctx, ip); !errors.Is(merr, ErrBadToken) {
			return e, merr
		}
		return e, ErrBadEntryToken
	}
	return e, err
}

// EntryByLink reads the entry of a private link (no account).
func (d *Day) EntryByLink(ctx context.Context, token, ip string) (EntryOfLink, error) {
	e, err := d.entryOfToken(ctx, d.store, token, ip)
	if err != nil {
		return EntryOfLink{}, err
	}
	return d.entryOfLinkIn(ctx, d.store, e)
}

func (d *Day) entryOfLinkIn(ctx context.Context, tx *store.Store, e store.DayEntry) (EntryOfLink, error) {
	ev, err := tx.EventByID(ctx, e.EventID)
	if err != nil {
		return EntryOfLink{}, err
	}
	c, err := tx.DayClassByID(ctx, e.ClassID)
	if err != nil {
		return EntryOfLink{}, err
	}
	out := EntryOfLink{Entry: e, Event: ev, ClassName: c.Name, ClassEn: c.NameEn}
	switch e.Status {
	case store.EntryWaiting:
		ws, err := tx.DayEntriesOfClass(ctx, e.ClassID, store.EntryWaiting)
		if err != nil {
			return EntryOfLink{}, err
		}
		out.Place = slices.IndexFunc(ws, func(w store.DayEntry) bool { return w.ID == e.ID }) + 1
		out.CanWithdraw = true
	case store.EntryPending:
		out.CanWithdraw = true
	case store.EntryApproved:
		drawn, err := entryDrawnIn(ctx, tx, e)
		if err != nil {
			return EntryOfLink{}, err
		}
		out.CanWithdraw = !drawn
	}
	return out, nil
}

// entryDrawnIn reports whether an approved entry's player has been drawn
// in a round of their class (then withdrawing is the desk's 棄権).
func entryDrawnIn(ctx context.Context, tx *store.Store, e store.DayEntry) (bool, error) {
	if e.PlayerID == nil {
		return false, nil
	}
	en, err := tx.DayEntrantOf(ctx, e.EventID, *e.PlayerID)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	return drawnIn(ctx, tx, e.EventID, en.ClassID, *e.PlayerID)
}

// WithdrawByLink withdraws an entry through its private link, at the
// version the page showed (stale: ErrConflict). An approved entry's
// entrant is withdrawn too, before they are drawn; after that the desk
// records the 棄権. The place it held goes to the first waiting entry.
func (d *Day) WithdrawByLink(ctx context.Context, token, ip string, version int) error {
	// The link is checked before the transaction, so a miss is recorded
	// outside it (and never waits on its lock).
	if _, err := d.entryOfToken(ctx, d.store, token, ip); err != nil {
		return err
	}
	return d.store.Tx(ctx, func(tx *store.Store) error {
		e, err := tx.DayEntryByHash(ctx, hashToken(token))
		if err != nil {
			return err
		}
		if err := tx.LockDayEvent(ctx, e.EventID); err != nil {
			return err
		}
		if e, err = tx.DayEntryByHash(ctx, hashToken(token)); err != nil { // read again under the lock
			return err
		}
		v, err := d.entryOfLinkIn(ctx, tx, e)
		if err != nil {
			return err
		}
		if !v.CanWithdraw {
			return invalid("entry", "day_entry.err.cannot_withdraw", nil)
		}
		if e.Version != version {
			return fmt.Errorf("entry %d changed since version %d: %w", e.ID, version, office.ErrConflict)
		}
		now := d.now()
		if e.Status == store.EntryApproved && e.PlayerID != nil {
			en, err := tx.DayEntrantOf(ctx, e.EventID, *e.PlayerID)
			if err == nil && !en.Withdrawn() {
				if err := tx.SetDayEntrantWithdrawnBySelf(ctx, en.ID, now); err != nil {
					return err
				}
			} else if err != nil && !errors.Is(err, store.ErrNotFound) {
				return err
			}
		}
		e.Status, e.UpdatedAt = store.EntryWithdrawn, now
		if err := tx.UpdateDayEntry(ctx, &e); err != nil {
			return err
		}
		set, err := entrySettingsIn(ctx, tx, e.EventID)
		if err != nil {
			return err
		}
		return promoteIn(ctx, tx, e.ClassID, set.Caps[e.ClassID], now)
	})
}
