package office_test

import (
	"errors"
	"fmt"
	"testing"

	"kisen/league"
	"kisen/office"
	"kisen/store"
	"kisen/store/storetest"
)

// termNext rolls a drawn and finished 11-player C2 (4 games) over: the
// next term has C1 (the 3 promoted, class created with its defaults: 10
// games) and C2 (8 stayers, 4 games copied).
func termNext(t *testing.T, l *leagueFixture) (next store.Event, c1, c2 store.LeagueClass) {
	t.Helper()
	c := l.drawAndPublish("C2", 4)
	l.enterAll(c, false)
	next, err := l.o.RollOver(l.ctx, l.sched, office.NextTermInput{EventID: l.event.ID, Name: "第86期", StartDate: "2027-06-01", EndDate: "2028-03-31"})
	if err != nil {
		t.Fatal(err)
	}
	cs, err := l.s.LeagueClasses(l.ctx, next.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range cs {
		switch k.Class {
		case "C1":
			c1 = k
		case "C2":
			c2 = k
		}
	}
	if c1.ID == 0 || c2.ID == 0 {
		t.Fatalf("next term classes: %+v", cs)
	}
	return next, c1, c2
}

func (l *leagueFixture) newPlayer(name, number string) store.Player {
	l.t.Helper()
	p := store.Player{Number: &number, Name: name, Reading: "しんしだん", Kind: store.PlayerProfessional,
		Class: store.PlayerClassC2, CreatedAt: l.clock.Now(), UpdatedAt: l.clock.Now()}
	if err := l.s.CreatePlayer(l.ctx, &p); err != nil {
		l.t.Fatal(err)
	}
	return p
}

// membersOf reads a class's members as the class page does.
func (l *leagueFixture) membersOf(c store.LeagueClass) []store.LeagueMember {
	l.t.Helper()
	d, err := l.o.LeagueClass(l.ctx, l.sched, c.ID)
	if err != nil {
		l.t.Fatal(err)
	}
	return d.Members
}

// checkNumbering: 順位 1…n with no gap, and each player once.
func checkNumbering(t *testing.T, class string, ms []store.LeagueMember) {
	t.Helper()
	seen := map[int64]bool{}
	for i, m := range ms {
		if m.Junni != i+1 || seen[m.PlayerID] {
			t.Fatalf("%s: member %d has 順位 %d (player %d, seen %v)", class, i, m.Junni, m.PlayerID, seen[m.PlayerID])
		}
		seen[m.PlayerID] = true
	}
}

func fieldCode(err error, field string) string {
	var ve *office.ValidationError
	if !errors.As(err, &ve) {
		return ""
	}
	for _, f := range ve.Fields {
		if f.Field == field {
			return f.Code
		}
	}
	return ""
}

// TestTermRollOver_AddRemoveMoveBeforeDraw is issue 24's done-when for the
// next 順位戦 term: the roll-over's classes list their members with where
// they came from and the 降級点 carried (DOMAIN.md, next term's 順位); a new
// 四段 joins C2 at the bottom, a player promoted from below joins above the
// stayers with a 降級点, a retired player leaves and the others are
// numbered again, a player moves between classes; every change carries the
// term's member version (stale: 409), is recorded append-only with who and
// why, and is refused once the class is drawn.
func TestTermRollOver_AddRemoveMoveBeforeDraw(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		l := newLeagueFixture(t, s, 11)
		next, c1, c2 := termNext(t, l)
		// Origins, from the roll-over's groups: C1 all promoted; C2 the
		// stayers, then the two who got a 降級点 (carrying one each).
		for _, m := range l.membersOf(c1) {
			if m.Origin != office.OriginPromoted || m.Points != 0 {
				t.Fatalf("C1 member %+v", m)
			}
		}
		// 11 players: the top 3 and anyone unbeaten go up; of the rest the
		// bottom ⌊11/5⌋ = 2 got a 降級点 and come last.
		before := l.membersOf(c2)
		nUp := len(l.membersOf(c1))
		if nUp < 3 || len(before) != 11-nUp {
			t.Fatalf("C1 %d, C2 %d members", nUp, len(before))
		}
		nStay := len(before) - 2
		for i, m := range before {
			want, pts := office.OriginStayed, 0
			if i >= nStay {
				want, pts = office.OriginStayedWithPoint, 1
			}
			if m.Origin != want || m.Points != pts {
				t.Fatalf("C2 順位 %d: origin %q points %d, want %q %d", i+1, m.Origin, m.Points, want, pts)
			}
		}

		yondan := l.newPlayer("新人 一郎", "900")
		other := l.newPlayer("新人 二郎", "901")
		back := l.newPlayer("復帰 三郎", "902")
		add := func(version int, class store.LeagueClass, p store.Player, kind, reason string) error {
			return l.o.ChangeTermMember(l.ctx, l.sched, office.TermMemberInput{ClassID: class.ID, Version: version,
				Action: office.TermAdd, Player: *p.Number, Kind: kind, Reason: reason})
		}
		// Refusals before anything is written: no reason; a 新四段 outside C2;
		// an outsider (a draft term: not found); a recorder (not theirs).
		if code := fieldCode(add(0, c2, yondan, office.KindNewYondan, "  "), "reason"); code != "term.err.reason" {
			t.Fatalf("no reason: %q", code)
		}
		if code := fieldCode(add(0, c1, yondan, office.KindNewYondan, "四段昇段"), "kind"); code != "term.err.new_yondan_c2" {
			t.Fatalf("新四段 into C1: %q", code)
		}
		if err := l.o.ChangeTermMember(l.ctx, l.outsider, office.TermMemberInput{ClassID: c2.ID, Action: office.TermAdd, Player: "900", Kind: office.KindNewYondan, Reason: "x"}); !errors.Is(err, office.ErrNotFound) {
			t.Fatalf("outsider: %v", err)
		}
		if err := l.o.ChangeTermMember(l.ctx, l.recorder, office.TermMemberInput{ClassID: c2.ID, Action: office.TermAdd, Player: "900", Kind: office.KindNewYondan, Reason: "x"}); !errors.Is(err, office.ErrForbidden) {
			t.Fatalf("recorder: %v", err)
		}
		if code := fieldCode(add(0, c2, l.playerOf(before[0].PlayerID), office.KindOther, "重複"), "player"); code != "term.err.member_already" {
			t.Fatalf("a member added twice: %q", code)
		}

		// 1. A new 四段 joins C2 at the bottom.
		if err := add(0, c2, yondan, office.KindNewYondan, "四段昇段（第80回三段リーグ）"); err != nil {
			t.Fatal(err)
		}
		// The same version again is stale, and writes nothing.
		if err := add(0, c2, other, office.KindOther, "編入"); !errors.Is(err, office.ErrConflict) {
			t.Fatalf("stale add: %v", err)
		}
		got := l.membersOf(c2)
		checkNumbering(t, "C2", got)
		if len(got) != len(before)+1 || got[len(before)].PlayerID != yondan.ID || got[len(before)].Origin != office.OriginAdded || got[len(before)].Points != 0 {
			t.Fatalf("after the 新四段: %+v", got)
		}
		// 2. Promoted from below: after the stayers, before those with a 降級点.
		if err := add(1, c2, back, office.KindPromoted, "フリークラスから編入"); err != nil {
			t.Fatal(err)
		}
		got = l.membersOf(c2)
		checkNumbering(t, "C2", got)
		if got[nStay].PlayerID != back.ID || got[nStay+1].PlayerID != before[nStay].PlayerID || got[len(got)-1].PlayerID != yondan.ID {
			t.Fatalf("promoted player's place: %+v", got)
		}
		// 3. A stayer retires: removed, the others keep their order.
		gone := before[2].PlayerID
		if err := l.o.ChangeTermMember(l.ctx, l.sched, office.TermMemberInput{ClassID: c2.ID, Version: 2, Action: office.TermRemove,
			PlayerID: gone, Kind: office.KindRetired, Reason: "引退届"}); err != nil {
			t.Fatal(err)
		}
		after := l.membersOf(c2)
		checkNumbering(t, "C2", after)
		var wantOrder []int64
		for _, m := range got {
			if m.PlayerID != gone {
				wantOrder = append(wantOrder, m.PlayerID)
			}
		}
		for i, m := range after {
			if m.PlayerID != wantOrder[i] {
				t.Fatalf("after the removal 順位 %d is %d, want %d", i+1, m.PlayerID, wantOrder[i])
			}
		}
		// 4. A player with a 降級点 moves to C1: at its bottom, with the point.
		moved := before[nStay+1].PlayerID
		if err := l.o.ChangeTermMember(l.ctx, l.sched, office.TermMemberInput{ClassID: c2.ID, Version: 3, Action: office.TermMove,
			PlayerID: moved, ToClass: "C1", Kind: office.KindOther, Reason: "組の誤りを訂正"}); err != nil {
			t.Fatal(err)
		}
		in1, in2 := l.membersOf(c1), l.membersOf(c2)
		checkNumbering(t, "C1", in1)
		checkNumbering(t, "C2", in2)
		if len(in1) != nUp+1 || in1[nUp].PlayerID != moved || in1[nUp].Points != 1 || in1[nUp].Origin != office.OriginMoved || len(in2) != len(before) {
			t.Fatalf("after the move: C1 %+v, C2 %d members", in1, len(in2))
		}

		// 5. C1 now has nUp+1 players and the default 10 games: flagged with
		// a value that fits, and its draw refuses before the engine.
		d1, err := l.o.LeagueClass(l.ctx, l.sched, c1.ID)
		if err != nil {
			t.Fatal(err)
		}
		fit := office.ClassFit(d1.Settings, len(d1.Members))
		wantSuggest := nUp // each of nUp+1 players has nUp classmates
		if nUp+1 == 4 {
			wantSuggest = 2 // four players, both sente/gote splits on
		}
		if len(fit) != 1 || fit[0].Code != "fit.games_over" || fit[0].Value != 10 || fit[0].Suggest != wantSuggest {
			t.Fatalf("C1 fit: %+v", fit)
		}
		_, err = l.o.GenerateSchedule(l.ctx, l.sched, office.ScheduleInput{ClassID: c1.ID, Seed: "1"})
		var mis *office.SettingsMisfitError
		if !errors.As(err, &mis) || len(mis.Misfits) != 1 {
			t.Fatalf("C1 draw with 10 games for %d players: %v", nUp+1, err)
		}

		// 6. Once C2 is drawn its members are fixed: refused in words.
		if _, err := l.o.GenerateSchedule(l.ctx, l.sched, office.ScheduleInput{ClassID: c2.ID, Seed: "5", RoundDates: leagueDates}); err != nil {
			t.Fatal(err)
		}
		if code := fieldCode(add(4, c2, other, office.KindOther, "編入"), ""); code != "term.err.drawn" {
			t.Fatalf("add after the draw: %q", code)
		}
		err = l.o.ChangeTermMember(l.ctx, l.sched, office.TermMemberInput{ClassID: c1.ID, Version: 4, Action: office.TermMove,
			PlayerID: moved, ToClass: "C2", Kind: office.KindOther, Reason: "戻す"})
		if code := fieldCode(err, "to_class"); code != "term.err.to_drawn" {
			t.Fatalf("move into a drawn class: %v", err)
		}
		if n := len(l.membersOf(c2)); n != len(before) {
			t.Fatalf("C2 has %d members after refused changes", n)
		}

		// The record: four changes, in order, with who and why, and C2's
		// page sees those that touched C2.
		all, err := s.LeagueMemberChanges(l.ctx, next.ID)
		if err != nil {
			t.Fatal(err)
		}
		wantActs := []string{"add:C2:new_yondan", "add:C2:promoted", "remove:C2:retired", "move:C2>C1:other"}
		if len(all) != len(wantActs) {
			t.Fatalf("%d changes recorded, want %d", len(all), len(wantActs))
		}
		for i, ch := range all {
			act := fmt.Sprintf("%s:%s:%s", ch.Action, ch.ToClass, ch.Kind)
			switch ch.Action {
			case office.TermRemove:
				act = fmt.Sprintf("%s:%s:%s", ch.Action, ch.FromClass, ch.Kind)
			case office.TermMove:
				act = fmt.Sprintf("%s:%s>%s:%s", ch.Action, ch.FromClass, ch.ToClass, ch.Kind)
			}
			if act != wantActs[i] || ch.Seq != i+1 || ch.ActorID != l.sched.UserID || ch.Reason == "" {
				t.Fatalf("change %d: %+v (%s), want %s", i+1, ch, act, wantActs[i])
			}
		}
		tc, err := l.o.TermMemberChanges(l.ctx, l.sched, c1.ID)
		if err != nil {
			t.Fatal(err)
		}
		if tc.Version != 4 || len(tc.Changes) != 1 || tc.Changes[0].PlayerID != moved || tc.Actors[l.sched.UserID] == "" {
			t.Fatalf("C1's changes: %+v", tc)
		}
		// Append-only in the database itself.
		if err := s.DB(l.ctx).Model(&store.LeagueMemberChange{}).Where("id = ?", all[0].ID).Update("reason", "x").Error; !errors.Is(store.AppendOnly(err), store.ErrAppendOnly) {
			t.Fatalf("a change was updated: %v", err)
		}
	})
}

