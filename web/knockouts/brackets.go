package knockouts

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/pairing"
	"kisen/web/site"
)

// bracketRoutes: knockout stages, draws and brackets (issue 5).
func (s *Room) BracketRoutes(e *echo.Echo) {
	e.GET("/events/:id/brackets", s.bracketsPage)
	e.POST("/events/:id/stages", s.stageCreate, site.RequireUser)
	e.GET("/stages/:id", s.stagePage, site.RequireUser)
	e.GET("/stages/:id/csv", s.stageCSV)
	e.POST("/stages/:id/entrants", s.stageAddEntrant, site.RequireUser)
	e.POST("/stages/:id/entrants/:eid/remove", s.stageRemoveEntrant, site.RequireUser)
	e.POST("/stages/:id/draw", s.stageDraw, site.RequireUser)
	e.POST("/stages/:id/swap", s.stageSwap, site.RequireUser)
	e.POST("/stages/:id/publish", s.stagePublish, site.RequireUser)
	e.POST("/stages/:id/unpublish", s.stageUnpublish, site.RequireUser, s.ActsOnStage(office.StagePublishRoles...))
	e.POST("/stages/:id/result", s.stageResult, site.RequireUser, s.ActsOnStage(office.QuickResultRoles...))
	e.POST("/stages/:id/withdraw", s.stageWithdraw, site.RequireUser, s.ActsOnStage(office.RoleDirector), s.CorrectionGate(office.CorrectionWithdrawal))
	e.POST("/stages/:id/toss", s.stageToss, site.RequireUser)
	e.GET("/events/:id/handicap", s.handicapPage)
	e.POST("/events/:id/handicap", s.handicapSave, site.RequireUser)
}

// bracketSide is one player line of a bracket game.
type BracketSide struct {
	Name   string
	Bye    bool // nobody: a bye or an empty place
	Wait   bool // not known yet
	Winner bool
	Sente  bool
	Mark   string // ○ the winner, ● the loser of a decided game
}

// bracketGameView is one game box of the tree.
type BracketGameView struct {
	ID       string // "R1-G3"
	Sides    [2]BracketSide
	Status   string
	Kind     string
	GameID   int64 // the current game of the redo chain, linked to /games/:id
	Result   string
	Reason   string
	Redos    int
	Date     string
	Furigoma [][]string // the tosses, five faces each (pairing.Face)
	Players  [2]site.Choice
	CanEnter bool
	// Version is the current game's newest result version (0: none),
	// posted back with GameID by the quick result form (issue 11).
	Version int
	// Bye: a seeded player advances with nobody opposite. It is not a
	// game: no label, no date, no games row; ByeName is who advances.
	Bye     bool
	ByeName string
	// Handicap is the 手合割 when it is not an even game, with the 上手.
	Handicap string
	// The 振り駒: who tossed, the simulated tosses and the observed ones,
	// each toss as five marks (歩/と/立/重); SenteBy says which one counts.
	Tosser    string
	SimTosses [][]string
	ObsTosses [][]string
	ObsSente  string
	SenteBy   string
	CanToss   bool
}

type StageView struct {
	ID         int64
	EventID    int64
	Name       string
	Kind       string
	Status     string
	Size       int
	Seed       string
	DrawDate   string
	Method     string
	ThirdPlace bool
	Qualifiers int
	BestOf     int
	Rounds     [][]BracketGameView
	Third      *BracketGameView
	// Consolation is the 交流戦 of the first-round losers and its winner.
	Consolation         [][]BracketGameView
	ConsolationChampion string
	Champion            string
	Advancing           []string
	Series              []BracketGameView
	SeriesWins          [2]int
	SeriesName          [2]string
	Voided              []site.VoidedGameView // games corrections made void (corrections.go)
}

