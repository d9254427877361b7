package office_test

import (
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"kisen/office"
	"kisen/pairing"
	"kisen/store"
	"kisen/store/storetest"
)

// TestKnockoutToss_D_F_ObservedTosses: tosses entered one after another are
// judged by D-F1..F3 (counts written by hand here): a tie (D-F3, with a
// standing piece not counted, D-F2) decides nothing and keeps the seats; the
// next toss decides and sets the seats; a toss after the decision, a bad
// piece, or a toss on a started game is refused.
func TestKnockoutToss_D_F_ObservedTosses(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name      string
		tosses    [][5]string
		wantSente string // "tosser", "other", "" (not decided)
	}{
		{"fu majority", [][5]string{{"歩", "歩", "歩", "と", "と"}}, "tosser"},
		{"to majority", [][5]string{{"と", "と", "と", "歩", "歩"}}, "other"},
		{"tie then to", [][5]string{{"歩", "歩", "と", "と", "立"}, {"to", "to", "fu", "overlapping", "standing"}}, "other"},
		{"tie with overlap then fu", [][5]string{{"重", "歩", "と", "立", "重"}, {"歩", "と", "歩", "と", "歩"}}, "tosser"},
		{"tie only", [][5]string{{"歩", "と", "重", "立", "重"}}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel() // its own databases
			storetest.Each(t, func(t *testing.T, s *store.Store) {
				k := newKnockoutFixture(t, s)
				st, err := k.o.CreateStage(k.ctx, k.director, office.StageInput{EventID: k.event.ID, Name: "決勝", Kind: "main"})
				if err != nil {
					t.Fatal(err)
				}
				for _, p := range k.players[6:8] {
					if _, err := k.o.AddEntrant(k.ctx, k.director, office.EntrantInput{StageID: st.ID, PlayerID: p.ID}); err != nil {
						t.Fatal(err)
					}
				}
				k.draw(st.ID, "4")
				if err := k.o.PublishStage(k.ctx, k.director, st.ID); err != nil {
					t.Fatal(err)
				}
				kgs, _ := s.KnockoutGamesOfStage(k.ctx, st.ID)
				if len(kgs) != 1 {
					t.Fatalf("%d games", len(kgs))
				}
				before, _ := s.GameByID(k.ctx, kgs[0].GameID)
				slots := slotsOf(t, mustStage(t, k, st.ID))
				var sim pairing.Furigoma // the 上座 player tosses (D-Z1), whom the simulated record names
				if err := json.Unmarshal([]byte(kgs[0].Furigoma), &sim); err != nil {
					t.Fatal(err)
				}
				tosser, other := sim.Tosser, sim.Other
				if !(tosser == slots[0] && other == slots[1]) && !(tosser == slots[1] && other == slots[0]) {
					t.Fatalf("tosser %s and other %s are not the game's players %v", tosser, other, slots)
				}
				for i, toss := range c.tosses {
					f, err := k.o.EnterToss(k.ctx, k.director, office.TossInput{StageID: st.ID, BracketGame: kgs[0].BracketGame, Pieces: toss})
					if err != nil {
						t.Fatalf("toss %d: %v", i+1, err)
					}
					if len(f.Tosses) != i+1 {
						t.Fatalf("toss %d: %d tosses kept", i+1, len(f.Tosses))
					}
				}
				g, _ := s.GameByID(k.ctx, kgs[0].GameID)
				kg, _ := s.KnockoutGameByGameID(k.ctx, g.ID)
				sente := strconv.FormatInt(*g.SentePlayerID, 10)
				switch c.wantSente {
				case "":
					if *g.SentePlayerID != *before.SentePlayerID || kg.SenteBy != pairing.SenteByFurigoma {
						t.Fatalf("an undecided toss changed the seats or sente_by %q", kg.SenteBy)
					}
					return
				case "tosser":
					if sente != tosser {
						t.Fatalf("sente %s, want the tosser %s", sente, tosser)
					}
				case "other":
					if sente != other {
						t.Fatalf("sente %s, want the other player %s", sente, other)
					}
				}
				if kg.SenteBy != pairing.SenteByObserved || kg.Furigoma == "{}" {
					t.Fatalf("sente_by %q, simulated toss %q kept", kg.SenteBy, kg.Furigoma)
				}
				_, err = k.o.EnterToss(k.ctx, k.director, office.TossInput{StageID: st.ID, BracketGame: kg.BracketGame, Pieces: [5]string{"歩", "歩", "歩", "歩", "歩"}})
				if fieldCodes(err)[""] != "knockout.err.toss_decided" {
					t.Fatalf("toss after the decision: %v", err)
				}
			})
		})
	}
}

func mustStage(t *testing.T, k *knockoutFixture, id int64) store.KnockoutStage {
	t.Helper()
	st, err := k.s.StageByID(k.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestKnockoutToss_D_F_Refusals(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		k := newKnockoutFixture(t, s)
		st := k.stage()
		k.draw(st.ID, "8")
		if err := k.o.PublishStage(k.ctx, k.director, st.ID); err != nil {
			t.Fatal(err)
		}
		kgs, _ := s.KnockoutGamesOfStage(k.ctx, st.ID)
		good := [5]string{"歩", "歩", "歩", "と", "と"}
		bad := [5]string{"歩", "歩", "金", "と", "と"}
		_, err := k.o.EnterToss(k.ctx, k.director, office.TossInput{StageID: st.ID, BracketGame: kgs[0].BracketGame, Pieces: bad})
		if fieldCodes(err)["piece_3"] != "knockout.err.toss_piece" {
			t.Fatalf("unknown face: %v", err)
		}
		if _, err := k.o.EnterToss(k.ctx, k.outsider, office.TossInput{StageID: st.ID, BracketGame: kgs[0].BracketGame, Pieces: good}); err == nil {
			t.Fatal("an outsider entered a toss")
		}
		if err := s.MarkGameStarted(k.ctx, kgs[1].GameID, time.Date(2026, 5, 10, 1, 0, 0, 0, time.UTC)); err != nil {
			t.Fatal(err)
		}
		_, err = k.o.EnterToss(k.ctx, k.director, office.TossInput{StageID: st.ID, BracketGame: kgs[1].BracketGame, Pieces: good})
		if fieldCodes(err)[""] != "knockout.err.toss_started" {
			t.Fatalf("toss on a started game: %v", err)
		}
	})
}
