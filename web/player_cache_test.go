package web

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"kisen/office"
	"kisen/office/ratings"
)

// Issue 12: a player's public record page spans events, so it answers
// conditional GETs and comes from the render cache under the player's own
// revision (store.PlayerPageRevisions). It answers 304 to its tag until
// something it shows changes: a result in one of the player's events, a
// recompute of the ratings, an opponent's name. Staff get no validators.
func TestCache_PlayerRecordAnswers304UntilAWriteOrRecompute(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f := newCacheFixture(t, a)
		if _, err := ratings.New(a.srv.Office).RefreshRatingsIfStale(ctx); err != nil {
			t.Fatal(err)
		}
		rec := "/players/" + i64s(f.g.sente.ID) + "/record"
		pages := []string{rec, rec + "?page=2", rec + "?opponent=" + i64s(f.g.gote.ID)}
		public := f.browser()
		s0 := a.store.Statements()
		tags := f.tags(t, public, pages[:1]) // computed: nothing is kept yet
		computedN := a.store.Statements() - s0
		tags = f.tags(t, public, pages)
		f.notModified(t, public, tags, true)

		// Another visitor: the same page from the render cache, with the
		// visitor's own CSRF token, for fewer statements than computing it.
		other := f.browser()
		s0 = a.store.Statements()
		resp, cached := f.request(other, rec)
		if cachedN := a.store.Statements() - s0; cachedN >= computedN {
			t.Errorf("record page from the render cache: %d statements, computed: %d", cachedN, computedN)
		}
		if tok := a.csrfToken(other); resp.StatusCode != http.StatusOK || !strings.Contains(cached, tok) {
			t.Fatalf("GET %s from a second visitor: %d, own CSRF token in the page: %v", rec, resp.StatusCode, strings.Contains(cached, tok))
		}

		// A result in the player's event.
		if _, err := a.srv.Office.RecordResult(ctx, f.g.admin, f.g.game.ID, office.ResultInput{Result: office.ResultSenteWin, Reason: office.ReasonResignation}); err != nil {
			t.Fatal(err)
		}
		f.notModified(t, public, tags, false)
		tags = f.tags(t, public, pages)
		f.notModified(t, public, tags, true)

		// The stored ratings recomputed.
		if _, err := ratings.New(a.srv.Office).RecomputeRatings(ctx); err != nil {
			t.Fatal(err)
		}
		f.notModified(t, public, tags, false)
		tags = f.tags(t, public, pages)

		// The opponent's name.
		if err := a.store.DB(ctx).Exec("UPDATE players SET name = ? WHERE id = ?", "羽生 善治 永世七冠", f.g.gote.ID).Error; err != nil {
			t.Fatal(err)
		}
		f.notModified(t, public, tags, false)
		if _, body := f.request(public, rec); !strings.Contains(body, "羽生 善治 永世七冠") {
			t.Errorf("GET %s after the opponent's rename: the new name is not shown", rec)
		}

		// Staff: the page, never a validator.
		staff := a.newClient()
		a.signIn(staff, f.g.arbiter.UserID)
		if resp, _ := f.request(staff, rec); resp.StatusCode != http.StatusOK || resp.Header.Get("ETag") != "" {
			t.Errorf("GET %s signed in: %d, ETag %q; want 200 without a tag", rec, resp.StatusCode, resp.Header.Get("ETag"))
		}
	})
}

// Issue 12: the public ratings list (any page, search or filter) answers
// 304 to its tag until what it shows changes — a result (the list then
// says newer results are being included), a recompute, a player's name —
// and a second visitor gets it from the render cache. Staff get no
// validators.
func TestCache_RatingsListAnswers304UntilAResultRecomputeOrRename(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f := newCacheFixture(t, a)
		if _, err := ratings.New(a.srv.Office).RefreshRatingsIfStale(ctx); err != nil {
			t.Fatal(err)
		}
		pages := []string{"/ratings", "/ratings?page=2", "/ratings?q=" + "羽生", "/ratings?lang=en"}
		public := f.browser()
		s0 := a.store.Statements()
		tags := f.tags(t, public, pages[:1])
		computedN := a.store.Statements() - s0
		tags = f.tags(t, public, pages)
		f.notModified(t, public, tags, true)

		other := f.browser()
		s0 = a.store.Statements()
		resp, cached := f.request(other, "/ratings")
		if cachedN := a.store.Statements() - s0; cachedN >= computedN {
			t.Errorf("ratings list from the render cache: %d statements, computed: %d", cachedN, computedN)
		}
		if tok := a.csrfToken(other); resp.StatusCode != http.StatusOK || !strings.Contains(cached, tok) {
			t.Fatalf("GET /ratings from a second visitor: %d, own CSRF token in the page: %v", resp.StatusCode, strings.Contains(cached, tok))
		}

		if _, err := a.srv.Office.RecordResult(ctx, f.g.admin, f.g.game.ID, office.ResultInput{Result: office.ResultSenteWin, Reason: office.ReasonResignation}); err != nil {
			t.Fatal(err)
		}
		f.notModified(t, public, tags, false)
		tags = f.tags(t, public, pages)
		f.notModified(t, public, tags, true)

		if _, err := ratings.New(a.srv.Office).RecomputeRatings(ctx); err != nil {
			t.Fatal(err)
		}
		f.notModified(t, public, tags, false)
		tags = f.tags(t, public, pages)

		if err := a.store.DB(ctx).Exec("UPDATE players SET name = ? WHERE id = ?", "羽生 善治 永世七冠", f.g.gote.ID).Error; err != nil {
			t.Fatal(err)
		}
		f.notModified(t, public, tags, false)
		if _, body := f.request(public, "/ratings"); !strings.Contains(body, "羽生 善治 永世七冠") {
			t.Errorf("GET /ratings after a rename: the new name is not shown")
		}

		staff := a.newClient()
		a.signIn(staff, f.g.arbiter.UserID)
		if resp, _ := f.request(staff, "/ratings"); resp.StatusCode != http.StatusOK || resp.Header.Get("ETag") != "" {
			t.Errorf("GET /ratings signed in: %d, ETag %q; want 200 without a tag", resp.StatusCode, resp.Header.Get("ETag"))
		}
	})
}
