package web

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"kisen/office"
	"kisen/office/day"
	"kisen/rules/kifu"
	"kisen/store/storetest"
	dayroom "kisen/web/day"
	"kisen/web/site"
)

// Issue 12 part 5, the remaining public pages: a game's page and its
// record downloads, an event's and a stage's records zip, the handicap
// page and the embeds answer 304 to their own tag until something they
// show is written, then 200 with a new tag.
func TestCache_DownloadsEmbedsAndGamePages304UntilAWrite(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f := newCacheFixture(t, a)
		game := saveCorpusGame(t, a, f.g, readCorpus(t)[0], "2回戦")
		if err := a.srv.Office.SetOrganiserEmbedOrigins(ctx, f.g.admin, f.g.event.OrganiserID, "https://club.example.jp"); err != nil {
			t.Fatal(err)
		}
		// A record on a game of the bracket, for the stage's zip.
		roots, err := a.store.GameIDsOfStage(ctx, f.stage)
		if err != nil || len(roots) == 0 {
			t.Fatalf("stage games: %v %v", roots, err)
		}
		if _, _, err := a.srv.Office.SaveRecord(ctx, f.g.admin, roots[0], office.RecordInput{Text: "position startpos moves 7g7f 3c3d\n", Format: kifu.FormatUSI.String()}); err != nil {
			t.Fatal(err)
		}
		gp, ev := site.GameURL(game.ID), "/events/"+i64s(f.g.event.ID)
		records := []string{gp + "/record.kif", gp + "/record.kif?charset=sjis", gp + "/record.csa", gp + "/record.usi",
			ev + "/records.zip?format=kif", ev + "/records.zip?format=csa", "/stages/" + i64s(f.stage) + "/records.zip?format=kif"}
		pages := []string{gp, ev + "/handicap"}
		embeds := []string{"/embed/stages/" + i64s(f.stage), "/embed/league/" + i64s(f.class)}
		public := f.browser()
		all := append(append(append([]string{}, records...), pages...), embeds...)
		tags := f.tags(t, public, all)
		f.notModified(t, public, tags, true)

		// A 304 of an embed keeps it framable: the browser takes the 304's
		// headers into the page it keeps.
		for _, p := range embeds {
			resp, _ := f.request(public, p, "If-None-Match", tags[p])
			if resp.StatusCode != http.StatusNotModified || resp.Header.Get("X-Frame-Options") != "" ||
				!strings.Contains(resp.Header.Get("Content-Security-Policy"), "frame-ancestors https://club.example.jp") {
				t.Errorf("GET %s 304: %d, X-Frame-Options %q, CSP %q; want the embed's framing", p, resp.StatusCode,
					resp.Header.Get("X-Frame-Options"), resp.Header.Get("Content-Security-Policy"))
			}
		}
		// Served again from the render cache, a record is the same file.
		for _, p := range records[:4] {
			r1, b1 := f.request(f.browser(), p)
			r2, b2 := f.request(f.browser(), p)
			if r1.StatusCode != http.StatusOK || b1 != b2 || r1.Header.Get("Content-Disposition") != r2.Header.Get("Content-Disposition") || r2.Header.Get("Content-Disposition") == "" {
				t.Errorf("GET %s twice: %d, the same file %v, disposition %q / %q", p, r1.StatusCode, b1 == b2,
					r1.Header.Get("Content-Disposition"), r2.Header.Get("Content-Disposition"))
			}
		}

		// A player's name is in every record's header and on the pages.
		if err := a.store.DB(ctx).Exec("UPDATE players SET name = ? WHERE id = ?", "羽生 善治 永世七冠", f.g.sente.ID).Error; err != nil {
			t.Fatal(err)
		}
		f.notModified(t, public, tags, false)
		tags = f.tags(t, public, all)
		if resp, body := f.request(public, records[0]); resp.StatusCode != http.StatusOK || !strings.Contains(body, "永世七冠") {
			t.Errorf("the KIF after the rename: %d, lacks the new name", resp.StatusCode)
		}

		// The embed's origins are the organiser's: a new list, a new tag,
		// and the new origin in the frame-ancestors.
		if err := a.srv.Office.SetOrganiserEmbedOrigins(ctx, f.g.admin, f.g.event.OrganiserID, "https://shibu.example.jp"); err != nil {
			t.Fatal(err)
		}
		for _, p := range embeds {
			resp, _ := f.request(public, p, "If-None-Match", tags[p])
			if resp.StatusCode != http.StatusOK || resp.Header.Get("ETag") == tags[p] ||
				!strings.Contains(resp.Header.Get("Content-Security-Policy"), "frame-ancestors https://shibu.example.jp") {
				t.Errorf("GET %s after the origins changed: %d, ETag %q (was %q), CSP %q", p, resp.StatusCode,
					resp.Header.Get("ETag"), tags[p], resp.Header.Get("Content-Security-Policy"))
			}
		}

		// A result on the game: its page, its records and the event's zip
		// change; the league embed (another event) does not.
		tags = f.tags(t, public, all)
		if _, err := a.srv.Office.RecordResult(ctx, f.g.admin, game.ID, office.ResultInput{Result: office.ResultSenteWin, Reason: office.ReasonResignation}); err != nil {
			t.Fatal(err)
		}
		changed := map[string]string{}
		for _, p := range append(append([]string{}, records...), gp) {
			changed[p] = tags[p] // the stage's zip too: the event's revision moved
		}
		f.notModified(t, public, changed, false)
		f.notModified(t, public, map[string]string{embeds[1]: tags[embeds[1]]}, true)
	})
}

