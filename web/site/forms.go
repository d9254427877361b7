package site

import (
	"context"
	"errors"
	"time"

	"kisen/office"
)

// fieldMsgs holds one localised message per form field; "" is for the
// form as a whole.
type FieldMsgs map[string]string

// fieldMsgsOf localises a validation error; ok is false for other errors.
func FieldMsgsOf(ctx context.Context, err error) (FieldMsgs, bool) {
	var ve *office.ValidationError
	if !errors.As(err, &ve) {
		return nil, false
	}
	lz := L(ctx)
	out := FieldMsgs{}
	for _, f := range ve.Fields {
		if _, seen := out[f.Field]; !seen {
			out[f.Field] = lz.TData(f.Code, WordArgs(ctx, f.Args))
		}
	}
	return out, true
}

// tokyo is how times are shown (Japan has no daylight saving time).
var Tokyo = time.FixedZone("JST", 9*60*60)

// showTime formats a stored UTC time in Japan time.
func ShowTime(t time.Time) string { return t.In(Tokyo).Format("2006-01-02 15:04") }

// localName picks the English name on English pages when there is one.
func LocalName(ctx context.Context, ja, en string) string {
	if Lang(ctx) == "en" && en != "" {
		return en
	}
	return ja
}

// choice is one <option>.
type Choice struct {
	Value string
	Label string
}
