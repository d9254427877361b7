package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"kisen/office"
	"kisen/office/seed"
	"kisen/store"
	"kisen/web/api"
)

// apiWalk reads a list page by page (limit per page), calling between(i)
// after page i, and returns the ids in the order served.
func apiWalk(t *testing.T, a *testApp, path string, limit int, ids func(body string) ([]int64, *string), between func(page int)) []int64 {
	t.Helper()
	var out []int64
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	next := fmt.Sprintf("%s%slimit=%d", path, sep, limit)
	for page := 1; page < 100; page++ {
		resp, body := apiGet(t, a, api.APIPrefix+next, nil)
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s: %d %s", next, resp.StatusCode, body)
		}
		got, cur := ids(body)
		if len(got) > limit {
			t.Fatalf("GET %s: %d items for limit %d", next, len(got), limit)
		}
		out = append(out, got...)
		if cur == nil {
			return out
		}
		between(page)
		next = fmt.Sprintf("%s%slimit=%d&cursor=%s", path, sep, limit, url.QueryEscape(*cur))
	}
	t.Fatalf("%s: no last page", path)
	return nil
}

func noRepeats(t *testing.T, what string, ids []int64) {
	t.Helper()
	seen := map[int64]bool{}
	for _, id := range ids {
		if seen[id] {
			t.Fatalf("%s: %d served twice in %v", what, id, ids)
		}
		seen[id] = true
	}
}

