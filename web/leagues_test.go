package web

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"mime/multipart"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/PuerkitoBio/goquery"

	"kisen/office"
	"kisen/store"
)

// leagueFixture is a draft 順位戦 term with ten registered players (P01's
// disciple is P02 — a 師弟 pair) and a user holding the scheduler and
// director roles.
type leagueFixture struct {
	eventID int64
	sched   store.User
	players []store.Player
}

const leaguePW = "league scheduler passphrase"

func newLeagueFixture(t *testing.T, a *testApp, n int) leagueFixture {
	t.Helper()
	ctx := context.Background()
	f := leagueFixture{sched: a.addAccount("sched", leaguePW, false)}
	org := store.Organiser{Name: "日本将棋連盟", Kind: "federation", Settings: "{}", CreatedAt: a.now, UpdatedAt: a.now}
	if err := a.store.CreateOrganiser(ctx, &org); err != nil {
		t.Fatal(err)
	}
	// A comma and a semicolon in the name exercise ICS escaping.
	ev := store.Event{OrganiserID: org.ID, Name: "第85期順位戦, C2; 予選", Kind: office.EventJunisenTerm, StartDate: "2026-06-01",
		EndDate: "2027-03-31", Status: office.StatusDraft, CreatedBy: f.sched.ID, CreatedAt: a.now, UpdatedAt: a.now}
	if err := a.store.CreateEvent(ctx, &ev); err != nil {
		t.Fatal(err)
	}
	f.eventID = ev.ID
	for _, role := range []string{office.RoleScheduler, office.RoleDirector} {
		if err := a.store.GrantEventRole(ctx, &store.EventRole{EventID: ev.ID, UserID: f.sched.ID, Role: role, GrantedBy: f.sched.ID, CreatedAt: a.now}); err != nil {
			t.Fatal(err)
		}
	}
	families := []string{"青木", "石田", "上野", "江口", "大山", "加藤", "木村", "久保", "小林", "佐藤", "清水", "鈴木"}
	for i := range n {
		num := fmt.Sprintf("L%02d", i+1)
		p := store.Player{Number: &num, Name: families[i] + " 太郎", Reading: "たろう", Kind: store.PlayerProfessional, Class: store.PlayerClassC2, CreatedAt: a.now, UpdatedAt: a.now}
		if err := a.store.CreatePlayer(ctx, &p); err != nil {
			t.Fatal(err)
		}
		f.players = append(f.players, p)
	}
	master := f.players[0].ID
	if err := a.store.AddMasterPeriod(ctx, &store.PlayerMaster{DiscipleID: f.players[1].ID, MasterPlayerID: &master,
		FromDate: store.NewCivilDate(2010, 4, 1), CreatedAt: a.now, UpdatedAt: a.now}); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f leagueFixture) memberLines() string {
	var b strings.Builder
	for _, p := range f.players {
		b.WriteString(*p.Number + "\n")
	}
	return b.String()
}

func (f leagueFixture) base() string {
	return "/events/" + strconv.FormatInt(f.eventID, 10) + "/league"
}

