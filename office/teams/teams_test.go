package teams_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"kisen/office"
	"kisen/office/teams"
	"kisen/pairing"
	"kisen/store"
	"kisen/store/storetest"
)

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

// fixture is a draft team event of three boards and one reserve over one
// test database, an administrator, an arbiter of the event and an outsider.
type fixture struct {
	t        *testing.T
	ctx      context.Context
	s        *store.Store
	o        *office.Office
	tm       *teams.Teams
	clock    *clock
	admin    office.Actor
	arbiter  office.Actor
	outsider office.Actor
	event    store.Event
	n        int
}

func newFixture(t *testing.T, s *store.Store, rule string, majorityForfeit bool) *fixture {
	t.Helper()
	c := &clock{t: time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)}
	o := office.New(s, c.Now)
	f := &fixture{t: t, ctx: context.Background(), s: s, o: o, tm: teams.New(o), clock: c}
	now := c.Now()
	user := func(login string, admin bool) office.Actor {
		u := store.User{Login: login, DisplayName: login, PasswordHash: "x", IsAdmin: admin, CreatedAt: now, UpdatedAt: now}
		if err := s.CreateUser(f.ctx, &u); err != nil {
			t.Fatal(err)
		}
		return office.Actor{UserID: u.ID, Login: u.Login, Admin: admin}
	}
	f.admin, f.arbiter, f.outsider = user("director", true), user("arbiter", false), user("outsider", false)
	org := store.Organiser{Name: "学生将棋連盟", Kind: office.OrganiserAmateur, Settings: "{}", CreatedAt: now, UpdatedAt: now}
	if err := s.CreateOrganiser(f.ctx, &org); err != nil {
		t.Fatal(err)
	}
	e, err := f.tm.CreateTeamEvent(f.ctx, f.admin, office.EventInput{OrganiserID: org.ID, Name: "団体戦", StartDate: "2026-06-07", EndDate: "2026-06-07"},
		teams.SettingsInput{Boards: "3", Reserves: "1", OrderRule: rule, MajorityForfeit: majorityForfeit})
	if err != nil {
		t.Fatal(err)
	}
	f.event = e
	if err := o.GrantEventRole(f.ctx, f.admin, office.RoleGrant{EventID: e.ID, UserID: f.arbiter.UserID, Role: office.RoleArbiter}); err != nil {
		t.Fatal(err)
	}
	return f
}

// player registers a player of rank.
func (f *fixture) player(name, reading, rank string) store.Player {
	f.t.Helper()
	now := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	p := store.Player{Name: name, Reading: reading, Kind: store.PlayerAmateur, Rank: rank, CreatedAt: now, UpdatedAt: now}
	if err := f.s.CreatePlayer(f.ctx, &p); err != nil {
		f.t.Fatal(err)
	}
	return p
}

// team registers a team of registered players (ids) in that order.
func (f *fixture) team(name string, ids ...int64) store.Team {
	f.t.Helper()
	in := teams.TeamInput{EventID: f.event.ID, Name: name, Affiliation: name, AffiliationKind: teams.AffiliationSchool}
	for _, id := range ids {
		in.Members = append(in.Members, teams.MemberInput{PlayerID: id})
	}
	tm, err := f.tm.SaveTeam(f.ctx, f.admin, in)
	if err != nil {
		f.t.Fatalf("team %s: %v", name, err)
	}
	return tm
}

// ranked registers n players of the given ranks and returns their ids.
func (f *fixture) ranked(ranks ...string) []int64 {
	var out []int64
	for _, r := range ranks {
		f.n++
		out = append(out, f.player(fmt.Sprintf("選手%02d", f.n), fmt.Sprintf("せんしゅ%02d", f.n), r).ID)
	}
	return out
}

func (f *fixture) round(n int, deadline time.Time) store.TeamRound {
	f.t.Helper()
	r, err := f.tm.SaveRound(f.ctx, f.admin, teams.RoundInput{EventID: f.event.ID, Number: fmt.Sprint(n), Deadline: deadline.In(time.FixedZone("JST", 9*3600)).Format(teams.DeadlineLayout)})
	if err != nil {
		f.t.Fatal(err)
	}
	return r
}

