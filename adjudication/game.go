package adjudication

import (
	"errors"
	"strconv"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Game is one game as JSON: the organiser's settings, the facts, and the
// record (text, or USI moves) for the rules engine to read. It is what
// `kisen adjudicate` reads on stdin and what the web posts; both decode it
// with ParseGame, have adjudication/analysis read the record, and call
// Game.Decide.
type Game struct {
	// Settings start from DefaultSettings; fields left out keep the default.
	Settings Settings `json:"settings"`
	Facts
	// Record is a game record in KIF, KI2, CSA or USI; Format names it
	// ("kif", "ki2", "csa", "usi"; detected when empty).
	Record string `json:"record,omitempty"`
	Format string `json:"format,omitempty"`
	// Moves are USI moves ("7g7f", "P*5e") from Start, an SFEN or
	// "startpos" (default: the handicap's start).
	Moves []string `json:"moves,omitempty"`
	Start string   `json:"start,omitempty"`
}

// ParseGame decodes a Game. Unknown fields, wrong types and bad values are
// errors naming the field as a path ("fouls[1].ply").
func ParseGame(data []byte) (Game, error) {
	g := Game{Settings: DefaultSettings()}
	if err := jsonv2.Unmarshal(data, &g, jsonv2.RejectUnknownMembers(true)); err != nil {
		return Game{}, jsonFieldErr(err)
	}
	switch {
	case g.Record != "" && len(g.Moves) > 0:
		return Game{}, fieldErr("moves", "give the record or the moves, not both")
	case g.Findings != nil && (g.Record != "" || len(g.Moves) > 0):
		return Game{}, fieldErr("findings", "findings are read from the record or moves; give one or the other")
	case g.Start != "" && g.Record != "":
		return Game{}, fieldErr("start", "the record carries its own start; start goes with moves")
	case g.Format != "" && g.Record == "":
		return Game{}, fieldErr("format", "names the record's format, but there is no record")
	}
	return g, nil
}

// HasRecord reports whether the game brings a record or moves to analyse.
func (g Game) HasRecord() bool { return g.Record != "" || len(g.Moves) > 0 }

// Reading is what the rules engine read from a game's record, as plain
// values (adjudication/analysis produces it).
type Reading struct {
	// Findings are the record's facts; nil when there is no record.
	Findings *Findings
	// Ending is what the record's terminal word (投了, 千日手, %TORYO …)
	// reports; nil when it has none.
	Ending *Ending
	// Remaining is each side's time left after the record's move times,
	// run through a Clock with the event's time control; nil when the
	// record does not time every move or the times run past the limit.
	Remaining *Times
	// Notes say what could not be read (e.g. times past the limit).
	Notes []Note
}

// Decide decides the game with what the rules engine read from its
// record. Reported facts win over the record's terminal word and times;
// the record's findings are authoritative (Decide). Without a reported
// ending or a terminal word, ending.kind is missing.
func (g Game) Decide(r Reading) (Outcome, error) {
	f := g.Facts
	if r.Findings != nil {
		if f.Findings != nil {
			return Outcome{}, fieldErr("findings", "given, and also read from the record")
		}
		f.Findings = r.Findings
	}
	var notes []Note
	if f.Ending.Kind == "" && r.Ending != nil {
		f.Ending = *r.Ending
		notes = append(notes, Note{Code: "ending_from_record", Message: "how the game ended was read from the record's terminal word"})
	}
	if f.Ending.Kind == "" {
		return Outcome{}, fieldErr("ending.kind", "is required (one of %s); the record does not say how the game ended", endingKindList())
	}
	if f.Remaining == nil && r.Remaining != nil {
		f.Remaining = r.Remaining
		notes = append(notes, Note{Code: "remaining_from_record", Message: "the remaining times were worked out from the record's move times"})
	}
	o, err := Decide(g.Settings, f)
	if err != nil {
		return Outcome{}, err
	}
	o.Notes = append(o.Notes, append(notes, r.Notes...)...)
	return o, nil
}

// jsonFieldErr turns a decoding error into a FieldError whose field is the
// JSON path of the bad value.
func jsonFieldErr(err error) error {
	var se *jsonv2.SemanticError
	if errors.As(err, &se) {
		field := pointerPath(string(se.JSONPointer))
		switch {
		case se.Err != nil && strings.Contains(se.Err.Error(), "unknown object member"):
			return fieldErr(field, "unknown field")
		case se.Err != nil:
			return fieldErr(field, "%s", se.Err.Error())
		case se.GoType != nil:
			return fieldErr(field, "JSON %s where %s belongs", kindName(se.JSONKind), goTypeName(se.GoType.String()))
		}
		return fieldErr(field, "cannot be read")
	}
	var syn *jsontext.SyntacticError
	if errors.As(err, &syn) {
		return fieldErr("input", "not valid JSON at byte %d (%s): %v", syn.ByteOffset, pointerPath(string(syn.JSONPointer)), syn.Err)
	}
	return fieldErr("input", "%v", err)
}

// pointerPath turns a JSON pointer ("/fouls/1/ply") into a field path
// ("fouls[1].ply").
func pointerPath(ptr string) string {
	if ptr == "" {
		return "input"
	}
	var b strings.Builder
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		if _, err := strconv.Atoi(tok); err == nil && b.Len() > 0 {
			b.WriteString("[" + tok + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(tok)
	}
	return b.String()
}

func kindName(k jsontext.Kind) string {
	switch k {
	case '"':
		return "string"
	case '0':
		return "number"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	case '{':
		return "object"
	case '[':
		return "array"
	}
	return "value"
}

func goTypeName(t string) string {
	switch {
	case strings.HasPrefix(t, "[]"):
		return "a list"
	case strings.HasPrefix(t, "int"):
		return "a whole number"
	case t == "bool":
		return "true or false"
	case t == "string" || strings.HasPrefix(t, "adjudication."):
		return "a string"
	}
	return "a " + t
}
