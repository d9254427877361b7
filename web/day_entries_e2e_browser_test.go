package web

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"kisen/office"
	"kisen/office/day"
	"kisen/store"
	"kisen/store/storetest"
)

// TestBrowser_AmateurDayFromEntries is issue 23's "done when", on SQLite
// and (with KISEN_TEST_DATABASE_URL) PostgreSQL: a 120-entrant day from
// the entries before it to the players following it on their phones.
// 80 entries come through the public form — 5 typed on a 390 px phone,
// each first refused for one bad field (422, the message by the field,
// nothing on the director's list), the other 75 posted to the same form
// route by HTTP clients carrying the form's CSRF cookie and token, from
// ten addresses (the form's rate limit is per address); 3 of the 80 name
// registered players with a space left out, kana for the reading or a
// 異体字, and the director merges each through its suggestion; 20 come by
// the director's paste (preview, confirm); 10 regulars were entered in
// advance and do not come. At the desk 100 check in, and 10 walk in.
// Round 1 of both classes is drawn (preview, confirm); a player who
// entered on her phone finds her board by name on the public round page
// at 390 px, sees her result arrive without a reload, and her record on
// the standings page, which also takes the next result live. The
// pairing sheet, the slips and the check-in sheet are printed and checked
// whole. See docs/amateur-day-e2e.md.
func TestBrowser_AmateurDayFromEntries(t *testing.T) {
	t.Parallel()
	t.Run("sqlite", func(t *testing.T) { t.Parallel(); runDayFromEntries(t, storetestSQLite(t)) })
	t.Run("postgres", func(t *testing.T) { t.Parallel(); runDayFromEntries(t, storetest.Postgres(t)) })
}

// The entrants' names: a surname and a given name from these, readings
// to match; every reading differs from the others within its first few
// kana, which is what the desk's search box is typed with.
var (
	e2eSurnames = [][2]string{{"青木", "あおき"}, {"加藤", "かとう"}, {"佐野", "さの"}, {"田村", "たむら"}, {"中川", "なかがわ"},
		{"原田", "はらだ"}, {"松井", "まつい"}, {"山口", "やまぐち"}, {"吉田", "よしだ"}, {"和田", "わだ"}}
	e2eGiven = [][2]string{{"一郎", "いちろう"}, {"健太", "けんた"}, {"翔", "しょう"}, {"大輔", "だいすけ"}, {"直人", "なおと"},
		{"博", "ひろし"}, {"誠", "まこと"}, {"勇気", "ゆうき"}, {"涼", "りょう"}, {"亘", "わたる"}}
	e2eDans = []string{"初段", "二段", "三段", "四段", "五段"}
	e2eKyus = []string{"1級", "2級", "3級", "4級", "5級"}
)

// e2ePerson is one entrant as the test means them.
type e2ePerson struct {
	Name, Reading, Rank, Club string
}

func (p e2ePerson) dan() bool { return strings.HasSuffix(p.Rank, "段") }

// e2eGrid is entrant i of the grid: surname i/10, given name i%10; even
// ones are dan players (A級), odd ones kyu (B級).
func e2eGrid(i int) e2ePerson {
	s, g := e2eSurnames[i/10], e2eGiven[i%10]
	rank := e2eDans[(i/2)%5]
	if i%2 == 1 {
		rank = e2eKyus[(i/2)%5]
	}
	return e2ePerson{Name: s[0] + " " + g[0], Reading: s[1] + " " + g[1], Rank: rank, Club: fmt.Sprintf("%s将棋クラブ", []string{"駅前", "県庁", "大学", "港町"}[i%4])}
}

// entryClient is a phone posting the public form from its own address
// (127.0.0.x: every loopback address reaches the test server).
func entryClient(host int) *http.Client {
	jar, _ := cookiejar.New(nil)
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, byte(host))}, Timeout: 10 * time.Second}
	return &http.Client{
		Jar:           jar,
		Transport:     &http.Transport{DialContext: d.DialContext},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Timeout:       30 * time.Second,
	}
}

