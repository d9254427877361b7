package analysis

import (
	"strings"

	"kisen/adjudication"
)

// Record reads a record's text. Until kisen/rules/kifu's readers land in
// this build only the USI form is read here ("position startpos moves
// 7g7f …", "startpos moves …", "sfen <sfen> moves …"); KIF, KI2 and CSA
// give an error saying so, and the moves can be passed as USI instead.
func Record(text, format, handicap string) (*adjudication.Findings, error) {
	switch strings.ToLower(strings.TrimSpace(format)) {
	case "", "usi", "sfen":
	default:
		return nil, &adjudication.FieldError{Field: "format", Msg: "only usi records are read in this build (KIF, KI2 and CSA readers are not available yet); give the moves as USI in \"moves\""}
	}
	tokens := strings.Fields(text)
	if len(tokens) > 0 && tokens[0] == "position" {
		tokens = tokens[1:]
	}
	var start string
	switch {
	case len(tokens) > 0 && tokens[0] == "startpos":
		start, tokens = "startpos", tokens[1:]
	case len(tokens) >= 5 && tokens[0] == "sfen":
		start, tokens = strings.Join(tokens[1:5], " "), tokens[5:]
	default:
		return nil, &adjudication.FieldError{Field: "record", Msg: "not a USI record: want \"position startpos moves …\" or \"position sfen <sfen> moves …\" (KIF, KI2 and CSA are not read in this build)"}
	}
	if len(tokens) > 0 {
		if tokens[0] != "moves" {
			return nil, &adjudication.FieldError{Field: "record", Msg: "after the start position comes \"moves\", not " + tokens[0]}
		}
		tokens = tokens[1:]
	}
	f, err := Moves(handicap, start, tokens)
	if err != nil {
		var fe *adjudication.FieldError
		if asField(err, &fe) && strings.HasPrefix(fe.Field, "moves") {
			return nil, &adjudication.FieldError{Field: "record", Msg: fe.Field + ": " + fe.Msg}
		}
		return nil, err
	}
	return f, nil
}
