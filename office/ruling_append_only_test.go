package office_test

import (
	"strconv"
	"testing"
	"time"

	"kisen/office"
	"kisen/store"
	"kisen/store/storetest"
)

// Rulings are written once, whole (migration 00080 refuses an UPDATE): a
// foul-loss ruling, and an appeal that supersedes it, are stored with the
// result version they produced, and the adjudication facts of that version
// already name the ruling by its id (D-K1).
func TestRulings_D_K1_FoulLossStoredWithItsResult(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		g := newGameFixture(t, s, "{}")
		gm := g.game()
		check := func(r store.Ruling, ended *office.Ended) {
			t.Helper()
			if ended == nil || r.ResultID == nil || *r.ResultID != ended.Result.ID {
				t.Fatalf("ruling %d: result %v, ended %+v", r.ID, r.ResultID, ended)
			}
			rows, err := s.Rulings(g.ctx, gm.ID)
			if err != nil {
				t.Fatal(err)
			}
			last := rows[len(rows)-1]
			if last.ID != r.ID || last.ResultID == nil || *last.ResultID != ended.Result.ID {
				t.Fatalf("stored %+v, want id %d with result %d", last.Ruling, r.ID, ended.Result.ID)
			}
			facts, _, ok, err := g.o.LastAdjudication(g.ctx, gm.ID)
			if err != nil || !ok || len(facts.Rulings) != len(rows) {
				t.Fatalf("facts %+v %v %v, want %d rulings", facts.Rulings, ok, err, len(rows))
			}
			for i, fr := range facts.Rulings {
				if fr.ID != strconv.FormatInt(rows[i].ID, 10) {
					t.Fatalf("facts ruling %d is %s, stored %d", i, fr.ID, rows[i].ID)
				}
			}
		}
		loss, ended, err := g.o.AddRuling(g.ctx, g.arbiter, gm.ID, office.RulingInput{Kind: "foul_loss", Player: "gote", Reason: "二歩"})
		if err != nil {
			t.Fatal(err)
		}
		check(loss, ended)
		g.clock.Advance(time.Minute)
		appeal, ended, err := g.o.AddRuling(g.ctx, g.arbiter, gm.ID, office.RulingInput{Kind: "warning", Player: "gote", Reason: "異議により警告に改める", Supersedes: loss.ID, Version: ended.Result.Version})
		if err != nil {
			t.Fatal(err)
		}
		check(appeal, ended)
		g.clock.Advance(time.Minute)
		note, ended, err := g.o.AddRuling(g.ctx, g.arbiter, gm.ID, office.RulingInput{Kind: "environment", Reason: "空調を弱めた"})
		if err != nil || ended != nil || note.ResultID != nil || note.ID <= appeal.ID {
			t.Fatalf("plain ruling %+v %+v %v", note, ended, err)
		}
	})
}