// TestLeagueWeb_D_A2_D_B1_FullTerm drives a C2 class through the web:
// add, draw (D-A2: the 師弟 pair never meets; D-B1: one final date),
// publish, every result, the public table with ○/● and promotion marks,
// ICS and CSV exports, and the roll-over to the next term.
func TestLeagueWeb_D_A2_D_B1_FullTerm(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := newLeagueFixture(t, a, 11)
		a.signIn(a.client, f.sched.ID)
		resp, _ := a.postForm(f.base()+"/classes", url.Values{"class": {"C2"}, "members": {f.memberLines()}, "games_per_player": {"4"}, "allowance": {"360"}})
		if resp.StatusCode != 303 {
			t.Fatalf("add class: %d", resp.StatusCode)
		}
		classURL := resp.Header.Get("Location")
		dates := []string{"2026-06-09", "2026-07-07 2026-07-08", "2026-08-04", "2026-09-01", "2026-10-06"}
		resp, body := a.postForm(classURL+"/generate", url.Values{"seed": {"20260401"}, "draw_date": {"2026-05-01"}, "round_date": dates})
		if resp.StatusCode != 303 {
			t.Fatalf("generate: %d %s", resp.StatusCode, body)
		}
		_, body = a.get(classURL)
		d := doc(t, body)
		if got := d.Find(`[data-testid="league-seed"]`).Text(); !strings.Contains(got, "20260401") {
			t.Fatalf("seed not shown: %q", got)
		}
		if d.Find(`[data-testid="league-report-ok"]`).Length() != 1 {
			t.Fatalf("report: %s", d.Find(`[data-testid="league-report"]`).Text())
		}
		// D-A2: the 師弟 pair never meets (the schedule lists full names).
		sched := d.Find(`[data-testid="league-schedule"] tbody tr`)
		games := 0
		finalDates := map[string]bool{}
		for i := range sched.Length() {
			tds := sched.Eq(i).Find("td")
			if tds.Length() != 5 {
				continue
			}
			games++
			se, go_ := tds.Eq(2).Text(), tds.Eq(3).Text()
			if (se == f.players[0].Name && go_ == f.players[1].Name) || (se == f.players[1].Name && go_ == f.players[0].Name) {
				t.Fatalf("D-A2: master and disciple meet: %s–%s", se, go_)
			}
			if tds.Eq(0).Text() == "5" {
				finalDates[tds.Eq(4).Text()] = true
			}
		}
		if games != 11*4/2 {
			t.Fatalf("schedule lists %d games, want 22", games)
		}
		if len(finalDates) > 1 {
			t.Fatalf("D-B1: final round on %v", finalDates)
		}
		resp, _ = a.postForm(classURL+"/publish", url.Values{"confirm": {"1"}})
		if resp.StatusCode != 303 {
			t.Fatalf("publish: %d", resp.StatusCode)
		}
		// Every game: sente wins, by the quick form.
		for range games {
			_, body = a.get(classURL)
			btn := doc(t, body).Find(`[data-testid="league-sente-win"]`).First()
			gid, ok := btn.Parent().Find(`input[name="game"]`).Attr("value")
			if !ok {
				t.Fatal("no quick result form left")
			}
			version, _ := btn.Parent().Find(`input[name="version"]`).Attr("value")
			if resp, body := a.postForm(classURL+"/result", url.Values{"confirm": {"1"}, "game": {gid}, "version": {version}, "result": {"sente_win"}}); resp.StatusCode != 303 {
				t.Fatalf("result: %d %s", resp.StatusCode, body)
			}
		}
		// Publishing the schedule published the draft event with it.
		if e, err := a.store.EventByID(context.Background(), f.eventID); err != nil || e.Status != office.StatusPublished {
			t.Fatalf("event after the schedule's publication: %q, %v", e.Status, err)
		}
		// The public table (a second, anonymous browser).
		anon := a.newClient()
		resp, body = a.do(anon, "GET", classURL, nil, "")
		if resp.StatusCode != 200 {
			t.Fatalf("public table: %d", resp.StatusCode)
		}
		d = doc(t, body)
		wins, losses, rests := 0, 0, 0
		d.Find(`[data-testid="league-cell"]`).Each(func(_ int, s *goquery.Selection) {
			txt := s.Text()
			switch {
			case strings.HasPrefix(txt, "○"):
				wins++
			case strings.HasPrefix(txt, "●"):
				losses++
			case txt == "抜け番":
				rests++
			}
		})
		if wins != games || losses != games || rests != 11 {
			t.Fatalf("table shows %d ○, %d ●, %d rests; want %d, %d, 11", wins, losses, rests, games, games)
		}
		if d.Find(`[data-testid="league-generate-form"]`).Length() != 0 || d.Find(`[data-testid="league-games"]`).Length() != 0 {
			t.Fatal("the public sees staff tools")
		}
		promoted := 0
		d.Find(`[data-testid="league-marks"]`).Each(func(_ int, s *goquery.Selection) {
			if strings.Contains(s.Text(), "昇級") {
				promoted++
			}
		})
		if promoted < 3 {
			t.Fatalf("%d promotion marks, want at least 3", promoted)
		}

		checkICS(t, a, classURL, games)
		checkCSV(t, a, classURL)

		// Roll over: a 303 to the next term, which has C1 (the promoted) and C2.
		resp, body = a.postForm(f.base()+"/rollover", url.Values{"name": {"第86期順位戦"}, "start_date": {"2027-06-01"}, "end_date": {"2028-03-31"}})
		if resp.StatusCode != 303 {
			t.Fatalf("rollover: %d %s", resp.StatusCode, body)
		}
		_, body = a.get(resp.Header.Get("Location"))
		d = doc(t, body)
		c1 := d.Find(`[data-testid="league-class-C1組"]`).Text()
		c2 := d.Find(`[data-testid="league-class-C2組"]`).Text()
		if !strings.Contains(c1, fmt.Sprintf("%d名", promoted)) || !strings.Contains(c2, fmt.Sprintf("%d名", 11-promoted)) {
			t.Fatalf("next term classes: C1 %q, C2 %q (promoted %d)", c1, c2, promoted)
		}
	})
}

