package teams_test

import (
	"errors"
	"testing"
	"time"

	"kisen/office"
	"kisen/office/teams"
	"kisen/pairing"
	"kisen/store"
	"kisen/store/storetest"
)

// Issue 25 item 3: the director pairs two teams at a table (a table, a team
// twice in a round and a team against itself refused in words); a match is
// not found by the public while its event is hidden or its round's orders
// are; it starts only once both orders are published, at the version seen
// (stale: conflict); every board with two players is an ordinary game with
// colours from one 振り駒 alternating by board, an empty board is a forfeit
// win for the side present; the match result follows from the games'
// official results and is final only when every board is.
func TestTeamMatches_Issue25_Item3_BoardsAreGamesResultDerived(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s, pairing.TeamOrderFree, false)
		eIDs := f.ranked("三段", "二段", "初段")
		wIDs := f.ranked("三段", "二段", "初段")
		east := f.team("東高校", eIDs...)
		west := f.team("西高校", wIDs...)
		r := f.round(1, f.clock.Now().Add(2*time.Hour))

		if _, err := f.tm.CreateMatch(f.ctx, f.arbiter, teams.MatchInput{RoundID: r.ID, Table: 1, TeamA: east.ID, TeamB: west.ID}); !errors.Is(err, office.ErrForbidden) {
			t.Fatalf("an arbiter pairs teams: %v", err)
		}
		if _, err := f.tm.CreateMatch(f.ctx, f.admin, teams.MatchInput{RoundID: r.ID, Table: 1, TeamA: east.ID, TeamB: east.ID}); fieldCodes(err)["team_b"] != "teams.err.match_same_team" {
			t.Fatalf("a team against itself: %v", err)
		}
		m, err := f.tm.CreateMatch(f.ctx, f.admin, teams.MatchInput{RoundID: r.ID, Table: 1, TeamA: east.ID, TeamB: west.ID})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.tm.CreateMatch(f.ctx, f.admin, teams.MatchInput{RoundID: r.ID, Table: 1, TeamA: west.ID, TeamB: east.ID}); fieldCodes(err)["table"] != "teams.err.match_table_taken" {
			t.Fatalf("a table taken: %v", err)
		}
		if _, err := f.tm.CreateMatch(f.ctx, f.admin, teams.MatchInput{RoundID: r.ID, Table: 2, TeamA: west.ID, TeamB: east.ID}); fieldCodes(err)["team_b"] != "teams.err.match_team_busy" {
			t.Fatalf("a team twice in a round: %v", err)
		}

		// Hidden event, then hidden orders: not found to the public.
		if _, err := f.tm.RoundMatches(f.ctx, f.outsider, r.ID); !errors.Is(err, store.ErrNotFound) && !errors.Is(err, office.ErrNotFound) {
			t.Fatalf("hidden event: %v", err)
		}
		if err := f.o.SetEventStatus(f.ctx, f.admin, f.event.ID, office.StatusPublished); err != nil {
			t.Fatal(err)
		}
		if _, err := f.tm.RoundMatches(f.ctx, f.outsider, r.ID); !errors.Is(err, office.ErrNotFound) {
			t.Fatalf("orders hidden: %v", err)
		}
		if v, err := f.tm.RoundMatches(f.ctx, f.admin, r.ID); err != nil || len(v.Matches) != 1 || v.Matches[0].Result.Final {
			t.Fatalf("staff before the start: %+v %v", v, err)
		}
		if _, err := f.tm.StartMatch(f.ctx, f.admin, m.ID, m.Version); fieldCodes(err)[""] != "teams.err.match_orders_hidden" {
			t.Fatalf("start before publication: %v", err)
		}

		// West leaves board 3 empty: a forfeit win for east's player there.
		if _, err := f.tm.SubmitOrder(f.ctx, f.arbiter, teams.OrderInput{RoundID: r.ID, TeamID: east.ID, Players: eIDs}); err != nil {
			t.Fatal(err)
		}
		if _, err := f.tm.SubmitOrder(f.ctx, f.arbiter, teams.OrderInput{RoundID: r.ID, TeamID: west.ID, Players: []int64{wIDs[0], wIDs[1]}}); err != nil {
			t.Fatal(err)
		}
		if _, err := f.tm.StartMatch(f.ctx, f.admin, m.ID, m.Version+1); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("stale start: %v", err)
		}
		started, err := f.tm.StartMatch(f.ctx, f.admin, m.ID, m.Version)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.tm.StartMatch(f.ctx, f.admin, m.ID, m.Version); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("second start: %v", err)
		}
		// The order a started match was made from no longer changes.
		cur, err := f.tm.RoundOrders(f.ctx, f.admin, r.ID)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.tm.SubmitOrder(f.ctx, f.arbiter, teams.OrderInput{RoundID: r.ID, TeamID: west.ID, Version: cur.Orders[1].Order.ID,
			Players: wIDs, Reason: "出場者の追加"}); fieldCodes(err)[""] != "teams.err.order_match_started" {
			t.Fatalf("an order changed after the start: %v", err)
		}
		if started.Furigoma == "{}" || started.Furigoma == "" {
			t.Fatalf("no toss recorded: %q", started.Furigoma)
		}

		v, err := f.tm.RoundMatches(f.ctx, f.outsider, r.ID)
		if err != nil || len(v.Matches) != 1 {
			t.Fatalf("public after publication: %v", err)
		}
		mv := v.Matches[0]
		if len(mv.Boards) != 3 || mv.Result.Final || mv.Result.Pending != 2 {
			t.Fatalf("started: %+v", mv)
		}
		if mv.Boards[0].ASente == mv.Boards[1].ASente || mv.Boards[1].ASente == mv.Boards[2].ASente {
			t.Fatalf("colours do not alternate: %+v", mv.Boards)
		}
		if b := mv.Boards[2]; b.GameID != 0 || b.Outcome != pairing.BoardAForfeit || b.A.PlayerID != eIDs[2] || b.B.PlayerID != 0 {
			t.Fatalf("empty board 3: %+v", b)
		}
		// Each played board is an ordinary game of the event with the
		// order's players in the colours the page shows.
		for k, b := range mv.Boards[:2] {
			g, err := f.s.GameByID(f.ctx, b.GameID)
			if err != nil {
				t.Fatal(err)
			}
			sente, gote := eIDs[k], wIDs[k]
			if !b.ASente {
				sente, gote = gote, sente
			}
			if g.EventID != f.event.ID || *g.SentePlayerID != sente || *g.GotePlayerID != gote {
				t.Fatalf("board %d game: %+v", k+1, g)
			}
		}
		// Board 1: a 千日手, replayed with colours swapped (D-R1), then
		// west's player wins the redo game; board 2: east's player wins.
		win := func(gameID int64, aSente, aWins bool) {
			res := office.ResultSenteWin
			if aWins != aSente {
				res = office.ResultGoteWin
			}
			if _, err := f.o.RecordResult(f.ctx, f.arbiter, gameID, office.ResultInput{Result: res, Reason: office.ReasonResignation}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := f.o.RecordResult(f.ctx, f.arbiter, mv.Boards[0].GameID, office.ResultInput{Result: office.ResultRedo, Reason: "sennichite"}); err != nil {
			t.Fatal(err)
		}
		redo, err := f.o.CreateRedoGameFromRemaining(f.ctx, f.arbiter, mv.Boards[0].GameID, time.Hour, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		if (*redo.SentePlayerID == eIDs[0]) == mv.Boards[0].ASente {
			t.Fatalf("the redo game keeps the colours: %+v", redo)
		}
		v, _ = f.tm.RoundMatches(f.ctx, f.outsider, r.ID)
		if b := v.Matches[0].Boards[0]; b.Outcome != pairing.BoardPending {
			t.Fatalf("board 1 after the 千日手: %+v", b)
		}
		win(redo.ID, !mv.Boards[0].ASente, false)
		v, _ = f.tm.RoundMatches(f.ctx, f.outsider, r.ID)
		if r := v.Matches[0].Result; r.Final || r.Pending != 1 {
			t.Fatalf("one board left: %+v", r)
		}
		win(mv.Boards[1].GameID, mv.Boards[1].ASente, true)
		v, _ = f.tm.RoundMatches(f.ctx, f.outsider, r.ID)
		got := v.Matches[0]
		if got.Boards[0].Outcome != pairing.BoardB || got.Boards[1].Outcome != pairing.BoardA {
			t.Fatalf("board outcomes: %+v", got.Boards)
		}
		if r := got.Result; !r.Final || r.Outcome != pairing.TeamAWins || r.Wins != [2]int{2, 1} || r.Forfeits != [2]int{1, 0} {
			t.Fatalf("match: %+v", r)
		}
		// The standings count the final match: east 2 match points and 2
		// board wins (one by forfeit), west none and 1.
		sv, err := f.tm.Standings(f.ctx, f.outsider, f.event.ID)
		if err != nil || len(sv.Lines) != 2 {
			t.Fatalf("standings: %+v %v", sv, err)
		}
		top, second := sv.Lines[0], sv.Lines[1]
		if sv.Teams[top.ID].ID != east.ID || top.Rank != 1 || top.MatchPoints != 2 || top.BoardWins != 2 || top.Won != 1 ||
			sv.Teams[second.ID].ID != west.ID || second.MatchPoints != 0 || second.BoardWins != 1 || second.Lost != 1 {
			t.Fatalf("standings lines: %+v", sv.Lines)
		}
	})
}

