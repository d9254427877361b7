package web

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"kisen/office"
	"kisen/office/day"
	"kisen/office/teams"
	"kisen/store"
	"kisen/web/site"
)

// matrixSide is one side of the route × principal matrix (issue 21, "Done
// when"): an organiser with a knockout event (a drawn, published stage with
// a result and a ruling), a 順位戦 term (a drawn, published class with a
// result) and an amateur day (a class with its first round drawn), one user
// per event role holding that role in all three events, and one API token
// per scope on the knockout event. Side A stays a draft (only its staff and
// administrators may see it), side B is published: so the matrix covers
// both "visible but not yours" (403) and "not visible" (404).
type matrixSide struct {
	tag                          string
	organiser                    int64
	knockout, league, day        int64
	stage, entrant, game, ruling int64  // a stage, one of its entrants, a decided game and its ruling
	openGame                     int64  // an undecided game of the stage
	appeal                       int64  // an appeal (異議) against ruling, on openGame
	freshRuling                  int64  // a second ruling on openGame, not appealed
	gameLabel                    string // game's place in the bracket (R1-…)
	class, leagueGame            int64  // the 順位戦 class and one of its games
	dayClass, dayGame, dayPlayer int64  // the day class, its board 1 game in round 1, an entrant
	token                        int64  // a token id (results scope)
	teamEvent, team, teamRound   int64  // a team event (団体戦), its team and a round whose orders are published
	teamMatch                    int64  // a match of that round (not started)
	players                      []int64
	staff                        map[string]store.User // role → user
	secrets                      map[string]string     // scope → token secret
	names                        []string              // every name the side typed in (players, events, stages, reasons)
	published                    bool
	owner                        string // whose staff and tokens hold roles here (the tag)
	// A drawn stage and a drawn 順位戦 class left unpublished (published
	// sides only), and the names only they show.
	hiddenStage, hiddenClass int64
	hiddenNames              []string
	only                     func(pattern string) bool // the routes this target is tried on (nil: all)
}

