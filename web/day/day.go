package day

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/office/day"
	"kisen/pairing"
	"kisen/web/site"
)

// The amateur tournament day (issue 14, docs/amateur-day.md): the day's
// classes, reception, the draw of each round and results by board number.
// Routes are in routes.go (one block).

func dayURL(eventID int64) string { return "/events/" + strconv.FormatInt(eventID, 10) + "/day" }
func DayClassURL(classID int64) string {
	return "/day/classes/" + strconv.FormatInt(classID, 10)
}
func dayBoardsURL(classID int64, round int) string {
	return DayClassURL(classID) + "/rounds/" + strconv.Itoa(round) + "/boards"
}

// classForm is the class form as posted.
type classForm struct {
	Name             string   `form:"name"`
	NameEn           string   `form:"name_en"`
	Position         string   `form:"position"`
	Format           string   `form:"format"`
	Wins             string   `form:"wins"`
	Losses           string   `form:"losses"`
	PoolMode         string   `form:"pool_mode"`
	Rounds           string   `form:"rounds"`
	Tiebreaks        []string `form:"tiebreaks"`
	RankMin          string   `form:"rank_min"`
	RankMax          string   `form:"rank_max"`
	Handicap         string   `form:"handicap"`
	EvenGap          string   `form:"even_gap"`
	AllowanceMinutes string   `form:"allowance_minutes"`
	ByoyomiSeconds   string   `form:"byoyomi_seconds"`
	Club             string   `form:"club"`
	MasterStudent    string   `form:"master_student"`
	FellowDisciple   string   `form:"fellow_disciple"`
	Family           string   `form:"family"`
	Withdrawal       string   `form:"withdrawal"`
	Qualifiers       string   `form:"qualifiers"`
	FirstBoard       string   `form:"first_board"`
	Fee              string   `form:"fee"`
	FeeReduced       string   `form:"fee_reduced"`
	FeeReducedFor    string   `form:"fee_reduced_for"`
	FeeReducedForEn  string   `form:"fee_reduced_for_en"`
	ThreePawnToss    bool     `form:"three_pawn_toss"`
}

func (f classForm) input(eventID int64) day.ClassInput {
	return day.ClassInput{EventID: eventID, Name: f.Name, NameEn: f.NameEn, Position: f.Position, Format: f.Format,
		Wins: f.Wins, Losses: f.Losses, PoolMode: f.PoolMode, Rounds: f.Rounds, Tiebreaks: f.Tiebreaks,
		RankMin: f.RankMin, RankMax: f.RankMax, Handicap: f.Handicap, EvenGap: f.EvenGap,
		AllowanceMinutes: f.AllowanceMinutes, ByoyomiSeconds: f.ByoyomiSeconds,
		Club: f.Club, MasterStudent: f.MasterStudent, FellowDisciple: f.FellowDisciple, Family: f.Family,
		Withdrawal: f.Withdrawal, Qualifiers: f.Qualifiers, FirstBoard: f.FirstBoard, Fee: f.Fee, FeeReduced: f.FeeReduced,
		FeeReducedFor: f.FeeReducedFor, FeeReducedForEn: f.FeeReducedForEn, ThreePawnToss: f.ThreePawnToss}
}

func classFormOf(in day.ClassInput) classForm {
	return classForm{Name: in.Name, NameEn: in.NameEn, Position: in.Position, Format: in.Format,
		Wins: in.Wins, Losses: in.Losses, PoolMode: in.PoolMode, Rounds: in.Rounds, Tiebreaks: in.Tiebreaks,
		RankMin: in.RankMin, RankMax: in.RankMax, Handicap: in.Handicap, EvenGap: in.EvenGap,
		AllowanceMinutes: in.AllowanceMinutes, ByoyomiSeconds: in.ByoyomiSeconds,
		Club: in.Club, MasterStudent: in.MasterStudent, FellowDisciple: in.FellowDisciple, Family: in.Family,
		Withdrawal: in.Withdrawal, Qualifiers: in.Qualifiers, FirstBoard: in.FirstBoard, Fee: in.Fee, FeeReduced: in.FeeReduced,
		FeeReducedFor: in.FeeReducedFor, FeeReducedForEn: in.FeeReducedForEn, ThreePawnToss: in.ThreePawnToss}
}

// dayClassRow is one line of the day page's class list.
type dayClassRow struct {
	ID       int64
	Name     string
	Format   string // in words
	Ranks    string
	Entrants int
	Present  int
	Current  int // the round being played or last played (0: none drawn)
}

