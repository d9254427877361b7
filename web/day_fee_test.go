package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"kisen/office/day"
	"kisen/pairing"
	"kisen/web/site"
)

// Entry fees over HTTP: the class form stores a fee; the reception's fee
// form records paid (the class's fee by default) and unpaid; a walk-in pays
// in the same form; the desk's totals and the printed check-in list show
// them, in both languages; a bad amount is a 422 naming no field silently.
func TestDayWeb_FeesAtReceptionAndCheckinList(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := seedDay(t, a, 4, 0)
		a.signIn(a.client, f.admin.UserID)
		ctx := context.Background()
		in := day.InputOf(f.event.ID, "A級", "", 0, day.FormatSwiss, f.class.Settings)
		in.Fee, in.FeeReduced = "1500", "500"
		if _, err := f.d.UpdateClass(ctx, f.admin, f.class.ID, in); err != nil {
			t.Fatal(err)
		}
		es, err := a.store.DayEntrantsOfEvent(ctx, f.event.ID)
		if err != nil {
			t.Fatal(err)
		}
		fee := fmt.Sprintf("/events/%d/day/fee", f.event.ID)
		for i, c := range []url.Values{
			{"fee_status": {day.FeePaid}, "fee_amount": {""}},
			{"fee_status": {day.FeePaid}, "fee_amount": {"500"}},
			{"fee_status": {day.FeeUnpaid}, "fee_amount": {"1500"}},
		} {
			c.Set("player_id", strconv.FormatInt(es[i].PlayerID, 10))
			if resp, body := a.postForm(fee, c); resp.StatusCode != http.StatusSeeOther {
				t.Fatalf("fee %d: %d\n%s", i, resp.StatusCode, body)
			}
		}
		resp, body := a.postForm(fee, url.Values{"player_id": {strconv.FormatInt(es[3].PlayerID, 10)}, "fee_status": {day.FeePaid}, "fee_amount": {"abc"}})
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "数字") && !strings.Contains(body, "number") {
			t.Fatalf("bad amount: %d\n%s", resp.StatusCode, body)
		}
		resp, _ = a.postForm(fmt.Sprintf("/events/%d/day/walkin", f.event.ID), url.Values{"name": {"飛込花子"}, "reading": {"とびこみはなこ"}, "rank": {"初段"},
			"class_id": {strconv.FormatInt(f.class.ID, 10)}, "fee_status": {day.FeePaid}, "fee_amount": {"1500"}})
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("walk-in: %d", resp.StatusCode)
		}
		names := []string{"飛込花子", "とびこみはなこ", f.event.Name, "A級"}
		var ids []int64
		for _, e := range es {
			names = append(names, e.Name, e.Reading, e.Affiliation)
			ids = append(ids, e.PlayerID)
		}
		chk := newPageChecker(a.srv.Msgs, names, ids)
		want := map[string][]string{
			"ja": {"受領 1,500円", "受領 500円", "未納", "一般 1,500円", "3,500円"},
			"en": {"paid ¥1,500", "paid ¥500", "unpaid", "Full fee ¥1,500", "¥3,500"},
		}
		for _, lang := range site.Languages {
			a.setLang(a.client, lang)
			for _, path := range []string{fmt.Sprintf("/events/%d/day/reception", f.event.ID), fmt.Sprintf("/events/%d/day/checkin/print", f.event.ID)} {
				resp, body := a.get(path)
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("%s %s: %d", lang, path, resp.StatusCode)
				}
				for _, w := range want[lang] {
					if !strings.Contains(tagsOut.ReplaceAllString(body, ""), w) { // the page's text (amounts in their own elements)
						t.Errorf("%s %s: no %q", lang, path, w)
					}
				}
				for _, o := range chk.check(path, lang, body) {
					t.Errorf("%s %s: %s", lang, path, o)
				}
			}
		}
		a.setLang(a.client, "ja")
		_, body = a.get(fmt.Sprintf("/events/%d/day/reception", f.event.ID))
		if !strings.Contains(body, `data-testid="day-fee-unpaid-count">2<`) || !strings.Contains(body, `data-testid="day-fee-day-total">3,500円<`) {
			t.Errorf("totals: want 2 unpaid (one marked, one not recorded) and 3,500円")
		}
	})
}

