package day_test

import (
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"kisen/office"
	"kisen/office/day"
	"kisen/store"
	"kisen/store/storetest"
)

// An entrant's class follows from the declared rank; the director may
// put them elsewhere, and that is recorded as an override.
func TestDay_ClassFromDeclaredRankAndOverride(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		a := f.classInput("A級", day.FormatSwiss)
		a.RankMin = "初段"
		b := f.classInput("B級", day.FormatSwiss)
		b.RankMax = "1級"
		b.Position = "2"
		ca, cb := f.class(a), f.class(b)
		dan, kyu := f.player("三段", ""), f.player("5級", "")
		ea, err := f.d.Enter(f.ctx, f.admin, day.EntryInput{EventID: f.event.ID, PlayerID: dan.ID})
		if err != nil {
			t.Fatal(err)
		}
		eb, err := f.d.Enter(f.ctx, f.admin, day.EntryInput{EventID: f.event.ID, PlayerID: kyu.ID})
		if err != nil {
			t.Fatal(err)
		}
		if ea.ClassID != ca.ID || ea.ClassBy != "rank" || eb.ClassID != cb.ID || eb.ClassBy != "rank" {
			t.Fatalf("by rank: 三段 → %d (%s), 5級 → %d (%s); want A %d, B %d", ea.ClassID, ea.ClassBy, eb.ClassID, eb.ClassBy, ca.ID, cb.ID)
		}
		// A declared rank that differs from the registry's decides.
		c := f.player("2級", "")
		ec, err := f.d.Enter(f.ctx, f.admin, day.EntryInput{EventID: f.event.ID, PlayerID: c.ID, Rank: "初段"})
		if err != nil || ec.ClassID != ca.ID {
			t.Fatalf("declared 初段 → class %d, %v; want A", ec.ClassID, err)
		}
		if err := f.d.MoveEntrant(f.ctx, f.admin, f.event.ID, kyu.ID, ca.ID); err != nil {
			t.Fatal(err)
		}
		got, err := s.DayEntrantOf(f.ctx, f.event.ID, kyu.ID)
		if err != nil || got.ClassID != ca.ID || got.ClassBy != "director" {
			t.Fatalf("after override: class %d by %q, %v", got.ClassID, got.ClassBy, err)
		}
		log, err := s.DayLogOfEvent(f.ctx, f.event.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(log, func(e store.DayLogEntry) bool {
			return e.Action == day.LogOverride && e.PlayerID != nil && *e.PlayerID == kyu.ID && strings.Contains(e.Detail, `"from"`)
		}) {
			t.Fatalf("no override in the log: %+v", log)
		}
		// The same player twice, and a rank no class takes with no classes
		// matching, are field errors.
		if _, err := f.d.Enter(f.ctx, f.admin, day.EntryInput{EventID: f.event.ID, PlayerID: dan.ID}); fieldCodes(err)["player"] != "day.err.already_entered" {
			t.Fatalf("entered twice: %v", err)
		}
		if _, err := f.d.Enter(f.ctx, f.admin, day.EntryInput{EventID: f.event.ID, PlayerID: f.player("", "").ID, Rank: "強い"}); fieldCodes(err)["rank"] != "day.err.rank" {
			t.Fatalf("bad rank: %v", err)
		}
	})
}

// Bad class settings name the field; nothing is written.
func TestDay_ClassSettingsValidated(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		in := f.classInput("C級", day.FormatPools)
		in.Wins, in.FirstBoard, in.Club, in.RankMin, in.RankMax = "x", "0", "sometimes", "三段", "1級"
		_, err := f.d.CreateClass(f.ctx, f.admin, in)
		got := fieldCodes(err)
		want := map[string]string{"wins": "day.err.number", "first_board": "day.err.range", "club": "day.err.choose", "rank_max": "day.err.rank_order"}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("field %s: %q, want %q (all %v)", k, got[k], v, got)
			}
		}
		if cs, _ := s.DayClassesOfEvent(f.ctx, f.event.ID); len(cs) != 0 {
			t.Fatalf("a class was written: %+v", cs)
		}
		in = f.classInput("C級", day.FormatPools)
		in.Wins = "3" // blocks are for 2/2 only
		if _, err := f.d.CreateClass(f.ctx, f.admin, in); fieldCodes(err)["pool_mode"] != "day.err.blocks_two_two" {
			t.Fatalf("3/2 in blocks: %v", err)
		}
	})
}

