package web

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"kisen/office"
)

// TestLeagueRedoRow_D_R1_ButtonActsOnShownGame (issue 11 part 3): after a
// 千日手 the league page's row shows the redo game — its colours, swapped
// in an even game (D-R1), marked 指し直し局 — and its 後手勝ち button gives
// the game to the redo game's gote, the player the row names as gote. The
// form the page showed before the redo is refused as stale.
func TestLeagueRedoRow_D_R1_ButtonActsOnShownGame(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f := newLeagueFixture(t, a, 6)
		a.signIn(a.client, f.sched.ID)
		classURL, cid := newPublishedAClass(t, a, f)
		sched := office.Actor{UserID: f.sched.ID, Login: f.sched.Login}
		st, err := a.srv.Office.Standings(ctx, sched, cid)
		if err != nil {
			t.Fatal(err)
		}
		g := st.Games[0]
		names := map[int64]string{}
		for _, p := range f.players {
			names[p.ID] = p.Name
		}
		row := `[data-testid="league-game-` + strconv.FormatInt(g.GameID, 10) + `"]`
		_, body := a.get(classURL)
		d := doc(t, body)
		if s := d.Find(row + ` [data-testid="league-game-sente"]`).Text(); s != names[g.Sente] {
			t.Fatalf("row sente %q, want %s", s, names[g.Sente])
		}
		if d.Find(row+` [data-testid="league-redo-mark"]`).Length() != 0 {
			t.Fatal("the scheduled game is marked as a redo game")
		}
		before := a.shown(classURL, row, nil)
		redoForm := cloneForm(before)
		redoForm.Set("result", office.ResultRedo)
		redoForm.Set("confirm", "1")
		if resp, body := a.postForm(classURL+"/result", redoForm); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("千日手: %d %s", resp.StatusCode, body)
		}
		redos, err := a.store.RedoGames(ctx, g.GameID)
		if err != nil || len(redos) != 1 {
			t.Fatalf("redo games: %d %v", len(redos), err)
		}
		redo := redos[0]
		if *redo.SentePlayerID != g.Gote || *redo.GotePlayerID != g.Sente {
			t.Fatalf("D-R1: the redo game of an even game swaps colours")
		}
		// The row now shows the redo game: swapped colours, marked.
		_, body = a.get(classURL)
		d = doc(t, body)
		if s, gt := d.Find(row+` [data-testid="league-game-sente"]`).Text(), d.Find(row+` [data-testid="league-game-gote"]`).Text(); s != names[g.Gote] || gt != names[g.Sente] {
			t.Fatalf("row shows %s v %s, want the redo game's %s v %s", s, gt, names[g.Gote], names[g.Sente])
		}
		if m := d.Find(row + ` [data-testid="league-redo-mark"]`).Text(); m != "指し直し局" {
			t.Fatalf("redo mark %q", m)
		}
		after := a.shown(classURL, row, nil)
		if after.Get("game") != strconv.FormatInt(redo.ID, 10) || after.Get("version") != "0" {
			t.Fatalf("the row's buttons post game %q version %q, want the redo game %d at 0", after.Get("game"), after.Get("version"), redo.ID)
		}
		// The page from before the 千日手 is stale: its button is refused.
		old := cloneForm(before)
		old.Set("result", office.ResultGoteWin)
		if resp, body := a.postForm(classURL+"/result", old); resp.StatusCode != http.StatusConflict || !strings.Contains(body, `data-testid="stale-title"`) {
			t.Fatalf("stale row form: %d", resp.StatusCode)
		}
		// 後手勝ち on the row: the redo game's gote (the scheduled sente) wins.
		_, body = a.get(classURL)
		postQuickForm(t, a, doc(t, body).Find(row+` [data-testid="league-gote-win"]`))
		eff, ok, err := a.store.EffectiveResult(ctx, redo.ID)
		if err != nil || !ok || eff.Result != office.ResultGoteWin {
			t.Fatalf("redo game result %+v %v %v", eff, ok, err)
		}
		st, err = a.srv.Office.Standings(ctx, sched, cid)
		if err != nil {
			t.Fatal(err)
		}
		if gv := st.Games[0]; !gv.Decided || gv.Winner != *redo.GotePlayerID || gv.Winner != g.Sente {
			t.Fatalf("winner %d, want the redo game's gote %d", gv.Winner, *redo.GotePlayerID)
		}
		_, body = a.get(classURL)
		if w := doc(t, body).Find(row + ` [data-testid="league-game-result"]`).Text(); !strings.Contains(w, names[*redo.GotePlayerID]) {
			t.Fatalf("row result %q, want %s", w, names[*redo.GotePlayerID])
		}
		if n := len(versionsOf(t, a, g.GameID)); n != 1 {
			t.Fatalf("the scheduled game has %d versions, want only its 千日手", n)
		}
	})
}
