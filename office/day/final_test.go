package day_test

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"testing"

	"kisen/office"
	"kisen/office/day"
	"kisen/pairing"
	"kisen/store"
	"kisen/store/storetest"
)

// playPools draws and finishes rounds of a pools class until the
// preliminary is over.
func (f *fixture) playPools(classID int64) {
	f.t.Helper()
	for r := 1; r <= 6; r++ {
		if _, err := f.d.PreviewRound(f.ctx, f.admin, classID, uint64(r)); fieldCodes(err)["round"] == "day.err.finished" {
			return
		}
		f.drawRound(classID, uint64(r))
		f.finishRound(classID)
	}
	f.t.Fatal("pools not finished after 6 rounds")
}

func (f *fixture) playSwiss(classID int64, rounds int) {
	f.t.Helper()
	for r := 1; r <= rounds; r++ {
		f.drawRound(classID, uint64(40+r))
		f.finishRound(classID)
	}
}

// buildFinal previews and builds a class's final.
func (f *fixture) buildFinal(classID int64, seed uint64, consolation bool) (day.FinalPreview, day.Final) {
	f.t.Helper()
	p, err := f.d.PreviewFinal(f.ctx, f.admin, classID, seed)
	if err != nil {
		f.t.Fatalf("preview final: %v", err)
	}
	fin, err := f.d.BuildFinal(f.ctx, f.admin, day.FinalInput{ClassID: classID, Seed: seed, Fingerprint: p.Fingerprint, Consolation: consolation})
	if err != nil {
		f.t.Fatalf("build final: %v", err)
	}
	return p, fin
}

// checkBlockFinal recomputes, from the stored slots' indexes, what the
// final promises after blocks: block winners in different quarters (as many
// as there are blocks up to four, then eighths …), each block's two in
// different halves, byes facing block winners first.
func checkBlockFinal(t *testing.T, slots []string, q map[int64]day.FinalQualifier) {
	t.Helper()
	size := len(slots)
	var winners []int
	halfOf := map[string][]int{}
	for s, id := range slots {
		if id == "" {
			continue
		}
		n, _ := strconv.ParseInt(id, 10, 64)
		x, ok := q[n]
		if !ok {
			t.Fatalf("slot %d holds %s, not a qualifier", s, id)
		}
		if x.Place == 1 {
			winners = append(winners, s)
		}
		halfOf[x.Block] = append(halfOf[x.Block], s/(size/2))
	}
	k := 1
	for k < len(winners) {
		k *= 2
	}
	seen := map[int]bool{}
	for _, s := range winners {
		if seen[s/(size/k)] {
			t.Fatalf("two block winners in one 1/%d: %v", k, slots)
		}
		seen[s/(size/k)] = true
	}
	for b, hs := range halfOf {
		if len(hs) == 2 && hs[0] == hs[1] {
			t.Fatalf("block %s in one half: %v", b, slots)
		}
	}
	for s := 0; s < size; s += 2 {
		for j, id := range []string{slots[s], slots[s+1]} {
			if id != "" {
				continue
			}
			n, _ := strconv.ParseInt([]string{slots[s], slots[s+1]}[1-j], 10, 64)
			if q[n].Place != 1 && len(winners) > 0 && countByes(slots) <= len(winners) {
				t.Fatalf("a bye faces %d (place %d) while block winners play round 1: %v", n, q[n].Place, slots)
			}
		}
	}
}

func countByes(slots []string) int {
	n := 0
	for _, id := range slots {
		if id == "" {
			n++
		}
	}
	return n
}