type bracketsView struct {
	EventID   int64
	EventName string
	Stages    []StageView
	Staff     bool
	Kinds     []string
	IsTitle   bool
	Draft     bool // the event is a draft: pages carry the 下書き mark, publishing a stage publishes it
	CanEdit   bool // the viewer may add stages (the new-stage form)
	// players are the event's entrants and the players its brackets
	// name, as EventBrackets read them: ID, Name and Rank, what the
	// stage page shows of its entrants (it reuses them).
	players map[int64]office.Player
}

func bracketGameOf(eb office.EventBracket, g office.BracketGame, staff bool) BracketGameView {
	v := BracketGameView{ID: g.ID, Status: string(g.Status), Kind: string(g.Kind), GameID: g.DecidingGameID, Result: g.Result,
		Reason: g.Reason, Redos: g.Redos, Version: g.Version, Date: g.ScheduledOn}
	for i, id := range g.Players {
		side := BracketSide{Winner: id != "" && id == g.Winner}
		if id != "" {
			side.Name = eb.PlayerName(id)
		}
		switch {
		case id == "" && (g.Status == pairing.StatusPending):
			side.Wait = true
		case id == "":
			side.Bye = true
		}
		if p, err := strconv.ParseInt(id, 10, 64); err == nil && p == g.SenteID {
			side.Sente = true
		}
		v.Sides[i] = side
		v.Players[i] = site.Choice{Value: id, Label: side.Name}
	}
	v.CanEnter = staff && g.Status == pairing.StatusReady && g.GameID != 0 && g.Result != office.ResultRedo
	if g.Status == pairing.StatusWalkover && (g.Players[0] == "") != (g.Players[1] == "") {
		v.Bye, v.Status, v.Date = true, "bye", ""
		v.ByeName = v.Sides[0].Name + v.Sides[1].Name // exactly one is set
	}
	if g.Winner != "" && !v.Bye {
		for i := range v.Sides {
			if v.Sides[i].Winner {
				v.Sides[i].Mark = "○"
			} else if g.Players[i] != "" {
				v.Sides[i].Mark = "●"
			}
		}
	}
	if g.Handicap != "" && g.Handicap != string(pairing.Hirate) {
		v.Handicap = g.Handicap
	}
	setTosses(&v, eb, g.SenteBy, g.Furigoma, g.Observed)
	v.Furigoma = v.SimTosses // the same faces: read, never changed, by the templates
	v.CanToss = staff && v.Tosser != "" && !g.Started && (g.SenteBy == pairing.SenteByFurigoma || g.SenteBy == pairing.SenteByObserved) &&
		(g.Observed == nil || !g.Observed.Decided)
	return v
}

// tossFaces lists each toss as its five faces (the page says them in the
// reader's words).
func tossFaces(f *pairing.Furigoma) [][]string {
	if f == nil {
		return nil
	}
	n := 0
	for _, t := range f.Tosses {
		n += len(t.Pieces)
	}
	faces := make([]string, 0, n) // one block for every toss's faces
	out := make([][]string, len(f.Tosses))
	for i, t := range f.Tosses {
		start := len(faces)
		for _, p := range t.Pieces {
			faces = append(faces, string(p))
		}
		out[i] = faces[start:len(faces):len(faces)]
	}
	return out
}

func setTosses(v *BracketGameView, eb office.EventBracket, senteBy string, sim, obs *pairing.Furigoma) {
	v.SenteBy = senteBy
	if sim != nil {
		v.Tosser = eb.PlayerName(sim.Tosser)
	}
	v.SimTosses, v.ObsTosses = tossFaces(sim), tossFaces(obs)
	if obs != nil && obs.Decided {
		v.ObsSente = eb.PlayerName(obs.Sente)
	}
}

