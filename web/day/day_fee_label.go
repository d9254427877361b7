package day

import (
	"context"

	"kisen/web/site"
)

// feeRowLabel is the first cell of a line of the fee totals (issue 23:
// the day's lines had none): a class's total line names the class, the
// day's total line reads 本日の合計, the day's category lines 本日（全クラス）;
// a class's category lines stand under the class named on its total line.
func feeRowLabel(ctx context.Context, f dayFeeLine) string {
	switch {
	case f.Class != "" && f.Total:
		return f.Class
	case f.Class != "":
		return ""
	case f.Total:
		return site.T(ctx, "day_fee.total.day")
	}
	return site.T(ctx, "day_fee.total.day_lines")
}
