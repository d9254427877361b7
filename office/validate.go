package office

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/go-playground/validator/v10"
	"github.com/go-playground/validator/v10/non-standard/validators"

	"kisen/adjudication"
)

// Validation (docs/input.md "Validation", issue 22 §3): every office input
// states its generic rules — required, lengths, ranges, enums, dates,
// storable text — as `validate:` tags, checked by validator/v10 through
// checkInput, one path for the web forms, the API and the command line.
// Each tagged field also names its form field (`field:"name"`) and its
// messages (`msg:"events.err"`: the message id is the prefix, a dot and the
// tag's suffix — required → required, max → too_long, oneof → choose,
// date → date, … —; `msg:"events.err,gt=choose"` overrides one tag's
// suffix and `msg:"events.err,required:previews.err.reason_required"` names
// a whole message id from another namespace). The messages are the ones
// the hand-written checks used, so the 422 pages and API errors read as
// before. Hand-written checks remain only for domain rules, each marked
// `// domain rule, not a tag: …`.

// inputValidator checks every office input. A validator caches each
// struct's parsed tags and is safe for concurrent use; it is built once
// and never changed after.
var inputValidator = newInputValidator()

// Custom tags: notblank (validator's own, not registered by default: more
// than spaces), storable (StorableText), nocontrol (no control character,
// not even tab or a line break: names that go into CSV rows and
// single-line cells), date (a civil date written YYYY-MM-DD), maxbytes and
// minbytes (length in bytes, where validator's max and min count
// characters), int (digits, however many: a number, if perhaps out of
// range), intrange (a whole number typed as text, within "lo~hi"), enum
// (one of a list the office already keeps, named in enums, so the list is
// written once), login (a–z, 0–9, ".", "_", "-").
var customTags = map[string]validator.Func{
	"notblank": validators.NotBlank,
	"storable": func(fl validator.FieldLevel) bool { return StorableText(fl.Field().String()) },
	"nocontrol": func(fl validator.FieldLevel) bool {
		return strings.IndexFunc(fl.Field().String(), unicode.IsControl) < 0
	},
	"date": func(fl validator.FieldLevel) bool { return isCivilDate(fl.Field().String()) },
	"maxbytes": func(fl validator.FieldLevel) bool {
		n, err := strconv.Atoi(fl.Param())
		return err == nil && len(fl.Field().String()) <= n
	},
	"int": func(fl validator.FieldLevel) bool {
		_, err := strconv.Atoi(strings.TrimSpace(fl.Field().String()))
		return err == nil || errors.Is(err, strconv.ErrRange) // too many digits is a range error
	},
	"intrange": func(fl validator.FieldLevel) bool {
		lo, hi, ok := intRange(fl.Param())
		n, err := strconv.Atoi(strings.TrimSpace(fl.Field().String()))
		return ok && err == nil && n >= lo && n <= hi
	},
	"minbytes": func(fl validator.FieldLevel) bool {
		n, err := strconv.Atoi(fl.Param())
		return err == nil && len(fl.Field().String()) >= n
	},
	"enum": func(fl validator.FieldLevel) bool {
		return slices.Contains(enums[fl.Param()], fl.Field().String())
	},
	"login": func(fl validator.FieldLevel) bool {
		for _, r := range fl.Field().String() {
			if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || strings.ContainsRune(loginRuneSymbol, r)) {
				return false
			}
		}
		return true
	},
}

func newInputValidator() *validator.Validate {
	v := validator.New(validator.WithRequiredStructEnabled())
	v.RegisterTagNameFunc(func(f reflect.StructField) string {
		if name := f.Tag.Get("field"); name != "" {
			return name
		}
		return f.Name
	})
	for tag, fn := range customTags {
		if err := v.RegisterValidation(tag, fn); err != nil {
			panic(fmt.Sprintf("office: register validation %q: %v", tag, err)) // a programming error, never input
		}
	}
	return v
}

// intRange reads an intrange parameter, "0~100".
func intRange(p string) (lo, hi int, ok bool) {
	a, b, found := strings.Cut(p, "~")
	lo, errA := strconv.Atoi(a)
	hi, errB := strconv.Atoi(b)
	return lo, hi, found && errA == nil && errB == nil
}

