package knockouts

import (
	"context"
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
	e.POST("/stages/:id/main-seats", s.stageMainSeats, site.RequireUser) // main_seats.go
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
	ID string // "R1-G3": the bracket's own id (test ids, forms, the CSV's game column)
	// Label is the game as staff say it, in the reader's language:
	// 「準決勝 第1局」, 「決勝」, 「三位決定戦」, 「第3局」 of a 番勝負 (issue 24);
	// "" for a bye. Links and the CSV's game_label column show it.
	Label  string
	Sides  [2]BracketSide
	Status string
	Kind   string
	GameID int64 // the current game of the redo chain, linked to /games/:id
	Result string
	Reason string
	Redos  int
	Date   string
	// TossNote is what the public 番勝負 table says of a game's toss when
	// no physical toss decided it (the simulated toss is never shown as
	// one that happened): "drawn" (sente fixed by the draw, TossSente
	// named), "waiting" (a physical toss still to be recorded) or "".
	TossNote  string
	TossSente string
	Players   [2]site.Choice
	CanEnter  bool
	// Version is the current game's newest result version (0: none),
	// posted back with GameID by the quick result form (issue 11).
	Version int
	// Bye: a seeded player advances with nobody opposite. It is not a
	// game: no label, no date, no games row; ByeName is who advances.
	Bye     bool
	ByeName string
	// Handicap is the 手合割 when it is not an even game, with the 上手.
	Handicap string
	// The 振り駒: the 上座 player, who tosses by the rules (Tosser, their
	// id TosserID, the other player OtherID / OtherName), the simulated
	// tosses and the observed ones, each toss as its marks (歩/と/立/重), and
	// who actually tossed at the board (ObsTosser); SenteBy says which one
	// counts.
	Tosser    string
	TosserID  string
	OtherID   string
	OtherName string
	SimTosses [][]string
	ObsTosses [][]string
	ObsTosser string
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
	// AdvanceHead heads the end of a stage that sends players on
	// (Qualifiers ≥ 1) instead of 優勝: 「本戦進出」, naming the next stage
	// (issue 24 item 3). "" for a stage played to its champion.
	AdvanceHead string
	Series      []BracketGameView
	SeriesWins  [2]int
	SeriesName  [2]string
	// SeriesNeed is the wins each player still needs to take the series
	// (0 once it is over); SeriesDraws the 持将棋 games counted as games,
	// SeriesMax the longest the series can now last; CountJishogi the
	// event's setting the tally follows (D-R3, 000 第9条第9項).
	SeriesNeed   [2]int
	SeriesDraws  int
	SeriesMax    int
	CountJishogi bool
	SeriesOver   bool
	Voided       []site.VoidedGameView // games corrections made void (corrections.go)
	// Ranking is a ranking group's 決定戦, 残留決定戦 and outcome (nil for
	// an ordinary stage; ranking.go).
	Ranking *RankingGroupView
}

type bracketsView struct {
	EventID   int64
	EventName string
	Stages    []StageView
	Staff     bool
	Kinds     []string
	IsTitle   bool
	// SeriesAllowed: the event is a knockout whose last stage may be
	// followed by its title match (office.SeriesFollows).
	SeriesAllowed bool
	Draft         bool // the event is a draft: pages carry the 下書き mark, publishing a stage publishes it
	CanEdit       bool // the viewer may add stages (the new-stage form)
	// HasGroups: the event has ranking groups (the outcome page's link);
	// TermReady: every group has finished and the viewer is an
	// administrator (the next term's link, ranking_term.go).
	HasGroups bool
	TermReady bool
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
		v.Tosser, v.TosserID = eb.PlayerName(sim.Tosser), sim.Tosser
		v.OtherName, v.OtherID = eb.PlayerName(sim.Other), sim.Other
	}
	v.SimTosses, v.ObsTosses = tossFaces(sim), tossFaces(obs)
	if obs != nil && len(obs.Tosses) > 0 {
		v.ObsTosser = eb.PlayerName(obs.Tosser)
	}
	if obs != nil && obs.Decided {
		v.ObsSente = eb.PlayerName(obs.Sente)
	}
}

