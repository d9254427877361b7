package leagues

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"kisen/league"
	"kisen/office"
	"kisen/web/site"
)

// leagueClassView is the view model of a class page: the public table and,
// for the event's staff, the draw, edit, publish and result tools.
type LeagueClassView struct {
	EventID     int64
	EventName   string
	ClassID     int64
	Title       string
	Status      string
	CanSchedule bool
	CanResult   bool
	Rounds      []int
	RoundDates  []string // per round, for the table header
	Rows        []leagueRowView
	Final       bool
	EmbedCode   string // the <iframe> code of the published table, for its staff (embeds.go)
	Schedule    []leagueRoundView
	Report      leagueReportView
	Games       []leagueGameRow
	Log         []leagueLogRow
	Seed        string
	DrawDate    string
	Rules       []string // class settings in words
	Conflicts   []violationView
	ConflictMsg string
	Gen         generateForm
	Edit        editForm
	Errs        site.FieldMsgs
	// SetForm is the class settings form (nil: filled from the stored
	// settings); CanSettings while the schedule is not published.
	SetForm     *settingsForm
	CanSettings bool
	Playoff     *playoffView // A class: tied for the challenger place
	// Before the draw (no schedule yet): the members with their carried
	// 降級点 and origin, the settings that no longer fit the class size, and
	// for the staff while the class is in setup the member change forms
	// and the term's changes that touched the class (issue 24).
	Class        string // A … C2, "" for a league's one group
	Members      []memberView
	Misfits      []string
	CanMembers   bool
	TermVersion  int
	Changes      []termChangeView
	OtherClasses []option
	Member       memberForm
}

type leagueRowView struct {
	Junni  int
	Name   string
	Cells  []cellView
	Wins   int
	Losses int
	Place  int
	Marks  []string
	// Provisional: the marks can still change with the remaining games
	// (暫定); no marks at all before any game (issue 13).
	Provisional bool
	Points      string // ＊ per 降級点 held after the term once decided, before it until then
}

type cellView struct {
	Rest   bool
	Opp    string
	Result string // ○ ● or ""
	Note   string // both_lose: "両者負け" beside the ●
	Side   string // 先 / 後
	GameID int64
}

type leagueRoundView struct {
	Number int
	Date   string
	Games  []scheduledGame
	Rests  string
}

type scheduledGame struct {
	K     int
	Sente string
	Gote  string
	Date  string
}

type leagueReportView struct {
	Checked    []string // rule ids; the page says them in words
	Rematches  int
	LowerBound int
	// Minimality is the localised D-C1 verdict on Rematches ("" when
	// last term's opponents are not avoided).
	Minimality string
	Violations []violationView
}

// violationView is one broken schedule rule as a sentence: the players
// by name, the round and the rule in words (issue 13).
type violationView struct {
	Text string
}

type leagueGameRow struct {
	Round   int
	GameID  int64
	Current int64
	Sente   string
	Gote    string
	Date    string
	Result  string
	Redos   int
	Pending bool
	// Redo: the row's game is a redo game (指し直し局) of the scheduled
	// one; Sente and Gote are its seats (D-R1 swaps them in an even game).
	Redo bool
	// Version is the current game's newest result version (0: none): the
	// quick result buttons post it with Current (issue 11).
	Version int
}

// leagueLogRow is one line of the schedule log, said as a sentence.
type leagueLogRow struct {
	At     string
	What   string
	Reason string
}

type generateForm struct {
	Seed       string   `form:"seed"`
	DrawDate   string   `form:"draw_date"`
	RoundDates []string `form:"round_date"`
}

type editForm struct {
	Op     string `form:"op"`
	Round  string `form:"round"`
	Game   string `form:"game"`
	Other  string `form:"other"`
	Date   string `form:"date"`
	Reason string `form:"reason"`
}