func checkICS(t *testing.T, a *testApp, classURL string, games int) {
	t.Helper()
	resp, body := a.get(classURL + "/calendar.ics")
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/calendar") {
		t.Fatalf("ics: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	if !strings.HasSuffix(body, "\r\n") || strings.Contains(strings.ReplaceAll(body, "\r\n", ""), "\n") {
		t.Fatal("ICS lines must end in CRLF and nowhere else")
	}
	// Unfold (RFC 5545 §3.1) and check every physical line's length.
	var lines []string
	for _, phys := range strings.Split(strings.TrimSuffix(body, "\r\n"), "\r\n") {
		if len(phys) > 75 {
			t.Fatalf("line longer than 75 octets: %q", phys)
		}
		if !utf8.ValidString(phys) {
			t.Fatalf("fold split a character: %q", phys)
		}
		if strings.HasPrefix(phys, " ") {
			lines[len(lines)-1] += phys[1:]
			continue
		}
		lines = append(lines, phys)
	}
	if lines[0] != "BEGIN:VCALENDAR" || lines[len(lines)-1] != "END:VCALENDAR" {
		t.Fatalf("calendar frame: %q … %q", lines[0], lines[len(lines)-1])
	}
	events, uids := 0, map[string]bool{}
	for _, l := range lines {
		switch {
		case l == "BEGIN:VEVENT":
			events++
		case strings.HasPrefix(l, "UID:"):
			uids[l] = true
		case strings.HasPrefix(l, "DTSTAMP:"):
			if l != "DTSTAMP:"+a.now.UTC().Format("20060102T150405Z") {
				t.Fatalf("DTSTAMP from the office clock expected: %q", l)
			}
		case strings.HasPrefix(l, "SUMMARY:"):
			if !strings.Contains(l, `第85期順位戦\, C2\; 予選`) {
				t.Fatalf("SUMMARY not escaped: %q", l)
			}
		}
	}
	if events != games || len(uids) != games {
		t.Fatalf("%d VEVENTs with %d distinct UIDs, want %d", events, len(uids), games)
	}
	_, again := a.get(classURL + "/calendar.ics")
	if again != body {
		t.Fatal("the calendar changed between two exports with the same clock: UIDs must be stable")
	}
}

