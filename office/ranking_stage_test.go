package office_test

import (
	"errors"
	"slices"
	"strconv"
	"testing"

	"kisen/office"
	"kisen/office/officetest"
	"kisen/pairing"
	"kisen/store"
	"kisen/store/storetest"
)

// group2Of8 is a lower group's line of the table (D-G1) for 8 lines: the
// 優勝 goes to the 本戦 as 2組1位; 優勝, 準優勝 and the 昇級者決定戦's winner
// are promoted; the 決定戦 is fed by the 2回戦 losers (D-G2); the 1回戦
// losers play a 残留決定戦 until one is left, who is relegated (D-G3).
const group2Of8 = `{"group": 2,
 "places": [{"source": "winner", "slot": "2組1位"}],
 "promoted": [{"source": "winner"}, {"source": "runner_up"}, {"source": "playoff_winner", "index": 1}],
 "playoff": {"from_round": 2, "to_round": 2, "winners": 1},
 "survival": {"round": 1, "relegated": 1}}`

type rankingScene struct {
	k     *knockoutFixture
	st    store.KnockoutStage
	slots []string
}

// newRankingScene makes a published group stage of the first eight
// fixture players under rule.
func newRankingScene(t *testing.T, s *store.Store, rule string) *rankingScene {
	k := newKnockoutFixture(t, s)
	st, err := k.o.CreateStage(k.ctx, k.director, office.StageInput{EventID: k.event.ID, Name: "2組", Kind: "first_preliminary", RankingRule: rule})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range k.players[:8] {
		if _, err := k.o.AddEntrant(k.ctx, k.director, office.EntrantInput{StageID: st.ID, PlayerID: p.ID}); err != nil {
			t.Fatal(err)
		}
	}
	st = k.draw(st.ID, "24")
	if err := k.o.PublishStage(k.ctx, k.director, st.ID); err != nil {
		t.Fatal(err)
	}
	return &rankingScene{k: k, st: st, slots: slotsOf(t, st)}
}

func (r *rankingScene) view() office.StageBracket {
	r.k.t.Helper()
	eb, err := r.k.o.EventBrackets(r.k.ctx, r.k.director, r.k.event.ID)
	if err != nil {
		r.k.t.Fatal(err)
	}
	return eb.Stages[0]
}

// game is the bracket game id as the office shows it (main, 決定戦 or
// 残留決定戦).
func (r *rankingScene) game(id string) office.BracketGame {
	r.k.t.Helper()
	sb := r.view()
	all := slices.Concat(sb.Rounds...)
	if sb.Ranking != nil {
		all = append(all, slices.Concat(sb.Ranking.Playoff...)...)
		all = append(all, slices.Concat(sb.Ranking.Survival...)...)
	}
	for _, g := range all {
		if g.ID == id {
			return g
		}
	}
	r.k.t.Fatalf("no game %s", id)
	return office.BracketGame{}
}

// win enters the result of bracket game id through the bracket page's
// quick result, winner an entrant id.
func (r *rankingScene) win(id, winner string) {
	r.k.t.Helper()
	g := r.game(id)
	if g.GameID == 0 {
		r.k.t.Fatalf("%s has no game (status %s, players %v)", id, g.Status, g.Players)
	}
	w, _ := strconv.ParseInt(winner, 10, 64)
	if err := r.k.o.QuickResult(r.k.ctx, r.k.director, office.QuickResultInput{StageID: r.st.ID, BracketGame: id, WinnerID: w, Reason: "resignation", GameID: g.DecidingGameID, Version: g.Version}); err != nil {
		r.k.t.Fatalf("%s: %v", id, err)
	}
}

func samePair(got [2]string, a, b string) bool {
	return got[0] == a && got[1] == b || got[0] == b && got[1] == a
}

func sorted(xs ...string) []string {
	out := slices.Clone(xs)
	slices.Sort(out)
	return out
}

