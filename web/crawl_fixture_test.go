package web

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	"kisen/office"
	"kisen/office/ratings"
	"kisen/store"
	"kisen/web/site"
)

// crawlFixture is a realistic small site for the crawl (issue 13): a
// published knockout event whose 一次予選 was drawn, edited by a swap that
// puts a 師弟 pair together (with a reason) and published, with results,
// a 千日手 and its redo game, and an arbiter's ruling; a published 順位戦
// class with results; players with masters; ratings. Users: an
// administrator, the knockout event's director, arbiter and recorder, and
// the league's scheduler.
type crawlFixture struct {
	a                                   *testApp
	admin                               office.Actor
	root, director, arbiter, scheduler  store.User
	recorder                            store.User
	knockout, leagueEvent, stage, class int64
	ranking                             int64 // a ranking event of two finished groups (issue 24 item 8)
	recorded                            int64 // the game with a record, ended by 千日手
	players                             []store.Player
	// data is every name the fixture typed in (players, readings, events,
	// organisers, stages, reasons, notes): the only Japanese an English
	// page may show.
	data []string
}

func newCrawlFixture(t *testing.T, a *testApp) *crawlFixture {
	t.Helper()
	ctx := context.Background()
	o := a.srv.Office
	f := &crawlFixture{a: a}
	f.root = a.addUser("root", true)
	f.director = a.addUser("director", false)
	f.arbiter = a.addUser("arbiter", false)
	f.scheduler = a.addUser("scheduler", false)
	f.recorder = a.addUser("recorder", false)
	f.admin = office.Actor{UserID: f.root.ID, Login: "root", DisplayName: "root", Admin: true}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	org := store.Organiser{Name: "日本将棋連盟", Kind: office.OrganiserFederation, Settings: "{}", CreatedAt: a.now, UpdatedAt: a.now}
	must(a.store.CreateOrganiser(ctx, &org))
	f.data = append(f.data, org.Name)

	// Players: 師匠 一郎 is 弟子 二郎's master, 兄弟子 三郎 is a fellow disciple.
	people := []struct{ name, reading, rank string }{
		{"師匠 一郎", "ししょう いちろう", "九段"}, {"弟子 二郎", "でし じろう", "四段"}, {"兄弟子 三郎", "あにでし さぶろう", "五段"},
		{"青木 四郎", "あおき しろう", "六段"}, {"石田 五郎", "いしだ ごろう", "七段"}, {"上野 六郎", "うえの ろくろう", "八段"},
		{"江口 七郎", "えぐち しちろう", "四段"}, {"大山 八郎", "おおやま はちろう", "五段"}, {"加藤 九郎", "かとう くろう", "六段"},
		{"木村 十郎", "きむら じゅうろう", "七段"},
	}
	for _, p := range people {
		pl, err := o.CreatePlayer(ctx, f.admin, office.PlayerInput{Name: p.name, Reading: p.reading, Kind: "professional", Rank: p.rank})
		must(err)
		f.players = append(f.players, pl)
		f.data = append(f.data, p.name, p.reading)
		// Names also appear without the space (a family name alone in a
		// narrow bracket box).
		f.data = append(f.data, strings.Fields(p.name)...)
	}
	must(o.AddMasterPeriod(ctx, f.admin, f.players[1].ID, office.MasterRef{PlayerID: f.players[0].ID}, "2010-04-01", ""))
	must(o.AddMasterPeriod(ctx, f.admin, f.players[2].ID, office.MasterRef{PlayerID: f.players[0].ID}, "2008-04-01", ""))

	// The knockout event: a first preliminary of eight.
	ev, err := o.CreateEvent(ctx, f.admin, office.EventInput{OrganiserID: org.ID, Name: "新人王戦", Kind: office.EventKnockout,
		StartDate: "2026-11-01", EndDate: "2027-03-31", Venue: "将棋会館"})
	must(err)
	f.knockout = ev.ID
	f.data = append(f.data, ev.Name, "将棋会館")
	must(o.GrantEventRole(ctx, f.admin, office.RoleGrant{EventID: ev.ID, UserID: f.director.ID, Role: office.RoleDirector}))
	must(o.GrantEventRole(ctx, f.admin, office.RoleGrant{EventID: ev.ID, UserID: f.arbiter.ID, Role: office.RoleArbiter}))
	must(o.GrantEventRole(ctx, f.admin, office.RoleGrant{EventID: ev.ID, UserID: f.recorder.ID, Role: office.RoleRecorder}))
	st, err := o.CreateStage(ctx, f.admin, office.StageInput{EventID: ev.ID, Name: "一次予選", Kind: "first_preliminary", Qualifiers: 2,
		RoundDates: "2026-11-10 2026-11-20 2026-12-10", AllowanceMinutes: 180})
	must(err)
	f.stage = st.ID
	f.data = append(f.data, st.Name)
	for _, p := range f.players[:8] {
		_, err := o.AddEntrant(ctx, f.admin, office.EntrantInput{StageID: st.ID, PlayerID: p.ID})
		must(err)
	}
	_, err = o.DrawStage(ctx, f.admin, office.DrawInput{StageID: st.ID, Seed: "123", DrawDate: "2026-11-01"})
	must(err)
	// Put 弟子 二郎 opposite 師匠 一郎: a swap that breaks D-A1, accepted
	// with the organiser's reason (the log and the stage page show it).
	st, err = a.store.StageByID(ctx, st.ID)
	must(err)
	slots, err := office.StageSlots(st)
	must(err)
	im := slices.Index(slots, strconv.FormatInt(f.players[0].ID, 10))
	id := slices.Index(slots, strconv.FormatInt(f.players[1].ID, 10))
	const swapReason = "主催者の判断で組み合わせを変更"
	_, err = o.SwapSlots(ctx, f.admin, office.SwapInput{StageID: st.ID, A: im ^ 1, B: id, Reason: swapReason})
	must(err)
	f.data = append(f.data, swapReason)
	must(o.PublishStage(ctx, f.admin, st.ID))

	// Results: two round-1 games by quick result, one by 千日手 with a redo
	// game, one game with an arbiter's ruling.
	kgs, err := a.store.KnockoutGamesOfStage(ctx, st.ID)
	must(err)
	var r1 []store.Game
	for _, kg := range kgs {
		if strings.HasPrefix(kg.BracketGame, "R1-") {
			g, err := a.store.GameByID(ctx, kg.GameID)
			must(err)
			r1 = append(r1, g)
		}
	}
	if len(r1) != 4 {
		t.Fatalf("round 1 has %d games", len(r1))
	}
	for _, g := range r1[:2] {
		_, err := o.RecordResult(ctx, f.admin, g.ID, office.ResultInput{Result: office.ResultSenteWin, Reason: office.ReasonResignation})
		must(err)
	}
	shuffle := "position startpos moves " + strings.Repeat("5i5h 5a5b 5h5i 5b5a ", 3)
	arbiter := office.Actor{UserID: f.arbiter.ID, Login: "arbiter", DisplayName: "arbiter"}
	_, _, err = o.SaveRecord(ctx, arbiter, r1[2].ID, office.RecordInput{Text: shuffle})
	must(err)
	f.recorded = r1[2].ID
	end, err := o.EndGame(ctx, arbiter, r1[2].ID, office.EndInput{Kind: "sennichite", RemainingSente: "100", RemainingGote: "100"})
	must(err)
	if end.Redo == nil {
		t.Fatal("no redo game after 千日手")
	}
	const rulingReason = "時計の故障のため"
	_, _, err = o.AddRuling(ctx, arbiter, r1[3].ID, office.RulingInput{Kind: "time_adjust", Player: "sente", DeltaMinutes: "5", Reason: rulingReason})
	must(err)
	f.data = append(f.data, rulingReason)

	// A 順位戦 term with a C2 class of the ten players, drawn, published,
	// and the first round's results in.
	lev, err := o.CreateEvent(ctx, f.admin, office.EventInput{OrganiserID: org.ID, Name: "第85期順位戦", Kind: office.EventJunisenTerm,
		StartDate: "2026-06-01", EndDate: "2027-03-31"})
	must(err)
	f.leagueEvent = lev.ID
	f.data = append(f.data, lev.Name)
	must(o.GrantEventRole(ctx, f.admin, office.RoleGrant{EventID: lev.ID, UserID: f.scheduler.ID, Role: office.RoleScheduler}))
	var members []string
	for _, p := range f.players {
		members = append(members, p.Name)
	}
	c, err := o.AddLeagueClass(ctx, f.admin, office.LeagueClassInput{EventID: lev.ID, Class: "C2", Members: strings.Join(members, "\n"),
		GamesPerPlayer: 4, AllowanceMinutes: 360})
	must(err)
	f.class = c.ID
	_, err = o.GenerateSchedule(ctx, f.admin, office.ScheduleInput{ClassID: c.ID, Seed: "20260401", DrawDate: "2026-05-01"})
	must(err)
	must(o.PublishSchedule(ctx, f.admin, c.ID))
	lgs, err := a.store.LeagueGames(ctx, c.ID)
	must(err)
	for i, lg := range lgs {
		if lg.Round != 1 {
			continue
		}
		res := "sente_win"
		if i%2 == 1 {
			res = "gote_win"
		}
		must(o.EnterLeagueResult(ctx, f.admin, office.LeagueResultInput{GameID: lg.GameID, Result: res}))
	}
	// A round-2 game that waits for a ruling (the start page's list): a
	// foul loss ruled by the organiser (no arbiter, D-K2), then taken back
	// on appeal, leaves it without a result.
	for _, lg := range lgs {
		if lg.Round != 2 {
			continue
		}
		r, _, err := o.AddRuling(ctx, f.admin, lg.GameID, office.RulingInput{Kind: "foul_loss", Player: "sente", Reason: "盤外での助言"})
		must(err)
		_, _, err = o.AddRuling(ctx, f.admin, lg.GameID, office.RulingInput{Kind: "other", Reason: "不服申立てを認める", Supersedes: r.ID, Version: 1})
		must(err)
		f.data = append(f.data, "盤外での助言", "不服申立てを認める")
		break
	}
	// A ranking event (竜王戦 format) of two groups of four, every game
	// played: its outcome page and, for the administrator, the next
	// term's preview (issue 24 item 8).
	rev, err := o.CreateEvent(ctx, f.admin, office.EventInput{OrganiserID: org.ID, Name: "竜王戦", Kind: office.EventKnockout,
		StartDate: "2026-06-01", EndDate: "2027-03-31"})
	must(err)
	f.ranking = rev.ID
	f.data = append(f.data, rev.Name, "1組", "2組", "1組1位", "2組1位")
	for g, line := range []string{
		`{"group": 1, "places": [{"source": "winner", "slot": "1組1位"}], "promoted": [], "survival": {"round": 1, "relegated": 1}}`,
		`{"group": 2, "places": [{"source": "winner", "slot": "2組1位"}], "promoted": [{"source": "winner"}]}`,
	} {
		gst, err := o.CreateStage(ctx, f.admin, office.StageInput{EventID: rev.ID, Name: strconv.Itoa(g+1) + "組", Kind: "first_preliminary", RankingRule: line})
		must(err)
		for _, p := range f.players[2+4*g : 6+4*g] {
			_, err := o.AddEntrant(ctx, f.admin, office.EntrantInput{StageID: gst.ID, PlayerID: p.ID})
			must(err)
		}
		_, err = o.DrawStage(ctx, f.admin, office.DrawInput{StageID: gst.ID, Seed: "24", DrawDate: "2026-06-01"})
		must(err)
		must(o.PublishStage(ctx, f.admin, gst.ID))
		playRankingUpperLine(t, o, f.admin, rev.ID, gst.ID, 0)
	}
	_, err = ratings.New(o).RecomputeRatings(ctx)
	must(err)
	// An API token that wrote a result (issue 15): the token page's rows and
	// the history's "via token" words are crawled too.
	tok, err := o.CreateAPIToken(ctx, f.admin, office.TokenInput{EventID: f.knockout, Name: "会場タブレット", Scope: office.ScopeRulings,
		ExpiresOn: a.now.In(site.Tokyo).AddDate(0, 1, 0).Format(office.DateLayout)})
	must(err)
	ta, err := o.AuthenticateToken(ctx, tok.Secret)
	must(err)
	caution, _, err := o.AddRuling(ctx, ta, f.recorded, office.RulingInput{Kind: "caution", Player: "sente", Reason: "私語"})
	must(err)
	must(o.RevokeAPIToken(ctx, f.admin, f.knockout, tok.Token.ID))
	f.data = append(f.data, "会場タブレット", "私語")
	// An appeal against the caution, dismissed by the arbiter (issue 24
	// item 5): the ruling log links the case page, which links its document.
	ap, err := o.FileAppeal(ctx, arbiter, f.recorded, office.AppealInput{RulingID: caution.ID, FiledBy: "sente", StatementSente: "話していない",
		StatementGote: "話し声が聞こえた", StatementOthers: "記録係も聞いた", Body: office.AppealBodyArbiter})
	must(err)
	_, err = o.DecideAppeal(ctx, arbiter, f.recorded, ap.ID, office.AppealDecisionInput{Decision: office.AppealDismissed, Reasons: "記録係の証言による", Version: 1})
	must(err)
	f.data = append(f.data, "話していない", "話し声が聞こえた", "記録係も聞いた", "記録係の証言による")
	return f
}
