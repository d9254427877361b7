package web

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"kisen/office"
)

// D-R3: a redo game whose redo result was corrected is shown void, on
// both its own page and the page of the game it replays.
func TestGamesWeb_D_R3_VoidRedoGameShown(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		g := newGameSetup(t, a, "{}")
		ctx := context.Background()
		o := a.srv.Office
		shuffle := "position startpos moves " + strings.Repeat("5i5h 5a5b 5h5i 5b5a ", 3)
		if _, _, err := o.SaveRecord(ctx, g.arbiter, g.game.ID, office.RecordInput{Text: shuffle}); err != nil {
			t.Fatal(err)
		}
		end, err := o.EndGame(ctx, g.arbiter, g.game.ID, office.EndInput{Kind: "sennichite", RemainingSente: "100", RemainingGote: "100"})
		if err != nil || end.Redo == nil {
			t.Fatalf("end: %v", err)
		}
		parent := "/games/" + strconv.FormatInt(g.game.ID, 10)
		redo := "/games/" + strconv.FormatInt(end.Redo.ID, 10)
		if d := doc(t, a.getBody(parent)); d.Find(`[data-testid="redo-link"]`).Length() != 1 || d.Find(`[data-testid="redo-void-link"]`).Length() != 0 {
			t.Fatal("a live redo game is linked normally")
		}
		if _, err := o.RecordResult(ctx, g.arbiter, g.game.ID, office.ResultInput{Result: office.ResultSenteWin, Reason: "resign", Version: 1}); err != nil {
			t.Fatal(err)
		}
		if d := doc(t, a.getBody(parent)); d.Find(`[data-testid="redo-void-link"]`).Length() != 1 || d.Find(`[data-testid="redo-link"]`).Length() != 0 {
			t.Fatal("the corrected game's redo game should be shown void")
		}
		if d := doc(t, a.getBody(redo)); d.Find(`[data-testid="game-void"]`).Length() != 1 {
			t.Fatal("the void redo game's page should say so")
		}
	})
}

// getBody fetches path and returns its body.
func (a *testApp) getBody(path string) string {
	a.t.Helper()
	_, body := a.get(path)
	return body
}