// TestRankingGroups_D_G2_G3_G4_GroupStagePlaysItsPlayoffs runs a group of 8
// through the office with quick results: the upper line of the drawn
// bracket wins every main game. The 決定戦 and 残留決定戦 games are created
// as their players become known, with the players the rules name (derived
// here from the slots, D-G2, D-G3), and their results give the outcome
// read back through the bracket view (D-G4).
func TestRankingGroups_D_G2_G3_G4_GroupStagePlaysItsPlayoffs(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		r := newRankingScene(t, s, group2Of8)
		sl := r.slots
		// ランキング戦 1回戦: lines 0, 2, 4, 6 win.
		for i := range 4 {
			r.win("R1-G"+strconv.Itoa(i+1), sl[2*i])
		}
		// The 残留決定戦 of the 1回戦 losers is ready now, in bracket order.
		sb := r.view()
		if sb.Ranking == nil || len(sb.Ranking.Survival) != 2 || len(sb.Ranking.Survival[0]) != 2 {
			t.Fatalf("survival bracket %+v", sb.Ranking)
		}
		if g := r.game("S-R1-G1"); g.GameID == 0 || !samePair(g.Players, sl[1], sl[3]) {
			t.Fatalf("S-R1-G1 %v game %d, want %s and %s", g.Players, g.GameID, sl[1], sl[3])
		}
		if g := r.game("S-R1-G2"); g.GameID == 0 || !samePair(g.Players, sl[5], sl[7]) {
			t.Fatalf("S-R1-G2 %v", g.Players)
		}
		if g := r.game("P-R1-G1"); g.GameID != 0 || g.Status == pairing.StatusReady {
			t.Fatalf("the 決定戦 is ready before the 2回戦: %+v", g)
		}
		// 2回戦: lines 0 and 4 win; their losers 2 and 6 meet in the 決定戦.
		r.win("R2-G1", sl[0])
		r.win("R2-G2", sl[4])
		if g := r.game("P-R1-G1"); g.GameID == 0 || !samePair(g.Players, sl[2], sl[6]) {
			t.Fatalf("P-R1-G1 %v game %d, want %s and %s", g.Players, g.GameID, sl[2], sl[6])
		}
		r.win("R3-G1", sl[0])
		r.win("P-R1-G1", sl[6])
		// 残留決定戦: the lower lines win round 1; its losers meet again.
		r.win("S-R1-G1", sl[3])
		r.win("S-R1-G2", sl[7])
		if g := r.game("S-R2-G1"); g.GameID == 0 || !samePair(g.Players, sl[1], sl[5]) {
			t.Fatalf("S-R2-G1 %v game %d, want %s and %s", g.Players, g.GameID, sl[1], sl[5])
		}
		if sb := r.view(); sb.Finished {
			t.Fatal("the group is finished before its 残留決定戦")
		}
		r.win("S-R2-G1", sl[1])
		sb = r.view()
		out := sb.Ranking.Outcome
		if !sb.Finished || !out.Finished {
			t.Fatalf("group not finished: %+v", out)
		}
		if !slices.Equal(sorted(out.Promoted...), sorted(sl[0], sl[4], sl[6])) {
			t.Fatalf("promoted %v, want the 優勝 %s, 準優勝 %s and 決定戦 winner %s", out.Promoted, sl[0], sl[4], sl[6])
		}
		if !slices.Equal(out.Relegated, []string{sl[5]}) {
			t.Fatalf("relegated %v, want %s (lost both 残留決定戦 games)", out.Relegated, sl[5])
		}
		if !slices.Equal(sorted(out.Stays...), sorted(sl[1], sl[2], sl[3], sl[7])) {
			t.Fatalf("stays %v", out.Stays)
		}
		if len(out.Places) != 1 || out.Places[0].Slot != "2組1位" || out.Places[0].Player != sl[0] {
			t.Fatalf("本戦 places %+v", out.Places)
		}
		// Every game played is one created game: 7 main, 1 決定戦, 3 残留決定戦.
		kgs, err := s.KnockoutGamesOfStage(r.k.ctx, r.st.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(kgs) != 11 {
			t.Fatalf("%d bracket games, want 11", len(kgs))
		}
	})
}

