package office_test

import (
	"errors"
	"slices"
	"strconv"
	"testing"

	"kisen/league"
	"kisen/office"
	"kisen/store"
	"kisen/store/storetest"
)

func TestRelatives_AddValidateRemove(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		l := newLeagueFixture(t, s, 4)
		p0, p3 := l.players[0], l.players[3]
		bad := []struct {
			name  string
			actor office.Actor
			in    office.RelativeInput
			want  error
			field string
		}{
			{"not an administrator", l.sched, office.RelativeInput{PlayerID: p3.ID, Other: *p0.Number}, office.ErrForbidden, ""},
			{"self pair", l.admin, office.RelativeInput{PlayerID: p3.ID, Other: *p3.Number}, office.ErrInvalid, "other"},
			{"unknown other", l.admin, office.RelativeInput{PlayerID: p3.ID, Other: "no such player"}, office.ErrInvalid, "other"},
			{"other missing", l.admin, office.RelativeInput{PlayerID: p3.ID, Other: " "}, office.ErrInvalid, "other"},
			{"unknown player", l.admin, office.RelativeInput{PlayerID: 999999, Other: *p0.Number}, store.ErrNotFound, ""},
			{"relation too long", l.admin, office.RelativeInput{PlayerID: p3.ID, Other: *p0.Number, Relation: string(make([]rune, 41))}, office.ErrInvalid, "relation"},
		}
		for _, b := range bad {
			_, err := l.o.AddRelative(l.ctx, b.actor, b.in)
			if !errors.Is(err, b.want) {
				t.Errorf("%s: err %v, want %v", b.name, err, b.want)
			}
			var v *office.ValidationError
			if b.field != "" && (!errors.As(err, &v) || v.FieldMessage(b.field) == "") {
				t.Errorf("%s: no message on %s: %v", b.name, b.field, err)
			}
		}
		if rs, _ := l.o.Relatives(l.ctx, p3.ID); len(rs) != 0 {
			t.Fatalf("refused input wrote %d pairs", len(rs))
		}
		// Entered from the higher id's page; stored once, smaller id first.
		r, err := l.o.AddRelative(l.ctx, l.admin, office.RelativeInput{PlayerID: p3.ID, Other: p0.Name, Relation: " 親子 "})
		if err != nil {
			t.Fatal(err)
		}
		if r.PlayerAID != min(p0.ID, p3.ID) || r.PlayerBID != max(p0.ID, p3.ID) || r.Relation != "親子" {
			t.Errorf("stored %+v", r)
		}
		// The same pair from the other side is a duplicate.
		_, err = l.o.AddRelative(l.ctx, l.admin, office.RelativeInput{PlayerID: p0.ID, Other: *p3.Number})
		var v *office.ValidationError
		if !errors.As(err, &v) || v.FieldMessage("other") != "relatives.err.exists" {
			t.Errorf("duplicate: %v", err)
		}
		for _, side := range []store.Player{p0, p3} {
			rs, err := l.o.Relatives(l.ctx, side.ID)
			if err != nil || len(rs) != 1 || rs[0].Relation != "親子" {
				t.Fatalf("relatives of %d: %+v %v", side.ID, rs, err)
			}
			if want := p0.ID + p3.ID - side.ID; rs[0].Other.ID != want {
				t.Errorf("relatives of %d: other %d, want %d", side.ID, rs[0].Other.ID, want)
			}
		}
		if err := l.o.RemoveRelative(l.ctx, l.sched, r.ID); !errors.Is(err, office.ErrForbidden) {
			t.Errorf("remove by a scheduler: %v", err)
		}
		if err := l.o.RemoveRelative(l.ctx, l.admin, r.ID); err != nil {
			t.Fatal(err)
		}
		if err := l.o.RemoveRelative(l.ctx, l.admin, r.ID); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("second remove: %v", err)
		}
		if rs, _ := l.o.Relatives(l.ctx, p0.ID); len(rs) != 0 {
			t.Errorf("after remove: %+v", rs)
		}
	})
}

// ownGames lists the rounds (1-based) of a player's games in order,
// skipping rests, read straight from the schedule.
func ownGames(s league.Schedule, id string) []int {
	var out []int
	for _, r := range s.Rounds {
		for _, g := range r.Games {
			if g.Sente == id || g.Gote == id {
				out = append(out, r.Number)
			}
		}
	}
	return out
}

// meetRound is the round a pair meets in, or 0.
func meetRound(s league.Schedule, a, b string) int {
	for _, r := range s.Rounds {
		for _, g := range r.Games {
			if (g.Sente == a && g.Gote == b) || (g.Sente == b && g.Gote == a) {
				return r.Number
			}
		}
	}
	return 0
}

// The registry's 肉親 reach every draw: C2 never pairs them (practice,
// league.DefaultSettings), A keeps them out of each one's first game and
// last three games.
func TestRelatives_PracticeRulesInTheDraw(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		l := newLeagueFixture(t, s, 11)
		// Two relative pairs, one entered each way round.
		for _, p := range [][2]int{{4, 7}, {9, 2}} {
			if _, err := l.o.AddRelative(l.ctx, l.admin, office.RelativeInput{PlayerID: l.players[p[0]].ID, Other: *l.players[p[1]].Number, Relation: "兄弟"}); err != nil {
				t.Fatal(err)
			}
		}
		pairs := [][2]string{{l.id(4), l.id(7)}, {l.id(9), l.id(2)}}
		c2 := l.addClass("C2", 6)
		a := l.addClass("A", 0)
		for _, seed := range []int{1, 42, 20260401, 7, 99} {
			for _, c := range []store.LeagueClass{c2, a} {
				if _, err := l.o.GenerateSchedule(l.ctx, l.sched, office.ScheduleInput{ClassID: c.ID, Seed: strconv.Itoa(seed), DrawDate: "2026-05-01"}); err != nil {
					t.Fatalf("class %s seed %d: %v", c.Class, seed, err)
				}
				sched := l.schedule(c)
				for _, p := range pairs {
					r := meetRound(sched, p[0], p[1])
					if c.Class == "C2" {
						if r != 0 {
							t.Errorf("C2 seed %d: relatives %s and %s meet in round %d", seed, p[0], p[1], r)
						}
						continue
					}
					if r == 0 {
						t.Fatalf("A seed %d: round robin without %s–%s", seed, p[0], p[1])
					}
					for _, id := range p {
						own := ownGames(sched, id)
						k := slices.Index(own, r) + 1 // the pair's game is the player's k-th
						if k <= 1 || k > len(own)-3 {
							t.Errorf("A seed %d: relatives %s–%s meet in %s's game %d of %d", seed, p[0], p[1], id, k, len(own))
						}
					}
				}
				rep, err := l.o.LeagueClass(l.ctx, l.sched, c.ID)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Contains(rep.Report.RulesChecked, league.RuleRelatives) {
					t.Errorf("class %s: report rules %v lack %s", c.Class, rep.Report.RulesChecked, league.RuleRelatives)
				}
			}
		}
	})
}
