package office_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"kisen/migrations"
	"kisen/office"
	"kisen/store"
)

// FuzzKnockoutDraw_D_A1 drives the office draw path (StageDrawRequest →
// DrawStage) with random entrant sets, seeds and master forests (some
// masters not entered, some entrants seeded) on one SQLite database.
// Oracles, checked on the stored row only: the slots hold every entrant
// exactly once and nothing else but byes, and no 師弟 pair (from the
// fuzzer's own forest, not the registry) meets in round 1 of a first
// preliminary; when the office refuses, it is a ValidationError saying no
// valid draw exists, never another error.
func FuzzKnockoutDraw_D_A1(f *testing.F) {
	f.Add(uint64(1), uint8(12), []byte{0, 1, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0}, uint8(0))
	f.Add(uint64(20261121), uint8(5), []byte{0, 1, 1, 1, 1}, uint8(1))
	f.Add(uint64(7), uint8(24), []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, uint8(3))
	f.Add(uint64(1<<63), uint8(3), []byte{0, 1, 1}, uint8(0))
	f.Add(uint64(42), uint8(16), []byte{0, 1, 1, 1, 1, 1, 1, 1, 0, 9, 9, 9, 9, 9, 9, 9}, uint8(2))

	ctx := context.Background()
	s, err := store.Open(ctx, store.Options{SQLitePath: filepath.Join(f.TempDir(), "fuzz.db")})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { _ = s.Close() })
	if err := migrations.Up(ctx, s.SQL(), string(s.Dialect())); err != nil {
		f.Fatal(err)
	}
	clk := time.Date(2026, 11, 21, 3, 0, 0, 0, time.UTC)
	o := office.New(s, func() time.Time { return clk })
	admin := store.User{Login: "admin", DisplayName: "admin", PasswordHash: "x", IsAdmin: true, CreatedAt: clk, UpdatedAt: clk}
	if err := s.CreateUser(ctx, &admin); err != nil {
		f.Fatal(err)
	}
	act := office.Actor{UserID: admin.ID, Login: admin.Login, Admin: true}
	org := store.Organiser{Name: "連盟", Kind: office.OrganiserFederation, Settings: "{}", CreatedAt: clk, UpdatedAt: clk}
	if err := s.CreateOrganiser(ctx, &org); err != nil {
		f.Fatal(err)
	}
	run := 0

	f.Fuzz(func(t *testing.T, seed uint64, n uint8, forest []byte, seeded uint8) {
		size := 2 + int(n)%23 // 2..24 entrants
		run++
		ev, err := o.CreateEvent(ctx, act, office.EventInput{OrganiserID: org.ID, Name: fmt.Sprintf("棋戦 %d", run), Kind: office.EventKnockout, StartDate: "2026-12-01", EndDate: "2027-03-31"})
		if err != nil {
			t.Fatal(err)
		}
		st, err := o.CreateStage(ctx, act, office.StageInput{EventID: ev.ID, Name: "一次予選", Kind: "first_preliminary"})
		if err != nil {
			t.Fatal(err)
		}
		// size entrants plus two masters who are not entered.
		var ps []store.Player
		for i := range size + 2 {
			p, err := o.CreatePlayer(ctx, act, office.PlayerInput{Name: fmt.Sprintf("棋士 %d-%d", run, i), Reading: "きし", Kind: "professional", Rank: "四段"})
			if err != nil {
				t.Fatal(err)
			}
			ps = append(ps, p)
		}
		// Forest: player i's master is an earlier player (or none), so
		// there is no cycle; indexes size, size+1 are the outside masters.
		pairs := map[[2]string]bool{}
		masterOf := func(i int) int {
			if i >= len(forest) {
				return -1
			}
			b := int(forest[i])
			if b == 0 {
				return -1
			}
			if b%5 == 0 {
				return size + b%2 // an outside master
			}
			if i == 0 {
				return -1
			}
			return (b - 1) % i
		}
		for i := range size {
			m := masterOf(i)
			if m < 0 {
				continue
			}
			if err := o.AddMasterPeriod(ctx, act, ps[i].ID, office.MasterRef{PlayerID: ps[m].ID}, "2000-01-01", ""); err != nil {
				t.Fatal(err)
			}
			a, b := strconv.FormatInt(ps[i].ID, 10), strconv.FormatInt(ps[m].ID, 10)
			pairs[[2]string{a, b}], pairs[[2]string{b, a}] = true, true
		}
		var want []string
		for i := range size {
			in := office.EntrantInput{StageID: st.ID, PlayerID: ps[i].ID}
			if i < int(seeded)%4 {
				in.Seed = i + 1
			}
			if _, err := o.AddEntrant(ctx, act, in); err != nil {
				t.Fatal(err)
			}
			want = append(want, strconv.FormatInt(ps[i].ID, 10))
		}
		_, err = o.DrawStage(ctx, act, office.DrawInput{StageID: st.ID, Seed: strconv.FormatUint(seed, 10), DrawDate: "2026-11-21"})
		var ve *office.ValidationError
		if errors.As(err, &ve) {
			if c := fieldCodes(err)[""]; c != "names.err.draw.master_student" && c != "names.err.draw.seeds_meet" {
				t.Fatalf("draw refused with %v", err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		stored, err := s.StageByID(ctx, st.ID)
		if err != nil {
			t.Fatal(err)
		}
		slots, err := office.StageSlots(stored)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, id := range slots {
			if id != "" {
				got = append(got, id)
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("slots %v hold %v, want each of %v once", slots, got, want)
		}
		if len(slots)%2 != 0 {
			t.Fatalf("odd number of slots: %d", len(slots))
		}
		for i := 0; i < len(slots); i += 2 {
			if pairs[[2]string{slots[i], slots[i+1]}] {
				t.Fatalf("D-A1: 師弟 %s and %s meet in round 1 (seed %d): %v", slots[i], slots[i+1], seed, slots)
			}
		}
	})
}
