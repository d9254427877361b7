package teams_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"kisen/office"
	"kisen/office/teams"
	"kisen/pairing"
	"kisen/store"
	"kisen/store/storetest"
)

// affTeam registers a team of three new players with its affiliation.
func (f *fixture) affTeam(name, affiliation string) store.Team {
	f.t.Helper()
	in := teams.TeamInput{EventID: f.event.ID, Name: name, Affiliation: affiliation, AffiliationKind: teams.AffiliationClub}
	for _, id := range f.ranked("初段", "初段", "初段") {
		in.Members = append(in.Members, teams.MemberInput{PlayerID: id})
	}
	tm, err := f.tm.SaveTeam(f.ctx, f.admin, in)
	if err != nil {
		f.t.Fatalf("team %s: %v", name, err)
	}
	return tm
}

func pairKey(a, b int64) [2]int64 {
	if a > b {
		a, b = b, a
	}
	return [2]int64{a, b}
}

// checkDrawn judges a drawn round independently of the engine: every team
// in exactly one match or the bye, a bye only for an odd field and never a
// second one, no rematch, tables 1…n, and no two teams of one affiliation
// when avoidable says the field allows it.
func checkDrawn(t *testing.T, p teams.DrawPreview, field []store.Team, played map[[2]int64]bool, byeBefore map[int64]bool, avoidable bool) {
	t.Helper()
	seen := map[int64]int{}
	for i, m := range p.Matches {
		if m.Table != i+1 {
			t.Errorf("match %d at table %d", i+1, m.Table)
		}
		seen[m.A.ID]++
		seen[m.B.ID]++
		if played[pairKey(m.A.ID, m.B.ID)] {
			t.Errorf("rematch at table %d: %s – %s", m.Table, m.A.Name, m.B.Name)
		}
		if same := m.A.Affiliation == m.B.Affiliation; same != m.SameAffiliation || (avoidable && same) {
			t.Errorf("table %d: %s (%s) – %s (%s), marked %v", m.Table, m.A.Name, m.A.Affiliation, m.B.Name, m.B.Affiliation, m.SameAffiliation)
		}
	}
	if (p.Bye != nil) != (len(field)%2 == 1) {
		t.Errorf("bye %v for %d teams", p.Bye, len(field))
	}
	if p.Bye != nil {
		seen[p.Bye.ID]++
		if byeBefore[p.Bye.ID] {
			t.Errorf("%s has a second bye", p.Bye.Name)
		}
	}
	for _, tm := range field {
		if seen[tm.ID] != 1 {
			t.Errorf("%s drawn %d times", tm.Name, seen[tm.ID])
		}
	}
}

// playRound starts every match of round r once its deadline has passed and
// lets team A win every board, so every match is final.
func (f *fixture) playRound(r store.TeamRound) {
	f.t.Helper()
	f.clock.set(r.Deadline.Add(time.Minute))
	mv, err := f.tm.RoundMatches(f.ctx, f.admin, r.ID)
	if err != nil {
		f.t.Fatal(err)
	}
	for _, m := range mv.Matches {
		if _, err := f.tm.StartMatch(f.ctx, f.admin, m.Match.ID, m.Match.Version); err != nil {
			f.t.Fatal(err)
		}
	}
	mv, _ = f.tm.RoundMatches(f.ctx, f.admin, r.ID)
	for _, m := range mv.Matches {
		for _, b := range m.Boards {
			res := office.ResultSenteWin
			if !b.ASente {
				res = office.ResultGoteWin
			}
			if _, err := f.o.RecordResult(f.ctx, f.arbiter, b.GameID, office.ResultInput{Result: res, Reason: office.ReasonResignation}); err != nil {
				f.t.Fatal(err)
			}
		}
	}
}

// submitOrders hands in every drawn team's order (boards 1–3 in roster
// order); the bye team hands in none.
func (f *fixture) submitOrders(r store.TeamRound, field []store.Team, bye *store.Team) {
	f.t.Helper()
	for _, tm := range field {
		if bye != nil && bye.ID == tm.ID {
			continue
		}
		ids := []int64{f.memberOf(tm, 1), f.memberOf(tm, 2), f.memberOf(tm, 3)}
		if _, err := f.tm.SubmitOrder(f.ctx, f.arbiter, teams.OrderInput{RoundID: r.ID, TeamID: tm.ID, Players: ids}); err != nil {
			f.t.Fatal(err)
		}
	}
}

