package web

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"kisen/pairing"
	"kisen/store"
	"kisen/web/site"
)

// TestSeatingWeb_D_Z1_JozaTossAndOverride (000 第7条1, 001 第3条: the 上座
// player's 歩 are tossed; D-Z1): the game page names the 上座 and why; the
// bracket's toss form defaults to the 上座 and records who actually tossed;
// the organiser's override needs a reason (422 next to the field) and, once
// saved, the page shows it.
func TestSeatingWeb_D_Z1_JozaTossAndOverride(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f := newBracketFixture(t, a)
		names := map[string]string{}
		ranks := []string{"四段", "九段", "五段", "八段", "六段", "七段", "四段", "五段"}
		for i, p := range f.players {
			names[strconv.FormatInt(p.ID, 10)] = p.Name
			if err := a.store.DB(ctx).Model(&store.Player{}).Where("id = ?", p.ID).Update("rank", ranks[i]).Error; err != nil {
				t.Fatal(err)
			}
		}
		path := f.newStage(t, "本戦")
		sid := stageIDOf(t, path)
		for _, p := range f.players {
			if resp, _ := a.postForm(path+"/entrants", url.Values{"player_id": {strconv.FormatInt(p.ID, 10)}}); resp.StatusCode != http.StatusSeeOther {
				t.Fatalf("add entrant: %d", resp.StatusCode)
			}
		}
		if resp, _ := a.postForm(path+"/draw", url.Values{"seed": {"5"}, "draw_date": {"2026-11-21"}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("draw: %d", resp.StatusCode)
		}
		if resp, _ := a.postForm(path+"/publish", url.Values{"confirm": {"1"}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("publish: %d", resp.StatusCode)
		}
		kgs, _ := a.store.KnockoutGamesOfStage(ctx, sid)
		var tossed []pairing.Furigoma
		for _, kg := range kgs {
			var sim pairing.Furigoma
			if err := json.Unmarshal([]byte(kg.Furigoma), &sim); err != nil {
				t.Fatal(err)
			}
			tossed = append(tossed, sim)
		}

		// Every game page names the 上座 — the higher 段, or between equal
		// 段 the draw's order — as the player who tossed, and why, in words.
		byRank := 0
		for i, kg := range kgs {
			_, body := a.get(site.GameURL(kg.GameID))
			got := testid(t, body, "game-joza")
			if !strings.HasPrefix(got, "上座: "+names[tossed[i].Tosser]+"（") || strings.Contains(got, "rank") || strings.Contains(got, "organiser") {
				t.Fatalf("game %s page 上座 %q, the toss's tosser %s", kg.BracketGame, got, names[tossed[i].Tosser])
			}
			if strings.Contains(got, "段位") {
				byRank++
			}
		}
		if byRank == 0 {
			t.Fatal("no game decided by 段位")
		}
		game := site.GameURL(kgs[0].GameID)

		// The toss form offers the 上座 first; the other player tossed here.
		_, body := a.get(path)
		if got := testid(t, body, "toss-tosser-"+kgs[1].BracketGame); !strings.HasPrefix(got, "上座の"+names[tossed[1].Tosser]) {
			t.Fatalf("toss form's tosser choices %q, want the 上座 %s first", got, names[tossed[1].Tosser])
		}
		toss := url.Values{"game": {kgs[1].BracketGame}, "tosser": {tossed[1].Other}, "piece_1": {"fu"}, "piece_2": {"fu"}, "piece_3": {"fu"}, "piece_4": {"to"}, "piece_5": {"to"}}
		if resp, _ := a.postForm(path+"/toss", toss); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("toss: %d", resp.StatusCode)
		}
		_, body = a.get(path)
		if got := testid(t, body, "observed-tosser-"+kgs[1].BracketGame); !strings.Contains(got, names[tossed[1].Other]) {
			t.Fatalf("observed toss names %q, want %s", got, names[tossed[1].Other])
		}
		if g, _ := a.store.GameByID(ctx, kgs[1].GameID); strconv.FormatInt(*g.SentePlayerID, 10) != tossed[1].Other {
			t.Fatal("歩 majority did not make the player who tossed sente")
		}
		toss.Set("game", kgs[2].BracketGame)
		toss.Set("tosser", "abc")
		if resp, body := a.postForm(path+"/toss", toss); resp.StatusCode != http.StatusUnprocessableEntity || testid(t, body, "error-tosser") == "" {
			t.Fatalf("a bad tosser: %d", resp.StatusCode)
		}

		// The override: a reason is required, then the page shows it.
		seat := url.Values{"joza": {tossed[0].Other}, "reason": {" "}}
		resp, body := a.postForm(game+"/seat", seat)
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(testid(t, body, "error-reason"), "理由") {
			t.Fatalf("override without a reason: %d %q", resp.StatusCode, testid(t, body, "error-reason"))
		}
		seat.Set("reason", "主催者の判断で年長者を上座に")
		if resp, _ := a.postForm(game+"/seat", seat); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("override: %d", resp.StatusCode)
		}
		_, body = a.get(game)
		if got := testid(t, body, "game-joza"); !strings.Contains(got, names[tossed[0].Other]) || !strings.Contains(got, "主催者の判断で年長者を上座に") {
			t.Fatalf("game page after the override: %q", got)
		}
		if resp, _ := a.do(a.newClient(), http.MethodPost, game+"/seat", strings.NewReader(seat.Encode()), "application/x-www-form-urlencoded"); resp.StatusCode == http.StatusSeeOther {
			t.Fatal("the public overrode the 上座")
		}
	})
}

// TestSeatingWeb_PlayerFormSeatFacts: the player form edits the 席次 facts
// (titles, promotion day, professional day) — a bad date is named next to
// its field in the reader's language — and the edit page shows them again.
func TestSeatingWeb_PlayerFormSeatFacts(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := newBracketFixture(t, a)
		p := f.players[0]
		path := site.PlayerURL(p.ID)
		form := url.Values{"name": {p.Name}, "reading": {p.Reading}, "kind": {"professional"}, "rank": {"九段"},
			"titles": {"竜王、名人"}, "rank_since": {"2019-04-01"}, "pro_since": {"2003-02-30"}}
		resp, body := a.postForm(path, form)
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(testid(t, body, "error-pro_since"), "2026-04-01") {
			t.Fatalf("a bad date: %d %q", resp.StatusCode, testid(t, body, "error-pro_since"))
		}
		form.Set("pro_since", "2003-10-01")
		if resp, _ := a.postForm(path, form); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("save: %d", resp.StatusCode)
		}
		_, body = a.get(path + "/edit")
		d := doc(t, body)
		for field, want := range map[string]string{"titles": "竜王,名人", "rank_since": "2019-04-01", "pro_since": "2003-10-01"} {
			if got, _ := d.Find(`[data-testid="field-` + field + `"]`).Attr("value"); got != want {
				t.Errorf("edit page %s = %q, want %q", field, got, want)
			}
		}
	})
}
