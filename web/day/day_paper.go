package day

import (
	"context"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/office/day"
	"kisen/rules"
	"kisen/web/site"
)

// Paper a desk hands out (issue 14 part 6, docs/amateur-day-paper.md):
// A4 print pages for a class round's pairings and game slips, the day's
// check-in list, the block sheets of a pools class, and a class's
// standings with its round-by-round crosstable. Each is an ordinary page
// whose print stylesheet (static/day-paper.css) lays it out on A4.

// dayPaperRoutes registers the day's paper, the players' report and the
// director's view (one block after the day's routes).
func (s *Room) DayPaperRoutes(e *echo.Echo) {
	e.GET("/day/classes/:cid/rounds/:n/pairings/print", s.dayPairingSheet)
	e.GET("/day/classes/:cid/rounds/:n/slips/print", s.daySlips, site.RequireUser)
	e.POST("/day/classes/:cid/rounds/:n/slips/print", s.daySlipsWithQR, site.RequireUser)
	e.GET("/day/classes/:cid/blocks/print", s.dayBlockSheets)
	e.GET("/day/classes/:cid/standings/print", s.dayStandingsSheet)
	e.GET("/events/:id/day/checkin/print", s.dayCheckinSheet, site.RequireUser)
	e.GET("/events/:id/day/director", s.dayDirector, site.RequireUser)
	e.POST("/day/classes/:cid/paper", s.dayPaperSave, site.RequireUser)
	e.GET("/r/:token", s.dayReportPage)
	e.POST("/r/:token", s.dayReportPost)
	e.POST("/day/classes/:cid/rounds/:n/boards/:b/report", s.dayLoneReportConfirm, site.RequireUser)
}

func DayRoundPaperURL(classID int64, round int, sheet string) string {
	return DayClassURL(classID) + "/rounds/" + strconv.Itoa(round) + "/" + sheet + "/print"
}

func DayDirectorURL(eventID int64) string { return dayURL(eventID) + "/director" }

// paperPerson is a player as the paper names them.
type paperPerson struct {
	Name    string
	Reading string
	Club    string
	Rank    string
}

func personOf(ctx context.Context, e day.EntrantRow) paperPerson {
	r := e.DeclaredRank
	if r == "" {
		r = e.Rank
	}
	return paperPerson{Name: e.Name, Reading: e.Reading, Club: e.Affiliation, Rank: site.RankLabel(ctx, r)}
}

// paperHead is the heading every sheet carries.
type paperHead struct {
	Event    string
	Class    string
	Format   string
	BackURL  string
	BackText string
}

// paperBoard is one board as the pairing sheet and the slips show it.
type paperBoard struct {
	Board    int
	Round    int
	Block    string
	Sente    paperPerson
	Gote     paperPerson
	Handicap string
	SenteBy  string
	Decided  bool
	// Pending: the seats wait for the 振り駒 at the board: the slip names
	// both players without 先手/後手 and offers a 「先」 to circle.
	Pending bool
	// Tosser: the 上座 player, who tosses the 振り駒 at a pending board.
	Tosser string
	// SenteQR and GoteQR are each player's own code (just issued), printed
	// on that player's half of the slip.
	SenteQR *qrCode
	GoteQR  *qrCode
}

type pairingSheetView struct {
	Head   paperHead
	Round  int
	Boards []paperBoard
	Byes   []paperPerson
	// Pending: every undecided board waits for the 振り駒 at the board, so
	// the columns name players, not seats.
	Pending bool
}

type slipsView struct {
	Head      paperHead
	Round     int
	Slips     []paperBoard
	QROn      bool // the class prints QR codes
	WithQR    bool // this page carries them (just issued)
	CanIssue  bool
	IssueURL  string
	Undecided int
}

// classPaper reads a class and one of its drawn rounds for a sheet.
func (s *Room) classPaper(c echo.Context) (day.ClassView, day.RoundState, map[int64]paperPerson, error) {
	ctx := c.Request().Context()
	cid, err := site.PathParam(c, "cid")
	if err != nil {
		return day.ClassView{}, day.RoundState{}, nil, err
	}
	v, err := s.DayRoom().ClassView(ctx, site.Actor(c), cid)
	if err != nil {
		return v, day.RoundState{}, nil, err
	}
	people := map[int64]paperPerson{}
	for _, e := range v.Entrants {
		people[e.PlayerID] = personOf(ctx, e)
	}
	n, err := strconv.Atoi(c.Param("n"))
	if c.Param("n") == "" {
		return v, day.RoundState{}, people, nil
	}
	r, ok := v.Round(n)
	if err != nil || !ok {
		return v, r, people, echo.NewHTTPError(http.StatusNotFound)
	}
	return v, r, people, nil
}

