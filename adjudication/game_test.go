package adjudication

import (
	"testing"
)

func TestParseGame_DefaultsAndOverrides(t *testing.T) {
	t.Parallel()
	g, err := ParseGame([]byte(`{
		"settings": {"resignation_priority": true, "time": {"allowance": "3h"}},
		"players": {"sente": {"name": "A"}, "gote": {"name": "B"}},
		"ending": {"kind": "resign", "by": "gote"},
		"remaining": {"sente": "1h", "gote": 600}
	}`))
	if err != nil {
		t.Fatal(err)
	}
	want := DefaultSettings()
	want.ResignationPriority = true
	want.Time.Allowance = dur("3h")
	if g.Settings != want {
		t.Fatalf("settings %+v, want the defaults with two changes %+v", g.Settings, want)
	}
	if g.Remaining == nil || g.Remaining.Gote != dur("10m") || *g.Ending.By != Gote {
		t.Fatalf("facts %+v", g.Facts)
	}
	o, err := g.Decide(Reading{})
	if err != nil {
		t.Fatal(err)
	}
	wantWin(t, o, Sente, ReasonResignation)
}

func TestParseGame_BadInputNamesTheField(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in    string
		field string
	}{
		{`{"ending": {"kind": "resign", "by": "left"}}`, "ending.by"},
		{`{"fouls": [{"kind":"nifu","offender":"sente","found":"after"}, {"ply": "x"}]}`, "fouls[1].ply"},
		{`{"ending": {"kind": "resign", "by": "sente", "colour": 1}}`, "ending.colour"},
		{`{"remaining": {"sente": "soon"}}`, "remaining.sente"},
		{`{"settings": {"time": {"allowance": true}}}`, "settings.time.allowance"},
		{`{"ending": `, "input"},
		{`[]`, "input"},
		{`{"record": "x", "moves": ["7g7f"]}`, "moves"},
		{`{"moves": ["7g7f"], "findings": {"plies": 1}}`, "findings"},
		{`{"record": "x", "start": "startpos"}`, "start"},
		{`{"format": "kif"}`, "format"},
		{`{"Ending": {}}`, "Ending"},
	}
	for _, c := range cases {
		_, err := ParseGame([]byte(c.in))
		wantFieldErr(t, err, c.field)
	}
	// Values decoded but invalid are caught by Decide, naming the field.
	g, err := ParseGame([]byte(`{"ending": {"kind": "resign", "by": "sente"}, "settings": {"byoyomi": "x"}}`))
	wantFieldErr(t, err, "settings.byoyomi")
	g, err = ParseGame([]byte(`{"ending": {"kind": "resign", "by": "sente"}, "settings": {"time": {"byoyomi": "45s"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	_, err = g.Decide(Reading{})
	wantFieldErr(t, err, "settings.time.byoyomi")
}