func fieldCodes(err error) map[string]string {
	out := map[string]string{}
	var ve *office.ValidationError
	if errors.As(err, &ve) {
		for _, fe := range ve.Fields {
			key := fe.Field
			if fe.Line > 0 {
				key = fmt.Sprintf("%d:%s", fe.Line, fe.Field)
			}
			out[key] = fe.Code
		}
	}
	return out
}

// Issue 25 item 1: a roster from the form — a registered player by id, one
// matched by name and reading (the amateur day's folding), one new — and a
// player plays for one team per event (the office's message, and the
// database's constraint behind it).
func TestTeams_Issue25_RosterMatchCreateAndOneTeamPerEvent(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s, pairing.TeamOrderFree, false)
		a := f.player("山田 太郎", "やまだたろう", "三段")
		b := f.player("鈴木一郎", "すずきいちろう", "二段")
		in := teams.TeamInput{EventID: f.event.ID, Name: "東高校", Affiliation: "東高校", AffiliationKind: teams.AffiliationSchool, Members: []teams.MemberInput{
			{PlayerID: a.ID},
			{Name: "鈴木 一郎", Reading: "スズキイチロウ"}, // folded: the same as b
			{}, // an empty row is skipped
			{Name: "新人 花子", Reading: "しんじんはなこ", Rank: "1級"},
		}}
		p, err := f.tm.PreviewTeam(f.ctx, f.admin, in)
		if err != nil {
			t.Fatal(err)
		}
		if got := []string{p.Members[0].Action, p.Members[1].Action, p.Members[2].Action}; strings.Join(got, ",") != "chosen,match,create" {
			t.Fatalf("preview actions %v", got)
		}
		if p.Members[1].Player.ID != b.ID || p.Members[1].Rank != "二段" {
			t.Fatalf("match: %+v", p.Members[1])
		}
		tm, err := f.tm.SaveTeam(f.ctx, f.admin, in)
		if err != nil {
			t.Fatal(err)
		}
		v, err := f.tm.Roster(f.ctx, f.admin, f.event.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(v.Teams) != 1 || len(v.Teams[0].Members) != 3 {
			t.Fatalf("roster: %+v", v.Teams)
		}
		ms := v.Teams[0].Members
		if ms[0].PlayerID != a.ID || ms[1].PlayerID != b.ID || ms[2].Name != "新人 花子" || ms[2].Rank != "1級" || ms[2].Reserve {
			t.Fatalf("members: %+v", ms)
		}
		// A row keeping a's id but naming another player is read by its
		// name (the edit form keeps ids; the director typed over one).
		p2, err := f.tm.PreviewTeam(f.ctx, f.admin, teams.TeamInput{EventID: f.event.ID, TeamID: tm.ID, Version: tm.Version, Name: "東高校", AffiliationKind: "school",
			Members: []teams.MemberInput{{PlayerID: a.ID, Name: "交代 太郎", Reading: "こうたいたろう"}}})
		if err != nil || p2.Members[0].Action != teams.MemberCreate {
			t.Fatalf("typed-over row: %+v %v", p2.Members, err)
		}
		// The same player on a second team: refused, naming the first team.
		_, err = f.tm.SaveTeam(f.ctx, f.admin, teams.TeamInput{EventID: f.event.ID, Name: "西高校", AffiliationKind: "school", Members: []teams.MemberInput{{PlayerID: b.ID}}})
		if got := fieldCodes(err)["1:name"]; got != "teams.err.other_team" {
			t.Fatalf("second team: %v", err)
		}
		// The database refuses it too, whatever the office checks.
		other := store.Team{EventID: f.event.ID, Name: "南高校", CreatedAt: f.clock.Now(), UpdatedAt: f.clock.Now()}
		if err := s.CreateTeam(f.ctx, &other); err != nil {
			t.Fatal(err)
		}
		err = s.ReplaceTeamMembers(f.ctx, other.ID, []store.TeamMember{{EventID: f.event.ID, PlayerID: b.ID, Position: 1}})
		if !errors.Is(err, store.ErrConflict) {
			t.Fatalf("database let a player join two teams: %v", err)
		}
		// A roster longer than boards + reserves is refused on the row.
		ids := f.ranked("初段", "初段", "初段", "初段", "初段")
		in2 := teams.TeamInput{EventID: f.event.ID, Name: "北高校", AffiliationKind: "school"}
		for _, id := range ids {
			in2.Members = append(in2.Members, teams.MemberInput{PlayerID: id})
		}
		_, err = f.tm.SaveTeam(f.ctx, f.admin, in2)
		if got := fieldCodes(err)["5:name"]; got != "teams.err.roster_full" {
			t.Fatalf("roster of 5 for 3+1: %v", got)
		}
		// A stale team form is a conflict; the outsider is not found (draft).
		in.TeamID, in.Version = tm.ID, tm.Version+1
		if _, err := f.tm.SaveTeam(f.ctx, f.admin, in); !errors.Is(err, office.ErrConflict) {
			t.Fatalf("stale team form: %v", err)
		}
		if _, err := f.tm.Roster(f.ctx, f.outsider, f.event.ID); !errors.Is(err, office.ErrNotFound) {
			t.Fatalf("outsider reads a draft's roster: %v", err)
		}
		if _, err := f.tm.SaveTeam(f.ctx, f.arbiter, teams.TeamInput{EventID: f.event.ID, Name: "X", AffiliationKind: "other", Members: []teams.MemberInput{{PlayerID: ids[0]}}}); !errors.Is(err, office.ErrForbidden) {
			t.Fatalf("arbiter edits a roster: %v", err)
		}
	})
}

