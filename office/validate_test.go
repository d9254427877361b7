package office

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// probe is a struct of one field per custom tag, for the tag tests.
type probe struct {
	Text  string `field:"text" validate:"storable" msg:"probe.err"`
	Name  string `field:"name" validate:"nocontrol" msg:"probe.err"`
	Day   string `field:"day" validate:"omitempty,date" msg:"probe.err"`
	Bytes string `field:"bytes" validate:"maxbytes=4" msg:"probe.err"`
	Chars string `field:"chars" validate:"max=4" msg:"probe.err"`
	Whole string `field:"whole" validate:"omitempty,int,intrange=1~10" msg:"probe.err,intrange=range"`
	Login string `field:"login" validate:"omitempty,login" msg:"probe.err"`
	Kind  string `field:"kind" validate:"omitempty,enum=event_kind" msg:"probe.err"`
	Blank string `field:"blank" validate:"omitempty,notblank" msg:"probe.err"`
}

// probeErrors validates p and returns field → message id.
func probeErrors(t *testing.T, p probe) map[string]FieldError {
	t.Helper()
	v := &ValidationError{}
	checkInput(v, 0, p)
	out := map[string]FieldError{}
	for _, f := range v.Fields {
		out[f.Field] = f
	}
	return out
}

func TestValidate_StorableRejectsControlCharactersAndInvalidUTF8(t *testing.T) {
	for _, s := range []string{"a\x00b", "\x01", "x\x1f", "\x7f", "\xff\xfe", "名\x00前"} {
		got := probeErrors(t, probe{Text: s})["text"]
		if got.Code != "input.err.field" || got.Args["Field"] != "text" {
			t.Errorf("storable %q: got %+v, want input.err.field naming text", s, got)
		}
	}
	for _, s := range []string{"", "名前", "line 1\nline 2\r\n\tindented"} {
		if got, ok := probeErrors(t, probe{Text: s})["text"]; ok {
			t.Errorf("storable %q refused: %+v", s, got)
		}
	}
}

func TestValidate_NocontrolRejectsTabsAndLineBreaksToo(t *testing.T) {
	for _, s := range []string{"a\tb", "a\nb", "a\x00"} {
		if got := probeErrors(t, probe{Name: s})["name"]; got.Code != "probe.err.control" {
			t.Errorf("nocontrol %q: got %+v", s, got)
		}
	}
	if _, ok := probeErrors(t, probe{Name: "羽生 善治"})["name"]; ok {
		t.Error("nocontrol refused a name")
	}
}

func TestValidate_DateRejectsDaysThatDoNotExist(t *testing.T) {
	for _, s := range []string{"2026-02-30", "2026-13-01", "2026-2-3", "2026/02/03", "0000-01-01", "2026-02-28x", " 2026-02-28"} {
		if got := probeErrors(t, probe{Day: s})["day"]; got.Code != "probe.err.date" || got.Args["Value"] != s {
			t.Errorf("date %q: got %+v, want probe.err.date with the value", s, got)
		}
	}
	for _, s := range []string{"2026-02-28", "2024-02-29", "0001-01-01"} {
		if got, ok := probeErrors(t, probe{Day: s})["day"]; ok {
			t.Errorf("date %q refused: %+v", s, got)
		}
	}
}

func TestValidate_MaxbytesCountsBytesMaxCountsCharacters(t *testing.T) {
	got := probeErrors(t, probe{Bytes: "将棋", Chars: "将棋将棋"}) // 6 bytes; 4 characters
	if got["bytes"].Code != "probe.err.too_long" || got["bytes"].Args["Max"] != 4 || got["bytes"].Args["Len"] != 6 {
		t.Errorf("maxbytes: %+v", got["bytes"])
	}
	if f, ok := got["chars"]; ok {
		t.Errorf("max counted bytes: %+v", f)
	}
	if f := probeErrors(t, probe{Chars: "将棋将棋将"})["chars"]; f.Code != "probe.err.too_long" || f.Args["Max"] != 4 || f.Args["Len"] != 5 {
		t.Errorf("max: %+v", f)
	}
}

func TestValidate_IntAndIntrange(t *testing.T) {
	cases := map[string]string{"abc": "probe.err.number", "0": "probe.err.range", "11": "probe.err.range",
		"99999999999999999999999": "probe.err.range", " 7 ": "", "10": ""}
	for in, want := range cases {
		got := probeErrors(t, probe{Whole: in})["whole"]
		if got.Code != want {
			t.Errorf("whole %q: got %q, want %q", in, got.Code, want)
		}
		if want == "probe.err.range" && (got.Args["Min"] != 1 || got.Args["Max"] != 10) {
			t.Errorf("whole %q: args %v", in, got.Args)
		}
	}
}

