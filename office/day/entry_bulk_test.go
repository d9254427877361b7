package day_test

import (
	"errors"
	"testing"
	"time"

	"kisen/office"
	"kisen/office/day"
	"kisen/store"
	"kisen/store/storetest"
)

// A paste previews line by line — matched (高橋悠斗 without the space, わたなべ
// あおい as a reading, 髙橋 for 高橋), created, or refused in words — and the
// confirmation enters them all in one transaction; a preview that no longer
// holds is a conflict and writes nothing (issue 23 §1).
func TestEntries_BulkPreviewAndConfirm(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newEntryFixture(t, s)
		now := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
		add := func(name, reading, rank string) store.Player {
			p := store.Player{Name: name, Reading: reading, Kind: store.PlayerAmateur, Rank: rank, CreatedAt: now, UpdatedAt: now}
			if err := s.CreatePlayer(f.ctx, &p); err != nil {
				t.Fatal(err)
			}
			return p
		}
		takahashi := add("高橋 悠斗", "たかはし ゆうと", "二段")
		watanabe := add("渡辺 葵", "わたなべ あおい", "1級")
		ichiro := add("高橋一郎", "たかはしいちろう", "三段")
		add("佐藤 蓮", "さとう れん", "")
		add("佐藤蓮", "さとうれん", "")
		text := "高橋悠斗\tたかはしゆうと\t二段\n" + // match by the name without the space
			"渡辺葵,わたなべ あおい\n" + // match, class from the registered rank
			"髙橋一郎,ワタナベアオイ\n" + // the name matches (異体字), the reading does not: create… but no rank
			"髙橋一郎,タカハシイチロウ,三段\n" + // match 高橋一郎
			"佐藤蓮,さとうれん,初段\n" + // two registered players: refused, named
			"新人,しんじん,5級,県支部,A級\n" + // create, class named
			"無読,,初段\n" + // refused: a new player needs a reading
			"高橋 悠斗,たかはし ゆうと,二段\n" // twice
		p, err := f.d.PreviewEntries(f.ctx, f.admin, day.BulkInput{EventID: f.event.ID, Text: text})
		if err != nil {
			t.Fatal(err)
		}
		type want struct {
			action string
			player int64
			code   string
		}
		wants := []want{
			{day.BulkMatch, takahashi.ID, ""},
			{day.BulkMatch, watanabe.ID, ""},
			{day.BulkRefuse, 0, "day_entry.bulk.err.rank_needed"},
			{day.BulkMatch, ichiro.ID, ""},
			{day.BulkRefuse, 0, "day_entry.bulk.err.ambiguous"},
			{day.BulkCreate, 0, ""},
			{day.BulkRefuse, 0, "day_entry.bulk.err.reading_needed"},
			{day.BulkRefuse, takahashi.ID, "day_entry.bulk.err.twice"}, // the player it would have been
		}
		if len(p.Lines) != len(wants) {
			t.Fatalf("%d lines, want %d", len(p.Lines), len(wants))
		}
		for i, w := range wants {
			l := p.Lines[i]
			if l.Line != i+1 || l.Action != w.action || l.Player.ID != w.player || (w.code != "" && (len(l.Problems) == 0 || l.Problems[0].Code != w.code)) {
				t.Errorf("line %d: %s player %d problems %+v; want %+v", l.Line, l.Action, l.Player.ID, l.Problems, w)
			}
		}
		if l := p.Lines[2]; len(l.Similar) == 0 || l.Similar[0].Player.ID != ichiro.ID {
			t.Errorf("line 3 suggests %+v, want 高橋一郎", l.Similar)
		}
		if p.Lines[1].ClassID != f.b.ID || p.Lines[5].ClassID != f.a.ID {
			t.Errorf("classes: line 2 %d, line 6 %d", p.Lines[1].ClassID, p.Lines[5].ClassID)
		}
		if p.Create != 1 || p.Match != 3 || p.Refuse != 4 {
			t.Errorf("counts %d/%d/%d", p.Create, p.Match, p.Refuse)
		}

		// Someone enters 渡辺葵 at the desk meanwhile: the preview is stale.
		if _, err := f.d.Enter(f.ctx, f.admin, day.EntryInput{EventID: f.event.ID, PlayerID: watanabe.ID}); err != nil {
			t.Fatal(err)
		}
		before := f.counts()
		if _, err := f.d.ConfirmEntries(f.ctx, f.admin, day.BulkInput{EventID: f.event.ID, Text: text, Fingerprint: p.Fingerprint}); !errors.Is(err, office.ErrConflict) {
			t.Fatalf("stale preview: %v", err)
		}
		if f.counts() != before {
			t.Fatal("a stale confirmation wrote rows")
		}
		p, err = f.d.PreviewEntries(f.ctx, f.admin, day.BulkInput{EventID: f.event.ID, Text: text})
		if err != nil || p.Lines[1].Problems[0].Code != "day_entry.bulk.err.entered" {
			t.Fatalf("preview again: %+v %v", p.Lines[1], err)
		}
		if _, err := f.d.ConfirmEntries(f.ctx, f.admin, day.BulkInput{EventID: f.event.ID, Text: text, Fingerprint: p.Fingerprint}); err != nil {
			t.Fatal(err)
		}
		ents, err := s.DayEntrantsOfEvent(f.ctx, f.event.ID)
		if err != nil {
			t.Fatal(err)
		}
		names := map[string]int64{}
		for _, e := range ents {
			names[e.Name] = e.ClassID
		}
		if len(ents) != 4 || names["高橋 悠斗"] != f.a.ID || names["高橋一郎"] != f.a.ID || names["新人"] != f.a.ID || names["渡辺 葵"] != f.b.ID {
			t.Errorf("entrants after the paste: %v", names)
		}
	})
}

// A CSV file: a header row skipped, Shift_JIS read, a neutralised cell
// read back, and a broken file named by its line.
func TestEntries_BulkCSV(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newEntryFixture(t, s)
		csv := []byte("氏名,よみ,段級位,所属,クラス\r\n新人,しんじん,5級,'=県支部,\r\n")
		p, err := f.d.PreviewEntries(f.ctx, f.admin, day.BulkInput{EventID: f.event.ID, CSV: csv})
		if err != nil || len(p.Lines) != 1 || p.Lines[0].Line != 2 || p.Lines[0].Club != "=県支部" || p.Lines[0].Action != day.BulkCreate {
			t.Fatalf("csv preview: %+v %v", p.Lines, err)
		}
		sjis := []byte{0x90, 0x56, 0x90, 0x6c, ',', 0x82, 0xb5, 0x82, 0xf1, 0x82, 0xb6, 0x82, 0xf1, ',', '5', 0x8b, 0x89, '\n'} // 新人,しんじん,5級
		if p, err := f.d.PreviewEntries(f.ctx, f.admin, day.BulkInput{EventID: f.event.ID, CSV: sjis}); err != nil || len(p.Lines) != 1 || p.Lines[0].Name != "新人" {
			t.Fatalf("Shift_JIS: %+v %v", p.Lines, err)
		}
		_, err = f.d.PreviewEntries(f.ctx, f.admin, day.BulkInput{EventID: f.event.ID, CSV: []byte("a,b\n\"c,d\n")})
		if fieldCodes(err)["file"] != "day_entry.bulk.err.csv" {
			t.Fatalf("broken csv: %v", err)
		}
	})
}
