package office_test

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"kisen/league"
	"kisen/office"
	"kisen/store"
	"kisen/store/storetest"
)

// leagueFixture: an administrator, a scheduler, a recorder and an outsider,
// a draft 順位戦 term, and n players; players[1] is players[0]'s disciple
// (師弟) since 2010.
type leagueFixture struct {
	*fixture
	admin, sched, recorder, outsider office.Actor
	event                            store.Event
	players                          []store.Player
}

func newLeagueFixture(t *testing.T, s *store.Store, n int) *leagueFixture {
	f := newFixture(t, s)
	l := &leagueFixture{fixture: f}
	_, l.admin = f.user("admin", "correct horse battery", true)
	_, l.sched = f.user("sched", "correct horse battery", false)
	_, l.recorder = f.user("recorder", "correct horse battery", false)
	_, l.outsider = f.user("outsider", "correct horse battery", false)
	e, err := f.o.CreateEvent(f.ctx, l.admin, office.EventInput{OrganiserID: f.organiser("{}").ID, Name: "第85期順位戦",
		Kind: office.EventJunisenTerm, StartDate: "2026-06-01", EndDate: "2027-03-31"})
	if err != nil {
		t.Fatal(err)
	}
	l.event = e
	for _, r := range []struct {
		a    office.Actor
		role string
	}{{l.sched, office.RoleScheduler}, {l.recorder, office.RoleRecorder}} {
		if err := f.o.GrantEventRole(f.ctx, l.admin, office.RoleGrant{EventID: e.ID, UserID: r.a.UserID, Role: r.role}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range n {
		num := fmt.Sprintf("%d", 300+i)
		p := store.Player{Number: &num, Name: fmt.Sprintf("棋士 %02d", i+1), Reading: "きし", Kind: store.PlayerProfessional,
			Class: store.PlayerClassC2, CreatedAt: f.clock.Now(), UpdatedAt: f.clock.Now()}
		if err := s.CreatePlayer(f.ctx, &p); err != nil {
			t.Fatal(err)
		}
		l.players = append(l.players, p)
	}
	m := l.players[0].ID
	if err := s.AddMasterPeriod(f.ctx, &store.PlayerMaster{DiscipleID: l.players[1].ID, MasterPlayerID: &m,
		FromDate: store.NewCivilDate(2010, 4, 1), CreatedAt: f.clock.Now(), UpdatedAt: f.clock.Now()}); err != nil {
		t.Fatal(err)
	}
	return l
}

func (l *leagueFixture) id(i int) string { return strconv.FormatInt(l.players[i].ID, 10) }

func (l *leagueFixture) members() string {
	var b strings.Builder
	for _, p := range l.players {
		b.WriteString(*p.Number + "\n")
	}
	return b.String()
}

func (l *leagueFixture) addClass(class string, games int) store.LeagueClass {
	l.t.Helper()
	c, err := l.o.AddLeagueClass(l.ctx, l.sched, office.LeagueClassInput{EventID: l.event.ID, Class: class, Members: l.members(), GamesPerPlayer: games, AllowanceMinutes: 360})
	if err != nil {
		l.t.Fatal(err)
	}
	return c
}

var leagueDates = []string{"2026-06-09", "2026-07-07", "2026-08-04", "2026-09-01", "2026-10-06"}

func (l *leagueFixture) schedule(c store.LeagueClass) league.Schedule {
	l.t.Helper()
	d, err := l.o.LeagueClass(l.ctx, l.sched, c.ID)
	if err != nil {
		l.t.Fatal(err)
	}
	return d.Schedule
}

// lastTermCSV: players 3–4 and 5–6 met last term (D-C2 forbids them now);
// player 7 rested.
func (l *leagueFixture) lastTermCSV() string {
	n := func(i int) string { return *l.players[i].Number }
	return "class,junni,player,round,opponent\n" +
		"C2,1," + n(2) + ",1," + n(3) + "\n" +
		"C2,2," + n(3) + ",1," + n(2) + "\n" +
		"C2,3," + n(4) + ",2," + l.players[5].Name + "\n" +
		"C2,4," + n(6) + ",2,\n"
}

func TestLeagueSchedule_D_A2_D_C2_EqualsTheLeagueDraw(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		l := newLeagueFixture(t, s, 11)
		if n, err := l.o.ImportLeagueHistory(l.ctx, l.sched, l.event.ID, 1, []byte(l.lastTermCSV())); err != nil || n != 2 {
			t.Fatalf("import: %d, %v", n, err)
		}
		c := l.addClass("C2", 4)
		for _, seed := range []uint64{1, 42, 20260401} {
			if _, err := l.o.GenerateSchedule(l.ctx, l.sched, office.ScheduleInput{ClassID: c.ID, Seed: strconv.FormatUint(seed, 10),
				DrawDate: "2026-05-01", RoundDates: leagueDates}); err != nil {
				t.Fatal(err)
			}
			got := l.schedule(c)
			// The draw `kisen draw league` makes from the same facts, written by
			// hand: ids are player ids, players[1]'s master is players[0].
			var players []league.Player
			for i := range l.players {
				p := league.Player{ID: l.id(i)}
				if i == 1 {
					p.Master = l.id(0)
				}
				players = append(players, p)
			}
			d, err := league.NewDraw(league.KindJunisen, league.ClassC2, seed, players)
			if err != nil {
				t.Fatal(err)
			}
			d.Settings.GamesPerPlayer = 4
			d.PreviousTerms = [][]league.Pair{{{l.id(2), l.id(3)}, {l.id(4), l.id(5)}}}
			d.PreviousFinalRound = []league.Pair{{l.id(4), l.id(5)}}
			for _, ds := range leagueDates {
				day, _ := time.Parse(time.DateOnly, ds)
				d.Dates = append(d.Dates, []time.Time{day})
			}
			want, _, err := league.Generate(d)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("seed %d: office schedule\n%v\nleague draw\n%v", seed, got, want)
			}
			for _, r := range got.Rounds {
				for _, g := range r.Games {
					pair := []string{g.Sente, g.Gote}
					slices.Sort(pair)
					for _, bad := range [][2]int{{0, 1}, {2, 3}, {4, 5}} {
						b := []string{l.id(bad[0]), l.id(bad[1])}
						slices.Sort(b)
						if slices.Equal(pair, b) {
							t.Fatalf("seed %d round %d: %v meet (D-A2 / D-C2)", seed, r.Number, pair)
						}
					}
				}
			}
		}
		// A seed left blank is picked and shown.
		c2, err := l.o.GenerateSchedule(l.ctx, l.sched, office.ScheduleInput{ClassID: c.ID})
		if err != nil || c2.DrawSeed == "" {
			t.Fatalf("generated seed %q, %v", c2.DrawSeed, err)
		}
	})
}

