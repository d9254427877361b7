package office_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"kisen/migrations"
	"kisen/office"
	"kisen/store"
)

// openPlayerDB opens a migrated SQLite database in dir (fuzz targets and
// benchmarks cannot use storetest, which wants a *testing.T).
func openPlayerDB(tb testing.TB, dir string) *store.Store {
	tb.Helper()
	ctx := context.Background()
	s, err := store.Open(ctx, store.Options{SQLitePath: filepath.Join(dir, "kisen.db")})
	if err != nil {
		tb.Fatal(err)
	}
	if err := migrations.Up(ctx, s.SQL(), string(s.Dialect())); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = s.Close() })
	return s
}

// FuzzImportPlayersCSV: whatever the bytes, the import never panics; it
// either fails with a ValidationError whose every entry names a line and
// leaves the registry exactly as it was, or succeeds, and then exporting
// and importing again changes nothing.
func FuzzImportPlayersCSV(f *testing.F) {
	f.Add([]byte(goodCSV))
	f.Add([]byte("name,reading,kind\n甲,こう,amateur\n"))
	f.Add([]byte("氏名,よみ,種別,段級位,クラス\n乙,おつ,棋士,四段,C2\n"))
	f.Add([]byte("number,name,reading,kind,master_number,master_since\n1,甲,こう,amateur,2,2000-01-01\n2,乙,おつ,amateur,1,2000-01-01\n"))
	f.Add([]byte("\ufeffid,name,reading,kind\n1,甲,こう,amateur\n"))
	f.Add([]byte("name,reading,kind\n\"a\nb\",c,d\n"))
	s := openPlayerDB(f, f.TempDir())
	o := playerOffice(s)
	ctx := context.Background()
	export := func(t *testing.T) []byte {
		var buf bytes.Buffer
		if err := o.ExportPlayersCSV(ctx, &buf); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if n := playerCount(t, s); n > 300 {
			// Keep the registry small so each run stays fast.
			if err := s.DB(ctx).Exec("DELETE FROM player_masters").Error; err != nil {
				t.Fatal(err)
			}
			if err := s.DB(ctx).Exec("DELETE FROM players").Error; err != nil {
				t.Fatal(err)
			}
		}
		before := export(t)
		_, err := o.ImportPlayersCSV(ctx, playerAdmin, data)
		if err != nil {
			var ve *office.ValidationError
			if !errors.As(err, &ve) || len(ve.Fields) == 0 {
				t.Fatalf("import failed without a validation error: %v", err)
			}
			for _, fe := range ve.Fields {
				if fe.Line < 1 || !strings.HasPrefix(fe.Code, "players.") {
					t.Fatalf("error without a line or message id: %+v", fe)
				}
			}
			if after := export(t); !bytes.Equal(before, after) {
				t.Fatalf("a failed import changed the registry")
			}
			return
		}
		first := export(t)
		sum, err := o.ImportPlayersCSV(ctx, playerAdmin, first)
		if err != nil {
			t.Fatalf("re-importing the export failed: %v\n%s", err, first)
		}
		if sum.Created != 0 || sum.Updated != 0 || sum.MastersChanged != 0 {
			t.Fatalf("re-importing the export changed things: %+v", sum)
		}
		if second := export(t); !bytes.Equal(first, second) {
			t.Fatalf("export → import → export differs")
		}
	})
}

// playerBenchCSV is n players; every other one has the previous player (by
// federation number) as master, and every tenth an outside teacher.
func playerBenchCSV(n int) []byte {
	var b strings.Builder
	b.WriteString("number,name,reading,kind,rank,class,affiliation,birth_date,master_number,master_name,master_reading,master_since\n")
	for i := range n {
		master := ",,,"
		switch {
		case i%10 == 9:
			master = ",町の先生,まちのせんせい,2010-04-01"
		case i%2 == 1:
			master = fmt.Sprintf("N%d,,,2010-04-01", i-1)
		}
		fmt.Fprintf(&b, "N%d,棋士 %d,きし %s,棋士,四段,C2,関東,1990-01-01,%s\n", i, i, kanaDigits(i), master)
	}
	return []byte(b.String())
}

// kanaDigits spells n with one kana per decimal digit (readings are kana).
func kanaDigits(n int) string {
	const kana = "あいうえおかきくけこ"
	digits := []rune(kana)
	var out []rune
	for _, c := range fmt.Sprint(n) {
		out = append(out, digits[c-'0'])
	}
	return string(out)
}

// BenchmarkImportPlayersCSV_10000: one 10,000-row file into an empty
// SQLite registry, in one transaction.
func BenchmarkImportPlayersCSV_10000(b *testing.B) {
	data := playerBenchCSV(10000)
	ctx := context.Background()
	for b.Loop() {
		b.StopTimer()
		o := playerOffice(openPlayerDB(b, b.TempDir()))
		b.StartTimer()
		sum, err := o.ImportPlayersCSV(ctx, playerAdmin, data)
		if err != nil || sum.Created != 10000 {
			b.Fatalf("%+v %.300v", sum, err)
		}
	}
}

// BenchmarkReimportPlayersCSV_10000: importing the export of a 10,000-row
// registry again (every row an upsert, nothing changed).
func BenchmarkReimportPlayersCSV_10000(b *testing.B) {
	ctx := context.Background()
	o := playerOffice(openPlayerDB(b, b.TempDir()))
	if _, err := o.ImportPlayersCSV(ctx, playerAdmin, playerBenchCSV(10000)); err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	if err := o.ExportPlayersCSV(ctx, &buf); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		sum, err := o.ImportPlayersCSV(ctx, playerAdmin, buf.Bytes())
		if err != nil || sum.Unchanged != 10000 {
			b.Fatalf("%+v %.300v", sum, err)
		}
	}
}
