package kifu

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"kisen/rules"
)

// caps is what a format can hold.
type caps struct {
	header, orderedHeader, times, comments, variations, result bool
	subsecond                                                  bool // CSA V3.0 T12.345
}

func capsOf(f Format) caps {
	switch f {
	case FormatKIF:
		return caps{header: true, orderedHeader: true, times: true, comments: true, variations: true, result: true}
	case FormatKI2:
		return caps{header: true, orderedHeader: true, comments: true, variations: true, result: true}
	case FormatCSA:
		return caps{header: true, times: true, comments: true, result: true, subsecond: true}
	}
	return caps{}
}

func (a caps) and(b caps) caps {
	return caps{a.header && b.header, a.orderedHeader && b.orderedHeader, a.times && b.times,
		a.comments && b.comments, a.variations && b.variations, a.result && b.result, a.subsecond && b.subsecond}
}

// summarize renders what c says a record must keep, independently of any
// writer, so two records can be compared after a round trip.
func summarize(r *Record, c caps) string {
	var b strings.Builder
	fmt.Fprintf(&b, "start %s %q\n", r.Handicap.Name(), r.Start)
	if c.header {
		var fields []string
		for _, f := range r.Header.Fields {
			if f.Key == keyHandicap {
				continue
			}
			v := f.Value
			if f.Key == KeyStart || f.Key == KeyEnd {
				if t, ok := parseRecordTime(v); ok {
					v = t.Format("2006-01-02T15:04:05")
				}
			}
			fields = append(fields, f.Key+"="+v)
		}
		if !c.orderedHeader {
			slices.Sort(fields)
		}
		fmt.Fprintf(&b, "header %q\n", fields)
	}
	if c.comments {
		fmt.Fprintf(&b, "start comments %q\n", r.StartComments)
	}
	summarizeLine(&b, r.Main, 1, c, "")
	if c.result {
		fmt.Fprintf(&b, "result %+v\n", r.Result())
	}
	return b.String()
}

func summarizeLine(b *strings.Builder, l Line, ply int, c caps, indent string) {
	for i, n := range l.Nodes {
		fmt.Fprintf(b, "%s%d %s", indent, ply+i, n.Move.USI())
		if c.times && n.HasTime {
			fmt.Fprintf(b, " %v/%v", c.clock(n.Time), c.clock(n.Total))
		}
		if c.comments && len(n.Comments) > 0 {
			fmt.Fprintf(b, " %q", n.Comments)
		}
		b.WriteByte('\n')
		if c.variations {
			for _, v := range n.Variations {
				fmt.Fprintf(b, "%svariation at %d\n", indent, ply+i)
				summarizeLine(b, v, ply+i, c, indent+"  ")
			}
		}
	}
	if l.End != nil && c.result {
		fmt.Fprintf(b, "%send %s", indent, l.End.Kind)
		if l.End.Kind == EndIllegalAction {
			fmt.Fprintf(b, " loser %s", l.End.Loser)
		}
		if c.times && l.End.HasTime {
			fmt.Fprintf(b, " %v/%v", c.clock(l.End.Time), c.clock(l.End.Total))
		}
		if c.comments && len(l.End.Comments) > 0 {
			fmt.Fprintf(b, " %q", l.End.Comments)
		}
		b.WriteByte('\n')
	}
}

// clock drops fractions of a second unless the format keeps them.
func (c caps) clock(d time.Duration) time.Duration {
	if c.subsecond {
		return d
	}
	return d.Truncate(time.Second)
}

var allFormats = []Format{FormatKIF, FormatKI2, FormatCSA, FormatUSI}

func genSet() []*Record {
	var out []*Record
	for i, h := range rules.AllHandicaps() {
		out = append(out, genRecord(uint64(100+i), genOptions{handicap: h, plies: 60 + i*7, times: true, comments: true, variations: 4, end: EndResign}))
	}
	out = append(out, genRecord(7, genOptions{plies: 120, times: true, end: EndTimeUp}))
	out = append(out, genRecord(8, genOptions{plies: 0, end: EndAbort}))
	out = append(out, genRecord(9, genOptions{plies: 33, comments: true, end: EndNone}))
	return out
}

// TestRoundTrip_AnyFormatToAnyOther: a record written in format B and
// read back keeps what B can hold; written again in C and read back it
// keeps what both B and C can hold.
func TestRoundTrip_AnyFormatToAnyOther(t *testing.T) {
	t.Parallel()
	for i, orig := range genSet() {
		for _, b := range allFormats {
			textB, err := Write(orig, b)
			if err != nil {
				t.Fatalf("record %d: write %s: %v", i, b, err)
			}
			rb, err := Read([]byte(textB), "", b)
			if err != nil {
				t.Fatalf("record %d: read back %s: %v\n%s", i, b, err, textB)
			}
			cb := capsOf(b)
			if got, want := summarize(rb.Record, cb), summarize(orig, cb); got != want {
				t.Fatalf("record %d via %s differs:\n%s", i, b, diffLines(want, got))
			}
			for _, c := range allFormats {
				textC, err := Write(rb.Record, c)
				if err != nil {
					t.Fatalf("record %d: %s then write %s: %v", i, b, c, err)
				}
				rc, err := Read([]byte(textC), "", FormatUnknown) // detected from content
				if err != nil {
					t.Fatalf("record %d: %s then read %s: %v\n%s", i, b, c, err, textC)
				}
				// With no moves KIF and KI2 look alike and read alike.
				headerOnly := len(rb.Record.Main.Nodes) == 0 && c == FormatKI2 && rc.Format == FormatKIF
				if rc.Format != c && !headerOnly {
					t.Fatalf("record %d: %s text detected as %s", i, c, rc.Format)
				}
				cc := cb.and(capsOf(c))
				if got, want := summarize(rc.Record, cc), summarize(orig, cc); got != want {
					t.Fatalf("record %d via %s then %s differs:\n%s", i, b, c, diffLines(want, got))
				}
			}
		}
	}
}

func diffLines(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\nwant %s\ngot  %s", i+1, a, b)
		}
	}
	return "(equal)"
}

// TestRoundTrip_EveryTerminalWord: each terminal kind survives every
// format that has a word for it, and keeps its result (who won, why) in
// the others as documented (Losses).
func TestRoundTrip_EveryTerminalWord(t *testing.T) {
	t.Parallel()
	for k := EndResign; k < numEndKinds; k++ {
		for _, plies := range []int{10, 11} {
			orig := genRecord(uint64(k)*7+uint64(plies), genOptions{plies: plies, end: k})
			want := orig.Result()
			for _, f := range []Format{FormatKIF, FormatKI2, FormatCSA} {
				text, err := Write(orig, f)
				if err != nil {
					t.Fatal(err)
				}
				back, err := Read([]byte(text), "", f)
				if err != nil {
					t.Fatalf("%s via %s: %v\n%s", k, f, err, text)
				}
				got := back.Record.Result()
				lossy := false
				for _, l := range Losses(orig, f) {
					lossy = lossy || strings.HasPrefix(l, "result")
				}
				if lossy {
					if got.Outcome != want.Outcome {
						t.Errorf("%s via %s: outcome %s, want %s", k, f, got.Outcome, want.Outcome)
					}
					continue
				}
				if got != want {
					t.Errorf("%s (%d plies) via %s: result %+v, want %+v\n%s", k, plies, f, got, want, text)
				}
			}
		}
	}
}
