package office_test

import (
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"testing"

	"kisen/office"
	"kisen/pairing"
	"kisen/store"
	"kisen/store/storetest"
)

// challengerEvent is a knockout event whose 本戦 (the 挑戦者決定トーナメント,
// four players, one goes on) is followed by a 三番勝負 where the title
// holder waits (issue 24 item 2).
type challengerEvent struct {
	k            *knockoutFixture
	s            *store.Store
	main, series store.KnockoutStage
	holder       int64
	field        []int64
}

func newChallengerEvent(t *testing.T, s *store.Store, bestOf int) *challengerEvent {
	t.Helper()
	k := newKnockoutFixture(t, s)
	ce := &challengerEvent{k: k, s: s}
	// The holder is a 九段 and the field 四段: by 段位 the holder sits at
	// the 上座 and tosses for game 1 (D-Z1, 000 第7条第1項).
	h, err := k.o.CreatePlayer(k.ctx, k.admin, office.PlayerInput{Name: "保持者", Reading: "ほじしゃ", Kind: "professional", Rank: "九段"})
	if err != nil {
		t.Fatal(err)
	}
	ce.holder = h.ID
	// Players 6–9 have no 師弟 relation among them.
	for _, p := range k.players[6:10] {
		ce.field = append(ce.field, p.ID)
	}
	ce.main, err = k.o.CreateStage(k.ctx, k.admin, office.StageInput{EventID: k.event.ID, Name: "挑戦者決定トーナメント", Kind: string(pairing.MainEvent), Qualifiers: 1,
		RoundDates: "2026-05-10 2026-05-20"})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ce.field {
		if _, err := k.o.AddEntrant(k.ctx, k.admin, office.EntrantInput{StageID: ce.main.ID, PlayerID: p}); err != nil {
			t.Fatal(err)
		}
	}
	ce.series, err = k.o.CreateStage(k.ctx, k.admin, office.StageInput{EventID: k.event.ID, Name: strconv.Itoa(bestOf) + "番勝負", Kind: office.StageSeries, BestOf: bestOf,
		RoundDates: "2026-07-01 2026-07-10 2026-07-20"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := k.o.AddEntrant(k.ctx, k.admin, office.EntrantInput{StageID: ce.series.ID, PlayerID: ce.holder, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	for _, st := range []int64{ce.main.ID, ce.series.ID} {
		if _, err := k.o.DrawStage(k.ctx, k.admin, office.DrawInput{StageID: st, Seed: "24", DrawDate: "2026-05-01"}); err != nil {
			t.Fatal(err)
		}
		if err := k.o.PublishStage(k.ctx, k.admin, st); err != nil {
			t.Fatal(err)
		}
	}
	return ce
}

func (ce *challengerEvent) games(t *testing.T, stageID int64) map[string]store.Game {
	t.Helper()
	kgs, err := ce.s.KnockoutGamesOfStage(ce.k.ctx, stageID)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]store.Game{}
	for _, kg := range kgs {
		g, err := ce.s.GameByID(ce.k.ctx, kg.GameID)
		if err != nil {
			t.Fatal(err)
		}
		out[kg.BracketGame] = g
	}
	return out
}

// win records g won by its sente (sente true) or gote.
func (ce *challengerEvent) win(t *testing.T, g store.Game, sente bool) int64 {
	t.Helper()
	r, w := office.ResultGoteWin, *g.GotePlayerID
	if sente {
		r, w = office.ResultSenteWin, *g.SentePlayerID
	}
	if _, err := ce.k.o.RecordResult(ce.k.ctx, ce.k.admin, g.ID, office.ResultInput{Result: r, Reason: "resignation"}); err != nil {
		t.Fatal(err)
	}
	return w
}

func players(g store.Game) []int64 {
	p := []int64{*g.SentePlayerID, *g.GotePlayerID}
	slices.Sort(p)
	return p
}

// TestTitleAfterKnockout_000_7_1_ChallengerMeetsHolder: the 三番勝負 is
// drawn before the challenger is known — its slots are the holder and the
// 本戦's qualifier, and no game exists; when the 本戦's final is decided,
// game 1 is created between the holder and the final's winner, by 振り駒
// tossed by the 上座 player (the 九段 holder, D-Z1, 000 第7条第1項); game 2
// alternates (D-F); the series' champion is the event's title winner.
func TestTitleAfterKnockout_000_7_1_ChallengerMeetsHolder(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ce := newChallengerEvent(t, s, 3)
		k := ce.k
		placeholder := "s" + strconv.FormatInt(ce.main.ID, 10) + "#1"
		eb, err := k.o.EventBrackets(k.ctx, k.admin, k.event.ID)
		if err != nil {
			t.Fatal(err)
		}
		sb := eb.Stages[1]
		if sb.Series == nil || !sb.Series.AwaitsChallenger || !slices.Equal(sb.Slots, []string{strconv.FormatInt(ce.holder, 10), placeholder}) {
			t.Fatalf("before the final the series waits for its challenger: %+v", sb.Slots)
		}
		if n := len(ce.games(t, ce.series.ID)); n != 0 {
			t.Fatalf("%d series games exist before the challenger is known", n)
		}
		mg := ce.games(t, ce.main.ID)
		a := ce.win(t, mg["R1-G1"], true)
		b := ce.win(t, mg["R1-G2"], false)
		if n := len(ce.games(t, ce.series.ID)); n != 0 {
			t.Fatalf("%d series games exist before the final", n)
		}
		final := ce.games(t, ce.main.ID)["R2-G1"]
		if got, want := players(final), []int64{min(a, b), max(a, b)}; !slices.Equal(got, want) {
			t.Fatalf("final %v, want the semi-final winners %v", got, want)
		}
		challenger := ce.win(t, final, true)
		sg := ce.games(t, ce.series.ID)
		g1, ok := sg["S1"]
		if !ok || len(sg) != 1 {
			t.Fatalf("after the final the series has games %v, want game 1", sg)
		}
		if got, want := players(g1), []int64{min(ce.holder, challenger), max(ce.holder, challenger)}; !slices.Equal(got, want) {
			t.Fatalf("game 1 is between %v, want the holder and the challenger %v", got, want)
		}
		kg, err := s.KnockoutGameOf(k.ctx, ce.series.ID, "S1")
		if err != nil {
			t.Fatal(err)
		}
		var toss pairing.Furigoma
		if kg.SenteBy != pairing.SenteByFurigoma || json.Unmarshal([]byte(kg.Furigoma), &toss) != nil || toss.Tosser != strconv.FormatInt(ce.holder, 10) {
			t.Fatalf("game 1: sente by %q, toss %+v; want a 振り駒 by the holder at the 上座", kg.SenteBy, toss)
		}
		// Game 2 alternates: game 1's gote is sente.
		ce.win(t, g1, *g1.SentePlayerID == challenger)
		g2 := ce.games(t, ce.series.ID)["S2"]
		if *g2.SentePlayerID != *g1.GotePlayerID {
			t.Fatalf("game 2 sente %d, want game 1's gote %d", *g2.SentePlayerID, *g1.GotePlayerID)
		}
		ce.win(t, g2, *g2.SentePlayerID == challenger)
		eb, err = k.o.EventBrackets(k.ctx, office.Actor{}, k.event.ID)
		if err != nil {
			t.Fatal(err)
		}
		sb = eb.Stages[1]
		if sb.Champion != strconv.FormatInt(challenger, 10) || !sb.Finished || sb.Series.State.Wins != [2]int{0, 2} {
			t.Fatalf("the challenger took the title 2–0: champion %q, state %+v", sb.Champion, sb.Series.State)
		}
		if n := len(ce.games(t, ce.series.ID)); n != 2 {
			t.Fatalf("the series went on to %d games", n)
		}
	})
}

// TestTitleAfterKnockout_D_R3_FinalCorrectedUpstream: game 1 of the series
// exists when the 本戦 final's result is corrected so the other finalist
// won. Game 1 no longer has the right challenger: the correction is
// refused without a reason, its preview names game 1 with the new pair,
// and with a reason game 1 is void and a new game 1 between the holder and
// the corrected winner is made, by 振り駒 again (issue 11, issue 24 item 2).
func TestTitleAfterKnockout_D_R3_FinalCorrectedUpstream(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ce := newChallengerEvent(t, s, 7)
		k := ce.k
		mg := ce.games(t, ce.main.ID)
		ce.win(t, mg["R1-G1"], true)
		ce.win(t, mg["R1-G2"], true)
		final := ce.games(t, ce.main.ID)["R2-G1"]
		first := ce.win(t, final, true)
		second := *final.GotePlayerID
		old := ce.games(t, ce.series.ID)["S1"]
		if !slices.Contains(players(old), first) {
			t.Fatalf("game 1 %v without the final's winner %d", players(old), first)
		}
		in := office.ResultInput{Result: office.ResultGoteWin, Reason: "resignation", Note: "勝敗の記入誤り", Version: 1}
		if _, err := k.o.RecordResult(k.ctx, k.admin, final.ID, in); !errors.As(err, new(*office.CorrectionNeeded)) {
			t.Fatalf("a correction changing the challenger without a reason: %v", err)
		}
		affected, err := k.o.PreviewCorrection(k.ctx, k.admin, office.CorrectionChange{GameID: final.ID, Result: &in})
		if err != nil || len(affected) != 1 || affected[0].GameID != old.ID || affected[0].AfterStatus != string(pairing.StatusReady) {
			t.Fatalf("preview: %+v %v", affected, err)
		}
		if got := []int64{min(affected[0].After[0], affected[0].After[1]), max(affected[0].After[0], affected[0].After[1])}; !slices.Equal(got, []int64{min(ce.holder, second), max(ce.holder, second)}) {
			t.Fatalf("preview says game 1 becomes %v, want the holder and %d", affected[0].After, second)
		}
		if n := len(ce.games(t, ce.series.ID)); n != 1 || ce.games(t, ce.series.ID)["S1"].ID != old.ID {
			t.Fatal("the preview changed the series")
		}
		ctx := office.WithCorrection(k.ctx, k.admin, office.CorrectionConsent{Reason: "勝敗の記入誤り", GameID: final.ID})
		if _, err := k.o.RecordResult(ctx, k.admin, final.ID, in); err != nil {
			t.Fatal(err)
		}
		if _, void, err := s.GameVoidOf(k.ctx, old.ID); err != nil || !void {
			t.Fatalf("the old game 1 is void: %v %v", void, err)
		}
		sg := ce.games(t, ce.series.ID)
		g1, ok := sg["S1"]
		if !ok || len(sg) != 1 || g1.ID == old.ID {
			t.Fatalf("after the correction the series has %v, want a new game 1", sg)
		}
		if got := players(g1); !slices.Equal(got, []int64{min(ce.holder, second), max(ce.holder, second)}) {
			t.Fatalf("new game 1 between %v, want the holder and the corrected winner %d", got, second)
		}
		kg, err := s.KnockoutGameOf(k.ctx, ce.series.ID, "S1")
		if err != nil || kg.SenteBy != pairing.SenteByFurigoma {
			t.Fatalf("new game 1 sente by %q (%v), want a 振り駒", kg.SenteBy, err)
		}
	})
}