func TestValidate_LoginEnumAndNotblank(t *testing.T) {
	got := probeErrors(t, probe{Login: "Sato!", Kind: "chess", Blank: "   "})
	if got["login"].Code != "probe.err.login_chars" || got["kind"].Code != "probe.err.choose" || got["kind"].Args["Value"] != "chess" ||
		got["blank"].Code != "probe.err.required" {
		t.Errorf("got %+v", got)
	}
	if got := probeErrors(t, probe{Login: "sato.k-1_", Kind: EventKnockout}); len(got) != 0 {
		t.Errorf("refused good values: %+v", got)
	}
}

// The errors come in the struct's field order (the order the forms show
// them), whatever order the tags fail in.
func TestValidate_ErrorsInFieldOrder(t *testing.T) {
	v := &ValidationError{}
	checkInput(v, 3, probe{Text: "\x00", Day: "x", Chars: "12345", Kind: "x"})
	var got []string
	for _, f := range v.Fields {
		if f.Line != 3 {
			t.Errorf("%s: line %d, want 3", f.Field, f.Line)
		}
		got = append(got, f.Field)
	}
	if want := "text day chars kind"; strings.Join(got, " ") != want {
		t.Errorf("order %q, want %q", strings.Join(got, " "), want)
	}
}

// tagParam is the parameter of tag on T's field (by Go name).
func tagParam(t *testing.T, v any, field, tag string) int {
	t.Helper()
	sf, ok := reflect.TypeOf(v).FieldByName(field)
	if !ok {
		t.Fatalf("%T has no field %s", v, field)
	}
	p, ok := tagParams(sf)[tag]
	if !ok {
		t.Fatalf("%T.%s has no %s tag", v, field, tag)
	}
	n, err := strconv.Atoi(p)
	if err != nil {
		t.Fatalf("%T.%s %s=%s: %v", v, field, tag, p, err)
	}
	return n
}

// The tags state the limits docs/input.md lists (office.TextLimits and
// the account rules); a tag is a literal, so this keeps the two together.
func TestValidate_TagLimitsAreTheDocumentedLimits(t *testing.T) {
	cases := []struct {
		in         any
		field, tag string
		want       int
	}{
		{EventInput{}, "Name", "max", MaxNameLen},
		{EventInput{}, "NameEn", "max", MaxNameLen},
		{EventInput{}, "Venue", "max", MaxNameLen},
		{OrganiserInput{}, "Name", "max", MaxNameLen},
		{OrganiserInput{}, "Note", "max", MaxOrganiserNoteLen},
		{StageInput{}, "Name", "max", MaxNameLen},
		{GameInput{}, "Label", "max", MaxGameLabelLen},
		{ResultInput{}, "Note", "max", MaxNoteLen},
		{RulingInput{}, "Reason", "max", MaxReasonLen},
		{UndoInput{}, "Reason", "max", MaxReasonLen},
		{SwapInput{}, "Reason", "max", MaxReasonLen},
		{ScheduleEdit{}, "Reason", "max", MaxReasonLen},
		{NewUser{}, "DisplayName", "max", MaxDisplayName},
		{SetupInput{}, "DisplayName", "max", MaxDisplayName},
		{NewUser{}, "Login", "minbytes", MinLoginLen},
		{NewUser{}, "Login", "maxbytes", MaxLoginLen},
		{NewUser{}, "Password", "min", MinPasswordLen},
		{NewUser{}, "Password", "maxbytes", MaxPasswordLen},
		{SetupInput{}, "Password", "maxbytes", MaxPasswordLen},
		{PasswordChange{}, "New", "min", MinPasswordLen},
		{PasswordChange{}, "New", "maxbytes", MaxPasswordLen},
		{PlayerInput{}, "Name", "max", playerMaxLen},
		{PlayerInput{}, "Reading", "max", playerMaxLen},
		{PlayerInput{}, "Affiliation", "max", playerMaxLen},
		{RelativeInput{}, "Relation", "max", maxRelationLen},
		{TokenInput{}, "Name", "max", maxTokenName},
		{RecordInput{}, "Text", "maxbytes", MaxRecordBytes},
	}
	for _, c := range cases {
		if got := tagParam(t, c.in, c.field, c.tag); got != c.want {
			t.Errorf("%T.%s %s=%d, want %d", c.in, c.field, c.tag, got, c.want)
		}
	}
}