// isCivilDate reports whether s is a day that exists, written YYYY-MM-DD
// (time.Parse refuses 2026-02-30), in year 1 or later as store.CivilDate
// requires.
func isCivilDate(s string) bool {
	t, err := time.Parse(DateLayout, s)
	return err == nil && len(s) == len(DateLayout) && t.Year() >= 1
}

// enums are the lists an `enum=name` tag accepts a value from.
var enums = map[string][]string{
	"event_kind":     EventKinds,
	"organiser_kind": OrganiserKinds,
	"stage_kind":     StageKinds,
	"game_result":    gameResults,
	"ruling_kind":    stringsOf(adjudication.RulingKinds()),
	"found":          {string(adjudication.FoundDuring), string(adjudication.FoundAfter)},
	"quick_reason":   QuickReasons,
	"token_scope":    TokenScopes,
}

// stringsOf lists a room's string-typed values as strings.
func stringsOf[S ~[]E, E ~string](xs S) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = string(x)
	}
	return out
}

// storableMessage is the message of text that cannot be stored, the one
// the web's storableText middleware answers with (docs/input.md): every
// office input refuses such text too, for the paths that do not pass that
// middleware (the command line, the office's own callers).
const storableMessage = "input.err.field"

// tagSuffix is the message id suffix of each tag, unless a field's msg tag
// overrides it.
var tagSuffix = map[string]string{
	"required":  "required",
	"notblank":  "required",
	"max":       "too_long",
	"maxbytes":  "too_long",
	"minbytes":  "too_short",
	"min":       "too_short",
	"oneof":     "choose",
	"enum":      "choose",
	"date":      "date",
	"nocontrol": "control",
	"gt":        "choose",
	"gte":       "range",
	"lte":       "range",
	"login":     "login_chars",
	"intrange":  "whole_number",
	"int":       "number",
}

// checkInput validates in (a struct or a pointer to one) by its tags and
// adds one FieldError per failing field to ve, in the struct's field
// order, with line (0 for forms). It reports whether in passed.
func checkInput(ve *ValidationError, line int, in any) bool {
	err := inputValidator.Struct(in)
	if err == nil {
		return true
	}
	var fes validator.ValidationErrors
	if !errors.As(err, &fes) {
		// An InvalidValidationError: a programming error (not a struct).
		panic(fmt.Sprintf("office: validate %T: %v", in, err))
	}
	t := reflect.TypeOf(in)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	for _, fe := range fes {
		sf, ok := structFieldAt(t, fe.StructNamespace())
		if !ok {
			panic(fmt.Sprintf("office: validate %T: no field %s", in, fe.StructNamespace()))
		}
		ve.Add(line, fe.Field(), messageID(sf, fe.Tag()), messageArgs(sf, fe))
	}
	return false
}

// CheckInput is checkInput for the office's rooms (office/day,
// office/ratings): their inputs are validated by the same tags and
// messages.
func CheckInput(ve *ValidationError, line int, in any) bool { return checkInput(ve, line, in) }

// CheckInputFields is checkInputFields for the office's rooms.
func CheckInputFields(ve *ValidationError, line int, in any) map[string]bool {
	return checkInputFields(ve, line, in)
}

// checkInputFields is checkInput reporting which fields (by form name)
// failed, for callers whose ValidationError holds many lines.
func checkInputFields(ve *ValidationError, line int, in any) map[string]bool {
	n := len(ve.Fields)
	checkInput(ve, line, in)
	failed := map[string]bool{}
	for _, f := range ve.Fields[n:] {
		failed[f.Field] = true
	}
	return failed
}