// TestRankingGroups_D_G2_CorrectionRemakesPlayoffGame: a corrected 2回戦
// result changes who plays the 決定戦; the correction preview names the
// 決定戦 game with its new players, the save without consent is refused,
// and with consent the old game is void and a new one made for the new
// players.
func TestRankingGroups_D_G2_CorrectionRemakesPlayoffGame(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		r := newRankingScene(t, s, group2Of8)
		sl := r.slots
		for i := range 4 {
			r.win("R1-G"+strconv.Itoa(i+1), sl[2*i])
		}
		r.win("R2-G1", sl[0])
		r.win("R2-G2", sl[4])
		old := r.game("P-R1-G1")
		if !samePair(old.Players, sl[2], sl[6]) {
			t.Fatalf("P-R1-G1 %v", old.Players)
		}
		// R2-G1 was won by line 2, not 0.
		g2 := r.game("R2-G1")
		dg, err := s.GameByID(r.k.ctx, g2.DecidingGameID)
		if err != nil {
			t.Fatal(err)
		}
		in := office.ResultInput{Result: office.ResultSenteWin, Reason: "resignation", Note: "記入誤り", Version: g2.Version}
		if strconv.FormatInt(*dg.GotePlayerID, 10) == sl[2] {
			in.Result = office.ResultGoteWin
		}
		if _, err := r.k.o.RecordResult(r.k.ctx, r.k.admin, dg.ID, in); !errors.As(err, new(*office.CorrectionNeeded)) {
			t.Fatalf("without consent: %v", err)
		}
		affected, err := r.k.o.PreviewCorrection(r.k.ctx, r.k.admin, office.CorrectionChange{GameID: dg.ID, Result: &in})
		if err != nil {
			t.Fatal(err)
		}
		var found bool
		for _, a := range affected {
			if a.BracketGame == "P-R1-G1" {
				found = true
				after := [2]string{strconv.FormatInt(a.After[0], 10), strconv.FormatInt(a.After[1], 10)}
				if a.GameID != old.GameID || !samePair(after, sl[0], sl[6]) {
					t.Fatalf("affected 決定戦 %+v, want game %d going to %s and %s", a, old.GameID, sl[0], sl[6])
				}
			}
		}
		if !found {
			t.Fatalf("the preview does not name the 決定戦: %+v", affected)
		}
		ctx := office.WithCorrection(r.k.ctx, r.k.admin, office.CorrectionConsent{Reason: "記入誤り", GameID: dg.ID, Void: true})
		if _, err := r.k.o.RecordResult(ctx, r.k.admin, dg.ID, in); err != nil {
			t.Fatal(err)
		}
		if _, void, _ := s.GameVoidOf(r.k.ctx, old.GameID); !void {
			t.Fatal("the old 決定戦 game is not void")
		}
		now := r.game("P-R1-G1")
		if now.GameID == 0 || now.GameID == old.GameID || !samePair(now.Players, sl[0], sl[6]) {
			t.Fatalf("remade 決定戦 %v game %d (old %d), want %s and %s", now.Players, now.GameID, old.GameID, sl[0], sl[6])
		}
		g, err := s.GameByID(r.k.ctx, now.GameID)
		if err != nil {
			t.Fatal(err)
		}
		seats := [2]string{strconv.FormatInt(*g.SentePlayerID, 10), strconv.FormatInt(*g.GotePlayerID, 10)}
		if !samePair(seats, sl[0], sl[6]) {
			t.Fatalf("the new game seats %v", seats)
		}
		// The 残留決定戦 games did not change and were kept.
		for _, a := range affected {
			if a.BracketGame[0] == 'S' {
				t.Fatalf("a 残留決定戦 game was affected: %+v", a)
			}
		}
	})
}

