package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"kisen/office/day"
	"kisen/web/site"
)

// Issue 23 §3 over HTTP: a board whose sente a 振り駒 decides shows the
// pair without 先手/後手 and one button per player by name until a toss is
// recorded at the board; then the seats. A winner who is not one of the
// board's players (another board's) is a 422 naming the field, and a
// winner that is not a number too; nothing is written. The slips follow:
// both names without seats and a place to circle sente while the toss is
// pending, the seats once it is recorded.
func TestDayWeb_SeatsFollowTheToss(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := seedDay(t, a, 4, 1)
		a.signIn(a.client, f.admin.UserID)
		ctx := context.Background()
		v, err := f.d.ClassView(ctx, f.admin, f.class.ID)
		if err != nil {
			t.Fatal(err)
		}
		b1, b2 := v.Rounds[0].Boards[0], v.Rounds[0].Boards[1]
		base := fmt.Sprintf("/day/classes/%d/rounds/1/boards", f.class.ID)
		card := func(body string, board int) string { // board 0: the event-wide page's card of board 1
			id := fmt.Sprintf(`data-testid="day-board-%d"`, board)
			if board == 0 {
				id = fmt.Sprintf(`data-testid="day-board-%d-%d"`, f.class.ID, b1.Board)
			}
			i := strings.Index(body, id)
			if i < 0 {
				t.Fatalf("no card for board %d", board)
			}
			rest := body[i:]
			if j := strings.Index(rest[1:], `class="day-board-row"`); j > 0 {
				rest = rest[:j]
			}
			return rest
		}
		_, body := a.get(base)
		c1 := card(body, b1.Board)
		for _, want := range []string{`data-testid="day-board-pair"`, v.Names[b1.Sente] + " 対 " + v.Names[b1.Gote], `data-testid="day-seats-pending"`,
			">" + v.Names[b1.Sente] + "の勝ち<", ">" + v.Names[b1.Gote] + "の勝ち<", `name="winner" value="` + strconv.FormatInt(b1.Gote, 10) + `"`} {
			if !strings.Contains(c1, want) {
				t.Errorf("pending board: missing %q in\n%s", want, c1)
			}
		}
		for _, not := range []string{"先手", "後手", `name="result"`} {
			if strings.Contains(c1, not) {
				t.Errorf("pending board shows %q:\n%s", not, c1)
			}
		}
		// Wrong winners: 422 on the field, nothing written.
		for _, w := range []string{strconv.FormatInt(b2.Sente, 10), "x"} {
			form := url.Values{"game_id": {strconv.FormatInt(b1.Last.ID, 10)}, "version": {"0"}, "winner": {w}}
			for _, path := range []string{fmt.Sprintf("%s/%d/preview", base, b1.Board), fmt.Sprintf("%s/%d", base, b1.Board)} {
				resp, body := a.postForm(path, form)
				if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "勝者はこの盤の二人から選んでください。") {
					t.Errorf("winner %s at %s: %d\n%s", w, path, resp.StatusCode, body)
				}
			}
		}
		if _, has, _ := a.store.LatestResult(ctx, b1.Last.ID); has {
			t.Fatal("a refused winner wrote a result")
		}
		// Slips: pending, no seats printed.
		_, slips := a.get(fmt.Sprintf("/day/classes/%d/rounds/1/slips/print", f.class.ID))
		if strings.Contains(slips, "先手署名") || !strings.Contains(slips, `data-testid="paper-slip-toss"`) || !strings.Contains(slips, "対局者署名") {
			t.Errorf("pending slips print seats or miss the toss line:\n%s", slips)
		}
		// 000 第7条1: the slip names the 上座 player, who tosses (D-Z2).
		if want := "上座の" + v.Names[b1.Joza()] + "さんが振る"; !strings.Contains(slips, want) {
			t.Errorf("pending slips do not name the tosser %q", want)
		}
		// The toss at board 1: the tosser (the draw's sente) gets 5 歩: sente.
		if _, err := f.d.EnterBoardToss(ctx, f.admin, day.BoardTossInput{ClassID: f.class.ID, Round: 1, Board: b1.Board, GameID: b1.Last.ID, Tosser: b1.Sente, Fu: 5}); err != nil {
			t.Fatal(err)
		}
		_, body = a.get(base)
		c1 = card(body, b1.Board)
		for _, want := range []string{`data-testid="day-board-sente"`, "先手 " + v.Names[b1.Sente], "後手 " + v.Names[b1.Gote], ">先手 " + v.Names[b1.Sente] + "の勝ち<"} {
			if !strings.Contains(c1, want) {
				t.Errorf("after the toss: missing %q in\n%s", want, c1)
			}
		}
		if strings.Contains(c1, `data-testid="day-seats-pending"`) {
			t.Errorf("after the toss the board still waits for it:\n%s", c1)
		}
		// The event-wide board page follows the recorded toss too.
		_, ev := a.get(fmt.Sprintf("/events/%d/day/rounds/1/boards", f.event.ID))
		if c := card(ev, 0); !strings.Contains(c, "先手 "+v.Names[b1.Sente]) || strings.Contains(c, `data-testid="day-toss"`) {
			t.Errorf("event-wide board page after the toss:\n%s", c)
		}
		// The director's view of the boards still playing follows too.
		_, dir := a.get(fmt.Sprintf("/events/%d/day/director", f.event.ID))
		if !strings.Contains(dir, `data-testid="director-pair-pending">`+v.Names[b2.Sente]+" 対 "+v.Names[b2.Gote]+"<") ||
			!strings.Contains(dir, v.Names[b1.Sente]+"（先手）対 "+v.Names[b1.Gote]+"（後手）") {
			t.Errorf("director's view: board 2 pending, board 1 seated expected:\n%s", dir)
		}
		// The players' report page (QR): board 2 still pending, board 1 seated.
		if err := f.d.SetPaper(ctx, f.admin, day.PaperInput{ClassID: f.class.ID, QR: true, WaitMinutes: "10"}); err != nil {
			t.Fatal(err)
		}
		toks, err := f.d.IssueSlipLinks(ctx, f.admin, f.class.ID, 1)
		if err != nil {
			t.Fatal(err)
		}
		if _, rp := a.get("/r/" + toks[b2.Root.ID].Sente); !strings.Contains(rp, `data-testid="report-pair-pending">`+v.Names[b2.Sente]+" 対 "+v.Names[b2.Gote]+"<") {
			t.Errorf("report page of a pending board:\n%s", rp)
		}
		if _, rp := a.get("/r/" + toks[b1.Root.ID].Gote); !strings.Contains(rp, v.Names[b1.Sente]+"（先手）対 "+v.Names[b1.Gote]+"（後手）") {
			t.Errorf("report page after the toss:\n%s", rp)
		}
		_, slips = a.get(fmt.Sprintf("/day/classes/%d/rounds/1/slips/print", f.class.ID))
		if !strings.Contains(slips, "先手署名") {
			t.Errorf("slips after a toss: no seats printed")
		}
		// The right winner, by name: stored as that player's seat.
		form := url.Values{"game_id": {strconv.FormatInt(b1.Last.ID, 10)}, "version": {"0"}, "winner": {strconv.FormatInt(b1.Gote, 10)}}
		if resp, body := a.postForm(fmt.Sprintf("%s/%d", base, b1.Board), form); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("winner: %d\n%s", resp.StatusCode, body)
		}
		rv, ok, err := a.store.EffectiveResult(ctx, b1.Last.ID)
		if err != nil || !ok || rv.Result != "gote_win" {
			t.Fatalf("stored %+v %v %v", rv, ok, err)
		}
		// English: the pair and the buttons in English words.
		u, _ := url.Parse(a.ts.URL)
		a.client.Jar.SetCookies(u, []*http.Cookie{{Name: "lang", Value: "en", Path: "/"}})
		_, body = a.get(base)
		c2 := card(body, b2.Board)
		if !strings.Contains(c2, v.Names[b2.Sente]+" v "+v.Names[b2.Gote]) || !strings.Contains(c2, ">"+v.Names[b2.Gote]+" won<") {
			t.Errorf("English pending board:\n%s", c2)
		}
	})
}

