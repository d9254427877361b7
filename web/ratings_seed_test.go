package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"kisen/office"
	"kisen/store"
)

// entrantSeeds reads the seed column of the stage page's entrant table,
// keyed by the player's name.
func entrantSeeds(t *testing.T, body string) map[string]string {
	t.Helper()
	out := map[string]string{}
	docOf(t, body).Find(`[data-testid="entrants"] tbody tr`).Each(func(_ int, s *goquery.Selection) {
		name := strings.TrimSpace(s.Find("td").First().Contents().First().Text())
		out[name] = strings.TrimSpace(s.Find("td").Eq(1).Text())
	})
	return out
}

// Seeds follow the ratings of newRatingSetup (A 1530.5, D 1516, C 1484,
// B 1469.5, worked out by hand there): applying two seeds gives A 1 and
// D 2 on the stage page; a bad count and a drawn stage are refused with a
// message in each language; only directors may apply.
func TestRatingSeedsWeb_ApplyFromRatings(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		r := newRatingSetup(t, a)
		ctx := context.Background()
		o := a.srv.Office
		st, err := o.CreateStage(ctx, r.admin, office.StageInput{EventID: r.event.ID, Name: "本戦", Kind: office.StageKinds[0], RoundDates: "2026-07-01"})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []store.Player{r.b, r.c, r.d, r.a} {
			in := office.EntrantInput{StageID: st.ID, PlayerID: p.ID}
			if p.ID == r.b.ID {
				in.Seed = 1 // by hand; the rating order takes it away
			}
			if _, err := o.AddEntrant(ctx, r.admin, in); err != nil {
				t.Fatal(err)
			}
		}
		seedsPath := fmt.Sprintf("/stages/%d/seeds", st.ID)
		stagePath := fmt.Sprintf("/stages/%d", st.ID)

		outsider := a.addUser("outsider", false)
		a.signIn(a.client, outsider.ID)
		// The stage is not published: for whoever is not the event's staff
		// it does not exist, as its page (issue 21; docs/security.md).
		if resp, _ := a.postForm(seedsPath, url.Values{"count": {"2"}}); resp.StatusCode != http.StatusNotFound {
			t.Fatalf("outsider: %d, want 404", resp.StatusCode)
		}
		a.client = a.newClient() // the public
		if resp, _ := a.postForm(seedsPath, url.Values{"count": {"2"}}); resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/login") {
			t.Fatalf("public: %d to %q, want 303 to /login", resp.StatusCode, resp.Header.Get("Location"))
		}

		a.client = a.newClient()
		a.signIn(a.client, r.admin.UserID)
		_, body := a.get(stagePath)
		if docOf(t, body).Find(`[data-testid="seeds-link"]`).Length() != 1 {
			t.Errorf("the stage page does not link to the seeds page")
		}
		_, body = a.get(seedsPath)
		if docOf(t, body).Find(`[data-testid="seed-apply-form"] input[name="count"]`).Length() != 1 {
			t.Fatalf("no apply form on the seeds page")
		}

		msgs := map[string]string{}
		for _, lang := range []string{"ja", "en"} {
			a.get("/lang?to=" + lang)
			resp, body := a.postForm(seedsPath, url.Values{"count": {"5"}})
			if resp.StatusCode != http.StatusUnprocessableEntity {
				t.Fatalf("%s: count 5 of 4 entrants answered %d", lang, resp.StatusCode)
			}
			msgs[lang] = testid(t, body, "error-count")
			if v, _ := docOf(t, body).Find(`input[name="count"]`).Attr("value"); v != "5" {
				t.Errorf("%s: typed count not kept: %q", lang, v)
			}
			if resp, _ := a.postForm(seedsPath, url.Values{"count": {"two"}}); resp.StatusCode != http.StatusUnprocessableEntity {
				t.Errorf("%s: count \"two\" answered %d", lang, resp.StatusCode)
			}
		}
		if msgs["ja"] == "" || msgs["ja"] == msgs["en"] || !hasJapanese(msgs["ja"]) || hasJapanese(msgs["en"]) {
			t.Errorf("count messages ja %q / en %q are not the two languages", msgs["ja"], msgs["en"])
		}

		resp, _ := a.postForm(seedsPath, url.Values{"count": {"2"}})
		if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != stagePath {
			t.Fatalf("apply: %d to %q, want 303 to %s", resp.StatusCode, resp.Header.Get("Location"), stagePath)
		}
		_, body = a.get(stagePath)
		got := entrantSeeds(t, body)
		want := map[string]string{r.a.Name: "1", r.d.Name: "2", r.c.Name: "", r.b.Name: ""}
		for name, w := range want {
			if got[name] != w {
				t.Errorf("stage page: %s seed %q, want %q (all: %v)", name, got[name], w, got)
			}
		}

		if _, err := o.DrawStage(ctx, r.admin, office.DrawInput{StageID: st.ID, Seed: "42", DrawDate: "2026-06-01"}); err != nil {
			t.Fatal(err)
		}
		_, body = a.get(seedsPath)
		if docOf(t, body).Find(`[data-testid="seed-apply-closed"]`).Length() != 1 || docOf(t, body).Find(`[data-testid="seed-apply-form"]`).Length() != 0 {
			t.Errorf("a drawn stage still offers the apply form")
		}
		drawn := map[string]string{}
		for _, lang := range []string{"ja", "en"} {
			a.get("/lang?to=" + lang)
			resp, body := a.postForm(seedsPath, url.Values{"count": {"3"}})
			if resp.StatusCode != http.StatusUnprocessableEntity {
				t.Fatalf("%s: after the draw answered %d", lang, resp.StatusCode)
			}
			drawn[lang] = testid(t, body, "error-")
		}
		if drawn["ja"] == "" || !hasJapanese(drawn["ja"]) || hasJapanese(strings.ReplaceAll(drawn["en"], "本戦", "")) || !strings.Contains(drawn["en"], "本戦") {
			t.Errorf("drawn messages ja %q / en %q", drawn["ja"], drawn["en"])
		}
		_, body = a.get(stagePath)
		if got := entrantSeeds(t, body); got[r.a.Name] != "1" || got[r.d.Name] != "2" || got[r.c.Name] != "" {
			t.Errorf("a refused request changed the seeds: %v", got)
		}
	})
}
