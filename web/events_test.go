package web

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"kisen/office"
	"kisen/store"
	"kisen/web/site"
)

func TestEvents_AdminCreatesPublishesAndGrantsRoles(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		a.addAccount("root", "root-password", true)
		dir := a.addAccount("director", "director-pass", false)
		a.loginAs("root", "root-password")

		resp, body := a.postForm("/organisers", url.Values{"name": {""}, "kind": {"federation"}})
		if resp.StatusCode != http.StatusUnprocessableEntity || testid(t, body, "error-name") != "入力してください。" {
			t.Fatalf("invalid organiser: %d", resp.StatusCode)
		}
		if resp, _ := a.postForm("/organisers", url.Values{"name": {"日本将棋連盟"}, "name_en": {"Japan Shogi Association"}, "kind": {"federation"}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("organiser: %d", resp.StatusCode)
		}
		orgs, _ := a.store.Organisers(ctx)
		if len(orgs) != 1 {
			t.Fatalf("%d organisers", len(orgs))
		}
		orgID := strconv.FormatInt(orgs[0].ID, 10)
		resp, _ = a.postForm("/organisers/"+orgID, url.Values{"name": {"日本将棋連盟"}, "kind": {"federation"}, "note": {"公式戦"}})
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("edit organiser: %d", resp.StatusCode)
		}

		ev := url.Values{"organiser_id": {orgID}, "name": {"第1期テスト戦"}, "kind": {"knockout"}, "start_date": {"2026-12-01"}, "end_date": {"2026-11-30"}}
		resp, body = a.postForm("/events", ev)
		if resp.StatusCode != http.StatusUnprocessableEntity || testid(t, body, "error-end_date") == "" {
			t.Fatalf("end before start: %d", resp.StatusCode)
		}
		if evs, _ := a.store.Events(ctx, storeAll()); len(evs) != 0 {
			t.Fatal("invalid event saved")
		}
		ev.Set("end_date", "2027-03-31")
		resp, _ = a.postForm("/events", ev)
		if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/events/") {
			t.Fatalf("create event: %d", resp.StatusCode)
		}
		path := resp.Header.Get("Location")

		// A draft: hidden from the public, in list and detail.
		public := a.newClient()
		_, body = a.do(public, http.MethodGet, "/events", nil, "")
		if strings.Contains(body, "第1期テスト戦") {
			t.Fatal("public list shows a draft")
		}
		if resp, _ := a.do(public, http.MethodGet, path, nil, ""); resp.StatusCode != http.StatusNotFound {
			t.Fatalf("public opens a draft: %d", resp.StatusCode)
		}

		// Grant the director role; the director publishes.
		resp, _ = a.postForm(path+"/roles", url.Values{"user_id": {strconv.FormatInt(dir.ID, 10)}, "role": {office.RoleDirector}})
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("grant: %d", resp.StatusCode)
		}
		resp, body = a.postForm(path+"/roles", url.Values{"user_id": {strconv.FormatInt(dir.ID, 10)}, "role": {office.RoleDirector}})
		if resp.StatusCode != http.StatusUnprocessableEntity || testid(t, body, "error-user") == "" {
			t.Fatalf("grant twice: %d", resp.StatusCode)
		}
		a.loginAs("director", "director-pass")
		_, body = a.get(path)
		if doc(t, body).Find(`[data-testid="role-director-director"]`).Length() != 1 || doc(t, body).Find(`[data-testid="status-published"]`).Length() != 1 {
			t.Fatal("director does not see the role or the publish button")
		}
		if resp, _ := a.postForm(path+"/status", url.Values{"to": {"finished"}}); resp.StatusCode != http.StatusUnprocessableEntity {
			t.Fatalf("draft → finished: %d", resp.StatusCode)
		}
		if resp, _ := a.postForm(path+"/status", url.Values{"to": {"published"}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("publish: %d", resp.StatusCode)
		}
		resp, body = a.do(public, http.MethodGet, path, nil, "")
		if resp.StatusCode != 200 || testid(t, body, "event-status") != "公開中" {
			t.Fatalf("public sees the published event: %d %q", resp.StatusCode, testid(t, body, "event-status"))
		}
		if doc(t, body).Find(`[data-testid="role-form"]`).Length() != 0 || doc(t, body).Find(`[data-testid^="status-"]`).Length() != 0 {
			t.Fatal("public sees management forms")
		}
		// The public cannot change the status.
		pubApp := *a
		pubApp.client = public
		if resp, _ := pubApp.postForm(path+"/status", url.Values{"to": {"finished"}}); resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/login") {
			t.Fatalf("public changes status: %d", resp.StatusCode)
		}
		// Revoke: the director loses the buttons.
		a.loginAs("root", "root-password")
		resp, _ = a.postForm(path+"/roles/revoke", url.Values{"user_id": {strconv.FormatInt(dir.ID, 10)}, "role": {office.RoleDirector}})
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("revoke: %d", resp.StatusCode)
		}
		a.loginAs("director", "director-pass")
		if resp, _ := a.postForm(path+"/status", url.Values{"to": {"finished"}}); resp.StatusCode != http.StatusForbidden {
			t.Fatalf("revoked director changes status: %d", resp.StatusCode)
		}
	})
}

func TestEvents_EveryEnumHasMessagesInBothLanguages(t *testing.T) {
	t.Parallel()
	m, err := site.LoadMessages()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, k := range office.EventKinds {
		ids = append(ids, "events.kind."+k)
	}
	for _, k := range office.OrganiserKinds {
		ids = append(ids, "events.organiser_kind."+k)
	}
	for _, r := range office.EventRoleNames {
		ids = append(ids, "events.role."+r)
	}
	for _, s := range []string{office.StatusDraft, office.StatusPublished, office.StatusFinished} {
		ids = append(ids, "events.status."+s)
		for _, to := range []string{office.StatusPublished, office.StatusFinished} {
			if s != to && !(s == office.StatusDraft && to == office.StatusFinished) {
				ids = append(ids, "events.status_action."+s+"."+to)
			}
		}
	}
	for _, id := range ids {
		for _, lang := range site.Languages {
			if !m.Has(lang, id) {
				t.Errorf("message %q missing in %s", id, lang)
			}
		}
	}
}

func storeAll() store.EventFilter { return store.EventFilter{} }
