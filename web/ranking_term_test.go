package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"kisen/office"
	"kisen/store"
)

// termLine1 and termLine2 are a two-group table (D-G1): 1組 relegates the
// last of its 残留決定戦 (the 1回戦 losers), 2組 promotes its 優勝.
const (
	termLine1 = `{"group": 1, "places": [{"source": "winner", "slot": "1組1位"}], "promoted": [], "survival": {"round": 1, "relegated": 1}}`
	termLine2 = `{"group": 2, "places": [{"source": "winner", "slot": "2組1位"}], "promoted": [{"source": "winner"}]}`
)

// rankingTermScene is a ranking event of two groups, played or not, and
// players outside it (new entrants to choose).
type rankingTermScene struct {
	event     store.Event
	groups    [2]store.KnockoutStage
	members   [2][]store.Player
	outsiders []store.Player
	// Once played: 1組's relegated player, one who stays there, and 2組's
	// 優勝 (promoted), by name; the promoted player's id.
	relegated, stays, promoted string
	promotedID                 int64
}

// read fills in who moves from the groups' outcomes.
func (sc *rankingTermScene) read(t *testing.T, f *bracketFixture) {
	t.Helper()
	eb, err := f.o.EventBrackets(context.Background(), f.admin, sc.event.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, sb := range eb.Stages {
		r := sb.Ranking
		switch {
		case r == nil:
		case r.Outcome.Group == 1 && len(r.Outcome.Relegated) == 1 && len(r.Outcome.Stays) > 0:
			sc.relegated, sc.stays = eb.PlayerName(r.Outcome.Relegated[0]), eb.PlayerName(r.Outcome.Stays[0])
		case r.Outcome.Group == 2 && len(r.Outcome.Promoted) == 1:
			sc.promoted = eb.PlayerName(r.Outcome.Promoted[0])
			sc.promotedID, _ = strconv.ParseInt(r.Outcome.Promoted[0], 10, 64)
		}
	}
	if sc.relegated == "" || sc.promoted == "" {
		t.Fatal("the groups did not finish with one relegated and one promoted")
	}
}

// newRankingTermScene makes an event of two groups of size players each
// (published, so the event is) with newcomers players outside, and plays
// every game when play is set (the upper line winning).
func newRankingTermScene(t *testing.T, f *bracketFixture, size, newcomers int, play bool) *rankingTermScene {
	t.Helper()
	ctx := context.Background()
	sc := &rankingTermScene{}
	ev, err := f.o.CreateEvent(ctx, f.admin, office.EventInput{OrganiserID: f.event.OrganiserID, Name: "竜王戦", NameEn: "Ryuo", Kind: office.EventKnockout, StartDate: "2026-12-01", EndDate: "2027-03-31"})
	if err != nil {
		t.Fatal(err)
	}
	sc.event = ev
	mk := func(prefix string, n int) []store.Player {
		var out []store.Player
		for i := range n {
			p, err := f.o.CreatePlayer(ctx, f.admin, office.PlayerInput{Name: fmt.Sprintf("%s%02d", prefix, i+1), Reading: "きし", Kind: "professional", Rank: "四段"})
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, p)
		}
		return out
	}
	tag := strconv.FormatInt(ev.ID, 10)
	for g, line := range []string{termLine1, termLine2} {
		sc.members[g] = mk(fmt.Sprintf("棋士%s組%d-", tag, g+1), size)
		st, err := f.o.CreateStage(ctx, f.admin, office.StageInput{EventID: ev.ID, Name: strconv.Itoa(g+1) + "組", Kind: "first_preliminary", RankingRule: line})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range sc.members[g] {
			if _, err := f.o.AddEntrant(ctx, f.admin, office.EntrantInput{StageID: st.ID, PlayerID: p.ID}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := f.o.DrawStage(ctx, f.admin, office.DrawInput{StageID: st.ID, Seed: "24", DrawDate: "2026-11-01"}); err != nil {
			t.Fatal(err)
		}
		if err := f.o.PublishStage(ctx, f.admin, st.ID); err != nil {
			t.Fatal(err)
		}
		sc.groups[g] = st
	}
	sc.outsiders = mk("新人"+tag+"-", newcomers)
	if !play {
		return sc
	}
	for _, st := range sc.groups {
		playRankingUpperLine(t, f.o, f.admin, ev.ID, st.ID, 0)
	}
	sc.read(t, f)
	return sc
}

func (sc *rankingTermScene) path() string {
	return "/events/" + strconv.FormatInt(sc.event.ID, 10) + "/ranking-term"
}

func idOf(p store.Player) string { return strconv.FormatInt(p.ID, 10) }

// TestRankingTerm_D_G5_PreviewConfirmPage: an administrator reaches the
// next term from the bracket page once every group has finished (the link
// is shown to nobody else and not before); the preview says per group, in
// players' names and in Japanese and English, who stays, who goes up, who
// goes down and who joins; new entrants are found in the registry and
// chosen; an unknown player or one already in the term is refused in
// words (422) and nothing is made; a confirmation with a stale
// fingerprint answers 409 in words with the fresh preview; the right one
// makes the new event (one group stage per group with its members) and
// leads to it. Everyone else gets 404, as for a missing event.
func TestRankingTerm_D_G5_PreviewConfirmPage(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := newBracketFixture(t, a)
		ctx := context.Background()
		sc := newRankingTermScene(t, f, 8, 2, false)
		brackets := "/events/" + strconv.FormatInt(sc.event.ID, 10) + "/brackets"

		// Before the groups finish: no link, the page says so in words.
		if _, body := a.get(brackets); doc(t, body).Find(`[data-testid="ranking-term-link"]`).Length() != 0 {
			t.Fatal("the next term is offered while the groups play")
		}
		resp, body := a.get(sc.path())
		if resp.StatusCode != http.StatusOK || testid(t, body, "error-event") == "" || doc(t, body).Find(`[data-testid="term-confirm"]`).Length() != 0 {
			t.Fatalf("unfinished term answered %d", resp.StatusCode)
		}
		for _, st := range sc.groups {
			playRankingUpperLine(t, f.o, f.admin, sc.event.ID, st.ID, 0)
		}
		sc.read(t, f)
		if _, body := a.get(brackets); doc(t, body).Find(`[data-testid="ranking-term-link"]`).Length() != 1 {
			t.Fatal("no link to the next term for the administrator")
		}

		// Nobody else sees the link or the page.
		director, outsider, anon := a.newClient(), a.newClient(), a.newClient()
		a.signIn(director, f.director.ID)
		a.signIn(outsider, f.outsider.ID)
		if err := f.o.GrantEventRole(ctx, f.admin, office.RoleGrant{EventID: sc.event.ID, UserID: f.director.ID, Role: office.RoleDirector}); err != nil {
			t.Fatal(err)
		}
		for name, c := range map[string]*http.Client{"director": director, "outsider": outsider, "public": anon} {
			if _, body := a.do(c, http.MethodGet, brackets, nil, ""); doc(t, body).Find(`[data-testid="ranking-term-link"]`).Length() != 0 {
				t.Fatalf("%s sees the next term's link", name)
			}
			if resp, _ := a.do(c, http.MethodGet, sc.path(), nil, ""); resp.StatusCode != http.StatusNotFound {
				t.Fatalf("%s GET answered %d", name, resp.StatusCode)
			}
			form := url.Values{"_csrf": {a.csrfToken(c)}, "name": {"次期"}, "start_date": {"2027-12-01"}, "end_date": {"2028-03-31"}, "fingerprint": {"x"}, "new": {"oops"}}
			if resp, _ := a.do(c, http.MethodPost, sc.path(), strings.NewReader(form.Encode()), "application/x-www-form-urlencoded"); resp.StatusCode != http.StatusNotFound {
				t.Fatalf("%s POST answered %d", name, resp.StatusCode)
			}
		}
		if resp, _ := a.get("/events/999999/ranking-term"); resp.StatusCode != http.StatusNotFound {
			t.Fatalf("a missing event answered %d", resp.StatusCode)
		}

		// The preview in words, ja and en, with a new entrant chosen.
		newcomer := sc.outsiders[0]
		stays := sc.stays
		for _, lang := range []string{"ja", "en"} {
			a.get("/lang?to=" + lang)
			resp, body := a.get(sc.path() + "?new=" + idOf(newcomer))
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("%s: preview answered %d", lang, resp.StatusCode)
			}
			d := doc(t, body)
			g1, g2 := d.Find(`[data-testid="term-group-1"]`), d.Find(`[data-testid="term-group-2"]`)
			if !strings.Contains(g1.Find(`[data-testid="term-stays"]`).Text(), stays) ||
				!strings.Contains(g1.Find(`[data-testid="term-down"]`).Text(), sc.relegated) ||
				!strings.Contains(g2.Find(`[data-testid="term-up"]`).Text(), sc.promoted) ||
				strings.TrimSpace(g2.Find(`[data-testid="term-joining"]`).Text()) != newcomer.Name {
				t.Fatalf("%s: preview\n1組 %q\n2組 %q", lang, g1.Text(), g2.Text())
			}
			if strings.Contains(g1.Find(`[data-testid="term-stays"]`).Text(), sc.relegated) || strings.Contains(g2.Find(`[data-testid="term-stays"]`).Text(), sc.promoted) {
				t.Fatalf("%s: a moving player is listed as staying", lang)
			}
			text := d.Find(`[data-testid="term-preview"]`).Text()
			if strings.Contains(text, idOf(newcomer)) || strings.Contains(text, "{") {
				t.Fatalf("%s: developer text in the preview %q", lang, text)
			}
			if lang == "ja" && !strings.Contains(text, "2組へ降級") || lang == "en" && (!strings.Contains(text, "Relegated to Group 2") || strings.Contains(text, "降級")) {
				t.Fatalf("%s: preview words %q", lang, text)
			}
			if v, _ := d.Find(`[data-testid="term-confirm"] input[name="new"]`).Attr("value"); v != idOf(newcomer) {
				t.Fatalf("%s: the confirmation carries new entrant %q", lang, v)
			}
		}
		a.get("/lang?to=ja")

		// The registry search lists players outside the term, not members.
		_, body = a.get(sc.path() + "?q=" + url.QueryEscape("新人"))
		var found []string
		doc(t, body).Find(`[data-testid="term-found"]`).Each(func(_ int, s *goquery.Selection) { found = append(found, strings.TrimSpace(s.Text())) })
		if len(found) != 2 || !strings.Contains(strings.Join(found, " "), sc.outsiders[0].Name) || !strings.Contains(strings.Join(found, " "), sc.outsiders[1].Name) {
			t.Fatalf("found %q", found)
		}
		_, body = a.get(sc.path() + "?q=" + url.QueryEscape(stays))
		if doc(t, body).Find(`[data-testid="term-found"]`).Length() != 0 {
			t.Fatal("a member of the term is offered as a new entrant")
		}

		// Bad input: 422 in words, nothing made.
		events := func() int {
			es, err := f.o.Events(ctx, f.admin)
			if err != nil {
				t.Fatal(err)
			}
			return len(es)
		}
		before := events()
		msgs := map[string]string{}
		for _, lang := range []string{"ja", "en"} {
			a.get("/lang?to=" + lang)
			for what, ids := range map[string]string{"unknown": "999999", "member": idOf(sc.members[1][3]), "letters": "abc"} {
				resp, body := a.get(sc.path() + "?new=" + ids)
				if resp.StatusCode != http.StatusUnprocessableEntity {
					t.Fatalf("%s %s: GET answered %d", lang, what, resp.StatusCode)
				}
				msg := testid(t, body, "error-new_entrants")
				if msg == "" || strings.Contains(msg, "999999") || (lang == "ja") != reRankingJa.MatchString(strings.ReplaceAll(msg, sc.members[1][3].Name, "")) {
					t.Fatalf("%s %s: message %q", lang, what, msg)
				}
				msgs[lang+what] = msg
				resp, _ = a.postForm(sc.path(), url.Values{"name": {"次期"}, "start_date": {"2027-12-01"}, "end_date": {"2028-03-31"}, "new": {ids}, "fingerprint": {"x"}})
				if resp.StatusCode != http.StatusUnprocessableEntity {
					t.Fatalf("%s %s: POST answered %d", lang, what, resp.StatusCode)
				}
			}
		}
		// The new event without a name: 422 next to the field, the
		// preview and the chosen entrant kept.
		_, body = a.get(sc.path() + "?new=" + idOf(sc.outsiders[1]))
		print1, _ := doc(t, body).Find(`input[name="fingerprint"]`).Attr("value")
		resp, body = a.postForm(sc.path(), url.Values{"name": {" "}, "start_date": {"2027-12-01"}, "end_date": {"2028-03-31"}, "new": {idOf(sc.outsiders[1])}, "fingerprint": {print1}})
		if resp.StatusCode != http.StatusUnprocessableEntity || testid(t, body, "error-name") == "" ||
			!strings.Contains(testid(t, body, "term-group-2"), sc.outsiders[1].Name) {
			t.Fatalf("a nameless next term answered %d", resp.StatusCode)
		}
		if !strings.Contains(msgs["jamember"], sc.members[1][3].Name) {
			t.Fatalf("the member refused is not named: %q", msgs["jamember"])
		}
		a.get("/lang?to=ja")
		if events() != before {
			t.Fatal("a refused roll-over made an event")
		}

		// A stale fingerprint (the preview without the newcomer): 409 in
		// words with the fresh preview; nothing made.
		_, body = a.get(sc.path())
		oldPrint, _ := doc(t, body).Find(`input[name="fingerprint"]`).Attr("value")
		form := url.Values{"name": {"竜王戦 次期"}, "start_date": {"2027-12-01"}, "end_date": {"2028-03-31"}, "new": {idOf(newcomer)}, "fingerprint": {oldPrint}}
		resp, body = a.postForm(sc.path(), form)
		d := doc(t, body)
		fresh, _ := d.Find(`[data-testid="term-confirm"] input[name="fingerprint"]`).Attr("value")
		if resp.StatusCode != http.StatusConflict || testid(t, body, "term-stale") == "" || fresh == "" || fresh == oldPrint ||
			strings.TrimSpace(d.Find(`[data-testid="term-group-2"] [data-testid="term-joining"]`).Text()) != newcomer.Name {
			t.Fatalf("stale confirmation answered %d (fresh %q)", resp.StatusCode, fresh)
		}
		if events() != before {
			t.Fatal("a stale roll-over made an event")
		}

		// The fresh fingerprint makes the next term and leads to it.
		form.Set("fingerprint", fresh)
		resp, _ = a.postForm(sc.path(), form)
		loc := resp.Header.Get("Location")
		if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/events/") {
			t.Fatalf("confirmation answered %d to %q", resp.StatusCode, loc)
		}
		newID, err := strconv.ParseInt(strings.TrimPrefix(loc, "/events/"), 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		sts, err := a.store.StagesOfEvent(ctx, newID)
		if err != nil || len(sts) != 2 || sts[0].Name != "1組" || sts[1].Name != "2組" {
			t.Fatalf("new stages %+v %v", sts, err)
		}
		for g, st := range sts {
			es, err := a.store.EntrantsOfStage(ctx, st.ID)
			if err != nil {
				t.Fatal(err)
			}
			var ids []int64
			for _, e := range es {
				ids = append(ids, e.PlayerID)
			}
			wantIn := newcomer.ID
			if g == 0 {
				wantIn = sc.promotedID
			}
			if len(es) != 8+g || !slices.Contains(ids, wantIn) {
				t.Fatalf("group %d of the next term: %v", g+1, ids)
			}
		}
		if resp, _ := a.get(loc); resp.StatusCode != http.StatusOK {
			t.Fatalf("the new event answered %d", resp.StatusCode)
		}
	})
}