// dayView is the day page's view model.
type dayView struct {
	EventID   int64
	EventName string
	EventURL  string
	Classes   []dayClassRow
	CanDesk   bool
	Form      classForm
	Errs      site.FieldMsgs
	EditURL   string // set when the form edits a class
	EntryURL  string // the entry form, while it takes entries
	// Rounds lists the round numbers some class has drawn, for the
	// event-wide board pages (shown to those who enter results).
	Rounds []int
}

// requireDayEvent answers 404 for an event that is not an amateur day.
func (s *Room) requireDayEvent(ctx context.Context, eventID int64) error {
	ok, err := s.DayRoom().IsDay(ctx, eventID)
	if err != nil {
		return err
	}
	if !ok {
		return echo.NewHTTPError(http.StatusNotFound)
	}
	return nil
}

func (s *Room) DayPage(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	if done, err := s.Conditional(c, func(context.Context) (int64, error) { return id, nil }, site.CondOpts{NotLive: true}); done || err != nil {
		return err
	}
	return s.renderDay(c, http.StatusOK, classFormOf(day.InputOf(0, "", "", 0, day.FormatPools, day.DefaultSettings())), nil)
}

func (s *Room) renderDay(c echo.Context, status int, form classForm, errs site.FieldMsgs) error {
	ctx := c.Request().Context()
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	a := site.Actor(c)
	e, err := s.Office.Event(ctx, a, id)
	if err != nil {
		return err
	}
	if err := s.requireDayEvent(ctx, id); err != nil {
		return err
	}
	classes, err := s.DayRoom().Classes(ctx, a, id)
	if err != nil {
		return err
	}
	entrants, err := s.DayRoom().EntrantRowsOfEvent(ctx, id)
	if err != nil {
		return err
	}
	count, present := map[int64]int{}, map[int64]int{}
	for _, en := range entrants {
		if en.Withdrawn() {
			continue
		}
		count[en.ClassID]++
		if en.Checkin == office.CheckinPresent || en.Checkin == office.CheckinLate {
			present[en.ClassID]++
		}
	}
	v := dayView{EventID: id, EventName: site.LocalName(ctx, e.Name, e.NameEn), EventURL: "/events/" + strconv.FormatInt(id, 10), Form: form, Errs: errs}
	v.CanDesk = !a.Anonymous() && s.Office.RequireEventRole(ctx, a, id, office.RoleDirector) == nil
	// Every class links its current round for the public (day_public.go);
	// the event-wide board pages are for those who enter results.
	rounds, err := s.DayRoom().RoundsOfEvent(ctx, id)
	if err != nil {
		return err
	}
	current := map[int64]int{}
	most := 0
	for _, r := range rounds {
		most = max(most, r.Number)
		current[r.ClassID] = max(current[r.ClassID], r.Number)
	}
	if open, err := s.DayRoom().EntryOpen(ctx, id); err != nil {
		return err
	} else if open {
		v.EntryURL = dayEntryURL(id) // docs/amateur-day-entries.md
	}
	if !a.Anonymous() && s.Office.RequireEventRole(ctx, a, id, office.RoleDirector, office.RoleArbiter, office.RoleRecorder) == nil {
		for n := 1; n <= most; n++ {
			v.Rounds = append(v.Rounds, n)
		}
	}
	for _, cl := range classes {
		v.Classes = append(v.Classes, dayClassRow{ID: cl.ID, Name: site.LocalName(ctx, cl.Name, cl.NameEn), Format: formatWords(ctx, cl),
			Ranks: rankRangeWords(ctx, cl.Settings), Entrants: count[cl.ID], Present: present[cl.ID], Current: current[cl.ID]})
	}
	site.MarkDraft(c, e.Status == office.StatusDraft)
	return s.Render(c, status, DayPage(s.Page(c, v.EventName), v))
}

// formatWords says a class's format: 2勝通過2敗失格 / スイス式 4回戦 / トーナメントのみ.
func formatWords(ctx context.Context, cl day.Class) string {
	st := cl.Settings
	switch cl.Format {
	case day.FormatPools:
		return site.T(ctx, "day.format.pools_n", "Wins", st.Wins, "Losses", st.Losses)
	case day.FormatSwiss:
		return site.T(ctx, "day.format.swiss_n", "Rounds", st.Rounds)
	}
	return site.T(ctx, "day.format.knockout")
}

func rankRangeWords(ctx context.Context, st day.ClassSettings) string {
	switch {
	case st.RankMin == "" && st.RankMax == "":
		return site.T(ctx, "day.ranks.any")
	case st.RankMin == "":
		return site.T(ctx, "day.ranks.up_to", "Max", site.RankLabel(ctx, st.RankMax))
	case st.RankMax == "":
		return site.T(ctx, "day.ranks.from", "Min", site.RankLabel(ctx, st.RankMin))
	}
	return site.T(ctx, "day.ranks.between", "Min", site.RankLabel(ctx, st.RankMin), "Max", site.RankLabel(ctx, st.RankMax))
}

