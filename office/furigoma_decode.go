package office

import (
	"encoding/json"
	"strings"

	"kisen/pairing"
)

// unmarshalFurigoma is json.Unmarshal of a stored 振り駒 record into f.
// A bracket page decodes one record per game (2,000 on a 1,024-entrant
// stage, issue 12), and encoding/json's reflection, with a string per
// face, cost more than the rest of the bracket's assembly. Records are
// written by json.Marshal (mustJSON), so they have one shape; that shape is
// read by hand, its texts taken as substrings of raw and its faces as the
// Face constants. Anything else — other field order, escapes, spaces,
// unknown fields — goes to json.Unmarshal, so the result is always
// json.Unmarshal's (TestUnmarshalFurigoma_SameAsJSON).
func unmarshalFurigoma(raw string, f *pairing.Furigoma) error {
	if g, ok := scanFurigoma(raw); ok {
		*f = g
		return nil
	}
	return json.Unmarshal([]byte(raw), f)
}

// scanFurigoma reads json.Marshal's shape of a Furigoma:
// {"Tosser":"…","Other":"…","Tosses":[{"Pieces":["…",…]},…],"Decided":b,"Sente":"…"}
// (five pieces a toss, or three for the simplified toss; a piece list may be null)
// or {"Tosser":…,"Tosses":null,…}; ok is false for anything else.
func scanFurigoma(raw string) (f pairing.Furigoma, ok bool) {
	s := furigomaScanner{rest: raw}
	if !s.lit(`{"Tosser":`) || !s.str(&f.Tosser) || !s.lit(`,"Other":`) || !s.str(&f.Other) || !s.lit(`,"Tosses":`) {
		return pairing.Furigoma{}, false
	}
	if !s.lit("null") {
		if !s.lit("[") {
			return pairing.Furigoma{}, false
		}
		n := 1 + strings.Count(s.rest, `]},{"Pieces":[`) // tosses, if the shape holds
		f.Tosses = make([]pairing.Toss, 0, n)
		if !s.lit("]") {
			for {
				if !s.lit(`{"Pieces":`) {
					return pairing.Furigoma{}, false
				}
				var t pairing.Toss
				if !s.lit("null") {
					if !s.lit("[") {
						return pairing.Furigoma{}, false
					}
					t.Pieces = make([]pairing.Face, 0, pairing.PiecesPerToss)
					for !s.lit("]") {
						if len(t.Pieces) > 0 && !s.lit(",") {
							return pairing.Furigoma{}, false
						}
						var face string
						if !s.str(&face) {
							return pairing.Furigoma{}, false
						}
						t.Pieces = append(t.Pieces, knownFace(face))
					}
				}
				if !s.lit("}") {
					return pairing.Furigoma{}, false
				}
				f.Tosses = append(f.Tosses, t)
				if s.lit("]") {
					break
				}
				if !s.lit(",") {
					return pairing.Furigoma{}, false
				}
			}
		}
	}
	if !s.lit(`,"Decided":`) {
		return pairing.Furigoma{}, false
	}
	switch {
	case s.lit("true"):
		f.Decided = true
	case s.lit("false"):
	default:
		return pairing.Furigoma{}, false
	}
	if !s.lit(`,"Sente":`) || !s.str(&f.Sente) || s.rest != "}" {
		return pairing.Furigoma{}, false
	}
	return f, true
}

// knownFace is the Face constant equal to s (no copy of the record kept
// alive by a face), or s itself for a face the pairing room does not know.
func knownFace(s string) pairing.Face {
	for _, f := range [...]pairing.Face{pairing.FaceFu, pairing.FaceTo, pairing.FaceStanding, pairing.FaceOverlapping} {
		if s == string(f) {
			return f
		}
	}
	return pairing.Face(s)
}

// furigomaScanner walks a record left to right.
type furigomaScanner struct{ rest string }

// lit consumes p if the record continues with it.
func (s *furigomaScanner) lit(p string) bool {
	if !strings.HasPrefix(s.rest, p) {
		return false
	}
	s.rest = s.rest[len(p):]
	return true
}

// str consumes a JSON string with no escapes and only printable ASCII or
// UTF-8 above it (what json.Marshal writes unescaped); anything else is
// not this shape.
func (s *furigomaScanner) str(out *string) bool {
	if !s.lit(`"`) {
		return false
	}
	for i := 0; i < len(s.rest); i++ {
		switch c := s.rest[i]; {
		case c == '"':
			*out = s.rest[:i]
			s.rest = s.rest[i+1:]
			return true
		case c == '\\' || c < 0x20 || c == '<' || c == '>' || c == '&' || c >= 0x80:
			return false
		}
	}
	return false
}