// TestRankingTerm_D_G4_OutcomesSideBySide: the groups' outcome page shows
// every group's 本戦 place, promoted, staying and relegated players side by
// side, to the public once the event is published; a draft event's page
// is not there for the public (404), as its bracket page.
func TestRankingTerm_D_G4_OutcomesSideBySide(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := newBracketFixture(t, a)
		ctx := context.Background()
		sc := newRankingTermScene(t, f, 8, 0, true)
		path := "/events/" + strconv.FormatInt(sc.event.ID, 10) + "/ranking"
		anon := a.newClient()
		for _, lang := range []string{"ja", "en"} {
			a.setLang(anon, lang)
			resp, body := a.do(anon, http.MethodGet, path, nil, "")
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("%s: public outcome page answered %d", lang, resp.StatusCode)
			}
			d := doc(t, body)
			g1, g2 := d.Find(`[data-testid="outcome-group-1"]`), d.Find(`[data-testid="outcome-group-2"]`)
			if !strings.Contains(g1.Find(`[data-testid="outcome-relegated"]`).Text(), sc.relegated) ||
				!strings.Contains(g2.Find(`[data-testid="outcome-promoted"]`).Text(), sc.promoted) ||
				!strings.Contains(g2.Find(`[data-testid="outcome-places"]`).Text(), "2組1位") ||
				g1.Find(`[data-testid="outcome-promoted"]`).Length() != 0 || g2.Find(`[data-testid="outcome-relegated"]`).Length() != 0 {
				t.Fatalf("%s: outcome\n%q\n%q", lang, g1.Text(), g2.Text())
			}
			if d.Find(`[data-testid="ranking-term-link"]`).Length() != 0 {
				t.Fatalf("%s: the public is offered the next term", lang)
			}
		}
		if _, body := a.get(path); doc(t, body).Find(`[data-testid="ranking-term-link"]`).Length() != 1 {
			t.Fatal("the administrator is not offered the next term from the outcome page")
		}
		if _, body := a.do(anon, http.MethodGet, "/events/"+strconv.FormatInt(sc.event.ID, 10)+"/brackets", nil, ""); doc(t, body).Find(`[data-testid="ranking-outcomes-link"]`).Length() != 1 {
			t.Fatal("the bracket page does not link the outcome page")
		}
		draft, err := f.o.CreateEvent(ctx, f.admin, office.EventInput{OrganiserID: f.event.OrganiserID, Name: "下書き", Kind: office.EventKnockout, StartDate: "2026-12-01", EndDate: "2027-03-31"})
		if err != nil {
			t.Fatal(err)
		}
		if resp, _ := a.do(anon, http.MethodGet, "/events/"+strconv.FormatInt(draft.ID, 10)+"/ranking", nil, ""); resp.StatusCode != http.StatusNotFound {
			t.Fatalf("a draft's outcome page answered the public %d", resp.StatusCode)
		}
	})
}

