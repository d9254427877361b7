package day_test

import (
	"testing"

	"kisen/office/day"
	"kisen/pairing"
	"kisen/store"
	"kisen/store/storetest"
)

// TestDay_003_ThreePawnTossBySetting: 003 allows tossing three 歩 when
// done the simple way; a class that allows it (the organiser's setting)
// takes a three-歩 toss at its boards and judges it by the majority, as with
// five (D-F1); a class that does not refuses it in words, next to the field.
func TestDay_003_ThreePawnTossBySetting(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		board1 := func(classID int64) day.Board {
			t.Helper()
			v, err := f.d.ClassView(f.ctx, f.admin, classID)
			if err != nil {
				t.Fatal(err)
			}
			for _, b := range v.Rounds[0].Boards {
				if b.Board == v.Class.Settings.FirstBoard {
					return b
				}
			}
			t.Fatal("no first board")
			return day.Board{}
		}
		for _, allow := range []bool{true, false} {
			in := f.classInput(map[bool]string{true: "三枚可", false: "五枚"}[allow], day.FormatSwiss)
			in.Rounds, in.Club, in.ThreePawnToss = "3", "ignore", allow
			if !allow {
				in.FirstBoard = "11"
			}
			c := f.class(in)
			if got := c.Settings.ThreePawnToss; got != allow {
				t.Fatalf("stored setting %v, want %v", got, allow)
			}
			f.present(4, "初段", c.ID)
			f.drawRound(c.ID, 5)
			b := board1(c.ID)
			if b.SenteBy != pairing.SenteByFurigoma {
				t.Fatalf("board sente by %q", b.SenteBy)
			}
			joza := b.Joza()
			other := b.Sente + b.Gote - joza
			toss := func(pieces, fu, to int) error {
				_, err := f.d.EnterBoardToss(f.ctx, f.admin, day.BoardTossInput{ClassID: c.ID, Round: 1, Board: b.Board, GameID: b.Last.ID, Tosser: joza, Pieces: pieces, Fu: fu, To: to})
				return err
			}
			if err := toss(4, 2, 1); fieldCodes(err)["pieces"] != "day.err.toss_pieces" {
				t.Fatalf("four pieces (allow %v): %v", allow, err)
			}
			if !allow {
				if err := toss(3, 2, 1); fieldCodes(err)["pieces"] != "day.err.toss_pieces" {
					t.Fatalf("three pieces without the setting: %v", err)
				}
				continue
			}
			if err := toss(3, 3, 1); fieldCodes(err)["fu"] != "day.err.toss_count" {
				t.Fatalf("four counted of three: %v", err)
			}
			// 1 歩, 2 と of three: と majority, the other player is sente (D-F1)
			if err := toss(3, 1, 2); err != nil {
				t.Fatal(err)
			}
			got := board1(c.ID)
			if got.Observed == nil || !got.Observed.Decided || len(got.Observed.Tosses[0].Pieces) != 3 || got.Sente != other {
				t.Fatalf("three-歩 toss: observed %+v, sente %d, want %d", got.Observed, got.Sente, other)
			}
		}
	})
}

// TestDay_D_Z2_HigherRankTosses (000 第7条1, 003 正式には上位の側が振る): at
// an amateur day the simulated 振り駒 of every board with two different
// ranks was tossed by the higher 段級 (D-Z2), whichever seat the draw gave.
func TestDay_D_Z2_HigherRankTosses(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		in := f.classInput("一般", day.FormatSwiss)
		in.Rounds, in.Club = "3", "ignore"
		c := f.class(in)
		rank := map[int64]int{} // the test's own scale: 三段 3, 2級 -1
		for _, p := range f.present(3, "三段", c.ID) {
			rank[p.ID] = 3
		}
		for _, p := range f.present(3, "2級", c.ID) {
			rank[p.ID] = -1
		}
		f.drawRound(c.ID, 11)
		v, err := f.d.ClassView(f.ctx, f.admin, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		mixed := 0
		for _, b := range v.Rounds[0].Boards {
			if b.SenteBy != pairing.SenteByFurigoma {
				t.Fatalf("board %d sente by %q", b.Board, b.SenteBy)
			}
			if rank[b.Sente] == rank[b.Gote] {
				continue
			}
			mixed++
			j := b.Joza()
			if rank[j] < rank[b.Sente+b.Gote-j] {
				t.Errorf("board %d: tossed by %d (rank %d) against %d", b.Board, j, rank[j], rank[b.Sente+b.Gote-j])
			}
		}
		if mixed == 0 {
			t.Fatal("no board between different ranks: the test checks nothing")
		}
	})
}
