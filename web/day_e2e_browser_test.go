package web

import (
	"context"
	"fmt"
	"math/rand/v2"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"kisen/office"
	"kisen/office/day"
	"kisen/store"
	"kisen/store/storetest"
	dayroom "kisen/web/day"
)

// TestBrowser_AmateurDay is issue 14's "done when": a 40-player day in
// two classes, run end to end through the pages a director uses, on
// SQLite and (with KISEN_TEST_DATABASE_URL) on PostgreSQL. Only the
// director's account, the organiser and the 38 registry players are
// seeded directly; 37 of the players are entered in advance through the
// day room (the pre-registered list), the 38th through the reception's
// search. It is the package's longest test: 3–6 min per database under
// -race among the package's other tests (2 cores, -parallel 8; the two
// databases at once), several hundred page loads in Chromium, each a
// full round trip to a race-enabled server.
func TestBrowser_AmateurDay(t *testing.T) {
	t.Parallel()
	// The two databases at once (each day has its own server, database and
	// tab): one after the other they were the package's longest path.
	t.Run("sqlite", func(t *testing.T) { t.Parallel(); runAmateurDay(t, storetestSQLite(t)) })
	t.Run("postgres", func(t *testing.T) { t.Parallel(); runAmateurDay(t, storetest.Postgres(t)) })
}

// submitAt is submit for a button found by CSS (a button inside one row
// of a page where every row has the same buttons): it waits for the new
// document the same way.
func submitAt(css string) []chromedp.Action[chromedp.Void] {
	s := submit("x")
	s[1] = chromedp.Click(chromedp.CSS(css))
	return s
}

// chooseIndex selects the option at index i of the select at sel.
func chooseIndex(sel string, i int) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		_, err := chromedp.Evaluate[bool](`(function(){var s=document.querySelector(`+strconv.Quote(sel)+`); s.selectedIndex=`+strconv.Itoa(i)+`; return true})()`)(ctx, tg)
		return chromedp.Void{}, err
	}
}

// dayPageRound is one round as the class page shows it.
type dayPageRound struct {
	N      int         `json:"n"`
	Boards [][3]string `json:"boards"` // sente, gote, the result cell
	Byes   string      `json:"byes"`
}

const dayRoundsJS = `[...document.querySelectorAll('[data-testid=day-round]')].map(sec => ({
	n: parseInt(sec.id.replace('round-', ''), 10),
	boards: [...sec.querySelectorAll('tr[data-testid^=day-board-]')].map(tr => ['a', 'b', 'result-cell'].map(k => tr.querySelector('[data-testid=day-board-' + k + ']').textContent.trim())),
	byes: (sec.querySelector('[data-testid=day-byes]') || {textContent: ''}).textContent,
}))`

// standingRow is one row of a standings page: the name (without the
// withdrawn mark) and the other cells' text.
type standingRow struct {
	Name  string   `json:"name"`
	Cells []string `json:"cells"`
}

const dayStandingsJS = `[...document.querySelectorAll('tr[data-testid=day-standing]')].map(tr => {
	const cells = [...tr.children].map(td => td.textContent.trim());
	const nameCell = tr.querySelector('td:nth-child(' + (tr.closest('table').querySelectorAll('thead th').length === 4 ? 1 : 2) + ')');
	return {name: nameCell.firstChild.textContent.trim(), cells: cells};
})`

var reRecord = regexp.MustCompile(`(\d+)勝(\d+)敗`)