func (s *Room) BracketsView(ctx context.Context, a office.Actor, eventID int64) (bracketsView, error) {
	eb, err := s.Office.EventBrackets(ctx, a, eventID)
	if err != nil {
		return bracketsView{}, err
	}
	v := bracketsView{EventID: eventID, EventName: site.LocalName(ctx, eb.Event.Name, eb.Event.NameEn), Staff: eb.Staff,
		IsTitle: eb.Event.Kind == office.EventTitleMatch, Draft: office.IsDraft(eb.Event), players: eb.Players}
	for _, k := range office.StageKinds {
		if (k == office.StageSeries) == v.IsTitle {
			v.Kinds = append(v.Kinds, k)
		}
	}
	voided, err := s.VoidedOf(ctx, eventID)
	if err != nil {
		return v, err
	}
	for _, sb := range eb.Stages {
		st := sb.Stage
		sv := StageView{ID: st.ID, EventID: eventID, Name: site.StageName(ctx, st.Name, st.NameEn, st.Kind), Kind: st.Kind, Status: st.Status, Size: len(sb.Slots),
			Seed: st.DrawSeed, DrawDate: st.DrawDate, Method: st.Method, ThirdPlace: st.ThirdPlace, Qualifiers: st.Qualifiers, BestOf: st.BestOf}
		sv.Voided = voided[st.ID]
		if sb.Champion != "" {
			sv.Champion = eb.PlayerName(sb.Champion)
		}
		for _, q := range sb.Qualifiers {
			if q != "" {
				sv.Advancing = append(sv.Advancing, eb.PlayerName(q))
			}
		}
		if len(sb.Rounds) > 0 {
			sv.Rounds = make([][]BracketGameView, 0, len(sb.Rounds))
		}
		for _, round := range sb.Rounds {
			row := make([]BracketGameView, len(round))
			for i, g := range round {
				row[i] = bracketGameOf(eb, g, eb.Staff && st.Status == office.StagePublished)
			}
			sv.Rounds = append(sv.Rounds, row)
		}
		if sb.ThirdPlace != nil {
			g := bracketGameOf(eb, *sb.ThirdPlace, eb.Staff && st.Status == office.StagePublished)
			sv.Third = &g
		}
		for _, round := range sb.Consolation {
			var row []BracketGameView
			for _, g := range round {
				row = append(row, bracketGameOf(eb, g, eb.Staff && st.Status == office.StagePublished))
			}
			sv.Consolation = append(sv.Consolation, row)
		}
		if sb.ConsolationChampion != "" {
			sv.ConsolationChampion = eb.PlayerName(sb.ConsolationChampion)
		}
		if se := sb.Series; se != nil {
			sv.SeriesWins = se.State.Wins
			sv.SeriesName = [2]string{eb.PlayerName(se.Players[0]), eb.PlayerName(se.Players[1])}
			for _, g := range se.Games {
				gv := BracketGameView{ID: g.BracketGame, GameID: g.GameID, Result: g.Result, Reason: g.Reason, Date: g.ScheduledOn, Version: g.Version,
					Status: string(pairing.StatusReady)}
				if g.Redo {
					gv.Redos = 1
				}
				for i, pid := range []int64{g.SenteID, g.GoteID} {
					id := strconv.FormatInt(pid, 10)
					gv.Sides[i] = BracketSide{Name: eb.PlayerName(id), Sente: i == 0,
						Winner: (g.Result == office.ResultSenteWin && i == 0) || (g.Result == office.ResultGoteWin && i == 1)}
					gv.Players[i] = site.Choice{Value: id, Label: gv.Sides[i].Name}
				}
				if g.Result != "" && g.Result != office.ResultPending {
					gv.Status = string(pairing.StatusDone)
				}
				gv.CanEnter = eb.Staff && g.Result == ""
				setTosses(&gv, eb, g.SenteBy, g.Furigoma, g.Observed)
				gv.Furigoma = gv.SimTosses
				gv.CanToss = eb.Staff && g.Result == "" && !g.Redo && g.Furigoma != nil &&
					(g.SenteBy == pairing.SenteByFurigoma || g.SenteBy == pairing.SenteByObserved) && (g.Observed == nil || !g.Observed.Decided)
				sv.Series = append(sv.Series, gv)
			}
		}
		v.Stages = append(v.Stages, sv)
	}
	return v, nil
}

