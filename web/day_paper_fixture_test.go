package web

import (
	"context"
	"fmt"
	"testing"

	"kisen/office"
	"kisen/office/day"
	"kisen/store"
)

// paperDay is an amateur day for the paper tests: a 2勝通過2敗失格 class
// in blocks and a Swiss class, each with its round 1 drawn, QR slips on in
// the Swiss class, and the director signed in on a.client.
type paperDay struct {
	event        store.Event
	pools, swiss day.Class
	admin        office.Actor
	names        []string
	players      []int64
	d            *day.Day
}

// seedPaperDay enters n players in each class (n ≥ 4), checks them in,
// and draws round 1 of both; decided of the Swiss boards get results.
func seedPaperDay(t *testing.T, a *testApp, n, decided int) paperDay {
	t.Helper()
	ctx := context.Background()
	o := a.srv.Office
	d := day.New(o)
	u := a.addUser(fmt.Sprintf("paper-director-%d", n), true)
	f := paperDay{admin: office.Actor{UserID: u.ID, Login: u.Login, DisplayName: u.DisplayName, Admin: true}, d: d}
	org := store.Organiser{Name: fmt.Sprintf("県将棋連盟%d", n), Kind: office.OrganiserAmateur, Settings: "{}", CreatedAt: a.now, UpdatedAt: a.now}
	if err := a.store.CreateOrganiser(ctx, &org); err != nil {
		t.Fatal(err)
	}
	e, err := d.CreateDay(ctx, f.admin, office.EventInput{OrganiserID: org.ID, Name: fmt.Sprintf("県名人戦%d", n), StartDate: "2026-11-21", EndDate: "2026-11-21"})
	if err != nil {
		t.Fatal(err)
	}
	f.event = e
	mk := func(name, format string, first int) day.Class {
		st := day.DefaultSettings()
		st.FirstBoard = first
		c, err := d.CreateClass(ctx, f.admin, day.InputOf(e.ID, name, "", 0, format, st))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	f.pools = mk("A級", day.FormatPools, 1)
	f.swiss = mk("B級", day.FormatSwiss, 101)
	k := 0
	for _, c := range []day.Class{f.pools, f.swiss} {
		for i := 0; i < n; i++ {
			k++
			p := store.Player{Name: fmt.Sprintf("棋士%03d", k), Reading: fmt.Sprintf("きし%03d", k), Kind: store.PlayerAmateur, Rank: "初段",
				Affiliation: fmt.Sprintf("第%d支部", k%7), CreatedAt: a.now, UpdatedAt: a.now}
			if err := a.store.CreatePlayer(ctx, &p); err != nil {
				t.Fatal(err)
			}
			f.names = append(f.names, p.Name, p.Reading, p.Affiliation)
			f.players = append(f.players, p.ID)
			if _, err := d.Enter(ctx, f.admin, day.EntryInput{EventID: e.ID, PlayerID: p.ID, ClassID: c.ID}); err != nil {
				t.Fatal(err)
			}
			if err := d.CheckIn(ctx, f.admin, e.ID, p.ID, store.CheckinPresent); err != nil {
				t.Fatal(err)
			}
		}
		pr, err := d.PreviewRound(ctx, f.admin, c.ID, 11)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.ConfirmRound(ctx, f.admin, day.ConfirmInput{ClassID: c.ID, Round: pr.Round, Seed: 11, Fingerprint: pr.Fingerprint}); err != nil {
			t.Fatal(err)
		}
	}
	f.names = append(f.names, e.Name, org.Name, "A級", "B級")
	if err := d.SetPaper(ctx, f.admin, day.PaperInput{ClassID: f.swiss.ID, QR: true, WaitMinutes: "10"}); err != nil {
		t.Fatal(err)
	}
	v, err := d.ClassView(ctx, f.admin, f.swiss.ID)
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range v.Rounds[0].Boards {
		if i >= decided {
			break
		}
		if err := d.EnterBoardResult(ctx, f.admin, day.BoardResultInput{ClassID: f.swiss.ID, Round: 1, Board: b.Board, GameID: b.Last.ID, Version: b.Version, Result: office.ResultSenteWin}); err != nil {
			t.Fatal(err)
		}
	}
	a.signIn(a.client, u.ID)
	return f
}

// paperPages are the day's paper and director pages of f.
func (f paperDay) paperPages() map[string]string {
	return map[string]string{
		"director":        fmt.Sprintf("/events/%d/day/director", f.event.ID),
		"check-in list":   fmt.Sprintf("/events/%d/day/checkin/print", f.event.ID),
		"pools pairings":  fmt.Sprintf("/day/classes/%d/rounds/1/pairings/print", f.pools.ID),
		"pools slips":     fmt.Sprintf("/day/classes/%d/rounds/1/slips/print", f.pools.ID),
		"block sheets":    fmt.Sprintf("/day/classes/%d/blocks/print", f.pools.ID),
		"pools standings": fmt.Sprintf("/day/classes/%d/standings/print", f.pools.ID),
		"swiss pairings":  fmt.Sprintf("/day/classes/%d/rounds/1/pairings/print", f.swiss.ID),
		"swiss slips":     fmt.Sprintf("/day/classes/%d/rounds/1/slips/print", f.swiss.ID),
		"swiss standings": fmt.Sprintf("/day/classes/%d/standings/print", f.swiss.ID),
	}
}