func newMatrixSide(t *testing.T, a *testApp, admin office.Actor, tag string, publish bool) *matrixSide {
	t.Helper()
	ctx := context.Background()
	o := a.srv.Office
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	sd := &matrixSide{tag: tag, owner: tag, staff: map[string]store.User{}, secrets: map[string]string{}, published: publish}
	org := store.Organiser{Name: tag + "将棋協会", Kind: office.OrganiserFederation, Settings: "{}", CreatedAt: a.now, UpdatedAt: a.now}
	must(a.store.CreateOrganiser(ctx, &org))
	sd.organiser = org.ID
	sd.names = append(sd.names, org.Name)
	for i := range 10 {
		name := fmt.Sprintf("%s野 棋士%s", tag, string(rune('壱'+i)))
		pl, err := o.CreatePlayer(ctx, admin, office.PlayerInput{Name: name, Reading: "きし", Kind: "professional", Rank: "四段"})
		must(err)
		sd.players = append(sd.players, pl.ID)
		sd.names = append(sd.names, name)
	}
	ev, err := o.CreateEvent(ctx, admin, office.EventInput{OrganiserID: org.ID, Name: tag + "新鋭戦", Kind: office.EventKnockout,
		StartDate: "2026-11-01", EndDate: "2027-03-31", Venue: tag + "会館"})
	must(err)
	sd.knockout = ev.ID
	lev, err := o.CreateEvent(ctx, admin, office.EventInput{OrganiserID: org.ID, Name: tag + "期順位戦", Kind: office.EventJunisenTerm,
		StartDate: "2026-06-01", EndDate: "2027-03-31"})
	must(err)
	sd.league = lev.ID
	dorg := store.Organiser{Name: tag + "県将棋連盟", Kind: office.OrganiserAmateur, Settings: "{}", CreatedAt: a.now, UpdatedAt: a.now}
	must(a.store.CreateOrganiser(ctx, &dorg))
	d := day.New(o)
	dev, err := d.CreateDay(ctx, admin, office.EventInput{OrganiserID: dorg.ID, Name: tag + "県名人戦", StartDate: "2026-11-21", EndDate: "2026-11-21"})
	must(err)
	sd.day = dev.ID
	tev, err := teams.New(o).CreateTeamEvent(ctx, admin, office.EventInput{OrganiserID: dorg.ID, Name: tag + "団体戦", StartDate: "2026-11-22", EndDate: "2026-11-22"},
		teams.SettingsInput{Boards: "3", Reserves: "1", OrderRule: "free"})
	must(err)
	sd.teamEvent = tev.ID
	sd.names = append(sd.names, ev.Name, tag+"会館", lev.Name, dorg.Name, dev.Name, tev.Name)
	for _, role := range office.EventRoleNames {
		u := a.addUser(fmt.Sprintf("%s-%s", strings.ToLower(tagLatin(tag)), role), false)
		sd.staff[role] = u
		for _, e := range []int64{sd.knockout, sd.league, sd.day, sd.teamEvent} {
			must(o.GrantEventRole(ctx, admin, office.RoleGrant{EventID: e, UserID: u.ID, Role: role}))
		}
	}

	// The knockout: eight players drawn and published, a result and a ruling.
	st, err := o.CreateStage(ctx, admin, office.StageInput{EventID: ev.ID, Name: tag + "一次予選", Kind: "first_preliminary", Qualifiers: 2,
		RoundDates: "2026-11-10 2026-11-20 2026-12-10", AllowanceMinutes: 180})
	must(err)
	sd.stage = st.ID
	sd.names = append(sd.names, st.Name)
	for _, p := range sd.players[:8] {
		en, err := o.AddEntrant(ctx, admin, office.EntrantInput{StageID: st.ID, PlayerID: p})
		must(err)
		if sd.entrant == 0 {
			sd.entrant = en.ID
		}
	}
	_, err = o.DrawStage(ctx, admin, office.DrawInput{StageID: st.ID, Seed: "7", DrawDate: "2026-11-01"})
	must(err)
	must(o.PublishStage(ctx, admin, st.ID))
	kgs, err := a.store.KnockoutGamesOfStage(ctx, st.ID)
	must(err)
	for _, kg := range kgs {
		if !strings.HasPrefix(kg.BracketGame, "R1-") {
			continue
		}
		switch {
		case sd.game == 0:
			sd.game, sd.gameLabel = kg.GameID, kg.BracketGame
		case sd.openGame == 0:
			sd.openGame = kg.GameID
		}
	}
	rec := sd.staff[office.RoleRecorder]
	_, _, err = o.SaveRecord(ctx, office.Actor{UserID: rec.ID, Login: rec.Login, DisplayName: rec.Login}, sd.game,
		office.RecordInput{Text: "position startpos moves 7g7f 3c3d 2g2f"})
	must(err)
	_, err = o.RecordResult(ctx, admin, sd.game, office.ResultInput{Result: office.ResultSenteWin, Reason: office.ReasonResignation})
	must(err)
	reason := tag + "側の時計故障"
	arb := sd.staff[office.RoleArbiter]
	r, _, err := o.AddRuling(ctx, office.Actor{UserID: arb.ID, Login: arb.Login, DisplayName: arb.Login}, sd.openGame, office.RulingInput{Kind: "time_adjust", Player: "sente", DeltaMinutes: "5", Reason: reason})
	must(err)
	sd.ruling = r.ID
	sd.names = append(sd.names, reason)
	statement := tag + "側の異議申立て"
	ap, err := o.FileAppeal(ctx, admin, sd.openGame, office.AppealInput{RulingID: r.ID, FiledBy: "sente", StatementSente: statement, Body: office.AppealBodyArbiter})
	must(err)
	sd.appeal = ap.ID
	sd.names = append(sd.names, statement)
	r2, _, err := o.AddRuling(ctx, office.Actor{UserID: arb.ID, Login: arb.Login, DisplayName: arb.Login}, sd.openGame, office.RulingInput{Kind: "time_adjust", Player: "gote", DeltaMinutes: "3", Reason: reason + "（後手）"})
	must(err)
	sd.freshRuling = r2.ID

	// The 順位戦 class: the ten players, drawn and published, one result.
	var members []string
	for _, n := range sd.names[1:11] {
		members = append(members, n)
	}
	c, err := o.AddLeagueClass(ctx, admin, office.LeagueClassInput{EventID: lev.ID, Class: "C2", Members: strings.Join(members, "\n"),
		GamesPerPlayer: 4, AllowanceMinutes: 360})
	must(err)
	sd.class = c.ID
	_, err = o.GenerateSchedule(ctx, admin, office.ScheduleInput{ClassID: c.ID, Seed: "11", DrawDate: "2026-05-01"})
	must(err)
	must(o.PublishSchedule(ctx, admin, c.ID))
	lgs, err := a.store.LeagueGames(ctx, c.ID)
	must(err)
	sd.leagueGame = lgs[0].GameID
	must(o.EnterLeagueResult(ctx, admin, office.LeagueResultInput{GameID: lgs[1].GameID, Result: "sente_win"}))

	// The day: a class of eight amateurs, present, round 1 drawn.
	dc, err := d.CreateClass(ctx, admin, day.InputOf(dev.ID, tag+"級", "", 0, day.FormatSwiss, day.DefaultSettings()))
	must(err)
	sd.dayClass = dc.ID
	for i := range 8 {
		p := store.Player{Name: fmt.Sprintf("%s田 愛好%d", tag, i), Reading: "あいこう", Kind: store.PlayerAmateur, Rank: "初段",
			Affiliation: tag + "道場", CreatedAt: a.now, UpdatedAt: a.now}
		must(a.store.CreatePlayer(ctx, &p))
		_, err := d.Enter(ctx, admin, day.EntryInput{EventID: dev.ID, PlayerID: p.ID, ClassID: dc.ID})
		must(err)
		must(d.CheckIn(ctx, admin, dev.ID, p.ID, store.CheckinPresent))
		sd.names = append(sd.names, p.Name)
		if sd.dayPlayer == 0 {
			sd.dayPlayer = p.ID
		}
	}
	sd.names = append(sd.names, tag+"道場")
	pv, err := d.PreviewRound(ctx, admin, dc.ID, 3)
	must(err)
	_, err = d.ConfirmRound(ctx, admin, day.ConfirmInput{ClassID: dc.ID, Round: pv.Round, Seed: 3, Fingerprint: pv.Fingerprint})
	must(err)
	v, err := d.ClassView(ctx, admin, dc.ID)
	must(err)
	sd.dayGame = v.Rounds[0].Boards[0].Last.ID

	// The team event: one team of three, round 1 with its order in (so
	// published: every team's order is in).
	tt := teams.New(o)
	tm, err := tt.SaveTeam(ctx, admin, teams.TeamInput{EventID: tev.ID, Name: tag + "高校", AffiliationKind: teams.AffiliationSchool,
		Members: []teams.MemberInput{{PlayerID: sd.players[0]}, {PlayerID: sd.players[1]}, {PlayerID: sd.players[2]}}})
	must(err)
	sd.team = tm.ID
	sd.names = append(sd.names, tm.Name)
	tm2, err := tt.SaveTeam(ctx, admin, teams.TeamInput{EventID: tev.ID, Name: tag + "商業", AffiliationKind: teams.AffiliationSchool,
		Members: []teams.MemberInput{{PlayerID: sd.players[3]}, {PlayerID: sd.players[4]}, {PlayerID: sd.players[5]}}})
	must(err)
	tr, err := tt.SaveRound(ctx, admin, teams.RoundInput{EventID: tev.ID, Number: "1", Deadline: a.now.Add(time.Hour).In(site.Tokyo).Format(teams.DeadlineLayout)})
	must(err)
	sd.teamRound = tr.ID
	_, err = tt.SubmitOrder(ctx, admin, teams.OrderInput{RoundID: tr.ID, TeamID: tm.ID, Players: sd.players[:3]})
	must(err)
	// A second team and their match at table 1 (not started).
	_, err = tt.SubmitOrder(ctx, admin, teams.OrderInput{RoundID: tr.ID, TeamID: tm2.ID, Players: sd.players[3:6]})
	must(err)
	tmm, err := tt.CreateMatch(ctx, admin, teams.MatchInput{RoundID: tr.ID, Table: 1, TeamA: tm.ID, TeamB: tm2.ID})
	must(err)
	sd.teamMatch = tmm.ID

	// One token per scope on the knockout event, and a revoked one.
	for _, scope := range office.TokenScopes {
		tok, err := o.CreateAPIToken(ctx, admin, office.TokenInput{EventID: ev.ID, Name: tag + scope, Scope: scope,
			ExpiresOn: a.now.In(site.Tokyo).AddDate(0, 1, 0).Format(office.DateLayout)})
		must(err)
		sd.secrets[scope] = tok.Secret
		if scope == office.ScopeResults {
			sd.token = tok.Token.ID
		}
	}
	tok, err := o.CreateAPIToken(ctx, admin, office.TokenInput{EventID: ev.ID, Name: tag + "revoked", Scope: office.ScopeResults,
		ExpiresOn: a.now.In(site.Tokyo).AddDate(0, 1, 0).Format(office.DateLayout)})
	must(err)
	must(o.RevokeAPIToken(ctx, admin, ev.ID, tok.Token.ID))
	sd.secrets["revoked"] = tok.Secret

	if publish {
		// A second stage and a second class, drawn and never published.
		st2, err := o.CreateStage(ctx, admin, office.StageInput{EventID: ev.ID, Name: tag + "二次予選", Kind: "second_preliminary", Qualifiers: 1,
			RoundDates: "2027-01-10 2027-01-20", AllowanceMinutes: 180})
		must(err)
		for _, p := range sd.players[:4] {
			_, err := o.AddEntrant(ctx, admin, office.EntrantInput{StageID: st2.ID, PlayerID: p})
			must(err)
		}
		_, err = o.DrawStage(ctx, admin, office.DrawInput{StageID: st2.ID, Seed: "8", DrawDate: "2027-01-01"})
		must(err)
		sd.hiddenStage = st2.ID
		sd.hiddenNames = append(sd.hiddenNames, st2.Name)
		var c1 []string
		for i := range 10 {
			name := fmt.Sprintf("%s原 未公開%s", tag, string(rune('壱'+i)))
			_, err := o.CreatePlayer(ctx, admin, office.PlayerInput{Name: name, Reading: "みこうかい", Kind: "professional", Rank: "五段"})
			must(err)
			c1 = append(c1, name)
		}
		sd.hiddenNames = append(sd.hiddenNames, c1...)
		c, err := o.AddLeagueClass(ctx, admin, office.LeagueClassInput{EventID: lev.ID, Class: "C1", Members: strings.Join(c1, "\n"),
			GamesPerPlayer: 4, AllowanceMinutes: 360})
		must(err)
		_, err = o.GenerateSchedule(ctx, admin, office.ScheduleInput{ClassID: c.ID, Seed: "12", DrawDate: "2026-05-01"})
		must(err)
		sd.hiddenClass = c.ID
	}

	// Publishing a draw publishes its event (office/publish.go). Side 甲
	// is put back to draft through the store (the app only moves an event
	// forward): the strictest case, every kind of id of 甲 exists and has
	// games, results, records and rulings, and no outsider may see any of it.
	for _, e := range []int64{sd.knockout, sd.league, sd.day, sd.teamEvent} {
		ev, err := a.store.EventByID(ctx, e)
		must(err)
		switch {
		case publish && ev.Status == office.StatusDraft:
			must(o.SetEventStatus(ctx, admin, e, office.StatusPublished))
		case !publish && ev.Status != office.StatusDraft:
			must(a.store.SetEventStatus(ctx, e, ev.Status, office.StatusDraft, admin.UserID, a.now))
		}
	}
	return sd
}

// tagLatin spells a side's tag for logins.
func tagLatin(tag string) string {
	switch tag {
	case "甲":
		return "a"
	case "乙":
		return "b"
	}
	return tag
}
