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
	"kisen/office/seed"
	"kisen/pairing"
)

// embedFixture is a published knockout stage and a published league class
// of one organiser, plus a drawn (unpublished) stage and a draft event's
// published stage.
type embedFixture struct {
	f                   *seed.Fixture
	eventKO, stage      int64
	eventLeague, class  int64
	drawnStage          int64
	draftEvent, draftSt int64
}

func newEmbedFixture(t *testing.T, a *testApp) embedFixture {
	t.Helper()
	ctx := context.Background()
	f, err := seed.New(ctx, a.srv.Office, a.store, a.now)
	if err != nil {
		t.Fatal(err)
	}
	var x embedFixture
	x.f = f
	ek, st, err := f.Knockout(ctx, 8, 1)
	if err != nil {
		t.Fatal(err)
	}
	x.eventKO, x.stage = ek.ID, st.ID
	el, c, err := f.League(ctx, 11, 5)
	if err != nil {
		t.Fatal(err)
	}
	x.eventLeague, x.class = el.ID, c.ID
	o := a.srv.Office
	drawn, err := o.CreateStage(ctx, f.Admin, office.StageInput{EventID: ek.ID, Name: "二次予選", Kind: string(pairing.SecondPreliminary)})
	if err != nil {
		t.Fatal(err)
	}
	x.drawnStage = drawn.ID
	de, err := o.CreateEvent(ctx, f.Admin, office.EventInput{OrganiserID: f.Org.ID, Name: "下書きの棋戦", Kind: office.EventKnockout, StartDate: "2026-06-01", EndDate: "2026-12-31"})
	if err != nil {
		t.Fatal(err)
	}
	ds, err := o.CreateStage(ctx, f.Admin, office.StageInput{EventID: de.ID, Name: "本戦", Kind: string(pairing.MainEvent)})
	if err != nil {
		t.Fatal(err)
	}
	ps, err := f.Players(ctx, 4, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if _, err := o.AddEntrant(ctx, f.Admin, office.EntrantInput{StageID: ds.ID, PlayerID: p.ID}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := o.DrawStage(ctx, f.Admin, office.DrawInput{StageID: ds.ID, Seed: "1", DrawDate: "2026-06-01"}); err != nil {
		t.Fatal(err)
	}
	x.draftEvent, x.draftSt = de.ID, ds.ID
	return x
}

// textOfSel is the whitespace-normalised text of the first match of css.
func textOfSel(t *testing.T, body, css string) string {
	t.Helper()
	d, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	s := d.Find(css).First()
	if s.Length() == 0 {
		return ""
	}
	return strings.Join(strings.Fields(s.Text()), " ")
}

// TestEmbed_FrameAncestorsFollowTheOrganiserSetting: an embed is framed
// only by the organiser's origins (CSP frame-ancestors; 'none' while the
// list is empty) and carries no X-Frame-Options; every other page keeps
// DENY and frame-ancestors 'none'. The embed shows the public page's
// bracket and table, without the site's navigation. Both databases.
func TestEmbed_FrameAncestorsFollowTheOrganiserSetting(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		x := newEmbedFixture(t, a)
		ctx := context.Background()
		stageEmbed, classEmbed := fmt.Sprintf("/embed/stages/%d", x.stage), fmt.Sprintf("/embed/league/%d", x.class)
		check := func(path, wantAncestors string) string {
			t.Helper()
			resp, body := a.get(path)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("%s: %d\n%s", path, resp.StatusCode, body)
			}
			csp := resp.Header.Get("Content-Security-Policy")
			if !strings.HasSuffix(csp, "frame-ancestors "+wantAncestors) || strings.Count(csp, "frame-ancestors") != 1 {
				t.Errorf("%s: CSP %q, want frame-ancestors %s", path, csp, wantAncestors)
			}
			if !strings.Contains(csp, "script-src 'self'") {
				t.Errorf("%s: CSP %q lost the site's own policy", path, csp)
			}
			if xfo := resp.Header.Get("X-Frame-Options"); xfo != "" {
				t.Errorf("%s: X-Frame-Options %q on an embed", path, xfo)
			}
			if strings.Contains(body, `class="site"`) || strings.Contains(body, `data-testid="nav-login"`) {
				t.Errorf("%s: the embed carries the site's navigation", path)
			}
			return body
		}
		check(stageEmbed, "'none'")
		check(classEmbed, "'none'")
		if err := a.srv.Office.SetOrganiserEmbedOrigins(ctx, x.f.Admin, x.f.Org.ID, "https://example.jp\nhttp://localhost:8080"); err != nil {
			t.Fatal(err)
		}
		sb := check(stageEmbed, "https://example.jp http://localhost:8080")
		cb := check(classEmbed, "https://example.jp http://localhost:8080")

		// The same content as the public pages.
		_, brackets := a.get(fmt.Sprintf("/events/%d/brackets", x.eventKO))
		sel := fmt.Sprintf(`[data-testid="bracket-%d"]`, x.stage)
		if got, want := textOfSel(t, sb, sel), textOfSel(t, brackets, sel); got == "" || got != want {
			t.Errorf("stage embed's bracket\n%q\nbrackets page's\n%q", got, want)
		}
		_, classPage := a.get(fmt.Sprintf("/league/%d", x.class))
		if got, want := textOfSel(t, cb, `[data-testid="league-table"]`), textOfSel(t, classPage, `[data-testid="league-table"]`); got == "" || got != want {
			t.Errorf("league embed's table\n%q\nclass page's\n%q", got, want)
		}
		if !strings.Contains(sb, `id="embed-body"`) || !strings.Contains(sb, `<base target="_blank">`) {
			t.Errorf("stage embed lacks its body hook or the new-tab base:\n%s", sb)
		}
		// Live like the public pages (docs/live.md): the stream of the
		// embed's own event, and a region that fetches the embed again.
		for body, event := range map[string]int64{sb: x.eventKO, cb: x.eventLeague} {
			d := doc(t, body)
			u, _ := d.Find("body").Attr("sse-connect")
			if !strings.HasPrefix(u, fmt.Sprintf("/events/%d/stream", event)) {
				t.Errorf("embed streams %q, want event %d's stream", u, event)
			}
			if d.Find(`#embed-live[hx-trigger="sse:changed"] #embed-body`).Length() != 1 {
				t.Errorf("the embed's body is not in a live region")
			}
		}

		// Every other page keeps DENY.
		for _, path := range []string{"/", fmt.Sprintf("/events/%d/brackets", x.eventKO), fmt.Sprintf("/league/%d", x.class),
			fmt.Sprintf("/embed/stages/%d", x.drawnStage), "/embed/stages/999999"} {
			resp, _ := a.get(path)
			if resp.Header.Get("X-Frame-Options") != "DENY" || !strings.HasSuffix(resp.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
				t.Errorf("%s (%d): X-Frame-Options %q, CSP %q; want DENY and 'none'", path, resp.StatusCode,
					resp.Header.Get("X-Frame-Options"), resp.Header.Get("Content-Security-Policy"))
			}
		}

		// English through the query, as a framed page may have no cookie.
		resp, en := a.get(stageEmbed + "?lang=en")
		if resp.StatusCode != http.StatusOK || !strings.Contains(en, `<html lang="en">`) {
			t.Errorf("?lang=en: %d, not an English page", resp.StatusCode)
		}
	})
}

