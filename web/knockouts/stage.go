package knockouts

import (
	"cmp"
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/pairing"
	"kisen/web/site"
)

// stageInput is the new-stage form.
type stageInput struct {
	Name             string `form:"name"`
	NameEn           string `form:"name_en"`
	Kind             string `form:"kind"`
	ThirdPlace       string `form:"third_place"`
	Qualifiers       string `form:"qualifiers"`
	BestOf           string `form:"best_of"`
	RoundDates       string `form:"round_dates"`
	AllowanceMinutes string `form:"allowance"`
	// The ranking group's line of the table in words and numbers
	// (ranking_form.go): a preset from the 竜王戦 table (RkFill asks to
	// put it into the fields), the group, the 本戦 places (finish and
	// slot, row by row), the promoted finishes, the 昇級者決定戦 and the
	// 残留決定戦.
	RkPreset            string   `form:"rk_preset"`
	RkFill              string   `form:"rk_fill"`
	RkGroup             string   `form:"rk_group"`
	RkPlaceFinish       []string `form:"rk_place_finish"`
	RkPlaceSlot         []string `form:"rk_place_slot"`
	RkPromoted          []string `form:"rk_promoted"`
	RkPlayoffFrom       string   `form:"rk_playoff_from"`
	RkPlayoffTo         string   `form:"rk_playoff_to"`
	RkPlayoffWinners    string   `form:"rk_playoff_winners"`
	RkPlayoffThird      string   `form:"rk_playoff_third"`
	RkSurvivalRound     string   `form:"rk_survival_round"`
	RkSurvivalRelegated string   `form:"rk_survival_relegated"`
}

// atoiField reads a whole number field; a bad value is reported under name.
func atoiField(errs site.FieldMsgs, ctx context.Context, name, s string) int {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		errs[name] = site.L(ctx).T("knockout.err.number")
	}
	return n
}

func (s *Room) stageCreate(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathParam(c, "id")
	if err != nil {
		return err
	}
	var in stageInput
	if err := c.Bind(&in); err != nil {
		return err
	}
	// The preset button fills the group's fields from the 竜王戦 table
	// (or empties them for 「なし」) and shows the form again; nothing is made.
	if in.RkFill != "" {
		in.RkGroup, in.RkPlaceFinish, in.RkPlaceSlot, in.RkPromoted = "", nil, nil, nil
		in.RkPlayoffFrom, in.RkPlayoffTo, in.RkPlayoffWinners, in.RkPlayoffThird, in.RkSurvivalRound, in.RkSurvivalRelegated = "", "", "", "", "", ""
		if g, err := strconv.Atoi(in.RkPreset); err == nil {
			if r, ok := rankingPreset(g); ok {
				in.fillRanking(r)
			}
		}
		return s.renderBrackets(c, http.StatusOK, id, in, nil)
	}
	errs := site.FieldMsgs{}
	q := atoiField(errs, ctx, "qualifiers", in.Qualifiers)
	bo := atoiField(errs, ctx, "best_of", in.BestOf)
	al := atoiField(errs, ctx, "allowance", in.AllowanceMinutes)
	if in.rankingEmpty() { // a preset chosen but not put into the fields: its line
		if g, err := strconv.Atoi(in.RkPreset); err == nil {
			if r, ok := rankingPreset(g); ok {
				in.fillRanking(r)
			}
		}
	}
	rule := rankingRuleOf(ctx, in, errs)
	if len(errs) > 0 {
		return s.renderBrackets(c, http.StatusUnprocessableEntity, id, in, errs)
	}
	st, err := s.Office.CreateStage(ctx, site.Actor(c), office.StageInput{EventID: id, Name: in.Name, NameEn: in.NameEn, Kind: in.Kind, ThirdPlace: in.ThirdPlace != "",
		Qualifiers: q, BestOf: bo, RoundDates: in.RoundDates, AllowanceMinutes: al, RankingRule: rule})
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		return s.renderBrackets(c, http.StatusUnprocessableEntity, id, in, msgs)
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, site.StageURL(st.ID))
}

// entrantRow is one entrant of the manage page.
type entrantRow struct {
	ID         int64
	Name       string
	Rank       string
	Seed       int
	EnterRound int
	Master     string
	Withdrawn  bool
	PlayerID   int64
}

