package pairing

import "fmt"

// Slot contents in a layout before the draw fills the free slots.
const (
	slotFree = -1
	slotBye  = -2
)

// layout is the part of a bracket the seeding fixes before any randomness:
// where each seeded player sits, which slots are byes and which slots the
// draw fills with unseeded players.
type layout struct {
	size  int
	lines []int // slot → seed line
	at    []int // seed line → slot
	slots []int // slot → entrant index, slotBye or slotFree
	free  []int // free slots in bracket order
}

// planLayout seeds the field into the smallest bracket that holds it.
//
// Seeded players take seed lines 1, 2, … in seed order (a player entering at
// round r also blocks the other 2^(r-1)−1 slots of its block as byes). The
// remaining byes go to the highest unused lines, which face the top unused
// lines: byes fall to the top seeds, and to the top draw lines when there are
// more byes than seeds.
func planLayout(f *field) (*layout, error) {
	places := 0
	for _, e := range f.entrants {
		places += e.places()
	}
	size, err := BracketSize(places)
	if err != nil {
		return nil, codedErr(FieldBracketSize, map[string]any{"Count": places}, "entrants", "cannot build a bracket for %d places: %v", places, err)
	}
	lines, err := SeedLines(size)
	if err != nil {
		return nil, err
	}
	l := &layout{size: size, lines: lines, at: lineSlots(lines), slots: make([]int, size)}
	for i := range l.slots {
		l.slots[i] = slotFree
	}
	line := 1
	nextLine := func() int {
		for line <= size && l.slots[l.at[line]] != slotFree {
			line++
		}
		return line
	}
	for _, i := range f.seeded {
		e := f.entrants[i]
		ln := nextLine()
		if ln > size {
			return nil, codedErr(FieldSeedNoLine, map[string]any{"Player": e.ID, "Seed": e.Seed}, fmt.Sprintf("entrants[%d]", i), "no line left for seed %d", e.Seed)
		}
		slot := l.at[ln]
		l.slots[slot] = i
		block := e.places()
		first := slot &^ (block - 1)
		for s := first; s < first+block; s++ {
			if s == slot {
				continue
			}
			if l.slots[s] != slotFree {
				return nil, codedErr(FieldEntryNeedsByes, map[string]any{"Player": e.ID, "Seed": e.Seed, "Round": e.EnterRound}, fmt.Sprintf("entrants[%d].enter_round", i),
					"seed %d entering at round %d needs byes in slots %d–%d, but slot %d is already taken; give deeper entry to higher seeds",
					e.Seed, e.EnterRound, first, first+block-1, s)
			}
			l.slots[s] = slotBye
		}
	}
	unused := 0
	for _, v := range l.slots {
		if v == slotFree {
			unused++
		}
	}
	byes := unused - len(f.unseeded)
	for ln := size; ln >= 1 && byes > 0; ln-- {
		if s := l.at[ln]; l.slots[s] == slotFree {
			l.slots[s] = slotBye
			byes--
		}
	}
	for s, v := range l.slots {
		if v == slotFree {
			l.free = append(l.free, s)
		}
	}
	return l, nil
}
