package web

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"kisen/office"
	"kisen/pairing"
	"kisen/web/site"
)

// TestTeamEngine_Issue25_ErrorsInWords_JaEn (issue 25 item 3): every error
// code of the team engine (pairing/team_errors.go) reads as words of its own
// in Japanese and English, with the team names and numbers it names, no
// engine English and no team id on the page. The errors come from the engine
// itself wherever an input reaches them.
func TestTeamEngine_Issue25_ErrorsInWords_JaEn(t *testing.T) {
	t.Parallel()
	m, err := site.LoadMessages()
	if err != nil {
		t.Fatal(err)
	}
	teams := []pairing.Team{{ID: "t1", Name: "東大"}, {ID: "t2", Name: "京大"}}
	names := map[string]string{"t1": "東京大学", "t2": "京都大学", "t3": "早稲田大学"}
	rules := pairing.TeamMatchRules{Boards: 3}
	var errs []error
	add := func(err error) { errs = append(errs, err) }
	_, err = pairing.TeamColours(pairing.TeamColourRule("alternate"), 0, []bool{true})
	add(err)
	_, err = pairing.TeamColours(pairing.TeamColourRule("coin"), 3, []bool{true})
	add(err)
	_, err = pairing.TeamColours(pairing.TeamColourRule("alternate"), 3, []bool{true, false})
	add(err)
	_, err = pairing.DecideTeamMatch(rules, []pairing.BoardOutcome{pairing.BoardA})
	add(err)
	_, err = pairing.DecideTeamMatch(rules, []pairing.BoardOutcome{pairing.BoardA, "x", pairing.BoardB})
	add(err)
	_, err = pairing.DecideTeamMatch(pairing.TeamMatchRules{Boards: 3, Win: "most"}, []pairing.BoardOutcome{"a", "a", "a"})
	add(err)
	_, err = pairing.DecideTeamMatch(pairing.TeamMatchRules{Boards: 3, Tie: "coin"}, []pairing.BoardOutcome{"a", "a", "a"})
	add(err)
	_, err = pairing.DrawTeamLeague(pairing.TeamLeagueRequest{Teams: teams[:1]})
	add(err)
	_, err = pairing.DrawTeamLeague(pairing.TeamLeagueRequest{Teams: teams, Cycles: 3})
	add(err)
	_, err = pairing.DrawTeamLeague(pairing.TeamLeagueRequest{Teams: []pairing.Team{{ID: "t1"}, {ID: "t1"}}})
	add(err)
	_, err = pairing.TeamDivisionMoves([]pairing.TeamDivision{{Name: "1部", Ranking: []string{"t1"}}, {Name: "2部", Ranking: []string{"t2"}}}, 2, 2)
	add(err)
	std := func(st pairing.TeamSettings, rounds ...pairing.TeamRound) {
		st.Match = rules
		_, err := pairing.TeamStandings(pairing.TeamStandingsRequest{Teams: append(teams, pairing.Team{ID: "t3"}), Settings: st, Rounds: rounds})
		add(err)
	}
	std(pairing.TeamSettings{Points: pairing.TeamPoints{Win: 1, Draw: 2}})
	std(pairing.TeamSettings{Tiebreaks: []pairing.TeamTiebreak{"direct", "direct"}})
	std(pairing.TeamSettings{}, pairing.TeamRound{Matches: []pairing.TeamMatch{{A: "t1", B: "t9"}}})
	aab := []pairing.BoardOutcome{pairing.BoardA, pairing.BoardA, pairing.BoardB}
	std(pairing.TeamSettings{}, pairing.TeamRound{Matches: []pairing.TeamMatch{{A: "t1", B: "t2", Boards: aab}}, Bye: "t1"})
	std(pairing.TeamSettings{}, pairing.TeamRound{Matches: []pairing.TeamMatch{{A: "t1", B: "t1"}}})
	std(pairing.TeamSettings{}, pairing.TeamRound{Matches: []pairing.TeamMatch{{A: "t1", B: "t2", Boards: aab}}, Bye: "t3"},
		pairing.TeamRound{Matches: []pairing.TeamMatch{{A: "t1", B: "t2", Boards: aab}}, Bye: "t3"})
	_, err = pairing.DrawTeamSwiss(pairing.TeamSwissRequest{Teams: teams, Settings: pairing.TeamSwissSettings{Rounds: 99}})
	add(err)
	_, err = pairing.DrawTeamSwiss(pairing.TeamSwissRequest{Teams: teams, Settings: pairing.TeamSwissSettings{Rounds: 3, Affiliation: "sometimes"}})
	add(err)
	_, err = pairing.DrawTeamSwiss(pairing.TeamSwissRequest{Teams: teams[:1], Settings: pairing.TeamSwissSettings{Rounds: 3}})
	add(err)
	many := make([]pairing.Team, pairing.MaxTeams+1)
	for i := range many {
		many[i] = pairing.Team{ID: strings.Repeat("x", i+1)}
	}
	_, err = pairing.TeamStandings(pairing.TeamStandingsRequest{Teams: many})
	add(err)
	_, err = pairing.TeamKnockoutResult("R1-T1", "t1", "t2", pairing.TeamMatchResult{})
	add(err)
	// Round 2 of two teams that already met: the draw has no round left.
	_, err = pairing.DrawTeamSwiss(pairing.TeamSwissRequest{Teams: teams, Settings: pairing.TeamSwissSettings{TeamSettings: pairing.TeamSettings{Match: rules}, Rounds: 2},
		Rounds: []pairing.TeamRound{{Matches: []pairing.TeamMatch{{A: "t1", B: "t2", Boards: []pairing.BoardOutcome{"a", "a", "b"}}}}}})
	add(err)
	add(errors.New("something else"))

	english := regexp.MustCompile(`[A-Za-z]{3,}`)
	got := map[string]bool{}
	for i, err := range errs {
		if err == nil {
			t.Errorf("case %d: the engine accepted the input", i)
			continue
		}
		id, args := office.TeamInputWords(err, names)
		got[id] = true
		for _, lang := range []string{"ja", "en"} {
			s := m.For(lang).TData(id, args)
			if s == id || strings.Contains(s, "<no value>") || strings.Contains(s, err.Error()) {
				t.Errorf("case %d %s %s: %q", i, lang, id, s)
			}
			if strings.Contains(s, "t1") || strings.Contains(s, "t2") || strings.Contains(s, "R1-T1") {
				t.Errorf("case %d %s: a team or match id on the page: %q", i, lang, s)
			}
			if lang == "ja" && english.MatchString(s) {
				t.Errorf("case %d: English on the Japanese page: %q", i, s)
			}
		}
	}
	// Every code of pairing/team_errors.go (team_rule once per setting) and
	// the general message.
	want := []string{"team_boards", "team_board_count", "team_board_result", "team_unknown", "team_duplicate",
		"team_twice", "team_self", "team_bye_twice", "team_points", "team_rule.colours", "team_rule.win",
		"team_rule.tie", "team_rule.cycles", "team_rule.affiliation", "team_tiebreak", "team_rounds",
		"team_too_few", "team_too_many", "team_divisions", "team_tosses", "team_undecided", "team_no_round", "input"}
	for _, w := range want {
		if !got["names.err.team."+w] {
			t.Errorf("no case reached names.err.team.%s", w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d distinct messages, want %d: %v", len(got), len(want), got)
	}
}
