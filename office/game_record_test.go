package office_test

import (
	"errors"
	"strings"
	"testing"

	"kisen/adjudication"
	"kisen/office"
	"kisen/store"
	"kisen/store/storetest"
)

func TestRecords_VersionsAndFindings(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		g := newGameFixture(t, s, "{}")
		gm := g.game()
		// D-S1: the preview finds the 千日手 and saves nothing.
		r, err := g.o.PreviewRecord(g.ctx, g.recorder, gm.ID, office.RecordInput{Text: shuffle()})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Findings.Sennichite) != 1 || r.Findings.Sennichite[0].Ply != 12 || r.Findings.Sennichite[0].Perpetual {
			t.Fatalf("findings %+v", r.Findings)
		}
		if r.Findings.Points == nil || r.Findings.Points.Sente != 27 || r.Findings.Points.Gote != 27 {
			t.Fatalf("points %+v", r.Findings.Points)
		}
		if recs, _ := s.GameRecords(g.ctx, gm.ID); len(recs) != 0 {
			t.Fatal("preview saved a record")
		}
		first, _, err := g.o.SaveRecord(g.ctx, g.recorder, gm.ID, office.RecordInput{Text: shuffle()})
		if err != nil {
			t.Fatal(err)
		}
		second, _, err := g.o.SaveRecord(g.ctx, g.arbiter, gm.ID, office.RecordInput{Text: resigned, Format: "usi"})
		if err != nil {
			t.Fatal(err)
		}
		if first.Version != 1 || second.Version != 2 || second.Moves != "7g7f 3c3d 8h2b+" || second.Plies != 3 || second.Format != "usi" {
			t.Fatalf("versions %+v %+v", first, second)
		}
		recs, _ := s.GameRecords(g.ctx, gm.ID)
		if len(recs) != 2 || recs[0].Text != shuffle() {
			t.Fatalf("append-only: %+v", recs)
		}
		if _, _, err := g.o.SaveRecord(g.ctx, g.outsider, gm.ID, office.RecordInput{Text: resigned}); !errors.Is(err, office.ErrNotFound) { // a draft is hidden
			t.Fatalf("outsider: %v", err)
		}
	})
}

func TestRecords_D_X1_FoulNeedsExplicitSave(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		g := newGameFixture(t, s, "{}")
		gm := g.game()
		// Ply 3: the rook cannot jump from 2h to 2b over gote's pieces.
		bad := "position startpos moves 7g7f 3c3d 2h2b"
		_, _, err := g.o.SaveRecord(g.ctx, g.recorder, gm.ID, office.RecordInput{Text: bad})
		var ve *office.ValidationError
		if !errors.As(err, &ve) || ve.Fields[0].Field != "accept_foul" || ve.Fields[0].Args["Ply"] != 3 {
			t.Fatalf("%v", err)
		}
		if recs, _ := s.GameRecords(g.ctx, gm.ID); len(recs) != 0 {
			t.Fatal("a record with a foul was saved without consent")
		}
		rec, r, err := g.o.SaveRecord(g.ctx, g.recorder, gm.ID, office.RecordInput{Text: bad, AcceptFoul: true})
		if err != nil || !rec.HasFoul || r.Findings.Foul == nil || r.Findings.Foul.Offender != adjudication.Sente {
			t.Fatalf("%+v %+v %v", rec, r.Findings, err)
		}
		if r.FoulMove == "" {
			t.Fatal("the foul is spelled in notation")
		}
	})
}

func TestRecords_SyntaxErrorNamesTheLine(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		g := newGameFixture(t, s, "{}")
		gm := g.game()
		kif := "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ほげ\n"
		_, err := g.o.PreviewRecord(g.ctx, g.recorder, gm.ID, office.RecordInput{Text: kif, Format: "kif"})
		var ve *office.ValidationError
		if !errors.As(err, &ve) || !strings.HasPrefix(ve.Fields[0].Code, "words.record.") || ve.Fields[0].Args["Line"] != 4 {
			t.Fatalf("%#v", err)
		}
		if _, err := g.o.PreviewRecord(g.ctx, g.recorder, gm.ID, office.RecordInput{Text: "  "}); fieldCodes(err)["record"] != "adjudication.err.record_empty" {
			t.Fatalf("%v", err)
		}
	})
}