// slotRow is one slot of the review table.
type slotRow struct {
	Slot   int
	Name   string
	Master string
	Bad    bool
}

// violationRow is one broken rule as a sentence in the reader's words,
// naming the players (issue 13).
type violationRow struct {
	Text string
}

// logRow is one line of the draw log, said as a sentence.
type logRow struct {
	At, By, What, Reason string
}

// stageManage is the view model of the stage page for staff.
type stageManage struct {
	Stage      StageView
	EventID    int64
	EventName  string
	Entrants   []entrantRow
	Query      string
	Found      []site.Choice
	Slots      []slotRow
	Violations []violationRow
	Breaks     []violationRow // a swap's broken rules awaiting an override reason
	breaks     []pairing.Violation
	Swap       swapInput
	Draw       drawInput
	Log        []logRow
	// SeedBy is who picked the number of the latest draw, from its log
	// (office.SeedByWitnesses / SeedByKisen; "" when the log does not say).
	SeedBy     string
	EventDraft bool // publishing the draw publishes the event too
	// BulkText and BulkProblems: a refused paste of entrants, shown again
	// with every bad line (bulk.go).
	BulkText     string
	BulkProblems []bulkProblem
	Added        int // entrants a paste just added
	// SwapPick: slots picked in the drawn bracket (brackets_pick.go).
	SwapPick swapPick
	// Can: which forms the viewer's writes would accept (a form nobody may
	// use is not shown).
	Can office.StageCan
	// MainSeats: on a 本戦 stage in setup of an event with group stages,
	// every group's 本戦 slot with its seed and entry round (main_seats.go);
	// MainSeatsPreview once they were posted and the office would take them.
	MainSeats        []mainSeatRow
	MainSeatsPreview bool
	// EmbedCode is the <iframe> code of the published stage (embeds.go).
	EmbedCode string
}

type drawInput struct {
	Seed     string `form:"seed"`
	DrawDate string `form:"draw_date"`
}

type swapInput struct {
	A      string `form:"a"`
	B      string `form:"b"`
	Reason string `form:"reason"`
}

func (s *Room) stagePage(c echo.Context) error {
	id, err := site.PathParam(c, "id")
	if err != nil {
		return err
	}
	if done, err := s.NotModifiedStage(c, id); done || err != nil {
		return err
	}
	added, _ := strconv.Atoi(c.QueryParam("added"))
	pick, _ := strconv.Atoi(c.QueryParam("pick"))
	with, _ := strconv.Atoi(c.QueryParam("with"))
	return s.renderStage(c, http.StatusOK, id, stageManage{Query: c.QueryParam("q"), Added: added, SwapPick: swapPick{Pick: pick, With: with}}, nil)
}

