package web

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"kisen/office"
)

// clockRecord: 10 minutes each, chess clock, 60 s byoyomi (the federation
// default). Sente uses 6:00 then 4:30 — 30 s into byoyomi at ply 3 (D-T2,
// D-T3); gote uses 5:00 and 1:00; sente's 1:00 in byoyomi at ply 5 reaches
// the limit and loses on time (001 第5条1).
const clockRecord = `手合割：平手
手数----指手---------消費時間--
   1 ７六歩(77)   ( 6:00/00:06:00)
   2 ３四歩(33)   ( 5:00/00:05:00)
   3 ２六歩(27)   ( 4:30/00:10:30)
   4 ８四歩(83)   ( 1:00/00:06:00)
   5 ２五歩(26)   ( 1:00/00:11:30)
`

func TestGamesWeb_D_T3_ClockAtPlyFromRecordTimes(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		g := newGameSetup(t, a, "{}")
		ctx := context.Background()
		o := a.srv.Office
		gm, err := o.CreateGame(ctx, g.admin, office.GameInput{EventID: g.event.ID, Label: "2回戦", SenteID: &g.sente.ID, GoteID: &g.gote.ID, AllowanceMinutes: 10})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := o.SaveRecord(ctx, g.admin, gm.ID, office.RecordInput{Text: clockRecord, Format: "kif"}); err != nil {
			t.Fatal(err)
		}
		path := "/games/" + strconv.FormatInt(gm.ID, 10)
		for _, tc := range []struct {
			ply               int
			sente, gote       string
			byoSente, byoGote bool
			forfeit           bool
		}{
			{0, "10分00秒", "10分00秒", false, false, false},
			{2, "4分00秒", "5分00秒", false, false, false},
			{3, "0分00秒", "5分00秒", true, false, false},
			{4, "0分00秒", "4分00秒", true, false, false},
			{5, "0分00秒", "4分00秒", true, false, true},
		} {
			resp, body := a.get(path + "?ply=" + strconv.Itoa(tc.ply))
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("ply %d: status %d", tc.ply, resp.StatusCode)
			}
			d := doc(t, body)
			s, gt := d.Find(`[data-testid="clock-sente"]`).Text(), d.Find(`[data-testid="clock-gote"]`).Text()
			if !strings.Contains(s, tc.sente) || !strings.Contains(gt, tc.gote) ||
				(d.Find(`[data-testid="byoyomi-sente"]`).Length() == 1) != tc.byoSente ||
				(d.Find(`[data-testid="byoyomi-gote"]`).Length() == 1) != tc.byoGote ||
				(d.Find(`[data-testid="clock-forfeit"]`).Length() == 1) != tc.forfeit {
				t.Errorf("ply %d: clocks %q / %q, byoyomi %d/%d, forfeit %d", tc.ply, s, gt,
					d.Find(`[data-testid="byoyomi-sente"]`).Length(), d.Find(`[data-testid="byoyomi-gote"]`).Length(), d.Find(`[data-testid="clock-forfeit"]`).Length())
			}
		}
		// htmx swaps only the board: the clock moves with it.
		req, _ := http.NewRequest(http.MethodGet, a.ts.URL+path+"?ply=3", nil)
		req.Header.Set("HX-Request", "true")
		req.Header.Set("HX-Target", "board")
		_, body := a.send(a.client, req)
		if d := doc(t, body); d.Find(`[data-testid="byoyomi-sente"]`).Length() != 1 || strings.Contains(body, "<html") {
			t.Fatalf("board fragment without the clock: %s", body)
		}
		// An arbiter gives sente five minutes back: out of byoyomi.
		if _, _, err := o.AddRuling(ctx, g.arbiter, gm.ID, office.RulingInput{Kind: "time_adjust", Player: "sente", DeltaMinutes: "5", Reason: "時計の故障"}); err != nil {
			t.Fatal(err)
		}
		_, body = a.get(path + "?ply=3&lang=en")
		d := doc(t, body)
		if s := d.Find(`[data-testid="clock-sente"]`).Text(); !strings.Contains(s, "5:00") || d.Find(`[data-testid="byoyomi-sente"]`).Length() != 0 || d.Find(`[data-testid="clock-adjusted"]`).Length() != 1 {
			t.Fatalf("after +5 min: sente %q", s)
		}
	})
}