// Only present and late entrants are drawn; absent, expected and
// withdrawn ones are not.
func TestDay_RoundDrawsOnlyCheckedInPlayers(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		c := f.class(f.classInput("A級", day.FormatSwiss))
		in := f.present(7, "初段", c.ID)
		absent, expected, late, gone := f.player("初段", ""), f.player("初段", ""), f.player("初段", ""), in[0]
		for _, p := range []store.Player{absent, expected, late} {
			if _, err := f.d.Enter(f.ctx, f.admin, day.EntryInput{EventID: f.event.ID, PlayerID: p.ID, ClassID: c.ID}); err != nil {
				t.Fatal(err)
			}
		}
		if err := f.d.CheckIn(f.ctx, f.admin, f.event.ID, absent.ID, store.CheckinAbsent); err != nil {
			t.Fatal(err)
		}
		if err := f.d.CheckIn(f.ctx, f.admin, f.event.ID, late.ID, store.CheckinLate); err != nil {
			t.Fatal(err)
		}
		if _, err := f.d.Withdraw(f.ctx, f.admin, f.event.ID, gone.ID); err != nil {
			t.Fatal(err)
		}
		f.drawRound(c.ID, 7)
		gs, err := s.GamesOfEvent(f.ctx, f.event.ID)
		if err != nil {
			t.Fatal(err)
		}
		drawn := map[int64]bool{}
		for _, g := range gs {
			drawn[*g.SentePlayerID], drawn[*g.GotePlayerID] = true, true
		}
		v, _ := f.d.ClassView(f.ctx, f.admin, c.ID)
		for _, id := range v.Rounds[0].Byes {
			drawn[id] = true
		}
		want := map[int64]bool{late.ID: true}
		for _, p := range in[1:] {
			want[p.ID] = true
		}
		if len(drawn) != len(want) {
			t.Fatalf("drawn %v, want %v", drawn, want)
		}
		for id := range want {
			if !drawn[id] {
				t.Errorf("player %d checked in but not drawn", id)
			}
		}
	})
}

// A Swiss class over all its rounds: nobody meets the same opponent twice,
// read from the stored games (not from the draw's bookkeeping); boards are
// numbered from the class's first board; a round cannot be drawn before
// the previous one is complete.
func TestDay_SwissNoRematchAndBoardNumbers(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		in := f.classInput("B級", day.FormatSwiss)
		in.FirstBoard, in.Rounds = "21", "4"
		c := f.class(in)
		f.present(11, "2級", c.ID)
		for r := 1; r <= 4; r++ {
			got := f.drawRound(c.ID, uint64(100+r))
			for i, b := range got.Boards {
				if b.Board != 21+i {
					t.Fatalf("round %d board %d numbered %d", r, i, b.Board)
				}
			}
			if len(got.Byes) != 1 || len(got.Boards) != 5 {
				t.Fatalf("round %d: %d boards, byes %v", r, len(got.Boards), got.Byes)
			}
			if r < 4 {
				if _, err := f.d.PreviewRound(f.ctx, f.admin, c.ID, 1); fieldCodes(err)["round"] != "day.err.round_open" {
					t.Fatalf("round %d open, next drawn: %v", r, err)
				}
			}
			f.finishRound(c.ID)
		}
		if _, err := f.d.PreviewRound(f.ctx, f.admin, c.ID, 1); fieldCodes(err)["round"] != "day.err.finished" {
			t.Fatalf("fifth round of four: %v", err)
		}
		gs, err := s.GamesOfEvent(f.ctx, f.event.ID)
		if err != nil {
			t.Fatal(err)
		}
		met := map[[2]int64]string{}
		for _, g := range gs {
			a, b := min(*g.SentePlayerID, *g.GotePlayerID), max(*g.SentePlayerID, *g.GotePlayerID)
			if prev, ok := met[[2]int64{a, b}]; ok {
				t.Errorf("rematch: %s and %s", prev, g.Label)
			}
			met[[2]int64{a, b}] = g.Label
			if !strings.HasPrefix(g.Label, "B級 R") || !strings.Contains(g.Label, "-B") {
				t.Errorf("label %q", g.Label)
			}
		}
		if len(gs) != 20 {
			t.Fatalf("%d games, want 20", len(gs))
		}
		v, err := f.d.ClassView(f.ctx, f.admin, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		st, err := v.Standings()
		if err != nil || len(st.Swiss) != 11 {
			t.Fatalf("standings: %d lines, %v", len(st.Swiss), err)
		}
		total := 0.0
		for _, l := range st.Swiss {
			total += l.Wins
		}
		if total != 24 { // 20 games and 4 byes
			t.Fatalf("wins sum %v, want 24", total)
		}
	})
}

