package office_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"testing"

	"kisen/office"
	"kisen/store"
	"kisen/store/storetest"
)

// seatOf reads one player's 席次 facts straight from the store.
func seatOf(t *testing.T, s *store.Store, number string) store.SeatFacts {
	t.Helper()
	ctx := context.Background()
	p, err := s.PlayerByNumber(ctx, number)
	if err != nil {
		t.Fatalf("player %s: %v", number, err)
	}
	fs, err := s.SeatFactsOf(ctx, []int64{p.ID})
	if err != nil {
		t.Fatal(err)
	}
	return fs[p.ID]
}

// exportedSeat returns the titles, rank_since and pro_since cells of the
// exported row of the player with number, read by header name.
func exportedSeat(t *testing.T, data []byte, number string) [3]string {
	t.Helper()
	recs, err := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("\ufeff")))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	for _, r := range recs[1:] {
		if r[col["number"]] == number {
			return [3]string{r[col["titles"]], r[col["rank_since"]], r[col["pro_since"]]}
		}
	}
	t.Fatalf("no exported row for %s", number)
	return [3]string{}
}

// D-Z1 facts (titles, promotion day, professional day) travel in the
// players CSV: the import sets them, the export writes them back.
func TestImportCSV_D_Z1_SeatFactsSetAndRoundTrip(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		o := playerOffice(s)
		ctx := context.Background()
		file := "number,name,reading,kind,rank,titles,rank_since,pro_since\n" +
			"1,竜王 名人,りゅうおう めいじん,棋士,九段,竜王、名人,2010-04-01,1990/4/1\n" +
			"2,女流 棋士,じょりゅう きし,女流棋士,女流二段,女王,,\n" +
			"3,新人,しんじん,棋士,四段,,2024-10-01,2024-10-01\n"
		sum, err := o.ImportPlayersCSV(ctx, playerAdmin, []byte(file))
		if err != nil {
			t.Fatal(err)
		}
		if sum.Created != 3 {
			t.Errorf("summary %+v", sum)
		}
		want := map[string]store.SeatFacts{
			"1": {Titles: "竜王,名人", RankSince: pd("2010-04-01"), ProSince: pd("1990-04-01")},
			"2": {Titles: "女王"},
			"3": {RankSince: pd("2024-10-01"), ProSince: pd("2024-10-01")},
		}
		for n, w := range want {
			got := seatOf(t, s, n)
			if got.Titles != w.Titles || got.RankSince != w.RankSince || got.ProSince != w.ProSince {
				t.Errorf("player %s: facts %q %v %v, want %q %v %v", n, got.Titles, got.RankSince, got.ProSince, w.Titles, w.RankSince, w.ProSince)
			}
		}
		out := exportCSV(t, o)
		if got := exportedSeat(t, out, "1"); got != [3]string{"竜王、名人", "2010-04-01", "1990-04-01"} {
			t.Errorf("exported facts of 1: %q", got)
		}
		if got := exportedSeat(t, out, "2"); got != [3]string{"女王", "", ""} {
			t.Errorf("exported facts of 2: %q", got)
		}
		// The export re-imports as it is: nothing changes.
		sum, err = o.ImportPlayersCSV(ctx, playerAdmin, out)
		if err != nil {
			t.Fatal(err)
		}
		if sum.Unchanged != 3 || sum.Updated != 0 || sum.Created != 0 {
			t.Errorf("re-import summary %+v", sum)
		}
		if again := exportCSV(t, o); !bytes.Equal(again, out) {
			t.Errorf("round trip changed the export:\n%s\n---\n%s", out, again)
		}
		// A present but empty cell clears the fact; a changed one counts as updated.
		sum, err = o.ImportPlayersCSV(ctx, playerAdmin, []byte("number,name,reading,kind,rank,titles,pro_since\n"+
			"1,竜王 名人,りゅうおう めいじん,棋士,九段,名人,\n"))
		if err != nil {
			t.Fatal(err)
		}
		if sum.Updated != 1 {
			t.Errorf("change summary %+v", sum)
		}
		got := seatOf(t, s, "1")
		if got.Titles != "名人" || !got.ProSince.IsZero() || got.RankSince != pd("2010-04-01") {
			t.Errorf("after the change: %q %v %v (rank_since absent must stay)", got.Titles, got.RankSince, got.ProSince)
		}
	})
}

