package office_test

import (
	"errors"
	"testing"
	"time"

	"kisen/office"
	"kisen/store"
	"kisen/store/storetest"
)

// TestFutureResult_AskedOnlyForAGameScheduledAfterToday: a request that
// asks (the web, until the person answers) is refused a result for a game
// scheduled after today in Japan, with the day; a game of today, one
// without a date, and any request that does not ask are taken.
func TestFutureResult_AskedOnlyForAGameScheduledAfterToday(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		g := newGameFixture(t, s, "{}")
		today := g.clock.Now().In(time.FixedZone("JST", 9*3600)).Format("2006-01-02")
		tomorrow := g.clock.Now().In(time.FixedZone("JST", 9*3600)).AddDate(0, 0, 1).Format("2006-01-02")
		mk := func(day string) store.Game {
			gm, err := g.o.CreateGame(g.ctx, g.admin, office.GameInput{EventID: g.event.ID, SenteID: &g.sente.ID, GoteID: &g.gote.ID, ScheduledOn: day, AllowanceMinutes: 60})
			if err != nil {
				t.Fatal(err)
			}
			return gm
		}
		ask := office.AskBeforeFutureResult(g.ctx)
		in := office.ResultInput{Result: office.ResultSenteWin, Reason: "resignation"}
		later := mk(tomorrow)
		_, err := g.o.RecordResult(ask, g.admin, later.ID, in)
		var fe *office.FutureResultError
		if !errors.As(err, &fe) || fe.Date != tomorrow || fe.GameID != later.ID {
			t.Fatalf("result for %s asked: %v", tomorrow, err)
		}
		if vs, _ := s.ResultHistory(g.ctx, later.ID); len(vs) != 0 {
			t.Fatal("a refused result was stored")
		}
		if _, err := g.o.RecordResult(g.ctx, g.admin, later.ID, in); err != nil {
			t.Fatalf("result for %s without asking: %v", tomorrow, err)
		}
		for _, day := range []string{today, ""} {
			if _, err := g.o.RecordResult(ask, g.admin, mk(day).ID, in); err != nil {
				t.Fatalf("result for a game of %q: %v", day, err)
			}
		}
	})
}
