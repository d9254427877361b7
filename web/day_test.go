package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"kisen/office"
	"kisen/office/day"
	"kisen/store"
)

// dayFixture is an amateur day seeded through office/day: one Swiss class
// with players checked in.
type dayFixture struct {
	event store.Event
	class day.Class
	admin office.Actor
	d     *day.Day
}

func seedDay(t *testing.T, a *testApp, players, rounds int) dayFixture {
	t.Helper()
	ctx := context.Background()
	u := a.addUser(fmt.Sprintf("day-admin-%d-%d", players, rounds), true)
	admin := office.Actor{UserID: u.ID, Login: u.Login, Admin: true}
	org := store.Organiser{Name: fmt.Sprintf("県連%d", players), Kind: office.OrganiserAmateur, Settings: "{}", CreatedAt: a.now, UpdatedAt: a.now}
	if err := a.store.CreateOrganiser(ctx, &org); err != nil {
		t.Fatal(err)
	}
	d := day.New(a.srv.Office)
	e, err := d.CreateDay(ctx, admin, office.EventInput{OrganiserID: org.ID, Name: fmt.Sprintf("県名人戦%d", players), StartDate: "2026-11-21", EndDate: "2026-11-21"})
	if err != nil {
		t.Fatal(err)
	}
	in := day.InputOf(e.ID, "A級", "", 0, day.FormatSwiss, day.DefaultSettings())
	in.Rounds = "5"
	c, err := d.CreateClass(ctx, admin, in)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < players; i++ {
		p := store.Player{Name: fmt.Sprintf("選手%d-%03d", players, i), Reading: fmt.Sprintf("せんしゅ%03d", i), Kind: store.PlayerAmateur, Rank: "初段",
			Affiliation: fmt.Sprintf("道場%d", i%4), CreatedAt: a.now, UpdatedAt: a.now}
		if err := a.store.CreatePlayer(ctx, &p); err != nil {
			t.Fatal(err)
		}
		if _, err := d.Enter(ctx, admin, day.EntryInput{EventID: e.ID, PlayerID: p.ID}); err != nil {
			t.Fatal(err)
		}
		if err := d.CheckIn(ctx, admin, e.ID, p.ID, store.CheckinPresent); err != nil {
			t.Fatal(err)
		}
	}
	f := dayFixture{event: e, class: c, admin: admin, d: d}
	for r := 1; r <= rounds; r++ {
		p, err := d.PreviewRound(ctx, admin, c.ID, uint64(r))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.ConfirmRound(ctx, admin, day.ConfirmInput{ClassID: c.ID, Round: p.Round, Seed: uint64(r), Fingerprint: p.Fingerprint}); err != nil {
			t.Fatal(err)
		}
		if r == rounds {
			break // the last round stays open: the board page lists it
		}
		v, err := d.ClassView(ctx, admin, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range v.Rounds[r-1].Boards {
			if err := d.EnterBoardResult(ctx, admin, day.BoardResultInput{ClassID: c.ID, Round: r, Board: b.Board, GameID: b.Last.ID, Version: b.Version, Result: office.ResultSenteWin}); err != nil {
				t.Fatal(err)
			}
		}
	}
	return f
}

// The class form answers bad settings with 422 and a message next to the
// field, in the user's language; nothing is created.
func TestDayWeb_ClassForm422NamesTheField(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := seedDay(t, a, 0, 0)
		a.signIn(a.client, f.admin.UserID)
		form := url.Values{"name": {"B級"}, "format": {"pools"}, "wins": {"二"}, "losses": {"2"}, "pool_mode": {"blocks"}, "rounds": {"4"},
			"handicap": {"toss"}, "even_gap": {"1"}, "allowance_minutes": {"20"}, "byoyomi_seconds": {"30"},
			"club": {"avoid"}, "master_student": {"avoid"}, "fellow_disciple": {"avoid"}, "family": {"avoid"},
			"withdrawal": {"forfeit"}, "qualifiers": {"8"}, "first_board": {"21"}}
		resp, body := a.postForm(fmt.Sprintf("/events/%d/day/classes", f.event.ID), form)
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, `data-testid="error-wins"`) || !strings.Contains(body, "数字で入力してください") {
			t.Fatalf("bad wins: %d\n%s", resp.StatusCode, body)
		}
		form.Set("wins", "2")
		resp, body = a.postForm(fmt.Sprintf("/events/%d/day/classes", f.event.ID), form)
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("good form: %d\n%s", resp.StatusCode, body)
		}
		resp, body = a.get(resp.Header.Get("Location"))
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, "2勝通過2敗失格") {
			t.Fatalf("class page: %d\n%s", resp.StatusCode, body)
		}
	})
}