func runAmateurDay(t *testing.T, s *store.Store) {
	start := time.Now()
	db := t.Name()[strings.LastIndex(t.Name(), "/")+1:] // screenshots per database
	ctx := newLongBrowser(t, 10*time.Minute)
	a := newTestApp(t, s)
	bg := context.Background()
	rng := rand.New(rand.NewPCG(14, 40))

	// Seeded: the director, the organiser, 38 registry players (19 dan,
	// 19 kyu).
	const pw = "a long enough passphrase"
	h, err := office.HashPassword(pw, cheapParams, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := store.User{Login: "director", DisplayName: "大会 責任者", PasswordHash: h, IsAdmin: true, CreatedAt: a.now, UpdatedAt: a.now}
	if err := a.store.CreateUser(bg, &dir); err != nil {
		t.Fatal(err)
	}
	actor := office.Actor{UserID: dir.ID, Login: dir.Login, Admin: true}
	org := store.Organiser{Name: "県将棋連盟", Kind: office.OrganiserAmateur, Settings: "{}", CreatedAt: a.now, UpdatedAt: a.now}
	if err := a.store.CreateOrganiser(bg, &org); err != nil {
		t.Fatal(err)
	}
	dans := []string{"初段", "二段", "三段", "四段", "五段"}
	kyus := []string{"1級", "2級", "3級", "4級", "5級"}
	var players []store.Player
	for i := range 38 {
		p := store.Player{Name: fmt.Sprintf("選手%02d", i), Reading: fmt.Sprintf("せんしゅ%02d", i), Kind: store.PlayerAmateur,
			Affiliation: fmt.Sprintf("道場%d", i%5), CreatedAt: a.now, UpdatedAt: a.now}
		if i < 19 {
			p.Rank = dans[i%len(dans)]
		} else {
			p.Rank = kyus[i%len(kyus)]
		}
		if err := a.store.CreatePlayer(bg, &p); err != nil {
			t.Fatal(err)
		}
		players = append(players, p)
	}

	// The director logs in and creates the event and its two classes.
	do(t, ctx, steps(
		one(chromedp.Navigate(a.ts.URL+"/login"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="login-form"]`)),
			fill("login", "director"), fill("password", pw)),
		submit("login-submit"),
		one(chromedp.Navigate(a.ts.URL+"/events"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="event-form"]`)),
			chromedp.SetValue(chromedp.CSS(`#f-organiser_id`), strconv.FormatInt(org.ID, 10)),
			fill("name", "県名人戦 予選"),
			chromedp.SetValue(chromedp.CSS(`#f-kind`), dayroom.EventKindDay),
			fill("start_date", "2026-11-21"), fill("end_date", "2026-11-21")),
		submit("event-submit"),
	)...)
	eventID := idAfter(t, ctx, "/events/")
	dayPath := fmt.Sprintf("%s/events/%d/day", a.ts.URL, eventID)
	classForm := func(name, format string, fields map[string]string) int64 {
		t.Helper()
		acts := one(chromedp.Navigate(dayPath), chromedp.WaitVisible(chromedp.CSS(`[data-testid="day-class-form"]`)),
			fill("name", name), chromedp.SetValue(chromedp.CSS(`#f-format`), format))
		for k, v := range fields {
			acts = append(acts, fill(k, v))
		}
		do(t, ctx, steps(acts, submit("day-class-submit"))...)
		return idAfter(t, ctx, "/day/classes/")
	}
	classA := classForm("A級", day.FormatPools, map[string]string{"wins": "2", "losses": "2", "rank_min": "初段", "first_board": "1"})
	classB := classForm("B級", day.FormatSwiss, map[string]string{"rounds": "4", "rank_max": "1級", "first_board": "21", "qualifiers": "8"})

	// The advance entries: 37 through the day room, one at the desk by
	// search; each goes to a class by declared rank.
	d := day.New(a.srv.Office)
	for _, p := range players[:37] {
		if _, err := d.Enter(bg, actor, day.EntryInput{EventID: eventID, PlayerID: p.ID}); err != nil {
			t.Fatal(err)
		}
	}
	recPath := dayPath + "/reception"
	do(t, ctx, steps(
		one(chromedp.Navigate(recPath), chromedp.WaitVisible(chromedp.CSS(`[data-testid="day-search"]`)), fill("q", players[37].Reading)),
		submit("day-search"),
		submit("day-enter"),
	)...)
	names := map[int64]string{}
	inClass := map[int64]int64{} // player → class, as the director expects it
	for _, p := range players {
		names[p.ID] = p.Name
		if p.Rank[len(p.Rank)-3:] == "段" {
			inClass[p.ID] = classA
		} else {
			inClass[p.ID] = classB
		}
	}
	// The director's override: a kyu player plays in A級.
	moved := players[20]
	do(t, ctx, steps(
		one(chromedp.Navigate(recPath), chromedp.WaitVisible(chromedp.CSS(`[data-testid="day-reception"]`)),
			chromedp.SetValue(chromedp.CSS(fmt.Sprintf(`[data-testid="day-entrant-%d"] select[name="class_id"]`, moved.ID)), strconv.FormatInt(classA, 10))),
		swapAt(fmt.Sprintf(`[data-testid="day-entrant-%d"] [data-testid="day-move"]`, moved.ID)),
	)...)
	inClass[moved.ID] = classA
	// Reception: everyone present but one absentee (a B級 player).
	absentee := players[30]
	for _, p := range players {
		st := store.CheckinPresent
		if p.ID == absentee.ID {
			st = store.CheckinAbsent
		}
		do(t, ctx, swapAt(fmt.Sprintf(`[data-testid="day-entrant-%d"] [data-testid="day-checkin-%s"]`, p.ID, st))...)
	}
	// Two walk-ins at the desk: one by rank into A級, one chosen into B級.
	walk := func(name, reading, rank string, class int64) {
		t.Helper()
		acts := one(chromedp.WaitVisible(chromedp.CSS(`[data-testid="day-walkin-form"]`)),
			fill("name", name), fill("reading", reading), fill("rank", rank), fill("affiliation", "当日道場"))
		if class != 0 {
			acts = append(acts, chromedp.SetValue(chromedp.CSS(`#f-class_id`), strconv.FormatInt(class, 10)))
		}
		do(t, ctx, steps(acts, submit("day-walkin-submit"))...)
		if msg, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector('[data-testid=day-message]')||{textContent:''}).textContent`)); msg != "" {
			t.Fatalf("walk-in %s refused: %s", name, msg)
		}
	}
	walk("当日 一郎", "とうじつ いちろう", "三段", 0)
	walk("当日 花子", "とうじつ はなこ", "2級", classB)
	counts := textOf(t, ctx, `[data-testid="day-counts"]`)
	t.Logf("reception: %s", counts)
	expect := map[int64][]string{} // class → names expected in round 1
	for _, p := range players {
		if p.ID != absentee.ID {
			expect[inClass[p.ID]] = append(expect[inClass[p.ID]], p.Name)
		}
	}
	expect[classA] = append(expect[classA], "当日 一郎")
	expect[classB] = append(expect[classB], "当日 花子")
	if len(expect[classA])+len(expect[classB]) != 39 {
		t.Fatalf("expected 39 players drawn, have %d", len(expect[classA])+len(expect[classB]))
	}
	screenshot(t, ctx, db+"-day-e2e-reception")
	t.Logf("reception done at %v", time.Since(start).Round(time.Millisecond))

	classURL := func(cid int64) string { return fmt.Sprintf("%s/day/classes/%d", a.ts.URL, cid) }
	hasDraw := func(cid int64) bool {
		t.Helper()
		do(t, ctx, chromedp.Navigate(classURL(cid)), chromedp.WaitReady(chromedp.CSS("footer.site")))
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('[data-testid=day-draw]').length`))
		if err != nil {
			t.Fatal(err)
		}
		return n > 0
	}
	// enterRound enters every open board of round n on the phone-sized
	// board page, by board number, winners by lot.
	enterRound := func(cid int64, n int) int {
		t.Helper()
		path := fmt.Sprintf("%s/day/classes/%d/rounds/%d/boards", a.ts.URL, cid, n)
		do(t, ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile), chromedp.Navigate(path), chromedp.WaitVisible(chromedp.CSS(`[data-testid="day-board-find"]`)))
		open, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](`[...document.querySelectorAll('.day-board-row')].filter(r => r.querySelector('[data-testid=day-sente_win]')).map(r => parseInt(r.dataset.testid.replace('day-board-', ''), 10))`))
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range open {
			r := []string{"day-sente_win", "day-gote_win"}[rng.IntN(2)]
			do(t, ctx, steps(
				one(chromedp.SetValue(chromedp.CSS(`[data-testid="day-board-find"]`), strconv.Itoa(b))),
				submit("day-board-go"),
				submit(r),
				submit("day-board-confirm"),
			)...)
			got := textOf(t, ctx, fmt.Sprintf(`[data-testid="day-board-%d"] [data-testid="day-board-result"]`, b))
			if got == "" {
				t.Fatalf("board %d shows no result after saving", b)
			}
		}
		do(t, ctx, chromedp.EmulateViewport(1200, 900))
		return len(open)
	}
	drawRound := func(cid int64) {
		t.Helper()
		do(t, ctx, submit("day-draw")...)
		if n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('[data-testid=day-draw-confirm]').length`)); n != 1 {
			t.Fatalf("class %d: the draw preview offers no confirmation:\n%s", cid, textOf(t, ctx, "main"))
		}
		do(t, ctx, submit("day-draw-confirm")...)
	}
	rounds := func(cid int64) []dayPageRound {
		t.Helper()
		do(t, ctx, chromedp.Navigate(classURL(cid)), chromedp.WaitReady(chromedp.CSS("footer.site")))
		rs, err := chromedp.Run(ctx, chromedp.Evaluate[[]dayPageRound](dayRoundsJS))
		if err != nil {
			t.Fatal(err)
		}
		sort.Slice(rs, func(i, j int) bool { return rs[i].N < rs[j].N })
		return rs
	}
	checkRound1 := func(cid int64) {
		t.Helper()
		rs := rounds(cid)
		if len(rs) == 0 {
			t.Fatal("no round on the class page after the first draw")
		}
		seen := map[string]int{}
		for _, b := range rs[0].Boards {
			seen[b[0]]++
			seen[b[1]]++
		}
		for _, name := range expect[cid] {
			if seen[name] == 0 && !strings.Contains(rs[0].Byes, name) {
				t.Errorf("checked-in %s is not in round 1", name)
			}
			if seen[name] > 1 {
				t.Errorf("%s plays %d games in round 1", name, seen[name])
			}
		}
		if seen[absentee.Name] > 0 || strings.Contains(rs[0].Byes, absentee.Name) {
			t.Errorf("the absentee %s is in round 1", absentee.Name)
		}
	}
	boards := 0

	// A級: the pools preliminary to the end, a withdrawal after round 1.
	var withdrawn string
	for n := 1; hasDraw(classA); n++ {
		if n > 8 {
			t.Fatal("A級 still offers a draw after 8 rounds")
		}
		drawRound(classA)
		if n == 1 {
			checkRound1(classA)
		}
		boards += enterRound(classA, n)
		if n == 1 {
			// A round-1 winner withdraws: the next games are forfeited.
			// The draw's seed is the app's own (crypto/rand), so the
			// board is found, not assumed: the first whose winner is a
			// registry player, the winner read from the store.
			var id int64
			for _, b := range rounds(classA)[0].Boards {
				for _, p := range players {
					if id == 0 && (p.Name == b[0] || p.Name == b[1]) {
						if ok, err := wonBoard(t, a, actor, classA, 1, p.Name); err != nil {
							t.Fatal(err)
						} else if ok {
							id, withdrawn = p.ID, p.Name
						}
					}
				}
			}
			if id == 0 {
				t.Fatal("no registry player won in round 1")
			}
			do(t, ctx, steps(
				one(chromedp.Navigate(recPath), chromedp.WaitVisible(chromedp.CSS(`[data-testid="day-reception"]`))),
				swapAt(fmt.Sprintf(`[data-testid="day-entrant-%d"] [data-testid="day-withdraw"]`, id)),
			)...)
		}
	}
	t.Logf("A級 preliminary done at %v", time.Since(start).Round(time.Millisecond))
	// B級: four Swiss rounds; round 1's paper printed.
	for n := 1; hasDraw(classB); n++ {
		if n > 4 {
			t.Fatal("B級 offers a fifth round")
		}
		drawRound(classB)
		if n == 1 {
			checkRound1(classB)
			printRound(t, ctx, a, db, classB, 1, len(rounds(classB)[0].Boards))
		}
		boards += enterRound(classB, n)
	}

	t.Logf("B級 preliminary done at %v", time.Since(start).Round(time.Millisecond))
	// The preliminaries read back from the class pages: the absentee
	// nowhere; no rematch in the Swiss class; in the pools class a pair
	// meets again only in a block's third round, between two players who
	// were both 1勝1敗 (the block leaves no other pairing, docs/pools.md);
	// every pools player ends with 2 wins or 2 losses, counted from the
	// result cells.
	recA := map[string][2]int{}
	for _, cid := range []int64{classA, classB} {
		met := map[[2]string]int{}
		rec := map[string][2]int{}
		for _, r := range rounds(cid) {
			for _, b := range r.Boards {
				if b[0] == absentee.Name || b[1] == absentee.Name {
					t.Errorf("the absentee plays in round %d", r.N)
				}
				k := [2]string{min(b[0], b[1]), max(b[0], b[1])}
				met[k]++
				if met[k] > 1 {
					forced := cid == classA && r.N == 3 && rec[b[0]] == [2]int{1, 1} && rec[b[1]] == [2]int{1, 1}
					if !forced {
						t.Errorf("class %d: %s and %s meet again in round %d (records %v, %v)", cid, k[0], k[1], r.N, rec[b[0]], rec[b[1]])
					}
				}
				sw, gw := strings.Contains(b[2], b[0]), strings.Contains(b[2], b[1])
				if sw == gw {
					t.Fatalf("class %d round %d: result %q names not exactly one of %s, %s", cid, r.N, b[2], b[0], b[1])
				}
				w, l := b[0], b[1]
				if gw {
					w, l = b[1], b[0]
				}
				rec[w] = [2]int{rec[w][0] + 1, rec[w][1]}
				rec[l] = [2]int{rec[l][0], rec[l][1] + 1}
			}
			// A pools bye is a win (a 3-player block); a Swiss bye too.
			for _, name := range expect[cid] {
				if strings.Contains(r.Byes, name) {
					rec[name] = [2]int{rec[name][0] + 1, rec[name][1]}
				}
			}
		}
		if cid == classA {
			recA = rec
		}
	}
	for _, name := range expect[classA] {
		if r := recA[name]; (r[0] == 2) == (r[1] == 2) {
			t.Errorf("A級 %s ends %d勝%d敗 by the class page's results: want exactly 2 wins or 2 losses", name, r[0], r[1])
		}
	}
	if got := rounds(classB); len(got) != 4 {
		t.Errorf("B級 played %d rounds, want 4", len(got))
	}
	do(t, ctx, chromedp.Navigate(classURL(classA)), chromedp.WaitReady(chromedp.CSS("footer.site")))
	forfeits, err := chromedp.Run(ctx, chromedp.Evaluate[int](
		`[...document.querySelectorAll('[data-testid=day-round] tr[data-testid^=day-board-]')].filter(tr => tr.textContent.includes(`+strconv.Quote(withdrawn)+`) && tr.querySelector('[data-testid=day-board-result-cell] .muted')).length`))
	if err != nil {
		t.Fatal(err)
	}
	if forfeits == 0 {
		t.Errorf("the withdrawn %s has no forfeited game after round 1", withdrawn)
	}

	// Standings: pools 2 wins or 2 losses each; the qualifiers.
	standings := func(cid int64) []standingRow {
		t.Helper()
		do(t, ctx, chromedp.Navigate(classURL(cid)+"/standings"), chromedp.WaitReady(chromedp.CSS(`[data-testid="day-standings"]`)))
		rows, err := chromedp.Run(ctx, chromedp.Evaluate[[]standingRow](dayStandingsJS))
		if err != nil {
			t.Fatal(err)
		}
		return rows
	}
	var qualA []string
	rowsA := standings(classA)
	if len(rowsA) != len(expect[classA]) {
		t.Errorf("A級 standings list %d players, want %d", len(rowsA), len(expect[classA]))
	}
	for _, r := range rowsA {
		m := reRecord.FindStringSubmatch(r.Cells[2])
		if m == nil {
			t.Fatalf("A級 %s record %q", r.Name, r.Cells[2])
		}
		w, l := m[1], m[2]
		if fmt.Sprint(recA[r.Name][0]) != w || fmt.Sprint(recA[r.Name][1]) != l {
			t.Errorf("A級 standings show %s %s勝%s敗, the class page's results %v", r.Name, w, l, recA[r.Name])
		}
		if w == "2" {
			qualA = append(qualA, r.Name)
			if !strings.Contains(r.Cells[3], "通過") {
				t.Errorf("A級 %s has 2 wins but status %q", r.Name, r.Cells[3])
			}
		}
		if r.Name == withdrawn && w == "2" {
			t.Errorf("the withdrawn %s qualified", withdrawn)
		}
	}
	screenshot(t, ctx, db+"-day-e2e-standings-a")
	var qualB []string
	rowsB := standings(classB)
	for i, r := range rowsB {
		if i < 8 {
			qualB = append(qualB, r.Name)
		}
	}
	screenshot(t, ctx, db+"-day-e2e-standings-b")

	// The finals: preview (its qualifiers equal the standings'), build,
	// publish, play to a champion.
	for _, c := range []struct {
		cid  int64
		qual []string
	}{{classA, qualA}, {classB, qualB}} {
		do(t, ctx, steps(
			one(chromedp.Navigate(classURL(c.cid)), chromedp.WaitVisible(chromedp.CSS(`[data-testid="day-final-link"]`))),
			submit("day-final-link"),
		)...)
		list, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('[data-testid=day-final-qualifiers] li')].map(li => li.textContent.trim())`))
		if err != nil {
			t.Fatal(err)
		}
		if len(list) != len(c.qual) {
			t.Errorf("class %d: the final takes %d qualifiers, the standings give %d", c.cid, len(list), len(c.qual))
		}
		for _, q := range c.qual {
			found := false
			for _, li := range list {
				if strings.HasPrefix(li, q) {
					found = true
				}
			}
			if !found {
				t.Errorf("class %d: standings qualifier %s is not in the final", c.cid, q)
			}
		}
		screenshot(t, ctx, db+fmt.Sprintf("-day-e2e-final-preview-%d", c.cid))
		do(t, ctx, steps(submit("day-final-build"), submit("publish-submit"), submit("preview-confirm"))...)
		for g := 0; ; g++ {
			if g > 40 {
				t.Fatal("the final never ends")
			}
			nodes, err := chromedp.Run(ctx, chromedp.Nodes(chromedp.CSS(`form.quick-result[data-testid^="result-"] button`), chromedp.AtLeast(0)))
			if err != nil {
				t.Fatal(err)
			}
			if len(nodes) == 0 {
				break
			}
			id := strings.TrimPrefix(nodes[0].AttributeValue("data-testid"), "result-submit-")
			do(t, ctx, chooseIndex(`[data-testid="winner-`+id+`"]`, 1+rng.IntN(2)))
			do(t, ctx, steps(submit("result-submit-"+id), submit("preview-confirm"))...)
			boards++
		}
	}
	do(t, ctx, chromedp.Navigate(fmt.Sprintf("%s/events/%d/brackets", a.ts.URL, eventID)), chromedp.WaitReady(chromedp.CSS("footer.site")))
	champs, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('p.bracket-champion[data-testid^=champion-]')].map(p => p.textContent.trim())`))
	if err != nil {
		t.Fatal(err)
	}
	if len(champs) != 2 {
		t.Fatalf("the brackets page names %d champions, want one per class: %q", len(champs), champs)
	}
	for i, q := range [][]string{qualA, qualB} {
		ok := false
		for _, name := range q {
			if strings.Contains(champs[i], name) {
				ok = true
			}
		}
		if !ok {
			t.Errorf("champion line %q names none of the class's qualifiers %v", champs[i], q)
		}
	}
	screenshot(t, ctx, db+"-day-e2e-brackets")
	t.Logf("%d results entered through the pages; %v", boards, time.Since(start).Round(time.Millisecond))
}

// idAfter reads the id following prefix in the browser's location.
func idAfter(t *testing.T, ctx context.Context, prefix string) int64 {
	t.Helper()
	loc, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(loc, prefix)
	if i < 0 {
		t.Fatalf("location %s has no %s", loc, prefix)
	}
	rest := loc[i+len(prefix):]
	if j := strings.IndexAny(rest, "/?#"); j >= 0 {
		rest = rest[:j]
	}
	id, err := strconv.ParseInt(rest, 10, 64)
	if err != nil {
		t.Fatalf("location %s: %v", loc, err)
	}
	return id
}

// wonBoard tells whether name won their round-n game in the class, from
// the store's stored results (not from the pages the test just clicked).
func wonBoard(t *testing.T, a *testApp, actor office.Actor, cid int64, n int, name string) (bool, error) {
	t.Helper()
	bg := context.Background()
	v, err := day.New(a.srv.Office).ClassView(bg, actor, cid)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range v.Rounds[n-1].Boards {
		if v.Names[b.Sente] != name && v.Names[b.Gote] != name {
			continue
		}
		rv, ok, err := a.store.EffectiveResult(bg, b.Last.ID)
		if err != nil || !ok {
			return false, err
		}
		if rv.Result == office.ResultSenteWin {
			return v.Names[b.Sente] == name, nil
		}
		return v.Names[b.Gote] == name, nil
	}
	return false, nil
}

// printRound prints round n's pairing sheet and slips with print media:
// the sheet lists every board of the round, one slip per board.
func printRound(t *testing.T, ctx context.Context, a *testApp, db string, cid int64, n, boards int) {
	t.Helper()
	media := func(m string) chromedp.Action[chromedp.Void] {
		return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: m})
			return err
		})
	}
	do(t, ctx, chromedp.EmulateViewport(a4PortraitW, a4PortraitH), media("print"))
	for _, sh := range []struct{ name, path, item string }{
		{"pairings", "pairings", "paper-pairing-row"},
		{"slips", "slips", "paper-slip"},
	} {
		do(t, ctx, chromedp.Navigate(fmt.Sprintf("%s/day/classes/%d/rounds/%d/%s/print", a.ts.URL, cid, n, sh.path)), chromedp.WaitReady(chromedp.CSS("main")))
		got, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('[data-testid=`+sh.item+`]').length`))
		if err != nil {
			t.Fatal(err)
		}
		if got != boards {
			t.Errorf("round %d %s: %d items, want one per board (%d)", n, sh.name, got, boards)
		}
		screenshot(t, ctx, db+fmt.Sprintf("-day-e2e-%s-r%d", sh.name, n))
	}
	do(t, ctx, media(""), chromedp.EmulateViewport(1200, 900))
}

// newLongBrowser is newBrowser with a longer deadline: the whole day is
// several hundred page loads (and the race detector slows the server). The
// day takes 3–6 minutes per database under -race with the package's
// other tests running beside it (2 cores, -parallel 8); the deadline is
// only a bound for a loaded machine.
func newLongBrowser(t *testing.T, d time.Duration) context.Context {
	t.Helper()
	return newBrowserFor(t, d)
}
