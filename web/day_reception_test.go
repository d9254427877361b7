package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"kisen/office/day"
	"kisen/store"
)

// postHTMX posts a form as htmx does (HX-Request, the token in a header).
func (a *testApp) postHTMX(path string, form url.Values) (*http.Response, string) {
	a.t.Helper()
	req, err := http.NewRequest(http.MethodPost, a.ts.URL+path, strings.NewReader(form.Encode()))
	if err != nil {
		a.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("HX-Request", "true")
	req.Header.Set("X-CSRF-Token", a.csrfToken(a.client))
	return a.send(a.client, req)
}

var reDeskVersion = regexp.MustCompile(`data-version="(\d+)"`)

// deskRowVersion reads the data-version of the one row in an answer.
func deskRowVersion(t *testing.T, body string) string {
	t.Helper()
	m := reDeskVersion.FindAllStringSubmatch(body, -1)
	if len(m) != 1 {
		t.Fatalf("want one row in the answer, found %d:\n%s", len(m), body)
	}
	return m[0][1]
}

// The desk's actions answer an htmx request with the row only (and the
// counts and fee totals out of band), a stale version with the row as it
// is now and the message in it (409), an undo with the state before; a
// request without htmx keeps the page's 303. The other desks' fetch
// returns only the rows changed since, the search the rows it matches.
func TestDayDeskWeb_RowFragmentsStaleUndoRowsSearch(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := seedDay(t, a, 3, 0)
		ctx := context.Background()
		a.signIn(a.client, f.admin.UserID)
		p := store.Player{Name: "受付髙太郎", Reading: "ウケツケ タロウ", Kind: store.PlayerAmateur, Rank: "初段", CreatedAt: a.now, UpdatedAt: a.now}
		if err := a.store.CreatePlayer(ctx, &p); err != nil {
			t.Fatal(err)
		}
		if _, err := f.d.Enter(ctx, f.admin, day.EntryInput{EventID: f.event.ID, PlayerID: p.ID}); err != nil {
			t.Fatal(err)
		}
		base := fmt.Sprintf("/events/%d/day", f.event.ID)
		resp, page := a.get(base + "/reception")
		if resp.StatusCode != http.StatusOK || !strings.Contains(page, `id="desk-search"`) || !strings.Contains(page, `sse-connect="/events/`) {
			t.Fatalf("reception: %d, search box or stream missing", resp.StatusCode)
		}
		pid := strconv.FormatInt(p.ID, 10)
		// The row carries the folded keys: reading in hiragana without the
		// space, the name with 髙 folded to 高, the entrant number (4th entered).
		if !strings.Contains(page, `data-keys="うけつけたろう 受付高太郎 4"`) {
			t.Fatalf("the row's search keys are missing")
		}
		row := page[strings.Index(page, `id="desk-row-`+pid+`"`):]
		v0 := deskRowVersion(t, row[:strings.Index(row, "desk-who")])
		resp, body := a.postHTMX(base+"/checkin", url.Values{"player_id": {pid}, "version": {v0}, "state": {store.CheckinPresent}})
		if resp.StatusCode != http.StatusOK || strings.Contains(body, "<html") || !strings.Contains(body, `id="desk-row-`+pid+`"`) ||
			!strings.Contains(body, `id="desk-counts"`) || !strings.Contains(body, `id="desk-fees"`) || strings.Count(body, `hx-swap-oob="true"`) != 2 {
			t.Fatalf("htmx check-in: %d\n%s", resp.StatusCode, body)
		}
		v1 := deskRowVersion(t, body)
		if v1 == v0 || !strings.Contains(body, `data-state="present"`) {
			t.Fatalf("after check-in: version %s→%s\n%s", v0, v1, body)
		}
		// Another desk still showing v0: 409, the row as it is, the message.
		resp, body = a.postHTMX(base+"/checkin", url.Values{"player_id": {pid}, "version": {v0}, "state": {store.CheckinLate}})
		if resp.StatusCode != http.StatusConflict || !strings.Contains(body, `data-testid="desk-row-error"`) || !strings.Contains(body, "ほかの受付") ||
			!strings.Contains(body, `data-state="present"`) || deskRowVersion(t, body) != v1 {
			t.Fatalf("stale: %d\n%s", resp.StatusCode, body)
		}
		// The fee, then undo: unpaid again, check-in kept.
		resp, body = a.postHTMX(base+"/fee", url.Values{"player_id": {pid}, "version": {v1}, "fee_status": {day.FeePaid}})
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("fee: %d\n%s", resp.StatusCode, body)
		}
		v2 := deskRowVersion(t, body)
		fees, err := f.d.Fees(ctx, f.admin, f.event.ID)
		if err != nil || fees.ByPlayer[p.ID].Status != day.FeePaid {
			t.Fatalf("fee not recorded: %+v %v", fees.ByPlayer[p.ID], err)
		}
		resp, body = a.postHTMX(base+"/reception/undo", url.Values{"player_id": {pid}, "version": {v2}})
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, `data-state="present"`) {
			t.Fatalf("undo: %d\n%s", resp.StatusCode, body)
		}
		if fees, _ = f.d.Fees(ctx, f.admin, f.event.ID); fees.ByPlayer[p.ID].Status != "" {
			t.Fatalf("after undo the fee is %+v", fees.ByPlayer[p.ID])
		}
		v3 := deskRowVersion(t, body)
		// Undo again: nothing to undo, 422 in the row.
		resp, body = a.postHTMX(base+"/reception/undo", url.Values{"player_id": {pid}, "version": {v3}})
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "取り消せる操作がありません") {
			t.Fatalf("undo twice: %d\n%s", resp.StatusCode, body)
		}
		// Without htmx: 303 back to the page, as before (a minute later).
		a.now = a.now.Add(time.Minute)
		resp, _ = a.postForm(base+"/checkin", url.Values{"player_id": {pid}, "version": {v3}, "state": {store.CheckinLate}})
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("plain post: %d", resp.StatusCode)
		}
		// The rows whose version moved: a desk holding every row as it
		// was before the plain post gets this entrant's row only; one
		// holding them as they are now gets none; one missing a row gets
		// it; a list it cannot read is 400 and names nothing.
		es, err := a.store.DayEntrantsOfEvent(ctx, f.event.ID)
		if err != nil {
			t.Fatal(err)
		}
		var held, now []string
		for _, e := range es {
			v := e.Version
			now = append(now, fmt.Sprintf("%d.%d", e.PlayerID, v))
			if e.PlayerID == p.ID {
				v--
			}
			held = append(held, fmt.Sprintf("%d.%d", e.PlayerID, v))
		}
		resp, body = a.getHTMX(base + "/reception/rows?known=" + strings.Join(held, "-"))
		if resp.StatusCode != http.StatusOK || strings.Count(body, `class="desk-row`) != 1 || !strings.Contains(body, `data-state="late"`) {
			t.Fatalf("rows moved: %d, %d rows\n%s", resp.StatusCode, strings.Count(body, `class="desk-row`), body)
		}
		resp, body = a.getHTMX(base + "/reception/rows?known=" + strings.Join(now, "-"))
		if resp.StatusCode != http.StatusOK || strings.Count(body, `class="desk-row`) != 0 {
			t.Fatalf("up to date: %d, %d rows", resp.StatusCode, strings.Count(body, `class="desk-row`))
		}
		resp, body = a.getHTMX(base + "/reception/rows?known=" + strings.Join(now[1:], "-"))
		if resp.StatusCode != http.StatusOK || strings.Count(body, `class="desk-row`) != 1 || !strings.Contains(body, fmt.Sprintf(`data-player="%d"`, es[0].PlayerID)) {
			t.Fatalf("a row not held: %d, %d rows", resp.StatusCode, strings.Count(body, `class="desk-row`))
		}
		for _, bad := range []string{"x", "1.", "1.2-", "-1.2", "1.-3"} {
			if resp, _ = a.getHTMX(base + "/reception/rows?known=" + url.QueryEscape(bad)); resp.StatusCode != http.StatusBadRequest {
				t.Errorf("known=%q: %d, want 400", bad, resp.StatusCode)
			}
		}
		resp, body = a.getHTMX(base + "/reception/rows")
		if resp.StatusCode != http.StatusOK || strings.Count(body, `class="desk-row`) != 4 {
			t.Fatalf("every row: %d, %d rows", resp.StatusCode, strings.Count(body, `class="desk-row`))
		}
		// The search (office.FoldName): katakana typed with a space finds
		// the hiragana reading; a number finds its entrant; a part of the
		// name, 髙 or 高 typed.
		for q, want := range map[string]int{"ウケ": 1, "うけつけ た": 1, "4": 1, "太郎": 1, "受付高": 1, "髙太": 1, "ｳｹ": 1, "せんしゅ": 3, "ん": 0} {
			resp, body = a.getHTMX(base + "/reception/search?q=" + url.QueryEscape(q))
			if got := strings.Count(body, `class="desk-row`); resp.StatusCode != http.StatusOK || got != want {
				t.Errorf("search %q: %d, %d rows, want %d", q, resp.StatusCode, got, want)
			}
		}
	})
}

