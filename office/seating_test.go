package office_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"kisen/office"
	"kisen/pairing"
	"kisen/store"
	"kisen/store/storetest"
)

// seatOrder gives eight of the fixture's players facts whose 席次 (D-Z1) is
// known by construction, best first, each pair decided by a different
// criterion: two titles; one title; 九段 in A; 八段 B1 promoted 2015; 八段
// B1 promoted 2018; 六段 C2 professional 2010; 六段 C2 professional 2012;
// 五段 with no class. They are assigned against the entry order, so the
// bracket's upper line is often the lower-ranked player.
func seatOrder(t *testing.T, k *knockoutFixture) []int64 {
	t.Helper()
	d := store.NewCivilDate
	facts := []struct {
		rank, class, titles string
		rankSince, proSince store.CivilDate
	}{
		{"九段", "A", "竜王,名人", d(2010, 4, 1), d(2000, 4, 1)},
		{"七段", "B2", "王位", d(2020, 4, 1), d(2012, 4, 1)},
		{"九段", "A", "", d(2012, 4, 1), d(1995, 4, 1)},
		{"八段", "B1", "", d(2015, 4, 1), d(2005, 4, 1)},
		{"八段", "B1", "", d(2018, 4, 1), d(2003, 4, 1)},
		{"六段", "C2", "", d(2016, 4, 1), d(2010, 4, 1)},
		{"六段", "C2", "", d(2016, 4, 1), d(2012, 4, 1)},
		{"五段", "", "", d(2019, 4, 1), d(2015, 4, 1)},
	}
	assign := []int{7, 2, 5, 0, 6, 3, 1, 4} // player index of the i-th best
	var order []int64
	for i, f := range facts {
		p := k.players[assign[i]]
		if err := k.s.DB(k.ctx).Model(&store.Player{}).Where("id = ?", p.ID).Updates(map[string]any{"rank": f.rank, "class": f.class}).Error; err != nil {
			t.Fatal(err)
		}
		if err := k.s.SetSeatFacts(k.ctx, p.ID, f.titles, f.rankSince, f.proSince, time.Now()); err != nil {
			t.Fatal(err)
		}
		order = append(order, p.ID)
	}
	return order
}

func seatStage(t *testing.T, k *knockoutFixture, ids []int64) store.KnockoutStage {
	t.Helper()
	st, err := k.o.CreateStage(k.ctx, k.director, office.StageInput{EventID: k.event.ID, Name: "本戦", Kind: "main", RoundDates: "2026-05-10 2026-05-20 2026-05-30"})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		if _, err := k.o.AddEntrant(k.ctx, k.director, office.EntrantInput{StageID: st.ID, PlayerID: id}); err != nil {
			t.Fatal(err)
		}
	}
	k.draw(st.ID, "24")
	if err := k.o.PublishStage(k.ctx, k.director, st.ID); err != nil {
		t.Fatal(err)
	}
	return st
}

func simulatedToss(t *testing.T, kg store.KnockoutGame) pairing.Furigoma {
	t.Helper()
	var f pairing.Furigoma
	if err := json.Unmarshal([]byte(kg.Furigoma), &f); err != nil {
		t.Fatalf("game %s: toss record %q: %v", kg.BracketGame, kg.Furigoma, err)
	}
	return f
}

