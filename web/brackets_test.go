package web

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"kisen/office"
	"kisen/pairing"
	"kisen/store"
)

// bracketFixture: an administrator (signed in on a.client), a director and
// an outsider account, a draft knockout event and eight players, the
// second a disciple of the first since 2010 (D-A1).
type bracketFixture struct {
	a                  *testApp
	o                  *office.Office
	admin              office.Actor
	director, outsider store.User
	event              store.Event
	players            []store.Player
}

func newBracketFixture(t *testing.T, a *testApp) *bracketFixture {
	t.Helper()
	ctx := context.Background()
	f := &bracketFixture{a: a, o: office.New(a.store, func() time.Time { return a.now })}
	root := a.addUser("root", true)
	f.admin = office.Actor{UserID: root.ID, Login: root.Login, Admin: true}
	f.director = a.addUser("director", false)
	f.outsider = a.addUser("outsider", false)
	a.signIn(a.client, root.ID)
	org := store.Organiser{Name: "日本将棋連盟", Kind: office.OrganiserFederation, Settings: "{}", CreatedAt: a.now, UpdatedAt: a.now}
	if err := a.store.CreateOrganiser(ctx, &org); err != nil {
		t.Fatal(err)
	}
	ev, err := f.o.CreateEvent(ctx, f.admin, office.EventInput{OrganiserID: org.ID, Name: "新人王戦", Kind: office.EventKnockout, StartDate: "2026-12-01", EndDate: "2027-03-31"})
	if err != nil {
		t.Fatal(err)
	}
	f.event = ev
	if err := f.o.GrantEventRole(ctx, f.admin, office.RoleGrant{EventID: ev.ID, UserID: f.director.ID, Role: office.RoleDirector}); err != nil {
		t.Fatal(err)
	}
	kana := []string{"あ", "い", "う", "え", "お", "か", "き", "く"}
	for i := range 8 {
		p, err := f.o.CreatePlayer(ctx, f.admin, office.PlayerInput{Name: fmt.Sprintf("棋士%02d", i+1), Reading: "きし " + kana[i], Kind: "professional", Rank: "四段"})
		if err != nil {
			t.Fatal(err)
		}
		f.players = append(f.players, p)
	}
	if err := f.o.AddMasterPeriod(ctx, f.admin, f.players[1].ID, office.MasterRef{PlayerID: f.players[0].ID}, "2010-04-01", ""); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *bracketFixture) eventPath() string { return "/events/" + strconv.FormatInt(f.event.ID, 10) }