func TestLeagueHistoryImport_D_C1_AllOrNothing(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		l := newLeagueFixture(t, s, 6)
		bad := "class,junni,player,round,opponent\n" +
			"C2,1,300,1,301\n" +
			"C2,2,nobody,1,300\n" + // line 3: unknown player
			"C2,3,302,x,303\n" + // line 4: round not a number
			"C2,4,303,1,304\n" // line 5: 303 is not 304's opponent … fine on its own
		_, err := l.o.ImportLeagueHistory(l.ctx, l.sched, l.event.ID, 1, []byte(bad))
		var ve *office.ValidationError
		if !errors.As(err, &ve) {
			t.Fatalf("want a validation error, got %v", err)
		}
		lines := map[int]string{}
		for _, f := range ve.Fields {
			lines[f.Line] = f.Field
		}
		if lines[4] != "round" {
			t.Fatalf("line 4 round not reported: %v", ve.Fields)
		}
		h, _ := s.LeagueHistoryOf(l.ctx, l.event.ID)
		if len(h) != 0 {
			t.Fatalf("a bad file imported %d rows", len(h))
		}
		// The parse is fine but the players are not: both bad lines reported.
		bad2 := "class,junni,player,round,opponent\nC2,1,300,1,301\nC2,2,nobody,1,300\nC2,3,302,1,ghost\n"
		_, err = l.o.ImportLeagueHistory(l.ctx, l.sched, l.event.ID, 1, []byte(bad2))
		if !errors.As(err, &ve) || len(ve.Fields) != 2 || ve.Fields[0].Line != 3 || ve.Fields[1].Line != 4 {
			t.Fatalf("want lines 3 and 4 reported, got %v", err)
		}
		if h, _ := s.LeagueHistoryOf(l.ctx, l.event.ID); len(h) != 0 {
			t.Fatalf("a bad file imported %d rows", len(h))
		}
		good := "クラス,順位,棋士,回戦,相手\nC2,1,300,1,301\nC2,2,301,1,300\nC2,3,302,2,303\n"
		if n, err := l.o.ImportLeagueHistory(l.ctx, l.sched, l.event.ID, 1, []byte(good)); err != nil || n != 2 {
			t.Fatalf("good import: %d, %v", n, err)
		}
		if _, err := l.o.ImportLeagueHistory(l.ctx, l.outsider, l.event.ID, 1, []byte(good)); !errors.Is(err, office.ErrNotFound) { // a draft
			t.Fatalf("outsider import: %v", err)
		}
	})
}