// A 2勝通過2敗失格 class in blocks, to the end: every player ends with two
// wins or two losses (counted from the stored results and byes), and the
// qualified are exactly those with two wins.
func TestDay_PoolsToTheEnd(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		c := f.class(f.classInput("A級", day.FormatPools))
		ps := f.present(10, "初段", c.ID)
		for r := 1; r <= 3; r++ {
			f.drawRound(c.ID, 9)
			f.finishRound(c.ID)
		}
		if _, err := f.d.PreviewRound(f.ctx, f.admin, c.ID, 1); fieldCodes(err)["round"] != "day.err.finished" {
			t.Fatalf("after the last round: %v", err)
		}
		v, err := f.d.ClassView(f.ctx, f.admin, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		wins, losses := map[int64]int{}, map[int64]int{}
		for _, r := range v.Rounds {
			for _, b := range r.Boards {
				rv, ok, err := s.EffectiveResult(f.ctx, b.Last.ID)
				if err != nil || !ok {
					t.Fatalf("board %d: no result: %v", b.Board, err)
				}
				w, l := *b.Last.SentePlayerID, *b.Last.GotePlayerID
				if rv.Result == office.ResultGoteWin {
					w, l = l, w
				}
				wins[w]++
				losses[l]++
			}
			for _, id := range r.Byes {
				wins[id]++
			}
		}
		st, err := v.Standings()
		if err != nil {
			t.Fatal(err)
		}
		if len(st.Pools) != len(ps) {
			t.Fatalf("%d standings lines for %d players", len(st.Pools), len(ps))
		}
		for _, l := range st.Pools {
			if wins[l.PlayerID] != 2 && losses[l.PlayerID] != 2 {
				t.Errorf("%s ends %d-%d", l.Name, wins[l.PlayerID], losses[l.PlayerID])
			}
			if (l.Status == "qualified") != (wins[l.PlayerID] == 2) {
				t.Errorf("%s: status %s with %d wins", l.Name, l.Status, wins[l.PlayerID])
			}
		}
	})
}

// A withdrawal forfeits the player's undecided game at once (the opponent
// wins, reason forfeit, entered by the director); the next Swiss round
// leaves them out.
func TestDay_WithdrawalForfeitsLaterGames(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		c := f.class(f.classInput("A級", day.FormatSwiss))
		ps := f.present(6, "初段", c.ID)
		got := f.drawRound(c.ID, 3)
		leaver := got.Boards[0].Sente
		n, err := f.d.Withdraw(f.ctx, f.admin, f.event.ID, leaver)
		if err != nil || n != 1 {
			t.Fatalf("withdraw: %d forfeited, %v", n, err)
		}
		v, _ := f.d.ClassView(f.ctx, f.admin, c.ID)
		b := v.Rounds[0].Boards[0]
		if !b.Decided || b.InForce.Result != office.ResultGoteWin || b.InForce.Reason != office.ReasonForfeit || b.InForce.EnteredBy != f.admin.UserID {
			t.Fatalf("board after withdrawal: %+v", b.InForce)
		}
		if _, err := f.d.Withdraw(f.ctx, f.admin, f.event.ID, leaver); fieldCodes(err)["player"] != "day.err.withdrawn" {
			t.Fatalf("twice: %v", err)
		}
		f.finishRound(c.ID)
		next := f.drawRound(c.ID, 4)
		for _, bd := range next.Boards {
			if bd.Sente == leaver || bd.Gote == leaver {
				t.Fatalf("withdrawn player drawn in round 2: %+v", bd)
			}
		}
		if len(next.Boards)*2+len(next.Byes) != len(ps)-1 {
			t.Fatalf("round 2 seats %d boards + %d byes for %d players", len(next.Boards), len(next.Byes), len(ps)-1)
		}
	})
}

