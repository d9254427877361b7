package day

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"kisen/office"
	"kisen/store"
)

// Approving many entries at once (docs/amateur-day-entries.md): every
// pending entry the list suggests no registered player for is approved as
// a new player, in one transaction, at the list the director saw. Entries
// with a suggestion wait for the director's choice (merge or new);
// waiting ones stay on the waiting list (approving one is going over the
// cap, a choice made one by one).

// Approvable is the entries of a list (EntriesOf) that ApproveAll would
// approve: pending, with no suggestion.
func Approvable(rows []EntryRow) []EntryRow {
	var out []EntryRow
	for _, r := range rows {
		if r.Status == store.EntryPending && len(r.Suggestions) == 0 {
			out = append(out, r)
		}
	}
	return out
}

// ApprovableFingerprint digests the entries ApproveAll would approve, each
// at its version: the list the director confirmed.
func ApprovableFingerprint(eventID int64, rows []EntryRow) string {
	h := sha256.New()
	fmt.Fprintf(h, "approve all %d\n", eventID)
	for _, r := range Approvable(rows) {
		fmt.Fprintf(h, "%d\x00%d\n", r.ID, r.Version)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// ApproveAll approves every Approvable entry of the day as a new player,
// as ApproveEntry does one, all in one transaction. fingerprint is
// ApprovableFingerprint of the list the director saw; if the entries it
// would approve differ now (one arrived, was decided or edited, or a
// registered player now matches one) it is ErrConflict and nothing is
// written. It returns how many were approved.
func (d *Day) ApproveAll(ctx context.Context, actor office.Actor, eventID int64, fingerprint string) (int, error) {
	n := 0
	err := d.store.Tx(ctx, func(tx *store.Store) error {
		if _, err := requireDay(ctx, tx, actor, eventID, deskRoles); err != nil {
			return err
		}
		if err := tx.LockDayEvent(ctx, eventID); err != nil {
			return err
		}
		rows, err := entriesIn(ctx, tx, eventID)
		if err != nil {
			return err
		}
		if ApprovableFingerprint(eventID, rows) != fingerprint {
			return fmt.Errorf("the entries to approve changed: %w", office.ErrConflict)
		}
		now := d.now()
		for _, r := range Approvable(rows) {
			if _, err := approveIn(ctx, tx, actor, r.DayEntry, 0, now); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return n, nil
}