// Issue 25 item 1: a paste registers every team or none; each bad line is
// named with its field, and nothing is written.
func TestTeams_Issue25_CSVAllOrNothing(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s, pairing.TeamOrderFree, false)
		known := f.player("佐藤 健", "さとうけん", "四段")
		bad := "チーム,所属,種別,氏名,よみ,段級\n" +
			"東高校,東高校,学校,佐藤健,さとうけん,\n" +
			"東高校,,,新入 一,しんにゅういち,2段\n" +
			"西クラブ,西クラブ,サークル,田中 二郎,たなかじろう,初段\n" + // unknown kind
			"西クラブ,西クラブ,club,田中 三郎,,初段\n" + // no reading for a new player
			"南支部,南支部,支部,佐藤 健,さとうけん,\n" + // on 東高校 already
			"南支部,,,木村 四郎,きむらしろう,十段級\n" // a rank that is none
		_, err := f.tm.PreviewTeamsCSV(f.ctx, f.admin, teams.CSVInput{EventID: f.event.ID, Text: bad})
		got := fieldCodes(err)
		want := map[string]string{
			"4:affiliation_kind": "teams.csv.err.kind",
			"5:reading":          "teams.err.reading_needed",
			"6:name":             "teams.err.other_team",
			"7:rank":             "teams.err.rank",
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%s: got %q, want %q (all: %v)", k, got[k], v, got)
			}
		}
		if len(got) != len(want) {
			t.Errorf("problems %v, want exactly %v", got, want)
		}
		// Confirming the bad paste writes nothing.
		if _, err := f.tm.ConfirmTeamsCSV(f.ctx, f.admin, teams.CSVInput{EventID: f.event.ID, Text: bad, Fingerprint: "x"}); !errors.Is(err, office.ErrInvalid) {
			t.Fatalf("bad paste confirmed: %v", err)
		}
		if ts, _ := s.TeamsOfEvent(f.ctx, f.event.ID); len(ts) != 0 {
			t.Fatalf("bad paste wrote %d teams", len(ts))
		}
		good := "東高校,東高校,学校,佐藤健,さとうけん,\n" +
			"東高校,,,新入 一,しんにゅういち,2段\n" +
			"西クラブ,西クラブ,club,田中 二郎,たなかじろう,初段\n"
		p, err := f.tm.PreviewTeamsCSV(f.ctx, f.admin, teams.CSVInput{EventID: f.event.ID, Text: good})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Teams) != 2 || p.Match != 1 || p.Create != 2 || p.Teams[0].Members[0].Player.ID != known.ID {
			t.Fatalf("preview: %+v", p)
		}
		// A change between preview and confirmation (another 田中 二郎
		// registered) is a conflict, and nothing is written.
		f.player("田中 二郎", "たなかじろう", "初段")
		if _, err := f.tm.ConfirmTeamsCSV(f.ctx, f.admin, teams.CSVInput{EventID: f.event.ID, Text: good, Fingerprint: p.Fingerprint}); !errors.Is(err, office.ErrConflict) {
			t.Fatalf("changed preview confirmed: %v", err)
		}
		p, err = f.tm.PreviewTeamsCSV(f.ctx, f.admin, teams.CSVInput{EventID: f.event.ID, Text: good})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.tm.ConfirmTeamsCSV(f.ctx, f.admin, teams.CSVInput{EventID: f.event.ID, Text: good, Fingerprint: p.Fingerprint}); err != nil {
			t.Fatal(err)
		}
		v, err := f.tm.Roster(f.ctx, f.admin, f.event.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(v.Teams) != 2 || v.Teams[0].Name != "東高校" || len(v.Teams[0].Members) != 2 || v.Teams[0].Members[1].Rank != "二段" || v.Teams[0].AffiliationKind != teams.AffiliationSchool {
			t.Fatalf("registered: %+v", v.Teams)
		}
		// The same paste again: every line's team is taken now.
		_, err = f.tm.PreviewTeamsCSV(f.ctx, f.admin, teams.CSVInput{EventID: f.event.ID, Text: good})
		if got := fieldCodes(err); got["1:team"] != "teams.err.name_taken" || got["3:team"] != "teams.err.name_taken" {
			t.Fatalf("second paste: %v", got)
		}
	})
}

