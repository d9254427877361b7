package store_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"kisen/store"
	"kisen/store/storetest"
)

// Issue 12: the lean read of an event's games (bracket and league table)
// agrees with GameSetOfEvent on every field it keeps — seats, schedule,
// start, redo chains in order (D-R3), each version and its confirmation,
// the effective result and the void marks — and reads nothing of another
// event.
func TestGameSetOfEventLean_AgreesWithGameSetOfEvent(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		db := s.DB(ctx)
		now := time.Date(2026, 11, 27, 1, 0, 0, 0, time.UTC)
		create := func(v any) {
			t.Helper()
			if err := db.Create(v).Error; err != nil {
				t.Fatalf("create %T: %v", v, err)
			}
		}
		u := store.User{Login: "director", DisplayName: "大会 責任者", PasswordHash: "x"}
		create(&u)
		org := store.Organiser{Name: "棋戦協会", Kind: "federation"}
		create(&org)
		var ps [4]store.Player
		for i := range ps {
			ps[i] = store.Player{Name: "棋士", Reading: "きし", Kind: "professional", SearchKey: "きし", CreatedAt: now, UpdatedAt: now}
			create(&ps[i])
		}
		var ev, other store.Event
		for _, e := range []*store.Event{&ev, &other} {
			*e = store.Event{OrganiserID: org.ID, Name: "棋戦", Kind: "knockout", StartDate: "2026-11-27", EndDate: "2026-11-28", CreatedBy: u.ID, CreatedAt: now, UpdatedAt: now}
			create(e)
		}
		day := "2026-11-28"
		game := func(e store.Event, sente, gote int, redoOf *int64, n int, started bool) store.Game {
			g := store.Game{EventID: e.ID, Label: "R1", SentePlayerID: &ps[sente].ID, GotePlayerID: &ps[gote].ID, Handicap: "平手",
				ScheduledOn: &day, SenteAllowanceS: 3600, GoteAllowanceS: 3600, RedoOfID: redoOf, RedoNumber: n, CreatedAt: now, UpdatedAt: now}
			if started {
				at := now.Add(time.Hour)
				g.StartedAt = &at
			}
			create(&g)
			return g
		}
		result := func(g store.Game, version int, res, reason string, confirm bool) {
			r := store.GameResult{GameID: g.ID, Version: version, Result: res, Reason: reason, Note: "記録", EnteredBy: u.ID, EnteredAt: now}
			create(&r)
			if confirm {
				create(&store.GameResultConfirmation{GameResultID: r.ID, ConfirmedBy: u.ID, ConfirmedAt: now})
			}
		}
		// A decided game, one waiting for confirmation over a confirmed
		// one, a 千日手 chain whose second redo decides it (and a void redo
		// beside them), a game with no result and no date, and a game of
		// another event.
		a := game(ev, 0, 1, nil, 0, true)
		result(a, 1, "sente_win", "resignation", true)
		b := game(ev, 2, 3, nil, 0, false)
		result(b, 1, "gote_win", "resignation", true)
		result(b, 2, "sente_win", "resignation", false)
		c := game(ev, 0, 2, nil, 0, true)
		result(c, 1, "redo", "sennichite", true)
		r2 := game(ev, 2, 0, &c.ID, 2, true)
		result(r2, 1, "gote_win", "resignation", true)
		r1 := game(ev, 2, 0, &c.ID, 1, true)
		result(r1, 1, "redo", "jishogi_redo", true)
		void := game(ev, 2, 0, &c.ID, 1, false)
		create(&store.GameVoid{GameID: void.ID, VoidedBy: u.ID, VoidedAt: now})
		d := game(ev, 1, 3, nil, 0, false)
		if err := db.Model(&store.Game{}).Where("id = ?", d.ID).Update("scheduled_on", nil).Error; err != nil {
			t.Fatal(err)
		}
		x := game(other, 0, 1, nil, 0, false)
		result(x, 1, "sente_win", "resignation", true)

		full, err := s.GameSetOfEvent(ctx, ev.ID)
		if err != nil {
			t.Fatal(err)
		}
		lean, err := s.GameSetOfEventLean(ctx, ev.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(lean.Games) != 7 || len(full.Games) != len(lean.Games) {
			t.Fatalf("games: lean %d, full %d, want 7", len(lean.Games), len(full.Games))
		}
		if _, ok := lean.Games[x.ID]; ok {
			t.Fatalf("lean set holds game %d of another event", x.ID)
		}
		kept := func(g store.Game) store.Game {
			return store.Game{ID: g.ID, EventID: g.EventID, SentePlayerID: g.SentePlayerID, GotePlayerID: g.GotePlayerID, Handicap: g.Handicap,
				ScheduledOn: g.ScheduledOn, SenteAllowanceS: g.SenteAllowanceS, GoteAllowanceS: g.GoteAllowanceS, RedoOfID: g.RedoOfID,
				RedoNumber: g.RedoNumber, StartedAt: g.StartedAt}
		}
		for id, fg := range full.Games {
			lg, ok := lean.Games[id]
			if !ok {
				t.Fatalf("lean set lacks game %d", id)
			}
			if !gameEqual(kept(fg), lg) {
				t.Errorf("game %d: lean %+v, want %+v", id, lg, kept(fg))
			}
			if lean.Void[id] != full.Void[id] {
				t.Errorf("game %d void: lean %v, full %v", id, lean.Void[id], full.Void[id])
			}
			fr, lr := full.Redos(id), lean.Redos(id)
			if len(fr) != len(lr) {
				t.Fatalf("game %d redos: lean %d, full %d", id, len(lr), len(fr))
			}
			for i := range fr {
				if fr[i].ID != lr[i].ID {
					t.Errorf("game %d redo %d: lean %d, full %d", id, i, lr[i].ID, fr[i].ID)
				}
			}
			fv, lv := full.Versions[id], lean.Versions[id]
			if len(fv) != len(lv) {
				t.Fatalf("game %d versions: lean %d, full %d", id, len(lv), len(fv))
			}
			for i := range fv {
				if fv[i].ID != lv[i].ID || fv[i].GameID != lv[i].GameID || fv[i].Version != lv[i].Version || fv[i].Result != lv[i].Result ||
					fv[i].Reason != lv[i].Reason || fv[i].Confirmed() != lv[i].Confirmed() || (lv[i].Confirmed() && *fv[i].ConfirmedBy != *lv[i].ConfirmedBy) {
					t.Errorf("game %d version %d: lean %+v, full %+v", id, i, lv[i], fv[i])
				}
			}
			fe, fok := full.Effective(id)
			le, lok := lean.Effective(id)
			if fok != lok || fe.ID != le.ID {
				t.Errorf("game %d effective: lean %d %v, full %d %v", id, le.ID, lok, fe.ID, fok)
			}
		}
		// The chain's order is redo number (D-R3): the void redo is left out.
		if rs := lean.Redos(c.ID); len(rs) != 2 || rs[0].ID != r1.ID || rs[1].ID != r2.ID {
			t.Errorf("redos of %d: %+v, want %d then %d", c.ID, rs, r1.ID, r2.ID)
		}
		if e, ok := lean.Effective(b.ID); !ok || e.Result != "gote_win" {
			t.Errorf("effective of %d: %+v %v, want the confirmed gote_win", b.ID, e, ok)
		}
	})
}

