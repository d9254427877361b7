package office_test

import (
	"errors"
	"fmt"
	"strconv"
	"testing"

	"kisen/office"
	"kisen/pairing"
	"kisen/store"
	"kisen/store/storetest"
)

// handicapEvent is a knockout event of an organiser of the given kind, with
// its director.
func handicapEvent(t *testing.T, f *fixture, kind, settings string) (office.Actor, store.Organiser) {
	t.Helper()
	_, admin := f.user("admin", "correct horse battery", true)
	now := f.clock.Now()
	org := store.Organiser{Name: "市民将棋クラブ", Kind: kind, Settings: settings, CreatedAt: now, UpdatedAt: now}
	if err := f.s.CreateOrganiser(f.ctx, &org); err != nil {
		t.Fatal(err)
	}
	return admin, org
}

// twoPlayerGame plays a one-stage event of two amateurs with the given
// ranks and returns its one game (each event has one stage: a stage before
// another would need qualifiers).
func twoPlayerGame(t *testing.T, f *fixture, admin office.Actor, e store.Event, n int, rankA, rankB string) (store.Game, store.Player, store.Player) {
	t.Helper()
	var ps []store.Player
	for i, r := range []string{rankA, rankB} {
		p, err := f.o.CreatePlayer(f.ctx, admin, office.PlayerInput{Name: fmt.Sprintf("会員 %d-%d", n, i), Reading: "かいいん", Kind: "amateur", Rank: r})
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	st, err := f.o.CreateStage(f.ctx, admin, office.StageInput{EventID: e.ID, Name: "決勝" + strconv.Itoa(n), Kind: "main"})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if _, err := f.o.AddEntrant(f.ctx, admin, office.EntrantInput{StageID: st.ID, PlayerID: p.ID}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.o.DrawStage(f.ctx, admin, office.DrawInput{StageID: st.ID, Seed: strconv.Itoa(n), DrawDate: "2026-05-01"}); err != nil {
		t.Fatal(err)
	}
	if err := f.o.PublishStage(f.ctx, admin, st.ID); err != nil {
		t.Fatal(err)
	}
	kgs, err := f.s.KnockoutGamesOfStage(f.ctx, st.ID)
	if err != nil || len(kgs) != 1 {
		t.Fatalf("stage of two: %d games, %v", len(kgs), err)
	}
	g, err := f.s.GameByID(f.ctx, kgs[0].GameID)
	if err != nil {
		t.Fatal(err)
	}
	return g, ps[0], ps[1]
}

// TestKnockoutHandicap_D_H_AmateurByRankGap: an amateur organiser's event
// starts each game by 004's table (expected values written from the seed,
// not from pairing): the lower rank is sente at one step, the higher rank
// (上手) gives a handicap and moves first from two, equal ranks toss.
func TestKnockoutHandicap_D_H_AmateurByRankGap(t *testing.T) {
	t.Parallel()
	cases := []struct {
		a, b     string
		handicap string
		sente    string // "a", "b" or "toss"
	}{
		{"アマ三段", "アマ三段", "平手", "toss"},
		{"アマ三段", "アマ二段", "平手", "b"},
		{"1級", "初段", "平手", "a"},
		{"アマ四段", "アマ二段", "香落ち", "a"},
		{"3級", "アマ初段", "角落ち", "b"},
		{"アマ五段", "アマ初段", "飛車落ち", "a"},
		{"アマ初段", "5級", "飛香落ち", "a"},
		{"アマ六段", "2級", "二枚落ち", "a"},
		{"アマ七段", "1級", "二枚落ち", "a"},
		{"9級", "1級", "四枚落ち", "b"},
		{"10級", "アマ初段", "六枚落ち", "b"},
		{"15級", "アマ五段", "六枚落ち", "b"},
	}
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		admin, org := handicapEvent(t, f, office.OrganiserAmateur, "{}")
		for i, c := range cases {
			e := f.event(admin, org.ID, "市民将棋大会 "+strconv.Itoa(i))
			g, a, b := twoPlayerGame(t, f, admin, e, i+1, c.a, c.b)
			if g.Handicap != c.handicap {
				t.Errorf("%s vs %s: handicap %q, want %q", c.a, c.b, g.Handicap, c.handicap)
			}
			kg, err := s.KnockoutGameByGameID(f.ctx, g.ID)
			if err != nil {
				t.Fatal(err)
			}
			switch c.sente {
			case "toss":
				if kg.SenteBy != pairing.SenteByFurigoma || kg.Furigoma == "{}" {
					t.Errorf("%s vs %s: equal ranks toss, got %s %s", c.a, c.b, kg.SenteBy, kg.Furigoma)
				}
			case "a", "b":
				want := a.ID
				if c.sente == "b" {
					want = b.ID
				}
				if kg.SenteBy != pairing.SenteByHandicap || *g.SentePlayerID != want {
					t.Errorf("%s vs %s: sente %d by %s, want %d by the rank gap", c.a, c.b, *g.SentePlayerID, kg.SenteBy, want)
				}
			}
		}
	})
}