// Issue 15 part 3, keyset paging: a row inserted before the cursor's
// position between two pages neither repeats nor hides a row of the
// list, for a list paged in SQL (players, ratings) and one paged in
// memory (events), on both databases.
func TestAPI_KeysetCursorHoldsWhenRowsAreInsertedBeforeIt(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f, err := seed.New(ctx, a.srv.Office, a.store, a.now)
		if err != nil {
			t.Fatal(err)
		}
		// Players: readings こ00…こ08 plus whatever the seed made.
		var mine []int64
		for i := range 9 {
			p := store.Player{Name: fmt.Sprintf("頁送り%02d", i), Reading: fmt.Sprintf("こ%02d", i), Kind: store.PlayerAmateur, Rank: "初段",
				CreatedAt: a.now, UpdatedAt: a.now}
			if err := a.store.CreatePlayer(ctx, &p); err != nil {
				t.Fatal(err)
			}
			mine = append(mine, p.ID)
			// Ratings with a tie and fractions that must survive the cursor.
			r := store.PlayerRating{PlayerID: p.ID, Rating: 1500 + float64(i/2)*100.0/3, RD: 50, Volatility: 0.06, Games: 3, Wins: 2, Losses: 1}
			if err := a.store.DB(ctx).Create(&r).Error; err != nil {
				t.Fatal(err)
			}
		}
		playerIDs := func(body string) ([]int64, *string) {
			var l api.APIPlayerList
			if err := json.Unmarshal([]byte(body), &l); err != nil {
				t.Fatal(err)
			}
			var ids []int64
			for _, p := range l.Items {
				ids = append(ids, p.ID)
			}
			return ids, l.NextCursor
		}
		before := apiWalk(t, a, "/players?q="+url.QueryEscape("頁送り"), 4, playerIDs, func(int) {})
		if !slices.Equal(before, mine) {
			t.Fatalf("players before: %v, want %v", before, mine)
		}
		var added int64
		got := apiWalk(t, a, "/players?q="+url.QueryEscape("頁送り"), 4, playerIDs, func(page int) {
			if page != 1 {
				return
			}
			// Sorts first: before the cursor (こ03).
			p := store.Player{Name: "頁送り新", Reading: "あ", Kind: store.PlayerAmateur, Rank: "初段", CreatedAt: a.now, UpdatedAt: a.now}
			if err := a.store.CreatePlayer(ctx, &p); err != nil {
				t.Fatal(err)
			}
			added = p.ID
			r := store.PlayerRating{PlayerID: p.ID, Rating: 3000, RD: 50, Volatility: 0.06, Games: 3, Wins: 3}
			if err := a.store.DB(ctx).Create(&r).Error; err != nil {
				t.Fatal(err)
			}
		})
		noRepeats(t, "players", got)
		if !slices.Equal(got, mine) {
			t.Fatalf("players across an insert before the cursor: %v, want %v (added %d)", got, mine, added)
		}

		// Ratings: highest first, ties by reading; the new 3000 sorts first.
		ratingIDs := func(body string) ([]int64, *string) {
			var l api.APIRatingList
			if err := json.Unmarshal([]byte(body), &l); err != nil {
				t.Fatal(err)
			}
			var ids []int64
			for _, r := range l.Items {
				ids = append(ids, r.Player.ID)
			}
			return ids, l.NextCursor
		}
		wantRatings := apiWalk(t, a, "/ratings?q="+url.QueryEscape("頁送り"), 3, ratingIDs, func(int) {})
		if len(wantRatings) != 10 || wantRatings[0] != added {
			t.Fatalf("ratings: %v (added %d first)", wantRatings, added)
		}
		var added2 int64
		got = apiWalk(t, a, "/ratings?q="+url.QueryEscape("頁送り"), 3, ratingIDs, func(page int) {
			if page != 2 {
				return
			}
			p := store.Player{Name: "頁送り新二", Reading: "い", Kind: store.PlayerAmateur, Rank: "初段", CreatedAt: a.now, UpdatedAt: a.now}
			if err := a.store.CreatePlayer(ctx, &p); err != nil {
				t.Fatal(err)
			}
			added2 = p.ID
			if err := a.store.DB(ctx).Create(&store.PlayerRating{PlayerID: p.ID, Rating: 2000, RD: 50, Volatility: 0.06, Games: 1, Wins: 1}).Error; err != nil {
				t.Fatal(err)
			}
		})
		noRepeats(t, "ratings", got)
		if !slices.Equal(got, wantRatings) {
			t.Fatalf("ratings across an insert before the cursor: %v, want %v (added %d)", got, wantRatings, added2)
		}
		// The place is the full list's, not the page's.
		_, body := apiGet(t, a, api.APIPrefix+"/ratings?q="+url.QueryEscape("頁送り")+"&limit=2", nil)
		var first api.APIRatingList
		if err := json.Unmarshal([]byte(body), &first); err != nil || first.NextCursor == nil {
			t.Fatalf("ratings page: %v %s", err, body)
		}
		_, body = apiGet(t, a, api.APIPrefix+"/ratings?q="+url.QueryEscape("頁送り")+"&limit=2&cursor="+*first.NextCursor, nil)
		var second api.APIRatingList
		if err := json.Unmarshal([]byte(body), &second); err != nil || len(second.Items) != 2 || second.Items[0].Place != 3 {
			t.Fatalf("second ratings page: %v %s", err, body)
		}

		// Events (paged in memory): newest start first; a new event that
		// starts latest sorts before the cursor.
		for i := range 5 {
			e, err := a.srv.Office.CreateEvent(ctx, f.Admin, office.EventInput{OrganiserID: f.Org.ID, Name: fmt.Sprintf("頁送り杯%d", i),
				Kind: office.EventKnockout, StartDate: fmt.Sprintf("2026-0%d-01", i+1), EndDate: "2026-10-01"})
			if err != nil {
				t.Fatal(err)
			}
			if err := a.srv.Office.SetEventStatus(ctx, f.Admin, e.ID, office.StatusPublished); err != nil {
				t.Fatal(err)
			}
		}
		eventIDs := func(body string) ([]int64, *string) {
			var l api.APIEventList
			if err := json.Unmarshal([]byte(body), &l); err != nil {
				t.Fatal(err)
			}
			var ids []int64
			for _, e := range l.Items {
				ids = append(ids, e.ID)
			}
			return ids, l.NextCursor
		}
		wantEvents := apiWalk(t, a, "/events", 2, eventIDs, func(int) {})
		got = apiWalk(t, a, "/events", 2, eventIDs, func(page int) {
			if page != 1 {
				return
			}
			e, err := a.srv.Office.CreateEvent(ctx, f.Admin, office.EventInput{OrganiserID: f.Org.ID, Name: "頁送り杯 新",
				Kind: office.EventKnockout, StartDate: "2027-01-01", EndDate: "2027-01-02"})
			if err != nil {
				t.Fatal(err)
			}
			if err := a.srv.Office.SetEventStatus(ctx, f.Admin, e.ID, office.StatusPublished); err != nil {
				t.Fatal(err)
			}
		})
		noRepeats(t, "events", got)
		if !slices.Equal(got, wantEvents) {
			t.Fatalf("events across an insert before the cursor: %v, want %v", got, wantEvents)
		}
	})
}