func gameEqual(a, b store.Game) bool {
	ptr := func(x, y *int64) bool { return (x == nil) == (y == nil) && (x == nil || *x == *y) }
	str := func(x, y *string) bool { return (x == nil) == (y == nil) && (x == nil || *x == *y) }
	tm := func(x, y *time.Time) bool { return (x == nil) == (y == nil) && (x == nil || x.Equal(*y)) }
	return a.ID == b.ID && a.EventID == b.EventID && ptr(a.SentePlayerID, b.SentePlayerID) && ptr(a.GotePlayerID, b.GotePlayerID) &&
		a.Handicap == b.Handicap && str(a.ScheduledOn, b.ScheduledOn) && a.SenteAllowanceS == b.SenteAllowanceS && a.GoteAllowanceS == b.GoteAllowanceS &&
		ptr(a.RedoOfID, b.RedoOfID) && a.RedoNumber == b.RedoNumber && tm(a.StartedAt, b.StartedAt) && a.Label == b.Label && a.CreatedAt.IsZero() == b.CreatedAt.IsZero()
}

// Issue 12: PlayersShownByIDs reads the same players as PlayersByIDs,
// with every column a page shows.
func TestPlayersShownByIDs_SameAsPlayersByIDs(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 27, 1, 0, 0, 0, time.UTC)
		num := "123"
		ps := []*store.Player{
			{Name: "羽生 善治", Reading: "はぶ よしはる", Kind: "professional", Rank: "九段", Class: "A", Affiliation: "関東", Number: &num,
				BirthDate: store.NewCivilDate(1970, 9, 27), CreatedAt: now, UpdatedAt: now},
			{Name: "山田 太郎", Reading: "やまだ たろう", Kind: "amateur", CreatedAt: now, UpdatedAt: now},
		}
		if err := s.CreatePlayers(ctx, ps); err != nil {
			t.Fatal(err)
		}
		ids := []int64{ps[0].ID, ps[1].ID, ps[0].ID, ps[1].ID + 1000}
		want, err := s.PlayersByIDs(ctx, ids)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.PlayersShownByIDs(ctx, ids)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || len(want) != 2 {
			t.Fatalf("players: scanned %d, gorm %d, want 2", len(got), len(want))
		}
		for id, w := range want {
			g := got[id]
			if g.Name != w.Name || g.Reading != w.Reading || g.Kind != w.Kind || g.Rank != w.Rank || g.Class != w.Class || g.Affiliation != w.Affiliation ||
				g.BirthDate != w.BirthDate || g.SearchKey != "" || !g.CreatedAt.IsZero() || !g.UpdatedAt.IsZero() ||
				(g.Number == nil) != (w.Number == nil) || (g.Number != nil && *g.Number != *w.Number) {
				t.Errorf("player %d: scanned %+v, gorm %+v", id, g, w)
			}
		}
	})
}