// enterAll decides every open game: the player listed higher (smaller 順位)
// wins; first, when given, is entered as a redo before it is decided.
func (l *leagueFixture) enterAll(c store.LeagueClass, redoFirst bool) office.LeagueStandings {
	l.t.Helper()
	junni := map[int64]int{}
	for i, p := range l.players {
		junni[p.ID] = i
	}
	st, err := l.o.Standings(l.ctx, l.sched, c.ID)
	if err != nil {
		l.t.Fatal(err)
	}
	for i, g := range st.Games {
		if redoFirst && i == 0 {
			if err := l.o.EnterLeagueResult(l.ctx, l.recorder, office.LeagueResultInput{GameID: g.GameID, Result: office.ResultRedo}); err != nil {
				l.t.Fatal(err)
			}
		}
		last, _, _, err := l.o.DecidingGame(l.ctx, g.GameID)
		if err != nil {
			l.t.Fatal(err)
		}
		res := office.ResultSenteWin
		if junni[*last.GotePlayerID] < junni[*last.SentePlayerID] {
			res = office.ResultGoteWin
		}
		if err := l.o.EnterLeagueResult(l.ctx, l.sched, office.LeagueResultInput{GameID: last.ID, Result: res}); err != nil {
			l.t.Fatal(err)
		}
	}
	st, err = l.o.Standings(l.ctx, l.sched, c.ID)
	if err != nil {
		l.t.Fatal(err)
	}
	return st
}

func (l *leagueFixture) drawAndPublish(class string, games int) store.LeagueClass {
	l.t.Helper()
	c := l.addClass(class, games)
	if _, err := l.o.GenerateSchedule(l.ctx, l.sched, office.ScheduleInput{ClassID: c.ID, Seed: "7", DrawDate: "2026-05-01", RoundDates: leagueDates}); err != nil {
		l.t.Fatal(err)
	}
	if err := l.o.PublishSchedule(l.ctx, l.sched, c.ID); err != nil {
		l.t.Fatal(err)
	}
	return c
}

func TestLeagueStandings_D_R3_RedoChainCountsOnce(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		l := newLeagueFixture(t, s, 11)
		c := l.drawAndPublish("C2", 4)
		st := l.enterAll(c, true)
		games, _ := s.GamesOfEvent(l.ctx, l.event.ID)
		if len(games) != 23 {
			t.Fatalf("%d game rows, want 22 scheduled + 1 redo", len(games))
		}
		var redo store.Game
		for _, g := range games {
			if g.RedoOfID != nil {
				redo = g
			}
		}
		first, _ := s.GameByID(l.ctx, *redo.RedoOfID)
		if *redo.SentePlayerID != *first.GotePlayerID || *redo.GotePlayerID != *first.SentePlayerID {
			t.Fatal("D-R1: the redo swaps colours")
		}
		wins, losses := 0, 0
		for _, r := range st.Table.Rows {
			wins += r.Wins
			losses += r.Losses
			if r.Wins+r.Losses != 4 {
				t.Fatalf("%s played %d games, want 4", r.ID, r.Wins+r.Losses)
			}
		}
		if wins != 22 || losses != 22 || !st.Table.Final {
			t.Fatalf("%d wins, %d losses, final %v; want 22, 22, true", wins, losses, st.Table.Final)
		}
		// The higher-ranked player won every game, the redo included.
		for _, r := range st.Rows {
			for _, cell := range r.Cells {
				if cell.Rest {
					continue
				}
				higher := slices.IndexFunc(l.players, func(p store.Player) bool { return p.ID == r.PlayerID }) <
					slices.IndexFunc(l.players, func(p store.Player) bool { return p.ID == cell.Opponent })
				if (cell.Result == "win") != higher {
					t.Fatalf("player %d against %d: %q", r.PlayerID, cell.Opponent, cell.Result)
				}
			}
		}
		if err := l.o.EnterLeagueResult(l.ctx, l.sched, office.LeagueResultInput{GameID: st.Games[0].Current, Version: st.Games[0].Version, Result: office.ResultSenteWin}); !errors.Is(err, office.ErrConflict) {
			t.Fatalf("a decided game took another result: %v", err)
		}
	})
}