// TestTitleAfterKnockout_StageOrder: a knockout event's series follows
// only a 本戦 sending one player on; it is the last stage; a series that
// waits for its challenger holds only the holder.
func TestTitleAfterKnockout_StageOrder(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		k := newKnockoutFixture(t, s)
		field := func(err error) string {
			t.Helper()
			var v *office.ValidationError
			if !errors.As(err, &v) || len(v.Fields) == 0 {
				t.Fatalf("want a validation error, got %v", err)
			}
			return v.Fields[0].Code
		}
		if _, err := k.o.CreateStage(k.ctx, k.admin, office.StageInput{EventID: k.event.ID, Name: "七番勝負", Kind: office.StageSeries, BestOf: 7}); field(err) != "knockout.err.kind_knockout" {
			t.Fatalf("a series as a knockout's first stage: %v", err)
		}
		main, err := k.o.CreateStage(k.ctx, k.admin, office.StageInput{EventID: k.event.ID, Name: "本戦", Kind: string(pairing.MainEvent), Qualifiers: 2})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := k.o.CreateStage(k.ctx, k.admin, office.StageInput{EventID: k.event.ID, Name: "七番勝負", Kind: office.StageSeries, BestOf: 7}); field(err) != "knockout.err.kind_knockout" {
			t.Fatalf("a series after a 本戦 sending two on: %v", err)
		}
		_ = main
		ev2 := k.fixture.ot.Event(k.admin, k.event.OrganiserID, "棋聖戦")
		if _, err := k.o.CreateStage(k.ctx, k.admin, office.StageInput{EventID: ev2.ID, Name: "本戦", Kind: string(pairing.MainEvent), Qualifiers: 1}); err != nil {
			t.Fatal(err)
		}
		if !office.SeriesFollows(office.EventKnockout, mustStages(t, s, k, ev2.ID)) {
			t.Fatal("a 本戦 with one qualifier is followed by a series")
		}
		series, err := k.o.CreateStage(k.ctx, k.admin, office.StageInput{EventID: ev2.ID, Name: "五番勝負", Kind: office.StageSeries, BestOf: 5})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := k.o.CreateStage(k.ctx, k.admin, office.StageInput{EventID: ev2.ID, Name: "本戦二", Kind: string(pairing.MainEvent)}); field(err) != "knockout.err.after_series" {
			t.Fatalf("a stage after the series: %v", err)
		}
		for _, p := range k.players[:2] {
			if _, err := k.o.AddEntrant(k.ctx, k.admin, office.EntrantInput{StageID: series.ID, PlayerID: p.ID}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := k.o.DrawStage(k.ctx, k.admin, office.DrawInput{StageID: series.ID, Seed: "1", DrawDate: "2026-05-01"}); field(err) != "knockout.err.series_holder" {
			t.Fatalf("a series waiting for its challenger with two entrants: %v", err)
		}
	})
}

