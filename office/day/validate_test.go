package day_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"kisen/office/day"
)

// oneofOf is the list a field's oneof tag accepts.
func oneofOf(t *testing.T, v any, field string) []string {
	t.Helper()
	sf, ok := reflect.TypeOf(v).FieldByName(field)
	if !ok {
		t.Fatalf("%T has no field %s", v, field)
	}
	for _, tag := range strings.Split(sf.Tag.Get("validate"), ",") {
		if p, ok := strings.CutPrefix(tag, "oneof="); ok {
			return strings.Fields(p)
		}
	}
	t.Fatalf("%T.%s has no oneof tag", v, field)
	return nil
}

// The class form's choices are oneof tags (office cannot name this
// package's lists); they must be the lists the form offers.
func TestValidate_ClassInputChoicesAreTheOfferedLists(t *testing.T) {
	cases := []struct {
		field string
		want  []string
	}{
		{"Format", day.Formats}, {"PoolMode", day.PoolModes}, {"Handicap", day.HandicapPolicies},
		{"Club", day.RelationPolicies}, {"MasterStudent", day.RelationPolicies},
		{"FellowDisciple", day.RelationPolicies}, {"Family", day.RelationPolicies},
		{"Withdrawal", day.WithdrawalPolicies},
	}
	for _, c := range cases {
		if got := oneofOf(t, day.ClassInput{}, c.field); !slices.Equal(got, c.want) {
			t.Errorf("ClassInput.%s oneof %v, want %v", c.field, got, c.want)
		}
	}
	if got := oneofOf(t, day.FeeInput{}, "Status"); !slices.Equal(got, []string{day.FeePaid, day.FeeUnpaid}) {
		t.Errorf("FeeInput.Status oneof %v", got)
	}
}
