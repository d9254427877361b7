package day

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/office/day"
	"kisen/web/players"
	"kisen/web/site"
)

// walkInForm is the desk's one short form for a walk-in.
type walkInForm struct {
	Name          string `form:"name"`
	Reading       string `form:"reading"`
	Rank          string `form:"rank"`
	Affiliation   string `form:"affiliation"`
	MasterNumber  string `form:"master_number"`
	MasterName    string `form:"master_name"`
	MasterReading string `form:"master_reading"`
	RelativeID    string `form:"relative_id"`
	ClassID       string `form:"class_id"`
	Late          string `form:"late"`
	FeeStatus     string `form:"fee_status"`
	FeeAmount     string `form:"fee_amount"`
	FeeCategory   string `form:"fee_category"`
}

// receptionView is the reception page's view model.
type receptionView struct {
	EventID   int64
	EventName string
	DayURL    string
	Entrants  []deskRow
	Classes   []site.Choice
	Query     string
	Found     []players.PickCandidate // registered players matching Query, not yet entered
	Searched  bool
	Walk      walkInForm
	Errs      site.FieldMsgs
	Message   string
	Counts    map[string]int // per check-in state
	Fees      []dayFeeLine   // per class: each category, then the class
	FeeDay    []dayFeeLine   // the day: each category, then the day
	FeeTotal  string         // the day's received total, in words
	// AnyReduced: some class has a reduced fee, so registration and the
	// walk-in offer the category.
	AnyReduced bool
}

// dayFeeLine is one line of the desk's fee totals: a class's (or the
// day's) category, or its total.
type dayFeeLine struct {
	Class      string
	Category   string // the category and its fee in words; "" on a total line
	Total      bool
	CheckedIn  int
	Paid       int
	Unpaid     int
	Short      int
	Expected   string
	Received   string
	Balance    string // received − expected
	BalanceBad bool   // less received than expected
}

func feeLine(ctx context.Context, class, category string, total bool, c day.CategoryFees) dayFeeLine {
	return dayFeeLine{Class: class, Category: category, Total: total, CheckedIn: c.CheckedIn, Paid: c.Paid, Unpaid: c.Unpaid, Short: c.Short,
		Expected: yen(ctx, c.Expected), Received: yen(ctx, c.Received), Balance: signedYen(ctx, c.Received-c.Expected), BalanceBad: c.Received < c.Expected}
}

func (s *Room) DayReception(c echo.Context) error {
	return s.renderReception(c, http.StatusOK, walkInForm{}, nil, "")
}

func (s *Room) renderReception(c echo.Context, status int, walk walkInForm, errs site.FieldMsgs, message string) error {
	v, draft, err := s.receptionData(c, true, nil)
	if err != nil {
		return err
	}
	v.Walk, v.Errs, v.Message = walk, errs, message
	ctx := c.Request().Context()
	v.Query = strings.TrimSpace(c.QueryParam("q"))
	if v.Query != "" {
		entered := map[int64]bool{}
		for _, en := range v.Entrants {
			entered[en.PlayerID] = true
		}
		pg, err := s.Office.SearchPlayers(ctx, v.Query, 1)
		if err != nil {
			return err
		}
		v.Searched = true
		for _, p := range pg.Players {
			if entered[p.ID] || len(v.Found) == players.PickerLimit {
				continue
			}
			detail := p.Reading
			if p.Rank != "" {
				detail += " · " + p.Rank
			}
			if p.Affiliation != "" {
				detail += " · " + p.Affiliation
			}
			v.Found = append(v.Found, players.PickCandidate{ID: p.ID, Name: p.Name, Detail: detail})
		}
	}
	site.MarkDraft(c, draft)
	return s.Render(c, status, DayReceptionPage(s.Page(c, site.T(ctx, "day.reception.title", "Event", v.EventName)), v))
}