func (s *Room) renderStage(c echo.Context, status int, id int64, m stageManage, errs site.FieldMsgs) error {
	ctx := c.Request().Context()
	a := site.Actor(c)
	st, err := s.Office.Stage(ctx, a, id)
	if err != nil {
		return err
	}
	if err := s.Office.RequireEventRole(ctx, a, st.EventID, office.RoleDirector, office.RoleScheduler, office.RoleArbiter, office.RoleRecorder); err != nil {
		return err
	}
	v, err := s.BracketsView(ctx, a, st.EventID)
	if err != nil {
		return err
	}
	m.EventID, m.EventName, m.EventDraft = st.EventID, v.EventName, v.Draft
	m.Can = s.Office.StageCapabilities(ctx, a, st.EventID)
	for _, sv := range v.Stages {
		if sv.ID == id {
			m.Stage = sv
		}
	}
	m.Stage = stageFormsFor(m.Stage, m.Can)
	if st.Status == office.StageSetup && st.Kind != office.StageSeries && st.RankingRule == "" && m.Can.Direct {
		m.MainSeats = mainSeatRows(v.Stages, m.MainSeats)
	} else {
		m.MainSeats, m.MainSeatsPreview = nil, false
	}
	if st.Status == office.StagePublished && !v.Draft {
		m.EmbedCode = site.EmbedCode(c, "/embed/stages/"+strconv.FormatInt(id, 10), v.EventName+" "+m.Stage.Name)
	}
	if m.Draw.DrawDate == "" {
		m.Draw.DrawDate = st.DrawDate
		if m.Draw.DrawDate == "" {
			m.Draw.DrawDate = s.Office.LineageDay().String()
		}
	}
	es, err := s.Office.EntrantsOfStage(ctx, id)
	if err != nil {
		return err
	}
	ids := make([]int64, len(es))
	for i, e := range es {
		ids[i] = e.PlayerID
	}
	// The entrants' players were read with the brackets; only one missing
	// there (none expected) is read here.
	ps := make(map[int64]office.Player, len(ids))
	var missing []int64
	for _, pid := range ids {
		if p, ok := v.players[pid]; ok {
			ps[pid] = p
		} else {
			missing = append(missing, pid)
		}
	}
	if len(missing) > 0 {
		more, err := s.Office.PlayersByIDs(ctx, missing)
		if err != nil {
			return err
		}
		maps.Copy(ps, more)
	}
	day, _ := office.ParseCivilDate(m.Draw.DrawDate)
	if day.IsZero() {
		day = s.Office.LineageDay()
	}
	masters, err := s.Office.MastersAsOf(ctx, day, ids)
	if err != nil {
		return err
	}
	// The masters named, in one statement (not one per entrant).
	var mids []int64
	for _, k := range masters {
		if mid, ok := strings.CutPrefix(string(k), "p:"); ok {
			if n, err := strconv.ParseInt(mid, 10, 64); err == nil {
				mids = append(mids, n)
			}
		}
	}
	mps, err := s.Office.PlayersByIDs(ctx, mids)
	if err != nil {
		return err
	}
	masterName := func(pid int64) string {
		k, ok := masters[pid]
		if !ok {
			return ""
		}
		if mid, ok := strings.CutPrefix(string(k), "p:"); ok {
			if n, err := strconv.ParseInt(mid, 10, 64); err == nil {
				if p, ok := mps[n]; ok {
					return p.Name
				}
			}
		}
		return site.L(ctx).T("knockout.master.outside")
	}
	byEntrant := map[string]int64{}
	// name says who an id from the draw is: an entrant, a player who has
	// left the stage, or a qualifier from an earlier stage.
	name := func(id string) string {
		if pid, ok := byEntrant[id]; ok {
			return ps[pid].Name
		}
		if pid, err := strconv.ParseInt(id, 10, 64); err == nil {
			return s.PlayerName(ctx, &pid)
		}
		return placeholderName(ctx, id, v.Stages)
	}
	for _, e := range es {
		byEntrant[strconv.FormatInt(e.PlayerID, 10)] = e.PlayerID
		m.Entrants = append(m.Entrants, entrantRow{ID: e.ID, PlayerID: e.PlayerID, Name: ps[e.PlayerID].Name, Rank: ps[e.PlayerID].Rank,
			Seed: e.Seed, EnterRound: e.EnterRound, Master: masterName(e.PlayerID), Withdrawn: e.Withdrawn})
	}
	if q := strings.TrimSpace(m.Query); q != "" && st.Status == office.StageSetup {
		found, err := s.Office.PlayerChoices(ctx, q, 20)
		if err != nil {
			return err
		}
		for _, p := range found {
			if _, in := ps[p.ID]; !in {
				m.Found = append(m.Found, site.Choice{Value: strconv.FormatInt(p.ID, 10), Label: p.Name + " " + site.RankLabel(ctx, p.Rank)})
			}
		}
	}
	if st.Status != office.StageSetup && st.Kind != office.StageSeries {
		vs, err := s.Office.StageViolations(ctx, a, id)
		if err != nil {
			return err
		}
		bad := map[int]bool{}
		for _, x := range vs {
			m.Violations = append(m.Violations, violationRow{Text: site.KnockoutViolation(ctx, x, name)})
			for _, sl := range x.Slots {
				bad[sl] = true
			}
		}
		slots, err := office.StageSlots(st)
		if err != nil {
			return err
		}
		for i, e := range slots {
			row := slotRow{Slot: i + 1, Bad: bad[i]}
			switch pid, ok := byEntrant[e]; {
			case e == "":
				row.Name = site.L(ctx).T("knockout.bye")
			case ok:
				row.Name, row.Master = ps[pid].Name, masterName(pid)
			default:
				row.Name = placeholderName(ctx, e, v.Stages)
			}
			m.Slots = append(m.Slots, row)
		}
		if st.Status == office.StageDrawn && m.SwapPick.Pick > 0 && m.Can.Edit {
			if err := s.previewPick(ctx, a, &m); err != nil {
				return err
			}
		}
	}
	// The stage and the role were checked above (office.Stage,
	// RequireEventRole with DrawLog's roles): the log is read without
	// checking them again.
	logs, err := s.Office.StageDrawLog(ctx, id)
	if err != nil {
		return err
	}
	uids := make([]int64, 0, len(logs))
	for _, l := range logs {
		uids = append(uids, l.ActorID)
	}
	users, err := s.Office.StaffNames(ctx, uids)
	if err != nil {
		return err
	}
	for _, l := range logs {
		by := strconv.FormatInt(l.ActorID, 10)
		if u, ok := users[l.ActorID]; ok {
			by = cmp.Or(u.DisplayName, u.Login) // the person, not the login (issue 24 item 3)
		}
		if l.Action == "draw" {
			var d struct {
				SeedBy string `json:"seed_by"`
			}
			_ = json.Unmarshal([]byte(l.Detail), &d)
			m.SeedBy = d.SeedBy
		}
		m.Log = append(m.Log, logRow{At: site.ShowTime(l.At), By: by, What: site.DrawLogSentence(ctx, l.Action, l.Detail, name), Reason: l.Reason})
	}
	for _, x := range m.breaks {
		m.Breaks = append(m.Breaks, violationRow{Text: site.KnockoutViolation(ctx, x, name)})
	}
	site.MarkDraft(c, m.EventDraft)
	return s.Render(c, status, StagePage(s.Page(c, m.Stage.Name), m, errs))
}