// From a finished 2勝通過2敗失格 preliminary in blocks to the class's final:
// the qualifiers are the players with two wins, placed with the block
// winners spread and each block split over the halves; the stage is drawn
// with exactly the previewed slots, and the record is kept.
func TestDayFinal_FromPoolsBlocksToADrawnStage(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		c := f.class(f.classInput("A級", day.FormatPools))
		f.present(12, "初段", c.ID)
		if _, err := f.d.PreviewFinal(f.ctx, f.admin, c.ID, 1); fieldCodes(err)["class"] != "day_final.err.unfinished" {
			t.Fatalf("final before the preliminary: %v", err)
		}
		f.playPools(c.ID)
		p, fin := f.buildFinal(c.ID, 77, false)
		v, err := f.d.ClassView(f.ctx, f.admin, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		sd, err := v.Standings()
		if err != nil {
			t.Fatal(err)
		}
		var want []int64
		for _, l := range sd.Pools {
			if l.Status == "qualified" {
				want = append(want, l.PlayerID)
			}
		}
		got := map[int64]day.FinalQualifier{}
		for _, q := range p.Qualifiers {
			got[q.PlayerID] = q
		}
		if len(got) != len(want) || len(want) != 6 {
			t.Fatalf("%d qualifiers, %d players with two wins (want 6 from 3 blocks)", len(got), len(want))
		}
		for _, id := range want {
			if _, ok := got[id]; !ok {
				t.Fatalf("player %d qualified but is not in the final", id)
			}
		}
		slots, err := office.StageSlots(fin.Stage)
		if err != nil {
			t.Fatal(err)
		}
		if len(slots) != 8 || fin.Stage.Status != office.StageDrawn || fin.Stage.Method != "final" {
			t.Fatalf("stage %d slots, status %s, method %s", len(slots), fin.Stage.Status, fin.Stage.Method)
		}
		for i, id := range p.Slots {
			if w := office.EntrantIDOf(id); id != 0 && slots[i] != w || id == 0 && slots[i] != "" {
				t.Fatalf("slot %d: stage %q, preview %d", i, slots[i], id)
			}
		}
		checkBlockFinal(t, slots, got)
		es, err := s.EntrantsOfStage(f.ctx, fin.Stage.ID)
		if err != nil || len(es) != 6 {
			t.Fatalf("%d entrants, %v", len(es), err)
		}
		// The usual review finds nothing to fix; the record is there once.
		if vs, err := f.o.StageViolations(f.ctx, f.admin, fin.Stage.ID); err != nil || len(vs) != 0 {
			t.Fatalf("violations %v, %v", vs, err)
		}
		if _, err := f.d.BuildFinal(f.ctx, f.admin, day.FinalInput{ClassID: c.ID, Seed: 77, Fingerprint: p.Fingerprint}); !errors.Is(err, office.ErrConflict) {
			t.Fatalf("second build: %v, want a conflict", err)
		}
		if _, err := f.d.PreviewFinal(f.ctx, f.admin, c.ID, 77); !errors.Is(err, day.ErrFinalBuilt) {
			t.Fatalf("preview after the build: %v", err)
		}
		rec, ok, err := f.d.FinalOf(f.ctx, f.admin, c.ID)
		if err != nil || !ok || rec.StageID != fin.Stage.ID || rec.Seed != "77" {
			t.Fatalf("record %+v %v %v", rec, ok, err)
		}
		log, err := s.DayLogOfEvent(f.ctx, f.event.ID)
		if err != nil || !slices.ContainsFunc(log, func(e store.DayLogEntry) bool { return e.Action == day.LogFinal }) {
			t.Fatalf("no final in the desk log: %v", err)
		}
	})
}