func (l *leagueFixture) playerOf(id int64) store.Player {
	l.t.Helper()
	for _, p := range l.players {
		if p.ID == id {
			return p
		}
	}
	l.t.Fatalf("player %d not in the fixture", id)
	return store.Player{}
}

// TestClassFit_SuggestsAFittingValue checks the pre-draw check on its own:
// each misfit names a suggested value that itself fits.
func TestClassFit_SuggestsAFittingValue(t *testing.T) {
	t.Parallel()
	base, err := league.DefaultSettings(league.KindJunisen, "C2")
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n <= 14; n++ {
		for g := 1; g <= 12; g++ {
			s := base
			s.GamesPerPlayer = g
			ms := office.ClassFit(s, n)
			if n < 2 {
				if len(ms) != 1 || ms[0].Code != "fit.too_few" {
					t.Fatalf("%d players: %+v", n, ms)
				}
				continue
			}
			bad := g > n-1 || (n%2 == 1 && g%2 == 1) || (n == 4 && g == 3)
			if bad != (len(ms) > 0) {
				t.Fatalf("%d players, %d games: %+v", n, g, ms)
			}
			for _, m := range ms {
				if m.Suggest == 0 {
					continue
				}
				s2 := base
				s2.GamesPerPlayer = m.Suggest
				if again := office.ClassFit(s2, n); len(again) > 0 {
					t.Fatalf("%d players, %d games: suggestion %d does not fit: %+v", n, g, m.Suggest, again)
				}
			}
		}
	}
	rr, _ := league.DefaultSettings(league.KindJunisen, "A")
	if ms := office.ClassFit(rr, 7); len(ms) != 0 {
		t.Fatalf("a round robin of 7: %+v", ms)
	}
}