// placeholderName reads "s12#1" as 「一次予選の勝ち抜け 1」: the stage by
// its name (issue 24 item 3), by number only when the reader cannot see it.
func placeholderName(ctx context.Context, id string, stages []StageView) string {
	if sid, k, ok := office.QualifierPlaceholder(id); ok {
		for _, st := range stages {
			if st.ID == sid {
				return site.T(ctx, "names.qualifier", "Stage", st.Name, "N", k)
			}
		}
		return site.L(ctx).T("knockout.qualifier", "Stage", sid, "N", k)
	}
	return id
}

func (s *Room) stageAddEntrant(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathParam(c, "id")
	if err != nil {
		return err
	}
	errs := site.FieldMsgs{}
	pid := int64(atoiField(errs, ctx, "player_id", c.FormValue("player_id")))
	seed := atoiField(errs, ctx, "seed", c.FormValue("seed"))
	round := atoiField(errs, ctx, "enter_round", c.FormValue("enter_round"))
	if len(errs) == 0 {
		_, err = s.Office.AddEntrant(ctx, site.Actor(c), office.EntrantInput{StageID: id, PlayerID: pid, Seed: seed, EnterRound: round})
		if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
			errs = msgs
		} else if err != nil {
			return err
		}
	}
	if len(errs) > 0 {
		return s.renderStage(c, http.StatusUnprocessableEntity, id, stageManage{Query: c.FormValue("q")}, errs)
	}
	return site.SeeOther(c, site.StageURL(id)+"#entrants")
}

func (s *Room) stageRemoveEntrant(c echo.Context) error {
	id, err := site.PathParam(c, "id")
	if err != nil {
		return err
	}
	eid, err := site.PathParam(c, "eid")
	if err != nil {
		return err
	}
	if err := s.Office.RemoveEntrant(c.Request().Context(), site.Actor(c), id, eid); err != nil {
		return err
	}
	return site.SeeOther(c, site.StageURL(id)+"#entrants")
}