// Two classes' finals in one day's event: each is its own bracket (a
// stage that plays to a champion no longer has to feed the next), both
// publish, their round-1 games are created, and a result in one leaves
// the other alone.
func TestDayFinal_TwoClassesEachTheirOwnBracket(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		a := f.class(f.classInput("A級", day.FormatPools))
		bi := f.classInput("B級", day.FormatSwiss)
		bi.Position, bi.Rounds, bi.Qualifiers, bi.FirstBoard = "2", "3", "4", "21"
		b := f.class(bi)
		f.present(8, "初段", a.ID)
		f.present(9, "3級", b.ID)
		f.playPools(a.ID)
		f.playSwiss(b.ID, 3)
		_, fa := f.buildFinal(a.ID, 5, false)
		pb, fb := f.buildFinal(b.ID, 6, false)
		if len(pb.Qualifiers) != 4 || pb.Size != 4 {
			t.Fatalf("Swiss final: %d qualifiers in %d slots, want the top 4", len(pb.Qualifiers), pb.Size)
		}
		// standings 1 and 2 in different halves of the Swiss final
		half := map[int]int{}
		for s, id := range pb.Slots {
			for _, q := range pb.Qualifiers {
				if q.PlayerID == id {
					half[q.Standing] = s / 2
				}
			}
		}
		if half[1] == half[2] {
			t.Fatalf("standings 1 and 2 share a half: %v", pb.Slots)
		}
		for _, st := range []store.KnockoutStage{fa.Stage, fb.Stage} {
			if err := f.o.PublishStage(f.ctx, f.admin, st.ID); err != nil {
				t.Fatalf("publish %s: %v", st.Name, err)
			}
		}
		eb, err := f.o.EventBrackets(f.ctx, f.admin, f.event.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(eb.Stages) != 2 {
			t.Fatalf("%d stages", len(eb.Stages))
		}
		for _, sb := range eb.Stages {
			ready := 0
			for _, g := range sb.Rounds[0] {
				if g.GameID != 0 {
					ready++
				}
			}
			if ready == 0 {
				t.Fatalf("%s: no round-1 game created", sb.Stage.Name)
			}
			for _, id := range sb.Slots {
				if id != "" && !isEntrant(t, s, f, sb.Stage.ID, id) {
					t.Fatalf("%s: slot %s from another class", sb.Stage.Name, id)
				}
			}
		}
	})
}

func isEntrant(t *testing.T, s *store.Store, f *fixture, stageID int64, id string) bool {
	t.Helper()
	es, err := s.EntrantsOfStage(f.ctx, stageID)
	if err != nil {
		t.Fatal(err)
	}
	return slices.ContainsFunc(es, func(e store.KnockoutEntrant) bool { return office.EntrantIDOf(e.PlayerID) == id })
}

// A qualifier withdrawing between the preview and the build changes the
// field: the build is refused (409) and writes nothing.
func TestDayFinal_BuildRefusedWhenTheQualifiersChanged(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		c := f.class(f.classInput("A級", day.FormatPools))
		f.present(8, "初段", c.ID)
		f.playPools(c.ID)
		p, err := f.d.PreviewFinal(f.ctx, f.admin, c.ID, 3)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.d.Withdraw(f.ctx, f.admin, f.event.ID, p.Qualifiers[0].PlayerID); err != nil {
			t.Fatal(err)
		}
		_, err = f.d.BuildFinal(f.ctx, f.admin, day.FinalInput{ClassID: c.ID, Seed: 3, Fingerprint: p.Fingerprint})
		if !errors.Is(err, day.ErrDrawChanged) {
			t.Fatalf("build after a withdrawal: %v, want the draw changed", err)
		}
		if sts, err := s.StagesOfEvent(f.ctx, f.event.ID); err != nil || len(sts) != 0 {
			t.Fatalf("%d stages written, %v", len(sts), err)
		}
		p2, err := f.d.PreviewFinal(f.ctx, f.admin, c.ID, 3)
		if err != nil || len(p2.Qualifiers) != len(p.Qualifiers)-1 {
			t.Fatalf("preview again: %d qualifiers, %v", len(p2.Qualifiers), err)
		}
	})
}

// Only a director builds a final; a class without a preliminary has none.
func TestDayFinal_RolesAndFormat(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		k := f.classInput("C級", day.FormatKnockout)
		c := f.class(k)
		if _, err := f.d.PreviewFinal(f.ctx, f.admin, c.ID, 1); fieldCodes(err)["class"] != "day_final.err.no_preliminary" {
			t.Fatalf("knockout class: %v", err)
		}
		if _, err := f.d.PreviewFinal(f.ctx, office.Actor{}, c.ID, 1); !errors.Is(err, office.ErrForbidden) && !errors.Is(err, office.ErrNotFound) {
			t.Fatalf("anonymous preview: %v", err)
		}
	})
}

// bracketOf is the class final's stage as the bracket page computes it.
func (f *fixture) bracketOf(stageID int64) office.StageBracket {
	f.t.Helper()
	eb, err := f.o.EventBrackets(f.ctx, f.admin, f.event.ID)
	if err != nil {
		f.t.Fatal(err)
	}
	for _, sb := range eb.Stages {
		if sb.Stage.ID == stageID {
			return sb
		}
	}
	f.t.Fatalf("stage %d not in the event's brackets", stageID)
	return office.StageBracket{}
}