// TestTermMembers_TwoChangesOnOneVersion: two people change the next
// term's members at once from the same page (the same version), one on
// C2 and one moving a player into C2 from C1: exactly one lands, the other
// is stale (409), and the members are numbered 1…n after it.
func TestTermMembers_TwoChangesOnOneVersion(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		l := newLeagueFixture(t, s, 11)
		_, c1, c2 := termNext(t, l)
		p := l.newPlayer("新人 一郎", "900")
		mover := l.membersOf(c1)[0].PlayerID
		ins := []office.TermMemberInput{
			{ClassID: c2.ID, Version: 0, Action: office.TermAdd, Player: *p.Number, Kind: office.KindNewYondan, Reason: "四段昇段"},
			{ClassID: c1.ID, Version: 0, Action: office.TermMove, PlayerID: mover, ToClass: "C2", Kind: office.KindOther, Reason: "訂正"},
		}
		errs := make(chan error, len(ins))
		for _, in := range ins {
			go func() { errs <- l.o.ChangeTermMember(l.ctx, l.sched, in) }()
		}
		landed, stale := 0, 0
		for range ins {
			switch err := <-errs; {
			case err == nil:
				landed++
			case errors.Is(err, office.ErrConflict):
				stale++
			default:
				t.Fatalf("a concurrent change: %v", err)
			}
		}
		if landed != 1 || stale != 1 {
			t.Fatalf("%d landed, %d stale; want 1 and 1", landed, stale)
		}
		checkNumbering(t, "C1", l.membersOf(c1))
		checkNumbering(t, "C2", l.membersOf(c2))
		if all, _ := s.LeagueMemberChanges(l.ctx, c2.EventID); len(all) != 1 {
			t.Fatalf("%d changes recorded, want 1", len(all))
		}
	})
}