// TestRankingGroups_D_G1_StageTableLineRefusedInWords: a table line that
// is no JSON, one on a stage that sends qualifiers on, and one that does
// not fit the drawn bracket are refused with a message code (said in the
// reader's words by the catalogues), never saved or drawn half-way.
func TestRankingGroups_D_G1_StageTableLineRefusedInWords(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		k := newKnockoutFixture(t, s)
		_, err := k.o.CreateStage(k.ctx, k.director, office.StageInput{EventID: k.event.ID, Name: "2組", Kind: "first_preliminary", RankingRule: `{"group": 2, "places": [`})
		if c := officetest.FieldCodes(err)["ranking_rule"]; c != "knockout.err.ranking_rule" {
			t.Fatalf("broken JSON: %v (%q)", err, c)
		}
		_, err = k.o.CreateStage(k.ctx, k.director, office.StageInput{EventID: k.event.ID, Name: "2組", Kind: "first_preliminary", Qualifiers: 2, RankingRule: group2Of8})
		if c := officetest.FieldCodes(err)["ranking_rule"]; c != "knockout.err.ranking_rule_stage" {
			t.Fatalf("qualifiers: %v (%q)", err, c)
		}
		if sts, err := s.StagesOfEvent(k.ctx, k.event.ID); err != nil || len(sts) != 0 {
			t.Fatalf("a refused stage was saved: %v %v", sts, err)
		}
		// A 決定戦 fed by the 決勝's losers does not fit 8 lines (3 rounds).
		bad := `{"group": 2, "places": [], "promoted": [], "playoff": {"from_round": 3, "to_round": 3, "winners": 1}}`
		st, err := k.o.CreateStage(k.ctx, k.director, office.StageInput{EventID: k.event.ID, Name: "2組", Kind: "first_preliminary", RankingRule: bad})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range k.players[:8] {
			if _, err := k.o.AddEntrant(k.ctx, k.director, office.EntrantInput{StageID: st.ID, PlayerID: p.ID}); err != nil {
				t.Fatal(err)
			}
		}
		_, err = k.o.DrawStage(k.ctx, k.director, office.DrawInput{StageID: st.ID, Seed: "24", DrawDate: drawDay})
		if c := officetest.FieldCodes(err)[""]; c != "names.err.ranking.ranking_playoff" {
			t.Fatalf("draw of a misfit line: %v (%q)", err, c)
		}
		if got, err := s.StageByID(k.ctx, st.ID); err != nil || got.Status != office.StageSetup {
			t.Fatalf("the stage was drawn anyway: %q %v", got.Status, err)
		}
	})
}

// playUpperLine plays the whole group: the upper line of the drawn bracket
// wins every main game and every 決定戦 and 残留決定戦 game.
func (r *rankingScene) playUpperLine() {
	r.k.t.Helper()
	for range 20 {
		sb := r.view()
		all := slices.Concat(sb.Rounds...)
		all = append(all, slices.Concat(sb.Ranking.Playoff...)...)
		all = append(all, slices.Concat(sb.Ranking.Survival...)...)
		played := false
		for _, g := range all {
			if g.GameID != 0 && g.Result == "" {
				r.win(g.ID, g.Players[0])
				played = true
			}
		}
		if !played {
			return
		}
	}
}