// The director draws a round: the preview writes nothing; confirming
// creates the games with board numbers.
func TestDayWeb_DrawPreviewThenConfirm(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := seedDay(t, a, 6, 0)
		a.signIn(a.client, f.admin.UserID)
		resp, body := a.postForm(fmt.Sprintf("/day/classes/%d/draw", f.class.ID), nil)
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, `data-testid="day-draw-confirm"`) {
			t.Fatalf("preview: %d\n%s", resp.StatusCode, body)
		}
		if gs, _ := a.store.GamesOfEvent(context.Background(), f.event.ID); len(gs) != 0 {
			t.Fatal("the preview wrote games")
		}
		form := url.Values{}
		for _, k := range []string{"round", "seed", "fingerprint"} {
			form.Set(k, hiddenValue(body, k))
		}
		resp, body = a.postForm(fmt.Sprintf("/day/classes/%d/draw/confirm", f.class.ID), form)
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("confirm: %d\n%s", resp.StatusCode, body)
		}
		if gs, _ := a.store.GamesOfEvent(context.Background(), f.event.ID); len(gs) != 3 {
			t.Fatalf("%d games after the confirmation, want 3", len(gs))
		}
		// The same confirmation again: the round is drawn already.
		resp, _ = a.postForm(fmt.Sprintf("/day/classes/%d/draw/confirm", f.class.ID), form)
		if resp.StatusCode != http.StatusConflict {
			t.Fatalf("second confirmation: %d", resp.StatusCode)
		}
		if gs, _ := a.store.GamesOfEvent(context.Background(), f.event.ID); len(gs) != 3 {
			t.Fatalf("%d games after a second confirmation", len(gs))
		}
	})
}

// hiddenValue reads a hidden input's value from a page.
func hiddenValue(body, name string) string {
	i := strings.Index(body, `name="`+name+`" value="`)
	if i < 0 {
		return ""
	}
	rest := body[i+len(`name="`+name+`" value="`):]
	return rest[:strings.Index(rest, `"`)]
}

// One tap on the board page: a preview of that one result (names, nothing
// written), then the confirmation; a second entry from the same view gets
// 409 with the result in force.
func TestDayWeb_BoardEntryPreviewConfirmAndConflict(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := seedDay(t, a, 4, 1)
		a.signIn(a.client, f.admin.UserID)
		ctx := context.Background()
		v, err := f.d.ClassView(ctx, f.admin, f.class.ID)
		if err != nil {
			t.Fatal(err)
		}
		b := v.Rounds[0].Boards[1]
		base := fmt.Sprintf("/day/classes/%d/rounds/1/boards", f.class.ID)
		resp, body := a.get(base + "?board=" + strconv.Itoa(b.Board))
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, fmt.Sprintf(`data-testid="day-board-%d"`, b.Board)) ||
			strings.Contains(body, fmt.Sprintf(`data-testid="day-board-%d"`, v.Rounds[0].Boards[0].Board)) {
			t.Fatalf("board box: %d\n%s", resp.StatusCode, body)
		}
		form := url.Values{"game_id": {strconv.FormatInt(b.Last.ID, 10)}, "version": {"0"}, "winner": {strconv.FormatInt(b.Gote, 10)}}
		resp, body = a.postForm(fmt.Sprintf("%s/%d/preview", base, b.Board), form)
		// Sente by the simulated toss, none recorded at the board: the winner by name alone.
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, ">"+v.Names[b.Gote]+"の勝ち<") {
			t.Fatalf("preview: %d\n%s", resp.StatusCode, body)
		}
		if _, has, _ := a.store.LatestResult(ctx, b.Last.ID); has {
			t.Fatal("the preview wrote a result")
		}
		resp, body = a.postForm(fmt.Sprintf("%s/%d", base, b.Board), form)
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("confirm: %d\n%s", resp.StatusCode, body)
		}
		rv, ok, err := a.store.EffectiveResult(ctx, b.Last.ID)
		if err != nil || !ok || rv.Result != office.ResultGoteWin {
			t.Fatalf("stored %+v %v %v", rv, ok, err)
		}
		form.Set("winner", strconv.FormatInt(b.Sente, 10))
		resp, body = a.postForm(fmt.Sprintf("%s/%d", base, b.Board), form)
		if resp.StatusCode != http.StatusConflict || !strings.Contains(body, `data-testid="stale-title"`) {
			t.Fatalf("second entry: %d\n%s", resp.StatusCode, body)
		}
		// A form without the version is refused, naming nothing silently.
		resp, _ = a.postForm(fmt.Sprintf("%s/%d", base, v.Rounds[0].Boards[0].Board), url.Values{"game_id": {"1"}, "result": {"sente_win"}})
		if resp.StatusCode != http.StatusUnprocessableEntity {
			t.Fatalf("no version: %d", resp.StatusCode)
		}
	})
}