// A walk-in is registered, entered and checked in in one step; a bad
// reading names the field and writes nothing.
func TestDay_WalkIn(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		c := f.class(f.classInput("A級", day.FormatSwiss))
		master := f.player("六段", "")
		sib := f.player("初段", "")
		e, err := f.d.WalkIn(f.ctx, f.admin, day.WalkInInput{EventID: f.event.ID, Name: "飛込太郎", Reading: "とびこみたろう", Rank: "二段", Club: "駅前道場", MasterID: master.ID, RelativeID: sib.ID, Late: true})
		if err != nil {
			t.Fatal(err)
		}
		if e.ClassID != c.ID || e.Checkin != store.CheckinLate || !e.WalkIn {
			t.Fatalf("walk-in entrant %+v", e)
		}
		p, err := s.PlayerByID(f.ctx, e.PlayerID)
		if err != nil || p.Affiliation != "駅前道場" || p.Rank != "二段" {
			t.Fatalf("player %+v, %v", p, err)
		}
		if ok, err := s.IsMasterOf(f.ctx, master.ID, p.ID, store.CivilDateOf(f.o.Now())); err != nil || !ok {
			t.Fatalf("master not recorded: %v", err)
		}
		if rel, _ := s.RelativesAmong(f.ctx, []int64{p.ID, sib.ID}); len(rel) != 1 {
			t.Fatalf("family link: %+v", rel)
		}
		// A registered master named by their number; an unknown number is a
		// field error on that field.
		num := "1234"
		master.Number = &num
		if err := s.UpdatePlayer(f.ctx, &master); err != nil {
			t.Fatal(err)
		}
		e2, err := f.d.WalkIn(f.ctx, f.admin, day.WalkInInput{EventID: f.event.ID, Name: "弟子次郎", Reading: "でしじろう", Rank: "初段", MasterNumber: "1234"})
		if err != nil {
			t.Fatal(err)
		}
		if ok, err := s.IsMasterOf(f.ctx, master.ID, e2.PlayerID, store.CivilDateOf(f.o.Now())); err != nil || !ok {
			t.Fatalf("master by number not recorded: %v", err)
		}
		before, _ := s.DayEntrantsOfEvent(f.ctx, f.event.ID)
		if _, err := f.d.WalkIn(f.ctx, f.admin, day.WalkInInput{EventID: f.event.ID, Name: "弟子三郎", Reading: "でしさぶろう", Rank: "初段", MasterNumber: "9999"}); fieldCodes(err)["master_number"] == "" {
			t.Fatalf("unknown master number: %v", err)
		}
		_, err = f.d.WalkIn(f.ctx, f.admin, day.WalkInInput{EventID: f.event.ID, Name: "誤入力", Reading: "abc", Rank: "二段"})
		if fieldCodes(err)["reading"] == "" {
			t.Fatalf("bad reading: %v", err)
		}
		after, _ := s.DayEntrantsOfEvent(f.ctx, f.event.ID)
		if len(after) != len(before) {
			t.Fatal("a bad walk-in was entered")
		}
	})
}

// Twenty people tap the same board at once: one result is stored, every
// other tap gets the conflict with the result in force.
func TestDay_ConcurrentBoardEntryOneWins(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		c := f.class(f.classInput("A級", day.FormatSwiss))
		f.present(4, "初段", c.ID)
		f.drawRound(c.ID, 5)
		v, _ := f.d.ClassView(f.ctx, f.admin, c.ID)
		b := v.Rounds[0].Boards[0]
		var wg sync.WaitGroup
		errs := make([]error, 20)
		for i := range errs {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				res := office.ResultSenteWin
				if i%2 == 1 {
					res = office.ResultGoteWin
				}
				errs[i] = f.d.EnterBoardResult(f.ctx, f.admin, day.BoardResultInput{ClassID: c.ID, Round: 1, Board: b.Board, GameID: b.Last.ID, Version: b.Version, Result: res})
			}(i)
		}
		wg.Wait()
		ok, stale := 0, 0
		for _, err := range errs {
			var se *office.StaleError
			switch {
			case err == nil:
				ok++
			case errors.As(err, &se) && se.HasInForce:
				stale++
			default:
				t.Errorf("unexpected: %v", err)
			}
		}
		if ok != 1 || stale != 19 {
			t.Fatalf("%d stored, %d stale; want 1 and 19", ok, stale)
		}
		vs, err := s.GameSetOfEvent(f.ctx, f.event.ID)
		if err != nil || len(vs.Versions[b.Last.ID]) != 1 {
			t.Fatalf("versions stored: %d, %v", len(vs.Versions[b.Last.ID]), err)
		}
	})
}