// TestRankingGroups_D_G4_MainEventSeatedFromGroups: the 本戦 stage's
// entrants come from the groups' places at the seats the organiser's 本戦
// table names; before the group has finished, with a seat no group fills,
// or with a table that cannot be read, nothing is entered and the refusal
// is a message code.
func TestRankingGroups_D_G4_MainEventSeatedFromGroups(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		r := newRankingScene(t, s, group2Of8)
		k := r.k
		main, err := k.o.CreateStage(k.ctx, k.director, office.StageInput{EventID: k.event.ID, Name: "本戦", Kind: string(pairing.MainEvent)})
		if err != nil {
			t.Fatal(err)
		}
		seats := `[{"slot": "2組1位", "seed": 1, "enter_round": 2}]`
		entrants := func() []store.KnockoutEntrant {
			es, err := s.EntrantsOfStage(k.ctx, main.ID)
			if err != nil {
				t.Fatal(err)
			}
			return es
		}
		err = k.o.SeatMainEvent(k.ctx, k.director, main.ID, seats)
		if c := officetest.FieldCodes(err)["main_seats"]; c != "names.err.ranking.ranking_unfinished" || len(entrants()) != 0 {
			t.Fatalf("before the group finished: %v (%q)", err, c)
		}
		r.playUpperLine()
		if sb := r.view(); !sb.Finished {
			t.Fatalf("group not finished after every game: %+v", sb.Ranking.Outcome)
		}
		for _, bad := range []struct{ seats, code string }{
			{`[{"slot": "2組1位", "seed": 1}, {"slot": "1組1位", "seed": 2}]`, "names.err.ranking.ranking_seat"},
			{`[{"slot": "2組1位", "seat": 1}]`, "knockout.err.main_seats"},
			{`[{"slot": "2組1位", "enter_round": 2}]`, "knockout.err.main_seats"},
		} {
			err := k.o.SeatMainEvent(k.ctx, k.director, main.ID, bad.seats)
			if c := officetest.FieldCodes(err)["main_seats"]; c != bad.code || len(entrants()) != 0 {
				t.Fatalf("%s: %v (%q, want %q)", bad.seats, err, c, bad.code)
			}
		}
		if err := k.o.SeatMainEvent(k.ctx, k.outsider, main.ID, seats); err == nil {
			t.Fatal("an outsider seated the 本戦")
		}
		if err := k.o.SeatMainEvent(k.ctx, k.director, main.ID, seats); err != nil {
			t.Fatal(err)
		}
		// The 優勝 of the group is the main bracket's last winner, read
		// here from the games, not from the outcome.
		final := r.game("R3-G1")
		es := entrants()
		if len(es) != 1 || strconv.FormatInt(es[0].PlayerID, 10) != final.Winner || es[0].Seed != 1 || es[0].EnterRound != 2 {
			t.Fatalf("本戦 entrants %+v, want %s seeded 1 from round 2", es, final.Winner)
		}
		if final.Winner != r.slots[0] {
			t.Fatalf("the upper line did not win the final: %s", final.Winner)
		}
		// Seating twice enters nobody twice.
		err = k.o.SeatMainEvent(k.ctx, k.director, main.ID, seats)
		if c := officetest.FieldCodes(err)["main_seats"]; c != "knockout.err.already_entered" || len(entrants()) != 1 {
			t.Fatalf("seated twice: %v (%q)", err, c)
		}
	})
}

