package office_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"kisen/office"
	"kisen/store"
	"kisen/store/storetest"
)

var (
	playerNow   = time.Date(2026, 11, 21, 3, 0, 0, 0, time.UTC)
	playerAdmin = office.Actor{UserID: 1, Login: "admin", Admin: true}
	playerUser  = office.Actor{UserID: 2, Login: "user"}
	playerAnon  = office.Actor{}
)

func playerOffice(s *store.Store) *office.Office {
	return office.New(s, func() time.Time { return playerNow })
}

func validPlayer(name, reading string) office.PlayerInput {
	return office.PlayerInput{Name: name, Reading: reading, Kind: "professional", Rank: "四段", Affiliation: "関東"}
}

func mustCreate(t *testing.T, o *office.Office, in office.PlayerInput) store.Player {
	t.Helper()
	p, err := o.CreatePlayer(context.Background(), playerAdmin, in)
	if err != nil {
		t.Fatalf("create %s: %v", in.Name, err)
	}
	return p
}

// playerErrors lists (line, field, code) of a validation error.
func playerErrors(t *testing.T, err error) []office.FieldError {
	t.Helper()
	var ve *office.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("want a ValidationError, got %v", err)
	}
	if !errors.Is(err, office.ErrInvalid) {
		t.Fatalf("validation error does not wrap ErrInvalid")
	}
	return ve.Fields
}

func playerCount(t *testing.T, s *store.Store) int64 {
	t.Helper()
	_, n, err := s.SearchPlayers(context.Background(), store.PlayerSearch{})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestCreatePlayer_EveryFieldRule(t *testing.T) {
	t.Parallel()
	long := string(make([]rune, 0))
	for range 61 {
		long += "長"
	}
	cases := []struct {
		name  string
		edit  func(*office.PlayerInput)
		field string
		code  string
	}{
		{"name required", func(in *office.PlayerInput) { in.Name = "  " }, "name", "players.err.required"},
		{"name too long", func(in *office.PlayerInput) { in.Name = long }, "name", "players.err.too_long"},
		{"name with a line break", func(in *office.PlayerInput) { in.Name = "羽生\n善治" }, "name", "players.err.control"},
		{"reading required", func(in *office.PlayerInput) { in.Reading = "" }, "reading", "players.err.required"},
		{"reading in kanji", func(in *office.PlayerInput) { in.Reading = "羽生" }, "reading", "players.err.reading_kana"},
		{"reading in Latin", func(in *office.PlayerInput) { in.Reading = "habu" }, "reading", "players.err.reading_kana"},
		{"kind required", func(in *office.PlayerInput) { in.Kind = "" }, "kind", "players.err.required"},
		{"kind unknown", func(in *office.PlayerInput) { in.Kind = "名人" }, "kind", "players.err.kind"},
		{"rank required for 棋士", func(in *office.PlayerInput) { in.Rank = "" }, "rank", "players.err.required"},
		{"rank pattern", func(in *office.PlayerInput) { in.Rank = "十段" }, "rank", "players.err.rank_format"},
		{"rank of another kind", func(in *office.PlayerInput) { in.Rank = "女流二段" }, "rank", "players.err.rank_kind"},
		{"class unknown", func(in *office.PlayerInput) { in.Class = "D1" }, "class", "players.err.class"},
		{"class on a 女流棋士", func(in *office.PlayerInput) { in.Kind, in.Rank, in.Class = "womens", "女流初段", "C2" }, "class", "players.err.class_not_professional"},
		{"class on an amateur", func(in *office.PlayerInput) { in.Kind, in.Rank, in.Class = "amateur", "", "B1" }, "class", "players.err.class_not_professional"},
		{"affiliation too long", func(in *office.PlayerInput) { in.Affiliation = long }, "affiliation", "players.err.too_long"},
		{"birth date format", func(in *office.PlayerInput) { in.BirthDate = "1970-13-01" }, "birth_date", "players.err.date_format"},
		{"birth date in the future", func(in *office.PlayerInput) { in.BirthDate = "2026-11-22" }, "birth_date", "players.err.birth_future"},
		{"number format", func(in *office.PlayerInput) { in.Number = "1 2" }, "number", "players.err.number_format"},
	}
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		o := playerOffice(s)
		ctx := context.Background()
		for _, c := range cases {
			in := validPlayer("羽生 善治", "はぶ よしはる")
			c.edit(&in)
			_, err := o.CreatePlayer(ctx, playerAdmin, in)
			fields := playerErrors(t, err)
			if len(fields) != 1 || fields[0].Field != c.field || fields[0].Code != c.code || fields[0].Line != 0 {
				t.Errorf("%s: got %+v, want one error %s/%s", c.name, fields, c.field, c.code)
			}
		}
		if n := playerCount(t, s); n != 0 {
			t.Fatalf("%d players written by failed creates", n)
		}
		// Several wrong fields are all reported at once.
		_, err := o.CreatePlayer(ctx, playerAdmin, office.PlayerInput{Kind: "amateur", Class: "A", BirthDate: "x"})
		if got := len(playerErrors(t, err)); got != 4 {
			t.Errorf("4 wrong fields gave %d errors: %v", got, err)
		}
	})
}