// receptionData reads the desk: the entrants' rows (those want keeps; nil
// keeps all), the counts and the fee totals, in a fixed number of
// statements (directors). live makes the page open the event's stream
// (read before the data, docs/live.md).
func (s *Room) receptionData(c echo.Context, live bool, want func(en day.EntrantRow, number int) bool) (v receptionView, draft bool, err error) {
	ctx := c.Request().Context()
	id, err := site.PathID(c)
	if err != nil {
		return receptionView{}, false, err
	}
	a := site.Actor(c)
	e, err := s.Office.Event(ctx, a, id)
	if err != nil {
		return receptionView{}, false, err
	}
	fail := func(err error) (receptionView, bool, error) { return receptionView{}, false, err }
	if err := s.requireDayEvent(ctx, id); err != nil {
		return fail(err)
	}
	if err := s.Office.RequireEventRole(ctx, a, id, office.RoleDirector); err != nil {
		return fail(err)
	}
	if live {
		s.MarkLive(c, id)
	}
	classes, err := s.DayRoom().Classes(ctx, a, id)
	if err != nil {
		return fail(err)
	}
	entrants, err := s.DayRoom().EntrantRowsOfEvent(ctx, id)
	if err != nil {
		return fail(err)
	}
	v = receptionView{EventID: id, EventName: site.LocalName(ctx, e.Name, e.NameEn), DayURL: dayURL(id), Counts: map[string]int{}}
	className := map[int64]string{}
	for _, cl := range classes {
		n := site.LocalName(ctx, cl.Name, cl.NameEn)
		className[cl.ID] = n
		v.Classes = append(v.Classes, site.Choice{Value: strconv.FormatInt(cl.ID, 10), Label: n})
	}
	var staff []int64
	for _, en := range entrants {
		if en.CheckinBy != nil {
			staff = append(staff, *en.CheckinBy)
		}
	}
	users, err := s.Office.StaffNames(ctx, staff)
	if err != nil {
		return fail(err)
	}
	fees, err := s.DayRoom().Fees(ctx, a, id)
	if err != nil {
		return fail(err)
	}
	byClass := map[int64]day.ClassFees{}
	for _, cf := range fees.Classes {
		byClass[cf.ClassID] = cf
		name := className[cf.ClassID]
		if cf.FeeReduced > 0 || cf.Reduced != (day.CategoryFees{}) {
			v.AnyReduced = v.AnyReduced || cf.FeeReduced > 0
			v.Fees = append(v.Fees,
				feeLine(ctx, name, site.T(ctx, "day_fee.expected", "Category", site.T(ctx, "day_fee.cat.full"), "Amount", yen(ctx, cf.Fee)), false, cf.Full),
				feeLine(ctx, name, site.T(ctx, "day_fee.expected", "Category", feeCategoryWords(ctx, day.FeeCategoryReduced, cf.FeeReducedFor, cf.FeeReducedForEn), "Amount", yen(ctx, max(cf.FeeReduced, 0))), false, cf.Reduced))
		}
		words := feeWords(ctx, cf.Fee, cf.FeeReduced)
		if cf.FeeReduced > 0 || cf.Reduced != (day.CategoryFees{}) {
			words = "" // the category lines above say the fees
		}
		v.Fees = append(v.Fees, feeLine(ctx, name, words, true, cf.CategoryFees))
	}
	v.FeeDay = []dayFeeLine{
		feeLine(ctx, "", site.T(ctx, "day_fee.cat.full"), false, fees.Full),
		feeLine(ctx, "", site.T(ctx, "day_fee.cat.reduced"), false, fees.Reduced),
		feeLine(ctx, "", "", true, fees.CategoryFees),
	}
	v.FeeTotal = yen(ctx, fees.Received)
	numbers := entrantNumbers(entrants)
	words := map[string]string{} // the same words for a class's entrants, made once
	once := func(key string, make func() string) string {
		w, ok := words[key]
		if !ok {
			w = make()
			words[key] = w
		}
		return w
	}
	for _, en := range entrants {
		if en.Withdrawn() {
			v.Counts["withdrawn"]++
		} else {
			v.Counts[en.Checkin]++
		}
		if want != nil && !want(en, numbers[en.PlayerID]) {
			continue
		}
		row := dayEntrant(ctx, en, className[en.ClassID])
		cf, f := byClass[en.ClassID], fees.ByPlayer[en.PlayerID]
		row.FeeDue, row.FeeCategory, row.FeeHasReduced = f.Expected, f.Category, cf.FeeReduced > 0
		cls := strconv.FormatInt(en.ClassID, 10)
		row.FeeReducedWords = once("r"+cls, func() string {
			return feeCategoryWords(ctx, day.FeeCategoryReduced, cf.FeeReducedFor, cf.FeeReducedForEn)
		})
		row.FeeExpected = once("e"+cls+f.Category+strconv.Itoa(f.Expected), func() string {
			return site.T(ctx, "day_fee.expected", "Category", feeCategoryWords(ctx, f.Category, cf.FeeReducedFor, cf.FeeReducedForEn), "Amount", yen(ctx, f.Expected))
		})
		row.FeeStatus, row.FeeWords = f.Status, feeStatusWords(ctx, f)
		row.FeeFlag, row.FeeFlagBad = feeFlag(ctx, f, !en.Withdrawn() && (en.Checkin == office.CheckinPresent || en.Checkin == office.CheckinLate))
		if row.FeeFlag != "" && f.Status != day.FeePaid {
			row.FeeWords = "" // the flag says unpaid
		}
		if en.CheckinBy != nil && en.CheckinAt != nil {
			u := users[*en.CheckinBy]
			row.CheckinBy, row.CheckinAt = u.DisplayName, site.ShowTime(*en.CheckinAt)
			if row.CheckinBy == "" {
				row.CheckinBy = u.Login
			}
		}
		v.Entrants = append(v.Entrants, newDeskRow(row, en, numbers[en.PlayerID]))
	}
	return v, e.Status == office.StatusDraft, nil
}