func (s *Room) DayClassCreate(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	var f classForm
	if err := c.Bind(&f); err != nil {
		return err
	}
	cl, err := s.DayRoom().CreateClass(ctx, site.Actor(c), f.input(id))
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		return s.renderDay(c, http.StatusUnprocessableEntity, f, msgs)
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, DayClassURL(cl.ID))
}

// dayClassEdit shows the class form filled with the class's settings.
func (s *Room) DayClassEdit(c echo.Context) error {
	ctx := c.Request().Context()
	cid, err := site.PathParam(c, "cid")
	if err != nil {
		return err
	}
	cl, err := s.DayRoom().Class(ctx, site.Actor(c), cid)
	if err != nil {
		return err
	}
	return s.renderClassEdit(c, http.StatusOK, cl, classFormOf(day.InputOf(cl.EventID, cl.Name, cl.NameEn, cl.Position, cl.Format, cl.Settings)), nil)
}

func (s *Room) renderClassEdit(c echo.Context, status int, cl day.Class, f classForm, errs site.FieldMsgs) error {
	ctx := c.Request().Context()
	if err := s.Office.RequireEventRole(ctx, site.Actor(c), cl.EventID, office.RoleDirector); err != nil {
		return err
	}
	v := dayView{EventID: cl.EventID, EventName: site.LocalName(ctx, cl.Name, cl.NameEn), EventURL: DayClassURL(cl.ID), CanDesk: true, Form: f, Errs: errs, EditURL: DayClassURL(cl.ID)}
	return s.Render(c, status, DayClassEditPage(s.Page(c, v.EventName), v))
}

func (s *Room) DayClassUpdate(c echo.Context) error {
	ctx := c.Request().Context()
	cid, err := site.PathParam(c, "cid")
	if err != nil {
		return err
	}
	cl, err := s.DayRoom().Class(ctx, site.Actor(c), cid)
	if err != nil {
		return err
	}
	var f classForm
	if err := c.Bind(&f); err != nil {
		return err
	}
	_, err = s.DayRoom().UpdateClass(ctx, site.Actor(c), cid, f.input(cl.EventID))
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		return s.renderClassEdit(c, http.StatusUnprocessableEntity, cl, f, msgs)
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, DayClassURL(cid))
}

// dayBoardRow is one board of a round as the class and board pages show
// it.
type dayBoardRow struct {
	Board     int
	Anchor    string  // the row's id: the board number, with the class on the event-wide page
	Class     string  // the class's name on the event-wide page
	BaseURL   string  // the class round's board URL the row's forms post under
	GameID    int64   // the game now in play (a redo game after 千日手 / 持将棋)
	chain     []int64 // the board's games, first to current: what a form may name
	GameURL   string
	Version   int
	Sente     string
	Gote      string
	Handicap  string // in the reader's language
	Even      bool   // 平手
	SenteBy   string // in words
	Result    string // in words; "" while undecided
	Decided   bool
	Redo      bool // the board is being replayed (指し直し)
	Forfeit   bool
	Enterable bool // one tap decides it (both seats known, not decided, no redo pending)
	// CanToss: the board's sente is a 振り駒 and nothing has been played or
	// entered yet, so the toss seen at the board may be entered.
	CanToss   bool
	Tossers   [2]dayTosser // the 上座 player first
	ThreePawn bool         // the class allows the simplified three-歩 toss
	TossNote  string       // the observed tosses so far, in words
	// Pending: the seats wait for the 振り駒 at the board, so the row names
	// the pair (Pair) without 先手/後手; Choices are the result buttons,
	// one per player, by name (day_seats.go).
	Pending         bool
	SenteID, GoteID int64
	Pair            string
	Choices         []dayWinChoice
}

// dayTosser is one of a board's two players, who may toss the 歩.
type dayTosser struct {
	ID   int64
	Name string
}

// dayRoundView is one drawn round.
type dayRoundView struct {
	Number    int
	Boards    []dayBoardRow
	Byes      []string
	NotKept   []string // avoidances not kept, in words
	Complete  bool
	BoardsURL string
}

