package office_test

import (
	"context"
	"testing"
	"time"

	"kisen/office"
	"kisen/office/seed"
	"kisen/store"
	"kisen/store/storetest"
)

// writesPerBracketGame is what creating one bracket game must write, and
// no more: its savepoint, the check that a concurrent request did not
// create it first, the game row, the bracket game row and the savepoint's
// release. Everything the start of a game is decided from — the event and
// its 手合割, whether it is an amateur day, the players' ranks, their 席次
// facts and 順位 (D-Z1, 000 第7条第1項) — is read once for the whole
// publication, whatever the number of games.
const writesPerBracketGame = 5

// TestSeating_D_Z1_PublishReadsSeatFactsOncePerStage: publishing a drawn
// stage of 256 entrants (128 round-1 games) costs, beyond publishing one of
// 64 entrants (32 games), only the writes of the 96 further games: the
// 上座 of every game (the tosser of its simulated 振り駒) is decided from
// facts read once, not three statements a game. Both databases.
func TestSeating_D_Z1_PublishReadsSeatFactsOncePerStage(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 25, 3, 0, 0, 0, time.UTC)
		o := office.New(s, func() time.Time { return now })
		f, err := seed.New(ctx, o, s, now)
		if err != nil {
			t.Fatal(err)
		}
		publish := func(entrants int) int64 {
			t.Helper()
			e, st, err := f.DrawnKnockout(ctx, entrants)
			if err != nil {
				t.Fatal(err)
			}
			before := s.Statements()
			if err := o.PublishStage(ctx, f.Admin, st.ID); err != nil {
				t.Fatalf("%d entrants: %v", entrants, err)
			}
			n := s.Statements() - before
			eb, err := o.EventBrackets(ctx, f.Admin, e.ID)
			if err != nil {
				t.Fatal(err)
			}
			round := eb.Stages[0].Rounds[0]
			if len(round) != entrants/2 {
				t.Fatalf("%d entrants: round 1 has %d games", entrants, len(round))
			}
			for _, g := range round {
				if g.GameID == 0 || g.SenteID == 0 || g.GoteID == 0 || g.SenteID == g.GoteID {
					t.Fatalf("%d entrants: round 1 game %s was not created with two players: %+v", entrants, g.ID, g)
				}
			}
			return n
		}
		small, large := publish(64), publish(256)
		perGame := float64(large-small) / float64(128-32)
		t.Logf("publish: 64 entrants %d statements, 256 entrants %d; %.2f a further game", small, large, perGame)
		if perGame > writesPerBracketGame {
			t.Errorf("each further game costs %.2f statements, more than its %d writes: something is read per game", perGame, writesPerBracketGame)
		}
	})
}