// TestKnockoutHandicap_D_H_SwitchAndOwnTable: a federation event plays
// even games by 振り駒 unless its settings turn the table on; an event's
// own table (saved through SetEventHandicap, validated by pairing) wins
// over 004's.
func TestKnockoutHandicap_D_H_SwitchAndOwnTable(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		admin, org := handicapEvent(t, f, office.OrganiserFederation, "{}")
		g, _, _ := twoPlayerGame(t, f, admin, f.event(admin, org.ID, "第一回"), 1, "アマ四段", "アマ初段")
		e := f.event(admin, org.ID, "第二回")
		if g.Handicap != "平手" {
			t.Fatalf("federation event, no setting: handicap %q, want 平手", g.Handicap)
		}
		for _, bad := range []struct{ table, code string }{
			{"1 平手\n2 香落ち", "knockout.err.handicap.first_gap"},         // must start at 0
			{"0 振り駒\n2 香落ち\n2 角落ち", "knockout.err.handicap.gap_order"}, // gaps increase
			{"0 振り駒\n1 七枚落ち", "knockout.err.handicap.unknown"},         // unknown name
			{"0 振り駒\nx 平手", "knockout.err.handicap_line"},
		} {
			err := f.o.SetEventHandicap(f.ctx, admin, office.HandicapInput{EventID: e.ID, ByRank: true, Table: bad.table})
			if fieldCodes(err)["table"] != bad.code {
				t.Errorf("table %q: %v, want %s", bad.table, err, bad.code)
			}
		}
		// Own table: every gap of 1 or more is 角落ち.
		if err := f.o.SetEventHandicap(f.ctx, admin, office.HandicapInput{EventID: e.ID, ByRank: true, Table: "0 振り駒\n1 角落ち"}); err != nil {
			t.Fatal(err)
		}
		g, a, _ := twoPlayerGame(t, f, admin, e, 2, "アマ四段", "アマ初段")
		if g.Handicap != "角落ち" || *g.SentePlayerID != a.ID {
			t.Fatalf("own table: %q sente %d, want 角落ち with the higher rank %d moving first", g.Handicap, *g.SentePlayerID, a.ID)
		}
		h, err := f.o.EventHandicap(f.ctx, admin, e.ID)
		if err != nil || !h.On || h.Default || len(h.Table) != 2 {
			t.Fatalf("stored handicap settings %+v, %v", h, err)
		}
		_, outsider := f.user("outsider", "correct horse battery", false)
		if err := f.o.SetEventHandicap(f.ctx, outsider, office.HandicapInput{EventID: e.ID, Table: "0 振り駒"}); !errors.Is(err, office.ErrForbidden) {
			t.Fatalf("outsider edits the table: %v", err)
		}
	})
}
