package office_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"strings"
	"testing"

	"golang.org/x/text/encoding/japanese"

	"kisen/office"
	"kisen/store"
	"kisen/store/storetest"
)

func exportCSV(t *testing.T, o *office.Office) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := o.ExportPlayersCSV(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

const goodCSV = `number,name,reading,kind,rank,class,affiliation,birth_date,master_number,master_name,master_reading,master_since
100,師匠 太郎,ししょう たろう,棋士,九段,A,関東,1950-01-01,,,,
101,弟子 一郎,でし いちろう,棋士,四段,C2,関東,2000-05-05,100,,,2012-04-01
102,弟子 花子,でし はなこ,女流棋士,女流初段,,関西,,100,,,2015-04-01
,アマ 次郎,あま じろう,amateur,アマ三段,,東京都,,,町の 先生,まちのせんせい,2010-01-01
`

func TestImportCSV_CreatesPlayersAndLineage(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		o := playerOffice(s)
		ctx := context.Background()
		sum, err := o.ImportPlayersCSV(ctx, playerAdmin, []byte(goodCSV))
		if err != nil {
			t.Fatal(err)
		}
		if sum.Rows != 4 || sum.Created != 4 || sum.Updated != 0 || sum.MastersChanged != 3 {
			t.Errorf("summary %+v", sum)
		}
		master, err := s.PlayerByNumber(ctx, "100")
		if err != nil {
			t.Fatal(err)
		}
		taro, _ := s.PlayerByNumber(ctx, "101")
		hanako, _ := s.PlayerByNumber(ctx, "102")
		if ok, _ := o.IsMasterOf(ctx, master.ID, taro.ID, pd("2012-04-01")); !ok {
			t.Error("master from the same file not linked")
		}
		if ok, _ := o.AreFellowDisciples(ctx, taro.ID, hanako.ID, pd("2015-04-01")); !ok {
			t.Error("fellow disciples not linked")
		}
		if ok, _ := o.AreFellowDisciples(ctx, taro.ID, hanako.ID, pd("2015-03-31")); ok {
			t.Error("fellow disciples before the second joined")
		}
	})
}

// D-A checks need every master; a file with bad rows must not leave half a
// registry behind, and must name every bad row.
func TestImportCSV_BadRowsAmongGoodAllReportedNothingWritten(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		o := playerOffice(s)
		ctx := context.Background()
		mustCreate(t, o, validPlayer("既存", "きそん"))
		before := exportCSV(t, o)
		file := "name,reading,kind,rank,class,birth_date\n" +
			"良い 一,よい いち,amateur,,,\n" + // line 2 good
			"悪い 二,わるい に,amateur,,A,\n" + // line 3: class on an amateur
			"良い 三,よい さん,professional,五段,B1,1980-01-01\n" + // line 4 good
			"悪い 四,warui,amateur,,,\n" + // line 5: reading not kana
			"\"悪い\n五\",わるい ご,amateur,,,\n" + // lines 6–7: a line break inside the name
			"悪い 六,わるい ろく,professional,四段,,1999-02-30\n" // line 8: no such day
		_, err := o.ImportPlayersCSV(ctx, playerAdmin, []byte(file))
		fields := playerErrors(t, err)
		want := []office.FieldError{
			{Line: 3, Field: "class", Code: "players.err.class_not_professional"},
			{Line: 5, Field: "reading", Code: "players.err.reading_kana"},
			{Line: 6, Field: "name", Code: "players.err.control"},
			{Line: 8, Field: "birth_date", Code: "players.err.date_format"},
		}
		if len(fields) != len(want) {
			t.Fatalf("got %d errors %+v, want %d", len(fields), fields, len(want))
		}
		for i, w := range want {
			if fields[i].Line != w.Line || fields[i].Field != w.Field || fields[i].Code != w.Code {
				t.Errorf("error %d = %+v, want %+v", i, fields[i], w)
			}
		}
		if after := exportCSV(t, o); !bytes.Equal(before, after) {
			t.Errorf("a failed import changed the registry:\n%s\n---\n%s", before, after)
		}
	})
}