// TestSeating_D_Z1_KnockoutWalkEveryTossByJoza (000 第7条1, 001 第3条: the
// 上座 player's 歩 are tossed): a whole knockout is played out, and every
// game's simulated 振り駒 — in every round, as the games appear — was
// tossed by the player the test's own 席次 list puts higher, whichever
// bracket line they stand on; the upper line is not always the 上座, so the
// walk tells the two rules apart.
func TestSeating_D_Z1_KnockoutWalkEveryTossByJoza(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		k := newKnockoutFixture(t, s)
		order := seatOrder(t, k)
		place := map[string]int{}
		for i, id := range order {
			place[strconv.FormatInt(id, 10)] = i
		}
		st := seatStage(t, k, order)
		slots := slotsOf(t, mustStage(t, k, st.ID)) // round 1 in bracket order
		seen, lowerLine := map[string]bool{}, 0
		for range 10 {
			kgs, err := s.KnockoutGamesOfStage(k.ctx, st.ID)
			if err != nil {
				t.Fatal(err)
			}
			progressed := false
			for _, kg := range kgs {
				if seen[kg.BracketGame] {
					continue
				}
				seen[kg.BracketGame] = true
				progressed = true
				if kg.SenteBy != pairing.SenteByFurigoma {
					t.Fatalf("game %s sente by %q, want a 振り駒", kg.BracketGame, kg.SenteBy)
				}
				f := simulatedToss(t, kg)
				if place[f.Tosser] >= place[f.Other] {
					t.Errorf("game %s: tossed by %s (席次 %d), the 上座 is %s (席次 %d)", kg.BracketGame, f.Tosser, place[f.Tosser]+1, f.Other, place[f.Other]+1)
				}
				g, err := s.GameByID(k.ctx, kg.GameID)
				if err != nil {
					t.Fatal(err)
				}
				if upper := upperLine(slots, f); upper != "" && upper != f.Tosser {
					lowerLine++
				}
				j, ok, err := k.o.GameJoza(k.ctx, k.director, g.ID)
				if err != nil || !ok || strconv.FormatInt(j.PlayerID, 10) != f.Tosser {
					t.Errorf("game %s: the page's 上座 %+v (%v, %v), the toss's %s", kg.BracketGame, j, ok, err, f.Tosser)
				}
				// play it: sente wins, so the next round's games appear
				if _, err := k.o.RecordResult(k.ctx, k.director, g.ID, office.ResultInput{Result: office.ResultSenteWin, Reason: office.ReasonResignation}); err != nil {
					t.Fatal(err)
				}
			}
			if !progressed {
				break
			}
		}
		if len(seen) != 7 {
			t.Fatalf("%d games played, want 7 (8 players)", len(seen))
		}
		t.Logf("round-1 games whose 上座 stood on the lower line: %d", lowerLine)
		if lowerLine == 0 {
			t.Error("the 上座 stood on the upper line in every round-1 game: the walk does not tell the rules apart")
		}
	})
}

// upperLine is the round-1 upper-line player of a game (slots in bracket
// order), "" for a later round.
func upperLine(slots []string, f pairing.Furigoma) string {
	for i := 0; i+1 < len(slots); i += 2 {
		if (slots[i] == f.Tosser && slots[i+1] == f.Other) || (slots[i] == f.Other && slots[i+1] == f.Tosser) {
			return slots[i]
		}
	}
	return ""
}