// formID reads a whole-number form field; 0 when absent or not a number
// (office then names the field).
func formID(c echo.Context, name string) int64 {
	n, _ := strconv.ParseInt(strings.TrimSpace(c.FormValue(name)), 10, 64)
	return n
}

func (s *Room) receptionBack(c echo.Context, id int64, err error) error {
	ctx := c.Request().Context()
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		return s.renderReception(c, http.StatusUnprocessableEntity, walkInForm{}, nil, firstMsg(msgs))
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, dayURL(id)+"/reception")
}

func (s *Room) DayEnter(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	_, err = s.DayRoom().Enter(c.Request().Context(), site.Actor(c), day.EntryInput{EventID: id, PlayerID: formID(c, "player_id"), Rank: c.FormValue("rank"), ClassID: formID(c, "class_id"),
		FeeCategory: c.FormValue("fee_category")})
	return s.receptionBack(c, id, err)
}

func (s *Room) DayCheckin(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	w := deskWrite(c, id)
	err = s.DayRoom().CheckInSeen(c.Request().Context(), site.Actor(c), w, c.FormValue("state"))
	return s.deskAnswer(c, id, w.PlayerID, err)
}

func (s *Room) DayWithdraw(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	_, err = s.DayRoom().Withdraw(c.Request().Context(), site.Actor(c), id, formID(c, "player_id"))
	return s.deskAnswer(c, id, formID(c, "player_id"), err)
}

func (s *Room) DayMove(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	err = s.DayRoom().MoveEntrant(c.Request().Context(), site.Actor(c), id, formID(c, "player_id"), formID(c, "class_id"))
	return s.deskAnswer(c, id, formID(c, "player_id"), err)
}

func (s *Room) DayWalkIn(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	var f walkInForm
	if err := c.Bind(&f); err != nil {
		return err
	}
	rel, _ := strconv.ParseInt(strings.TrimSpace(f.RelativeID), 10, 64)
	cls, _ := strconv.ParseInt(strings.TrimSpace(f.ClassID), 10, 64)
	_, err = s.DayRoom().WalkIn(ctx, site.Actor(c), day.WalkInInput{EventID: id, Name: f.Name, Reading: f.Reading, Rank: f.Rank, Club: f.Affiliation,
		MasterNumber: f.MasterNumber, MasterName: f.MasterName, MasterReading: f.MasterReading, RelativeID: rel, ClassID: cls, Late: f.Late != "",
		FeeStatus: f.FeeStatus, FeeAmount: f.FeeAmount, FeeCategory: f.FeeCategory})
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		return s.renderReception(c, http.StatusUnprocessableEntity, f, msgs, "")
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, dayURL(id)+"/reception#entrants")
}