// Issue 25 item 2: by rank, a breach is refused naming the boards and the
// players; a reserve may play; an empty board is a forfeit and a team
// short of a majority forfeits the match when the event says so.
func TestTeams_Issue25_OrderRuleByRankAndForfeits(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s, pairing.TeamOrderByRank, true)
		if err := f.o.SetEventStatus(f.ctx, f.admin, f.event.ID, office.StatusPublished); err != nil {
			t.Fatal(err)
		}
		ids := f.ranked("四段", "三段", "初段", "二段")
		east := f.team("東高校", ids...)
		west := f.team("西高校", f.ranked("初段", "初段", "初段")...)
		r := f.round(1, f.clock.Now().Add(2*time.Hour))
		_, err := f.tm.SubmitOrder(f.ctx, f.arbiter, teams.OrderInput{RoundID: r.ID, TeamID: east.ID, Players: []int64{ids[2], ids[0], ids[1]}})
		var ve *office.ValidationError
		if !errors.As(err, &ve) || len(ve.Fields) != 2 {
			t.Fatalf("breach: %v", err)
		}
		fe := ve.Fields[0]
		if fe.Field != "board_1" || fe.Code != "teams.err.order_rank" || fe.Args["Other"] != 2 || fe.Args["Player"] != "選手03" || fe.Args["OtherPlayer"] != "選手01" {
			t.Fatalf("breach names: %+v", fe)
		}
		// The reserve (二段, registered fourth) on board 2 over 初段: fine;
		// board 3 empty: a forfeit, two of three is a majority.
		o, err := f.tm.SubmitOrder(f.ctx, f.arbiter, teams.OrderInput{RoundID: r.ID, TeamID: east.ID, Players: []int64{ids[0], ids[3]}})
		if err != nil {
			t.Fatal(err)
		}
		_, err = f.tm.SubmitOrder(f.ctx, f.arbiter, teams.OrderInput{RoundID: r.ID, TeamID: west.ID, Players: []int64{0, 0, f.memberOf(west, 1)}})
		if err != nil {
			t.Fatal(err)
		}
		v, err := f.tm.RoundOrders(f.ctx, office.Actor{}, r.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !v.Published || len(v.Orders) != 2 {
			t.Fatalf("both in: published %v, %d orders", v.Published, len(v.Orders))
		}
		e, w := v.Orders[0], v.Orders[1]
		if e.Team.ID != east.ID || e.Order.ID != o.ID || e.Boards[1].Name != "選手04" || !e.Boards[1].Reserve || fmt.Sprint(e.ForfeitBoards) != "[3]" || e.ShortOfMajority || e.MatchForfeit {
			t.Fatalf("east: %+v", e)
		}
		if fmt.Sprint(w.ForfeitBoards) != "[1 2]" || !w.ShortOfMajority || !w.MatchForfeit {
			t.Fatalf("west: %+v", w)
		}
	})
}