// A cursor that was edited, cut, made up or taken from another list is
// 400 bad_cursor with a message in the request's language; a good one
// still reads.
func TestAPI_TamperedCursorIs400InJapaneseAndEnglish(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		for i := range 3 {
			p := store.Player{Name: fmt.Sprintf("改竄%d", i), Reading: fmt.Sprintf("か%d", i), Kind: store.PlayerAmateur, Rank: "初段",
				CreatedAt: a.now, UpdatedAt: a.now}
			if err := a.store.CreatePlayer(ctx, &p); err != nil {
				t.Fatal(err)
			}
		}
		_, body := apiGet(t, a, api.APIPrefix+"/players?limit=1", nil)
		var l api.APIPlayerList
		if err := json.Unmarshal([]byte(body), &l); err != nil || l.NextCursor == nil {
			t.Fatalf("first page: %v %s", err, body)
		}
		good := *l.NextCursor
		if resp, body := apiGet(t, a, api.APIPrefix+"/players?limit=1&cursor="+good, nil); resp.StatusCode != 200 {
			t.Fatalf("good cursor: %d %s", resp.StatusCode, body)
		}
		flip := []byte(good)
		flip[len(flip)/2] ^= 1 // still base64url
		if flip[len(flip)/2] == '-' || flip[len(flip)/2] == '_' {
			flip[len(flip)/2] = 'A'
		}
		ac := newAPIContract(t, a)
		for _, bad := range []string{
			string(flip),
			good[:len(good)-2],
			"@@",
			signedCursor(t, a, "events", "2026-01-01", "1"), // another list's
			signedCursor(t, a, "players", "か0"),             // a field missing
			signedCursor(t, a, "players", "か0", "-3"),       // not an id
			"bzoyMA", // the old offset cursor "o:20"
		} {
			var msgs []string
			for _, lang := range []string{"ja", "en"} {
				resp, body := apiGet(t, a, api.APIPrefix+"/players?cursor="+url.QueryEscape(bad), map[string]string{"Accept-Language": lang})
				var e api.APIError
				if err := json.Unmarshal([]byte(body), &e); err != nil || resp.StatusCode != 400 || e.Error.Code != "bad_cursor" {
					t.Fatalf("cursor %q (%s): %d %s", bad, lang, resp.StatusCode, body)
				}
				ac.check("get", "/players", resp, body)
				msgs = append(msgs, e.Error.Message)
			}
			if !isJapanese(msgs[0]) || isJapanese(msgs[1]) || msgs[1] == "" {
				t.Fatalf("cursor %q messages: %q", bad, msgs)
			}
		}
		// Every paged list refuses it the same way.
		for _, p := range []string{"/events", "/organisers", "/ratings", "/events/1/games"} {
			if resp, body := apiGet(t, a, api.APIPrefix+p+"?cursor="+string(flip), nil); resp.StatusCode != 400 || !strings.Contains(body, `"bad_cursor"`) {
				t.Errorf("%s with a tampered cursor: %d %s", p, resp.StatusCode, body)
			}
		}
	})
}