// Issue 25 items 2–3: a team short of a majority of its boards forfeits the
// match when the event says so: no games are created, its seats stay empty
// and every board its opponent fills is a forfeit win, so the match is
// final at once and won by the opponent.
func TestTeamMatches_Issue25_Item3_MajorityForfeitNoGames(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s, pairing.TeamOrderFree, true)
		eIDs := f.ranked("三段", "二段", "初段")
		wIDs := f.ranked("三段", "二段", "初段")
		east := f.team("東高校", eIDs...)
		west := f.team("西高校", wIDs...)
		r := f.round(1, f.clock.Now().Add(2*time.Hour))
		m, err := f.tm.CreateMatch(f.ctx, f.admin, teams.MatchInput{RoundID: r.ID, Table: 1, TeamA: west.ID, TeamB: east.ID})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.tm.SubmitOrder(f.ctx, f.arbiter, teams.OrderInput{RoundID: r.ID, TeamID: east.ID, Players: eIDs}); err != nil {
			t.Fatal(err)
		}
		if _, err := f.tm.SubmitOrder(f.ctx, f.arbiter, teams.OrderInput{RoundID: r.ID, TeamID: west.ID, Players: []int64{wIDs[0]}}); err != nil {
			t.Fatal(err)
		}
		started, err := f.tm.StartMatch(f.ctx, f.admin, m.ID, m.Version)
		if err != nil {
			t.Fatal(err)
		}
		if started.ForfeitTeamID == nil || *started.ForfeitTeamID != west.ID {
			t.Fatalf("forfeit team: %+v", started)
		}
		var games int64
		if err := s.DB(f.ctx).Model(&store.Game{}).Where("event_id = ?", f.event.ID).Count(&games).Error; err != nil || games != 0 {
			t.Fatalf("%d games for a forfeited match (%v)", games, err)
		}
		v, err := f.tm.RoundMatches(f.ctx, f.admin, r.ID)
		if err != nil {
			t.Fatal(err)
		}
		mv := v.Matches[0]
		for _, b := range mv.Boards {
			if b.Outcome != pairing.BoardBForfeit || b.A.PlayerID != 0 || b.GameID != 0 {
				t.Fatalf("board %d: %+v", b.Board, b)
			}
		}
		if res := mv.Result; !res.Final || res.Outcome != pairing.TeamBWins || res.Forfeits != [2]int{0, 3} || mv.ForfeitTeam != "西高校" {
			t.Fatalf("match: %+v (%q)", res, mv.ForfeitTeam)
		}
	})
}
