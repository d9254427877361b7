package web

import (
	"context"
	"strconv"

	"github.com/labstack/echo/v4"

	"kisen/office/day"
)

// yen writes an amount of yen the reader's way (1,500円 / ¥1,500).
func yen(ctx context.Context, n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return T(ctx, "day_fee.yen", "N", s)
}

// feeWords is a class's fee in words: none, the fee, or the fee and the
// reduced fee.
func feeWords(ctx context.Context, fee, reduced int) string {
	switch {
	case fee == 0 && reduced == 0:
		return T(ctx, "day_fee.none")
	case reduced == 0:
		return yen(ctx, fee)
	}
	return T(ctx, "day_fee.with_reduced", "Fee", yen(ctx, fee), "Reduced", yen(ctx, reduced))
}

// feeStatusWords is what the desk last recorded for an entrant's fee.
func feeStatusWords(ctx context.Context, f day.Fee) string {
	switch f.Status {
	case day.FeePaid:
		return T(ctx, "day_fee.status.paid", "Amount", yen(ctx, f.Amount))
	case day.FeeUnpaid:
		return T(ctx, "day_fee.status.unpaid")
	}
	return T(ctx, "day_fee.status.none")
}

// dayFee records an entrant's fee as paid (amount received) or unpaid.
func (s *Server) dayFee(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	err = s.dayRoom().RecordFee(c.Request().Context(), actor(c), day.FeeInput{EventID: id, PlayerID: formID(c, "player_id"),
		Status: c.FormValue("fee_status"), Amount: c.FormValue("fee_amount")})
	return s.receptionBack(c, id, err)
}