// newStage creates a stage through the form and returns its path.
func (f *bracketFixture) newStage(t *testing.T, name string) string {
	t.Helper()
	resp, _ := f.a.postForm(f.eventPath()+"/stages", url.Values{"name": {name}, "kind": {"first_preliminary"}, "qualifiers": {"2"}, "round_dates": {"2026-12-10 2027-01-10 2027-02-10"}})
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/stages/") {
		t.Fatalf("create stage: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	return resp.Header.Get("Location")
}

func stageIDOf(t *testing.T, path string) int64 {
	t.Helper()
	id, err := strconv.ParseInt(strings.TrimPrefix(path, "/stages/"), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestBrackets_StageCreateValidation_BothLanguages(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := newBracketFixture(t, a)
		bad := url.Values{"name": {""}, "kind": {"main"}, "qualifiers": {"3"}, "round_dates": {"2026-12-10 2026-13-40"}}
		msgs := map[string]map[string]string{}
		for _, lang := range []string{"ja", "en"} {
			a.get("/lang?to=" + lang)
			resp, body := a.postForm(f.eventPath()+"/stages", bad)
			if resp.StatusCode != http.StatusUnprocessableEntity {
				t.Fatalf("%s: invalid stage answered %d", lang, resp.StatusCode)
			}
			msgs[lang] = map[string]string{}
			for _, field := range []string{"name", "qualifiers", "round_dates"} {
				msgs[lang][field] = testid(t, body, "error-"+field)
				if msgs[lang][field] == "" {
					t.Errorf("%s: no message next to %s", lang, field)
				}
			}
			// The user's input is kept.
			if v, _ := doc(t, body).Find(`input[name="round_dates"]`).Attr("value"); v != "2026-12-10 2026-13-40" {
				t.Errorf("%s: round dates not kept: %q", lang, v)
			}
		}
		for field, ja := range msgs["ja"] {
			en := msgs["en"][field]
			if ja == en || !hasJapanese(ja) || hasJapanese(en) {
				t.Errorf("%s: ja %q / en %q are not the two languages", field, ja, en)
			}
		}
		if sts, _ := a.store.StagesOfEvent(context.Background(), f.event.ID); len(sts) != 0 {
			t.Fatalf("an invalid stage was saved: %+v", sts)
		}
	})
}

func hasJapanese(s string) bool {
	for _, r := range s {
		if r >= 0x3040 && r <= 0x9fff {
			return true
		}
	}
	return false
}

// TestBrackets_Flow_D_A1 walks every knockout route through HTTP: entrants
// added and removed, a bad draw, a draw, a swap that breaks D-A1 refused
// without a reason and saved with one, publication, the public page, a
// quick result, a toss, a withdrawal and the CSV export.
func TestBrackets_Flow_D_A1(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f := newBracketFixture(t, a)
		public := a.newClient()

		// A draft event: the public sees no bracket page.
		if resp, _ := a.do(public, http.MethodGet, f.eventPath()+"/brackets", nil, ""); resp.StatusCode != http.StatusNotFound {
			t.Fatalf("public opens a draft event's brackets: %d", resp.StatusCode)
		}
		path := f.newStage(t, "本戦")
		sid := stageIDOf(t, path)

		// Entrants: add all, remove one, add it again; an unknown player is refused.
		for _, p := range f.players {
			if resp, _ := a.postForm(path+"/entrants", url.Values{"player_id": {strconv.FormatInt(p.ID, 10)}}); resp.StatusCode != http.StatusSeeOther {
				t.Fatalf("add entrant %d: %d", p.ID, resp.StatusCode)
			}
		}
		resp, body := a.postForm(path+"/entrants", url.Values{"player_id": {"999999"}})
		if resp.StatusCode != http.StatusUnprocessableEntity || testid(t, body, "error-player_id") == "" {
			t.Fatalf("unknown player: %d", resp.StatusCode)
		}
		es, _ := a.store.EntrantsOfStage(ctx, sid)
		if len(es) != 8 {
			t.Fatalf("%d entrants", len(es))
		}
		if resp, _ := a.postForm(path+"/entrants/"+strconv.FormatInt(es[7].ID, 10)+"/remove", url.Values{}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("remove: %d", resp.StatusCode)
		}
		if es, _ := a.store.EntrantsOfStage(ctx, sid); len(es) != 7 {
			t.Fatalf("after removal %d entrants", len(es))
		}
		a.postForm(path+"/entrants", url.Values{"player_id": {strconv.FormatInt(es[7].PlayerID, 10)}})

		// A bad seed and a bad date are named next to their fields.
		resp, body = a.postForm(path+"/draw", url.Values{"seed": {"twelve"}, "draw_date": {"2026-02-30"}})
		if resp.StatusCode != http.StatusUnprocessableEntity || testid(t, body, "error-seed") == "" || testid(t, body, "error-draw_date") == "" {
			t.Fatalf("bad draw: %d seed %q date %q", resp.StatusCode, testid(t, body, "error-seed"), testid(t, body, "error-draw_date"))
		}
		if st, _ := a.store.StageByID(ctx, sid); st.Status != office.StageSetup {
			t.Fatalf("a refused draw moved the stage to %s", st.Status)
		}
		if resp, _ := a.postForm(path+"/draw", url.Values{"seed": {"5"}, "draw_date": {"2026-11-21"}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("draw: %d", resp.StatusCode)
		}
		st, _ := a.store.StageByID(ctx, sid)
		slots, _ := office.StageSlots(st)
		m, d := strconv.FormatInt(f.players[0].ID, 10), strconv.FormatInt(f.players[1].ID, 10)
		im, id := slices.Index(slots, m), slices.Index(slots, d)
		if im/2 == id/2 {
			t.Fatalf("D-A1: master and disciple meet in round 1: %v", slots)
		}
		// Swap the disciple opposite the master: refused without a reason,
		// the broken rule listed; the form numbers slots from 1.
		swap := url.Values{"a": {strconv.Itoa((im ^ 1) + 1)}, "b": {strconv.Itoa(id + 1)}}
		resp, body = a.postForm(path+"/swap", swap)
		if resp.StatusCode != http.StatusUnprocessableEntity || testid(t, body, "error-reason") == "" {
			t.Fatalf("swap without reason: %d", resp.StatusCode)
		}
		if br := testid(t, body, "swap-breaks"); !strings.Contains(br, "公式棋戦規約 第8条A-1") || !strings.Contains(br, f.players[0].Name) ||
			!strings.Contains(br, f.players[1].Name) || strings.Contains(br, pairing.RuleMasterStudent) {
			t.Fatalf("broken rules not listed: %q", testid(t, body, "swap-breaks"))
		}
		if st2, _ := a.store.StageByID(ctx, sid); st2.Slots != st.Slots {
			t.Fatal("a refused swap changed the slots")
		}
		swap.Set("reason", "主催者の判断")
		if resp, _ := a.postForm(path+"/swap", swap); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("swap with reason: %d", resp.StatusCode)
		}
		st, _ = a.store.StageByID(ctx, sid)
		after, _ := office.StageSlots(st)
		if after[im^1] != d || after[id] != slots[im^1] {
			t.Fatalf("swap not saved: %v → %v", slots, after)
		}
		log, _ := a.store.DrawLog(ctx, sid)
		if last := log[len(log)-1]; last.Action != "swap" || last.Reason != "主催者の判断" {
			t.Fatalf("audit trail: %+v", last)
		}

		// Publish: the event and stage become public; games exist.
		if resp, _ := a.postForm(path+"/publish", url.Values{"confirm": {"1"}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("publish: %d", resp.StatusCode)
		}
		// A second stage still in setup stays hidden from the public.
		second := f.newStage(t, "決勝トーナメント")
		resp, body = a.do(public, http.MethodGet, f.eventPath()+"/brackets", nil, "")
		if resp.StatusCode != http.StatusOK || doc(t, body).Find(`[data-testid="stage-`+strconv.FormatInt(sid, 10)+`"]`).Length() != 1 {
			t.Fatalf("public bracket page: %d", resp.StatusCode)
		}
		if doc(t, body).Find(`[data-testid="stage-`+strings.TrimPrefix(second, "/stages/")+`"]`).Length() != 0 {
			t.Fatal("the public sees a stage in setup")
		}
		if n := doc(t, body).Find(`[data-testid^="game-R1-"]`).Length(); n != 4 {
			t.Fatalf("public tree shows %d round-1 games, want 4", n)
		}

		// Quick result: a wrong winner is refused, the right one saved.
		kgs, _ := a.store.KnockoutGamesOfStage(ctx, sid)
		g1, _ := a.store.GameByID(ctx, kgs[0].GameID)
		form := `[data-testid="result-` + kgs[0].BracketGame + `"]`
		resp, body = a.postForm(path+"/result", a.shown(path, form, url.Values{"confirm": {"1"}, "winner": {"424242"}, "reason": {"resignation"}}))
		if resp.StatusCode != http.StatusUnprocessableEntity || testid(t, body, "error-winner") == "" {
			t.Fatalf("wrong winner: %d", resp.StatusCode)
		}
		resp, _ = a.postForm(path+"/result", a.shown(path, form, url.Values{"confirm": {"1"}, "winner": {strconv.FormatInt(*g1.GotePlayerID, 10)}, "reason": {"resignation"}}))
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("quick result: %d", resp.StatusCode)
		}
		if eff, ok, _ := a.store.EffectiveResult(ctx, g1.ID); !ok || eff.Result != office.ResultGoteWin {
			t.Fatalf("stored result %+v %v", eff, ok)
		}

		// Observed toss on another game: a missing piece is named, a full toss saved.
		resp, body = a.postForm(path+"/toss", url.Values{"game": {kgs[1].BracketGame}, "piece_1": {""}, "piece_2": {"fu"}, "piece_3": {"fu"}, "piece_4": {"to"}, "piece_5": {"to"}})
		if resp.StatusCode != http.StatusUnprocessableEntity || testid(t, body, "error-piece_1") == "" {
			t.Fatalf("toss with a missing piece: %d", resp.StatusCode)
		}
		toss := url.Values{"game": {kgs[1].BracketGame}, "piece_1": {"to"}, "piece_2": {"to"}, "piece_3": {"to"}, "piece_4": {"fu"}, "piece_5": {"standing"}}
		if resp, _ := a.postForm(path+"/toss", toss); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("toss: %d", resp.StatusCode)
		}
		_, body = a.get(path)
		if got := testid(t, body, "observed-"+kgs[1].BracketGame); !strings.Contains(got, "と") || !strings.Contains(got, "立") {
			t.Fatalf("observed toss not shown piece by piece: %q", got)
		}

		// Withdrawal of a player of a game not yet played: the game already
		// created becomes a walkover, so the corrections page lists it first
		// (issue 11); confirming voids it.
		g3, _ := a.store.GameByID(ctx, kgs[2].GameID)
		withdraw := url.Values{"player_id": {strconv.FormatInt(*g3.SentePlayerID, 10)}, "reason": {"体調不良"}}
		if resp, body := a.postForm(path+"/withdraw", withdraw); resp.StatusCode != http.StatusOK || !strings.Contains(body, `data-testid="correction-game"`) {
			t.Fatalf("withdraw preview: %d", resp.StatusCode)
		}
		withdraw.Set("correction_confirm", "1")
		withdraw.Set("correction_reason", "体調不良")
		if resp, _ := a.postForm(path+"/withdraw", withdraw); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("withdraw: %d", resp.StatusCode)
		}
		es, _ = a.store.EntrantsOfStage(ctx, sid)
		if !slices.ContainsFunc(es, func(e store.KnockoutEntrant) bool { return e.PlayerID == *g3.SentePlayerID && e.Withdrawn }) {
			t.Fatal("withdrawal not stored")
		}

		// CSV, read back by the public: BOM, header, one row per bracket game:
		// 8 players cut at 2 qualifiers play 4 + 2 games.
		resp, body = a.do(public, http.MethodGet, path+"/csv", nil, "")
		if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/csv") {
			t.Fatalf("csv: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		if !strings.HasPrefix(body, "\uFEFF") {
			t.Fatal("csv without a byte-order mark")
		}
		rows, err := csv.NewReader(bytes.NewReader([]byte(strings.TrimPrefix(body, "\uFEFF")))).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		wantHeader := []string{"stage", "round", "game", "player_1", "player_2", "status", "winner", "kind", "result", "reason", "redos", "scheduled_on", "game_id", "game_label"}
		if !slices.Equal(rows[0], wantHeader) || len(rows) != 1+4+2 {
			t.Fatalf("csv header %v, %d rows", rows[0], len(rows)-1)
		}
		byGame := map[string][]string{}
		for _, r := range rows[1:] {
			byGame[r[2]] = r
		}
		first := byGame[kgs[0].BracketGame]
		if first == nil || first[8] != office.ResultGoteWin || first[12] != strconv.FormatInt(g1.ID, 10) {
			t.Fatalf("csv row of the played game: %v", first)
		}
	})
}

