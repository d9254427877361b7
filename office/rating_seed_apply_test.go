package office_test

import (
	"errors"
	"testing"

	"kisen/office"
	"kisen/store"
	"kisen/store/storetest"
)

// seedFixture: the knockout fixture plus a published event whose games
// give four players ratings: A beats B, A beats C, D beats B (Elo, K 32).
// By hand: A 1500→1516→≈1531.3, D beats B (1484) → ≈1516.7, C ≈1484.7,
// B 1484→≈1468.7. So the rating order is A, D, C, B, then the unrated
// players by reading (きし あ, きし え, …; none has a class).
type seedFixture struct {
	*knockoutFixture
	a, b, c, d store.Player
}

func newSeedFixture(t *testing.T, s *store.Store) *seedFixture {
	k := newKnockoutFixture(t, s)
	f := &seedFixture{knockoutFixture: k, a: k.players[5], b: k.players[1], c: k.players[2], d: k.players[6]}
	rated := k.fixture.event(k.admin, k.organiser("{}").ID, "レーティング対象棋戦")
	if err := k.o.SetEventStatus(k.ctx, k.admin, rated.ID, office.StatusPublished); err != nil {
		t.Fatal(err)
	}
	for i, g := range [][2]store.Player{{f.a, f.b}, {f.a, f.c}, {f.d, f.b}} {
		day := []string{"2026-04-01", "2026-04-02", "2026-04-03"}[i]
		gm, err := k.o.CreateGame(k.ctx, k.admin, office.GameInput{EventID: rated.ID, SenteID: &g[0].ID, GoteID: &g[1].ID, ScheduledOn: day})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := k.o.RecordResult(k.ctx, k.admin, gm.ID, office.ResultInput{Result: office.ResultSenteWin, Reason: "resignation"}); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

// seedsOf reads every entrant's seed and entry round straight from the store.
func seedsOf(t *testing.T, s *store.Store, f *seedFixture, stageID int64) (map[int64]int, map[int64]int) {
	t.Helper()
	es, err := s.EntrantsOfStage(f.ctx, stageID)
	if err != nil {
		t.Fatal(err)
	}
	seeds, rounds := map[int64]int{}, map[int64]int{}
	for _, e := range es {
		seeds[e.PlayerID], rounds[e.PlayerID] = e.Seed, e.EnterRound
	}
	return seeds, rounds
}

func TestRatingSeeds_SeedsFollowRatings(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newSeedFixture(t, s)
		st, err := f.o.CreateStage(f.ctx, f.director, office.StageInput{EventID: f.event.ID, Name: "本戦", Kind: "main", RoundDates: "2026-05-10"})
		if err != nil {
			t.Fatal(err)
		}
		last := f.players[11]
		for _, p := range f.players {
			in := office.EntrantInput{StageID: st.ID, PlayerID: p.ID}
			if p.ID == last.ID { // seeded by hand, entering round 2: both go
				in.Seed, in.EnterRound = 1, 2
			}
			if _, err := f.o.AddEntrant(f.ctx, f.director, in); err != nil {
				t.Fatal(err)
			}
		}
		cases := []struct {
			name  string
			count int
			want  []store.Player // seeds 1..count in order
		}{
			{"top three", 3, []store.Player{f.a, f.d, f.c}},
			{"rated then unrated by reading", 6, []store.Player{f.a, f.d, f.c, f.b, f.players[0], f.players[3]}},
			{"zero clears", 0, nil},
			{"every entrant", 12, nil},
		}
		for _, tc := range cases {
			if _, err := f.o.ApplyRatingSeeds(f.ctx, f.director, st.ID, tc.count); err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			seeds, rounds := seedsOf(t, s, f, st.ID)
			for i, p := range tc.want {
				if seeds[p.ID] != i+1 {
					t.Errorf("%s: %s has seed %d, want %d", tc.name, p.Name, seeds[p.ID], i+1)
				}
			}
			// Properties: seeds are exactly 1..count, each once, the rest 0,
			// and unseeded entrants start in round 1.
			used := map[int]bool{}
			for id, sd := range seeds {
				if sd < 0 || sd > tc.count || sd > 0 && used[sd] {
					t.Errorf("%s: player %d has seed %d", tc.name, id, sd)
				}
				if sd > 0 {
					used[sd] = true
				} else if rounds[id] != 1 {
					t.Errorf("%s: unseeded player %d enters round %d", tc.name, id, rounds[id])
				}
			}
			if len(used) != tc.count {
				t.Errorf("%s: %d seeds given, want %d", tc.name, len(used), tc.count)
			}
		}
		// With every entrant seeded, a rated player is always above an
		// unrated one and ratings never rise down the order.
		seeds, _ := seedsOf(t, s, f, st.ID)
		var ids []int64
		for _, p := range f.players {
			ids = append(ids, p.ID)
		}
		ratings, err := s.PlayerRatingsByIDs(f.ctx, ids)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range f.players {
			for _, q := range f.players {
				rp, rq := ratings[p.ID], ratings[q.ID]
				if seeds[p.ID] < seeds[q.ID] && rq.Games > 0 && (rp.Games == 0 || rp.Rating < rq.Rating) {
					t.Errorf("%s (seed %d, %.1f, %d games) above %s (seed %d, %.1f)", p.Name, seeds[p.ID], rp.Rating, rp.Games, q.Name, seeds[q.ID], rq.Rating)
				}
			}
		}
		log, err := f.o.DrawLog(f.ctx, f.director, st.ID)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, l := range log {
			if l.Action == "seed_by_rating" && l.ActorID == f.director.UserID {
				n++
			}
		}
		if n != len(cases) {
			t.Errorf("%d seed_by_rating entries in the audit trail, want %d", n, len(cases))
		}
	})
}

