package teams

import (
	"testing"

	"kisen/pairing"
	"kisen/store"
)

// Issue 25 item 6, the prize rule (records.go) over two rounds of two
// boards, without a database:
//
//	round 1  東(1) – 西(2):  1将 東一 beats 西一, 2将 東二 beats 西二
//	round 2  東(1) – 南(3):  1将 東三 (reserve) beats 南一, 2将 東一 wins by forfeit against 南二
//	         西(2) – 北(4):  1将 西一 draws with 北一, 2将 北二 beats 西二
//
// 東一 won in both rounds his team played (one by forfeit): 全勝, counted
// at board 1 (one game on each board: the higher). 北二 won the only round
// his team played: 全勝. 東三 and 東二 won once but sat out a round their
// team played: no 全勝. Board 1's prize is 東一's alone (2–0); board 2's is
// shared by 東二 and 北二 (1–0 each). A match paired but not started is
// a crosstable cell to play and counts for nobody.
func TestTeamRecords_Issue25_Item6_SweepsAndBoardPrizes(t *testing.T) {
	t.Parallel()
	tm := []store.Team{{ID: 1, Name: "東"}, {ID: 2, Name: "西"}, {ID: 3, Name: "南"}, {ID: 4, Name: "北"}}
	var members []store.TeamMemberRow
	ob := map[string]OrderBoard{}
	pid := int64(100)
	for _, p := range []struct {
		team int64
		pos  int
		name string
	}{{1, 1, "東一"}, {1, 2, "東二"}, {1, 3, "東三"}, {2, 1, "西一"}, {2, 2, "西二"}, {3, 1, "南一"}, {3, 2, "南二"}, {4, 1, "北一"}, {4, 2, "北二"}} {
		pid++
		members = append(members, store.TeamMemberRow{TeamMember: store.TeamMember{TeamID: p.team, PlayerID: pid, Position: p.pos}, Name: p.name})
		ob[p.name] = OrderBoard{PlayerID: pid, Name: p.name}
	}
	match := func(id int64, round int, a, b int, boards ...MatchBoard) RecordMatch {
		outs := make([]pairing.BoardOutcome, len(boards))
		for i, bd := range boards {
			outs[i] = bd.Outcome
		}
		res, err := pairing.DecideTeamMatch(pairing.TeamMatchRules{Boards: 2}, outs)
		if err != nil {
			t.Fatal(err)
		}
		return RecordMatch{Round: round, MatchView: MatchView{Match: store.TeamMatch{ID: id, TeamAID: tm[a].ID, TeamBID: tm[b].ID, Started: true},
			A: tm[a], B: tm[b], Boards: boards, Result: res}}
	}
	v := RecordsView{Settings: Settings{Boards: 2, Reserves: 1}, Teams: tm, Rounds: []store.TeamRound{{ID: 1, Number: 1}, {ID: 2, Number: 2}},
		Cross: map[int64]map[int64][]CrossCell{}, Totals: map[int64]TeamTotal{}}
	v.Matches = []RecordMatch{
		match(1, 1, 0, 1, MatchBoard{Board: 1, A: ob["東一"], B: ob["西一"], Outcome: pairing.BoardA},
			MatchBoard{Board: 2, A: ob["東二"], B: ob["西二"], Outcome: pairing.BoardA}),
		match(2, 2, 0, 2, MatchBoard{Board: 1, A: ob["東三"], B: ob["南一"], Outcome: pairing.BoardA},
			MatchBoard{Board: 2, A: ob["東一"], B: ob["南二"], Outcome: pairing.BoardAForfeit}),
		match(3, 2, 1, 3, MatchBoard{Board: 1, A: ob["西一"], B: ob["北一"], Outcome: pairing.BoardDraw},
			MatchBoard{Board: 2, A: ob["西二"], B: ob["北二"], Outcome: pairing.BoardB}),
	}
	// Round 3's match of 東 and 北, paired but not started: no record, a
	// cell to play.
	v.Matches = append(v.Matches, RecordMatch{Round: 3, MatchView: MatchView{Match: store.TeamMatch{ID: 4, TeamAID: 1, TeamBID: 4}, A: tm[0], B: tm[3]}})
	v.cross()
	v.records(members)

	var sweeps []string
	for _, p := range v.Sweeps {
		sweeps = append(sweeps, p.Member.Name)
	}
	if len(sweeps) != 2 || sweeps[0] != "東一" || sweeps[1] != "北二" {
		t.Errorf("全勝: %v, want [東一 北二]", sweeps)
	}
	byName := map[string]PlayerRecord{}
	for _, p := range v.Players {
		byName[p.Member.Name] = p
	}
	if p := byName["東一"]; p.Wins != 2 || p.Losses != 0 || p.MainBoard != 1 || len(p.ByBoard) != 2 || p.Games[1].Result != PlayerForfeitWin {
		t.Errorf("東一: %+v", p)
	}
	if p := byName["南二"]; p.Losses != 1 || p.Games[0].Result != PlayerForfeitLoss || p.Sweep {
		t.Errorf("南二: %+v", p)
	}
	if p := byName["西一"]; p.Draws != 1 || p.Losses != 1 || p.Sweep {
		t.Errorf("西一: %+v", p)
	}
	names := func(ps []PlayerRecord) []string {
		var out []string
		for _, p := range ps {
			out = append(out, p.Member.Name)
		}
		return out
	}
	if p := v.Prizes[0]; len(p.Winners) != 1 || p.Winners[0].Member.Name != "東一" || p.Wins != 2 || p.Losses != 0 {
		t.Errorf("board 1's prize: %v %d–%d", names(p.Winners), p.Wins, p.Losses)
	}
	if p := v.Prizes[1]; len(p.Winners) != 2 || p.Winners[0].Member.Name != "東二" || p.Winners[1].Member.Name != "北二" || p.Wins != 1 {
		t.Errorf("board 2's prize: %v %d–%d, want shared by 東二 and 北二", names(p.Winners), p.Wins, p.Losses)
	}
	if c := v.Cross[1][2]; len(c) != 1 || c[0].Outcome != "won" || c[0].For != 2 || c[0].Against != 0 {
		t.Errorf("東 against 西: %+v", c)
	}
	if c := v.Cross[2][4]; len(c) != 1 || c[0].Outcome != "lost" || c[0].For != 0 || c[0].Against != 1 {
		t.Errorf("西 against 北: %+v", c)
	}
	if c := v.Cross[4][1]; len(c) != 1 || c[0].Outcome != "scheduled" {
		t.Errorf("北 against 東, not started: %+v", c)
	}
	if tot := v.Totals[1]; tot.Won != 2 || tot.BoardWins != 4 || tot.Pending != 1 {
		t.Errorf("東's totals: %+v", tot)
	}
}
