package office_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kisen/office"
	"kisen/store"
	"kisen/store/storetest"
)

// kingWalk is a USI record of n plies: both kings step out and back (a
// repetition, but every move legal and readable).
func kingWalk(n int) string {
	moves := []string{"5i5h", "5a5b", "5h5i", "5b5a"}
	var b strings.Builder
	b.WriteString("position startpos moves")
	for i := 0; i < n; i++ {
		b.WriteString(" " + moves[i%4])
	}
	return b.String()
}

// Issue 21 item 7: a record longer than the longest game the rules allow
// (office.MaxRecordPlies: the 500-move rule and the series of checks it
// lets finish) is refused on preview, save and move-by-move append, with
// a message naming the limit; before, 200,000 plies (under 1 MiB) were
// stored. The longest allowed record still reads.
func TestLimits_RecordBeyondTheLongestGameRefused(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		g := newGameFixture(t, s, "{}")
		gm := g.game()
		for _, n := range []int{office.MaxRecordPlies + 1, 200000} {
			in := office.RecordInput{Text: kingWalk(n), Format: "usi"}
			if len(in.Text) > office.MaxRecordBytes {
				t.Fatalf("%d plies take %d bytes, over the byte limit: the test would not reach the ply limit", n, len(in.Text))
			}
			_, err := g.o.PreviewRecord(g.ctx, g.recorder, gm.ID, in)
			if c := fieldCodes(err)["record"]; c != "limits.err.record_too_long" {
				t.Errorf("preview of %d plies: %v, want limits.err.record_too_long", n, err)
			}
			_, _, err = g.o.SaveRecord(g.ctx, g.recorder, gm.ID, in)
			if c := fieldCodes(err)["record"]; c != "limits.err.record_too_long" {
				t.Errorf("save of %d plies: %v, want limits.err.record_too_long", n, err)
			}
		}
		if recs, _ := s.GameRecords(g.ctx, gm.ID); len(recs) != 0 {
			t.Fatalf("a refused record was stored (%d versions)", len(recs))
		}
		// The longest record allowed is read and stored.
		rec, _, err := g.o.SaveRecord(g.ctx, g.recorder, gm.ID, office.RecordInput{Text: kingWalk(office.MaxRecordPlies), Format: "usi", AcceptFoul: true})
		if err != nil || rec.Plies != office.MaxRecordPlies {
			t.Fatalf("save of %d plies: %+v %v", office.MaxRecordPlies, rec.Plies, err)
		}
		// One more move, as a relay sends it, is refused.
		_, _, err = g.o.AppendMove(g.ctx, g.recorder, gm.ID, office.MaxRecordPlies, "5a5b")
		if c := fieldCodes(err)["move"]; c != "limits.err.record_too_long" {
			t.Errorf("append move %d: %v, want limits.err.record_too_long", office.MaxRecordPlies+1, err)
		}
	})
}

// Issue 21 item 7: a result's note and a game's label have a length; the
// limit is in the office, so the web, the API and the command line refuse
// alike, and nothing is written. Before, a 7 MB note was stored.
func TestLimits_NoteAndLabelHaveALength(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		g := newGameFixture(t, s, "{}")
		gm := g.game()
		long := strings.Repeat("あ", office.MaxNoteLen+1)
		_, err := g.o.RecordResult(g.ctx, g.recorder, gm.ID, office.ResultInput{Result: office.ResultSenteWin, Reason: "resignation", Note: long})
		if c := fieldCodes(err)["note"]; c != "limits.err.too_long.note" {
			t.Errorf("note of %d characters: %v, want limits.err.too_long.note", office.MaxNoteLen+1, err)
		}
		if vs, _ := s.ResultHistory(g.ctx, gm.ID); len(vs) != 0 {
			t.Fatalf("a refused note wrote %d result versions", len(vs))
		}
		if _, err := g.o.RecordResult(g.ctx, g.recorder, gm.ID, office.ResultInput{Result: office.ResultSenteWin, Reason: "resignation", Note: long[:len(long)-len("あ")]}); err != nil {
			t.Errorf("note of exactly %d characters: %v", office.MaxNoteLen, err)
		}
		_, err = g.o.CreateGame(g.ctx, g.admin, office.GameInput{EventID: g.event.ID, Label: strings.Repeat("局", office.MaxGameLabelLen+1)})
		if c := fieldCodes(err)["label"]; c != "limits.err.too_long.label" {
			t.Errorf("label of %d characters: %v, want limits.err.too_long.label", office.MaxGameLabelLen+1, err)
		}
	})
}

// Every limit the office enforces is in the table docs/input.md prints.
func TestTextLimits_DocumentedTableMatches(t *testing.T) {
	t.Parallel()
	doc := readDoc(t, "input.md")
	for _, l := range office.TextLimits() {
		row := fmt.Sprintf("| %s | %d %s |", l.Field, l.Max, l.Unit)
		if !strings.Contains(doc, row) {
			t.Errorf("docs/input.md has no row %q", row)
		}
	}
}

func readDoc(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "docs", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