// dayEntrantRow is one entrant on the class and reception pages.
type dayEntrantRow struct {
	PlayerID  int64
	Name      string
	URL       string
	Rank      string
	Club      string
	ClassID   int64
	Class     string
	ByDirect  bool // the director chose the class
	Checkin   string
	Withdrawn bool
	WalkIn    bool
	CheckinBy string // who set the check-in state, and when (Asia/Tokyo)
	CheckinAt string
	// The entry fee: what the entrant's category owes (yen, 0 none; the
	// amount the fee form starts with), the category and, in words, the
	// category with its fee, what the desk last recorded and what to notice
	// (unpaid, short, over; FeeFlagBad when it is owed money).
	FeeDue          int
	FeeCategory     string
	FeeHasReduced   bool   // the class has a reduced fee to choose
	FeeReducedWords string // the reduced category's name
	FeeExpected     string
	FeeStatus       string // day.FeePaid, day.FeeUnpaid or ""
	FeeWords        string
	FeeFlag         string
	FeeFlagBad      bool
}

// dayClassView is the class page's view model.
type dayClassView struct {
	ClassID   int64
	Name      string
	DayURL    string
	Format    string
	Facts     [][2]string // label, value
	Rounds    []dayRoundView
	Entrants  []dayEntrantRow
	CanDesk   bool
	CanEnter  bool
	CanDraw   bool
	NextRound int
	Message   string // a refusal to show above the draw button
}

func (s *Room) DayClassPage(c echo.Context) error {
	if done, err := s.dayClassNotModified(c); done || err != nil {
		return err
	}
	return s.renderClass(c, http.StatusOK, "")
}

func (s *Room) renderClass(c echo.Context, status int, message string) error {
	ctx := c.Request().Context()
	cid, err := site.PathParam(c, "cid")
	if err != nil {
		return err
	}
	cv, err := s.DayRoom().ClassView(ctx, site.Actor(c), cid)
	if err != nil {
		return err
	}
	v := dayClassView{ClassID: cid, Name: site.LocalName(ctx, cv.Class.Name, cv.Class.NameEn), DayURL: dayURL(cv.Event.ID), Format: formatWords(ctx, cv.Class),
		CanDesk: cv.CanDesk, CanEnter: cv.CanEnter, CanDraw: cv.CanDesk && cv.CanDraw() && !cv.PreliminaryOver(), NextRound: cv.NextRound(), Message: message}
	v.Facts = classFacts(ctx, cv.Class)
	for _, r := range cv.Rounds {
		v.Rounds = append(v.Rounds, roundView(ctx, cv, r))
	}
	for _, e := range cv.Entrants {
		v.Entrants = append(v.Entrants, dayEntrant(ctx, e, ""))
	}
	site.MarkDraft(c, cv.Event.Status == office.StatusDraft)
	return s.Render(c, status, DayClassPage(s.Page(c, v.Name), v))
}

// classFacts lists a class's settings in words.
func classFacts(ctx context.Context, cl day.Class) [][2]string {
	st := cl.Settings
	facts := [][2]string{
		{site.T(ctx, "day.field.format"), formatWords(ctx, cl)},
		{site.T(ctx, "day.field.ranks"), rankRangeWords(ctx, st)},
		{site.T(ctx, "day.field.handicap"), site.T(ctx, "day.handicap."+st.Handicap, "N", st.EvenGap)},
		{site.T(ctx, "day.field.time"), site.T(ctx, "day.time", "Minutes", st.AllowanceMinutes, "Seconds", st.ByoyomiSeconds)},
		{site.T(ctx, "day.field.relations"), site.T(ctx, "day.relations_summary",
			"Club", site.T(ctx, "day.policy."+st.Relations.Club), "MasterStudent", site.T(ctx, "day.policy."+st.Relations.MasterStudent),
			"FellowDisciple", site.T(ctx, "day.policy."+st.Relations.FellowDisciple), "Family", site.T(ctx, "day.policy."+st.Relations.Family))},
		{site.T(ctx, "day.field.withdrawal"), site.T(ctx, "day.withdrawal."+st.Withdrawal)},
		{site.T(ctx, "day.field.qualifiers"), strconv.Itoa(st.Qualifiers)},
		{site.T(ctx, "day.field.first_board"), strconv.Itoa(st.FirstBoard)},
	}
	if cl.Format == day.FormatSwiss {
		var tb []string
		for _, t := range st.Tiebreaks {
			tb = append(tb, site.T(ctx, "day.tiebreak."+t))
		}
		facts = append(facts, [2]string{site.T(ctx, "day.field.tiebreaks"), strings.Join(tb, site.T(ctx, "day.list_sep"))})
	}
	return facts
}