// The 交流戦: the first-round losers of the final play their own bracket;
// its games are created once both of a game's players are known, and a
// corrected first-round result that changes who lost voids the 交流戦 game
// built on it (with the director's consent) and creates the right one.
func TestDayFinal_ConsolationForFirstRoundLosers(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		c := f.class(f.classInput("A級", day.FormatPools))
		f.present(16, "初段", c.ID)
		f.playPools(c.ID)
		p, fin := f.buildFinal(c.ID, 9, true)
		if len(p.Qualifiers) != 8 || !fin.Stage.Consolation {
			t.Fatalf("%d qualifiers, consolation %v", len(p.Qualifiers), fin.Stage.Consolation)
		}
		if err := f.o.PublishStage(f.ctx, f.admin, fin.Stage.ID); err != nil {
			t.Fatal(err)
		}
		sb := f.bracketOf(fin.Stage.ID)
		if len(sb.Consolation) != 2 || len(sb.Consolation[0]) != 2 {
			t.Fatalf("consolation rounds %d, want 2 rounds of 2 then 1 games", len(sb.Consolation))
		}
		// Sente wins every round-1 game; the losers are the gote players.
		losers := map[string]bool{}
		var firstGame office.BracketGame
		for i, g := range sb.Rounds[0] {
			if g.GameID == 0 {
				t.Fatalf("round-1 game %s not created", g.ID)
			}
			if i == 0 {
				firstGame = g
			}
			losers[office.EntrantIDOf(g.GoteID)] = true
			if err := f.o.QuickResult(f.ctx, f.admin, office.QuickResultInput{StageID: fin.Stage.ID, BracketGame: g.ID, WinnerID: g.SenteID,
				Reason: office.ReasonResignation, GameID: g.DecidingGameID, Version: g.Version}); err != nil {
				t.Fatalf("result of %s: %v", g.ID, err)
			}
		}
		sb = f.bracketOf(fin.Stage.ID)
		seen := 0
		for _, g := range sb.Consolation[0] {
			if g.GameID == 0 || g.Status != "ready" {
				t.Fatalf("consolation %s: game %d, status %s", g.ID, g.GameID, g.Status)
			}
			for _, id := range g.Players {
				if !losers[id] {
					t.Fatalf("consolation %s holds %s, who did not lose in round 1 (losers %v)", g.ID, id, losers)
				}
				seen++
			}
		}
		if seen != 4 {
			t.Fatalf("%d players in the consolation's first round, want the 4 losers", seen)
		}
		// Correct R1-G1: gote won after all. The C-R1 game with the old
		// loser is affected; with consent it is void and rebuilt.
		var oldCons office.BracketGame
		for _, g := range sb.Consolation[0] {
			if slices.Contains(g.Players[:], office.EntrantIDOf(firstGame.GoteID)) {
				oldCons = g
			}
		}
		in := office.ResultInput{Result: office.ResultGoteWin, Reason: office.ReasonResignation, Version: 1}
		var need *office.CorrectionNeeded
		if _, err := f.o.RecordResult(f.ctx, f.admin, firstGame.DecidingGameID, in); !errors.As(err, &need) ||
			!slices.ContainsFunc(need.Affected, func(a office.AffectedGame) bool { return a.BracketGame == oldCons.ID }) {
			t.Fatalf("correction without consent: %v (want %s affected)", err, oldCons.ID)
		}
		cc := office.WithCorrection(f.ctx, f.admin, office.CorrectionConsent{Kind: office.CorrectionResult, Reason: "記入誤り", Void: true, GameID: firstGame.DecidingGameID})
		if _, err := f.o.RecordResult(cc, f.admin, firstGame.DecidingGameID, in); err != nil {
			t.Fatal(err)
		}
		if _, void, _ := s.GameVoidOf(f.ctx, oldCons.GameID); !void {
			t.Fatalf("old %s game %d should be void", oldCons.ID, oldCons.GameID)
		}
		sb = f.bracketOf(fin.Stage.ID)
		for _, g := range sb.Consolation[0] {
			if g.ID != oldCons.ID {
				continue
			}
			if g.GameID == oldCons.GameID || g.GameID == 0 || !slices.Contains(g.Players[:], office.EntrantIDOf(firstGame.SenteID)) {
				t.Fatalf("rebuilt %s: %+v", g.ID, g)
			}
		}
	})
}

