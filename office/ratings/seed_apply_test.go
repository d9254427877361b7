package ratings_test

import (
	"errors"
	"testing"

	"kisen/office"
	"kisen/office/officetest"
	"kisen/office/ratings"
	"kisen/store"
	"kisen/store/storetest"
)

// seedFixture: the knockout fixture plus a published event whose games
// give four players ratings: A beats B, A beats C, D beats B (Elo, K 32).
// By hand: A 1500→1516→≈1531.3, D beats B (1484) → ≈1516.7, C ≈1484.7,
// B 1484→≈1468.7. So the rating order is A, D, C, B, then the unrated
// players by reading (きし あ, きし え, …; none has a class).
type seedFixture struct {
	*officetest.KnockoutFixture
	a, b, c, d store.Player
}

func newSeedFixture(t *testing.T, s *store.Store) *seedFixture {
	k := officetest.NewKnockoutFixture(t, s)
	f := &seedFixture{KnockoutFixture: k, a: k.Players[5], b: k.Players[1], c: k.Players[2], d: k.Players[6]}
	rated := k.Fixture.Event(k.Admin, k.Organiser("{}").ID, "レーティング対象棋戦")
	if err := k.O.SetEventStatus(k.Ctx, k.Admin, rated.ID, office.StatusPublished); err != nil {
		t.Fatal(err)
	}
	for i, g := range [][2]store.Player{{f.a, f.b}, {f.a, f.c}, {f.d, f.b}} {
		day := []string{"2026-04-01", "2026-04-02", "2026-04-03"}[i]
		gm, err := k.O.CreateGame(k.Ctx, k.Admin, office.GameInput{EventID: rated.ID, SenteID: &g[0].ID, GoteID: &g[1].ID, ScheduledOn: day})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := k.O.RecordResult(k.Ctx, k.Admin, gm.ID, office.ResultInput{Result: office.ResultSenteWin, Reason: "resignation"}); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

// seedsOf reads every entrant's seed and entry round straight from the store.
func seedsOf(t *testing.T, s *store.Store, f *seedFixture, stageID int64) (map[int64]int, map[int64]int) {
	t.Helper()
	es, err := s.EntrantsOfStage(f.Ctx, stageID)
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
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newSeedFixture(t, s)
		st, err := f.O.CreateStage(f.Ctx, f.Director, office.StageInput{EventID: f.Event.ID, Name: "本戦", Kind: "main", RoundDates: "2026-05-10"})
		if err != nil {
			t.Fatal(err)
		}
		last := f.Players[11]
		for _, p := range f.Players {
			in := office.EntrantInput{StageID: st.ID, PlayerID: p.ID}
			if p.ID == last.ID { // seeded by hand, entering round 2: both go
				in.Seed, in.EnterRound = 1, 2
			}
			if _, err := f.O.AddEntrant(f.Ctx, f.Director, in); err != nil {
				t.Fatal(err)
			}
		}
		cases := []struct {
			name  string
			count int
			want  []store.Player // seeds 1..count in order
		}{
			{"top three", 3, []store.Player{f.a, f.d, f.c}},
			{"rated then unrated by reading", 6, []store.Player{f.a, f.d, f.c, f.b, f.Players[0], f.Players[3]}},
			{"zero clears", 0, nil},
			{"every entrant", 12, nil},
		}
		for _, tc := range cases {
			if _, err := ratings.New(f.O).ApplyRatingSeeds(f.Ctx, f.Director, st.ID, tc.count); err != nil {
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
		for _, p := range f.Players {
			ids = append(ids, p.ID)
		}
		ratings, err := s.PlayerRatingsByIDs(f.Ctx, ids)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range f.Players {
			for _, q := range f.Players {
				rp, rq := ratings[p.ID], ratings[q.ID]
				if seeds[p.ID] < seeds[q.ID] && rq.Games > 0 && (rp.Games == 0 || rp.Rating < rq.Rating) {
					t.Errorf("%s (seed %d, %.1f, %d games) above %s (seed %d, %.1f)", p.Name, seeds[p.ID], rp.Rating, rp.Games, q.Name, seeds[q.ID], rq.Rating)
				}
			}
		}
		log, err := f.O.DrawLog(f.Ctx, f.Director, st.ID)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, l := range log {
			if l.Action == "seed_by_rating" && l.ActorID == f.Director.UserID {
				n++
			}
		}
		if n != len(cases) {
			t.Errorf("%d seed_by_rating entries in the audit trail, want %d", n, len(cases))
		}
	})
}

func TestRatingSeeds_RefusedOutOfRangeAndAfterTheDraw(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newSeedFixture(t, s)
		st := f.Stage() // twelve entrants, unseeded
		for _, count := range []int{-1, 13, 1000} {
			_, err := ratings.New(f.O).ApplyRatingSeeds(f.Ctx, f.Director, st.ID, count)
			if got := officetest.FieldCodes(err)["count"]; got != "rating.err.seed_count" {
				t.Errorf("count %d: %v (codes %v), want rating.err.seed_count", count, err, officetest.FieldCodes(err))
			}
		}
		f.Draw(st.ID, "12345")
		_, err := ratings.New(f.O).ApplyRatingSeeds(f.Ctx, f.Director, st.ID, 3)
		if got := officetest.FieldCodes(err)[""]; got != "rating.err.seed_drawn" || !errors.Is(err, office.ErrInvalid) {
			t.Fatalf("after the draw: %v (codes %v), want rating.err.seed_drawn", err, officetest.FieldCodes(err))
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
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newSeedFixture(t, s)
		st := f.Stage()
		_, recorder := f.User("recorder", "correct horse battery", false)
		if err := f.O.GrantEventRole(f.Ctx, f.Admin, office.RoleGrant{EventID: f.Event.ID, UserID: recorder.UserID, Role: office.RoleRecorder}); err != nil {
			t.Fatal(err)
		}
		// The event is a draft: hidden from the public and outsiders,
		// forbidden to a recorder who sees it.
		for name, a := range map[string]office.Actor{"public": {}, "outsider": f.Outsider, "recorder": recorder} {
			want := office.ErrNotFound
			if name == "recorder" {
				want = office.ErrForbidden
			}
			if _, err := ratings.New(f.O).ApplyRatingSeeds(f.Ctx, a, st.ID, 2); !errors.Is(err, want) {
				t.Errorf("%s: %v, want %v", name, err, want)
			}
		}
		seeds, _ := seedsOf(t, s, f, st.ID)
		for id, sd := range seeds {
			if sd != 0 {
				t.Errorf("a forbidden request changed player %d's seed to %d", id, sd)
			}
		}
		if _, err := ratings.New(f.O).ApplyRatingSeeds(f.Ctx, f.Admin, st.ID, 2); err != nil {
			t.Fatalf("administrator: %v", err)
		}
		if seeds, _ := seedsOf(t, s, f, st.ID); seeds[f.a.ID] != 1 || seeds[f.d.ID] != 2 {
			t.Errorf("after the administrator's request: A seed %d, D seed %d; want 1, 2", seeds[f.a.ID], seeds[f.d.ID])
		}
		if _, err := ratings.New(f.O).ApplyRatingSeeds(f.Ctx, f.Director, 999999, 2); !errors.Is(err, office.ErrNotFound) {
			t.Errorf("unknown stage: %v, want ErrNotFound", err)
		}
	})
}