func TestRatingSeeds_RefusedOutOfRangeAndAfterTheDraw(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newSeedFixture(t, s)
		st := f.stage() // twelve entrants, unseeded
		for _, count := range []int{-1, 13, 1000} {
			_, err := f.o.ApplyRatingSeeds(f.ctx, f.director, st.ID, count)
			if got := fieldCodes(err)["count"]; got != "rating.err.seed_count" {
				t.Errorf("count %d: %v (codes %v), want rating.err.seed_count", count, err, fieldCodes(err))
			}
		}
		f.draw(st.ID, "12345")
		_, err := f.o.ApplyRatingSeeds(f.ctx, f.director, st.ID, 3)
		if got := fieldCodes(err)[""]; got != "rating.err.seed_drawn" || !errors.Is(err, office.ErrInvalid) {
			t.Fatalf("after the draw: %v (codes %v), want rating.err.seed_drawn", err, fieldCodes(err))
		}
		seeds, _ := seedsOf(t, s, f, st.ID)
		for id, sd := range seeds {
			if sd != 0 {
				t.Errorf("a refused request changed player %d's seed to %d", id, sd)
			}
		}
	})
}

func TestRatingSeeds_DirectorsAndAdministratorsOnly(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newSeedFixture(t, s)
		st := f.stage()
		_, recorder := f.user("recorder", "correct horse battery", false)
		if err := f.o.GrantEventRole(f.ctx, f.admin, office.RoleGrant{EventID: f.event.ID, UserID: recorder.UserID, Role: office.RoleRecorder}); err != nil {
			t.Fatal(err)
		}
		// The event is a draft: hidden from the public and outsiders,
		// forbidden to a recorder who sees it.
		for name, a := range map[string]office.Actor{"public": {}, "outsider": f.outsider, "recorder": recorder} {
			want := office.ErrNotFound
			if name == "recorder" {
				want = office.ErrForbidden
			}
			if _, err := f.o.ApplyRatingSeeds(f.ctx, a, st.ID, 2); !errors.Is(err, want) {
				t.Errorf("%s: %v, want %v", name, err, want)
			}
		}
		seeds, _ := seedsOf(t, s, f, st.ID)
		for id, sd := range seeds {
			if sd != 0 {
				t.Errorf("a forbidden request changed player %d's seed to %d", id, sd)
			}
		}
		if _, err := f.o.ApplyRatingSeeds(f.ctx, f.admin, st.ID, 2); err != nil {
			t.Fatalf("administrator: %v", err)
		}
		if seeds, _ := seedsOf(t, s, f, st.ID); seeds[f.a.ID] != 1 || seeds[f.d.ID] != 2 {
			t.Errorf("after the administrator's request: A seed %d, D seed %d; want 1, 2", seeds[f.a.ID], seeds[f.d.ID])
		}
		if _, err := f.o.ApplyRatingSeeds(f.ctx, f.director, 999999, 2); !errors.Is(err, office.ErrNotFound) {
			t.Errorf("unknown stage: %v, want ErrNotFound", err)
		}
	})
}
