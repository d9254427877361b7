package office

import (
	"strings"
	"testing"

	"golang.org/x/text/encoding/japanese"
)

func TestDecodePlayerCSV_UTF8BOMAndShiftJIS(t *testing.T) {
	t.Parallel()
	text := "氏名,よみ\n羽生,はぶ\n"
	sjis, _ := japanese.ShiftJIS.NewEncoder().String(text)
	cases := []struct {
		name string
		in   []byte
		want string
		ok   bool
	}{
		{"utf-8", []byte(text), text, true},
		{"utf-8 with BOM", append([]byte("\xef\xbb\xbf"), text...), text, true},
		{"shift_jis", []byte(sjis), text, true},
		{"neither", []byte("\x82\xff\xfe\x00\x81"), "", false},
	}
	for _, c := range cases {
		got, ok := decodePlayerCSV(c.in)
		if ok != c.ok || got != c.want {
			t.Errorf("%s: %q %v, want %q %v", c.name, got, ok, c.want, c.ok)
		}
	}
}

// FuzzReadPlayerCSV: the reader never panics; every problem names a line
// within the file; every row has exactly the header's known columns.
func FuzzReadPlayerCSV(f *testing.F) {
	f.Add([]byte("name,reading,kind\n甲,こう,amateur\n"))
	f.Add([]byte("\ufeff氏名,よみ,種別,段級位\r\n乙,おつ,棋士,四段\r\n"))
	f.Add([]byte("name,reading,kind\n\"a\nb\",c,d\n\"unclosed,x,y\n"))
	f.Add([]byte("name,reading\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ve := &ValidationError{}
		rows := readPlayerCSV(data, ve)
		text, _ := decodePlayerCSV(data)
		lines := strings.Count(text, "\n") + strings.Count(text, "\r") + 1
		for _, fe := range ve.Fields {
			if fe.Line < 1 || fe.Line > lines || !strings.HasPrefix(fe.Code, "players.csv.") {
				t.Fatalf("problem %+v outside the file's %d lines", fe, lines)
			}
		}
		prev := 1
		for _, r := range rows {
			if r.Line <= prev || r.Line > lines {
				t.Fatalf("row line %d after %d (file has %d lines)", r.Line, prev, lines)
			}
			prev = r.Line
			for col := range r.Cells {
				if !isPlayerCSVColumn(col) {
					t.Fatalf("row has unknown column %q", col)
				}
			}
			if r.get(PlayerFieldName) != strings.TrimSpace(r.Cells[PlayerFieldName]) {
				t.Fatal("get does not trim")
			}
		}
	})
}