func countMatches(t *testing.T, s *store.Store, f *fixture) int64 {
	t.Helper()
	var n int64
	if err := s.DB(f.ctx).Model(&store.TeamMatch{}).Where("event_id = ?", f.event.ID).Count(&n).Error; err != nil {
		t.Fatal(err)
	}
	return n
}

// Issue 25 item 4 through the office: the director previews a team Swiss
// round and confirms it; others may not; a stale version or a changed draw
// is a conflict and writes nothing; the matches and the bye are stored in
// one go; a round drawn is not drawn again; the next round waits for every
// result; round 2 has no rematch and no second bye; the same-club rule
// holds where the field allows; the standings count the bye.
func TestTeamDraw_Issue25_SwissPreviewConfirmByeNoRematch(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s, pairing.TeamOrderFree, false)
		if err := f.o.SetEventStatus(f.ctx, f.admin, f.event.ID, office.StatusPublished); err != nil {
			t.Fatal(err)
		}
		// Five teams, two clubs of two and one alone: every round can keep
		// the clubs apart.
		field := []store.Team{f.affTeam("甲A", "甲クラブ"), f.affTeam("甲B", "甲クラブ"), f.affTeam("乙A", "乙クラブ"),
			f.affTeam("乙B", "乙クラブ"), f.affTeam("丙", "丙クラブ")}
		start := f.clock.Now()
		r1 := f.round(1, start.Add(time.Hour))
		r2 := f.round(2, start.Add(3*time.Hour))

		if _, err := f.tm.PreviewDraw(f.ctx, f.arbiter, r1.ID); !errors.Is(err, office.ErrForbidden) {
			t.Fatalf("an arbiter previews the draw: %v", err)
		}
		if _, err := f.tm.ConfirmDraw(f.ctx, f.outsider, teams.DrawInput{RoundID: r1.ID, Version: r1.Version}); err == nil {
			t.Fatal("an outsider confirms the draw")
		}
		p, err := f.tm.PreviewDraw(f.ctx, f.admin, r1.ID)
		if err != nil {
			t.Fatal(err)
		}
		checkDrawn(t, p, field, nil, nil, true)
		if again, _ := f.tm.PreviewDraw(f.ctx, f.admin, r1.ID); again.Fingerprint != p.Fingerprint {
			t.Fatalf("two previews differ: %s %s", again.Fingerprint, p.Fingerprint)
		}
		// Round 2 before round 1 is drawn: refused in words.
		if _, err := f.tm.PreviewDraw(f.ctx, f.admin, r2.ID); fieldCodes(err)[""] != "teams.err.draw_previous" {
			t.Fatalf("round 2 first: %v", err)
		}
		for _, in := range []teams.DrawInput{{RoundID: r1.ID, Version: p.Round.Version + 1, Fingerprint: p.Fingerprint},
			{RoundID: r1.ID, Version: p.Round.Version, Fingerprint: "0123"}} {
			if _, err := f.tm.ConfirmDraw(f.ctx, f.admin, in); !errors.Is(err, office.ErrConflict) {
				t.Fatalf("stale %+v: %v", in, err)
			}
		}
		if n := countMatches(t, s, f); n != 0 {
			t.Fatalf("%d matches after refused confirmations", n)
		}
		got, err := f.tm.ConfirmDraw(f.ctx, f.admin, teams.DrawInput{RoundID: r1.ID, Version: p.Round.Version, Fingerprint: p.Fingerprint})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.tm.ConfirmDraw(f.ctx, f.admin, teams.DrawInput{RoundID: r1.ID, Version: p.Round.Version, Fingerprint: p.Fingerprint}); !errors.Is(err, office.ErrConflict) {
			t.Fatalf("confirmed twice: %v", err)
		}
		if _, err := f.tm.PreviewDraw(f.ctx, f.admin, r1.ID); fieldCodes(err)[""] != "teams.err.draw_done" {
			t.Fatalf("a drawn round drawn again: %v", err)
		}
		// What was written is what was previewed.
		mv, err := f.tm.RoundMatches(f.ctx, f.admin, r1.ID)
		if err != nil || len(mv.Matches) != len(p.Matches) {
			t.Fatalf("matches written: %d, %v", len(mv.Matches), err)
		}
		played := map[[2]int64]bool{}
		for i, m := range mv.Matches {
			if m.Match.TableNo != p.Matches[i].Table || m.Match.TeamAID != p.Matches[i].A.ID || m.Match.TeamBID != p.Matches[i].B.ID {
				t.Fatalf("table %d written as %+v", p.Matches[i].Table, m.Match)
			}
			played[pairKey(m.Match.TeamAID, m.Match.TeamBID)] = true
		}
		bye, ok, err := f.tm.RoundBye(f.ctx, f.event.ID, r1.ID)
		if err != nil || !ok || got.Bye == nil || bye.ID != got.Bye.ID {
			t.Fatalf("bye stored: %+v %v %v", bye, ok, err)
		}
		other := p.Matches[0].A
		if _, err := f.tm.CreateMatch(f.ctx, f.admin, teams.MatchInput{RoundID: r1.ID, Table: 9, TeamA: other.ID, TeamB: bye.ID}); fieldCodes(err)["team_b"] != "teams.err.match_bye" {
			t.Fatalf("the bye team paired by hand: %v", err)
		}

		// The bye team hands in no order: the others' orders publish the
		// round before its deadline, and the bye team's is refused in words.
		if _, err := f.tm.SubmitOrder(f.ctx, f.arbiter, teams.OrderInput{RoundID: r1.ID, TeamID: bye.ID,
			Players: []int64{f.memberOf(bye, 1)}}); fieldCodes(err)[""] != "teams.err.order_bye" {
			t.Fatalf("the bye team's order: %v", err)
		}
		f.submitOrders(r1, field, got.Bye)
		if rv, err := f.tm.RoundOrders(f.ctx, f.outsider, r1.ID); err != nil || !rv.Published || len(rv.Orders) != 4 {
			t.Fatalf("round 1 not published by the four matched teams' orders: %v", err)
		}
		// Round 2 waits for round 1's results.
		if _, err := f.tm.PreviewDraw(f.ctx, f.admin, r2.ID); fieldCodes(err)[""] != "teams.err.draw_pending" {
			t.Fatalf("round 2 before round 1 is played: %v", err)
		}
		f.playRound(r1)
		sv, err := f.tm.Standings(f.ctx, f.outsider, f.event.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range sv.Lines {
			if sv.Teams[l.ID].ID == bye.ID && (l.Byes != 1 || l.MatchPoints != 2 || l.Played != 0) {
				t.Fatalf("the bye team's line: %+v", l)
			}
		}
		p2, err := f.tm.PreviewDraw(f.ctx, f.admin, r2.ID)
		if err != nil {
			t.Fatal(err)
		}
		checkDrawn(t, p2, field, played, map[int64]bool{bye.ID: true}, true)
		// Winners meet winners: the drawn points are the standings' own.
		for _, m := range p2.Matches {
			if m.APoints < m.BPoints {
				t.Errorf("table %d: team A has fewer points (%d < %d)", m.Table, m.APoints, m.BPoints)
			}
		}
		if _, err := f.tm.ConfirmDraw(f.ctx, f.admin, teams.DrawInput{RoundID: r2.ID, Version: p2.Round.Version, Fingerprint: p2.Fingerprint}); err != nil {
			t.Fatal(err)
		}
	})
}