func (s *Room) bracketsPage(c echo.Context) error {
	id, err := site.PathParam(c, "id")
	if err != nil {
		return err
	}
	if done, err := s.NotModifiedEvent(c, id); done || err != nil {
		return err
	}
	return s.renderBrackets(c, http.StatusOK, id, stageInput{}, nil)
}

func (s *Room) renderBrackets(c echo.Context, status int, id int64, in stageInput, errs site.FieldMsgs) error {
	ctx := c.Request().Context()
	v, err := s.BracketsView(ctx, site.Actor(c), id)
	if err != nil {
		return err
	}
	site.MarkDraft(c, v.Draft)
	v.CanEdit = s.Office.StageCapabilities(ctx, site.Actor(c), id).Edit
	return s.Render(c, status, BracketsPage(s.Page(c, v.EventName+" — "+site.L(ctx).T("knockout.brackets.title")), v, in, errs))
}

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
	errs := site.FieldMsgs{}
	q := atoiField(errs, ctx, "qualifiers", in.Qualifiers)
	bo := atoiField(errs, ctx, "best_of", in.BestOf)
	al := atoiField(errs, ctx, "allowance", in.AllowanceMinutes)
	if len(errs) > 0 {
		return s.renderBrackets(c, http.StatusUnprocessableEntity, id, in, errs)
	}
	st, err := s.Office.CreateStage(ctx, site.Actor(c), office.StageInput{EventID: id, Name: in.Name, NameEn: in.NameEn, Kind: in.Kind, ThirdPlace: in.ThirdPlace != "",
		Qualifiers: q, BestOf: bo, RoundDates: in.RoundDates, AllowanceMinutes: al})
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
		return placeholderName(ctx, id)
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
				row.Name = placeholderName(ctx, e)
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
			by = u.Login
		}
		m.Log = append(m.Log, logRow{At: site.ShowTime(l.At), By: by, What: site.DrawLogSentence(ctx, l.Action, l.Detail, name), Reason: l.Reason})
	}
	for _, x := range m.breaks {
		m.Breaks = append(m.Breaks, violationRow{Text: site.KnockoutViolation(ctx, x, name)})
	}
	site.MarkDraft(c, m.EventDraft)
	return s.Render(c, status, StagePage(s.Page(c, m.Stage.Name), m, errs))
}