func checkCSV(t *testing.T, a *testApp, classURL string) {
	t.Helper()
	resp, body := a.get(classURL + "/schedule.csv")
	if resp.StatusCode != 200 {
		t.Fatalf("csv: %d", resp.StatusCode)
	}
	recs, err := csv.NewReader(bytes.NewReader([]byte(body))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1+11*5 {
		t.Fatalf("csv has %d rows, want header + 11 players × 5 rounds", len(recs))
	}
	results := map[string]int{}
	for _, r := range recs[1:] {
		results[r[7]]++
	}
	if results["win"] != 22 || results["loss"] != 22 || results["rest"] != 11 {
		t.Fatalf("csv results %v", results)
	}
}

// TestLeagueWeb_D_A2_D_C2_NoScheduleShowsConflicts: a class where player 1
// may meet too few classmates (two disciples, D-A2; two of last term's
// opponents, D-C2) gets a 422 naming the rules and the players; the member
// form reports every bad line with the input kept.
func TestLeagueWeb_D_A2_D_C2_NoScheduleShowsConflicts(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := newLeagueFixture(t, a, 7)
		ctx := context.Background()
		m := f.players[0].ID
		if err := a.store.AddMasterPeriod(ctx, &store.PlayerMaster{DiscipleID: f.players[2].ID, MasterPlayerID: &m,
			FromDate: store.NewCivilDate(2012, 4, 1), CreatedAt: a.now, UpdatedAt: a.now}); err != nil {
			t.Fatal(err)
		}
		a.signIn(a.client, f.sched.ID)
		var body bytes.Buffer
		mw := multipartWriter(&body, map[string]string{"terms_ago": "1"}, "file", "last.csv",
			"class,junni,player,round,opponent\nC2,1,L01,1,L04\nC2,1,L01,2,L05\n")
		resp, page := a.postBody(f.base()+"/import", mw, bytes.NewReader(body.Bytes()))
		if resp.StatusCode != 200 || !strings.Contains(doc(t, page).Find(`[data-testid="league-imported"]`).Text(), "2") {
			t.Fatalf("import: %d", resp.StatusCode)
		}
		// Bad member lines: 422, each line reported, the text kept.
		bad := "L01\n誰か\nL02,x\nL03\n"
		resp, page = a.postForm(f.base()+"/classes", url.Values{"class": {"C2"}, "members": {bad}, "games_per_player": {"4"}})
		d := doc(t, page)
		if resp.StatusCode != 422 || d.Find(`[data-testid="league-errors"] li`).Length() != 2 || d.Find(`[data-testid="league-members"]`).Text() != bad {
			t.Fatalf("bad members: %d, %q", resp.StatusCode, d.Find(`[data-testid="league-errors"]`).Text())
		}
		resp, _ = a.postForm(f.base()+"/classes", url.Values{"class": {"C2"}, "members": {f.memberLines()}, "games_per_player": {"4"}})
		classURL := resp.Header.Get("Location")
		resp, page = a.postForm(classURL+"/generate", url.Values{"seed": {"7"}, "draw_date": {"2026-05-01"}})
		conf := doc(t, page).Find(`[data-testid="league-conflicts"]`).Text()
		if resp.StatusCode != 422 || !strings.Contains(conf, "公式棋戦規約 第8条A-2") || strings.Contains(conf, "D-A2") || !strings.Contains(conf, f.players[0].Name) || !strings.Contains(conf, f.players[3].Name) {
			t.Fatalf("no-schedule page: %d %q", resp.StatusCode, conf)
		}
		// Nothing was drawn.
		_, page = a.get(classURL)
		if doc(t, page).Find(`[data-testid="league-no-schedule"]`).Length() != 1 {
			t.Fatal("a failed draw left a schedule")
		}
	})
}

// multipartWriter writes fields and one file into buf and returns the
// content type.
func multipartWriter(buf *bytes.Buffer, fields map[string]string, fileField, fileName, content string) string {
	w := multipart.NewWriter(buf)
	for k, v := range fields {
		_ = w.WriteField(k, v)
	}
	fw, _ := w.CreateFormFile(fileField, fileName)
	_, _ = fw.Write([]byte(content))
	_ = w.Close()
	return w.FormDataContentType()
}