// tossNote says what a 番勝負 game's toss column shows besides the
// recorded physical tosses (ObsTosses, ObsSente): a game decided by the
// simulated toss shows its sente as decided, without the simulated pieces;
// one waiting for its physical toss says so; a game by alternation or a
// redo game (D-R1) has no toss.
func tossNote(senteBy string, obs *pairing.Furigoma, redo bool) string {
	switch {
	case redo || (obs != nil && obs.Decided):
		return ""
	case senteBy == pairing.SenteByObserved:
		return "waiting"
	case senteBy == pairing.SenteByFurigoma:
		return "drawn"
	}
	return ""
}

func (s *Room) BracketsView(ctx context.Context, a office.Actor, eventID int64) (bracketsView, error) {
	eb, err := s.Office.EventBrackets(ctx, a, eventID)
	if err != nil {
		return bracketsView{}, err
	}
	v := bracketsView{EventID: eventID, EventName: site.LocalName(ctx, eb.Event.Name, eb.Event.NameEn), Staff: eb.Staff,
		IsTitle: eb.Event.Kind == office.EventTitleMatch, Draft: office.IsDraft(eb.Event), players: eb.Players}
	existing := make([]office.KnockoutStage, len(eb.Stages))
	for i, sb := range eb.Stages {
		existing[i] = sb.Stage
	}
	// A knockout event offers the 番勝負 once its last stage is a 本戦
	// sending one player on (the challenger, issue 24 item 2).
	v.SeriesAllowed = eb.Staff && office.SeriesFollows(eb.Event.Kind, existing)
	for _, k := range office.StageKinds {
		if (k == office.StageSeries) == v.IsTitle || k == office.StageSeries && v.SeriesAllowed {
			v.Kinds = append(v.Kinds, k)
		}
	}
	voided, err := s.VoidedOf(ctx, eventID)
	if err != nil {
		return v, err
	}
	for i, sb := range eb.Stages {
		st := sb.Stage
		sv := StageView{ID: st.ID, EventID: eventID, Name: site.StageName(ctx, st.Name, st.NameEn, st.Kind), Kind: st.Kind, Status: st.Status, Size: len(sb.Slots),
			Seed: st.DrawSeed, DrawDate: st.DrawDate, Method: st.Method, ThirdPlace: st.ThirdPlace, Qualifiers: st.Qualifiers, BestOf: st.BestOf}
		sv.Voided = voided[st.ID]
		if st.Qualifiers > 0 && st.Kind != office.StageSeries {
			sv.AdvanceHead = advanceHead(ctx, eb.Stages[i+1:])
		}
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
		sv.Ranking = rankingGroupOf(ctx, eb, sb, eb.Staff && st.Status == office.StagePublished)
		labelGames(ctx, &sv)
		if sb.ConsolationChampion != "" {
			sv.ConsolationChampion = eb.PlayerName(sb.ConsolationChampion)
		}
		if se := sb.Series; se != nil {
			sv.SeriesWins = se.State.Wins
			sv.SeriesDraws, sv.SeriesMax, sv.CountJishogi, sv.SeriesOver = se.State.Draws, se.State.MaxGames, se.CountJishogi, se.State.Over
			if !se.State.Over {
				sv.SeriesNeed = [2]int{se.State.Need - se.State.Wins[0], se.State.Need - se.State.Wins[1]}
			}
			for i, id := range se.Players {
				sv.SeriesName[i] = seriesPlayerName(ctx, eb, id)
			}
			for _, g := range se.Games {
				gv := BracketGameView{ID: g.BracketGame, GameID: g.GameID, Result: g.Result, Reason: g.Reason, Date: g.ScheduledOn, Version: g.Version,
					Status: string(pairing.StatusReady), Label: site.T(ctx, "names.game.series", "N", g.Number)}
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
				if g.Counted {
					gv.Result = "jishogi_counted" // a game of the series with no winner (000 第9条第9項)
				}
				setTosses(&gv, eb, g.SenteBy, g.Furigoma, g.Observed)
				gv.TossNote = tossNote(g.SenteBy, g.Observed, g.Redo)
				if gv.TossNote == "drawn" {
					gv.TossSente = gv.Sides[0].Name
				}
				gv.CanToss = eb.Staff && g.Result == "" && !g.Redo && g.Furigoma != nil &&
					(g.SenteBy == pairing.SenteByFurigoma || g.SenteBy == pairing.SenteByObserved) && (g.Observed == nil || !g.Observed.Decided)
				sv.Series = append(sv.Series, gv)
			}
		}
		v.Stages = append(v.Stages, sv)
	}
	// The groups' term (D-G5): its outcome page once there are groups,
	// and for administrators the next term once every group has finished.
	groups, done := 0, true
	for _, sv := range v.Stages {
		if sv.Ranking != nil {
			groups++
			done = done && sv.Ranking.Finished && sv.Status == office.StagePublished
		}
	}
	v.HasGroups = groups > 0
	v.TermReady = a.Admin && groups > 0 && done
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

// seriesPlayerName names a 番勝負's side: the player, or — while the
// 本戦's final is not decided — the challenger in words, 「挑戦者（本戦の
// 勝者）」, never the placeholder id (issue 24 item 2).
func seriesPlayerName(ctx context.Context, eb office.EventBracket, id string) string {
	sid, _, ok := office.QualifierPlaceholder(id)
	if !ok {
		return eb.PlayerName(id)
	}
	for _, sb := range eb.Stages {
		if st := sb.Stage; st.ID == sid {
			return site.T(ctx, "knockout.series.challenger", "Stage", site.StageName(ctx, st.Name, st.NameEn, st.Kind))
		}
	}
	return site.T(ctx, "knockout.series.challenger_tbd")
}

// advanceHead says where a stage's winners go: the next stage the reader
// may see, by name (「本戦進出」), else the next stage in general.
func advanceHead(ctx context.Context, later []office.StageBracket) string {
	if len(later) > 0 {
		nx := later[0].Stage
		return site.T(ctx, "names.advance.next", "Stage", site.StageName(ctx, nx.Name, nx.NameEn, nx.Kind))
	}
	return site.T(ctx, "names.advance.some")
}

// RoundHead names round r (0-based) of the stage's tree as staff say it:
// 決勝, 準決勝, 準々決勝, 予選決勝 or n回戦.
func (st StageView) RoundHead(ctx context.Context, r int) string {
	return site.KnockoutRound(ctx, r+1, len(st.Rounds), st.Qualifiers)
}

// ConsolationHead names round r (0-based) of the stage's 交流戦 by its
// distance from the 交流戦's own final.
func (st StageView) ConsolationHead(ctx context.Context, r int) string {
	return site.KnockoutRound(ctx, r+1, len(st.Consolation), 0)
}

// labelGames names every game of a stage's tree, third-place game and 交流戦
// as staff say it (Label): the round's name (pairing.NameRound, said once a
// round) and the game's number in the round when it has several.
func labelGames(ctx context.Context, sv *StageView) {
	for r, row := range sv.Rounds {
		head := sv.RoundHead(ctx, r)
		for i := range row {
			if !row[i].Bye {
				row[i].Label = site.GameInRound(ctx, head, len(row), gameNumber(row[i].ID, i+1))
			}
		}
	}
	if sv.Third != nil {
		sv.Third.Label = site.ThirdPlaceWords(ctx)
	}
	for r, row := range sv.Consolation {
		head := sv.ConsolationHead(ctx, r)
		for i := range row {
			if !row[i].Bye {
				row[i].Label = site.T(ctx, "names.game.consolation", "Round", site.GameInRound(ctx, head, len(row), gameNumber(row[i].ID, i+1)))
			}
		}
	}
}

// Name is the game as the page says it: its Label, else its bracket id.
func (g *BracketGameView) Name() string {
	if g.Label != "" {
		return g.Label
	}
	return g.ID
}

// gameNumber is the game number of a bracket id ("R2-G3" → 3), else def.
func gameNumber(id string, def int) int {
	if i := strings.LastIndex(id, "-G"); i >= 0 {
		if n, err := strconv.Atoi(id[i+2:]); err == nil && n > 0 {
			return n
		}
	}
	return def
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