func dayEntrant(ctx context.Context, e day.EntrantRow, class string) dayEntrantRow {
	return dayEntrantRow{PlayerID: e.PlayerID, Name: e.Name, URL: site.PlayerURL(e.PlayerID), Rank: site.RankLabel(ctx, e.DeclaredRank), Club: e.Affiliation,
		ClassID: e.ClassID, Class: class, ByDirect: e.ClassBy == "director", Checkin: e.Checkin, Withdrawn: e.Withdrawn(), WalkIn: e.WalkIn}
}

func roundView(ctx context.Context, cv day.ClassView, r day.RoundState) dayRoundView {
	out := dayRoundView{Number: r.Number, Complete: r.Complete(), BoardsURL: dayBoardsURL(cv.Class.ID, r.Number)}
	for _, b := range r.Boards {
		out.Boards = append(out.Boards, boardRow(ctx, cv, b))
	}
	for _, id := range r.Byes {
		out.Byes = append(out.Byes, cv.Names[id])
	}
	var nk []day.Avoidance
	_ = jsonUnmarshal(r.NotKept, &nk)
	for _, a := range nk {
		out.NotKept = append(out.NotKept, site.T(ctx, "day.notkept", "Relation", site.T(ctx, "day.relation."+a.Relation), "A", a.Names[0], "B", a.Names[1]))
	}
	return out
}

func boardRow(ctx context.Context, cv day.ClassView, b day.Board) dayBoardRow {
	row := dayBoardRow{Board: b.Board, Anchor: strconv.Itoa(b.Board), BaseURL: dayBoardsURL(cv.Class.ID, b.Round), GameID: b.Last.ID, chain: b.Chain, GameURL: site.GameURL(b.Last.ID), Version: b.Version,
		Sente: cv.Names[b.Sente], Gote: cv.Names[b.Gote], Handicap: site.HandicapLabel(ctx, b.Last.Handicap), Even: b.Last.Handicap == "平手", Decided: b.Decided}
	if b.SenteBy != "" {
		row.SenteBy = site.T(ctx, "day.sente_by."+b.SenteBy)
	}
	row.Redo = !b.Decided && (b.Last.ID != b.Root.ID || b.InForce.Result == office.ResultRedo)
	if b.Decided {
		row.Forfeit = b.InForce.Reason == office.ReasonForfeit
		switch b.InForce.Result {
		case office.ResultSenteWin:
			row.Result = site.T(ctx, "day.result.sente_win", "Name", row.Sente)
		case office.ResultGoteWin:
			row.Result = site.T(ctx, "day.result.gote_win", "Name", row.Gote)
		default:
			row.Result = site.T(ctx, "day.result.other")
		}
	}
	row.Enterable = !b.Decided && b.InForce.Result != office.ResultRedo && b.Sente != 0 && b.Gote != 0
	row.CanToss = b.SenteBy == pairing.SenteByFurigoma && b.Version == 0 && b.Last.ID == b.Root.ID && b.Last.StartedAt == nil && row.Enterable
	// the 上座 player tosses (000 第7条1, D-Z2): first, and so the default
	row.Tossers = [2]dayTosser{{b.Sente, row.Sente}, {b.Gote, row.Gote}}
	if b.Joza() == b.Gote {
		row.Tossers[0], row.Tossers[1] = row.Tossers[1], row.Tossers[0]
	}
	row.Tossers[0].Name = site.T(ctx, "seating.tosser_default", "Name", row.Tossers[0].Name)
	row.ThreePawn = cv.Class.Settings.ThreePawnToss
	if f := b.Observed; f != nil {
		tosser, _ := strconv.ParseInt(f.Tosser, 10, 64)
		last := f.Tosses[len(f.Tosses)-1]
		fu, to := last.Count()
		if f.Decided {
			row.TossNote = site.T(ctx, "day_toss.note.decided", "Tosser", cv.Names[tosser], "Fu", fu, "To", to)
		} else {
			row.TossNote = site.T(ctx, "day_toss.note.tie", "Tosser", cv.Names[tosser], "Fu", fu, "To", to)
		}
	}
	seatWords(ctx, &row, b)
	return row
}

// joinNames lists names with the language's separator.
func joinNames(ctx context.Context, names []string) string {
	return strings.Join(names, site.T(ctx, "day.list_sep"))
}

// fmtPoints shows a score in wins: 3 or 2.5.
func fmtPoints(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// eventKindDay is the events form's choice for an amateur day: an event of
// kind knockout marked as a day (office/day.CreateDay).
const EventKindDay = "day"

// dayClassNotModified answers a conditional GET of a page of the class
// named by :cid (cache.go); a bad id is left to the handler.
func (s *Room) dayClassNotModified(c echo.Context) (bool, error) {
	cid, err := site.PathParam(c, "cid")
	if err != nil {
		return false, nil
	}
	return s.NotModifiedDayClass(c, cid)
}
