package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"kisen/office"
)

// TestMasterPicker_SearchesByNameOrReadingAndChooses: the 師匠 picker on
// the master form lists players whose name or reading matches what is
// typed (never the player themselves), a click answers the picker with
// the choice held in master_id, and the form stores that master.
func TestMasterPicker_SearchesByNameOrReadingAndChooses(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		admin := a.addUser("admin", true)
		a.signIn(a.client, admin.ID)
		act := office.Actor{UserID: admin.ID, Admin: true}
		mk := func(name, reading string) int64 {
			p, err := a.srv.Office.CreatePlayer(ctx, act, office.PlayerInput{Name: name, Reading: reading, Kind: "professional", Rank: "九段"})
			if err != nil {
				t.Fatal(err)
			}
			return p.ID
		}
		master := mk("山田 師匠", "やまだ ししょう")
		other := mk("山田 弟子", "やまだ でし")
		mk("佐藤 別人", "さとう べつじん")
		_, form := a.get(fmt.Sprintf("/players/%d/master", other))
		if n := doc(t, form).Find(`[data-testid="master-change-form"] [data-testid="master-search"]`).Length(); n != 1 {
			t.Fatalf("the change form has %d picker search boxes", n)
		}
		if v, _ := doc(t, form).Find(`[data-testid="master-search"]`).Attr("hx-trigger"); !strings.Contains(v, "input changed delay:300ms") {
			t.Errorf("picker trigger %q", v)
		}
		for _, q := range []string{"やまだ", "ヤマダ", "山田"} {
			_, body := a.get(fmt.Sprintf("/players/picker?exclude=%d&master_q=%s", other, url.QueryEscape(q)))
			got := doc(t, body).Find(`[data-testid="master-candidate"]`)
			if got.Length() != 1 || !strings.Contains(got.Text(), "山田 師匠") || !strings.Contains(got.Text(), "九段") {
				t.Fatalf("search %q: %d candidates %q (the player themselves must not be one)", q, got.Length(), got.Text())
			}
		}
		_, body := a.get("/players/picker?master_q=" + url.QueryEscape("存在しない"))
		if testid(t, body, "master-none") == "" {
			t.Error("no word when nothing matches")
		}
		_, body = a.get(fmt.Sprintf("/players/picker/choose?id=%d&exclude=%d", master, other))
		d := doc(t, body)
		if v, _ := d.Find(`input[name="master_id"]`).Attr("value"); v != fmt.Sprint(master) || !strings.Contains(d.Text(), "山田 師匠") {
			t.Fatalf("chosen picker: id %q text %q", v, d.Text())
		}
		// The form with the chosen id stores the master; a bad date keeps
		// the choice on the form shown again.
		path := fmt.Sprintf("/players/%d/master", other)
		resp, body := a.postForm(path, url.Values{"master_id": {fmt.Sprint(master)}, "master_since": {"not a date"}})
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(doc(t, body).Find(`[data-testid="master-change-form"] [data-testid="master-picked"]`).Text(), "山田 師匠") {
			t.Fatalf("refused form: %d, choice kept %q", resp.StatusCode, doc(t, body).Find(`[data-testid="master-picked"]`).Text())
		}
		resp, _ = a.postForm(path, url.Values{"master_id": {fmt.Sprint(master)}, "master_since": {"2020-04-01"}})
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("master change: %d", resp.StatusCode)
		}
		_, body = a.get(fmt.Sprintf("/players/%d", other))
		if !strings.Contains(testid(t, body, "lineage-master"), "山田 師匠") {
			t.Fatalf("lineage master %q", testid(t, body, "lineage-master"))
		}
	})
}
