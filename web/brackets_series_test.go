package web

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"kisen/office"
)

// TestBracketsSeries_D_F_BestOfThreeThroughHTTP plays a 三番勝負 (title
// match) through the web: the series stage is created by form, two entrants
// added, drawn and published; each game's result goes in through the stage
// page's quick result form, and the next game appears only once the one
// before is decided. After 2–1 the public page shows the score and the
// winner, no game is left to play, and a further result is refused.
func TestBracketsSeries_D_F_BestOfThreeThroughHTTP(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f := newBracketFixture(t, a)
		ev, err := f.o.CreateEvent(ctx, f.admin, office.EventInput{OrganiserID: f.event.OrganiserID, Name: "王将戦三番勝負",
			Kind: office.EventTitleMatch, StartDate: "2027-01-08", EndDate: "2027-02-28"})
		if err != nil {
			t.Fatal(err)
		}
		evPath := "/events/" + strconv.FormatInt(ev.ID, 10)
		resp, body := a.postForm(evPath+"/stages", url.Values{"name": {"三番勝負"}, "kind": {office.StageSeries}, "best_of": {"3"},
			"round_dates": {"2027-01-10 2027-01-24 2027-02-07"}})
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("create series stage: %d %s", resp.StatusCode, body)
		}
		path := resp.Header.Get("Location")
		sid := stageIDOf(t, path)
		holder, challenger := f.players[2], f.players[3]
		for _, p := range []int64{holder.ID, challenger.ID} {
			if resp, body := a.postForm(path+"/entrants", url.Values{"player_id": {strconv.FormatInt(p, 10)}}); resp.StatusCode != http.StatusSeeOther {
				t.Fatalf("add entrant %d: %d %s", p, resp.StatusCode, body)
			}
		}
		if resp, body := a.postForm(path+"/draw", url.Values{"seed": {"27"}, "draw_date": {"2026-12-20"}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("draw: %d %s", resp.StatusCode, body)
		}
		if resp, body := a.postForm(path+"/publish", url.Values{"confirm": {"1"}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("publish: %d %s", resp.StatusCode, body)
		}

		// Winners game by game; the holder takes games 1 and 3.
		winners := []int64{holder.ID, challenger.ID, holder.ID}
		for n, w := range winners {
			game := "S" + strconv.Itoa(n+1)
			_, body := a.get(path)
			d := doc(t, body)
			// Exactly the games played so far plus this one exist.
			if next := "S" + strconv.Itoa(n+2); d.Find(`[data-testid="winner-`+next+`"]`).Length() != 0 {
				t.Fatalf("game %s is offered before %s is decided", next, game)
			}
			sel := d.Find(`select[data-testid="winner-` + game + `"]`)
			if sel.Length() != 1 {
				t.Fatalf("no quick result form for %s", game)
			}
			form := sel.Closest("form")
			if action, _ := form.Attr("action"); action != path+"/result" {
				t.Fatalf("%s: the quick form posts to %q", game, action)
			}
			wid := strconv.FormatInt(w, 10)
			if sel.Find(`option[value="`+wid+`"]`).Length() != 1 {
				t.Fatalf("%s: the winner %d is not among the choices", game, w)
			}
			in := url.Values{}
			form.Find(`input[type="hidden"]`).Each(func(_ int, s *goquery.Selection) {
				name, _ := s.Attr("name")
				val, _ := s.Attr("value")
				if name != "_csrf" {
					in.Set(name, val)
				}
			})
			in.Set("winner", wid)
			in.Set("reason", "resignation")
			in.Set("confirm", "1")
			if resp, body := a.postForm(path+"/result", in); resp.StatusCode != http.StatusSeeOther {
				t.Fatalf("%s result: %d %s", game, resp.StatusCode, body)
			}
		}

		// The store agrees: three games, each won by the intended player.
		kgs, err := a.store.KnockoutGamesOfStage(ctx, sid)
		if err != nil {
			t.Fatal(err)
		}
		if len(kgs) != len(winners) {
			t.Fatalf("%d series games exist after 2–1, want %d", len(kgs), len(winners))
		}
		for n, kg := range kgs {
			g, _ := a.store.GameByID(ctx, kg.GameID)
			eff, ok, _ := a.store.EffectiveResult(ctx, g.ID)
			won := *g.SentePlayerID
			if eff.Result == office.ResultGoteWin {
				won = *g.GotePlayerID
			}
			if !ok || won != winners[n] {
				t.Fatalf("game %d: result %+v, winner %d, want %d", n+1, eff, won, winners[n])
			}
		}

		// The public page: score 2–1 beside the right names, the winner named.
		public := a.newClient()
		resp, body = a.do(public, http.MethodGet, evPath+"/brackets", nil, "")
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("public brackets page: %d", resp.StatusCode)
		}
		d := doc(t, body)
		score := strings.Join(strings.Fields(d.Find(`[data-testid="series-score-`+strconv.FormatInt(sid, 10)+`"]`).Text()), " ")
		holderFirst := holder.Name + " 2 – 1 " + challenger.Name
		challengerFirst := challenger.Name + " 1 – 2 " + holder.Name
		if !strings.HasPrefix(score, holderFirst) && !strings.HasPrefix(score, challengerFirst) {
			t.Fatalf("series score %q, want %q or %q", score, holderFirst, challengerFirst)
		}
		champ := d.Find(`[data-testid="champion-` + strconv.FormatInt(sid, 10) + `"]`).Text()
		if !strings.Contains(champ, holder.Name) || strings.Contains(champ, challenger.Name) {
			t.Fatalf("winner shown as %q, want %s", champ, holder.Name)
		}
		if d.Find(`select[name="winner"]`).Length() != 0 {
			t.Fatal("the public sees a result form")
		}
		// Staff see no form left either.
		_, body = a.get(path)
		if n := doc(t, body).Find(`select[name="winner"]`).Length(); n != 0 {
			t.Fatalf("%d result forms remain after the series is decided", n)
		}

		// A further result (a stale form for the last game) is refused with
		// a message, and nothing is stored.
		before, _ := a.store.ResultHistory(ctx, kgs[2].GameID)
		resp, body = a.postForm(path+"/result", url.Values{"confirm": {"1"}, "game": {kgs[2].BracketGame}, "game_id": {strconv.FormatInt(kgs[2].GameID, 10)},
			"version": {"0"}, "winner": {strconv.FormatInt(challenger.ID, 10)}, "reason": {"resignation"}})
		if resp.StatusCode != http.StatusConflict || testid(t, body, "stale-title") == "" {
			t.Fatalf("result after the series is decided: %d %q", resp.StatusCode, testid(t, body, "stale-title"))
		}
		if after, _ := a.store.ResultHistory(ctx, kgs[2].GameID); len(after) != len(before) {
			t.Fatalf("a refused result was stored: %d versions, was %d", len(after), len(before))
		}
		// A game beyond the decided series does not exist.
		resp, _ = a.postForm(path+"/result", url.Values{"confirm": {"1"}, "game": {"S4"}, "game_id": {"0"}, "version": {"0"}, "winner": {strconv.FormatInt(challenger.ID, 10)}, "reason": {"resignation"}})
		if resp.StatusCode != http.StatusNotFound {
			t.Fatalf("result for a fourth game: %d, want 404", resp.StatusCode)
		}
	})
}