// An old file without the 席次 columns still imports and leaves the
// recorded facts as they are.
func TestImportCSV_D_Z1_OldFileLeavesSeatFacts(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		o := playerOffice(s)
		ctx := context.Background()
		in := validPlayer("名人", "めいじん")
		in.Number, in.Rank = "7", "九段"
		in.Seat = &office.SeatFactsInput{Titles: "名人,王将", RankSince: "2005-04-01", ProSince: "1985-04-01"}
		mustCreate(t, o, in)
		old := "number,name,reading,kind,rank,affiliation,birth_date,master_number,master_name,master_reading,master_since\n" +
			"7,名人,めいじん,棋士,九段,関西,,,,,\n" + // affiliation changes
			"8,新人,しんじん,棋士,四段,関東,,,,,\n"
		sum, err := o.ImportPlayersCSV(ctx, playerAdmin, []byte(old))
		if err != nil {
			t.Fatal(err)
		}
		if sum.Updated != 1 || sum.Created != 1 {
			t.Errorf("summary %+v", sum)
		}
		p, _ := s.PlayerByNumber(ctx, "7")
		if p.Affiliation != "関西" {
			t.Errorf("affiliation %q: the old file was not applied", p.Affiliation)
		}
		got := seatOf(t, s, "7")
		if got.Titles != "名人,王将" || got.RankSince != pd("2005-04-01") || got.ProSince != pd("1985-04-01") {
			t.Errorf("facts changed by a file without their columns: %q %v %v", got.Titles, got.RankSince, got.ProSince)
		}
		if got := seatOf(t, s, "8"); (got != store.SeatFacts{ID: got.ID, Kind: got.Kind, Rank: got.Rank, Class: got.Class, Number: got.Number}) {
			t.Errorf("new player has facts %+v", got)
		}
	})
}

// A bad title or a bad day refuses the whole file, naming line and column,
// with the form's rules.
func TestImportCSV_D_Z1_BadSeatFactsRefuseTheFile(t *testing.T) {
	t.Parallel()
	head := "number,name,reading,kind,rank,titles,rank_since,pro_since\n"
	good := "1,甲,こう,棋士,五段,竜王,2020-01-01,2010-01-01\n"
	cases := []struct {
		name, row string
		field     string
		code      string
	}{
		{"title with a line break", "2,乙,おつ,棋士,四段,\"王\n座\",,\n", "titles", "players.err.control"},
		{"title too long", "2,乙,おつ,棋士,四段," + string(bytes.Repeat([]byte("王"), 201)) + ",,\n", "titles", "players.err.too_long"},
		{"not a day", "2,乙,おつ,棋士,四段,,2020-02-30,\n", "rank_since", "players.err.date_format"},
		{"not a date", "2,乙,おつ,棋士,四段,,,昭和60年\n", "pro_since", "players.err.date_format"},
		{"future day", "2,乙,おつ,棋士,四段,,,2030-04-01\n", "pro_since", "players.err.seat_date_future"},
	}
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		o := playerOffice(s)
		ctx := context.Background()
		in := validPlayer("既存", "きそん")
		in.Number = "1"
		in.Seat = &office.SeatFactsInput{Titles: "棋聖", ProSince: "2000-04-01"}
		mustCreate(t, o, in)
		before := exportCSV(t, o)
		for _, c := range cases {
			_, err := o.ImportPlayersCSV(ctx, playerAdmin, []byte(head+good+c.row))
			fields := playerErrors(t, err)
			if len(fields) != 1 || fields[0].Line != 3 || fields[0].Field != c.field || fields[0].Code != c.code {
				t.Errorf("%s: got %+v, want line 3 %s/%s", c.name, fields, c.field, c.code)
			}
		}
		if after := exportCSV(t, o); !bytes.Equal(before, after) {
			t.Errorf("a refused file changed the registry:\n%s\n---\n%s", before, after)
		}
	})
}