// placeholderName reads "s12#1" as "qualifier 1 of stage 12".
func placeholderName(ctx context.Context, id string) string {
	if sid, k, ok := office.QualifierPlaceholder(id); ok {
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

// csvColumns are the documented columns of a stage's CSV export.
var csvColumns = []string{"stage", "round", "game", "player_1", "player_2", "status", "winner", "kind", "result", "reason", "redos", "scheduled_on", "game_id"}

// stageCSV exports a stage's draw and results (UTF-8 with a BOM so Excel
// reads the Japanese names). Public for published stages.
func (s *Room) stageCSV(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathParam(c, "id")
	if err != nil {
		return err
	}
	if done, err := s.NotModifiedStage(c, id); done || err != nil {
		return err
	}
	st, err := s.Office.Stage(ctx, site.Actor(c), id)
	if err != nil {
		return err
	}
	v, err := s.BracketsView(ctx, site.Actor(c), st.EventID)
	if err != nil {
		return err
	}
	var sv *StageView
	for i := range v.Stages {
		if v.Stages[i].ID == id {
			sv = &v.Stages[i]
		}
	}
	if sv == nil {
		return fmt.Errorf("stage %d: %w", id, office.ErrNotFound)
	}
	var buf bytes.Buffer
	buf.WriteString("\uFEFF")
	w := office.NewCSVWriter(&buf)
	_ = w.Write(csvColumns)
	row := func(round string, g BracketGameView) {
		winner := ""
		for _, sd := range g.Sides {
			if sd.Winner {
				winner = sd.Name
			}
		}
		name := func(sd BracketSide) string {
			if sd.Bye {
				return "-"
			}
			return sd.Name
		}
		gid := ""
		if g.GameID != 0 {
			gid = strconv.FormatInt(g.GameID, 10)
		}
		// The round, the redo count, the game id and a bye's "-" are
		// Kisen's own; every other cell is neutralised.
		own := []int{1, 10, 12}
		for i, sd := range g.Sides {
			if sd.Bye {
				own = append(own, 3+i)
			}
		}
		_ = w.Write([]string{sv.Name, round, g.ID, name(g.Sides[0]), name(g.Sides[1]), g.Status, winner, g.Kind, g.Result, g.Reason,
			strconv.Itoa(g.Redos), g.Date, gid}, own...)
	}
	for r, round := range sv.Rounds {
		for _, g := range round {
			row(strconv.Itoa(r+1), g)
		}
	}
	if sv.Third != nil {
		row("3P", *sv.Third)
	}
	for _, g := range sv.Series {
		row("S", g)
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return err
	}
	c.Response().Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="stage-%d.csv"`, id))
	return c.Blob(http.StatusOK, "text/csv; charset=utf-8", buf.Bytes())
}

// allGames lists a stage's games in bracket order, third place and series
// games included, for the quick-result forms.
func allGames(st StageView) []BracketGameView {
	var out []BracketGameView
	for _, r := range st.Rounds {
		out = append(out, r...)
	}
	if st.Third != nil {
		out = append(out, *st.Third)
	}
	return append(out, st.Series...)
}

// gamePairs groups a round's games two by two: each pair feeds one game of
// the next round, and the tree's connector joins the pair (CSS, no script).
// The last round shown is not joined: each of its games leads straight to
// the champion or to a qualifier of the next stage.
func gamePairs(round []BracketGameView, joined bool) [][]BracketGameView {
	step := 1
	if joined {
		step = 2
	}
	var out [][]BracketGameView
	for i := 0; i < len(round); i += step {
		out = append(out, round[i:min(i+step, len(round))])
	}
	return out
}

// stageToss enters one observed 振り駒 toss: piece_1 … piece_5.
func (s *Room) stageToss(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathParam(c, "id")
	if err != nil {
		return err
	}
	in := office.TossInput{StageID: id, BracketGame: c.FormValue("game")}
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

// bracketColID is the id of round r's column of a stage's tree (-1: the
// champion's column), for the phone's round links.
func BracketColID(stageID int64, r int) string {
	if r < 0 {
		return "stage-" + strconv.FormatInt(stageID, 10) + "-end"
	}
	return "stage-" + strconv.FormatInt(stageID, 10) + "-round-" + strconv.Itoa(r+1)
}

func bracketColAnchor(stageID int64, r int) string { return "#" + BracketColID(stageID, r) }

// finalPlayers names the two players of the final once both are known.
func finalPlayers(st StageView) (string, string, bool) {
	if len(st.Rounds) == 0 || len(st.Rounds[len(st.Rounds)-1]) != 1 {
		return "", "", false
	}
	f := st.Rounds[len(st.Rounds)-1][0]
	if f.Bye || f.Sides[0].Wait || f.Sides[1].Wait || f.Sides[0].Name == "" || f.Sides[1].Name == "" {
		return "", "", false
	}
	return f.Sides[0].Name, f.Sides[1].Name, true
}

// stageFormsFor hides the stage page's per-game forms (quick results,
// observed tosses) from a viewer whose write would be refused.
func stageFormsFor(st StageView, can office.StageCan) StageView {
	fix := func(g *BracketGameView) {
		g.CanEnter = g.CanEnter && can.Result
		g.CanToss = g.CanToss && can.Direct
	}
	rounds := make([][]BracketGameView, len(st.Rounds))
	for r := range st.Rounds {
		rounds[r] = append([]BracketGameView(nil), st.Rounds[r]...)
		for i := range rounds[r] {
			fix(&rounds[r][i])
		}
	}
	st.Rounds = rounds
	if st.Third != nil {
		g := *st.Third
		fix(&g)
		st.Third = &g
	}
	st.Series = append([]BracketGameView(nil), st.Series...)
	for i := range st.Series {
		fix(&st.Series[i])
	}
	return st
}
