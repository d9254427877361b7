package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kisen/office"
	"kisen/store"
	"kisen/store/storetest"
)

// seedRatingGames fills a database with a published event and three
// games: a win, a 千日手 with its decided redo (one rated game, D-R3),
// and a forfeit (not rated).
func seedRatingGames(t *testing.T, opts store.Options) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	o := office.New(st, func() time.Time { return now })
	u := store.User{Login: "admin", DisplayName: "admin", PasswordHash: "x", IsAdmin: true, CreatedAt: now, UpdatedAt: now}
	if err := st.DB(ctx).Create(&u).Error; err != nil {
		t.Fatal(err)
	}
	admin := office.Actor{UserID: u.ID, Login: "admin", Admin: true}
	org := store.Organiser{Name: "連盟", Kind: office.OrganiserFederation, Settings: "{}", CreatedAt: now, UpdatedAt: now}
	if err := st.CreateOrganiser(ctx, &org); err != nil {
		t.Fatal(err)
	}
	ev, err := o.CreateEvent(ctx, admin, office.EventInput{OrganiserID: org.ID, Name: "棋戦", Kind: office.EventKnockout, StartDate: "2026-05-01", EndDate: "2026-05-31"})
	if err != nil {
		t.Fatal(err)
	}
	if err := o.SetEventStatus(ctx, admin, ev.ID, office.StatusPublished); err != nil {
		t.Fatal(err)
	}
	var ps []store.Player
	for _, n := range []string{"あ", "い", "う"} {
		p, err := o.CreatePlayer(ctx, admin, office.PlayerInput{Name: "棋士" + n, Reading: n, Kind: "professional", Rank: "五段"})
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	play := func(s, g store.Player, result, reason string) store.Game {
		gm, err := o.CreateGame(ctx, admin, office.GameInput{EventID: ev.ID, SenteID: &s.ID, GoteID: &g.ID, ScheduledOn: "2026-05-02"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := o.RecordResult(ctx, admin, gm.ID, office.ResultInput{Result: result, Reason: reason}); err != nil {
			t.Fatal(err)
		}
		return gm
	}
	play(ps[0], ps[1], office.ResultSenteWin, "resignation")
	g := play(ps[1], ps[2], office.ResultRedo, "sennichite")
	redo, err := o.CreateRedoGameFromRemaining(ctx, admin, g.ID, time.Hour, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := o.RecordResult(ctx, admin, redo.ID, office.ResultInput{Result: office.ResultGoteWin, Reason: "resignation"}); err != nil {
		t.Fatal(err)
	}
	play(ps[0], ps[2], office.ResultGoteWin, "forfeit")
}

func TestRatingRecompute_PrintsSummary_D_R3(t *testing.T) {
	t.Parallel()
	storetest.Dialects(t, func(t *testing.T, opts store.Options) {
		seedRatingGames(t, opts)
		args := []string{"rating", "recompute"}
		if opts.URL != "" {
			args = append(args, "--database-url", opts.URL)
		} else {
			args = append(args, "--data-dir", filepath.Dir(opts.SQLitePath))
		}
		code, stdout, stderr := runCmd(t, context.Background(), noEnv, args...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var sum struct {
			Model        string         `json:"model"`
			Players      int            `json:"players"`
			PlayersRated int            `json:"players_rated"`
			GamesUsed    int            `json:"games_used"`
			GamesSkipped map[string]int `json:"games_skipped"`
			Recomputed   bool           `json:"recomputed"`
		}
		if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
			t.Fatalf("output is not JSON: %v\n%s", err, stdout)
		}
		// Rated: the win and the redo's decision. Skipped: the 千日手
		// (replayed) and the forfeit.
		if sum.Model != "elo" || sum.Players != 3 || sum.PlayersRated != 3 || sum.GamesUsed != 2 || !sum.Recomputed ||
			sum.GamesSkipped["redone"] != 1 || sum.GamesSkipped["forfeit"] != 1 || len(sum.GamesSkipped) != 2 {
			t.Fatalf("summary %+v", sum)
		}
	})
}

func TestRatingCommand_BadUsage(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args   []string
		naming string
	}{
		{[]string{"rating"}, "missing subcommand"},
		{[]string{"rating", "reset"}, `"reset"`},
		{[]string{"rating", "recompute", "--colour", "red"}, "colour"},
	}
	for _, c := range cases {
		code, _, stderr := runCmd(t, context.Background(), noEnv, c.args...)
		if code != 2 || !strings.Contains(stderr, c.naming) {
			t.Errorf("%v: exit %d, stderr %q; want 2 naming %s", c.args, code, stderr, c.naming)
		}
	}
}