func TestLeagueRollOver_NextOrderPerDomain(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		l := newLeagueFixture(t, s, 11)
		c := l.drawAndPublish("C2", 4)
		if _, err := l.o.RollOver(l.ctx, l.sched, office.NextTermInput{EventID: l.event.ID, Name: "第86期", StartDate: "2027-06-01", EndDate: "2028-03-31"}); !errors.Is(err, office.ErrInvalid) {
			t.Fatalf("roll-over before the results: %v", err)
		}
		st := l.enterAll(c, false)
		next, err := l.o.RollOver(l.ctx, l.sched, office.NextTermInput{EventID: l.event.ID, Name: "第86期", StartDate: "2027-06-01", EndDate: "2028-03-31"})
		if err != nil {
			t.Fatal(err)
		}
		// Expected, from the records alone: order by wins, then losses, then
		// 順位; top 3 (and anyone unbeaten) go up to C1; of the rest the bottom
		// ⌊11/5⌋ = 2 get a 降級点 and go after the other stayers.
		type rec struct{ i, w, lo int }
		var recs []rec
		for _, r := range st.Rows {
			i := slices.IndexFunc(l.players, func(p store.Player) bool { return p.ID == r.PlayerID })
			w, lo := 0, 0
			for _, cell := range r.Cells {
				switch cell.Result {
				case "win":
					w++
				case "loss":
					lo++
				}
			}
			recs = append(recs, rec{i, w, lo})
		}
		slices.SortStableFunc(recs, func(a, b rec) int {
			if a.w != b.w {
				return b.w - a.w
			}
			if a.lo != b.lo {
				return a.lo - b.lo
			}
			return a.i - b.i
		})
		var up, stay []rec
		for k, r := range recs {
			if k < 3 || r.lo == 0 {
				up = append(up, r)
			} else {
				stay = append(stay, r)
			}
		}
		withPoint := stay[len(stay)-2:]
		stay = stay[:len(stay)-2]
		wantC2 := append(append([]rec{}, stay...), withPoint...)
		classes, _ := s.LeagueClasses(l.ctx, next.ID)
		got := map[string][]store.LeagueMember{}
		for _, cl := range classes {
			got[cl.Class], _ = s.LeagueMembers(l.ctx, cl.ID)
		}
		check := func(class string, want []rec, points int) {
			t.Helper()
			if len(got[class]) != len(want) {
				t.Fatalf("%s has %d members, want %d", class, len(got[class]), len(want))
			}
			for k, m := range got[class] {
				if m.PlayerID != l.players[want[k].i].ID || m.Junni != k+1 {
					t.Fatalf("%s 順位 %d is player %d, want %d", class, k+1, m.PlayerID, l.players[want[k].i].ID)
				}
				wantPts := 0
				if k >= len(want)-points {
					wantPts = 1
				}
				if m.Points != wantPts {
					t.Fatalf("%s 順位 %d carries %d 降級点, want %d", class, k+1, m.Points, wantPts)
				}
			}
		}
		check("C1", up, 0)
		check("C2", wantC2, 2)
		hist, _ := s.LeagueHistoryOf(l.ctx, next.ID)
		finals := 0
		for _, h := range hist {
			if h.Final {
				finals++
			}
		}
		sched := l.schedule(c)
		if wantFinals := len(sched.Rounds[len(sched.Rounds)-1].Games); len(hist) != 22 || finals != wantFinals {
			t.Fatalf("next term knows %d pairings (%d final), want 22 (%d)", len(hist), finals, wantFinals)
		}
		if !l.o.CanScheduleLeague(l.ctx, l.sched, next.ID) {
			t.Fatal("the scheduler's role was not carried to the next term")
		}
	})
}