func TestImportCSV_FileErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, file string
		line       int
		field      string
		code       string
	}{
		{"empty", "", 1, "", "players.csv.empty"},
		{"header only", "name,reading,kind\n", 1, "", "players.csv.empty"},
		{"missing column", "name,reading\n甲,こう\n", 1, "kind", "players.csv.header_missing"},
		{"unknown column", "name,reading,kind,colour\n", 1, "colour", "players.csv.header_unknown"},
		{"column twice", "name,reading,kind,氏名\n", 1, "name", "players.csv.header_twice"},
		{"bad quote", "name,reading,kind\n甲,こう,amateur\n\"乙,おつ,amateur\n", 3, "", "players.csv.syntax"},
		{"short row", "name,reading,kind\n甲,こう\n", 2, "", "players.csv.columns"},
		{"not text", "name,reading,kind\n\xff\xfe\xfd,x,y\n", 1, "", "players.csv.encoding"},
		{"unknown id", "id,name,reading,kind\n4242,甲,こう,amateur\n", 2, "id", "players.csv.id_unknown"},
		{"number twice", "number,name,reading,kind\n7,甲,こう,amateur\n7,乙,おつ,amateur\n", 3, "number", "players.csv.number_twice"},
		{"master missing", "name,reading,kind,master_number,master_since\n甲,こう,amateur,999,2000-01-01\n", 2, "master_number", "players.csv.master_not_found"},
		{"master without date", "number,name,reading,kind,master_number\n1,甲,こう,amateur,\n2,乙,おつ,amateur,1\n", 3, "master_since", "players.err.required"},
		{"self master", "number,name,reading,kind,master_number,master_since\n1,甲,こう,amateur,1,2000-01-01\n", 2, "master_number", "players.err.master_self"},
		{"cycle in file", "number,name,reading,kind,master_number,master_since\n1,甲,こう,amateur,2,2000-01-01\n2,乙,おつ,amateur,1,2000-01-01\n", 3, "master_number", "players.err.master_cycle"},
	}
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		o := playerOffice(s)
		ctx := context.Background()
		for _, c := range cases {
			_, err := o.ImportPlayersCSV(ctx, playerAdmin, []byte(c.file))
			fields := playerErrors(t, err)
			if len(fields) != 1 || fields[0].Line != c.line || fields[0].Field != c.field || fields[0].Code != c.code {
				t.Errorf("%s: got %+v, want line %d %s/%s", c.name, fields, c.line, c.field, c.code)
			}
		}
		if n := playerCount(t, s); n != 0 {
			t.Errorf("failed imports wrote %d players", n)
		}
	})
}

func TestImportCSV_RoundTripAndUpsert(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		o := playerOffice(s)
		ctx := context.Background()
		if _, err := o.ImportPlayersCSV(ctx, playerAdmin, []byte(goodCSV)); err != nil {
			t.Fatal(err)
		}
		first := exportCSV(t, o)
		if !bytes.HasPrefix(first, []byte("\ufeffid,number,name,")) {
			t.Fatalf("export does not start with a BOM and the header: %q", first[:20])
		}
		sum, err := o.ImportPlayersCSV(ctx, playerAdmin, first)
		if err != nil {
			t.Fatal(err)
		}
		if sum.Unchanged != 4 || sum.Created+sum.Updated+sum.MastersChanged != 0 {
			t.Errorf("re-importing the export changed things: %+v", sum)
		}
		if second := exportCSV(t, o); !bytes.Equal(first, second) {
			t.Errorf("export → import → export differs:\n%s\n---\n%s", first, second)
		}

		// Upsert by federation number: a row without id but with a known
		// number updates that player; the master change opens a period.
		up := "number,name,reading,kind,rank,class,master_name,master_reading,master_since\n" +
			"101,弟子 一郎,でし いちろう,棋士,五段,C1,新しい 先生,あたらしいせんせい,2020-04-01\n"
		sum, err = o.ImportPlayersCSV(ctx, playerAdmin, []byte(up))
		if err != nil {
			t.Fatal(err)
		}
		if sum.Updated != 1 || sum.Created != 0 || sum.MastersChanged != 1 {
			t.Errorf("upsert summary %+v", sum)
		}
		p, _ := s.PlayerByNumber(ctx, "101")
		if p.Rank != "五段" || p.Class != store.PlayerClassC1 {
			t.Errorf("upsert did not update: %+v", p)
		}
		h, _ := s.MasterPeriods(ctx, p.ID)
		if len(h) != 2 || h[0].ToDate.String() != "2020-03-31" || h[1].TeacherName != "新しい 先生" {
			t.Errorf("history after the import: %+v", h)
		}

		// A second database: the export with the id column blanked imports
		// into an empty registry and exports the same rows (but for ids).
		other := playerOffice(storetest.SQLite(t))
		blanked := blankIDs(t, exportCSV(t, o))
		if _, err := other.ImportPlayersCSV(ctx, playerAdmin, blanked); err != nil {
			t.Fatal(err)
		}
		if got := blankIDs(t, exportCSV(t, other)); !bytes.Equal(got, blanked) {
			t.Errorf("copy differs:\n%s\n---\n%s", blanked, got)
		}
	})
}