// The walk-in form: a bad reading is a 422 naming the field; a good one
// registers, enters and checks in.
func TestDayWeb_WalkIn(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := seedDay(t, a, 2, 0)
		a.signIn(a.client, f.admin.UserID)
		path := fmt.Sprintf("/events/%d/day/walkin", f.event.ID)
		resp, body := a.postForm(path, url.Values{"name": {"飛込花子"}, "reading": {"hanako"}, "rank": {"3級"}})
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, `data-testid="error-reading"`) {
			t.Fatalf("bad reading: %d\n%s", resp.StatusCode, body)
		}
		resp, _ = a.postForm(path, url.Values{"name": {"飛込花子"}, "reading": {"とびこみはなこ"}, "rank": {"3級"}, "affiliation": {"駅前道場"}, "class_id": {strconv.FormatInt(f.class.ID, 10)}})
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("walk-in: %d", resp.StatusCode)
		}
		resp, body = a.get(fmt.Sprintf("/events/%d/day/reception", f.event.ID))
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, "飛込花子") || !strings.Contains(body, "（当日受付）") {
			t.Fatalf("reception: %d\n%s", resp.StatusCode, body)
		}
	})
}

// The day's listing pages cost the same number of statements for a class
// of 8 and one of 80 (issue 12), on both databases.
func TestQueryCount_DayPagesCostTheSameAtTenTimesTheSize(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		small := seedDay(t, a, 8, 2)
		large := seedDay(t, a, 80, 2)
		a.signIn(a.client, small.admin.UserID)
		pages := []struct {
			name string
			path func(f dayFixture) string
		}{
			{"day", func(f dayFixture) string { return fmt.Sprintf("/events/%d/day", f.event.ID) }},
			{"reception", func(f dayFixture) string { return fmt.Sprintf("/events/%d/day/reception", f.event.ID) }},
			{"class", func(f dayFixture) string { return fmt.Sprintf("/day/classes/%d", f.class.ID) }},
			{"standings", func(f dayFixture) string { return fmt.Sprintf("/day/classes/%d/standings", f.class.ID) }},
			{"boards", func(f dayFixture) string { return fmt.Sprintf("/day/classes/%d/rounds/2/boards", f.class.ID) }},
			{"event boards", func(f dayFixture) string { return fmt.Sprintf("/events/%d/day/rounds/2/boards", f.event.ID) }},
		}
		for _, p := range pages {
			ns := statementsOf(t, a, a.store, p.path(small))
			nl := statementsOf(t, a, a.store, p.path(large))
			t.Logf("%-10s small %3d large %3d", p.name, ns, nl)
			if ns != nl {
				t.Errorf("%s: %d statements for 8 players, %d for 80", p.name, ns, nl)
			}
			if nl > 30 {
				t.Errorf("%s: %d statements, more than 30", p.name, nl)
			}
		}
	})
}