// Issue 23: the fee summary's day lines are labelled — 本日（全クラス）
// beside the day's 一般 and 割引, 本日の合計 on the day's total — in both
// languages.
func TestDayWeb_FeeDayTotalsLabelled(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := seedDay(t, a, 4, 0)
		a.signIn(a.client, f.admin.UserID)
		for lang, want := range map[string][2]string{"ja": {"本日（全クラス）", "本日の合計"}, "en": {"Today (all classes)", ""}} {
			u, _ := url.Parse(a.ts.URL)
			a.client.Jar.SetCookies(u, []*http.Cookie{{Name: "lang", Value: lang, Path: "/"}})
			_, body := a.get(fmt.Sprintf("/events/%d/day/reception", f.event.ID))
			if n := strings.Count(body, `data-testid="day-fee-day-label">`+want[0]+`<`); n != 2 {
				t.Errorf("%s: %d day category lines labelled %q, want 2", lang, n, want[0])
			}
			if want[1] != "" && strings.Count(body, `data-testid="day-fee-day-label">`+want[1]+`<`) != 1 {
				t.Errorf("%s: the day's total line is not labelled %q", lang, want[1])
			}
			if strings.Contains(body, `data-testid="day-fee-day-label"></td>`) {
				t.Errorf("%s: a day line without a label", lang)
			}
		}
	})
}