func (s *Room) leagueClassPage(c echo.Context) error {
	cid, err := site.PathParam(c, "cid")
	if err != nil {
		return err
	}
	done, read, err := s.NotModifiedClass(c, cid)
	if done || err != nil {
		return err
	}
	return s.renderLeagueClassRead(c, http.StatusOK, LeagueClassView{}, read)
}

// standingsRead is office.Standings of class cid, from what
// notModifiedClass read when it found the class.
func (s *Room) standingsRead(ctx context.Context, a office.Actor, cid int64, read office.ClassRead) (office.LeagueStandings, error) {
	if read.Class.ID != cid {
		return s.Office.Standings(ctx, a, cid)
	}
	return s.Office.StandingsRead(ctx, a, read)
}

// names maps league ids (player ids in decimal) to display names.
type names map[int64]office.Player

func (n names) full(id string) string {
	pid, _ := strconv.ParseInt(id, 10, 64)
	if p, ok := n[pid]; ok {
		return p.Name
	}
	return id
}

func (n names) list(ids []string) string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = n.full(id)
	}
	return strings.Join(out, "、")
}

func violationsView(ctx context.Context, n names, vs []league.Violation) []violationView {
	out := make([]violationView, 0, len(vs))
	for _, v := range vs {
		out = append(out, violationView{Text: site.LeagueViolation(ctx, v, n.full)})
	}
	return out
}

func (s *Room) renderLeagueClass(c echo.Context, status int, v LeagueClassView) error {
	return s.renderLeagueClassRead(c, status, v, office.ClassRead{})
}

// renderLeagueClassRead is renderLeagueClass with what the conditional GET
// has read already (notModifiedClass); a zero read reads it all.
func (s *Room) renderLeagueClassRead(c echo.Context, status int, v LeagueClassView, read office.ClassRead) error {
	ctx := c.Request().Context()
	cid, err := site.PathParam(c, "cid")
	if err != nil {
		return err
	}
	a := site.Actor(c)
	st, err := s.standingsRead(ctx, a, cid, read)
	if err != nil {
		return err
	}
	n := names(st.Players)
	v.EventID, v.EventName = st.Event.ID, site.LocalName(ctx, st.Event.Name, st.Event.NameEn)
	v.ClassID, v.Title, v.Status = cid, ClassTitle(ctx, st.Class.Class), st.Class.Status
	v.CanSchedule = s.Office.CanScheduleLeague(ctx, a, st.Event.ID)
	v.CanResult = s.Office.CanEnterLeagueResults(ctx, a, st.Event.ID)
	v.Seed, v.DrawDate, v.Final = st.Class.DrawSeed, st.Class.DrawDate, st.Table.Final
	LeagueTableOf(ctx, st, &v)
	lz := site.L(ctx)
	if v.CanSchedule || v.CanResult {
		for _, r := range st.Schedule.Rounds {
			rv := leagueRoundView{Number: r.Number, Rests: n.list(r.Rests)}
			if !r.Date.IsZero() {
				rv.Date = r.Date.Format("2006-01-02")
			}
			for k, g := range r.Games {
				sg := scheduledGame{K: k + 1, Sente: n.full(g.Sente), Gote: n.full(g.Gote)}
				if !g.Date.IsZero() {
					sg.Date = g.Date.Format("2006-01-02")
				}
				rv.Games = append(rv.Games, sg)
			}
			v.Schedule = append(v.Schedule, rv)
		}
		v.Report = leagueReportView{Checked: st.Report.RulesChecked, Rematches: st.Report.PreviousTermRematches,
			LowerBound: st.Report.RematchLowerBound, Minimality: rematchMinimality(ctx, st.Report.RematchMinimality),
			Violations: violationsView(ctx, n, st.Report.Violations)}
		for _, g := range st.Games {
			// The row shows the game to play: the chain's current game, with
			// its own colours (a button never acts on a game it does not show).
			row := leagueGameRow{Round: g.Round, GameID: g.GameID, Current: g.Current, Sente: st.Players[g.CurrentSente].Name,
				Gote: st.Players[g.CurrentGote].Name, Date: g.Date, Redos: g.Redos, Pending: g.Pending,
				Redo: g.Current != g.GameID, Version: g.Version}
			switch {
			case g.BothLose:
				row.Result = lz.T("league.both_lose.result")
			case g.Decided:
				row.Result = lz.TData("league.result.won", map[string]any{"Name": st.Players[g.Winner].Name})
			}
			v.Games = append(v.Games, row)
		}
		for _, e := range st.Log {
			v.Log = append(v.Log, leagueLogRow{At: site.ShowTime(e.At), What: site.LeagueLogSentence(ctx, e.Action, e.Detail, e.Violations, n.full), Reason: e.Reason})
		}
		if len(v.Gen.RoundDates) == 0 {
			v.Gen.RoundDates = make([]string, st.Rounds)
			for i, ds := range office.ClassRoundDates(st.Class) {
				if i < len(v.Gen.RoundDates) {
					v.Gen.RoundDates[i] = strings.Join(ds, " ")
				}
			}
		}
	}
	v.Class = st.Class.Class
	if len(st.Schedule.Rounds) == 0 {
		v.Members = membersOf(ctx, st)
	}
	if st.Class.Status == office.LeagueSetup {
		v.Misfits = misfitsOf(ctx, office.ClassFit(st.Settings, len(st.Members)))
	}
	if v.CanSchedule && st.Class.Status == office.LeagueSetup {
		v.CanMembers = true
		if err := s.fillTermMembers(c, &v); err != nil {
			return err
		}
	}
	v.Rules = append(classRules(ctx, st.Settings, st.Rules), settingsRules(ctx, st.Settings)...)
	v.CanSettings = v.CanSchedule && st.Class.Status != office.LeaguePublished
	v.Playoff = playoffViewOf(ctx, st.Playoff, n)
	if v.SetForm == nil {
		f := settingsFormOf(st.Settings)
		v.SetForm = &f
	}
	if v.CanSchedule && st.Class.Status == office.LeaguePublished && !office.IsDraft(st.Event) {
		v.EmbedCode = site.EmbedCode(c, "/embed/league/"+lid(cid), v.EventName+" "+v.Title)
	}
	site.MarkDraft(c, office.IsDraft(st.Event))
	return s.Render(c, status, LeagueClassPage(s.Page(c, v.EventName+" "+v.Title), v))
}

