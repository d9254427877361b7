package office_test

import (
	"errors"
	"testing"

	"kisen/office"
)

// FuzzSettingsForm: any form either fails with a ValidationError naming a
// form field, or gives settings that validate and come back unchanged
// through FormOf (the form shows exactly what was saved).
func FuzzSettingsForm(f *testing.F) {
	d := office.FormOf(office.DefaultEventSettings())
	f.Add(d.Kind, d.Jishogi, d.Declaration, d.RedoAfter, d.RedoThen, d.AllowanceMinutes, d.Timing, d.Byoyomi, d.ShortAllowanceRedo)
	f.Add("amateur", "27", "27", "2", "gote_wins", "30", "stopwatch", "60s", "top_up")
	f.Add("official", "27", "none", "-1", "furigoma", "x", "chess_clock", "none", "restart")
	f.Fuzz(func(t *testing.T, kind, jishogi, decl, after, then, allowance, timing, byoyomi, short string) {
		in := d
		in.Kind, in.Jishogi, in.Declaration, in.RedoAfter, in.RedoThen = kind, jishogi, decl, after, then
		in.AllowanceMinutes, in.Timing, in.Byoyomi, in.ShortAllowanceRedo = allowance, timing, byoyomi, short
		s, err := in.Settings()
		if err != nil {
			var ve *office.ValidationError
			if !errors.As(err, &ve) || len(ve.Fields) == 0 || ve.Fields[0].Field == "" || ve.Fields[0].Code == "" {
				t.Fatalf("error without a field: %v", err)
			}
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("accepted settings do not validate: %v", err)
		}
		back, err := office.FormOf(s).Settings()
		if err != nil || back != s {
			t.Fatalf("round trip: %+v → %+v (%v)", s, back, err)
		}
	})
}
