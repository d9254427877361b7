package day_test

import (
	"encoding/json"
	"testing"

	"kisen/office"
	"kisen/office/day"
	"kisen/pairing"
	"kisen/store"
	"kisen/store/storetest"
)

// D-H (004) under the class's mixed policy: equal ranks toss (the toss is
// recorded), a gap up to the class's N plays even with the lower rank
// sente, a larger gap takes the table's handicap with the 上手 moving
// first. Checked from the stored games and the players' declared ranks.
func TestDay_D_H_D_F1_HandicapByClassPolicy(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		in := f.classInput("自由", day.FormatSwiss)
		in.Handicap, in.EvenGap, in.Rounds = day.HandicapMixed, "2", "3"
		in.Club = "ignore"
		c := f.class(in)
		ranks := []string{"三段", "三段", "初段", "2級", "5級", "五段", "10級", "1級"}
		for _, r := range ranks {
			f.present(1, r, c.ID)
		}
		table := pairing.DefaultHandicapTable()
		for round := 1; round <= 3; round++ {
			f.drawRound(c.ID, uint64(40+round))
			v, err := f.d.ClassView(f.ctx, f.admin, c.ID)
			if err != nil {
				t.Fatal(err)
			}
			rank := map[int64]pairing.Rank{}
			for _, e := range v.Entrants {
				r, err := pairing.ParseRank(e.DeclaredRank)
				if err != nil {
					t.Fatal(err)
				}
				rank[e.PlayerID] = r
			}
			for _, b := range v.Rounds[round-1].Boards {
				g := b.Root
				rs, rg := rank[*g.SentePlayerID], rank[*g.GotePlayerID]
				gap := rs.Step - rg.Step
				if gap < 0 {
					gap = -gap
				}
				switch {
				case gap == 0:
					var toss pairing.Furigoma
					if err := json.Unmarshal([]byte(b.Furigoma), &toss); err != nil || b.SenteBy != pairing.SenteByFurigoma || !toss.Decided || g.Handicap != "平手" {
						t.Errorf("%s: equal ranks, sente by %q, toss %s, %s", g.Label, b.SenteBy, b.Furigoma, g.Handicap)
					}
				case gap <= 2:
					if g.Handicap != "平手" || rs.Step > rg.Step {
						t.Errorf("%s: gap %d, %s with sente %s against %s; want even, the lower rank sente", g.Label, gap, g.Handicap, rs, rg)
					}
				default:
					want, _ := table.Lookup(gap)
					if g.Handicap != string(want) {
						t.Errorf("%s: gap %d played %s, want %s", g.Label, gap, g.Handicap, want)
					}
					if !want.IsEven() && rs.Step < rg.Step {
						t.Errorf("%s: %s with the lower rank %s moving first", g.Label, g.Handicap, rs)
					}
				}
			}
			f.finishRound(c.ID)
		}
	})
}

// A relation the draw could not keep apart is reported by the players'
// names and stored with the round.
func TestDay_AvoidanceNotKeptReportedByName(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		c := f.class(f.classInput("同門", day.FormatSwiss))
		var names []string
		for i := 0; i < 4; i++ {
			p := f.player("初段", "駅前道場") // everyone from one club: some pair must meet
			names = append(names, p.Name)
			if _, err := f.d.Enter(f.ctx, f.admin, day.EntryInput{EventID: f.event.ID, PlayerID: p.ID, ClassID: c.ID}); err != nil {
				t.Fatal(err)
			}
			if err := f.d.CheckIn(f.ctx, f.admin, f.event.ID, p.ID, store.CheckinPresent); err != nil {
				t.Fatal(err)
			}
		}
		got := f.drawRound(c.ID, 1)
		if len(got.NotKept) != 2 {
			t.Fatalf("not kept %+v, want both games", got.NotKept)
		}
		for _, a := range got.NotKept {
			if a.Relation != pairing.RelationClub || a.Names[0] == "" || a.Names[1] == "" || a.Board < 1 {
				t.Errorf("avoidance %+v", a)
			}
		}
		rs, err := s.DayRoundsOfClass(f.ctx, c.ID)
		if err != nil || len(rs) != 1 {
			t.Fatal(err)
		}
		var stored []day.Avoidance
		if err := json.Unmarshal([]byte(rs[0].NotKept), &stored); err != nil || len(stored) != 2 {
			t.Fatalf("stored %s, %v", rs[0].NotKept, err)
		}
	})
}

// 2勝通過2敗失格 blocks: a player who withdraws after round 1 keeps their
// place in the block; their round-2 game is created and forfeited at once
// (the opponent wins, reason forfeit), so the block goes on; once
// qualified or out, the standings and qualifiers agree.
func TestDay_PoolsWithdrawnPlayerForfeitsLaterBlockGames(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		c := f.class(f.classInput("A級", day.FormatPools))
		f.present(8, "初段", c.ID)
		r1 := f.drawRound(c.ID, 21)
		f.finishRound(c.ID)
		leaver := r1.Boards[0].Sente
		if n, err := f.d.Withdraw(f.ctx, f.admin, f.event.ID, leaver); err != nil || n != 0 {
			t.Fatalf("withdraw between rounds: %d forfeited, %v", n, err)
		}
		f.drawRound(c.ID, 22)
		v, err := f.d.ClassView(f.ctx, f.admin, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, b := range v.Rounds[1].Boards {
			if b.Sente != leaver && b.Gote != leaver {
				if b.Decided {
					t.Errorf("board %d decided without a result entered", b.Board)
				}
				continue
			}
			found = true
			if !b.Decided || b.InForce.Reason != office.ReasonForfeit || b.Winner == leaver {
				t.Fatalf("the withdrawn player's round-2 board: %+v", b.InForce)
			}
		}
		if !found {
			t.Fatal("the withdrawn player has no round-2 board: the block lost its shape")
		}
		f.finishRound(c.ID)
		f.drawRound(c.ID, 23)
		f.finishRound(c.ID)
		v, _ = f.d.ClassView(f.ctx, f.admin, c.ID)
		qs, err := v.Qualifiers()
		if err != nil {
			t.Fatal(err)
		}
		if len(qs) == 0 || len(qs) > 4 {
			t.Fatalf("%d qualifiers from two blocks of four", len(qs))
		}
		for _, q := range qs {
			if q.PlayerID == leaver {
				t.Fatal("the withdrawn player qualified")
			}
			if q.Block == "" || (q.Place != 1 && q.Place != 2) {
				t.Errorf("qualifier %+v", q)
			}
		}
	})
}

// Once a round is drawn, the format and N/M cannot change; other settings
// can.
func TestDay_ClassLockedAfterTheFirstRound(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		in := f.classInput("A級", day.FormatPools)
		c := f.class(in)
		f.present(4, "初段", c.ID)
		f.drawRound(c.ID, 1)
		in.PoolMode, in.Wins, in.Losses = string(pairing.PoolRecords), "3", "3"
		if _, err := f.d.UpdateClass(f.ctx, f.admin, c.ID, in); fieldCodes(err)["wins"] != "day.err.locked" {
			t.Fatalf("N/M changed after a draw: %v", err)
		}
		in = f.classInput("A級", day.FormatPools)
		in.AllowanceMinutes = "30"
		got, err := f.d.UpdateClass(f.ctx, f.admin, c.ID, in)
		if err != nil || got.Settings.AllowanceMinutes != 30 {
			t.Fatalf("time change: %+v, %v", got.Settings, err)
		}
	})
}