// TestEmbed_DraftsAreNeverEmbeddable: a draft event's stage, an
// unpublished stage and an unpublished class are not found — also for a
// signed-in administrator, who sees them on the normal pages.
func TestEmbed_DraftsAreNeverEmbeddable(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		x := newEmbedFixture(t, a)
		ctx := context.Background()
		if err := a.srv.Office.SetOrganiserEmbedOrigins(ctx, x.f.Admin, x.f.Org.ID, "https://example.jp"); err != nil {
			t.Fatal(err)
		}
		// An unpublished class: a second class of the league event, scheduled, not published.
		ps, err := x.f.Players(ctx, 11, "C2")
		if err != nil {
			t.Fatal(err)
		}
		var lines strings.Builder
		for _, p := range ps {
			lines.WriteString(*p.Number + "\n")
		}
		c, err := a.srv.Office.AddLeagueClass(ctx, x.f.Admin, office.LeagueClassInput{EventID: x.eventLeague, Class: "C1", Members: lines.String(), AllowanceMinutes: 360})
		if err != nil {
			t.Fatal(err)
		}
		hidden := []string{fmt.Sprintf("/embed/stages/%d", x.draftSt), fmt.Sprintf("/embed/stages/%d", x.drawnStage), fmt.Sprintf("/embed/league/%d", c.ID)}
		for _, signedIn := range []bool{false, true} {
			if signedIn {
				a.signIn(a.client, x.f.Admin.UserID)
				if resp, _ := a.get(fmt.Sprintf("/stages/%d", x.draftSt)); resp.StatusCode != http.StatusOK {
					t.Fatalf("the administrator cannot see the draft stage's page: %d", resp.StatusCode)
				}
			}
			for _, path := range hidden {
				resp, body := a.get(path)
				if resp.StatusCode != http.StatusNotFound {
					t.Errorf("signed in %v: %s: %d, want 404", signedIn, path, resp.StatusCode)
				}
				if strings.Contains(body, "下書きの棋戦") {
					t.Errorf("signed in %v: %s discloses the draft", signedIn, path)
				}
			}
		}
	})
}