// TestBrackets_Permissions: a signed-in user without a role gets 403 on
// every management route; the public is sent to /login.
func TestBrackets_Permissions(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := newBracketFixture(t, a)
		path := f.newStage(t, "本戦")
		sid := stageIDOf(t, path)
		for _, p := range f.players {
			a.postForm(path+"/entrants", url.Values{"player_id": {strconv.FormatInt(p.ID, 10)}})
		}
		a.postForm(path+"/draw", url.Values{"seed": {"3"}, "draw_date": {"2026-11-21"}})
		if resp, _ := a.postForm(path+"/publish", url.Values{"confirm": {"1"}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("publish: %d", resp.StatusCode)
		}
		posts := map[string]url.Values{
			f.eventPath() + "/stages":   {"name": {"x"}, "kind": {"main"}},
			path + "/entrants":          {"player_id": {strconv.FormatInt(f.players[0].ID, 10)}},
			path + "/draw":              {"seed": {"1"}, "draw_date": {"2026-11-21"}},
			path + "/swap":              {"a": {"1"}, "b": {"2"}, "reason": {"x"}},
			path + "/publish":           {},
			path + "/result":            {"game": {"R1-G1"}, "winner": {strconv.FormatInt(f.players[0].ID, 10)}, "reason": {"resignation"}},
			path + "/withdraw":          {"player_id": {strconv.FormatInt(f.players[0].ID, 10)}},
			path + "/toss":              {"game": {"R1-G1"}},
			f.eventPath() + "/handicap": {"table": {"0 振り駒"}},
		}
		outsider := *a
		outsider.client = a.newClient()
		a.signIn(outsider.client, f.outsider.ID)
		if resp, _ := outsider.get(path); resp.StatusCode != http.StatusForbidden {
			t.Fatalf("outsider opens the stage page: %d", resp.StatusCode)
		}
		for p, form := range posts {
			if resp, _ := outsider.postForm(p, cloneForm(form)); resp.StatusCode != http.StatusForbidden {
				t.Errorf("outsider POST %s: %d, want 403", p, resp.StatusCode)
			}
		}
		public := *a
		public.client = a.newClient()
		if resp, _ := public.get(path); resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/login") {
			t.Fatalf("public opens the stage page: %d %s", resp.StatusCode, resp.Header.Get("Location"))
		}
		for p, form := range posts {
			if resp, _ := public.postForm(p, cloneForm(form)); resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/login") {
				t.Errorf("public POST %s: %d %s, want a redirect to /login", p, resp.StatusCode, resp.Header.Get("Location"))
			}
		}
		// The director may manage.
		director := *a
		director.client = a.newClient()
		a.signIn(director.client, f.director.ID)
		if resp, _ := director.get(path); resp.StatusCode != http.StatusOK {
			t.Fatalf("director opens the stage page: %d", resp.StatusCode)
		}
		if st, _ := a.store.StageByID(context.Background(), sid); st.Status != office.StagePublished {
			t.Fatalf("a refused request changed the stage: %s", st.Status)
		}
	})
}