func paperHeadOf(ctx context.Context, v day.ClassView) paperHead {
	return paperHead{Event: v.Event.Name, Class: site.LocalName(ctx, v.Class.Name, v.Class.NameEn), Format: formatWords(ctx, v.Class),
		BackURL: DayClassURL(v.Class.ID), BackText: site.T(ctx, "day_paper.back_class")}
}

// boardsOf lists a round's boards as printed: the chain's current game's
// players (a redo swaps colours) and 手合割.
func boardsOf(ctx context.Context, v day.ClassView, r day.RoundState, people map[int64]paperPerson) []paperBoard {
	blockOf := map[int64]string{}
	if bs, err := v.Blocks(); err == nil {
		for _, b := range bs {
			for _, id := range b.Players {
				n, _ := strconv.ParseInt(id, 10, 64)
				blockOf[n] = b.ID
			}
		}
	}
	out := make([]paperBoard, 0, len(r.Boards))
	for _, b := range r.Boards {
		sb := ""
		if b.SenteBy != "" {
			sb = site.T(ctx, "day.sente_by."+b.SenteBy)
		}
		pending := b.SeatsPending() && !b.Decided
		if pending {
			sb = site.T(ctx, "day_seats.by_pending")
		}
		pb := paperBoard{Board: b.Board, Round: r.Number, Block: blockOf[b.Sente], Sente: people[b.Sente], Gote: people[b.Gote],
			Handicap: handicapWords(ctx, b.Last.Handicap), SenteBy: sb, Decided: b.Decided, Pending: pending}
		if pending {
			pb.Tosser = people[b.Joza()].Name // 000 第7条1: the 上座 player's 歩 (D-Z2)
		}
		out = append(out, pb)
	}
	return out
}

// handicapWords is a 手合割 in the reader's language (none stored: 平手).
func handicapWords(ctx context.Context, h string) string {
	if h == "" {
		h = rules.Even.Name()
	}
	return site.HandicapLabel(ctx, h)
}

func (s *Room) dayPairingSheet(c echo.Context) error {
	ctx := c.Request().Context()
	if done, err := s.dayClassNotModified(c); done || err != nil {
		return err
	}
	v, r, people, err := s.classPaper(c)
	if err != nil {
		return err
	}
	pv := pairingSheetView{Head: paperHeadOf(ctx, v), Round: r.Number, Boards: boardsOf(ctx, v, r, people)}
	for _, b := range pv.Boards {
		if b.Pending {
			pv.Pending = true
		} else if !b.Decided {
			pv.Pending = false
			break
		}
	}
	for _, id := range r.Byes {
		pv.Byes = append(pv.Byes, people[id])
	}
	title := site.T(ctx, "day_paper.pairings.title", "Class", pv.Head.Class, "N", r.Number)
	return s.Render(c, http.StatusOK, DayPairingSheet(s.Page(c, title), pv))
}

func (s *Room) daySlips(c echo.Context) error {
	return s.renderSlips(c, nil)
}

// daySlipsWithQR issues new report links for the round's undecided
// boards and answers with the slips carrying their codes. The tokens
// exist only in this response (the database keeps their hashes), so the
// page is the POST's answer rather than a redirect; sending it again
// issues new codes and the earlier sheet's stop working.
func (s *Room) daySlipsWithQR(c echo.Context) error {
	ctx := c.Request().Context()
	cid, err := site.PathParam(c, "cid")
	if err != nil {
		return err
	}
	n, err := strconv.Atoi(c.Param("n"))
	if err != nil {
		return echo.NewHTTPError(http.StatusNotFound)
	}
	toks, err := s.DayRoom().IssueSlipLinks(ctx, site.Actor(c), cid, n)
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		cl, cerr := s.DayRoom().Class(ctx, site.Actor(c), cid)
		if cerr != nil {
			return cerr
		}
		return s.renderDirector(c, http.StatusUnprocessableEntity, cl.EventID, directorMsg{ClassID: cid, Text: firstMsg(msgs)})
	}
	if err != nil {
		return err
	}
	base := c.Scheme() + "://" + c.Request().Host
	codes := map[int64]slipCodes{}
	for game, sec := range toks {
		sq, err := NewQR(base + "/r/" + sec.Sente)
		if err != nil {
			return err
		}
		gq, err := NewQR(base + "/r/" + sec.Gote)
		if err != nil {
			return err
		}
		codes[game] = slipCodes{sente: &sq, gote: &gq}
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return s.renderSlips(c, codes)
}