// leagueTableOf fills the public league table of v (rounds, dates, rows)
// from the standings: the class page and its embed (embeds.go) show the
// same table.
func LeagueTableOf(ctx context.Context, st office.LeagueStandings, v *LeagueClassView) {
	n := len(st.Schedule.Rounds)
	v.Rounds, v.RoundDates = make([]int, 0, n), make([]string, 0, n)
	for r := 1; r <= n; r++ {
		v.Rounds = append(v.Rounds, r)
		d := st.Schedule.Rounds[r-1].Date
		if !d.IsZero() {
			v.RoundDates = append(v.RoundDates, d.Format("1/2"))
		} else {
			v.RoundDates = append(v.RoundDates, "")
		}
	}
	// The table has a cell per player and round (issue 12: 61 players, 610
	// cells): the words every cell shares are looked up once, and each
	// opponent's short name once.
	lz := site.L(ctx)
	senteText, goteText, bothLoseNote := lz.T("league.side.sente"), lz.T("league.side.gote"), lz.T("league.both_lose.note")
	short := make(map[int64]string, len(st.Players))
	for id, p := range st.Players {
		short[id] = shortName(p)
	}
	v.Rows = make([]leagueRowView, 0, len(st.Rows))
	for _, r := range st.Rows {
		p := st.Players[r.PlayerID]
		rv := leagueRowView{Junni: r.Row.Junni, Name: p.Name, Wins: r.Row.Wins, Losses: r.Row.Losses, Place: r.Row.Place,
			Points: strings.Repeat("＊", r.PointsBefore), Cells: make([]cellView, 0, len(r.Cells))}
		if r.Mark == league.MarkDecided {
			rv.Points = strings.Repeat("＊", r.Row.Points)
		}
		for _, cell := range r.Cells {
			cv := cellView{Rest: cell.Rest, GameID: cell.GameID}
			if !cell.Rest {
				opp, ok := short[cell.Opponent]
				if !ok { // not a member: the empty player's short name
					opp = shortName(st.Players[cell.Opponent])
				}
				cv.Opp = opp
				cv.Side = goteText
				if cell.Sente {
					cv.Side = senteText
				}
				switch cell.Result {
				case "win":
					cv.Result = "○"
				case "loss":
					cv.Result = "●"
				case office.ResultBothLose:
					// Neither player came: a loss for each side (docs/leagues-web.md).
					cv.Result, cv.Note = "●", bothLoseNote
				}
			}
			rv.Cells = append(rv.Cells, cv)
		}
		if r.Mark != league.MarkHidden {
			rv.Marks = RowMarks(ctx, r.Row)
			rv.Provisional = r.Mark == league.MarkProvisional && len(rv.Marks) > 0
		}
		v.Rows = append(v.Rows, rv)
	}
}