func TestCreatePlayer_NormalisesAndKeepsNumbersUnique(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		o := playerOffice(s)
		ctx := context.Background()
		p := mustCreate(t, o, office.PlayerInput{Name: " 羽生 善治 ", Reading: "ハブ　ヨシハル", Kind: "棋士", Rank: "9段",
			Class: "ｆｒｅｅ", Number: "１７５", BirthDate: "1970/9/27"})
		if p.Name != "羽生 善治" || p.Reading != "はぶ よしはる" || p.Rank != "九段" || p.Class != store.PlayerClassFree ||
			p.NumberOrEmpty() != "175" || p.BirthDate.String() != "1970-09-27" || p.Kind != store.PlayerProfessional {
			t.Errorf("stored %+v", p)
		}
		_, err := o.CreatePlayer(ctx, playerAdmin, office.PlayerInput{Name: "別人", Reading: "べつじん", Kind: "professional", Rank: "四段", Number: "175"})
		fields := playerErrors(t, err)
		if len(fields) != 1 || fields[0].Field != "number" || fields[0].Code != "players.err.number_taken" {
			t.Errorf("duplicate number: %+v", fields)
		}
		// Updating a player may keep its own number.
		in := validPlayer("羽生 善治", "はぶ よしはる")
		in.Number, in.Rank = "175", "九段"
		up, err := o.UpdatePlayer(ctx, playerAdmin, p.ID, in)
		if err != nil || up.CreatedAt.IsZero() || up.Class != store.PlayerClassNone {
			t.Fatalf("update: %+v %v", up, err)
		}
		if _, err := o.UpdatePlayer(ctx, playerAdmin, 999999, in); !errors.Is(err, office.ErrNotFound) {
			t.Errorf("update of a missing player: %v", err)
		}
	})
}

func TestPlayers_PublicAndNonAdminAreRefused(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		o := playerOffice(s)
		ctx := context.Background()
		p := mustCreate(t, o, validPlayer("甲", "こう"))
		m := mustCreate(t, o, validPlayer("乙", "おつ"))
		csv := []byte("name,reading,kind\n丙,へい,amateur\n")
		for _, a := range []office.Actor{playerAnon, playerUser} {
			calls := map[string]error{}
			_, calls["create"] = o.CreatePlayer(ctx, a, validPlayer("丁", "てい"))
			_, calls["update"] = o.UpdatePlayer(ctx, a, p.ID, validPlayer("改", "かい"))
			calls["change master"] = o.ChangeMaster(ctx, a, p.ID, office.MasterRef{PlayerID: m.ID}, "2020-01-01")
			calls["add period"] = o.AddMasterPeriod(ctx, a, p.ID, office.MasterRef{PlayerID: m.ID}, "2000-01-01", "2001-01-01")
			calls["end master"] = o.EndMaster(ctx, a, p.ID, "2020-01-01")
			_, calls["import"] = o.ImportPlayersCSV(ctx, a, csv)
			for name, err := range calls {
				if !errors.Is(err, office.ErrForbidden) {
					t.Errorf("%s by %+v: %v, want ErrForbidden", name, a, err)
				}
			}
		}
		if n := playerCount(t, s); n != 2 {
			t.Errorf("refused calls wrote players: %d", n)
		}
		got, _ := o.Player(ctx, p.ID)
		if got.Name != "甲" {
			t.Errorf("refused update changed the name to %q", got.Name)
		}
		if l, _ := o.Lineage(ctx, p.ID, pd("2030-01-01")); len(l.History) != 0 {
			t.Errorf("refused calls wrote master periods: %+v", l.History)
		}
		// Reading is public.
		if _, err := o.SearchPlayers(ctx, "こう", 1); err != nil {
			t.Errorf("public search: %v", err)
		}
	})
}

func pd(s string) store.CivilDate {
	d, err := store.ParseCivilDate(s)
	if err != nil {
		panic(err)
	}
	return d
}
