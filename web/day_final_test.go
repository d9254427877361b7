package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"kisen/office"
	"kisen/office/day"
	"kisen/store"
	"kisen/web/site"
)

// dayFinalFixture is a day with one 2勝通過2敗失格 class in blocks whose
// preliminary is played to the end.
type dayFinalFixture struct {
	event   store.Event
	class   day.Class
	admin   office.Actor
	names   []string
	players []int64
}

func seedDayFinal(t *testing.T, a *testApp, n int, tag string) dayFinalFixture {
	t.Helper()
	return seedDayFinalAs(t, a, n, tag, a.addUser("final-director-"+tag, true))
}

func seedDayFinalAs(t *testing.T, a *testApp, n int, tag string, u store.User) dayFinalFixture {
	t.Helper()
	ctx := context.Background()
	d := day.New(a.srv.Office)
	f := dayFinalFixture{admin: office.Actor{UserID: u.ID, Login: u.Login, Admin: true}}
	now := a.now
	org := store.Organiser{Name: "県将棋連盟" + tag, Kind: office.OrganiserAmateur, Settings: "{}", CreatedAt: now, UpdatedAt: now}
	if err := a.store.CreateOrganiser(ctx, &org); err != nil {
		t.Fatal(err)
	}
	e, err := d.CreateDay(ctx, f.admin, office.EventInput{OrganiserID: org.ID, Name: "県名人戦" + tag, StartDate: "2026-11-21", EndDate: "2026-11-21"})
	if err != nil {
		t.Fatal(err)
	}
	f.event = e
	if f.class, err = d.CreateClass(ctx, f.admin, day.InputOf(e.ID, "A級", "Class A", 0, day.FormatPools, day.DefaultSettings())); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		p := store.Player{Name: fmt.Sprintf("決勝%s選手%02d", tag, i), Reading: fmt.Sprintf("けっしょう%02d", i), Kind: store.PlayerAmateur, Rank: "初段",
			Affiliation: fmt.Sprintf("道場%d", i%3), CreatedAt: now, UpdatedAt: now}
		if err := a.store.CreatePlayer(ctx, &p); err != nil {
			t.Fatal(err)
		}
		if _, err := d.Enter(ctx, f.admin, day.EntryInput{EventID: e.ID, PlayerID: p.ID, ClassID: f.class.ID}); err != nil {
			t.Fatal(err)
		}
		if err := d.CheckIn(ctx, f.admin, e.ID, p.ID, store.CheckinPresent); err != nil {
			t.Fatal(err)
		}
		f.names = append(f.names, p.Name, p.Reading, p.Affiliation)
		f.players = append(f.players, p.ID)
	}
	for r := 1; r <= 6; r++ {
		pv, err := d.PreviewRound(ctx, f.admin, f.class.ID, uint64(r))
		if err != nil {
			break // finished
		}
		if _, err := d.ConfirmRound(ctx, f.admin, day.ConfirmInput{ClassID: f.class.ID, Round: pv.Round, Seed: uint64(r), Fingerprint: pv.Fingerprint}); err != nil {
			t.Fatal(err)
		}
		v, err := d.ClassView(ctx, f.admin, f.class.ID)
		if err != nil {
			t.Fatal(err)
		}
		rd := v.Rounds[len(v.Rounds)-1]
		for _, b := range rd.Boards {
			if b.Decided {
				continue
			}
			if err := d.EnterBoardResult(ctx, f.admin, day.BoardResultInput{ClassID: f.class.ID, Round: rd.Number, Board: b.Board, GameID: b.Last.ID,
				Version: b.Version, Result: office.ResultSenteWin}); err != nil {
				t.Fatal(err)
			}
		}
	}
	return f
}

var reHidden = regexp.MustCompile(`name="(seed|fingerprint)" value="([^"]*)"`)