// Who sees what: the public reads the day, class and standings pages but
// is sent to sign in for the desk and the boards; a recorder gets the
// board page but not the reception (403) nor the draw (403).
func TestDayWeb_Roles(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := seedDay(t, a, 4, 1)
		ctx := context.Background()
		if err := a.srv.Office.SetEventStatus(ctx, f.admin, f.event.ID, office.StatusPublished); err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{fmt.Sprintf("/events/%d/day", f.event.ID), fmt.Sprintf("/day/classes/%d", f.class.ID), fmt.Sprintf("/day/classes/%d/standings", f.class.ID)} {
			if resp, body := a.get(p); resp.StatusCode != http.StatusOK || strings.Contains(body, `data-testid="day-draw"`) || strings.Contains(body, `data-testid="day-boards-link"`) {
				t.Fatalf("public %s: %d", p, resp.StatusCode)
			}
		}
		boards := fmt.Sprintf("/day/classes/%d/rounds/1/boards", f.class.ID)
		for _, p := range []string{fmt.Sprintf("/events/%d/day/reception", f.event.ID), boards} {
			if resp, _ := a.get(p); resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/login") {
				t.Fatalf("public %s: %d %s", p, resp.StatusCode, resp.Header.Get("Location"))
			}
		}
		u := a.addUser("kiroku", false)
		if err := a.srv.Office.GrantEventRole(ctx, f.admin, office.RoleGrant{EventID: f.event.ID, UserID: u.ID, Role: office.RoleRecorder}); err != nil {
			t.Fatal(err)
		}
		a.signIn(a.client, u.ID)
		if resp, body := a.get(boards); resp.StatusCode != http.StatusOK || !strings.Contains(body, `data-testid="day-sente_win"`) {
			t.Fatalf("recorder's board page: %d", resp.StatusCode)
		}
		if resp, _ := a.get(fmt.Sprintf("/events/%d/day/reception", f.event.ID)); resp.StatusCode != http.StatusForbidden {
			t.Fatalf("recorder's reception: %d", resp.StatusCode)
		}
		if resp, _ := a.postForm(fmt.Sprintf("/day/classes/%d/draw", f.class.ID), nil); resp.StatusCode != http.StatusForbidden {
			t.Fatalf("recorder draws: %d", resp.StatusCode)
		}
	})
}

// The event-wide board page lists round n of every class; a result
// entered from it returns to it.
func TestDayWeb_EventWideBoards(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := seedDay(t, a, 4, 1)
		ctx := context.Background()
		in := day.InputOf(f.event.ID, "B級", "", 1, day.FormatSwiss, day.DefaultSettings())
		in.FirstBoard = "21"
		b, err := f.d.CreateClass(ctx, f.admin, in)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 2; i++ {
			if _, err := f.d.WalkIn(ctx, f.admin, day.WalkInInput{EventID: f.event.ID, Name: fmt.Sprintf("B級%d", i), Reading: "びーきゅう", Rank: "3級", ClassID: b.ID}); err != nil {
				t.Fatal(err)
			}
		}
		p, err := f.d.PreviewRound(ctx, f.admin, b.ID, 9)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.d.ConfirmRound(ctx, f.admin, day.ConfirmInput{ClassID: b.ID, Round: 1, Seed: 9, Fingerprint: p.Fingerprint}); err != nil {
			t.Fatal(err)
		}
		a.signIn(a.client, f.admin.UserID)
		if resp, body := a.get(fmt.Sprintf("/events/%d/day", f.event.ID)); resp.StatusCode != http.StatusOK || !strings.Contains(body, fmt.Sprintf("/events/%d/day/rounds/1/boards", f.event.ID)) {
			t.Fatalf("day page has no link to round 1 of every class: %d", resp.StatusCode)
		}
		page := fmt.Sprintf("/events/%d/day/rounds/1/boards", f.event.ID)
		resp, body := a.get(page)
		anchorA := fmt.Sprintf(`data-testid="day-board-%d-1"`, f.class.ID)
		anchorB := fmt.Sprintf(`data-testid="day-board-%d-21"`, b.ID)
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, anchorA) || !strings.Contains(body, anchorB) {
			t.Fatalf("event-wide boards: %d\n%s", resp.StatusCode, body)
		}
		v, err := f.d.ClassView(ctx, f.admin, b.ID)
		if err != nil {
			t.Fatal(err)
		}
		bd := v.Rounds[0].Boards[0]
		form := url.Values{"game_id": {strconv.FormatInt(bd.Last.ID, 10)}, "version": {"0"}, "result": {"sente_win"}, "back": {"event"}}
		base := fmt.Sprintf("/day/classes/%d/rounds/1/boards/21", b.ID)
		if resp, body := a.postForm(base+"/preview", form); resp.StatusCode != http.StatusOK || !strings.Contains(body, `name="back" value="event"`) {
			t.Fatalf("preview from the event page: %d\n%s", resp.StatusCode, body)
		}
		resp, _ = a.postForm(base, form)
		if want := fmt.Sprintf("%s#board-%d-21", page, b.ID); resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != want {
			t.Fatalf("saved from the event page: %d to %q, want %q", resp.StatusCode, resp.Header.Get("Location"), want)
		}
	})
}