// slipCodes are the two players' codes of one slip.
type slipCodes struct{ sente, gote *qrCode }

func (s *Room) renderSlips(c echo.Context, codes map[int64]slipCodes) error {
	ctx := c.Request().Context()
	v, r, people, err := s.classPaper(c)
	if err != nil {
		return err
	}
	if !v.CanEnter {
		return office.ErrForbidden
	}
	paper, err := s.DayRoom().Paper(ctx, site.Actor(c), v.Class.ID)
	if err != nil {
		return err
	}
	sv := slipsView{Head: paperHeadOf(ctx, v), Round: r.Number, QROn: paper.QR, WithQR: codes != nil, CanIssue: paper.QR && v.CanDesk,
		IssueURL: DayRoundPaperURL(v.Class.ID, r.Number, "slips")}
	for i, b := range boardsOf(ctx, v, r, people) {
		if b.Decided {
			continue
		}
		sv.Undecided++
		cs := codes[r.Boards[i].Root.ID]
		b.SenteQR, b.GoteQR = cs.sente, cs.gote
		sv.Slips = append(sv.Slips, b)
	}
	title := site.T(ctx, "day_paper.slips.title", "Class", sv.Head.Class, "N", r.Number)
	return s.Render(c, http.StatusOK, DaySlipsSheet(s.Page(c, title), sv))
}

// checkinView is the printed check-in list, one table per class.
type checkinView struct {
	Event   string
	BackURL string
	Classes []checkinClass
}

type checkinClass struct {
	Name     string
	Fee      string // the class's fee, in words
	Received string // the class's fees taken so far
	// Categories is expected against received per fee category (only
	// when the class has a reduced fee); Total the class's.
	Categories []string
	Total      string
	Rows       []checkinRow
}

type checkinRow struct {
	No     int
	Person paperPerson
	State  string
	WalkIn bool
	Fee    string // paid (amount) / unpaid, "" while nothing is recorded: the desk writes it
	// Expected is the category and what it owes; Flag what to notice
	// (unpaid, short, over), Bad when money is owed.
	Expected string
	// ExpectedCat and ExpectedAmount are Expected's two parts, printed so
	// the amount is never cut (「2,000\n円」).
	ExpectedCat    string
	ExpectedAmount string
	Flag           string
	Bad            bool
}

func (s *Room) dayCheckinSheet(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathParam(c, "id")
	if err != nil {
		return err
	}
	sh, err := s.DayRoom().CheckinSheet(ctx, site.Actor(c), id)
	if err != nil {
		return err
	}
	v := checkinView{Event: sh.Event.Name, BackURL: DayDirectorURL(id)}
	idx := map[int64]int{}
	reducedFor := map[int64][2]string{}
	for _, cl := range sh.Classes {
		idx[cl.ID] = len(v.Classes)
		v.Classes = append(v.Classes, checkinClass{Name: site.LocalName(ctx, cl.Name, cl.NameEn)})
	}
	for _, cf := range sh.Fees.Classes {
		if i, ok := idx[cf.ClassID]; ok {
			cc := &v.Classes[i]
			cc.Fee, cc.Received = feeWords(ctx, cf.Fee, cf.FeeReduced), yen(ctx, cf.Received)
			if cf.FeeReduced > 0 || cf.Reduced != (day.CategoryFees{}) {
				for _, c := range []struct {
					cat string
					f   day.CategoryFees
				}{{day.FeeCategoryFull, cf.Full}, {day.FeeCategoryReduced, cf.Reduced}} {
					cc.Categories = append(cc.Categories, site.T(ctx, "day_fee.paper.category_line", "Category", feeCategoryWords(ctx, c.cat, cf.FeeReducedFor, cf.FeeReducedForEn),
						"Expected", yen(ctx, c.f.Expected), "Received", yen(ctx, c.f.Received)))
				}
			}
			cc.Total = site.T(ctx, "day_fee.paper.class_total", "Expected", yen(ctx, cf.Expected), "Received", yen(ctx, cf.Received), "Unpaid", cf.Unpaid, "Short", cf.Short)
			reducedFor[cf.ClassID] = [2]string{cf.FeeReducedFor, cf.FeeReducedForEn}
		}
	}
	for _, e := range sh.Entrants {
		i, ok := idx[e.ClassID]
		if !ok {
			continue
		}
		state := site.T(ctx, "day.checkin."+e.Checkin)
		if e.Withdrawn() {
			state = site.T(ctx, "day.checkin.withdrawn")
		}
		cc := &v.Classes[i]
		row := checkinRow{No: len(cc.Rows) + 1, Person: personOf(ctx, e), State: state, WalkIn: e.WalkIn}
		if f, ok := sh.Fees.ByPlayer[e.PlayerID]; ok {
			if f.Status != "" {
				row.Fee = feeStatusWords(ctx, f)
			}
			rf := reducedFor[e.ClassID]
			row.Expected = site.T(ctx, "day_fee.expected", "Category", feeCategoryWords(ctx, f.Category, rf[0], rf[1]), "Amount", yen(ctx, f.Expected))
			row.ExpectedCat, row.ExpectedAmount = feeCategoryWords(ctx, f.Category, rf[0], rf[1]), yen(ctx, f.Expected)
			row.Flag, row.Bad = feeFlag(ctx, f, !e.Withdrawn() && (e.Checkin == office.CheckinPresent || e.Checkin == office.CheckinLate))
			if row.Flag != "" && f.Status != day.FeePaid {
				row.Fee = "" // the flag says unpaid
			}
		}
		cc.Rows = append(cc.Rows, row)
	}
	return s.Render(c, http.StatusOK, DayCheckinSheet(s.Page(c, site.T(ctx, "day_paper.checkin.title", "Event", v.Event)), v))
}

