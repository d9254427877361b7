package pairing

import (
	"errors"
	"testing"
)

// TestDrawErrors_CarryCodes: a draw no bracket satisfies (D-A1, 001 第8条A1:
// a master and a student alone in a 一次予選) and input the draw refuses
// (a gap in the seeds) carry a code and the entrant ids they name, so a
// caller says them in its reader's language (issue 24 item 3).
func TestDrawErrors_CarryCodes(t *testing.T) {
	t.Parallel()
	_, err := Draw(DrawRequest{Stage: FirstPreliminary, Entrants: students("m", "s")})
	var nv *NoValidDrawError
	if !errors.As(err, &nv) || nv.Code != NoDrawMasterStudent || len(nv.Players) != 2 || len(nv.Pairs) != 1 {
		t.Fatalf("master and student alone: %v (%+v)", err, nv)
	}
	_, err = Draw(DrawRequest{Stage: MainEvent, Entrants: []Entrant{{ID: "a", Seed: 1}, {ID: "b", Seed: 3}, {ID: "c"}, {ID: "d"}}})
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Code != FieldSeedGap || fe.Params["Player"] != "b" || fe.Params["Seed"] != 3 || fe.Params["Want"] != 2 {
		t.Fatalf("seeds 1 and 3: %v (%+v)", err, fe)
	}
	_, err = Draw(DrawRequest{Stage: MainEvent, Entrants: []Entrant{{ID: "a"}}})
	if !errors.As(err, &fe) || fe.Code != FieldTooFewEntrants || fe.Params["Count"] != 1 {
		t.Fatalf("one entrant: %v (%+v)", err, fe)
	}
}