func (f *fixture) memberOf(tm store.Team, position int) int64 {
	f.t.Helper()
	ms, err := f.s.TeamMembersOfEvent(f.ctx, f.event.ID)
	if err != nil {
		f.t.Fatal(err)
	}
	for _, m := range ms {
		if m.TeamID == tm.ID && m.Position == position {
			return m.PlayerID
		}
	}
	f.t.Fatalf("no member %d of %s", position, tm.Name)
	return 0
}

// Issue 25 item 2: orders stay hidden from everyone but the staff until
// every team's is in or the deadline passes — a hidden order is not found,
// like a missing one — and are then published together; a write on a
// stale version is a conflict; once published a new order is a correction
// that needs a reason and supersedes (append-only).
func TestTeams_Issue25_OrdersHiddenUntilPublishedStaleAndCorrections(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s, pairing.TeamOrderFixed, false)
		if err := f.o.SetEventStatus(f.ctx, f.admin, f.event.ID, office.StatusPublished); err != nil {
			t.Fatal(err)
		}
		a, b, c := f.ranked("三段", "三段", "三段"), f.ranked("初段", "初段", "初段"), f.ranked("二段", "二段")
		east, west, south := f.team("東高校", a...), f.team("西高校", b...), f.team("南高校", c...)
		deadline := f.clock.Now().Add(time.Hour)
		r1, r2 := f.round(1, deadline), f.round(2, deadline.Add(24*time.Hour))
		public := office.Actor{}
		o1, err := f.tm.SubmitOrder(f.ctx, f.admin, teams.OrderInput{RoundID: r1.ID, TeamID: east.ID, Players: a})
		if err != nil {
			t.Fatal(err)
		}
		// Fixed order: 西高校 in another order than registered is refused.
		_, err = f.tm.SubmitOrder(f.ctx, f.admin, teams.OrderInput{RoundID: r1.ID, TeamID: west.ID, Players: []int64{b[1], b[0], b[2]}})
		if got := fieldCodes(err)["board_1"]; got != "teams.err.order_fixed" {
			t.Fatalf("fixed breach: %v", err)
		}
		if _, err := f.tm.SubmitOrder(f.ctx, f.admin, teams.OrderInput{RoundID: r1.ID, TeamID: west.ID, Players: b}); err != nil {
			t.Fatal(err)
		}
		// Two of three in: hidden. The public, a signed-in outsider and the
		// other side's reader get ErrNotFound for the order that exists
		// exactly as for the one that does not.
		for _, who := range []office.Actor{public, f.outsider} {
			v, err := f.tm.RoundOrders(f.ctx, who, r1.ID)
			if err != nil || v.Published || len(v.Orders) != 0 {
				t.Fatalf("hidden round shows %d orders (published %v, %v)", len(v.Orders), v.Published, err)
			}
			for _, tm := range []store.Team{east, south} {
				if _, _, err := f.tm.TeamOrder(f.ctx, who, r1.ID, tm.ID); !errors.Is(err, office.ErrNotFound) {
					t.Fatalf("hidden order of %s: %v", tm.Name, err)
				}
			}
		}
		// The staff see the orders in, and who is missing.
		v, err := f.tm.RoundOrders(f.ctx, f.arbiter, r1.ID)
		if err != nil || v.Published || v.Submitted != 2 || len(v.Orders) != 3 || !v.Orders[2].Missing {
			t.Fatalf("staff view: %+v %v", v, err)
		}
		if ov, _, err := f.tm.TeamOrder(f.ctx, f.arbiter, r1.ID, east.ID); err != nil || ov.Order.ID != o1.ID {
			t.Fatalf("staff reads a hidden order: %v", err)
		}
		// Before publication a team may hand in again, at the version seen;
		// an old version is a conflict.
		if _, err := f.tm.SubmitOrder(f.ctx, f.admin, teams.OrderInput{RoundID: r1.ID, TeamID: east.ID, Version: 0, Players: a}); !errors.Is(err, office.ErrConflict) {
			t.Fatalf("stale order: %v", err)
		}
		o1b, err := f.tm.SubmitOrder(f.ctx, f.admin, teams.OrderInput{RoundID: r1.ID, TeamID: east.ID, Version: o1.ID, Players: []int64{a[0], a[2]}})
		if err != nil {
			t.Fatal(err)
		}
		// The deadline passes with 南高校 missing: published together.
		f.clock.set(deadline)
		v, err = f.tm.RoundOrders(f.ctx, public, r1.ID)
		if err != nil || !v.Published || len(v.Orders) != 3 || !v.PublishedAt.Equal(deadline) {
			t.Fatalf("after the deadline: %+v %v", v, err)
		}
		if ov, _, err := f.tm.TeamOrder(f.ctx, public, r1.ID, east.ID); err != nil || ov.Order.ID != o1b.ID || ov.Boards[1].PlayerID != a[2] {
			t.Fatalf("published order: %+v %v", ov, err)
		}
		if _, _, err := f.tm.TeamOrder(f.ctx, public, r1.ID, south.ID); !errors.Is(err, office.ErrNotFound) {
			t.Fatalf("missing order after publication: %v", err)
		}
		if sv := v.Orders[2]; sv.Team.ID != south.ID || !sv.Missing || len(sv.ForfeitBoards) != 3 {
			t.Fatalf("missing team shown as: %+v", sv)
		}
		// Round 2 takes orders but has none yet: a team may still be added
		// then; once round 2 has an order in, no team is added (round 1's
		// and round 2's publication would otherwise be taken back).
		if _, err := f.tm.SubmitOrder(f.ctx, f.admin, teams.OrderInput{RoundID: r2.ID, TeamID: east.ID, Players: a}); err != nil {
			t.Fatal(err)
		}
		extra := f.ranked("初段")
		_, err = f.tm.SaveTeam(f.ctx, f.admin, teams.TeamInput{EventID: f.event.ID, Name: "北高校", AffiliationKind: "school", Members: []teams.MemberInput{{PlayerID: extra[0]}}})
		if fieldCodes(err)["name"] != "teams.err.orders_open" {
			t.Fatalf("a team added while orders are open: %v", err)
		}
		// Round 2 is still hidden.
		if v2, _ := f.tm.RoundOrders(f.ctx, public, r2.ID); v2.Published {
			t.Fatal("round 2 published with round 1")
		}
		// A late order is taken and marked late.
		late, err := f.tm.SubmitOrder(f.ctx, f.admin, teams.OrderInput{RoundID: r1.ID, TeamID: south.ID, Players: c})
		if err != nil || !late.Late {
			t.Fatalf("late order: %+v %v", late, err)
		}
		// A correction after publication needs a reason, then supersedes.
		_, err = f.tm.SubmitOrder(f.ctx, f.admin, teams.OrderInput{RoundID: r1.ID, TeamID: east.ID, Version: o1b.ID, Players: a})
		if got := fieldCodes(err)["reason"]; got != "teams.err.reason_needed" {
			t.Fatalf("correction without reason: %v", err)
		}
		fix, err := f.tm.SubmitOrder(f.ctx, f.admin, teams.OrderInput{RoundID: r1.ID, TeamID: east.ID, Version: o1b.ID, Players: a, Reason: "記入誤り"})
		if err != nil || fix.SupersedesID == nil || *fix.SupersedesID != o1b.ID {
			t.Fatalf("correction: %+v %v", fix, err)
		}
		ov, _, err := f.tm.TeamOrder(f.ctx, public, r1.ID, east.ID)
		if err != nil || ov.Order.ID != fix.ID || ov.Corrections != 1 {
			t.Fatalf("corrected order: %+v %v", ov, err)
		}
		// The superseded orders are still there, and the database refuses
		// to change them.
		orders, _, err := s.TeamOrdersOfEvent(f.ctx, f.event.ID)
		if err != nil || len(orders) != 6 {
			t.Fatalf("orders kept: %d %v", len(orders), err)
		}
		if err := s.DB(f.ctx).Exec("UPDATE team_orders SET reason = 'x' WHERE id = ?", o1.ID).Error; !errors.Is(store.AppendOnly(err), store.ErrAppendOnly) {
			t.Fatalf("an order was changed: %v", err)
		}
		// A deadline cannot move once published; round 2's can.
		if _, err := f.tm.SaveRound(f.ctx, f.admin, teams.RoundInput{EventID: f.event.ID, RoundID: r1.ID, Version: r1.Version, Deadline: "2026-06-08T10:00"}); fieldCodes(err)["deadline"] != "teams.err.deadline_published" {
			t.Fatalf("published deadline moved: %v", err)
		}
		if _, err := f.tm.SaveRound(f.ctx, f.admin, teams.RoundInput{EventID: f.event.ID, RoundID: r2.ID, Version: r2.Version + 1, Deadline: "2026-06-08T10:00"}); !errors.Is(err, office.ErrConflict) {
			t.Fatalf("stale round form: %v", err)
		}
		// An outsider may not submit: forbidden (the event is public).
		if _, err := f.tm.SubmitOrder(f.ctx, f.outsider, teams.OrderInput{RoundID: r2.ID, TeamID: east.ID, Players: a}); !errors.Is(err, office.ErrForbidden) {
			t.Fatalf("outsider submits: %v", err)
		}
	})
}