// TestQueryCount_RankingTermPageCostsTheSameAtTwiceTheSize: the next
// term's preview costs the same statements for two groups of 8 with one
// new entrant and two groups of 16 with three.
func TestQueryCount_RankingTermPageCostsTheSameAtTwiceTheSize(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		a.srv.Pages = nil
		a.srv.Office.KeepNoViews()
		f := newBracketFixture(t, a)
		small := newRankingTermScene(t, f, 8, 1, true)
		big := newRankingTermScene(t, f, 16, 3, true)
		pathOf := func(sc *rankingTermScene) string {
			q := url.Values{}
			for _, p := range sc.outsiders {
				q.Add("new", idOf(p))
			}
			return sc.path() + "?" + q.Encode()
		}
		_, body := a.get(pathOf(big))
		if n := doc(t, body).Find(`[data-testid="term-group-2"] [data-testid="term-joining"]`).Text(); strings.Count(n, "新人") != 3 {
			t.Fatalf("the large term's new entrants %q", n)
		}
		s, b := statementsOf(t, a, a.store, pathOf(small)), statementsOf(t, a, a.store, pathOf(big))
		if s != b {
			t.Fatalf("two groups of 8: %d statements, of 16: %d", s, b)
		}
		s, b = statementsOf(t, a, a.store, "/events/"+strconv.FormatInt(small.event.ID, 10)+"/ranking"), statementsOf(t, a, a.store, "/events/"+strconv.FormatInt(big.event.ID, 10)+"/ranking")
		if s != b {
			t.Fatalf("outcome page: groups of 8: %d statements, of 16: %d", s, b)
		}
	})
}
