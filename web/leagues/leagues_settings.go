package leagues

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"kisen/league"
	"kisen/office"
	"kisen/web/site"
)

// pairRuleNames are the three related-player rules in form order; the
// form fields are named as league.CheckSettings names problems
// ("master_student.not_first", …) so each message lands by its field.
var pairRuleNames = []string{"master_student", "fellow_disciples", "relatives"}

func pairRuleOf(s *league.Settings, name string) *league.PairRule {
	switch name {
	case "master_student":
		return &s.MasterStudent
	case "fellow_disciples":
		return &s.FellowDisciples
	}
	return &s.Relatives
}

// settingsForm is the class settings form as typed (numbers kept as text
// so a 422 shows what the user wrote).
type settingsForm struct {
	Pairs          []pairRuleForm
	PreviousTerm   string
	NoThird        bool
	PrevFinal      bool
	MaxRun         string
	SplitFirst     bool
	SplitLast      bool
	GamesPerPlayer string
	RoundRobin     bool
}

type pairRuleForm struct {
	Name          string // master_student, fellow_disciples, relatives
	Never         bool
	NotFirst      string
	NotLast       string
	NotFinalRound bool
}

func settingsFormOf(s league.Settings) settingsForm {
	f := settingsForm{PreviousTerm: string(s.PreviousTerm), NoThird: s.NoThirdConsecutive, PrevFinal: s.PreviousFinalNotRoundOne,
		MaxRun: strconv.Itoa(s.SenteGote.MaxRun), SplitFirst: s.SenteGote.SplitFirstTwo, SplitLast: s.SenteGote.SplitLastTwo,
		GamesPerPlayer: strconv.Itoa(s.GamesPerPlayer), RoundRobin: s.RoundRobin}
	for _, n := range pairRuleNames {
		r := pairRuleOf(&s, n)
		f.Pairs = append(f.Pairs, pairRuleForm{Name: n, Never: r.Never, NotFirst: strconv.Itoa(r.NotFirst), NotLast: strconv.Itoa(r.NotLast), NotFinalRound: r.NotFinalRound})
	}
	return f
}

// formNumber reads a whole number; anything else is -1, which the league
// room reports as out of range.
func formNumber(s string) int {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return -1
	}
	return n
}

// readSettingsForm binds the posted form; round_robin is not a form field
// (it is the class's kind), so it comes from the stored settings.
func readSettingsForm(c echo.Context, roundRobin bool) (settingsForm, league.Settings) {
	on := func(k string) bool { return c.FormValue(k) != "" }
	f := settingsForm{PreviousTerm: c.FormValue("previous_term"), NoThird: on("no_third_consecutive"), PrevFinal: on("previous_final_not_round_one"),
		MaxRun: c.FormValue("sente_gote.max_run"), SplitFirst: on("sente_gote.split_first_two"), SplitLast: on("sente_gote.split_last_two"),
		GamesPerPlayer: c.FormValue("games_per_player"), RoundRobin: roundRobin}
	s := league.Settings{RoundRobin: roundRobin, PreviousTerm: league.PreviousTermPolicy(f.PreviousTerm), NoThirdConsecutive: f.NoThird,
		PreviousFinalNotRoundOne: f.PrevFinal,
		SenteGote:                league.SenteGoteRule{MaxRun: formNumber(f.MaxRun), SplitFirstTwo: f.SplitFirst, SplitLastTwo: f.SplitLast}}
	if !roundRobin {
		s.GamesPerPlayer = formNumber(f.GamesPerPlayer)
	}
	for _, n := range pairRuleNames {
		pf := pairRuleForm{Name: n, Never: on(n + ".never"), NotFirst: c.FormValue(n + ".not_first"), NotLast: c.FormValue(n + ".not_last"), NotFinalRound: on(n + ".not_final_round")}
		f.Pairs = append(f.Pairs, pf)
		*pairRuleOf(&s, n) = league.PairRule{Never: pf.Never, NotFirst: formNumber(pf.NotFirst), NotLast: formNumber(pf.NotLast), NotFinalRound: pf.NotFinalRound}
	}
	return f, s
}

func (s *Room) leagueSettings(c echo.Context) error {
	ctx := c.Request().Context()
	cid, err := site.PathParam(c, "cid")
	if err != nil {
		return err
	}
	d, err := s.Office.LeagueClass(ctx, site.Actor(c), cid)
	if err != nil {
		return err
	}
	f, settings := readSettingsForm(c, d.Settings.RoundRobin)
	_, err = s.Office.UpdateClassSettings(ctx, site.Actor(c), office.ClassSettingsInput{ClassID: cid, Settings: settings})
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		return s.renderLeagueClass(c, http.StatusUnprocessableEntity, LeagueClassView{SetForm: &f, Errs: msgs})
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, "/league/"+strconv.FormatInt(cid, 10)+"#settings")
}

// pairRuleText says one related-player rule in words for the rules list
// (the constraint report's settings).
func pairRuleText(ctx context.Context, name string, r league.PairRule) string {
	lz := site.L(ctx)
	label := lz.T("league.settings." + name)
	var parts []string
	if r.Never {
		parts = append(parts, lz.T("league.settings.text.never"))
	}
	if r.NotFirst > 0 || r.NotLast > 0 {
		parts = append(parts, lz.TData("league.settings.text.window", map[string]any{"First": r.NotFirst, "Last": r.NotLast}))
	}
	if r.NotFinalRound {
		parts = append(parts, lz.T("league.settings.text.not_final"))
	}
	if len(parts) == 0 {
		parts = append(parts, lz.T("league.settings.text.free"))
	}
	return label + ": " + strings.Join(parts, lz.T("league.settings.text.sep"))
}

// settingsRules adds the related-player, previous-term and sente/gote
// settings to the class rules list.
func settingsRules(ctx context.Context, s league.Settings) []string {
	lz := site.L(ctx)
	var out []string
	for _, n := range pairRuleNames {
		r := s
		out = append(out, pairRuleText(ctx, n, *pairRuleOf(&r, n)))
	}
	if s.NoThirdConsecutive {
		out = append(out, lz.T("league.settings.no_third_consecutive"))
	}
	if s.PreviousFinalNotRoundOne {
		out = append(out, lz.T("league.settings.previous_final_not_round_one"))
	}
	out = append(out, lz.TData("league.settings.text.max_run", map[string]any{"N": s.SenteGote.MaxRun}))
	if s.SenteGote.SplitFirstTwo {
		out = append(out, lz.T("league.settings.split_first_two"))
	}
	if s.SenteGote.SplitLastTwo {
		out = append(out, lz.T("league.settings.split_last_two"))
	}
	return out
}