// TestSeating_OverrideWithReason: the organiser sets a game's 上座 aside
// with a reason (an append-only record, the later one in force); the
// simulated toss is made again by the new 上座; no reason, a player not in
// the game, an outsider, or a started game is refused.
func TestSeating_OverrideWithReason(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		k := newKnockoutFixture(t, s)
		order := seatOrder(t, k)
		st := seatStage(t, k, order)
		kgs, _ := s.KnockoutGamesOfStage(k.ctx, st.ID)
		kg := kgs[0]
		f := simulatedToss(t, kg)
		joza, _ := strconv.ParseInt(f.Tosser, 10, 64)
		other, _ := strconv.ParseInt(f.Other, 10, 64)

		if err := k.o.OverrideJoza(k.ctx, k.director, office.SeatOverrideInput{GameID: kg.GameID, JozaID: other}); fieldCodes(err)["reason"] != "seating.err.reason" {
			t.Fatalf("no reason: %v", err)
		}
		if err := k.o.OverrideJoza(k.ctx, k.director, office.SeatOverrideInput{GameID: kg.GameID, JozaID: k.players[11].ID, Reason: "x"}); fieldCodes(err)["joza"] != "seating.err.joza" {
			t.Fatalf("a player not in the game: %v", err)
		}
		if err := k.o.OverrideJoza(k.ctx, k.outsider, office.SeatOverrideInput{GameID: kg.GameID, JozaID: other, Reason: "x"}); err == nil {
			t.Fatal("an outsider overrode the 上座")
		}
		if err := k.o.OverrideJoza(k.ctx, k.director, office.SeatOverrideInput{GameID: kg.GameID, JozaID: other, Reason: "年長者を上座に"}); err != nil {
			t.Fatal(err)
		}
		j, _, err := k.o.GameJoza(k.ctx, k.director, kg.GameID)
		if err != nil || j.PlayerID != other || j.Reason != pairing.JozaByOverride || j.Note != "年長者を上座に" {
			t.Fatalf("after the override: %+v, %v", j, err)
		}
		again, _ := s.KnockoutGameByGameID(k.ctx, kg.GameID)
		if f2 := simulatedToss(t, again); f2.Tosser != f.Other || f2.Other != f.Tosser || !f2.Decided {
			t.Fatalf("the simulated toss after the override: %+v, want it tossed by %s", f2, f.Other)
		}
		g, _ := s.GameByID(k.ctx, kg.GameID)
		if f2 := simulatedToss(t, again); strconv.FormatInt(*g.SentePlayerID, 10) != f2.Sente {
			t.Fatalf("seats %d/%d do not follow the new toss's sente %s", *g.SentePlayerID, *g.GotePlayerID, f2.Sente)
		}
		// a second override supersedes; both rows stay
		if err := k.o.OverrideJoza(k.ctx, k.director, office.SeatOverrideInput{GameID: kg.GameID, JozaID: joza, Reason: "主催者が元に戻す"}); err != nil {
			t.Fatal(err)
		}
		rows, err := s.SeatOverridesOf(k.ctx, []int64{kg.GameID})
		if err != nil || len(rows) != 2 || rows[0].Reason != "年長者を上座に" || rows[1].JozaID != joza {
			t.Fatalf("override rows %+v, %v", rows, err)
		}
		if j, _, _ := k.o.GameJoza(k.ctx, k.director, kg.GameID); j.PlayerID != joza || j.Note != "主催者が元に戻す" {
			t.Fatalf("the later override not in force: %+v", j)
		}
		if err := s.MarkGameStarted(k.ctx, kg.GameID, time.Date(2026, 5, 10, 1, 0, 0, 0, time.UTC)); err != nil {
			t.Fatal(err)
		}
		if err := k.o.OverrideJoza(k.ctx, k.director, office.SeatOverrideInput{GameID: kg.GameID, JozaID: other, Reason: "x"}); fieldCodes(err)["joza"] != "seating.err.started" {
			t.Fatalf("a started game: %v", err)
		}
	})
}

