package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"kisen/web/site"
)

func TestRelativesPage_AddListRemove(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := newLeagueFixture(t, a, 3)
		p0, p1 := f.players[0], f.players[1]
		base := site.PlayerURL(p0.ID) + "/relatives"

		// The public cannot add.
		if res, _ := a.postForm(base, url.Values{"other": {*p1.Number}}); strings.HasPrefix(res.Header.Get("Location"), site.PlayerURL(p0.ID)) {
			t.Fatalf("anonymous add accepted: %d %s", res.StatusCode, res.Header.Get("Location"))
		}
		if _, body := a.get(base); !strings.Contains(body, `data-testid="relatives-none"`) {
			t.Fatal("anonymous add wrote a pair")
		}
		admin := a.addUser("admin", true)
		a.signIn(a.client, admin.ID)

		// The player page carries the hook that loads the section.
		_, body := a.get(site.PlayerURL(p0.ID))
		if !strings.Contains(body, `data-testid="relatives-hook"`) || !strings.Contains(body, `hx-get="`+base+`"`) {
			t.Fatal("player page has no relatives hook")
		}
		// A self pair: 422, input kept, message next to the field.
		res, body := a.postForm(base, url.Values{"other": {*p0.Number}, "relation": {"親子"}})
		if res.StatusCode != http.StatusUnprocessableEntity {
			t.Fatalf("self pair: %d", res.StatusCode)
		}
		doc, _ := goquery.NewDocumentFromReader(strings.NewReader(body))
		if doc.Find(`[data-testid="error-other"]`).Length() != 1 || doc.Find(`input[name="relation"]`).AttrOr("value", "") != "親子" {
			t.Errorf("self pair: no field message or input lost")
		}
		res, _ = a.postForm(base, url.Values{"other": {p1.Name}, "relation": {"兄弟"}})
		if res.StatusCode != http.StatusSeeOther {
			t.Fatalf("add: %d", res.StatusCode)
		}
		// Listed on both players, as the htmx fragment and as a page.
		for _, p := range []string{site.PlayerURL(p0.ID), site.PlayerURL(p1.ID)} {
			req, _ := http.NewRequest(http.MethodGet, a.ts.URL+p+"/relatives", nil)
			req.Header.Set("HX-Request", "true")
			_, frag := a.send(a.client, req)
			d, _ := goquery.NewDocumentFromReader(strings.NewReader(frag))
			if n := d.Find(`[data-testid="relative"]`).Length(); n != 1 || !strings.Contains(d.Find(`[data-testid="relative"]`).Text(), "兄弟") {
				t.Errorf("%s: %d relatives in %q", p, n, frag)
			}
			if strings.Contains(frag, "<html") {
				t.Errorf("%s: htmx answer is a whole page", p)
			}
		}
		_, body = a.get(base)
		doc, _ = goquery.NewDocumentFromReader(strings.NewReader(body))
		action, _ := doc.Find(`[data-testid="relative"] form`).Attr("action")
		// A pair cannot be removed through another player's page.
		other := strings.Replace(action, site.PlayerURL(p0.ID), site.PlayerURL(f.players[2].ID), 1)
		if res, _ := a.postForm(other, nil); res.StatusCode != http.StatusNotFound {
			t.Errorf("remove through a stranger's page: %d", res.StatusCode)
		}
		if res, _ := a.postForm(action, nil); res.StatusCode != http.StatusSeeOther {
			t.Fatalf("remove: %d", res.StatusCode)
		}
		_, body = a.get(base)
		if !strings.Contains(body, `data-testid="relatives-none"`) {
			t.Error("pair still listed after removal")
		}
	})
}
