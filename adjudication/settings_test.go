package adjudication

import (
	"encoding/json"
	"testing"
)

// The defaults are the federation's rules (000, 001).
func TestDefaultSettings_AreTheFederationsRules(t *testing.T) {
	t.Parallel()
	s := DefaultSettings()
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name string
		ok   bool
	}{
		{"official event", s.Kind == EventOfficial},
		{"D-J1 24点法", s.Jishogi == Jishogi24},
		{"D-J3 federation declaration", s.Declaration == DeclarationFederation},
		{"D-X3 no 投了優先", !s.ResignationPriority},
		{"D-X6 warning first", s.ClockHand == ClockHandWarningThenLoss},
		{"D-R4 redo again", s.RepeatedRedo.Then == RedoAgain},
		{"D-R3 redo games not counted", !s.RedoCountsAsGame},
		{"D-R2 one-hour top-up", s.Time.RedoTopUp},
		{"D-T3 60 s byoyomi", s.Time.Byoyomi == Byoyomi60},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("default: %s", c.name)
		}
	}
}

func TestSettings_ValidateNamesTheField(t *testing.T) {
	t.Parallel()
	cases := []struct {
		field string
		edit  func(*Settings)
	}{
		{"kind", func(s *Settings) { s.Kind = "club" }},
		{"jishogi", func(s *Settings) { s.Jishogi = "25" }},
		{"jishogi", func(s *Settings) { s.Jishogi = Jishogi27 }}, // official
		{"jishogi_27_tie", func(s *Settings) { s.JishogiTie27 = "sente_wins" }},
		{"declaration", func(s *Settings) { s.Declaration = "loud" }},
		{"declaration", func(s *Settings) { s.Declaration = Declaration27 }}, // official
		{"clock_hand", func(s *Settings) { s.ClockHand = "" }},
		{"repeated_redo.after", func(s *Settings) { s.RepeatedRedo.After = -1 }},
		{"repeated_redo.then", func(s *Settings) { s.RepeatedRedo.Then = "coin" }},
		{"time.allowance", func(s *Settings) { s.Time.Allowance = dur("-1m") }},
		{"time.allowance", func(s *Settings) { s.Time.Allowance = dur("100h") }},
		{"time.timing", func(s *Settings) { s.Time.Timing = "hourglass" }},
		{"time.byoyomi", func(s *Settings) { s.Time.Byoyomi = "10s" }},
		{"time.byoyomi", func(s *Settings) { s.Time.Allowance, s.Time.Byoyomi = 0, ByoyomiNone }},
		{"time.byoyomi", func(s *Settings) { s.Time.Timing, s.Time.Byoyomi = Stopwatch, Byoyomi30 }},
		{"time.allowance", func(s *Settings) { s.Time.Timing, s.Time.Allowance = Stopwatch, dur("90s") }},
		{"time.short_allowance_redo", func(s *Settings) { s.Time.ShortAllowanceRedo = "" }},
	}
	for _, c := range cases {
		s := DefaultSettings()
		c.edit(&s)
		wantFieldErr(t, s.Validate(), c.field)
	}
}

func TestSettings_JSONRoundTrip(t *testing.T) {
	t.Parallel()
	s := amateur()
	s.Jishogi, s.JishogiTie27, s.Declaration = Jishogi27, TieRedo, Declaration27
	s.RepeatedRedo = RepeatedRedo{After: 2, Then: RedoFurigoma}
	s.Time = stopwatch("1h")
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var back Settings
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back != s {
		t.Fatalf("round trip: %+v != %+v (%s)", back, s, b)
	}
	var d Duration
	if err := json.Unmarshal([]byte(`90`), &d); err != nil || d != dur("90s") {
		t.Fatalf("seconds: %v %v", d, err)
	}
	for _, bad := range []string{`"soon"`, `true`, `1e300`} {
		if err := json.Unmarshal([]byte(bad), &d); err == nil {
			t.Fatalf("%s accepted as a duration", bad)
		}
	}
}