// TestSeating_D_F1_ObservedTossNamesTheTosser (000 第7条1): the observed
// toss names who tossed — the 上座 player by default, the other player when
// the form says so (歩 majority then makes the tosser sente); a re-toss after
// a tie is by the same player (D-F3); a tosser not in the game is refused.
func TestSeating_D_F1_ObservedTossNamesTheTosser(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		k := newKnockoutFixture(t, s)
		order := seatOrder(t, k)
		st := seatStage(t, k, order)
		kgs, _ := s.KnockoutGamesOfStage(k.ctx, st.ID)
		fu := [5]string{"歩", "歩", "歩", "と", "と"}
		tie := [5]string{"歩", "歩", "と", "と", "立"}

		// game 1: nobody named, so the 上座 tossed
		f0 := simulatedToss(t, kgs[0])
		got, err := k.o.EnterToss(k.ctx, k.director, office.TossInput{StageID: st.ID, BracketGame: kgs[0].BracketGame, Pieces: fu})
		if err != nil || got.Tosser != f0.Tosser || got.Sente != f0.Tosser {
			t.Fatalf("default tosser: %+v, %v; want %s tossing and sente", got, err, f0.Tosser)
		}

		// game 2: the lower player tossed, as the form records
		f1 := simulatedToss(t, kgs[1])
		lower, _ := strconv.ParseInt(f1.Other, 10, 64)
		if _, err := k.o.EnterToss(k.ctx, k.director, office.TossInput{StageID: st.ID, BracketGame: kgs[1].BracketGame, Tosser: k.players[11].ID, Pieces: fu}); fieldCodes(err)["tosser"] != "knockout.err.toss_tosser" {
			t.Fatalf("a tosser not in the game: %v", err)
		}
		got, err = k.o.EnterToss(k.ctx, k.director, office.TossInput{StageID: st.ID, BracketGame: kgs[1].BracketGame, Tosser: lower, Pieces: tie})
		if err != nil || got.Tosser != f1.Other || got.Decided {
			t.Fatalf("a tie tossed by the lower player: %+v, %v", got, err)
		}
		if _, err := k.o.EnterToss(k.ctx, k.director, office.TossInput{StageID: st.ID, BracketGame: kgs[1].BracketGame, Pieces: fu}); fieldCodes(err)["tosser"] != "knockout.err.toss_same_tosser" {
			t.Fatalf("a re-toss by the other player: %v", err)
		}
		got, err = k.o.EnterToss(k.ctx, k.director, office.TossInput{StageID: st.ID, BracketGame: kgs[1].BracketGame, Tosser: lower, Pieces: fu})
		if err != nil || got.Tosser != f1.Other || got.Sente != f1.Other {
			t.Fatalf("歩 majority by the lower player: %+v, %v; want %s sente", got, err, f1.Other)
		}
		g, _ := s.GameByID(k.ctx, kgs[1].GameID)
		if *g.SentePlayerID != lower {
			t.Fatalf("sente %d, want the player who tossed 歩 majority, %d", *g.SentePlayerID, lower)
		}
		kg, _ := s.KnockoutGameByGameID(k.ctx, kgs[1].GameID)
		var obs pairing.Furigoma
		if err := json.Unmarshal([]byte(kg.Observed), &obs); err != nil || obs.Tosser != f1.Other || len(obs.Tosses) != 2 {
			t.Fatalf("stored observed toss %q", kg.Observed)
		}
		// the override is refused once a physical toss decided
		if err := k.o.OverrideJoza(k.ctx, k.director, office.SeatOverrideInput{GameID: kgs[1].GameID, JozaID: lower, Reason: "x"}); fieldCodes(err)["joza"] != "seating.err.tossed" {
			t.Fatalf("override after the toss: %v", err)
		}
	})
}

// TestSeating_PlayerFormWritesSeatFacts: the player form writes the 席次
// facts with the player in one transaction; a bad date or an over-long
// title list is named next to its field and nothing is written; an input
// without them (the CSV import) leaves them as they were.
func TestSeating_PlayerFormWritesSeatFacts(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		k := newKnockoutFixture(t, s)
		p := k.players[0]
		in := office.PlayerInput{Name: p.Name, Reading: p.Reading, Kind: "professional", Rank: "九段",
			Seat: &office.SeatFactsInput{Titles: "竜王、 名人,", RankSince: "2019-04-01", ProSince: "2003-10-01"}}
		if _, err := k.o.UpdatePlayer(k.ctx, k.admin, p.ID, in); err != nil {
			t.Fatal(err)
		}
		got, err := k.o.PlayerSeatFacts(k.ctx, p.ID)
		if err != nil || got != (office.SeatFactsInput{Titles: "竜王,名人", RankSince: "2019-04-01", ProSince: "2003-10-01"}) {
			t.Fatalf("seat facts %+v, %v", got, err)
		}
		bad := in
		bad.Rank = "八段"
		bad.Seat = &office.SeatFactsInput{Titles: strings.Repeat("竜", 201), RankSince: "2019-13-01", ProSince: "2999-01-01"}
		_, err = k.o.UpdatePlayer(k.ctx, k.admin, p.ID, bad)
		codes := fieldCodes(err)
		if codes["titles"] == "" || codes["rank_since"] != "players.err.date_format" || codes["pro_since"] != "players.err.seat_date_future" {
			t.Fatalf("bad seat facts: %v", err)
		}
		if pl, _ := s.PlayerByID(k.ctx, p.ID); pl.Rank != "九段" {
			t.Fatalf("a refused form wrote the rank %q", pl.Rank)
		}
		plain := in
		plain.Seat = nil
		if _, err := k.o.UpdatePlayer(k.ctx, k.admin, p.ID, plain); err != nil {
			t.Fatal(err)
		}
		if got, _ := k.o.PlayerSeatFacts(k.ctx, p.ID); got.Titles != "竜王,名人" {
			t.Fatalf("an input without seat facts changed them: %+v", got)
		}
	})
}