// A swap on the stage page of a class's final is judged by the final's
// rules too: putting a block's two players on one side is a rule the
// director must give a reason to break; exchanging two second places who
// meet in round 1 breaks nothing.
func TestDayFinal_SwapJudgedByTheFinalsRules(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		c := f.class(f.classInput("A級", day.FormatPools))
		f.present(12, "初段", c.ID)
		f.playPools(c.ID)
		p, fin := f.buildFinal(c.ID, 21, false)
		at := map[int64]int{}
		for i, id := range p.Slots {
			if id != 0 {
				at[id] = i
			}
		}
		var w1, w2, mate int64 // two block winners; a second place of w1's block
		for _, q := range p.Qualifiers {
			if q.Place == 1 {
				if w1 == 0 {
					w1 = q.PlayerID
				} else if w2 == 0 {
					w2 = q.PlayerID
				}
			}
		}
		for _, q := range p.Qualifiers {
			for _, r := range p.Qualifiers {
				if r.PlayerID == w1 && q.Block == r.Block && q.Place == 2 {
					mate = q.PlayerID
				}
			}
		}
		// Exchanging the two players of a round-1 game between second
		// places changes no half, no pairing and no seed line of a block
		// winner: nothing to report.
		place, harmless := map[int64]int{}, 0
		for _, q := range p.Qualifiers {
			place[q.PlayerID] = q.Place
		}
		for s := 0; s < len(p.Slots); s += 2 {
			if p.Slots[s] != 0 && p.Slots[s+1] != 0 && place[p.Slots[s]] > 1 && place[p.Slots[s+1]] > 1 {
				if v, err := f.o.SwapBreaks(f.ctx, f.admin, office.SwapInput{StageID: fin.Stage.ID, A: s, B: s + 1}); err != nil || len(v) != 0 {
					t.Fatalf("exchanging the players of game %d breaks %v, %v", s/2+1, v, err)
				}
				harmless++
			}
		}
		if harmless == 0 {
			t.Fatal("no round-1 game between second places (6 qualifiers in 8 have one)")
		}
		// Put w1's block mate on w1's side: opposite w1 or in w1's half.
		size := len(p.Slots)
		target := -1
		for s := range p.Slots {
			if s/(size/2) == at[w1]/(size/2) && s != at[w1] && p.Slots[s] != 0 {
				if q := p.Slots[s]; q != w2 {
					target = s
					break
				}
			}
		}
		if target < 0 {
			t.Skip("no player on the winner's side to exchange with")
		}
		in := office.SwapInput{StageID: fin.Stage.ID, A: at[mate], B: target}
		v, err := f.o.SwapBreaks(f.ctx, f.admin, in)
		if err != nil || !slices.ContainsFunc(v, func(x pairing.Violation) bool { return x.Rule == pairing.RuleFinalSeparation }) {
			t.Fatalf("putting a block together breaks %+v, %v; want %s", v, err, pairing.RuleFinalSeparation)
		}
		if _, err := f.o.SwapSlots(f.ctx, f.admin, in); fieldCodes(err)["reason"] != "knockout.err.override_required" {
			t.Fatalf("swap without a reason: %v", err)
		}
		in.Reason = "同じ道場の希望で"
		if _, err := f.o.SwapSlots(f.ctx, f.admin, in); err != nil {
			t.Fatal(err)
		}
		if vs, err := f.o.StageViolations(f.ctx, f.admin, fin.Stage.ID); err != nil ||
			!slices.ContainsFunc(vs, func(x pairing.Violation) bool { return x.Rule == pairing.RuleFinalSeparation }) {
			t.Fatalf("review after the override: %+v, %v", vs, err)
		}
	})
}