func TestLeague_PermissionsAndDraftVisibility(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		l := newLeagueFixture(t, s, 6)
		in := office.LeagueClassInput{EventID: l.event.ID, Class: "C2", Members: l.members(), GamesPerPlayer: 2}
		// A draft: the public and outsiders are told it does not exist, a
		// recorder (who sees it) that the write is not theirs.
		for _, a := range []office.Actor{{}, l.outsider} {
			if _, err := l.o.AddLeagueClass(l.ctx, a, in); !errors.Is(err, office.ErrNotFound) {
				t.Fatalf("actor %d adds a class: %v", a.UserID, err)
			}
		}
		if _, err := l.o.AddLeagueClass(l.ctx, l.recorder, in); !errors.Is(err, office.ErrForbidden) {
			t.Fatalf("recorder adds a class: %v", err)
		}
		c, err := l.o.AddLeagueClass(l.ctx, l.sched, in)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.o.GenerateSchedule(l.ctx, l.recorder, office.ScheduleInput{ClassID: c.ID, Seed: "1"}); !errors.Is(err, office.ErrForbidden) {
			t.Fatalf("recorder draws: %v", err)
		}
		if _, err := l.o.LeagueClass(l.ctx, office.Actor{}, c.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("the public sees a draft term: %v", err)
		}
		if _, err := l.o.GenerateSchedule(l.ctx, l.sched, office.ScheduleInput{ClassID: c.ID, Seed: "1"}); err != nil {
			t.Fatal(err)
		}
		if err := l.o.PublishSchedule(l.ctx, l.outsider, c.ID); !errors.Is(err, office.ErrNotFound) {
			t.Fatalf("outsider publishes: %v", err)
		}
		// Bad member lines: every one reported, nothing written.
		_, err = l.o.AddLeagueClass(l.ctx, l.sched, office.LeagueClassInput{EventID: l.event.ID, Class: "C1", Members: "300\nnobody\n301,x\n300\n302\n303\n", GamesPerPlayer: 2})
		var ve *office.ValidationError
		if !errors.As(err, &ve) || len(ve.Fields) != 3 || ve.Fields[0].Line != 2 || ve.Fields[1].Line != 3 || ve.Fields[2].Line != 4 {
			t.Fatalf("member lines: %v", err)
		}
		if cs, _ := s.LeagueClasses(l.ctx, l.event.ID); len(cs) != 1 {
			t.Fatalf("%d classes after a refused add", len(cs))
		}
	})
}

func TestLeagueEdit_D_B2_ViolationNeedsOverrideReason(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		l := newLeagueFixture(t, s, 11)
		c := l.addClass("C2", 4)
		if _, err := l.o.GenerateSchedule(l.ctx, l.sched, office.ScheduleInput{ClassID: c.ID, Seed: "3", RoundDates: leagueDates}); err != nil {
			t.Fatal(err)
		}
		before := l.schedule(c)
		// Flipping a round-1 game breaks the split of the first two games
		// for both its players (practice-sente-gote-split, D-B2).
		edit := office.ScheduleEdit{ClassID: c.ID, Op: office.EditFlip, Round: 1, Game: 1}
		_, err := l.o.EditSchedule(l.ctx, l.sched, edit)
		var sv *office.ScheduleViolationsError
		if !errors.As(err, &sv) || len(sv.Violations) == 0 {
			t.Fatalf("want violations, got %v", err)
		}
		if fmt.Sprint(l.schedule(c)) != fmt.Sprint(before) {
			t.Fatal("a refused edit changed the schedule")
		}
		edit.Reason = "対局者の事情により"
		rep, err := l.o.EditSchedule(l.ctx, l.sched, edit)
		if err != nil || len(rep.Violations) == 0 {
			t.Fatalf("override: %v, %v", rep, err)
		}
		after := l.schedule(c)
		g0, g1 := before.Rounds[0].Games[0], after.Rounds[0].Games[0]
		if g0.Sente != g1.Gote || g0.Gote != g1.Sente {
			t.Fatal("flip did not swap sides")
		}
		log, _ := s.LeagueLog(l.ctx, c.ID)
		lastEntry := log[len(log)-1]
		if lastEntry.Action != office.EditFlip || lastEntry.Reason != edit.Reason || lastEntry.Violations == "[]" {
			t.Fatalf("log entry %+v", lastEntry)
		}
		// Swap two games' gote players: each player still plays once.
		if _, err := l.o.EditSchedule(l.ctx, l.sched, office.ScheduleEdit{ClassID: c.ID, Op: office.EditSwap, Round: 2, Game: 1, Other: 2, Reason: "入れ替え"}); err != nil {
			t.Fatal(err)
		}
		r2 := l.schedule(c).Rounds[1].Games
		if r2[0].Gote != before.Rounds[1].Games[1].Gote || r2[1].Gote != before.Rounds[1].Games[0].Gote {
			t.Fatal("swap did not exchange the gote players")
		}
		if _, err := l.o.EditSchedule(l.ctx, l.sched, office.ScheduleEdit{ClassID: c.ID, Op: office.EditMove, Round: 9, Game: 1}); !errors.Is(err, office.ErrInvalid) {
			t.Fatalf("bad round: %v", err)
		}
	})
}
