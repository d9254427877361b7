package web

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"kisen/office"
	"kisen/web/site"
)

// startHrefs lists the game pages linked from one list of the start page.
func startHrefs(d *goquery.Document, testid string) []string {
	var out []string
	d.Find(`[data-testid="` + testid + `"] a`).Each(func(_ int, s *goquery.Selection) {
		out = append(out, s.AttrOr("href", ""))
	})
	slices.Sort(out)
	return out
}

// TestStart_D_X5_D_K1_WaitingForARulingAndAResultTakenBack: a game whose
// newest result is pending for the arbiter — a disputed foul (D-X5), a
// foul loss superseded on appeal (D-K1) — waits for a ruling on the
// arbiter's start page, not for a result; a ruling settles it and it
// leaves the list. A result taken back (取り消す, pending "undo") waits
// for a result again. Both languages; only the event's director and
// arbiter see the list.
func TestStart_D_X5_D_K1_WaitingForARulingAndAResultTakenBack(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		o := a.srv.Office
		g := newGameSetup(t, a, "{}")
		must := func(err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
		}
		newGame := func(label string) int64 {
			gm, err := o.CreateGame(ctx, g.admin, office.GameInput{EventID: g.event.ID, Label: label, SenteID: &g.sente.ID, GoteID: &g.gote.ID, AllowanceMinutes: 180})
			must(err)
			return gm.ID
		}
		disputed, superseded, undone, fresh := g.game.ID, newGame("2回戦"), newGame("3回戦"), newGame("4回戦")

		// Disputed: gote resigned, then sente's two moves in a row are
		// claimed and sente denies it.
		_, err := o.EndGame(ctx, g.arbiter, disputed, office.EndInput{Kind: "resign", By: "gote"})
		must(err)
		_, err = o.ClaimFoul(ctx, g.arbiter, disputed, office.FoulClaimInput{Kind: "two_moves", Offender: "sente", Found: "after",
			ClaimedBy: "opponent", Disputed: true, Version: 1})
		must(err)
		// Superseded: a foul loss ended the game; the appeal took it back.
		r, _, err := o.AddRuling(ctx, g.arbiter, superseded, office.RulingInput{Kind: "foul_loss", Player: "sente", Reason: "二歩"})
		must(err)
		_, _, err = o.AddRuling(ctx, g.arbiter, superseded, office.RulingInput{Kind: "other", Reason: "不服申立てを認める", Supersedes: r.ID, Version: 1})
		must(err)
		// Undone: the game's only result taken back.
		_, err = o.RecordResult(ctx, g.admin, undone, office.ResultInput{Result: office.ResultSenteWin, Reason: office.ReasonResignation})
		must(err)
		_, err = o.UndoResult(ctx, g.admin, undone, office.UndoInput{Version: 1, Reason: "入力の誤り"})
		must(err)
		for id, want := range map[int64]string{disputed: "disputed_foul", superseded: "foul_loss_superseded", undone: "undo"} {
			h := versionsOf(t, a, id)
			if last := h[len(h)-1]; last.Result != office.ResultPending || last.Reason != want {
				t.Fatalf("game %d: newest version %s/%s, want pending/%s", id, last.Result, last.Reason, want)
			}
		}

		a.signIn(a.client, g.arbiter.UserID)
		d := doc(t, startBody(t, a))
		if got, want := startHrefs(d, "start-waiting-ruling"), []string{site.GameURL(disputed), site.GameURL(superseded)}; !slices.Equal(got, want) {
			t.Fatalf("waiting for a ruling: %v, want %v", got, want)
		}
		if got, want := startHrefs(d, "start-waiting-result"), []string{site.GameURL(undone), site.GameURL(fresh)}; !slices.Equal(got, want) {
			t.Fatalf("waiting for a result: %v, want %v (a game waiting for the arbiter is not waiting for a result)", got, want)
		}
		rulings := d.Find(`[data-testid="start-rulings"]`).Text()
		for _, w := range []string{"裁定待ち", g.sente.Name + " 対 " + g.gote.Name, "言い分が分かれています", "反則負けの裁定が変更され"} {
			if !strings.Contains(rulings, w) {
				t.Errorf("waiting for a ruling: %q lacks %q", rulings, w)
			}
		}

		a.get("/lang?to=en&back=/start")
		d = doc(t, startBody(t, a))
		if got := d.Find(`[data-testid="start-rulings"]`).Text(); !strings.Contains(got, "Waiting for a ruling") || !strings.Contains(got, "disagree whether a foul happened") {
			t.Errorf("English: %q", got)
		}
		a.get("/lang?to=ja&back=/start")

		// The arbiter rules: sente's foul loss settles the dispute.
		_, ended, err := o.AddRuling(ctx, g.arbiter, disputed, office.RulingInput{Kind: "foul_loss", Player: "sente", Reason: "記録係の証言", Version: 2})
		must(err)
		if ended == nil || ended.Result.Result != office.ResultGoteWin {
			t.Fatalf("the ruling did not settle the game: %+v", ended)
		}
		d = doc(t, startBody(t, a))
		if got, want := startHrefs(d, "start-waiting-ruling"), []string{site.GameURL(superseded)}; !slices.Equal(got, want) {
			t.Fatalf("after the ruling: %v, want %v", got, want)
		}

		// Someone who only records games has nothing to rule on.
		rec := a.addUser("kiroku", false)
		must(o.GrantEventRole(ctx, g.admin, office.RoleGrant{EventID: g.event.ID, UserID: rec.ID, Role: office.RoleRecorder}))
		c := a.newClient()
		a.signIn(c, rec.ID)
		resp, body := a.do(c, http.MethodGet, "/start", nil, "")
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("recorder's start page: %d", resp.StatusCode)
		}
		rd := doc(t, body)
		if n := rd.Find(`[data-testid="start-waiting-ruling"]`).Length(); n != 0 {
			t.Errorf("the recorder sees %d games waiting for a ruling", n)
		}
		if got := startHrefs(rd, "start-waiting-result"); len(got) != 2 {
			t.Errorf("the recorder's games waiting for a result: %v", got)
		}
	})
}