// blockSheetsView is one sheet per block of a pools class.
type blockSheetsView struct {
	Head   paperHead
	Blocks []blockSheet
}

type blockSheet struct {
	ID      string
	Players []paperPerson
	Games   []blockGame
}

type blockGame struct {
	Round  int
	Board  int
	Sente  string
	Gote   string
	Winner string
}

func (s *Room) dayBlockSheets(c echo.Context) error {
	ctx := c.Request().Context()
	if done, err := s.dayClassNotModified(c); done || err != nil {
		return err
	}
	v, _, people, err := s.classPaper(c)
	if err != nil {
		return err
	}
	bs, err := v.Blocks()
	if err != nil {
		return err
	}
	bv := blockSheetsView{Head: paperHeadOf(ctx, v)}
	blockOf := map[int64]int{}
	for i, b := range bs {
		sh := blockSheet{ID: b.ID}
		for _, id := range b.Players {
			n, _ := strconv.ParseInt(id, 10, 64)
			blockOf[n] = i
			sh.Players = append(sh.Players, people[n])
		}
		bv.Blocks = append(bv.Blocks, sh)
	}
	for _, r := range v.Rounds {
		for _, b := range r.Boards {
			i, ok := blockOf[b.Sente]
			if j, ok2 := blockOf[b.Gote]; !ok || !ok2 || i != j {
				continue
			}
			g := blockGame{Round: r.Number, Board: b.Board, Sente: people[b.Sente].Name, Gote: people[b.Gote].Name}
			if b.Winner != 0 {
				g.Winner = people[b.Winner].Name
			}
			bv.Blocks[i].Games = append(bv.Blocks[i].Games, g)
		}
	}
	return s.Render(c, http.StatusOK, DayBlockSheets(s.Page(c, site.T(ctx, "day_paper.blocks.title", "Class", bv.Head.Class)), bv))
}

// standingsSheetView is a class's standings with each player's games by
// round: the opponent's line number and ○ (win), ● (loss), □ (bye).
type standingsSheetView struct {
	Head   paperHead
	Swiss  bool
	Rounds []int
	Rows   []standingsSheetRow
}

type standingsSheetRow struct {
	No     int
	Place  string
	Person paperPerson
	Block  string
	Cells  []string
	Wins   string
	Record string // pools: 2勝1敗
	Status string
	Extra  [2]string // Swiss: ソルコフ, SB
}