// The observed 振り駒 over HTTP: the board page offers the toss form on a
// board whose sente a toss decides; a tie is noted, the deciding toss sets
// the seats and the form goes; after a result the form is not offered and a
// late post is refused (422).
func TestDayWeb_D_F1_ObservedTossAtBoard(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := seedDay(t, a, 4, 1)
		a.signIn(a.client, f.admin.UserID)
		ctx := context.Background()
		v, err := f.d.ClassView(ctx, f.admin, f.class.ID)
		if err != nil {
			t.Fatal(err)
		}
		b := v.Rounds[0].Boards[0]
		if b.SenteBy != pairing.SenteByFurigoma {
			t.Fatalf("board sente by %q", b.SenteBy)
		}
		base := fmt.Sprintf("/day/classes/%d/rounds/1/boards", f.class.ID)
		page := base + "?board=" + strconv.Itoa(b.Board)
		_, body := a.get(page)
		if !strings.Contains(body, `data-testid="day-toss-form"`) {
			t.Fatalf("no toss form\n%s", body)
		}
		post := func(tosser int64, fu, to int) (*http.Response, string) {
			return a.postForm(fmt.Sprintf("%s/%d/toss", base, b.Board), url.Values{"game_id": {strconv.FormatInt(b.Last.ID, 10)}, "version": {"0"},
				"tosser": {strconv.FormatInt(tosser, 10)}, "fu": {strconv.Itoa(fu)}, "to": {strconv.Itoa(to)}})
		}
		if resp, body := post(b.Sente, 2, 2); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("tie: %d\n%s", resp.StatusCode, body)
		}
		a.setLang(a.client, "ja")
		if _, body := a.get(page); !strings.Contains(body, "同数。振り直してください") || !strings.Contains(body, `data-testid="day-toss-form"`) {
			t.Fatalf("after a tie\n%s", body)
		}
		if resp, body := post(b.Sente, 0, 5); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("deciding toss: %d\n%s", resp.StatusCode, body)
		}
		_, body = a.get(page)
		if strings.Contains(body, `data-testid="day-toss-form"`) || !strings.Contains(body, "で決定") {
			t.Fatalf("after the deciding toss\n%s", body)
		}
		g, err := a.store.GameByID(ctx, b.Last.ID)
		if err != nil || *g.SentePlayerID != b.Gote {
			t.Fatalf("seats after と×5 tossed by sente: sente %v, want %d (%v)", g.SentePlayerID, b.Gote, err)
		}
		a.setLang(a.client, "en")
		if _, body := a.get(page); !strings.Contains(body, "furigoma seen at the board") && !strings.Contains(body, "decided") {
			t.Errorf("English page has no toss note\n%s", body)
		}
		// Another board: a result first, then a toss is refused.
		b2 := v.Rounds[0].Boards[1]
		if resp, _ := a.postForm(fmt.Sprintf("%s/%d", base, b2.Board), url.Values{"game_id": {strconv.FormatInt(b2.Last.ID, 10)}, "version": {"0"}, "result": {"sente_win"}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("result: %d", resp.StatusCode)
		}
		resp, _ := a.postForm(fmt.Sprintf("%s/%d/toss", base, b2.Board), url.Values{"game_id": {strconv.FormatInt(b2.Last.ID, 10)}, "version": {"1"},
			"tosser": {strconv.FormatInt(b2.Sente, 10)}, "fu": {"3"}, "to": {"2"}})
		if resp.StatusCode != http.StatusUnprocessableEntity {
			t.Fatalf("a toss after the result: %d, want 422", resp.StatusCode)
		}
	})
}
