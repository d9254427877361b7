package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"kisen/office"
	"kisen/store"
	"kisen/store/storetest"
)

// liveSeed is a published knockout stage of four players and a director
// who signs in with a password.
type liveSeed struct {
	eventID, stageID int64
	login, password  string
	loser, winner    string // the names of the first game's players
}

func seedLiveStage(t *testing.T, opts store.Options) liveSeed {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Now().UTC()
	o := office.New(st, func() time.Time { return now })
	seed := liveSeed{login: "director", password: "a long enough password"}
	hash, err := office.HashPassword(seed.password, office.PasswordParams{Memory: 8 * 1024, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	u := store.User{Login: seed.login, DisplayName: "大会運営", PasswordHash: hash, IsAdmin: true, CreatedAt: now, UpdatedAt: now}
	if err := st.DB(ctx).Create(&u).Error; err != nil {
		t.Fatal(err)
	}
	admin := office.Actor{UserID: u.ID, Login: u.Login, Admin: true}
	org := store.Organiser{Name: "連盟", Kind: office.OrganiserFederation, Settings: "{}", CreatedAt: now, UpdatedAt: now}
	if err := st.CreateOrganiser(ctx, &org); err != nil {
		t.Fatal(err)
	}
	day := now.Format("2006-01-02")
	ev, err := o.CreateEvent(ctx, admin, office.EventInput{OrganiserID: org.ID, Name: "二台の棋戦", Kind: office.EventKnockout, StartDate: day, EndDate: day})
	if err != nil {
		t.Fatal(err)
	}
	stg, err := o.CreateStage(ctx, admin, office.StageInput{EventID: ev.ID, Name: "本戦", Kind: "first_preliminary"})
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range []string{"あ", "い", "う", "え"} {
		p, err := o.CreatePlayer(ctx, admin, office.PlayerInput{Name: fmt.Sprintf("棋士%d", i+1), Reading: n, Kind: "professional", Rank: "五段"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := o.AddEntrant(ctx, admin, office.EntrantInput{StageID: stg.ID, PlayerID: p.ID}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := o.DrawStage(ctx, admin, office.DrawInput{StageID: stg.ID, Seed: "7", DrawDate: day}); err != nil {
		t.Fatal(err)
	}
	if err := o.PublishStage(ctx, admin, stg.ID); err != nil {
		t.Fatal(err)
	}
	seed.eventID, seed.stageID = ev.ID, stg.ID
	return seed
}

// buildKisen builds the binary once for the test binary's run (both tests
// that start `kisen serve` as a process use it); TestMain removes it.
func buildKisen(t *testing.T) string {
	t.Helper()
	bin, err := kisenBinary()
	if err != nil {
		t.Fatalf("build kisen: %v", err)
	}
	return bin
}

var (
	kisenBinDir string
	kisenBinary = sync.OnceValues(func() (string, error) {
		dir, err := os.MkdirTemp("", "kisen-bin-")
		if err != nil {
			return "", err
		}
		kisenBinDir = dir
		bin := filepath.Join(dir, "kisen")
		cmd := exec.Command("go", "build", "-o", bin, ".")
		cmd.Stderr = os.Stderr
		return bin, cmd.Run()
	})
)

func TestMain(m *testing.M) {
	code := m.Run()
	if kisenBinDir != "" {
		_ = os.RemoveAll(kisenBinDir)
	}
	os.Exit(code)
}

// startServe starts `kisen serve` on a free port and waits until it answers.
func startServe(t *testing.T, bin, dbURL string, extra ...string) string {
	t.Helper()
	base, _ := startServeCmd(t, bin, append([]string{"--database-url", dbURL}, extra...)...)
	return base
}

// startServeCmd is startServe with the database given in args; it also
// returns the process.
func startServeCmd(t *testing.T, bin string, extra ...string) (string, *exec.Cmd) {
	t.Helper()
	addr := freePort(t)
	args := append([]string{"serve", "--listen", addr, "--log-level", "warn"}, extra...)
	cmd := exec.Command(bin, args...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
			t.Errorf("kisen serve on %s did not stop on SIGINT", addr)
		}
		if t.Failed() {
			t.Logf("stderr of %s: %s", addr, errb.String())
		}
	})
	base := "http://" + addr
	deadline := time.Now().Add(2 * time.Minute) // a bound for a loaded machine, not a wait
	for {
		resp, err := http.Get(base + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return base, cmd
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("kisen serve on %s not ready: %v; stderr %s", addr, err, errb.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func newJarClient() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

func getDoc(t *testing.T, c *http.Client, u string) (*goquery.Document, int) {
	t.Helper()
	resp, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	d, err := goquery.NewDocumentFromReader(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return d, resp.StatusCode
}

// TestServe_TwoProcessesShareLiveChanges (issue 15): two `kisen serve` on
// one PostgreSQL. A result entered through process A (signed in, over
// HTTP) reaches a stream open on process B within 1 s, and B's public page
// then shows it (no stale page from B's caches).
func TestServe_TwoProcessesShareLiveChanges(t *testing.T) {
	t.Parallel()
	opts := storetest.PostgresOptions(t) // skips without PostgreSQL; fails in CI when required
	seed := seedLiveStage(t, opts)
	bin := buildKisen(t)
	a := startServe(t, bin, opts.URL)
	b := startServe(t, bin, opts.URL)
	ev := "/events/" + strconv.FormatInt(seed.eventID, 10)

	// B: a public visitor reads the bracket (warming B's view cache) and
	// opens the stream.
	public := newJarClient()
	page, code := getDoc(t, public, b+ev+"/brackets")
	if code != http.StatusOK {
		t.Fatalf("B brackets: %d", code)
	}
	before := page.Find("#live-brackets").Text()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, b+ev+"/stream", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("B stream: %v %v", err, resp)
	}
	defer resp.Body.Close()
	lines := make(chan string, 64)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	firstID := ""
	for firstID == "" {
		select {
		case l := <-lines:
			firstID, _ = strings.CutPrefix(l, "id: ")
		case <-time.After(5 * time.Second):
			t.Fatal("no first block from B's stream")
		}
	}

	// A: the director signs in and enters the first game's result.
	director := newJarClient()
	login, _ := getDoc(t, director, a+"/login")
	csrf, _ := login.Find(`input[name="_csrf"]`).Attr("value")
	resp2, err := director.PostForm(a+"/login", url.Values{"_csrf": {csrf}, "login": {seed.login}, "password": {seed.password}})
	if err != nil || resp2.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign in on A: %v %v", err, resp2)
	}
	resp2.Body.Close()
	stage := "/stages/" + strconv.FormatInt(seed.stageID, 10)
	sp, code := getDoc(t, director, a+stage)
	if code != http.StatusOK {
		t.Fatalf("A stage page: %d", code)
	}
	form := sp.Find("form.quick-result").First()
	vals := url.Values{"confirm": {"1"}, "reason": {"resignation"}}
	form.Find("input[type=hidden]").Each(func(_ int, s *goquery.Selection) {
		n, _ := s.Attr("name")
		v, _ := s.Attr("value")
		vals.Set(n, v)
	})
	winner, _ := form.Find(`select[name="winner"] option[value!=""]`).Last().Attr("value")
	winnerName := form.Find(`select[name="winner"] option[value!=""]`).Last().Text()
	vals.Set("winner", winner)
	start := time.Now()
	resp3, err := director.PostForm(a+stage+"/result", vals)
	if err != nil || resp3.StatusCode != http.StatusSeeOther {
		t.Fatalf("result on A: %v %v", err, resp3)
	}
	resp3.Body.Close()
	acked := time.Now()

	// B's stream hears it within 1 s of A's answer.
	var changedID string
	for changedID == "" {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatal("B's stream ended")
			}
			if id, ok := strings.CutPrefix(l, "id: "); ok && id != firstID {
				changedID = id
			}
		case <-time.After(time.Second - time.Since(acked)):
			t.Fatalf("B's stream heard nothing within 1 s of the result entered on A")
		}
	}
	t.Logf("result POST on A → event on B: %v (after A's answer: %v)", time.Since(start), time.Since(acked))

	// B's public page shows the result at once: its caches follow the
	// database's revision, not their own memory.
	page, code = getDoc(t, public, b+ev+"/brackets")
	after := page.Find("#live-brackets").Text()
	if code != http.StatusOK || after == before || !strings.Contains(page.Find(".winner, [class*=winner]").Text(), strings.TrimSpace(winnerName)) {
		t.Fatalf("B's page after the change: %d, winner %q shown? %q", code, winnerName, page.Find(".winner, [class*=winner]").Text())
	}
	// One result may commit in more than one transaction (the result,
	// then the bracket moving on): the stream ends at the revision the
	// page was read at.
	u, _ := page.Find("body").Attr("sse-connect")
	_, pageRev, _ := strings.Cut(u, "rev=")
	for changedID != pageRev {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatal("B's stream ended")
			}
			if id, ok := strings.CutPrefix(l, "id: "); ok {
				changedID = id
			}
		case <-time.After(time.Second):
			t.Fatalf("B's page names %s, the stream stopped at %s", pageRev, changedID)
		}
	}
}