// A draft's records, game page, handicap page and embeds stay 404 to the
// public whatever the guess, and never carry a tag.
func TestCache_DraftDownloadsAndEmbedsStay404(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f := newCacheFixture(t, a)
		g, err := a.srv.Office.CreateGame(ctx, f.g.admin, office.GameInput{EventID: f.draft, Label: "1回戦", SenteID: &f.g.sente.ID, GoteID: &f.g.gote.ID, AllowanceMinutes: 60})
		if err != nil {
			t.Fatal(err)
		}
		storetest.AgeRevisions(t, a.store, 2*time.Second)
		ev := "/events/" + i64s(f.draft)
		paths := []string{site.GameURL(g.ID), site.GameURL(g.ID) + "/record.kif", ev + "/records.zip?format=kif", "/stages/" + i64s(f.draftStage) + "/records.zip?format=kif",
			ev + "/handicap", "/embed/stages/" + i64s(f.draftStage), "/embed/league/" + i64s(f.draftClass)}
		guesses := [][]string{{"If-None-Match", "*"}, {"If-None-Match", `W/"1.1-000000000000000000000000"`},
			{"If-Modified-Since", time.Now().Add(time.Hour).UTC().Format(http.TimeFormat)}, nil}
		for _, p := range paths {
			for _, h := range guesses {
				resp, _ := f.request(f.browser(), p, h...)
				if resp.StatusCode != http.StatusNotFound || resp.Header.Get("ETag") != "" || resp.Header.Get("Last-Modified") != "" {
					t.Errorf("draft GET %s %v: %d, ETag %q, Last-Modified %q; want 404 without validators",
						p, h, resp.StatusCode, resp.Header.Get("ETag"), resp.Header.Get("Last-Modified"))
				}
			}
		}
	})
}

// The amateur day's public pages (migration 00155 makes its tables raise
// the event's revision): the day, a class, its standings and the printed
// pairings, block sheets and standings answer 304 until a check-in or a
// result changes them; while the day is a draft they are 404 whatever the
// guess.
func TestCache_DayPages304UntilAWrite(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f := seedPaperDay(t, a, 4, 0)
		cf := &cacheFixture{a: a}
		ev := fmt.Sprintf("/events/%d/day", f.event.ID)
		pools, swiss := dayroom.DayClassURL(f.pools.ID), dayroom.DayClassURL(f.swiss.ID)
		pages := []string{ev, pools, swiss, pools + "/standings", swiss + "/standings",
			dayroom.DayRoundPaperURL(f.pools.ID, 1, "pairings"), dayroom.DayRoundPaperURL(f.swiss.ID, 1, "pairings"),
			pools + "/blocks/print", pools + "/standings/print", swiss + "/standings/print"}

		if e, err := a.store.EventByID(ctx, f.event.ID); err != nil || e.Status != office.StatusDraft {
			t.Fatalf("the day starts as a draft: %q %v", e.Status, err)
		}
		for _, p := range pages {
			for _, h := range [][]string{{"If-None-Match", "*"}, {"If-None-Match", `W/"1.1-000000000000000000000000"`}, nil} {
				if resp, _ := cf.request(cf.browser(), p, h...); resp.StatusCode != http.StatusNotFound || resp.Header.Get("ETag") != "" {
					t.Errorf("draft day GET %s %v: %d, ETag %q; want 404 without a tag", p, h, resp.StatusCode, resp.Header.Get("ETag"))
				}
			}
		}
		if err := a.srv.Office.SetEventStatus(ctx, f.admin, f.event.ID, office.StatusPublished); err != nil {
			t.Fatal(err)
		}
		public := cf.browser()
		tags := cf.tags(t, public, pages)
		cf.notModified(t, public, tags, true)
		// Staff get the page in full, without a tag.
		for _, p := range pages {
			if resp, _ := cf.request(a.client, p, "If-None-Match", tags[p]); resp.StatusCode != http.StatusOK || resp.Header.Get("ETag") != "" {
				t.Errorf("director GET %s with the public's tag: %d, ETag %q; want 200 without one", p, resp.StatusCode, resp.Header.Get("ETag"))
			}
		}

		// A result on a Swiss board: the Swiss class's pages and the day
		// change (the whole event's revision moves).
		v, err := f.d.ClassView(ctx, f.admin, f.swiss.ID)
		if err != nil {
			t.Fatal(err)
		}
		b := v.Rounds[0].Boards[0]
		if err := f.d.EnterBoardResult(ctx, f.admin, day.BoardResultInput{ClassID: f.swiss.ID, Round: 1, Board: b.Board, GameID: b.Last.ID, Version: b.Version, Result: office.ResultSenteWin}); err != nil {
			t.Fatal(err)
		}
		cf.notModified(t, public, tags, false)
		tags = cf.tags(t, public, pages)

		// A write to a day table alone (no game): a check-in state,
		// straight to day_entrants as psql would.
		if err := a.store.DB(ctx).Exec("UPDATE day_entrants SET checkin = 'late' WHERE player_id = ?", f.players[0]).Error; err != nil {
			t.Fatal(err)
		}
		cf.notModified(t, public, tags, false)
	})
}