// A confirmation whose field changed since the preview (a late check-in)
// is refused as a conflict; nothing is written.
func TestDay_ConfirmRefusedWhenTheFieldChanged(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		c := f.class(f.classInput("A級", day.FormatSwiss))
		f.present(4, "初段", c.ID)
		p, err := f.d.PreviewRound(f.ctx, f.admin, c.ID, 11)
		if err != nil {
			t.Fatal(err)
		}
		if gs, _ := s.GamesOfEvent(f.ctx, f.event.ID); len(gs) != 0 {
			t.Fatal("a preview wrote games")
		}
		f.present(1, "初段", c.ID)
		_, err = f.d.ConfirmRound(f.ctx, f.admin, day.ConfirmInput{ClassID: c.ID, Round: p.Round, Seed: 11, Fingerprint: p.Fingerprint})
		if !errors.Is(err, office.ErrConflict) {
			t.Fatalf("confirm after a check-in: %v", err)
		}
		if gs, _ := s.GamesOfEvent(f.ctx, f.event.ID); len(gs) != 0 {
			t.Fatal("a refused confirmation wrote games")
		}
	})
}

// Roles: a recorder enters board results but runs no desk (no draw, no
// check-in); the public does neither. Refusals are ErrForbidden.
func TestDay_RolesAtTheDeskAndTheBoards(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		c := f.class(f.classInput("A級", day.FormatSwiss))
		ps := f.present(4, "初段", c.ID)
		f.drawRound(c.ID, 1)
		now := f.o.Now()
		u := store.User{Login: "kiroku", DisplayName: "記録係", PasswordHash: "x", CreatedAt: now, UpdatedAt: now}
		if err := s.CreateUser(f.ctx, &u); err != nil {
			t.Fatal(err)
		}
		if err := f.o.GrantEventRole(f.ctx, f.admin, office.RoleGrant{EventID: f.event.ID, UserID: u.ID, Role: office.RoleRecorder}); err != nil {
			t.Fatal(err)
		}
		rec := office.Actor{UserID: u.ID, Login: u.Login}
		if _, err := f.d.PreviewRound(f.ctx, rec, c.ID, 1); !errors.Is(err, office.ErrForbidden) {
			t.Fatalf("recorder draws: %v", err)
		}
		if err := f.d.CheckIn(f.ctx, rec, f.event.ID, ps[0].ID, store.CheckinAbsent); !errors.Is(err, office.ErrForbidden) {
			t.Fatalf("recorder checks in: %v", err)
		}
		v, _ := f.d.ClassView(f.ctx, rec, c.ID)
		if v.CanDesk || !v.CanEnter {
			t.Fatalf("recorder's view: desk %v, enter %v", v.CanDesk, v.CanEnter)
		}
		b := v.Rounds[0].Boards[0]
		in := day.BoardResultInput{ClassID: c.ID, Round: 1, Board: b.Board, GameID: b.Last.ID, Version: 0, Result: office.ResultGoteWin}
		if err := f.d.EnterBoardResult(f.ctx, office.Actor{}, in); err == nil {
			t.Fatal("the public entered a result")
		}
		if err := f.d.EnterBoardResult(f.ctx, rec, in); err != nil {
			t.Fatalf("recorder enters a result: %v", err)
		}
		// An entrant drawn in a round cannot change class; a withdrawn one
		// cannot be checked in again.
		other := f.class(f.classInput("B級", day.FormatSwiss))
		if err := f.d.MoveEntrant(f.ctx, f.admin, f.event.ID, ps[1].ID, other.ID); fieldCodes(err)["class"] != "day.err.class_drawn" {
			t.Fatalf("move after the draw: %v", err)
		}
		if _, err := f.d.Withdraw(f.ctx, f.admin, f.event.ID, ps[2].ID); err != nil {
			t.Fatal(err)
		}
		if err := f.d.CheckIn(f.ctx, f.admin, f.event.ID, ps[2].ID, store.CheckinPresent); fieldCodes(err)["checkin"] != "day.err.withdrawn" {
			t.Fatalf("check-in after withdrawal: %v", err)
		}
	})
}
