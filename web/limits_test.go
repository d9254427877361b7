package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"kisen/office"
	"kisen/web/api"
)

// Issue 21 item 7 on the web and the API: a record beyond the longest game
// the rules allow and an over-long note are refused with 422 and a message
// in the reader's language naming the limit; nothing is written.
func TestLimits_WebAndAPIRefuseOverLongRecordAndNote(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		g := newGameSetup(t, a, "{}")
		a.signIn(a.client, g.arbiter.UserID)
		moves := []string{"5i5h", "5a5b", "5h5i", "5b5a"}
		var rec strings.Builder
		rec.WriteString("position startpos moves")
		for i := 0; i <= office.MaxRecordPlies; i++ {
			rec.WriteString(" " + moves[i%4])
		}
		path := "/games/" + strconv.FormatInt(g.game.ID, 10)
		resp, body := a.postForm(path+"/record", url.Values{"record": {rec.String()}})
		if resp.StatusCode != http.StatusUnprocessableEntity {
			t.Fatalf("record of %d moves: %d, want 422", office.MaxRecordPlies+1, resp.StatusCode)
		}
		msg := doc(t, body).Find(`[data-testid="error-record"]`).Text()
		if !strings.Contains(msg, fmt.Sprintf("%d手まで", office.MaxRecordPlies)) || !strings.Contains(msg, "500手") {
			t.Errorf("record message %q does not name the limit", msg)
		}
		if recs, _ := a.store.GameRecords(t.Context(), g.game.ID); len(recs) != 0 {
			t.Fatalf("a refused record was stored")
		}

		token := makeToken(t, a, g.admin, g.event.ID, "会場タブレット", office.ScopeResults)
		note := strings.Repeat("あ", office.MaxNoteLen+1)
		resp, out := apiPost(t, a, fmt.Sprintf("/games/%d/result", g.game.ID), token, `{"version":0,"kind":"resign","by":"gote","note":"`+note+`"}`)
		var e api.APIError
		_ = json.Unmarshal([]byte(out), &e)
		if resp.StatusCode != http.StatusUnprocessableEntity || len(e.Error.Fields) != 1 || e.Error.Fields[0].Field != "note" ||
			!strings.Contains(e.Error.Fields[0].Message, "備考は2000文字まで") {
			t.Fatalf("API note of %d characters: %d %+v, want 422 naming note and its limit", office.MaxNoteLen+1, resp.StatusCode, e)
		}
		if hist, _ := a.store.ResultHistory(t.Context(), g.game.ID); len(hist) != 0 {
			t.Fatalf("a refused note left %d versions", len(hist))
		}
	})
}