// Issue 25 item 2: the settings: the boards cannot change once an order is
// in; a stale settings form is a conflict.
func TestTeams_Issue25_SettingsVersionAndBoardsFixed(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s, pairing.TeamOrderFree, false)
		_, set, err := f.tm.EventSettings(f.ctx, f.admin, f.event.ID)
		if err != nil || set.Boards != 3 || set.Reserves != 1 || set.Majority() != 2 {
			t.Fatalf("settings: %+v %v", set, err)
		}
		in := teams.SettingsInput{EventID: f.event.ID, Version: set.Version, Boards: "5", Reserves: "2", OrderRule: pairing.TeamOrderByRank, MajorityForfeit: true}
		set2, err := f.tm.UpdateSettings(f.ctx, f.admin, in)
		if err != nil || set2.Boards != 5 || !set2.MajorityForfeit {
			t.Fatalf("update: %+v %v", set2, err)
		}
		if _, err := f.tm.UpdateSettings(f.ctx, f.admin, in); !errors.Is(err, office.ErrConflict) {
			t.Fatalf("stale settings: %v", err)
		}
		if _, err := f.tm.UpdateSettings(f.ctx, f.admin, teams.SettingsInput{EventID: f.event.ID, Version: set2.Version, Boards: "0", Reserves: "x", OrderRule: "any"}); len(fieldCodes(err)) != 3 {
			t.Fatalf("bad settings: %v", err)
		}
		ids := f.ranked("初段", "初段", "初段")
		tm := f.team("東高校", ids...)
		r := f.round(1, f.clock.Now().Add(time.Hour))
		if _, err := f.tm.SubmitOrder(f.ctx, f.admin, teams.OrderInput{RoundID: r.ID, TeamID: tm.ID, Players: ids}); err != nil {
			t.Fatal(err)
		}
		in.Version, in.Boards = set2.Version, "7"
		if _, err := f.tm.UpdateSettings(f.ctx, f.admin, in); fieldCodes(err)["boards"] != "teams.err.boards_fixed" {
			t.Fatalf("boards changed after an order: %v", err)
		}
	})
}