// TestEmbed_OrganiserSettingForm: the organiser's form saves the list,
// refuses a bad line with a 422 naming the line (ja and en), and the stage
// and class pages give their staff the <iframe> code.
func TestEmbed_OrganiserSettingForm(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		x := newEmbedFixture(t, a)
		a.signIn(a.client, x.f.Admin.UserID)
		path := fmt.Sprintf("/organisers/%d/embeds", x.f.Org.ID)
		if resp, body := a.get(path); resp.StatusCode != http.StatusOK || !strings.Contains(body, `data-testid="organiser-embeds-form"`) {
			t.Fatalf("GET %s: %d", path, resp.StatusCode)
		}
		resp, body := a.postForm(path, url.Values{"origins": {"https://example.jp\nexample.org/embed"}})
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "2行目") || !strings.Contains(body, "example.org/embed") {
			t.Errorf("bad line: %d, want 422 naming line 2\n%s", resp.StatusCode, body)
		}
		a.setLang(a.client, "en")
		resp, body = a.postForm(path, url.Values{"origins": {"ftp://example.jp"}})
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "line 1") {
			t.Errorf("bad line in English: %d, want 422 naming line 1\n%s", resp.StatusCode, body)
		}
		a.setLang(a.client, "ja")
		resp, _ = a.postForm(path, url.Values{"origins": {"https://example.jp/\r\nhttps://kisen.example:8443"}})
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("save: %d, want 303", resp.StatusCode)
		}
		if _, body := a.get(path); !strings.Contains(body, "https://example.jp\nhttps://kisen.example:8443") {
			t.Errorf("the form does not show the saved list:\n%s", body)
		}
		for _, tc := range []struct{ page, embed string }{
			{fmt.Sprintf("/stages/%d", x.stage), fmt.Sprintf("/embed/stages/%d", x.stage)},
			{fmt.Sprintf("/league/%d", x.class), fmt.Sprintf("/embed/league/%d", x.class)},
		} {
			_, body := a.get(tc.page)
			code := textOfSel(t, body, `[data-testid="embed-code"]`)
			if !strings.HasPrefix(code, `<iframe src="`+a.ts.URL+tc.embed+`"`) {
				t.Errorf("%s: embed code %q, want an iframe of %s", tc.page, code, tc.embed)
			}
		}
		// The public sees no code.
		pub := a.newClient()
		r, err := pub.Get(a.ts.URL + fmt.Sprintf("/league/%d", x.class))
		if err != nil {
			t.Fatal(err)
		}
		defer r.Body.Close()
		d, err := goquery.NewDocumentFromReader(r.Body)
		if err != nil {
			t.Fatal(err)
		}
		if d.Find(`[data-testid="embed-code"]`).Length() != 0 {
			t.Error("the public is shown the embed code")
		}
	})
}
