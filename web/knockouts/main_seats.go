package knockouts

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/pairing"
	"kisen/web/site"
)

// The 本戦 seating form (issue 24 item 8, D-G4, docs/ranking-groups.md):
// on a 本戦 stage in setup in an event with group stages, every group's 本戦
// slot with the seed and entry round it takes; previewed in players' names,
// then confirmed (office.SeatMainEvent).

// mainSeatRow is one 本戦 slot of the form.
type mainSeatRow struct {
	Slot   string
	Group  int
	Seed   string
	Round  string
	Player string // who fills it, "" while the group plays
}

// mainSeatRows lists every group's 本戦 slots (stages in event order),
// keeping the seeds and rounds of posted (by slot), with who fills each.
func mainSeatRows(stages []StageView, posted []mainSeatRow) []mainSeatRow {
	kept := map[string]mainSeatRow{}
	for _, r := range posted {
		kept[r.Slot] = r
	}
	var out []mainSeatRow
	for _, sv := range stages {
		if sv.Ranking == nil {
			continue
		}
		who := map[string]string{}
		for _, row := range sv.Ranking.Rows {
			if row.Slot != "" {
				who[row.Slot] = row.Name
			}
		}
		for _, slot := range sv.Ranking.Slots {
			r := mainSeatRow{Slot: slot, Group: sv.Ranking.Group, Player: who[slot]}
			if k, ok := kept[slot]; ok {
				r.Seed, r.Round = k.Seed, k.Round
			}
			out = append(out, r)
		}
	}
	return out
}

// mainSeatsPosted reads the form's rows: seat_slot, seat_seed and
// seat_round, one of each per row.
func mainSeatsPosted(c echo.Context) []mainSeatRow {
	f, _ := c.FormParams()
	slots, seeds, rounds := f["seat_slot"], f["seat_seed"], f["seat_round"]
	var out []mainSeatRow
	for i, slot := range slots {
		r := mainSeatRow{Slot: slot}
		if i < len(seeds) {
			r.Seed = strings.TrimSpace(seeds[i])
		}
		if i < len(rounds) {
			r.Round = strings.TrimSpace(rounds[i])
		}
		out = append(out, r)
	}
	return out
}

// mainSeatsTable is the office's 本戦 table of rows; a number that is none
// is refused in words on main_seats.
func mainSeatsTable(ctx context.Context, rows []mainSeatRow, errs site.FieldMsgs) string {
	table := make([]pairing.MainSeat, 0, len(rows))
	for _, r := range rows {
		seed := atoiField(errs, ctx, "main_seats", r.Seed)
		round := atoiField(errs, ctx, "main_seats", r.Round)
		table = append(table, pairing.MainSeat{Slot: r.Slot, Seed: seed, EnterRound: round})
	}
	b, _ := json.Marshal(table)
	return string(b)
}

// stageMainSeats (POST /stages/:id/main-seats): without confirm, the
// preview (who goes where, refusals in words); with it, SeatMainEvent.
func (s *Room) stageMainSeats(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathParam(c, "id")
	if err != nil {
		return err
	}
	rows := mainSeatsPosted(c)
	errs := site.FieldMsgs{}
	table := mainSeatsTable(ctx, rows, errs)
	if len(errs) > 0 {
		return s.renderStage(c, http.StatusUnprocessableEntity, id, stageManage{MainSeats: rows}, errs)
	}
	a := site.Actor(c)
	if !site.Confirmed(c) {
		st, err := s.Office.Stage(ctx, a, id)
		if err != nil {
			return err
		}
		_, err = s.Office.DryRun(ctx, st.EventID, func(ctx context.Context, o *office.Office) error {
			return o.SeatMainEvent(ctx, a, id, table)
		})
		if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
			return s.renderStage(c, http.StatusUnprocessableEntity, id, stageManage{MainSeats: rows}, msgs)
		}
		if err != nil {
			return err
		}
		return s.renderStage(c, http.StatusOK, id, stageManage{MainSeats: rows, MainSeatsPreview: true}, nil)
	}
	err = s.Office.SeatMainEvent(ctx, a, id, table)
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		return s.renderStage(c, http.StatusUnprocessableEntity, id, stageManage{MainSeats: rows}, msgs)
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, site.StageURL(id)+"#entrants")
}

// seatRoundWords: the entry round in words for the preview (「1回戦から」).
func seatRoundWords(ctx context.Context, r mainSeatRow) string {
	n, _ := strconv.Atoi(r.Round)
	return site.T(ctx, "knockout.main_seats.from_round", "N", max(n, 1))
}
