package office_test

import (
	"errors"
	"testing"

	"kisen/office"
	"kisen/store"
	"kisen/store/storetest"
)

// TestCorrectionSeries_D_R3_GameAfterTheSeriesWasOver: a 三番勝負 at 1–1
// has game 3. Game 2's result is corrected so the holder won it: the
// series was over at 2–0, so game 3 is affected — refused without consent,
// void with it, and no game 3 is created again.
func TestCorrectionSeries_D_R3_GameAfterTheSeriesWasOver(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		k := newKnockoutFixture(t, s)
		ev, err := k.o.CreateEvent(k.ctx, k.admin, office.EventInput{OrganiserID: k.event.OrganiserID, Name: "三番勝負", Kind: office.EventTitleMatch, StartDate: "2026-10-01", EndDate: "2026-12-31"})
		if err != nil {
			t.Fatal(err)
		}
		st, err := k.o.CreateStage(k.ctx, k.admin, office.StageInput{EventID: ev.ID, Name: "三番勝負", Kind: office.StageSeries, BestOf: 3})
		if err != nil {
			t.Fatal(err)
		}
		holder, challenger := k.players[0].ID, k.players[1].ID
		for i, p := range []int64{holder, challenger} {
			if _, err := k.o.AddEntrant(k.ctx, k.admin, office.EntrantInput{StageID: st.ID, PlayerID: p, Seed: i + 1}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := k.o.DrawStage(k.ctx, k.admin, office.DrawInput{StageID: st.ID, Seed: "19", DrawDate: "2026-09-01"}); err != nil {
			t.Fatal(err)
		}
		if err := k.o.PublishStage(k.ctx, k.admin, st.ID); err != nil {
			t.Fatal(err)
		}
		result := func(g store.Game, winner int64) office.ResultInput {
			r := office.ResultSenteWin
			if *g.GotePlayerID == winner {
				r = office.ResultGoteWin
			}
			return office.ResultInput{Result: r, Reason: "resignation"}
		}
		var played []store.Game
		for _, w := range []int64{holder, challenger} {
			kgs, _ := s.KnockoutGamesOfStage(k.ctx, st.ID)
			g, _ := s.GameByID(k.ctx, kgs[len(kgs)-1].GameID)
			if _, err := k.o.RecordResult(k.ctx, k.admin, g.ID, result(g, w)); err != nil {
				t.Fatal(err)
			}
			played = append(played, g)
		}
		kgs, _ := s.KnockoutGamesOfStage(k.ctx, st.ID)
		if len(kgs) != 3 {
			t.Fatalf("at 1–1 game 3 exists: %d games", len(kgs))
		}
		g3 := kgs[2].GameID
		in := result(played[1], holder)
		in.Note = "記入誤り"
		in.Version = 1 // the version the corrector saw
		if _, err := k.o.RecordResult(k.ctx, k.admin, played[1].ID, in); !errors.As(err, new(*office.CorrectionNeeded)) {
			t.Fatalf("without consent: %v", err)
		}
		affected, err := k.o.PreviewCorrection(k.ctx, k.admin, office.CorrectionChange{GameID: played[1].ID, Result: &in})
		if err != nil || len(affected) != 1 || affected[0].GameID != g3 || affected[0].AfterStatus != "gone" {
			t.Fatalf("preview %+v %v", affected, err)
		}
		ctx := office.WithCorrection(k.ctx, k.admin, office.CorrectionConsent{Reason: "記入誤り", GameID: played[1].ID})
		if _, err := k.o.RecordResult(ctx, k.admin, played[1].ID, in); err != nil {
			t.Fatal(err)
		}
		if _, v, _ := s.GameVoidOf(k.ctx, g3); !v {
			t.Fatal("game 3 is void")
		}
		eb, err := k.o.EventBrackets(k.ctx, k.admin, ev.ID)
		if err != nil {
			t.Fatal(err)
		}
		if sv := eb.Stages[0].Series; sv == nil || !sv.State.Over || eb.Stages[0].Champion == "" || len(sv.Games) != 2 {
			t.Fatalf("series after the correction: %+v", eb.Stages[0].Series)
		}
	})
}