func (s *Room) stageDraw(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathParam(c, "id")
	if err != nil {
		return err
	}
	var in drawInput
	if err := c.Bind(&in); err != nil {
		return err
	}
	_, err = s.Office.DrawStage(ctx, site.Actor(c), office.DrawInput{StageID: id, Seed: in.Seed, DrawDate: in.DrawDate})
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		return s.renderStage(c, http.StatusUnprocessableEntity, id, stageManage{Draw: in}, msgs)
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, site.StageURL(id)+"#review")
}

func (s *Room) stageSwap(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathParam(c, "id")
	if err != nil {
		return err
	}
	var in swapInput
	if err := c.Bind(&in); err != nil {
		return err
	}
	errs := site.FieldMsgs{}
	a := atoiField(errs, ctx, "a", in.A)
	b := atoiField(errs, ctx, "b", in.B)
	if len(errs) > 0 {
		return s.renderStage(c, http.StatusUnprocessableEntity, id, stageManage{Swap: in}, errs)
	}
	// The form numbers slots from 1, as the review table shows them.
	broke, err := s.Office.SwapSlots(ctx, site.Actor(c), office.SwapInput{StageID: id, A: a - 1, B: b - 1, Reason: in.Reason})
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		m := stageManage{Swap: in, breaks: broke}
		return s.renderStage(c, http.StatusUnprocessableEntity, id, m, msgs)
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, site.StageURL(id)+"#review")
}

func (s *Room) stagePublish(c echo.Context) error {
	id, err := site.PathParam(c, "id")
	if err != nil {
		return err
	}
	if !site.Confirmed(c) {
		return s.stagePublishPreview(c, id)
	}
	if err := s.Office.PublishStage(c.Request().Context(), site.Actor(c), id); err != nil {
		return err
	}
	return site.SeeOther(c, site.StageURL(id)+"#games")
}

func (s *Room) stageResult(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathParam(c, "id")
	if err != nil {
		return err
	}
	winner, _ := strconv.ParseInt(c.FormValue("winner"), 10, 64) // 0: office says the winner is missing
	in := office.QuickResultInput{StageID: id, BracketGame: c.FormValue("game"), WinnerID: winner, Reason: c.FormValue("reason")}
	if in.GameID, err = site.FormVersion(c, "game_id"); err == nil {
		if in.Version, err = site.SeenVersion(c); err == nil {
			if !site.Confirmed(c) {
				return s.stageResultPreview(c, id, in)
			}
			err = s.Office.QuickResult(ctx, site.Actor(c), in)
		}
	}
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		return s.renderStage(c, http.StatusUnprocessableEntity, id, stageManage{}, msgs)
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, site.StageURL(id)+"#games")
}

func (s *Room) stageWithdraw(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathParam(c, "id")
	if err != nil {
		return err
	}
	pid, err := strconv.ParseInt(c.FormValue("player_id"), 10, 64)
	if err != nil {
		return s.renderStage(c, http.StatusUnprocessableEntity, id, stageManage{}, site.FieldMsgs{"player_id": site.L(ctx).T("knockout.err.player")})
	}
	if err := s.Office.WithdrawEntrant(ctx, site.Actor(c), id, pid, c.FormValue("reason")); err != nil {
		return err
	}
	return site.SeeOther(c, site.StageURL(id)+"#games")
}

// stageToss enters one observed 振り駒 toss: who tossed (tosser, the 上座
// player when empty) and piece_1 … piece_5.
func (s *Room) stageToss(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathParam(c, "id")
	if err != nil {
		return err
	}
	in := office.TossInput{StageID: id, BracketGame: c.FormValue("game")}
	if t := c.FormValue("tosser"); t != "" { // "": the 上座 player tossed
		n, err := strconv.ParseInt(t, 10, 64)
		if err != nil || n <= 0 {
			return s.renderStage(c, http.StatusUnprocessableEntity, id, stageManage{}, site.FieldMsgs{"tosser": site.L(ctx).T("knockout.err.toss_tosser")})
		}
		in.Tosser = n
	}
	for i := range in.Pieces {
		in.Pieces[i] = c.FormValue("piece_" + strconv.Itoa(i+1))
	}
	_, err = s.Office.EnterToss(ctx, site.Actor(c), in)
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		return s.renderStage(c, http.StatusUnprocessableEntity, id, stageManage{}, msgs)
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, site.StageURL(id)+"#tosses")
}