// rowMarks are the table's promotion and demotion marks (docs/leagues-web.md).
func RowMarks(ctx context.Context, r league.Row) []string {
	var out []string
	switch r.Outcome {
	case league.OutcomePromoted:
		out = append(out, site.T(ctx, "league.mark.promoted"))
	case league.OutcomeDemoted:
		out = append(out, site.T(ctx, "league.mark.demoted"))
	case league.OutcomeChallenger:
		out = append(out, site.T(ctx, "league.mark.challenger"))
	case league.OutcomePlayoff:
		out = append(out, site.T(ctx, "league.mark.playoff"))
	}
	if r.NewPoint {
		out = append(out, site.T(ctx, "league.mark.point"))
	}
	return out
}

// classRules says the class settings in words.
func classRules(ctx context.Context, s league.Settings, r league.ClassRules) []string {
	lz := site.L(ctx)
	var out []string
	if s.RoundRobin {
		out = append(out, lz.T("league.rule.round_robin"))
	} else {
		out = append(out, lz.TData("league.rule.games", map[string]any{"N": s.GamesPerPlayer}))
	}
	out = append(out, lz.TData("league.rule.previous", map[string]any{"Policy": lz.T("league.policy." + string(s.PreviousTerm))}))
	if r.Challengers > 0 {
		out = append(out, lz.TData("league.rule.challengers", map[string]any{"N": r.Challengers}))
	}
	if r.Promote > 0 {
		out = append(out, lz.TData("league.rule.promote", map[string]any{"N": r.Promote}))
	}
	if r.Demote > 0 {
		out = append(out, lz.TData("league.rule.demote", map[string]any{"N": r.Demote}))
	}
	if r.PointsDen > 0 && r.PointsNum > 0 {
		out = append(out, lz.TData("league.rule.points", map[string]any{"Num": r.PointsNum, "Den": r.PointsDen, "Down": r.PointsToDemote}))
	}
	return out
}

func (s *Room) leagueGenerate(c echo.Context) error {
	ctx := c.Request().Context()
	cid, err := site.PathParam(c, "cid")
	if err != nil {
		return err
	}
	var f generateForm
	if err := c.Bind(&f); err != nil {
		return err
	}
	_, err = s.Office.GenerateSchedule(ctx, site.Actor(c), office.ScheduleInput{ClassID: cid, Seed: f.Seed, DrawDate: f.DrawDate, RoundDates: f.RoundDates})
	if msg := settingsMisfitMessage(ctx, err); msg != "" {
		return s.renderLeagueClass(c, http.StatusUnprocessableEntity, LeagueClassView{Gen: f, ConflictMsg: msg})
	}
	if msg := drawLimitMessage(ctx, err); msg != "" {
		return s.renderLeagueClass(c, http.StatusUnprocessableEntity, LeagueClassView{Gen: f, ConflictMsg: msg})
	}
	var nse *office.NoScheduleError
	if errors.As(err, &nse) {
		d, derr := s.Office.LeagueClass(ctx, site.Actor(c), cid)
		if derr != nil {
			return derr
		}
		return s.renderLeagueClass(c, http.StatusUnprocessableEntity, LeagueClassView{Gen: f,
			Conflicts: violationsView(ctx, names(d.Players), nse.Conflicts), ConflictMsg: noScheduleReason(ctx, nse)})
	}
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		return s.renderLeagueClass(c, http.StatusUnprocessableEntity, LeagueClassView{Gen: f, Errs: msgs})
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, "/league/"+strconv.FormatInt(cid, 10)+"#schedule")
}