// TestDayWeb_D_Z2_SeatOverrideMovesTheTosser (000 第7条第1項: the 上座
// player's 歩 are tossed; D-Z2; docs/seating.md): the organiser's override
// of a day board's 上座 (POST /games/:id/seat with a reason) moves the
// tosser everywhere the day names one — the class board page's and the
// event-wide board page's toss forms offer the new 上座 first, the slips
// say the new 上座 tosses, as the game page does — and the other board
// keeps its 上座.
func TestDayWeb_D_Z2_SeatOverrideMovesTheTosser(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := seedDay(t, a, 4, 1)
		a.signIn(a.client, f.admin.UserID)
		ctx := context.Background()
		v, err := f.d.ClassView(ctx, f.admin, f.class.ID)
		if err != nil {
			t.Fatal(err)
		}
		b1, b2 := v.Rounds[0].Boards[0], v.Rounds[0].Boards[1]
		if !b1.SeatsPending() || !b2.SeatsPending() {
			t.Fatal("the boards' sente should wait for the toss")
		}
		was := b1.Joza()
		moved := b1.Sente + b1.Gote - was
		boards := fmt.Sprintf("/day/classes/%d/rounds/1/boards", f.class.ID)
		eventBoards := fmt.Sprintf("/events/%d/day/rounds/1/boards", f.event.ID)
		slipsURL := fmt.Sprintf("/day/classes/%d/rounds/1/slips/print", f.class.ID)
		// firstTosser is the first choice of a board's toss form: the 上座.
		firstTosser := func(path, card string) (string, string) {
			t.Helper()
			_, body := a.get(path)
			o := doc(t, body).Find(`[data-testid="` + card + `"] [data-testid="day-toss-tosser"] option`).First()
			if o.Length() == 0 {
				t.Fatalf("%s: no toss form on %s", path, card)
			}
			return o.AttrOr("value", ""), o.Text()
		}
		check := func(when string, joza1 int64) {
			t.Helper()
			id, text := firstTosser(boards, fmt.Sprintf("day-board-%d", b1.Board))
			if id != strconv.FormatInt(joza1, 10) || text != "上座の"+v.Names[joza1] {
				t.Errorf("%s: the board page's toss form offers %s %q first, want %s", when, id, text, v.Names[joza1])
			}
			id, _ = firstTosser(eventBoards, fmt.Sprintf("day-board-%d-%d", f.class.ID, b1.Board))
			if id != strconv.FormatInt(joza1, 10) {
				t.Errorf("%s: the event-wide board page offers %s first, want %s", when, id, v.Names[joza1])
			}
			if id, _ := firstTosser(boards, fmt.Sprintf("day-board-%d", b2.Board)); id != strconv.FormatInt(b2.Joza(), 10) {
				t.Errorf("%s: board %d's 上座 changed to %s", when, b2.Board, id)
			}
			_, slips := a.get(slipsURL)
			if want := "上座の" + v.Names[joza1] + "さんが振る"; !strings.Contains(slips, want) {
				t.Errorf("%s: the slips do not say %q", when, want)
			}
			if other := b1.Sente + b1.Gote - joza1; strings.Contains(slips, "上座の"+v.Names[other]+"さんが振る") {
				t.Errorf("%s: the slips still name %s as the tosser", when, v.Names[other])
			}
			_, game := a.get(site.GameURL(b1.Root.ID))
			if got := testid(t, game, "game-joza"); !strings.HasPrefix(got, "上座: "+v.Names[joza1]) {
				t.Errorf("%s: the game page says %q", when, got)
			}
		}
		check("before", was)
		seat := url.Values{"joza": {strconv.FormatInt(moved, 10)}, "reason": {"車椅子の席に合わせて"}}
		if resp, body := a.postForm(site.GameURL(b1.Root.ID)+"/seat", seat); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("override: %d\n%s", resp.StatusCode, body)
		}
		check("after the override", moved)
	})
}