// cloneForm copies a form so each browser adds its own CSRF token.
func cloneForm(v url.Values) url.Values {
	out := url.Values{}
	for k, xs := range v {
		out[k] = slices.Clone(xs)
	}
	return out
}

// TestBrackets_HandicapPage_D_H: the 手合割 page shows the table; a bad
// table is named next to the field (422), a good one is saved.
func TestBrackets_HandicapPage_D_H(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := newBracketFixture(t, a)
		p := f.eventPath() + "/handicap"
		resp, body := a.get(p)
		if resp.StatusCode != http.StatusOK || !strings.Contains(testid(t, body, "handicap-table"), "2 香落ち") {
			t.Fatalf("handicap page: %d %q", resp.StatusCode, testid(t, body, "handicap-table"))
		}
		resp, body = a.postForm(p, url.Values{"handicap_by_rank": {"1"}, "table": {"1 平手\n2 香落ち"}})
		if resp.StatusCode != http.StatusUnprocessableEntity || testid(t, body, "error-table") == "" {
			t.Fatalf("bad table: %d", resp.StatusCode)
		}
		if resp, _ := a.postForm(p, url.Values{"handicap_by_rank": {"1"}, "table": {"0 振り駒\n1 角落ち"}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("save table: %d", resp.StatusCode)
		}
		h, err := f.o.EventHandicap(context.Background(), f.admin, f.event.ID)
		if err != nil || !h.On || len(h.Table) != 2 || h.Table[1].Handicap != pairing.KakuOchi {
			t.Fatalf("saved %+v %v", h, err)
		}
	})
}
