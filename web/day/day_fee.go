package day

import (
	"context"
	"strconv"

	"github.com/labstack/echo/v4"

	"kisen/office/day"
	"kisen/web/site"
)

// yen writes an amount of yen the reader's way (1,500円 / ¥1,500).
func yen(ctx context.Context, n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return site.T(ctx, "day_fee.yen", "N", s)
}

// feeWords is a class's fee in words: none, the fee, or the fee and the
// reduced fee.
func feeWords(ctx context.Context, fee, reduced int) string {
	switch {
	case fee == 0 && reduced == 0:
		return site.T(ctx, "day_fee.none")
	case reduced == 0:
		return yen(ctx, fee)
	}
	return site.T(ctx, "day_fee.with_reduced", "Fee", yen(ctx, fee), "Reduced", yen(ctx, reduced))
}

// feeStatusWords is what the desk last recorded for an entrant's fee.
func feeStatusWords(ctx context.Context, f day.Fee) string {
	switch f.Status {
	case day.FeePaid:
		return site.T(ctx, "day_fee.status.paid", "Amount", yen(ctx, f.Amount))
	case day.FeeUnpaid:
		return site.T(ctx, "day_fee.status.unpaid")
	}
	return site.T(ctx, "day_fee.status.none")
}

// dayFee records an entrant's fee as paid (amount received) or unpaid.
func (s *Room) DayFee(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	w := deskWrite(c, id)
	in := day.FeeInput{EventID: id, PlayerID: w.PlayerID, Status: c.FormValue("fee_status"), Amount: c.FormValue("fee_amount"), Category: c.FormValue("fee_category")}
	if w.Version != day.Unchecked {
		in.Seen = &w.Version
	}
	err = s.DayRoom().RecordFee(c.Request().Context(), site.Actor(c), in)
	return s.deskAnswer(c, id, w.PlayerID, err)
}

// feeCategoryWords names a fee category: the full fee, or the reduced fee
// with whom the class gives it to.
func feeCategoryWords(ctx context.Context, category, reducedFor, reducedForEn string) string {
	if category != day.FeeCategoryReduced {
		return site.T(ctx, "day_fee.cat.full")
	}
	if who := site.LocalName(ctx, reducedFor, reducedForEn); who != "" {
		return site.T(ctx, "day_fee.cat.reduced_for", "For", who)
	}
	return site.T(ctx, "day_fee.cat.reduced")
}

// feeFlag is what the desk should notice about an entrant's fee: unpaid
// though checked in, short of what the category owes, or more than it
// (allowed, shown); "" when nothing.
func feeFlag(ctx context.Context, f day.Fee, checkedIn bool) (words string, bad bool) {
	switch {
	case f.Short():
		return site.T(ctx, "day_fee.flag.short", "Amount", yen(ctx, f.Expected-f.Amount)), true
	case f.Differs():
		return site.T(ctx, "day_fee.flag.over", "Amount", yen(ctx, f.Amount-f.Expected)), false
	case f.Status != day.FeePaid && checkedIn && f.Expected > 0:
		return site.T(ctx, "day_fee.flag.unpaid"), true
	}
	return "", false
}

// signedYen writes a balance with its sign (−1,200円 / +500円).
func signedYen(ctx context.Context, n int) string {
	switch {
	case n < 0:
		return "−" + yen(ctx, -n)
	case n > 0:
		return "+" + yen(ctx, n)
	}
	return yen(ctx, 0)
}

// dayFeeCategory changes an entrant's fee category only.
func (s *Room) DayFeeCategory(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	w := deskWrite(c, id)
	err = s.DayRoom().SetFeeCategorySeen(c.Request().Context(), site.Actor(c), w, c.FormValue("fee_category"))
	return s.deskAnswer(c, id, w.PlayerID, err)
}

// testIDIf is id when on (else the first of otherwise, or ""): a
// data-testid only some rows of a table carry.
func testIDIf(on bool, id string, otherwise ...string) string {
	if on {
		return id
	}
	if len(otherwise) > 0 {
		return otherwise[0]
	}
	return ""
}
