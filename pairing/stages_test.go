package pairing

import (
	"fmt"
	"slices"
	"testing"
)

// TestStages_QualifiersFillNamedSlots chains 一次予選 (16 players, 4 go on)
// → 本戦 of 8 where 4 seeds enter directly, and plays the preliminary out.
func TestStages_QualifiersFillNamedSlots(t *testing.T) {
	t.Parallel()
	var prelim []Entrant
	for i := range 16 {
		prelim = append(prelim, Entrant{ID: fmt.Sprintf("q%02d", i)})
	}
	pb, err := Draw(DrawRequest{Stage: FirstPreliminary, Entrants: prelim, Seed: 1, Qualifiers: 4})
	if err != nil {
		t.Fatal(err)
	}
	main := append([]Entrant{{ID: "s1", Seed: 1}, {ID: "s2", Seed: 2}, {ID: "s3", Seed: 3}, {ID: "s4", Seed: 4}},
		QualifierEntrants("一次予選", 4)...)
	mb, err := Draw(DrawRequest{Stage: MainEvent, Entrants: main, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	run := []StageRun{{Name: "一次予選", Bracket: pb}, {Name: "本戦", Bracket: mb}}
	// Play the preliminary: the lower slot always wins.
	for range 2 {
		sp, err := AdvanceEvent(run)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range sp[0].Progress.Next {
			run[0].Results = append(run[0].Results, Result{Game: g.ID, Winner: g.Players[1]})
		}
	}
	sp, err := AdvanceEvent(run)
	if err != nil {
		t.Fatal(err)
	}
	quals := sp[0].Progress.Qualifiers
	if len(quals) != 4 || slices.Contains(quals, "") || !sp[0].Progress.Finished {
		t.Fatalf("qualifiers %v finished %v", quals, sp[0].Progress.Finished)
	}
	for _, round := range sp[0].Progress.Rounds {
		if len(round) > 0 && round[0].Round > 2 {
			t.Fatalf("a preliminary cut at 4 of 16 plays 2 rounds, found round %d", round[0].Round)
		}
	}
	// Each qualifier sits where its placeholder was drawn.
	for k, q := range quals {
		at := slices.Index(mb.Slots, QualifierID("一次予選", k+1))
		if at < 0 || sp[1].Slots[at] != q {
			t.Fatalf("qualifier %d (%s) not in the placeholder's slot %d: %v", k+1, q, at, sp[1].Slots)
		}
	}
	// Every main-event round-1 game is ready now: seeds against qualifiers.
	if n := len(sp[1].Progress.Next); n != 4 {
		t.Fatalf("%d main-event games ready, want 4", n)
	}
}

func TestStages_PendingQualifierKeepsGamePending(t *testing.T) {
	t.Parallel()
	pb := Bracket{Slots: []string{"a", "b", "c", "d"}, Qualifiers: 2}
	mb := Bracket{Slots: []string{"s1", "P#1", "s2", "P#2"}}
	sp, err := AdvanceEvent([]StageRun{{Name: "P", Bracket: pb, Results: []Result{{Game: "R1-G1", Winner: "b"}}}, {Name: "本戦", Bracket: mb}})
	if err != nil {
		t.Fatal(err)
	}
	g := sp[1].Progress.Rounds[0]
	if g[0].Status != StatusReady || g[0].Players != [2]string{"s1", "b"} || g[1].Status != StatusPending {
		t.Fatalf("main round 1: %+v", g)
	}
	if _, err := AdvanceEvent([]StageRun{{Name: "P", Bracket: Bracket{Slots: []string{"a", "b"}}}, {Name: "Q", Bracket: mb}}); err == nil {
		t.Error("a stage before the last without qualifiers accepted")
	}
}