func hiddenFields(t *testing.T, body string) url.Values {
	t.Helper()
	v := url.Values{}
	for _, m := range reHidden.FindAllStringSubmatch(body, -1) {
		v.Set(m[1], m[2])
	}
	if v.Get("seed") == "" || v.Get("fingerprint") == "" {
		t.Fatalf("no seed or fingerprint in the form:\n%s", body)
	}
	return v
}

// The director previews the final from a finished preliminary, builds it
// (303 to the stage's review page) and then sees it as built; a stale
// preview is refused with 409 and the new placement; a bad number is a
// 422 naming the draw number. Both databases.
func TestDayFinalWeb_PreviewBuildAndRefusals(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := seedDayFinal(t, a, 12, "W")
		a.signIn(a.client, f.admin.UserID)
		path := fmt.Sprintf("/day/classes/%d/final", f.class.ID)
		resp, body := a.get(path + "?seed=42")
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, `data-testid="day-final-games"`) {
			t.Fatalf("preview: %d\n%s", resp.StatusCode, body)
		}
		if n := strings.Count(body, `data-testid="day-final-game"`); n != 4 {
			t.Fatalf("%d round-1 rows, want 4 (6 qualifiers in 8 places)", n)
		}
		form := hiddenFields(t, body)
		if resp, body := a.get(path + "?seed=x"); resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "抽選番号") {
			t.Fatalf("bad seed: %d", resp.StatusCode)
		}
		stale := url.Values{"seed": {form.Get("seed")}, "fingerprint": {"0"}}
		if resp, body := a.postForm(path, stale); resp.StatusCode != http.StatusConflict || !strings.Contains(body, `data-testid="day-final-error"`) ||
			!strings.Contains(body, `data-testid="day-final-games"`) {
			t.Fatalf("stale build: %d\n%s", resp.StatusCode, body)
		}
		form.Set("consolation", "1")
		resp, _ = a.postForm(path, form)
		if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/stages/") {
			t.Fatalf("build: %d → %s", resp.StatusCode, resp.Header.Get("Location"))
		}
		stage := strings.TrimSuffix(resp.Header.Get("Location"), "#review")
		if resp, body := a.get(stage); resp.StatusCode != http.StatusOK {
			t.Fatalf("stage page: %d\n%s", resp.StatusCode, body)
		}
		if resp, body := a.get(path); resp.StatusCode != http.StatusOK || !strings.Contains(body, `data-testid="day-final-built"`) {
			t.Fatalf("after the build: %d\n%s", resp.StatusCode, body)
		}
		if resp, _ := a.postForm(path, form); resp.StatusCode != http.StatusConflict {
			t.Fatalf("second build: %d, want 409", resp.StatusCode)
		}
	})
}

