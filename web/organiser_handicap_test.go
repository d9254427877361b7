package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"kisen/office"
	"kisen/store"
)

// The organiser's 手合割 table (D-H, 004): administrators only; pairing's
// reason for refusing a table shows next to it in each language with the
// text kept; a saved table is what a new event of the organiser uses.
func TestOrganiserHandicapWeb_D_H_FormValidatesAndNewEventsCopy(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		org := store.Organiser{Name: "アマ将棋連盟", NameEn: "Amateur Shogi League", Kind: office.OrganiserAmateur, Settings: "{}", CreatedAt: a.now, UpdatedAt: a.now}
		if err := a.store.CreateOrganiser(ctx, &org); err != nil {
			t.Fatal(err)
		}
		path := fmt.Sprintf("/organisers/%d/handicap", org.ID)

		if resp, _ := a.get(path); resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/login") {
			t.Fatalf("public: %d to %q, want 303 to /login", resp.StatusCode, resp.Header.Get("Location"))
		}
		user := a.addUser("someone", false)
		a.signIn(a.client, user.ID)
		if resp, _ := a.get(path); resp.StatusCode != http.StatusForbidden {
			t.Fatalf("non-admin GET: %d, want 403", resp.StatusCode)
		}
		if resp, _ := a.postForm(path, url.Values{"table": {"0 振り駒\n"}}); resp.StatusCode != http.StatusForbidden {
			t.Fatalf("non-admin POST: %d, want 403", resp.StatusCode)
		}

		a.client = a.newClient()
		admin := a.addUser("admin", true)
		a.signIn(a.client, admin.ID)
		_, body := a.get("/organisers")
		if docOf(t, body).Find(fmt.Sprintf(`[data-testid="organiser-handicap-link-%d"]`, org.ID)).AttrOr("href", "") != path {
			t.Errorf("the organiser list does not link to %s", path)
		}
		_, body = a.get(fmt.Sprintf("/organisers/%d/edit", org.ID))
		if docOf(t, body).Find(`[data-testid="organiser-handicap-link"]`).AttrOr("href", "") != path {
			t.Errorf("the organiser page does not link to %s", path)
		}
		resp, body := a.get(path)
		if resp.StatusCode != http.StatusOK || !strings.Contains(testid(t, body, "organiser-handicap-table"), "0 振り駒") {
			t.Fatalf("GET: %d, table %q; want the default table shown", resp.StatusCode, testid(t, body, "organiser-handicap-table"))
		}

		bad := "0 振り駒\n1 平手\n2 飛角落ち\n"
		msgs := map[string]string{}
		for _, lang := range []string{"ja", "en"} {
			a.get("/lang?to=" + lang)
			resp, body := a.postForm(path, url.Values{"table": {bad}})
			if resp.StatusCode != http.StatusUnprocessableEntity {
				t.Fatalf("%s: bad table answered %d", lang, resp.StatusCode)
			}
			msgs[lang] = testid(t, body, "error-table")
			if got := docOf(t, body).Find(`textarea[name="table"]`).Text(); strings.TrimSpace(got) != strings.TrimSpace(bad) {
				t.Errorf("%s: typed table not kept: %q", lang, got)
			}
		}
		for lang, m := range msgs {
			if !strings.Contains(m, "飛角落ち") || !strings.Contains(m, "3") {
				t.Errorf("%s: message %q does not name row 3 and its handicap", lang, m)
			}
		}
		if msgs["ja"] == msgs["en"] || !hasJapanese(strings.ReplaceAll(msgs["ja"], "飛角落ち", "")) || hasJapanese(strings.ReplaceAll(msgs["en"], "飛角落ち", "")) {
			t.Errorf("messages ja %q / en %q are not the two languages", msgs["ja"], msgs["en"])
		}
		if o, _ := a.store.OrganiserByID(ctx, org.ID); o.Settings != "{}" {
			t.Fatalf("a refused table was saved: %s", o.Settings)
		}

		resp, _ = a.postForm(path, url.Values{"table": {"0 振り駒\n1 平手\n3 角落ち\n"}})
		if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != path {
			t.Fatalf("save: %d to %q, want 303 to %s", resp.StatusCode, resp.Header.Get("Location"), path)
		}
		_, body = a.get(path)
		if got := testid(t, body, "organiser-handicap-table"); got != "0 振り駒\n1 平手\n3 角落ち" {
			t.Errorf("saved table reads %q", got)
		}

		// A new event of the organiser copies the table: its handicap page
		// shows it.
		ev, err := a.srv.Office.CreateEvent(ctx, office.Actor{UserID: admin.ID, Login: admin.Login, Admin: true},
			office.EventInput{OrganiserID: org.ID, Name: "アマ竜王戦", Kind: office.EventKnockout, StartDate: "2026-05-01", EndDate: "2026-06-30"})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(ev.Settings, "角落ち") {
			t.Errorf("the new event's settings do not carry the table: %s", ev.Settings)
		}
		_, body = a.get(fmt.Sprintf("/events/%d/handicap", ev.ID))
		if got := testid(t, body, "handicap-table"); got != "0 振り駒\n1 平手\n3 角落ち" {
			t.Errorf("event handicap page shows %q", got)
		}
	})
}