// blankIDs clears the id and master_id columns of an export.
func blankIDs(t *testing.T, data []byte) []byte {
	t.Helper()
	recs, err := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("\ufeff")))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs[1:] {
		r[0], r[9] = "", ""
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	_ = w.WriteAll(recs)
	return buf.Bytes()
}

func TestImportCSV_ShiftJISAndBOM(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		o := playerOffice(s)
		ctx := context.Background()
		text := "氏名,よみ,種別,段級位\r\n羽生 善治,はぶ よしはる,棋士,九段\r\n"
		sjis, err := japanese.ShiftJIS.NewEncoder().String(text)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := o.ImportPlayersCSV(ctx, playerAdmin, []byte(sjis)); err != nil {
			t.Fatalf("Shift_JIS file: %v", err)
		}
		bom := "\ufeffname,reading,kind\n藤井 聡太,ふじい そうた,amateur\n"
		if _, err := o.ImportPlayersCSV(ctx, playerAdmin, []byte(bom)); err != nil {
			t.Fatalf("UTF-8 with BOM: %v", err)
		}
		page, err := o.SearchPlayers(ctx, "ﾊﾌﾞ", 1)
		if err != nil || page.Total != 1 || page.Players[0].Name != "羽生 善治" {
			t.Errorf("Shift_JIS name not stored as text: %+v %v", page, err)
		}
		if page, _ := o.SearchPlayers(ctx, "ふじい", 1); page.Total != 1 || strings.HasPrefix(page.Players[0].Name, "\ufeff") {
			t.Errorf("BOM kept in the data: %+v", page.Players)
		}
	})
}

// The example in docs/players-and-lineage.md imports as documented.
func TestImportCSV_DocumentedExample(t *testing.T) {
	t.Parallel()
	const example = "id,number,name,reading,kind,rank,class,affiliation,birth_date,master_id,master_number,master_name,master_reading,master_since,titles,rank_since,pro_since\n" +
		",100,師匠 太郎,ししょう たろう,棋士,九段,A,関東,1950-01-01,,,,,,王将、棋聖,1985-04-01,1968-04-01\n" +
		",101,弟子 一郎,でし いちろう,棋士,四段,C2,関東,2000-05-05,,100,,,2012-04-01,,2020-10-01,2020-10-01\n" +
		",,アマ 次郎,あま じろう,amateur,アマ三段,,東京都,,,,町の 先生,まちのせんせい,2010-01-01,,,\n"
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		o := playerOffice(s)
		sum, err := o.ImportPlayersCSV(context.Background(), playerAdmin, []byte(example))
		if err != nil || sum.Created != 3 || sum.MastersChanged != 2 {
			t.Fatalf("%+v %v", sum, err)
		}
		if f := seatOf(t, s, "100"); f.Titles != "王将,棋聖" || f.ProSince != pd("1968-04-01") {
			t.Errorf("the example's facts: %+v", f)
		}
	})
}