// The final's pages — the preview, the built final, the stage with its
// 交流戦 under the tree once round 1 is played — carry no developer text,
// for the public and the director, in Japanese and English (issue 13's
// crawl checks).
func TestCrawl_DayFinalPagesHaveNoDeveloperText(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f := seedDayFinal(t, a, 16, "C")
		o := a.srv.Office
		d := day.New(o)
		before := seedDayFinal(t, a, 8, "P") // a class whose final is still to build
		p, err := d.PreviewFinal(ctx, f.admin, f.class.ID, 3)
		if err != nil {
			t.Fatal(err)
		}
		fin, err := d.BuildFinal(ctx, f.admin, day.FinalInput{ClassID: f.class.ID, Seed: 3, Fingerprint: p.Fingerprint, Consolation: true})
		if err != nil {
			t.Fatal(err)
		}
		// An override swap (a block winner with their block's second) leaves
		// a broken rule of the final for the review table to put in words.
		slotOf := map[int64]int{}
		for i, id := range p.Slots {
			slotOf[id] = i
		}
		var w, m int64
		for _, q := range p.Qualifiers {
			for _, r := range p.Qualifiers {
				if q.Block == r.Block && q.Place == 1 && r.Place == 2 {
					w, m = q.PlayerID, r.PlayerID
				}
			}
		}
		if _, err := o.SwapSlots(ctx, f.admin, office.SwapInput{StageID: fin.Stage.ID, A: slotOf[w], B: slotOf[m], Reason: "会場の都合"}); err != nil {
			t.Fatal(err)
		}
		c0 := a.newClient()
		a.signIn(c0, f.admin.UserID)
		if resp, body := a.do(c0, http.MethodGet, site.StageURL(fin.Stage.ID), nil, ""); resp.StatusCode != http.StatusOK || !strings.Contains(body, "組の1位の位置") {
			t.Fatalf("stage review without the final's rule in words: %d", resp.StatusCode)
		}
		if err := o.PublishStage(ctx, f.admin, fin.Stage.ID); err != nil {
			t.Fatal(err)
		}
		eb, err := o.EventBrackets(ctx, f.admin, f.event.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range eb.Stages[0].Rounds[0] {
			if err := o.QuickResult(ctx, f.admin, office.QuickResultInput{StageID: fin.Stage.ID, BracketGame: g.ID, WinnerID: g.SenteID,
				Reason: office.ReasonResignation, GameID: g.DecidingGameID, Version: g.Version}); err != nil {
				t.Fatal(err)
			}
		}
		data := append([]string{f.event.Name, before.event.Name, "A級", "Class A", "初段", "県将棋連盟C", "県将棋連盟P", "会場の都合"}, f.names...)
		data = append(data, before.names...)
		// Stored labels are data: the preliminary's boards and the final's
		// stage (the English pages show its English name where they can).
		data = append(data, "A級 決勝トーナメント")
		for r := 1; r <= 4; r++ {
			for b := 1; b <= 16; b++ {
				data = append(data, fmt.Sprintf("A級 %d回戦 %d番盤", r, b))
			}
		}
		chk := newPageChecker(a.srv.Msgs, data, append(f.players, before.players...))
		start := []string{fmt.Sprintf("/day/classes/%d/final?seed=9", before.class.ID), fmt.Sprintf("/day/classes/%d/final", f.class.ID),
			site.StageURL(fin.Stage.ID), fmt.Sprintf("/events/%d/brackets", f.event.ID)}
		var all []offence
		pages := 0
		for _, id := range []crawlIdentity{{"public", 0}, {"director", f.admin.UserID}} {
			for _, lang := range site.Languages {
				c := a.newClient()
				a.setLang(c, lang)
				if id.userID != 0 {
					a.signIn(c, id.userID)
				}
				offs, n := crawl(t, a, c, lang, chk, start)
				pages += n
				for i := range offs {
					offs[i].URL = id.name + "/" + lang + " " + offs[i].URL
				}
				all = append(all, offs...)
			}
		}
		if pages < 8 {
			t.Errorf("the crawl reached only %d pages", pages)
		}
		report(t, all)
		// The 交流戦 is on the bracket page.
		c := a.newClient()
		a.signIn(c, f.admin.UserID)
		if resp, body := a.do(c, http.MethodGet, fmt.Sprintf("/events/%d/brackets", f.event.ID), nil, ""); resp.StatusCode != http.StatusOK ||
			!strings.Contains(body, fmt.Sprintf(`data-testid="consolation-%d"`, fin.Stage.ID)) {
			t.Fatalf("bracket page without the 交流戦: %d", resp.StatusCode)
		}
	})
}

// The preview lists every qualifier and game, in the same number of
// statements for a class of 8 and one of 32.
func TestQueryCount_DayFinalPreviewSameAtFourTimesTheSize(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		small := seedDayFinal(t, a, 8, "S")
		large := seedDayFinal(t, a, 32, "L")
		a.signIn(a.client, small.admin.UserID)
		ns := statementsOf(t, a, a.store, fmt.Sprintf("/day/classes/%d/final?seed=1", small.class.ID))
		nl := statementsOf(t, a, a.store, fmt.Sprintf("/day/classes/%d/final?seed=1", large.class.ID))
		t.Logf("final preview: small %d large %d", ns, nl)
		if ns != nl || nl > 30 {
			t.Errorf("final preview: %d statements for 8 players, %d for 32", ns, nl)
		}
	})
}