// The desk's pages cost the same number of statements for 8 entrants and
// for 80: the page, the search and the other desks' fetch.
func TestQueryCount_DeskCostsTheSameAtTenTimesTheSize(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		small := seedDay(t, a, 8, 0)
		large := seedDay(t, a, 80, 0)
		a.signIn(a.client, small.admin.UserID)
		for _, p := range []string{"/reception", "/reception/search?q=" + url.QueryEscape("せんしゅ00"), "/reception/rows?known="} {
			ns := statementsOf(t, a, a.store, fmt.Sprintf("/events/%d/day%s", small.event.ID, p))
			nl := statementsOf(t, a, a.store, fmt.Sprintf("/events/%d/day%s", large.event.ID, p))
			t.Logf("%-30s small %3d large %3d", p, ns, nl)
			if ns != nl || nl > 30 {
				t.Errorf("%s: %d statements for 8 entrants, %d for 80", p, ns, nl)
			}
		}
	})
}

// One check-in through the desk is one transaction of a fixed number of
// statements, whatever the day's size.
func TestQueryCount_DeskCheckinIsOneSmallTransaction(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		counts := map[int]int64{}
		for _, n := range []int{8, 80} {
			f := seedDay(t, a, n, 0)
			es, err := a.store.DayEntrantsOfEvent(context.Background(), f.event.ID)
			if err != nil {
				t.Fatal(err)
			}
			before := a.store.Statements()
			err = f.d.CheckInSeen(context.Background(), f.admin, day.DeskWrite{EventID: f.event.ID, PlayerID: es[0].PlayerID, Version: es[0].Version}, store.CheckinLate)
			if err != nil {
				t.Fatal(err)
			}
			counts[n] = a.store.Statements() - before
		}
		t.Logf("check-in: %v statements", counts)
		if counts[8] != counts[80] || counts[80] > 12 {
			t.Errorf("one check-in: %d statements at 8, %d at 80", counts[8], counts[80])
		}
	})
}
