package web

import (
	"context"
	"testing"

	"kisen/office"
	"kisen/store"
)

// gameSetup is a published event with an administrator, an arbiter who
// can sign in with a password, two players and one game of 180 minutes.
type gameSetup struct {
	admin, arbiter office.Actor
	arbiterUser    store.User
	event          store.Event
	sente, gote    store.Player
	game           store.Game
}

const arbiterPassword = "correct horse battery staple"

func newGameSetup(t *testing.T, a *testApp, settings string) gameSetup {
	t.Helper()
	ctx := context.Background()
	o := a.srv.Office
	var g gameSetup
	adminUser := a.addUser("admin", true)
	g.admin = office.Actor{UserID: adminUser.ID, Login: "admin", DisplayName: "admin", Admin: true}
	hash, err := office.HashPassword(arbiterPassword, cheapParams, nil)
	if err != nil {
		t.Fatal(err)
	}
	g.arbiterUser = store.User{Login: "tachiai", DisplayName: "立会 一郎", PasswordHash: hash, CreatedAt: a.now, UpdatedAt: a.now}
	if err := a.store.DB(ctx).Create(&g.arbiterUser).Error; err != nil {
		t.Fatal(err)
	}
	g.arbiter = office.Actor{UserID: g.arbiterUser.ID, Login: "tachiai", DisplayName: "立会 一郎"}
	org := store.Organiser{Name: "日本将棋連盟", Kind: office.OrganiserFederation, Settings: settings, CreatedAt: a.now, UpdatedAt: a.now}
	if err := a.store.CreateOrganiser(ctx, &org); err != nil {
		t.Fatal(err)
	}
	if g.event, err = o.CreateEvent(ctx, g.admin, office.EventInput{OrganiserID: org.ID, Name: "第1期テスト戦", Kind: office.EventKnockout,
		StartDate: "2026-11-01", EndDate: "2026-12-31"}); err != nil {
		t.Fatal(err)
	}
	if err := o.SetEventStatus(ctx, g.admin, g.event.ID, office.StatusPublished); err != nil {
		t.Fatal(err)
	}
	if err := o.GrantEventRole(ctx, g.admin, office.RoleGrant{EventID: g.event.ID, UserID: g.arbiter.UserID, Role: office.RoleArbiter}); err != nil {
		t.Fatal(err)
	}
	if g.sente, err = o.CreatePlayer(ctx, g.admin, office.PlayerInput{Name: "羽生 善治", Reading: "はぶ よしはる", Kind: "professional", Rank: "九段"}); err != nil {
		t.Fatal(err)
	}
	if g.gote, err = o.CreatePlayer(ctx, g.admin, office.PlayerInput{Name: "藤井 聡太", Reading: "ふじい そうた", Kind: "professional", Rank: "九段"}); err != nil {
		t.Fatal(err)
	}
	if g.game, err = o.CreateGame(ctx, g.admin, office.GameInput{EventID: g.event.ID, Label: "1回戦", SenteID: &g.sente.ID, GoteID: &g.gote.ID, AllowanceMinutes: 180}); err != nil {
		t.Fatal(err)
	}
	return g
}