func runDayFromEntries(t *testing.T, s *store.Store) {
	start := time.Now()
	lap := func(what string) { t.Logf("%s at %v", what, time.Since(start).Round(time.Millisecond)) }
	db := t.Name()[strings.LastIndex(t.Name(), "/")+1:]
	a := newTestApp(t, s)
	startLive(t, a)
	bg := context.Background()
	d := day.New(a.srv.Office)

	// Seeded: the director, the organiser, the day and its two classes,
	// the registry (the 3 the entries will name, the 10 regulars entered
	// in advance), the form opened and the day published.
	const pw = "a long enough passphrase"
	dir := a.addAccount("director", pw, true)
	actor := office.Actor{UserID: dir.ID, Login: dir.Login, Admin: true}
	org := store.Organiser{Name: "県将棋連盟", Kind: office.OrganiserAmateur, Settings: "{}", CreatedAt: a.now, UpdatedAt: a.now}
	if err := a.store.CreateOrganiser(bg, &org); err != nil {
		t.Fatal(err)
	}
	ev, err := d.CreateDay(bg, actor, office.EventInput{OrganiserID: org.ID, Name: "県民将棋大会", StartDate: "2026-11-21", EndDate: "2026-11-21"})
	if err != nil {
		t.Fatal(err)
	}
	mkClass := func(name string, first int, min, max string) day.Class {
		st := day.DefaultSettings()
		st.RankMin, st.RankMax, st.FirstBoard = min, max, first
		c, err := d.CreateClass(bg, actor, day.InputOf(ev.ID, name, "", 0, day.FormatSwiss, st))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	classA, classB := mkClass("A級", 1, "初段", ""), mkClass("B級", 101, "", "1級")
	if err := a.srv.Office.SetEventStatus(bg, actor, ev.ID, office.StatusPublished); err != nil {
		t.Fatal(err)
	}
	if err := d.SetEntrySettings(bg, actor, day.EntrySettingsInput{EventID: ev.ID, Open: true}); err != nil {
		t.Fatal(err)
	}
	register := func(p e2ePerson) store.Player {
		t.Helper()
		sp := store.Player{Name: p.Name, Reading: p.Reading, Kind: store.PlayerAmateur, Rank: p.Rank, Affiliation: p.Club, CreatedAt: a.now, UpdatedAt: a.now}
		if err := a.store.CreatePlayer(bg, &sp); err != nil {
			t.Fatal(err)
		}
		return sp
	}
	// The registered three, and how their entries name them.
	merges := []struct {
		reg   e2ePerson
		entry e2ePerson
		id    int64
	}{
		{reg: e2ePerson{"高橋 悠斗", "たかはし ゆうと", "二段", "駅前道場"}, entry: e2ePerson{"高橋悠斗", "たかはしゆうと", "二段", "駅前道場"}},
		{reg: e2ePerson{"渡邊 葵", "わたなべ あおい", "1級", "駅前道場"}, entry: e2ePerson{"渡辺 葵", "ワタナベ アオイ", "1級", ""}},
		{reg: e2ePerson{"齋藤 健", "さいとう けん", "三段", "県庁将棋部"}, entry: e2ePerson{"斎藤 健", "さいとう けん", "三段", "県庁将棋部"}},
	}
	for i := range merges {
		merges[i].id = register(merges[i].reg).ID
	}
	var regulars []e2ePerson
	for i := range 10 {
		p := e2ePerson{Name: "北村 " + e2eGiven[i][0], Reading: "きたむら " + e2eGiven[i][1], Rank: []string{"四段", "3級"}[i%2], Club: "北村道場"}
		sp := register(p)
		if _, err := d.Enter(bg, actor, day.EntryInput{EventID: ev.ID, PlayerID: sp.ID}); err != nil {
			t.Fatal(err)
		}
		regulars = append(regulars, p)
	}

	// Who enters how: grid 0–4 on a phone, grid 5–76 and the three
	// variants by HTTP (80 through the form), grid 77–96 by paste.
	var formPeople, pastePeople []e2ePerson
	for i := range 77 {
		formPeople = append(formPeople, e2eGrid(i))
	}
	for _, m := range merges {
		formPeople = append(formPeople, m.entry)
	}
	for i := 77; i < 97; i++ {
		pastePeople = append(pastePeople, e2eGrid(i))
	}
	var walkins []e2ePerson
	for i := range 10 {
		walkins = append(walkins, e2ePerson{Name: "当日 " + e2eGiven[i][0], Reading: "とうじつ " + e2eGiven[i][1], Rank: []string{"二段", "4級"}[i%2], Club: "当日道場"})
	}

	// The director's list, as the director reads it (an HTTP client
	// signed in as them): its number of entries.
	dirClient := a.newClient()
	a.signIn(dirClient, dir.ID)
	entriesPath := fmt.Sprintf("/events/%d/day/entries", ev.ID)
	listed := func() int {
		t.Helper()
		resp, body := a.do(dirClient, http.MethodGet, entriesPath, nil, "")
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("the director's list: %d", resp.StatusCode)
		}
		return strings.Count(body, `data-testid="entry-row"`)
	}

	// 1. Five entries on a phone, each first refused for one bad field.
	// (Both tabs live the whole test: eight minutes bound a machine loaded
	// under -race; the day takes one to two.)
	phone := newLongBrowser(t, 8*time.Minute)
	formURL := fmt.Sprintf("%s/events/%d/day/entry", a.ts.URL, ev.ID)
	do(t, phone, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile))
	bads := []struct{ field, name, value string }{
		{"reading", "reading", "青木一郎"},               // kanji for the reading
		{"rank", "rank", "強い"},                       // not a rank
		{"contact", "contact", ""},                   // no contact
		{"class", "class_id", fmt.Sprint(classA.ID)}, // a kyu player choosing A級
		{"name", "name", strings.Repeat("長", 61)},    // too long
	}
	for i, bad := range bads {
		p := formPeople[i]
		vals := map[string]string{"name": p.Name, "reading": p.Reading, "rank": p.Rank, "club": p.Club, "contact": fmt.Sprintf("entrant%d@example.jp", i), "class_id": ""}
		acts := one(chromedp.Navigate(formURL), chromedp.WaitVisible(chromedp.CSS(`[data-testid="entry-form"]`)))
		for _, k := range []string{"name", "reading", "rank", "club", "class_id", "contact"} {
			v := vals[k]
			if k == bad.name {
				v = bad.value
			}
			acts = append(acts, setField(`#f-`+k, v))
		}
		before := listed()
		do(t, phone, steps(acts, submit("entry-submit"))...)
		msg, err := chromedp.Run(phone, chromedp.Evaluate[string](`(document.querySelector('[data-testid="error-`+bad.field+`"]')||{textContent:''}).textContent.trim()`))
		if err != nil || msg == "" {
			screenshot(t, phone, fmt.Sprintf("%s-entries-e2e-bad-%s", db, bad.field))
			t.Fatalf("entry %d with a bad %s: no message by the field (%v)", i, bad.field, err)
		}
		if after := listed(); after != before {
			t.Fatalf("a refused entry (bad %s) reached the director's list: %d → %d", bad.field, before, after)
		}
		if w, err := chromedp.Run(phone, chromedp.Evaluate[float64](`document.documentElement.scrollWidth`)); err != nil || w > 390 {
			t.Fatalf("the refused form is %.0f px wide on a 390 px phone (%v)", w, err)
		}
		if i == 0 {
			screenshot(t, phone, db+"-entries-e2e-form-422")
		}
		// Corrected: the entry is taken, its private link shown.
		do(t, phone, steps(one(setField(`#f-`+bad.name, vals[bad.name])), submit("entry-submit"))...)
		if st := textOf(t, phone, `[data-testid="entry-status"]`); !strings.Contains(st, "受付待ち") {
			t.Fatalf("entry %d corrected: status %q", i, st)
		}
	}
	if n := listed(); n != len(bads) {
		t.Fatalf("after the phone's entries the director lists %d, want %d", n, len(bads))
	}
	lap("5 entries on a phone (5 refused first)")

	// 2. The other 75 by the form's route, as a phone would post them:
	// the form fetched (its CSRF cookie and token), then posted; ten
	// addresses, within the per-address limit of 10 at once.
	for i := len(bads); i < len(formPeople); i++ {
		p := formPeople[i]
		c := entryClient(10 + i/8)
		resp, body := a.do(c, http.MethodGet, formURL[len(a.ts.URL):], nil, "")
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, `name="_csrf"`) {
			t.Fatalf("form %d: %d", i, resp.StatusCode)
		}
		form := url.Values{"_csrf": {a.csrfToken(c)}, "name": {p.Name}, "reading": {p.Reading}, "rank": {p.Rank}, "club": {p.Club}, "contact": {fmt.Sprintf("entrant%d@example.jp", i)}}
		resp, body = a.do(c, http.MethodPost, formURL[len(a.ts.URL):], strings.NewReader(form.Encode()), "application/x-www-form-urlencoded")
		if resp.StatusCode != http.StatusSeeOther || !reEntryLink.MatchString(resp.Header.Get("Location")) {
			t.Fatalf("entry %d (%s): %d %q\n%s", i, p.Name, resp.StatusCode, resp.Header.Get("Location"), body)
		}
	}
	if n := listed(); n != 80 {
		t.Fatalf("the director lists %d entries, want 80", n)
	}
	lap("80 entries through the form")

	// 3. The director merges the three with the registered players, each
	// by the one suggestion under it.
	ctx := newLongBrowser(t, 8*time.Minute)
	browserLogin(t, ctx, a, "director", pw, entriesPath, `[data-testid="entries-list"]`)
	entries, err := a.store.DayEntriesOfEvent(bg, ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	entryOf := map[string]store.DayEntry{}
	for _, e := range entries {
		entryOf[e.Name] = e
	}
	for _, m := range merges {
		e := entryOf[m.entry.Name]
		card := fmt.Sprintf(`#entry-%d`, e.ID)
		labels, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('`+card+` [data-testid=entry-merge]')].map(b => b.textContent.trim())`))
		if err != nil || len(labels) != 1 || !strings.Contains(labels[0], m.reg.Name) {
			t.Fatalf("%s: merge suggestions %q, want one naming %s (%v)", m.entry.Name, labels, m.reg.Name, err)
		}
		do(t, ctx, submitAt(card+` [data-testid="entry-merge"]`)...)
		do(t, ctx, chromedp.WaitVisible(chromedp.CSS(`[data-testid="entries-list"]`)))
	}
	screenshot(t, ctx, db+"-entries-e2e-merged")
	lap("3 merged by their suggestion")

	// 4. The other 77 accepted at once: the preview names them (and not
	// the three just merged, nor anyone with a suggestion), then confirm.
	do(t, ctx, submit("entries-approve-all-preview")...)
	names, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('[data-testid=entries-approve-all-list] li')].map(li => li.textContent.trim())`))
	if err != nil || len(names) != 77 {
		t.Fatalf("the approve-all preview names %d, want 77 (%v)", len(names), err)
	}
	all := "|" + strings.Join(names, "|")
	for _, p := range formPeople[:77] {
		if !strings.Contains(all, "|"+p.Name+"（") {
			t.Errorf("the approve-all preview leaves out %s", p.Name)
		}
	}
	do(t, ctx, submit("entries-approve-all-confirm")...)
	if msg := textOf(t, ctx, `[data-testid="entries-bulk-done"]`); !strings.Contains(msg, "77") {
		t.Fatalf("after approving all: %q", msg)
	}
	lap("77 accepted at once")

	// 5. A club's 20 by paste: preview, then confirm.
	var lines []string
	for _, p := range pastePeople {
		lines = append(lines, strings.Join([]string{p.Name, p.Reading, p.Rank, p.Club}, ","))
	}
	do(t, ctx, steps(
		one(chromedp.Navigate(a.ts.URL+entriesPath), chromedp.WaitVisible(chromedp.CSS(`#f-lines`)),
			chromedp.SetValue(chromedp.CSS(`#f-lines`), strings.Join(lines, "\n"))),
		submit("entries-bulk-preview"),
	)...)
	creates, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('tr[data-testid=entries-bulk-line][data-action=create]').length`))
	if err != nil || creates != 20 {
		screenshot(t, ctx, db+"-entries-e2e-paste-preview")
		t.Fatalf("the paste's preview creates %d of 20 lines (%v)", creates, err)
	}
	do(t, ctx, submit("entries-bulk-confirm")...)
	do(t, ctx, chromedp.WaitVisible(chromedp.CSS(`[data-testid="entries-bulk-done"]`)))
	lap("20 by paste")

	// The reception now expects 110: 80 + 20 + the 10 regulars; the three
	// merged are the registered players, not new ones.
	ents, err := a.store.DayEntrantsOfEvent(bg, ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != 110 {
		t.Fatalf("%d entrants before the day, want 110", len(ents))
	}
	entrantOf := map[string]store.DayEntrantRow{}
	for _, e := range ents {
		entrantOf[e.Name] = e
	}
	for _, m := range merges {
		if e, ok := entrantOf[m.reg.Name]; !ok || e.PlayerID != m.id {
			t.Errorf("%s is not entered as the registered %s (%d): %+v", m.entry.Name, m.reg.Name, m.id, e)
		}
	}

	// 6. The desk: 100 check in, the regulars do not come; 10 walk in.
	var arriving []store.DayEntrantRow
	regular := map[string]bool{}
	for _, p := range regulars {
		regular[p.Name] = true
	}
	for _, e := range ents {
		if !regular[e.Name] {
			arriving = append(arriving, e)
		}
	}
	recPath := fmt.Sprintf("/events/%d/day/reception", ev.ID)
	deskCheckIn(t, ctx, a, recPath, ents, arriving)
	lap("100 check-ins")
	for _, p := range walkins {
		do(t, ctx, steps(
			one(chromedp.WaitVisible(chromedp.CSS(`[data-testid="day-walkin-form"]`)),
				fill("name", p.Name), fill("reading", p.Reading), fill("rank", p.Rank), fill("affiliation", p.Club)),
			submit("day-walkin-submit"),
		)...)
		if msg, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector('[data-testid=day-message]')||{textContent:''}).textContent`)); msg != "" {
			t.Fatalf("walk-in %s refused: %s", p.Name, msg)
		}
	}
	lap("10 walk-ins")
	ents, err = a.store.DayEntrantsOfEvent(bg, ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	present := map[int64][]string{} // class → names present
	for _, e := range ents {
		if e.Checkin == store.CheckinPresent {
			present[e.ClassID] = append(present[e.ClassID], e.Name)
		} else if !regular[e.Name] {
			t.Errorf("%s is %q after the desk", e.Name, e.Checkin)
		}
	}
	if len(ents) != 120 || len(present[classA.ID])+len(present[classB.ID]) != 110 {
		t.Fatalf("%d entrants, %d+%d present: want 120 and 110", len(ents), len(present[classA.ID]), len(present[classB.ID]))
	}

	// 7. Round 1 of each class: preview, confirm; everyone present is on
	// the class page once, no regular anywhere.
	for _, c := range []day.Class{classA, classB} {
		do(t, ctx, steps(
			one(chromedp.Navigate(fmt.Sprintf("%s/day/classes/%d", a.ts.URL, c.ID)), chromedp.WaitVisible(chromedp.CSS(`[data-testid="day-draw"]`))),
			submit("day-draw"),
			submit("day-draw-confirm"),
		)...)
		rs, err := chromedp.Run(ctx, chromedp.Evaluate[[]dayPageRound](dayRoundsJS))
		if err != nil || len(rs) != 1 {
			t.Fatalf("%s: rounds on the class page %v (%v)", c.Name, rs, err)
		}
		seen := map[string]int{}
		for _, b := range rs[0].Boards {
			seen[b[0]]++
			seen[b[1]]++
		}
		for _, name := range present[c.ID] {
			if n := seen[name]; n+strings.Count(rs[0].Byes, name) != 1 {
				t.Errorf("%s: %s plays %d games in round 1 (byes %q)", c.Name, name, n, rs[0].Byes)
			}
		}
		for name := range regular {
			if seen[name] > 0 || strings.Contains(rs[0].Byes, name) {
				t.Errorf("%s did not come but is in round 1", name)
			}
		}
	}
	lap("round 1 drawn in both classes")

	// 8. The sheets of round 1, printed (before any result) and checked whole.
	v, err := d.ClassView(bg, actor, classA.ID)
	if err != nil {
		t.Fatal(err)
	}
	printRound(t, ctx, a, db, classA.ID, 1, len(v.Rounds[0].Boards))
	checkSheetsWhole(t, ctx, a, db, map[string]string{
		"pairings": fmt.Sprintf("/day/classes/%d/rounds/1/pairings/print", classA.ID),
		"slips":    fmt.Sprintf("/day/classes/%d/rounds/1/slips/print", classA.ID),
		"checkin":  fmt.Sprintf("/events/%d/day/checkin/print", ev.ID),
	})
	// 9. A player who entered on her phone follows her day there.
	followPlayer(t, a, phone, ctx, d, actor, classA, formPeople[:len(bads)], db)
	lap("a player followed her board and standings")

	lap("the day from its entries")
}