// When the field leaves no other way, two teams of one club meet, and the
// preview says so; as few such matches as the field allows.
func TestTeamDraw_Issue25_SameClubOnlyWhenUnavoidable(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s, pairing.TeamOrderFree, false)
		field := []store.Team{f.affTeam("甲A", "甲クラブ"), f.affTeam("甲B", "甲クラブ"), f.affTeam("甲C", "甲クラブ"), f.affTeam("乙", "乙クラブ")}
		r := f.round(1, f.clock.Now().Add(time.Hour))
		p, err := f.tm.PreviewDraw(f.ctx, f.admin, r.ID)
		if err != nil {
			t.Fatal(err)
		}
		checkDrawn(t, p, field, nil, nil, false)
		same := 0
		for _, m := range p.Matches {
			if m.SameAffiliation {
				same++
			}
		}
		if same != 1 {
			t.Fatalf("%d same-club matches, want exactly 1: %+v", same, p.Matches)
		}
	})
}

// The organiser's match points and tie-break order: stored at the version
// seen, read by the standings (half points shown as such); an unknown or
// repeated tie-break, a point that is not a whole or half number or points
// out of order are refused in words naming the field, and nothing is
// written; only the director may change them.
func TestTeamScoring_Issue25_SettingsValidatedStoredAndUsed(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s, pairing.TeamOrderFree, false)
		_, _, sc, err := f.tm.EventScoring(f.ctx, f.admin, f.event.ID)
		if err != nil || sc.Version != 0 || sc.Points.Win != 4 || len(sc.Tiebreaks) != 6 {
			t.Fatalf("defaults: %+v %v", sc, err)
		}
		good := teams.ScoringInput{EventID: f.event.ID, Win: "1", Draw: "0.5", Loss: "0", Bye: "1", ByeBoardWins: "2",
			Tiebreaks: []string{"captain", "", "buchholz", "lot", "", ""}}
		if _, err := f.tm.UpdateScoring(f.ctx, f.arbiter, good); !errors.Is(err, office.ErrForbidden) {
			t.Fatalf("an arbiter sets the scoring: %v", err)
		}
		for _, c := range []struct {
			name  string
			edit  func(in *teams.ScoringInput)
			field string
			code  string
		}{
			{"unknown tie-break", func(in *teams.ScoringInput) { in.Tiebreaks = []string{"captain", "elo"} }, "tiebreak_2", "teams.err.tiebreak_unknown"},
			{"tie-break twice", func(in *teams.ScoringInput) { in.Tiebreaks = []string{"lot", "", "lot"} }, "tiebreak_3", "teams.err.tiebreak_twice"},
			{"not a half", func(in *teams.ScoringInput) { in.Draw = "0.3" }, "draw", "teams.err.points"},
			{"negative", func(in *teams.ScoringInput) { in.Loss = "-1" }, "loss", "teams.err.points"},
			{"draw above win", func(in *teams.ScoringInput) { in.Draw = "2" }, "win", "teams.err.points_order"},
			{"bye board wins beyond the boards", func(in *teams.ScoringInput) { in.ByeBoardWins = "4" }, "bye_board_wins", "teams.err.whole_number"},
		} {
			in := good
			c.edit(&in)
			if _, err := f.tm.UpdateScoring(f.ctx, f.admin, in); fieldCodes(err)[c.field] != c.code {
				t.Errorf("%s: %v (%v)", c.name, fieldCodes(err), err)
			}
		}
		if _, err := s.TeamScoringOf(f.ctx, f.event.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("a refused form wrote the scoring: %v", err)
		}
		saved, err := f.tm.UpdateScoring(f.ctx, f.admin, good)
		if err != nil {
			t.Fatal(err)
		}
		if saved.Version != 1 || !saved.Halves() || saved.Points != (pairing.TeamPoints{Win: 2, Draw: 1, Loss: 0, Bye: 2}) || saved.ByeBoardWins != 2 ||
			fmt.Sprint(saved.Tiebreaks) != "[captain buchholz lot]" {
			t.Fatalf("saved: %+v", saved)
		}
		if _, err := f.tm.UpdateScoring(f.ctx, f.admin, good); !errors.Is(err, office.ErrConflict) {
			t.Fatalf("stale scoring form: %v", err)
		}
		// The standings read them: a bye worth 1 (½ points counted as halves)
		// and two board wins, the tie-breaks in the chosen order.
		field := []store.Team{f.affTeam("甲", "甲"), f.affTeam("乙", "乙"), f.affTeam("丙", "丙")}
		r := f.round(1, f.clock.Now().Add(time.Hour))
		p, err := f.tm.PreviewDraw(f.ctx, f.admin, r.ID)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.tm.ConfirmDraw(f.ctx, f.admin, teams.DrawInput{RoundID: r.ID, Version: p.Round.Version, Fingerprint: p.Fingerprint}); err != nil {
			t.Fatal(err)
		}
		f.submitOrders(r, field, p.Bye)
		f.playRound(r)
		sv, err := f.tm.Standings(f.ctx, f.admin, f.event.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(sv.Lines) != 3 {
			t.Fatalf("lines: %+v", sv.Lines)
		}
		for _, l := range sv.Lines {
			if len(l.Tiebreaks) != 3 || l.Tiebreaks[0].Tiebreak != pairing.TeamTiebreakCaptain || l.Tiebreaks[2].Tiebreak != pairing.TeamTiebreakLot {
				t.Fatalf("tie-breaks of %s: %+v", l.ID, l.Tiebreaks)
			}
			switch id := sv.Teams[l.ID].ID; {
			case id == p.Bye.ID:
				if sv.Scoring.Shown(l.MatchPoints) != "1" || l.BoardWins != 2 || l.Byes != 1 {
					t.Errorf("bye line: %+v", l)
				}
			case id == p.Matches[0].A.ID: // won 3–0
				if sv.Scoring.Shown(l.MatchPoints) != "1" || l.BoardWins != 3 {
					t.Errorf("winner: %+v", l)
				}
			default:
				if sv.Scoring.Shown(l.MatchPoints) != "0" || l.Lost != 1 {
					t.Errorf("loser: %+v", l)
				}
			}
		}
	})
}