// structFieldAt finds the field a validator namespace ("EventInput.Name",
// "X.Rows[2].Name") names, starting at struct type t.
func structFieldAt(t reflect.Type, ns string) (reflect.StructField, bool) {
	if t.Name() != "" {
		ns = strings.TrimPrefix(ns, t.Name()+".") // an anonymous struct's namespace has no type name
	}
	parts := strings.Split(ns, ".")
	var sf reflect.StructField
	for i, p := range parts {
		if j := strings.IndexByte(p, '['); j >= 0 {
			p = p[:j]
		}
		f, ok := t.FieldByName(p)
		if !ok {
			return sf, false
		}
		sf = f
		if i < len(parts)-1 {
			t = f.Type
			for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
				t = t.Elem()
			}
		}
	}
	return sf, len(parts) > 0
}

// msgSpec reads a field's msg tag: the message prefix and per-tag suffix
// overrides.
func msgSpec(sf reflect.StructField) (prefix string, over map[string]string) {
	parts := strings.Split(sf.Tag.Get("msg"), ",")
	over = map[string]string{}
	for _, p := range parts[1:] {
		if k, v, ok := strings.Cut(p, "="); ok {
			over[k] = parts[0] + "." + v
		} else if k, v, ok := strings.Cut(p, ":"); ok {
			over[k] = v // a whole message id, from another namespace
		}
	}
	return parts[0], over
}

// messageID is the message id for tag failing on field sf.
func messageID(sf reflect.StructField, tag string) string {
	prefix, over := msgSpec(sf)
	if id, ok := over[tag]; ok {
		return id
	}
	if tag == "storable" {
		return storableMessage
	}
	suffix := tagSuffix[tag]
	if suffix == "" {
		suffix = tag
	}
	return prefix + "." + suffix
}

// rangeArgs are Min and Max of a number field's range tags (gt, gte, min
// → Min; lt, lte, max → Max), typed as the field is, so a message shows
// them as it did when the check was written by hand.
func rangeArgs(sf reflect.StructField, k reflect.Kind) map[string]any {
	args := map[string]any{}
	for tag, p := range tagParams(sf) {
		name := map[string]string{"gt": "Min", "gte": "Min", "min": "Min", "lt": "Max", "lte": "Max", "max": "Max"}[tag]
		if name == "" {
			continue
		}
		if k == reflect.Float32 || k == reflect.Float64 {
			if x, err := strconv.ParseFloat(p, 64); err == nil {
				args[name] = x
			}
		} else if n, err := strconv.Atoi(p); err == nil {
			args[name] = n
		}
	}
	return args
}

// tagParams are the parameters of sf's validate tags (max=200 → "max": "200").
func tagParams(sf reflect.StructField) map[string]string {
	ps := map[string]string{}
	for _, t := range strings.Split(sf.Tag.Get("validate"), ",") {
		if k, v, ok := strings.Cut(t, "="); ok {
			ps[k] = v
		}
	}
	return ps
}

// messageArgs are the message's template data: a length failure gives
// Min and Max (from the field's own min/max/maxbytes tags) and Len (the
// characters or bytes there are); oneof, enum and date give the Value
// refused; intrange gives Min and Max.
func messageArgs(sf reflect.StructField, fe validator.FieldError) map[string]any {
	switch fe.Tag() {
	case "gt", "gte", "lt", "lte":
		return rangeArgs(sf, fe.Kind())
	case "max", "min", "maxbytes", "minbytes":
		if fe.Kind() != reflect.String {
			return rangeArgs(sf, fe.Kind())
		}
		s := fmt.Sprint(fe.Value())
		args := map[string]any{"Len": utf8.RuneCountInString(s)}
		if strings.HasSuffix(fe.Tag(), "bytes") {
			args["Len"] = len(s)
		}
		ps := tagParams(sf)
		for tag, name := range map[string]string{"min": "Min", "max": "Max", "minbytes": "Min", "maxbytes": "Max"} {
			if p, ok := ps[tag]; ok {
				if n, err := strconv.Atoi(p); err == nil {
					args[name] = n
				}
			}
		}
		return args
	case "storable":
		return map[string]any{"Field": fe.Field()}
	case "oneof", "enum", "date":
		return map[string]any{"Value": fmt.Sprint(fe.Value())}
	case "intrange":
		lo, hi, _ := intRange(fe.Param())
		return map[string]any{"Min": lo, "Max": hi}
	}
	return nil
}