// TestRankingGroups_D_G5_RollOverAfterPreview: two groups of 8 (1組
// relegates the two losers of its 残留決定戦, 2組 promotes its 優勝 and 準優勝)
// are played; the next term is refused while a group still plays, its
// preview moves every player as the rules say (checked here from the games
// played), a new entrant joins 2組, the confirmation with a stale
// fingerprint makes nothing, and with the preview's fingerprint makes the
// new event with both group stages and their members.
func TestRankingGroups_D_G5_RollOverAfterPreview(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		k := newKnockoutFixture(t, s)
		var extra []store.Player
		for i := range 6 {
			p, err := k.o.CreatePlayer(k.ctx, k.admin, office.PlayerInput{Name: "新人 " + strconv.Itoa(i+1), Reading: "しんじん " + kanaNames[i], Kind: "professional", Rank: "四段"})
			if err != nil {
				t.Fatal(err)
			}
			extra = append(extra, p)
		}
		players := append(slices.Clone(k.players), extra[:4]...)
		rules := []string{
			`{"group": 1, "places": [{"source": "winner", "slot": "1組1位"}], "promoted": [], "survival": {"round": 1, "relegated": 2}}`,
			`{"group": 2, "places": [{"source": "winner", "slot": "2組1位"}], "promoted": [{"source": "winner"}, {"source": "runner_up"}]}`,
		}
		var scenes []*rankingScene
		for g, rule := range rules {
			st, err := k.o.CreateStage(k.ctx, k.director, office.StageInput{EventID: k.event.ID, Name: strconv.Itoa(g+1) + "組", Kind: "first_preliminary", RankingRule: rule})
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range players[8*g : 8*g+8] {
				if _, err := k.o.AddEntrant(k.ctx, k.director, office.EntrantInput{StageID: st.ID, PlayerID: p.ID}); err != nil {
					t.Fatal(err)
				}
			}
			st = k.draw(st.ID, strconv.Itoa(30+g))
			if err := k.o.PublishStage(k.ctx, k.director, st.ID); err != nil {
				t.Fatal(err)
			}
			scenes = append(scenes, &rankingScene{k: k, st: st, slots: slotsOf(t, st)})
		}
		newcomer := extra[4].ID
		_, err := k.o.PreviewRankingTerm(k.ctx, k.admin, k.event.ID, []int64{newcomer})
		if c := officetest.FieldCodes(err)["event"]; c != "names.err.ranking.ranking_unfinished" {
			t.Fatalf("preview while the groups play: %v (%q)", err, c)
		}
		// view/game read the event's stages by index: each scene its own.
		stageOf := func(r *rankingScene) office.StageBracket {
			eb, err := k.o.EventBrackets(k.ctx, k.director, k.event.ID)
			if err != nil {
				t.Fatal(err)
			}
			for _, sb := range eb.Stages {
				if sb.Stage.ID == r.st.ID {
					return sb
				}
			}
			t.Fatal("stage gone")
			return office.StageBracket{}
		}
		for _, r := range scenes {
			for range 10 {
				sb := stageOf(r)
				all := slices.Concat(sb.Rounds...)
				all = append(all, slices.Concat(sb.Ranking.Survival...)...)
				played := false
				for _, g := range all {
					if g.GameID != 0 && g.Result == "" {
						w, _ := strconv.ParseInt(g.Players[0], 10, 64)
						if err := k.o.QuickResult(k.ctx, k.director, office.QuickResultInput{StageID: r.st.ID, BracketGame: g.ID, WinnerID: w, Reason: "resignation", GameID: g.DecidingGameID, Version: g.Version}); err != nil {
							t.Fatal(err)
						}
						played = true
					}
				}
				if !played {
					break
				}
			}
		}
		// Expected from the games: 1組's relegated are its 残留決定戦's
		// losers; 2組's promoted are its final's two players.
		want := map[string]int{} // entrant id → next group
		for g, r := range scenes {
			sb := stageOf(r)
			for _, id := range r.slots {
				want[id] = g + 1
			}
			if g == 0 {
				for _, sg := range sb.Ranking.Survival[0] {
					loser := sg.Players[0]
					if sg.Winner == loser {
						loser = sg.Players[1]
					}
					want[loser] = 2
				}
			} else {
				for _, id := range sb.Rounds[len(sb.Rounds)-1][0].Players {
					want[id] = 1
				}
			}
		}
		want[strconv.FormatInt(newcomer, 10)] = 2
		term, err := k.o.PreviewRankingTerm(k.ctx, k.admin, k.event.ID, []int64{newcomer})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]int{}
		for _, g := range term.Groups {
			for _, p := range g.Members {
				id := strconv.FormatInt(p, 10)
				if _, twice := got[id]; twice {
					t.Fatalf("%s in two groups", id)
				}
				got[id] = g.Group
			}
		}
		if len(got) != len(want) {
			t.Fatalf("next term has %d players, want %d", len(got), len(want))
		}
		for id, g := range want {
			if got[id] != g {
				t.Fatalf("player %s in group %d, want %d", id, got[id], g)
			}
		}
		if len(term.Moves) != 17 {
			t.Fatalf("%d moves, want 17", len(term.Moves))
		}
		if _, err := k.o.PreviewRankingTerm(k.ctx, k.admin, k.event.ID, []int64{players[0].ID}); officetest.FieldCodes(err)["new_entrants"] != "names.err.ranking.ranking_member" {
			t.Fatalf("a member as a new entrant: %v", err)
		}
		if _, err := k.o.PreviewRankingTerm(k.ctx, k.director, k.event.ID, nil); !errors.Is(err, office.ErrNotFound) {
			t.Fatalf("a director previewed a new event: %v", err)
		}
		in := office.RankingTermInput{Event: office.EventInput{OrganiserID: k.event.OrganiserID, Name: "次期", StartDate: "2027-01-01", EndDate: "2027-12-31"}, NewEntrants: []int64{newcomer}, Fingerprint: "stale"}
		before, err := k.o.Events(k.ctx, k.admin)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := k.o.RollOverRanking(k.ctx, k.admin, k.event.ID, in); !errors.Is(err, office.ErrConflict) {
			t.Fatalf("stale fingerprint: %v", err)
		}
		if after, _ := k.o.Events(k.ctx, k.admin); len(after) != len(before) {
			t.Fatal("a refused roll-over made an event")
		}
		in.Fingerprint = term.Fingerprint
		ev, err := k.o.RollOverRanking(k.ctx, k.admin, k.event.ID, in)
		if err != nil {
			t.Fatal(err)
		}
		sts, err := s.StagesOfEvent(k.ctx, ev.ID)
		if err != nil || len(sts) != 2 {
			t.Fatalf("new stages %v %v", sts, err)
		}
		for g, st := range sts {
			if st.Name != strconv.Itoa(g+1)+"組" || st.RankingRule != rules[g] || st.Status != office.StageSetup {
				t.Fatalf("new stage %d: %q %q %q", g+1, st.Name, st.RankingRule, st.Status)
			}
			es, err := s.EntrantsOfStage(k.ctx, st.ID)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, e := range es {
				if want[strconv.FormatInt(e.PlayerID, 10)] != g+1 {
					t.Fatalf("player %d entered in group %d", e.PlayerID, g+1)
				}
				n++
			}
			wantN := 0
			for _, wg := range want {
				if wg == g+1 {
					wantN++
				}
			}
			if n != wantN {
				t.Fatalf("group %d has %d entrants, want %d", g+1, n, wantN)
			}
		}
	})
}