// TestDayFinal_D_H_D_F1_FinalFollowsTheClassHandicapPolicy: a class's final
// plays under its class's 手合割 policy, not the event's (an amateur
// organiser's events give handicaps by rank gap): a 振り駒 class's final is
// all 平手 with a recorded toss even between distant ranks; a table class's
// final gives what the table (004) gives for each game's two ranks.
func TestDayFinal_D_H_D_F1_FinalFollowsTheClassHandicapPolicy(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		a := f.class(f.classInput("A級", day.FormatPools))
		bi := f.classInput("B級", day.FormatPools)
		bi.Position, bi.FirstBoard, bi.Handicap = "2", "21", day.HandicapTable
		b := f.class(bi)
		ci := f.classInput("C級", day.FormatPools)
		ci.Position, ci.FirstBoard, ci.Handicap, ci.EvenGap = "3", "41", day.HandicapMixed, "1"
		mixed := f.class(ci)
		ranks := []string{"初段", "五段", "二段", "四段", "初段", "五段", "三段", "六段"}
		for _, c := range []int64{a.ID, b.ID, mixed.ID} {
			for i, r := range ranks {
				p := f.player(r, fmt.Sprintf("クラブ%d", i))
				if _, err := f.d.Enter(f.ctx, f.admin, day.EntryInput{EventID: f.event.ID, PlayerID: p.ID, ClassID: c}); err != nil {
					t.Fatal(err)
				}
				if err := f.d.CheckIn(f.ctx, f.admin, f.event.ID, p.ID, store.CheckinPresent); err != nil {
					t.Fatal(err)
				}
			}
			f.playPools(c)
		}
		table := pairing.DefaultHandicapTable() // the fixture's organiser keeps no table
		for _, c := range []int64{a.ID, b.ID, mixed.ID} {
			_, fin := f.buildFinal(c, 9, false)
			if err := f.o.PublishStage(f.ctx, f.admin, fin.Stage.ID); err != nil {
				t.Fatal(err)
			}
			kgs, err := s.KnockoutGamesOfStage(f.ctx, fin.Stage.ID)
			if err != nil || len(kgs) == 0 {
				t.Fatalf("final games %d, %v", len(kgs), err)
			}
			gaps := 0
			for _, kg := range kgs {
				g, err := s.GameByID(f.ctx, kg.GameID)
				if err != nil {
					t.Fatal(err)
				}
				ps, err := s.PlayersByIDs(f.ctx, []int64{*g.SentePlayerID, *g.GotePlayerID})
				if err != nil {
					t.Fatal(err)
				}
				rs, _ := pairing.ParseRank(ps[*g.SentePlayerID].Rank)
				rg, _ := pairing.ParseRank(ps[*g.GotePlayerID].Rank)
				if rs.Step != rg.Step {
					gaps++
				}
				if c == a.ID {
					if g.Handicap != string(pairing.Hirate) || kg.SenteBy != pairing.SenteByFurigoma {
						t.Fatalf("振り駒 class's final game %s: %s, sente by %s (ranks %s / %s)", kg.BracketGame, g.Handicap, kg.SenteBy, rs, rg)
					}
					continue
				}
				if gap := rs.Step - rg.Step; c == mixed.ID && gap != 0 && max(gap, -gap) <= 1 {
					// up to one grade apart: 平手, the lower rank sente (004)
					if g.Handicap != string(pairing.Hirate) || rs.Step > rg.Step {
						t.Fatalf("mixed class's final game %s: %s with %s sente against %s", kg.BracketGame, g.Handicap, rs, rg)
					}
					continue
				}
				terms, err := pairing.DecideTerms(table, "s", rs, "g", rg, "s")
				if err != nil {
					t.Fatal(err)
				}
				want := string(pairing.Hirate)
				if terms.Sente != "" {
					want = string(terms.Handicap)
				}
				if g.Handicap != want {
					t.Fatalf("table class's final game %s: %s, want %s for %s / %s", kg.BracketGame, g.Handicap, want, rs, rg)
				}
			}
			if gaps == 0 {
				t.Fatalf("class %d: no final game between different ranks, the policy is not exercised", c)
			}
		}
	})
}