func (s *Room) dayStandingsSheet(c echo.Context) error {
	ctx := c.Request().Context()
	if done, err := s.dayClassNotModified(c); done || err != nil {
		return err
	}
	v, _, people, err := s.classPaper(c)
	if err != nil {
		return err
	}
	st, err := v.Standings()
	if err != nil {
		return err
	}
	sv := standingsSheetView{Head: paperHeadOf(ctx, v), Swiss: v.Class.Format == day.FormatSwiss}
	line := map[int64]int{}
	for _, l := range st.Swiss {
		line[l.PlayerID] = len(sv.Rows) + 1
		sv.Rows = append(sv.Rows, standingsSheetRow{No: len(sv.Rows) + 1, Place: strconv.Itoa(l.Place), Person: people[l.PlayerID],
			Wins: num(l.Wins), Extra: [2]string{num(l.Solkoff), num(l.SB)}, Status: shownWords(ctx, l.Shown, l.Withdrawn)})
	}
	for _, l := range st.Pools {
		line[l.PlayerID] = len(sv.Rows) + 1
		status := site.T(ctx, "day.status."+l.Status)
		if l.Withdrawn {
			status = withdrawnWords(ctx, true)
		}
		sv.Rows = append(sv.Rows, standingsSheetRow{No: len(sv.Rows) + 1, Person: people[l.PlayerID], Block: l.Block,
			Record: site.T(ctx, "day_paper.record", "W", l.Wins, "L", l.Losses), Status: status})
	}
	for _, r := range v.Rounds {
		sv.Rounds = append(sv.Rounds, r.Number)
	}
	for i := range sv.Rows {
		sv.Rows[i].Cells = make([]string, len(v.Rounds))
	}
	cell := func(player, opp int64, mark string, ri int) {
		if i, ok := line[player]; ok {
			sv.Rows[i-1].Cells[ri] = mark + strconv.Itoa(line[opp])
		}
	}
	for ri, r := range v.Rounds {
		for _, b := range r.Boards {
			ms, mg := "", ""
			switch b.Winner {
			case b.Sente:
				ms, mg = "○", "●"
			case b.Gote:
				ms, mg = "●", "○"
			default:
				ms, mg = "・", "・"
			}
			cell(b.Sente, b.Gote, ms, ri)
			cell(b.Gote, b.Sente, mg, ri)
		}
		for _, id := range r.Byes {
			if i, ok := line[id]; ok {
				sv.Rows[i-1].Cells[ri] = "□"
			}
		}
	}
	return s.Render(c, http.StatusOK, DayStandingsSheet(s.Page(c, site.T(ctx, "day_paper.standings.title", "Class", sv.Head.Class)), sv))
}

func withdrawnWords(ctx context.Context, w bool) string {
	if !w {
		return ""
	}
	return site.T(ctx, "day.checkin.withdrawn")
}

// num shows a score: whole numbers without a decimal point.
func num(f float64) string {
	if f == float64(int64(f)) {
		return strconv.FormatInt(int64(f), 10)
	}
	return strconv.FormatFloat(f, 'f', 1, 64)
}

// paperSettingsForm is the class's paper settings as posted.
type paperSettingsForm struct {
	QR          string `form:"qr"`
	WaitMinutes string `form:"wait_minutes"`
}

func (s *Room) dayPaperSave(c echo.Context) error {
	ctx := c.Request().Context()
	cid, err := site.PathParam(c, "cid")
	if err != nil {
		return err
	}
	var f paperSettingsForm
	if err := c.Bind(&f); err != nil {
		return err
	}
	err = s.DayRoom().SetPaper(ctx, site.Actor(c), day.PaperInput{ClassID: cid, QR: f.QR == "1", WaitMinutes: f.WaitMinutes})
	cl, cerr := s.DayRoom().Class(ctx, site.Actor(c), cid)
	if cerr != nil {
		return cerr
	}
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		return s.renderDirector(c, http.StatusUnprocessableEntity, cl.EventID, directorMsg{ClassID: cid, Text: firstMsg(msgs), Wait: f.WaitMinutes})
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, DayDirectorURL(cl.EventID)+"#class-"+strconv.FormatInt(cid, 10))
}

// slipsPerPage is how many slips one A4 sheet holds: two columns of four.
const SlipsPerPage = 8

// slipPages cuts the slips into A4 sheets.
func slipPages(s []paperBoard) [][]paperBoard {
	var out [][]paperBoard
	for len(s) > 0 {
		n := min(SlipsPerPage, len(s))
		out = append(out, s[:n])
		s = s[n:]
	}
	return out
}

// blockBlankRows pads a block's game table to the games a block of n
// plays at most (four players: 1–2 and 3–4, winners and losers, the two
// 1–1 players: five games), so the desk can write them in by hand.
func blockBlankRows(games, players int) []struct{} {
	want := 5
	if players <= 3 {
		want = 3
	}
	return make([]struct{}, max(0, want-games))
}

// shownWords is a Swiss line's 状況 on paper, as the public standings say
// it (決勝進出, 進出圏, 対局中, 敗退, 棄権; issue 23 §4).
func shownWords(ctx context.Context, shown string, withdrawn bool) string {
	if shown == "" || withdrawn {
		return withdrawnWords(ctx, withdrawn)
	}
	return site.T(ctx, "day_public.shown."+shown)
}