// TestRankingGroups_D_G4_WithdrawalInSurvival: a 1回戦 loser who withdraws
// (棄権) after their 残留決定戦 game was made loses it and every later one
// by walkover: the made game is void (the withdrawal's correction), no
// game is made for the walkover, and the player is relegated.
func TestRankingGroups_D_G4_WithdrawalInSurvival(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		r := newRankingScene(t, s, group2Of8)
		sl := r.slots
		for i := range 4 {
			r.win("R1-G"+strconv.Itoa(i+1), sl[2*i])
		}
		old := r.game("S-R1-G1")
		if old.GameID == 0 || !samePair(old.Players, sl[1], sl[3]) {
			t.Fatalf("S-R1-G1 %+v", old)
		}
		gone, _ := strconv.ParseInt(sl[1], 10, 64)
		if err := r.k.o.WithdrawEntrant(r.k.ctx, r.k.director, r.st.ID, gone, "体調不良"); err != nil {
			t.Fatal(err)
		}
		if _, void, _ := s.GameVoidOf(r.k.ctx, old.GameID); !void {
			t.Fatal("the withdrawn player's 残留決定戦 game is not void")
		}
		if g := r.game("S-R1-G1"); g.Status != pairing.StatusWalkover || g.Winner != sl[3] {
			t.Fatalf("S-R1-G1 after the withdrawal: %+v", g)
		}
		r.win("S-R1-G2", sl[5])
		if g := r.game("S-R2-G1"); g.GameID != 0 || g.Status != pairing.StatusWalkover || !samePair(g.Players, sl[1], sl[7]) || g.Winner != sl[7] {
			t.Fatalf("S-R2-G1: %+v", g)
		}
		if out := r.view().Ranking.Outcome; !slices.Equal(out.Relegated, []string{sl[1]}) {
			t.Fatalf("relegated %v, want the withdrawn %s", out.Relegated, sl[1])
		}
	})
}