// noScheduleReason says why no schedule exists in the reader's words, from
// the league room's code (issue 24 item 3): never its English Reason. The
// conflicts themselves are listed beside it (violationsView).
func noScheduleReason(ctx context.Context, e *office.NoScheduleError) string {
	why := site.T(ctx, "names.err.league.no_schedule.other")
	switch e.Code {
	case league.NoScheduleTooFewGames, league.NoScheduleRelatedPairs, league.NoScheduleNotFound:
		why = site.T(ctx, "names.err.league.no_schedule."+e.Code)
	}
	if e.Proven {
		return site.L(ctx).TData("league.no_schedule.proven", map[string]any{"Reason": why})
	}
	return site.L(ctx).TData("league.no_schedule.search", map[string]any{"Reason": why})
}

func (s *Room) leagueEdit(c echo.Context) error {
	ctx := c.Request().Context()
	cid, err := site.PathParam(c, "cid")
	if err != nil {
		return err
	}
	var f editForm
	if err := c.Bind(&f); err != nil {
		return err
	}
	atoi := func(s string) int { n, _ := strconv.Atoi(strings.TrimSpace(s)); return n }
	_, err = s.Office.EditSchedule(ctx, site.Actor(c), office.ScheduleEdit{ClassID: cid, Op: f.Op, Round: atoi(f.Round),
		Game: atoi(f.Game), Other: atoi(f.Other), Date: f.Date, Reason: f.Reason})
	var sv *office.ScheduleViolationsError
	if errors.As(err, &sv) {
		d, derr := s.Office.LeagueClass(ctx, site.Actor(c), cid)
		if derr != nil {
			return derr
		}
		return s.renderLeagueClass(c, http.StatusUnprocessableEntity, LeagueClassView{Edit: f,
			Conflicts: violationsView(ctx, names(d.Players), sv.Violations), ConflictMsg: site.T(ctx, "league.edit.needs_reason"),
			Errs: site.FieldMsgs{"reason": site.T(ctx, "league.edit.needs_reason")}})
	}
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		return s.renderLeagueClass(c, http.StatusUnprocessableEntity, LeagueClassView{Edit: f, Errs: msgs})
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, "/league/"+strconv.FormatInt(cid, 10)+"#schedule")
}

func (s *Room) leagueResult(c echo.Context) error {
	ctx := c.Request().Context()
	cid, err := site.PathParam(c, "cid")
	if err != nil {
		return err
	}
	// "game" is the game the row showed (the chain's current game) and
	// "version" its result version then (issue 11).
	in := office.LeagueResultInput{ClassID: cid, Result: c.FormValue("result"), Reason: c.FormValue("reason")}
	if in.GameID, err = site.FormVersion(c, "game"); err == nil {
		if in.Version, err = site.SeenVersion(c); err == nil {
			if !site.Confirmed(c) {
				return s.leagueResultPreview(c, cid, in)
			}
			err = s.Office.EnterLeagueResult(ctx, site.Actor(c), in)
		}
	}
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		return s.renderLeagueClass(c, http.StatusUnprocessableEntity, LeagueClassView{Errs: msgs})
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, "/league/"+strconv.FormatInt(cid, 10)+"#results")
}
