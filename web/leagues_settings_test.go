package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// settingsValues reads the settings form as the page filled it in.
func settingsValues(t *testing.T, body string) url.Values {
	t.Helper()
	form := doc(t, body).Find(`[data-testid="league-settings-form"]`)
	if form.Length() != 1 {
		t.Fatal("no settings form")
	}
	v := url.Values{}
	form.Find("input").Each(func(_ int, in *goquery.Selection) {
		name, _ := in.Attr("name")
		if name == "" || name == "_csrf" {
			return
		}
		if typ, _ := in.Attr("type"); typ == "checkbox" {
			if _, on := in.Attr("checked"); on {
				v.Set(name, "1")
			}
			return
		}
		v.Set(name, in.AttrOr("value", ""))
	})
	v.Set("previous_term", form.Find(`select[name="previous_term"] option[selected]`).AttrOr("value", ""))
	return v
}

// The class settings form: D-A2 cannot be switched off in C2 (422, the
// message by the field, the input kept); a practice rule can, and the
// rules list shows it; after publication the form is gone and a post is
// refused.
func TestLeagueWeb_SettingsForm_D_A2(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := newLeagueFixture(t, a, 11)
		a.signIn(a.client, f.sched.ID)
		resp, _ := a.postForm(f.base()+"/classes", url.Values{"class": {"C2"}, "members": {f.memberLines()}, "games_per_player": {"4"}})
		classURL := resp.Header.Get("Location")
		_, body := a.get(classURL)
		vals := settingsValues(t, body)
		if vals.Get("master_student.never") != "1" || vals.Get("relatives.never") != "1" || vals.Get("previous_term") != "forbid" {
			t.Fatalf("C2 defaults not shown: %v", vals)
		}
		bad := url.Values{}
		for k, vs := range vals {
			bad[k] = vs
		}
		bad.Del("master_student.never")
		bad.Set("relatives.not_last", "2")
		resp, body = a.postForm(classURL+"/settings", bad)
		if resp.StatusCode != http.StatusUnprocessableEntity {
			t.Fatalf("D-A2 off: %d", resp.StatusCode)
		}
		d := doc(t, body)
		if msg := d.Find(`[data-testid="error-master_student.never"]`).Text(); !strings.Contains(msg, "公式棋戦規約 第8条A-2") || strings.Contains(msg, "D-A2") {
			t.Errorf("message by the field: %q", msg)
		}
		if got := settingsValues(t, body); got.Get("relatives.not_last") != "2" || got.Get("master_student.never") != "" {
			t.Errorf("input not kept: %v", got)
		}
		// Relatives are federation practice: they may meet.
		vals.Del("relatives.never")
		if resp, _ = a.postForm(classURL+"/settings", vals); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("relatives off: %d", resp.StatusCode)
		}
		_, body = a.get(classURL)
		if got := settingsValues(t, body); got.Get("relatives.never") != "" {
			t.Error("relatives.never still on")
		}
		if !strings.Contains(doc(t, body).Find(".league-rules").Text(), "肉親: 制限なし") {
			t.Errorf("rules list: %q", doc(t, body).Find(".league-rules").Text())
		}
		if resp, _ = a.postForm(classURL+"/generate", url.Values{"seed": {"3"}, "draw_date": {"2026-05-01"}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("generate: %d", resp.StatusCode)
		}
		if resp, _ = a.postForm(classURL+"/publish", url.Values{"confirm": {"1"}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("publish: %d", resp.StatusCode)
		}
		_, body = a.get(classURL)
		if doc(t, body).Find(`[data-testid="league-settings-form"]`).Length() != 0 {
			t.Error("settings form shown after publication")
		}
		if resp, _ = a.postForm(classURL+"/settings", vals); resp.StatusCode != http.StatusConflict {
			t.Errorf("settings after publication: %d, want 409", resp.StatusCode)
		}
	})
}