func mustStages(t *testing.T, s *store.Store, k *knockoutFixture, eventID int64) []store.KnockoutStage {
	t.Helper()
	sts, err := s.StagesOfEvent(k.ctx, eventID)
	if err != nil {
		t.Fatal(err)
	}
	return sts
}

// TestTitleAfterKnockout_D_R3_FinalCorrectedAfterGameOnePlayed: game 1 of
// the series already has a confirmed result when the 本戦 final is
// corrected. The correction needs both a reason and the choice to void
// games with results; with them, games 1 and 2 of the old pair are void and
// the series starts again at game 1, 0–0, with the corrected winner.
func TestTitleAfterKnockout_D_R3_FinalCorrectedAfterGameOnePlayed(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ce := newChallengerEvent(t, s, 3)
		k := ce.k
		mg := ce.games(t, ce.main.ID)
		ce.win(t, mg["R1-G1"], true)
		ce.win(t, mg["R1-G2"], true)
		final := ce.games(t, ce.main.ID)["R2-G1"]
		ce.win(t, final, true)
		second := *final.GotePlayerID
		g1 := ce.games(t, ce.series.ID)["S1"]
		ce.win(t, g1, true)
		g2 := ce.games(t, ce.series.ID)["S2"]
		in := office.ResultInput{Result: office.ResultGoteWin, Reason: "resignation", Note: "勝敗の記入誤り", Version: 1}
		ctx := office.WithCorrection(k.ctx, k.admin, office.CorrectionConsent{Reason: "勝敗の記入誤り", GameID: final.ID})
		var need *office.CorrectionNeeded
		if _, err := k.o.RecordResult(ctx, k.admin, final.ID, in); !errors.As(err, &need) || !need.MissingVoid || len(need.Affected) != 2 {
			t.Fatalf("without choosing to void game 1's result: %v", err)
		}
		ctx = office.WithCorrection(k.ctx, k.admin, office.CorrectionConsent{Reason: "勝敗の記入誤り", Void: true, GameID: final.ID})
		if _, err := k.o.RecordResult(ctx, k.admin, final.ID, in); err != nil {
			t.Fatal(err)
		}
		for _, g := range []store.Game{g1, g2} {
			if _, void, err := s.GameVoidOf(k.ctx, g.ID); err != nil || !void {
				t.Fatalf("game %d of the old pair is void: %v %v", g.ID, void, err)
			}
		}
		sg := ce.games(t, ce.series.ID)
		if len(sg) != 1 || !slices.Equal(players(sg["S1"]), []int64{min(ce.holder, second), max(ce.holder, second)}) {
			t.Fatalf("after the correction the series has %v, want game 1 of the holder and %d", sg, second)
		}
		eb, err := k.o.EventBrackets(k.ctx, k.admin, k.event.ID)
		if err != nil || eb.Stages[1].Series.State.Wins != [2]int{0, 0} {
			t.Fatalf("the series restarts at 0–0: %+v %v", eb.Stages[1].Series, err)
		}
	})
}
