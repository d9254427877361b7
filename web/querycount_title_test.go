package web

import (
	"context"
	"fmt"
	"strconv"
	"testing"

	"kisen/office"
	"kisen/pairing"
	"kisen/store"
)

// TestQueryCount_TitleAfterKnockoutBracketPage: the bracket page of a
// knockout event whose 本戦 is followed by a 番勝負 (issue 24 item 2) costs
// the same number of statements whether the series still waits for its
// challenger (a 4-player 本戦, nothing played) or the 本戦 of 16 players is
// decided and the series has games, for the public and for staff, on both
// databases.
func TestQueryCount_TitleAfterKnockoutBracketPage(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		a.srv.Pages = nil
		a.srv.Office.KeepNoViews()
		bg := context.Background()
		o := a.srv.Office
		root := a.addUser("qc-root", true)
		act := office.Actor{UserID: root.ID, Login: root.Login, Admin: true}
		org := store.Organiser{Name: "日本将棋連盟", Kind: office.OrganiserFederation, Settings: "{}", CreatedAt: a.now, UpdatedAt: a.now}
		if err := a.store.CreateOrganiser(bg, &org); err != nil {
			t.Fatal(err)
		}
		build := func(name string, field int, play bool) int64 {
			t.Helper()
			ev, err := o.CreateEvent(bg, act, office.EventInput{OrganiserID: org.ID, Name: name, Kind: office.EventKnockout, StartDate: "2026-11-01", EndDate: "2027-06-30"})
			if err != nil {
				t.Fatal(err)
			}
			main, err := o.CreateStage(bg, act, office.StageInput{EventID: ev.ID, Name: "挑戦者決定トーナメント", Kind: string(pairing.MainEvent), Qualifiers: 1})
			if err != nil {
				t.Fatal(err)
			}
			for i := range field {
				p, err := o.CreatePlayer(bg, act, office.PlayerInput{Name: fmt.Sprintf("%s棋士%02d", name, i+1), Reading: "きし", Kind: "professional", Rank: "四段"})
				if err != nil {
					t.Fatal(err)
				}
				if _, err := o.AddEntrant(bg, act, office.EntrantInput{StageID: main.ID, PlayerID: p.ID}); err != nil {
					t.Fatal(err)
				}
			}
			series, err := o.CreateStage(bg, act, office.StageInput{EventID: ev.ID, Name: "七番勝負", Kind: office.StageSeries, BestOf: 7})
			if err != nil {
				t.Fatal(err)
			}
			h, err := o.CreatePlayer(bg, act, office.PlayerInput{Name: name + "保持者", Reading: "ほじしゃ", Kind: "professional", Rank: "九段"})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := o.AddEntrant(bg, act, office.EntrantInput{StageID: series.ID, PlayerID: h.ID, Seed: 1}); err != nil {
				t.Fatal(err)
			}
			for _, id := range []int64{main.ID, series.ID} {
				if _, err := o.DrawStage(bg, act, office.DrawInput{StageID: id, Seed: "3", DrawDate: "2026-11-21"}); err != nil {
					t.Fatal(err)
				}
				if err := o.PublishStage(bg, act, id); err != nil {
					t.Fatal(err)
				}
			}
			if !play {
				return ev.ID
			}
			// Every game the sente wins, until the series has three games decided.
			for range 100 {
				eb, err := o.EventBrackets(bg, act, ev.ID)
				if err != nil {
					t.Fatal(err)
				}
				var next int64
				for _, sb := range eb.Stages {
					for _, round := range sb.Rounds {
						for _, g := range round {
							if g.GameID != 0 && g.Result == "" && next == 0 {
								next = g.DecidingGameID
							}
						}
					}
					if sb.Series != nil && next == 0 && len(sb.Series.Games) < 4 {
						for _, g := range sb.Series.Games {
							if g.Result == "" {
								next = g.GameID
							}
						}
					}
				}
				if next == 0 {
					break
				}
				if _, err := o.RecordResult(bg, act, next, office.ResultInput{Result: office.ResultSenteWin, Reason: "resignation"}); err != nil {
					t.Fatal(err)
				}
			}
			return ev.ID
		}
		waiting := build("甲", 4, false)
		played := build("乙", 16, true)
		if eb, err := o.EventBrackets(bg, act, played); err != nil || eb.Stages[1].Series == nil || len(eb.Stages[1].Series.Games) < 4 || eb.Stages[1].Series.AwaitsChallenger {
			t.Fatalf("the played event's series has no games: %v", err)
		}
		for _, signedIn := range []bool{false, true} {
			if signedIn {
				a.signIn(a.client, root.ID)
			}
			ns := statementsOf(t, a, a.store, "/events/"+strconv.FormatInt(waiting, 10)+"/brackets")
			nl := statementsOf(t, a, a.store, "/events/"+strconv.FormatInt(played, 10)+"/brackets")
			if ns != nl {
				t.Errorf("signed in %v: %d statements with the series waiting, %d with the 本戦 decided and the series played", signedIn, ns, nl)
			}
		}
	})
}