// TestSeating_D_Z1_JunniOfTheRunningTerm: two 七段 of B1 with nothing else
// apart are seated by their 順位 in the 順位戦 term running on the game's
// day (criterion 4); the simulated toss is the higher 順位's and the page
// says why. A term of another class does not count.
func TestSeating_D_Z1_JunniOfTheRunningTerm(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		k := newKnockoutFixture(t, s)
		lower, upper := k.players[0], k.players[1] // 順位 7 and 3
		for _, p := range []store.Player{lower, upper} {
			if err := s.DB(k.ctx).Model(&store.Player{}).Where("id = ?", p.ID).Updates(map[string]any{"rank": "七段", "class": "B1"}).Error; err != nil {
				t.Fatal(err)
			}
		}
		now := time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)
		term := store.Event{OrganiserID: k.event.OrganiserID, Name: "名人戦順位戦", Kind: "junisen_term", StartDate: "2026-04-01", EndDate: "2027-03-31", CreatedBy: k.event.CreatedBy, CreatedAt: now, UpdatedAt: now}
		if err := s.DB(k.ctx).Create(&term).Error; err != nil {
			t.Fatal(err)
		}
		b1 := store.LeagueClass{EventID: term.ID, Class: "B1"}
		if err := s.DB(k.ctx).Create(&b1).Error; err != nil {
			t.Fatal(err)
		}
		for _, m := range []store.LeagueMember{{ClassID: b1.ID, PlayerID: lower.ID, Junni: 7}, {ClassID: b1.ID, PlayerID: upper.ID, Junni: 3}} {
			if err := s.DB(k.ctx).Create(&m).Error; err != nil {
				t.Fatal(err)
			}
		}
		st := seatStage(t, k, []int64{lower.ID, upper.ID})
		kgs, _ := s.KnockoutGamesOfStage(k.ctx, st.ID)
		if len(kgs) != 1 {
			t.Fatalf("%d games", len(kgs))
		}
		if f := simulatedToss(t, kgs[0]); f.Tosser != strconv.FormatInt(upper.ID, 10) {
			t.Fatalf("tossed by %s, want the 順位 3 player %d", f.Tosser, upper.ID)
		}
		j, _, err := k.o.GameJoza(k.ctx, k.director, kgs[0].GameID)
		if err != nil || j.PlayerID != upper.ID || j.Reason != pairing.JozaByClassRank {
			t.Fatalf("game 上座 %+v, %v; want %d by 順位", j, err, upper.ID)
		}
		// the registry moves the 順位 3 player to B2: the B1 順位 no longer
		// compares, and the class decides
		if err := s.DB(k.ctx).Model(&store.Player{}).Where("id = ?", upper.ID).Update("class", "B2").Error; err != nil {
			t.Fatal(err)
		}
		if j, _, _ := k.o.GameJoza(k.ctx, k.director, kgs[0].GameID); j.PlayerID != lower.ID || j.Reason != pairing.JozaByClass {
			t.Fatalf("after the move to B2: %+v", j)
		}
	})
}
