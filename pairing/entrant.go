package pairing

import (
	"fmt"
	"slices"
	"sort"
)

// Stage is the kind of knockout stage a bracket belongs to. It matters for
// D-A1: only round 1 of the first preliminary bars 師弟 games.
type Stage string

const (
	FirstPreliminary  Stage = "first_preliminary"  // 一次予選
	SecondPreliminary Stage = "second_preliminary" // 二次予選
	MainEvent         Stage = "main"               // 本戦
)

// ParseStage accepts the JSON names above.
func ParseStage(s string) (Stage, error) {
	switch st := Stage(s); st {
	case FirstPreliminary, SecondPreliminary, MainEvent:
		return st, nil
	}
	return "", fieldErr("stage", "unknown stage %q (want first_preliminary, second_preliminary or main)", s)
}

// barsMasterStudent reports whether D-A1 applies to round 1 of this stage:
// 001 第8条A1 bars 師弟 games in 一次予選1回戦 only; 二次予選 and 本戦 are exempt.
func (s Stage) barsMasterStudent() bool { return s == FirstPreliminary }

// Entrant is one player in a draw. The caller resolves lineage history: Master
// is the player's master (師匠) as of the draw date, or "" for none.
type Entrant struct {
	ID     string
	Name   string
	Seed   int    // 1 = top seed; 0 = unseeded (placed by the draw)
	Master string // an entrant's ID or any other teacher's ID; "" for none
	// EnterRound is the round a seeded player enters (0 or 1: round 1). A
	// player entering round r takes a block of 2^(r-1) slots: their own and
	// byes, the uneven brackets of professional events.
	EnterRound int
}

// places is how many bracket slots the entrant takes.
func (e Entrant) places() int {
	if e.EnterRound <= 1 {
		return 1
	}
	return 1 << (e.EnterRound - 1)
}

// field is a validated set of entrants with its 師弟 relation.
type field struct {
	entrants []Entrant
	index    map[string]int
	seeded   []int // entrant indices in seed order
	unseeded []int // entrant indices sorted by ID, so input order never changes a draw
	related  map[uint64]struct{}
	partners [][]int // per entrant, the entrants it may not meet in a barred round
}

func pairKey(a, b int) uint64 {
	if a > b {
		a, b = b, a
	}
	return uint64(a)<<32 | uint64(b)
}

// isRelated reports whether entrants a and b are master and student. It
// searches the shorter sorted partner list: most players have none, so the
// draw's hot loop rarely looks further than a length.
func (f *field) isRelated(a, b int) bool {
	pa := f.partners[a]
	if pb := f.partners[b]; len(pb) < len(pa) {
		pa, b = pb, a
	}
	switch {
	case len(pa) == 0:
		return false
	case len(pa) <= 8:
		return slices.Contains(pa, b)
	}
	_, ok := slices.BinarySearch(pa, b)
	return ok
}

const maxEnterRound = 16

// entrantField names entrants[i] in errors; a string type so the happy path
// formats nothing.
type entrantField int

func (i entrantField) String() string { return fmt.Sprintf("entrants[%d]", int(i)) }

func newField(entrants []Entrant, pairs [][2]string) (*field, error) {
	if len(entrants) < 2 {
		return nil, codedErr(FieldTooFewEntrants, map[string]any{"Count": len(entrants)}, "entrants", "need at least 2 entrants, got %d", len(entrants))
	}
	f := &field{entrants: entrants, index: make(map[string]int, len(entrants)), related: map[uint64]struct{}{}}
	for i, e := range entrants {
		at := entrantField(i)
		if e.ID == "" {
			return nil, fieldErr(at.String()+".id", "missing id")
		}
		if j, dup := f.index[e.ID]; dup {
			return nil, fieldErr(at.String()+".id", "duplicate id %q (also entrants[%d])", e.ID, j)
		}
		f.index[e.ID] = i
		if e.Seed < 0 {
			return nil, fieldErr(at.String()+".seed", "seed %d is negative (0 means unseeded)", e.Seed)
		}
		if e.Master == e.ID {
			return nil, fieldErr(at.String()+".master", "%q is named as their own master", e.ID)
		}
		if e.EnterRound < 0 || e.EnterRound > maxEnterRound {
			return nil, codedErr(FieldEntryRound, map[string]any{"Player": e.ID, "Round": e.EnterRound, "Max": maxEnterRound}, at.String()+".enter_round", "round %d out of range [1, %d]", e.EnterRound, maxEnterRound)
		}
		if e.EnterRound > 1 && e.Seed == 0 {
			return nil, codedErr(FieldEntryUnseeded, map[string]any{"Player": e.ID}, at.String()+".enter_round", "only a seeded player may enter after round 1 (the draw places unseeded players)")
		}
		if e.Seed > 0 {
			f.seeded = append(f.seeded, i)
		} else {
			f.unseeded = append(f.unseeded, i)
		}
	}
	sort.Slice(f.seeded, func(a, b int) bool { return entrants[f.seeded[a]].Seed < entrants[f.seeded[b]].Seed })
	for k, i := range f.seeded {
		if s := entrants[i].Seed; s != k+1 {
			return nil, codedErr(FieldSeedGap, map[string]any{"Player": entrants[i].ID, "Seed": s, "Want": k + 1}, fmt.Sprintf("entrants[%d].seed", i),
				"seeds must be 1..%d without gaps or repeats; found %d where %d was expected", len(f.seeded), s, k+1)
		}
	}
	sort.Slice(f.unseeded, func(a, b int) bool { return entrants[f.unseeded[a]].ID < entrants[f.unseeded[b]].ID })

	f.partners = make([][]int, len(entrants))
	relate := func(a, b int) {
		k := pairKey(a, b)
		if _, seen := f.related[k]; seen {
			return
		}
		f.related[k] = struct{}{}
		f.partners[a] = append(f.partners[a], b)
		f.partners[b] = append(f.partners[b], a)
	}
	for i, e := range entrants {
		// A master who is not entered cannot meet the student, so only
		// entrant masters make a constraint.
		if m, ok := f.index[e.Master]; ok && e.Master != "" {
			relate(m, i)
		}
	}
	for k, p := range pairs {
		if p[0] == "" || p[1] == "" {
			return nil, fieldErr(fmt.Sprintf("master_student_pairs[%d]", k), "both the master and the student must be named")
		}
		if p[0] == p[1] {
			return nil, fieldErr(fmt.Sprintf("master_student_pairs[%d]", k), "%q is paired with themselves", p[0])
		}
		a, okA := f.index[p[0]]
		b, okB := f.index[p[1]]
		if okA && okB {
			relate(a, b)
		}
	}
	for _, ps := range f.partners {
		sort.Ints(ps)
	}
	return f, nil
}