// Issue 12: the entrants read with their players' names (one join) gives
// the entrants EntrantsOfStages gives, in the same order, and the ID, name
// and rank PlayersShownByIDs gives for them — and nothing of another stage.
func TestEntrantsOfStagesNamed_SameAsSeparateReads(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		db := s.DB(ctx)
		now := time.Date(2026, 11, 27, 1, 0, 0, 0, time.UTC)
		create := func(v any) {
			t.Helper()
			if err := db.Create(v).Error; err != nil {
				t.Fatalf("create %T: %v", v, err)
			}
		}
		num := "45"
		ps := []*store.Player{
			{Name: "羽生 善治", Reading: "はぶ よしはる", Kind: "professional", Rank: "九段", Class: "A", Affiliation: "関東", Number: &num,
				BirthDate: store.NewCivilDate(1970, 9, 27), CreatedAt: now, UpdatedAt: now},
			{Name: "山田 太郎", Reading: "やまだ たろう", Kind: "amateur", Rank: "四段", CreatedAt: now, UpdatedAt: now},
			{Name: "佐藤 花子", Reading: "さとう はなこ", Kind: "amateur", Affiliation: "関西", CreatedAt: now, UpdatedAt: now},
			{Name: "別の 棋戦", Reading: "べつの きせん", Kind: "amateur", CreatedAt: now, UpdatedAt: now},
		}
		if err := s.CreatePlayers(ctx, ps); err != nil {
			t.Fatal(err)
		}
		u := store.User{Login: "director", DisplayName: "主催", PasswordHash: "x"}
		create(&u)
		o := store.Organiser{Name: "棋戦協会", Kind: "federation"}
		create(&o)
		ev := store.Event{OrganiserID: o.ID, Name: "王座戦", Kind: "knockout", StartDate: "2026-04-01", EndDate: "2026-04-30", CreatedBy: u.ID}
		create(&ev)
		pre := store.KnockoutStage{EventID: ev.ID, Position: 1, Name: "予選", Kind: "first_preliminary"}
		create(&pre)
		main := store.KnockoutStage{EventID: ev.ID, Position: 2, Name: "本戦", Kind: "main"}
		create(&main)
		other := store.KnockoutStage{EventID: ev.ID, Position: 3, Name: "交流", Kind: "main"}
		create(&other)
		// Seeded and unseeded, out of id order, a withdrawal, a player in
		// two stages, and a stage not asked for.
		for _, e := range []store.KnockoutEntrant{
			{StageID: main.ID, PlayerID: ps[2].ID}, {StageID: main.ID, PlayerID: ps[1].ID, Seed: 2, EnterRound: 2},
			{StageID: main.ID, PlayerID: ps[0].ID, Seed: 1, Withdrawn: true}, {StageID: pre.ID, PlayerID: ps[1].ID},
			{StageID: pre.ID, PlayerID: ps[2].ID}, {StageID: other.ID, PlayerID: ps[3].ID},
		} {
			e.CreatedAt = now
			create(&e)
		}
		sids := []int64{main.ID, pre.ID}
		want, err := s.EntrantsOfStages(ctx, sids)
		if err != nil {
			t.Fatal(err)
		}
		got, players, err := s.EntrantsOfStagesNamed(ctx, sids)
		if err != nil {
			t.Fatal(err)
		}
		if len(want[main.ID]) != 3 || len(want[pre.ID]) != 2 || len(want) != 2 {
			t.Fatalf("entrants read: %+v", want)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("entrants: named read %+v, plain read %+v", got, want)
		}
		var ids []int64
		for _, es := range want {
			for _, e := range es {
				ids = append(ids, e.PlayerID)
			}
		}
		wantPlayers, err := s.PlayersShownByIDs(ctx, ids)
		if err != nil {
			t.Fatal(err)
		}
		if len(wantPlayers) != 3 || len(players) != len(wantPlayers) {
			t.Fatalf("players: named read %d, by ids %d, want 3", len(players), len(wantPlayers))
		}
		for id, w := range wantPlayers {
			// ID, Name and Rank as read by id; nothing else.
			if want := (store.Player{ID: w.ID, Name: w.Name, Rank: w.Rank}); !reflect.DeepEqual(players[id], want) {
				t.Errorf("player %d: named read %+v, want %+v", id, players[id], want)
			}
		}
		none, nonePlayers, err := s.EntrantsOfStagesNamed(ctx, nil)
		if err != nil || len(none) != 0 || len(nonePlayers) != 0 {
			t.Errorf("no stages: %v %v %v", none, nonePlayers, err)
		}
	})
}
