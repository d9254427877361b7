package pairing

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Face is how one tossed 歩 came to rest (振り駒, D-F1..F3).
type Face string

const (
	FaceFu          Face = "fu"          // 歩 face up
	FaceTo          Face = "to"          // と face up
	FaceStanding    Face = "standing"    // 立ち: on its edge, not counted (D-F2)
	FaceOverlapping Face = "overlapping" // 重なり: lying on another piece, not counted (D-F2)
)

// ParseFace accepts the English names above and the usual Japanese marks.
func ParseFace(s string) (Face, error) {
	switch strings.TrimSpace(s) {
	case "fu", "歩":
		return FaceFu, nil
	case "to", "と", "と金":
		return FaceTo, nil
	case "standing", "立", "立ち":
		return FaceStanding, nil
	case "overlapping", "重", "重なり":
		return FaceOverlapping, nil
	}
	return "", fmt.Errorf("unknown face %q (want fu/歩, to/と, standing/立ち or overlapping/重なり): %w", s, ErrInvalid)
}

// PiecesPerToss: 000 第7条1 and 001 第3条 toss five 歩.
const PiecesPerToss = 5

// PiecesSimplified: 003 allows three 歩 when the toss is done the simple
// way (簡易的に); the majority of 歩 or と among the counted pieces decides
// as with five (003 「振り歩先」, D-F1..F3). Kisen accepts it only where the
// organiser's setting of an amateur event allows it (TossRule).
const PiecesSimplified = 3

// TossRule says how many 歩 a toss may throw: five always, three only
// when the organiser allowed the simplified toss (an amateur setting).
type TossRule struct {
	AllowThree bool
}

// allows reports whether a toss of n pieces is acceptable.
func (r TossRule) allows(n int) bool {
	return n == PiecesPerToss || (r.AllowThree && n == PiecesSimplified)
}

// Toss is one throw of the pieces (five, or three where TossRule allows
// it), every piece's outcome kept so the decision can be audited.
type Toss struct {
	Pieces []Face
}

// Count is the number of 歩 and と among the counted pieces.
func (t Toss) Count() (fu, to int) {
	for _, f := range t.Pieces {
		switch f {
		case FaceFu:
			fu++
		case FaceTo:
			to++
		}
	}
	return fu, to
}

// Furigoma is the record of a 振り駒: who tossed, every toss, and who is
// sente. The tosser is the 上座 player (000 第7条1, 001 第3条, 003: 上位の
// 側), whom Joza decides; an observed toss records who actually tossed.
type Furigoma struct {
	Tosser, Other string
	Tosses        []Toss
	Decided       bool   // false when the recorded tosses all tied: toss again
	Sente         string // "" until decided
}

// Judge applies D-F1..F3 to tosses as observed: each toss that ties (equal
// 歩 and と, counting only pieces that lie flat and alone, 000 第7条2–3) is
// followed by another; the first untied toss decides, more 歩 making the
// tosser sente, more と the other player (000 第7条1). A toss recorded after
// the deciding one is an error, as is a piece with an unknown face.
//
// Every toss throws five 歩 (Judge); JudgeWith also accepts three where the
// rule allows the simplified toss, and refuses three otherwise.
func Judge(tosser, other string, tosses []Toss) (Furigoma, error) {
	return JudgeWith(TossRule{}, tosser, other, tosses)
}

// JudgeWith is Judge under rule: a toss of three 歩 is accepted only when
// rule.AllowThree (003, an amateur organiser setting); any other count is
// refused in words naming the toss.
func JudgeWith(rule TossRule, tosser, other string, tosses []Toss) (Furigoma, error) {
	if tosser == "" || other == "" || tosser == other {
		return Furigoma{}, fmt.Errorf("furigoma needs two different players, got %q and %q: %w", tosser, other, ErrInvalid)
	}
	r := Furigoma{Tosser: tosser, Other: other}
	for i, t := range tosses {
		if r.Decided {
			return Furigoma{}, fieldErr(fmt.Sprintf("tosses[%d]", i), "toss after toss %d already decided sente", i-1)
		}
		if err := rule.check(i, len(t.Pieces)); err != nil {
			return Furigoma{}, err
		}
		for j, f := range t.Pieces {
			if _, err := ParseFace(string(f)); err != nil {
				return Furigoma{}, fieldErr(fmt.Sprintf("tosses[%d].pieces[%d]", i, j), "%v", err)
			}
		}
		r.Tosses = append(r.Tosses, t)
		fu, to := t.Count()
		switch {
		case fu > to: // D-F1: 歩 majority, the tosser moves first
			r.Decided, r.Sente = true, tosser
		case to > fu: // D-F1: と majority, the other player moves first
			r.Decided, r.Sente = true, other
		} // D-F3: a tie, including all pieces discounted, means toss again
	}
	return r, nil
}

// check refuses a toss of n pieces the rule does not allow, in words.
func (r TossRule) check(i, n int) error {
	switch {
	case r.allows(n):
		return nil
	case n == PiecesSimplified:
		return fieldErr(fmt.Sprintf("tosses[%d]", i), "a toss of three 歩 (the simplified toss, 003) is not allowed here: the organiser has not allowed it, so toss five")
	case r.AllowThree:
		return fieldErr(fmt.Sprintf("tosses[%d]", i), "a toss throws five 歩, or three where the organiser allows the simplified toss, not %d", n)
	}
	return fieldErr(fmt.Sprintf("tosses[%d]", i), "a toss throws five 歩 (000 第7条1), not %d", n)
}

// ParseToss reads one observed toss: exactly five faces.
func ParseToss(faces []string) (Toss, error) {
	return ParseTossWith(TossRule{}, faces)
}

// ParseTossWith reads one observed toss of five faces, or three where rule
// allows the simplified toss.
func ParseTossWith(rule TossRule, faces []string) (Toss, error) {
	t := Toss{Pieces: make([]Face, len(faces))}
	if !rule.allows(len(faces)) {
		return Toss{}, fmt.Errorf("a toss has %d pieces, want %d: %w", len(faces), PiecesPerToss, ErrInvalid)
	}
	for i, s := range faces {
		f, err := ParseFace(s)
		if err != nil {
			return Toss{}, fmt.Errorf("piece %d: %w", i, err)
		}
		t.Pieces[i] = f
	}
	return t, nil
}

// TossOdds are the chances that a tossed piece stands on its edge or comes
// to rest on another piece; the rest split evenly between 歩 and と. The
// seeds give no figures: the defaults are small guesses, a parameter so an
// organiser can match their own records.
type TossOdds struct {
	Standing    float64
	Overlapping float64
}

// DefaultTossOdds: one piece in 500 stands, one in 100 overlaps.
func DefaultTossOdds() TossOdds { return TossOdds{Standing: 0.002, Overlapping: 0.01} }

func (o TossOdds) validate() error {
	if o.Standing < 0 || o.Overlapping < 0 || o.Standing+o.Overlapping >= 1 || o.Standing != o.Standing || o.Overlapping != o.Overlapping {
		return fmt.Errorf("toss odds standing %g, overlapping %g: each must be ≥ 0 and together below 1: %w", o.Standing, o.Overlapping, ErrInvalid)
	}
	return nil
}

// MaxTosses bounds a simulated 振り駒; with the default odds a tie happens
// about one toss in three, so 1000 ties in a row never happens in practice.
const MaxTosses = 1000

// Simulate tosses five 歩 until one toss decides (D-F1..F3), recording each.
func Simulate(rng *rand.Rand, tosser, other string, odds TossOdds) (Furigoma, error) {
	if err := odds.validate(); err != nil {
		return Furigoma{}, err
	}
	var tosses []Toss
	for range MaxTosses {
		t := Toss{Pieces: make([]Face, PiecesPerToss)}
		for i := range t.Pieces {
			x := rng.Float64()
			switch {
			case x < odds.Standing:
				t.Pieces[i] = FaceStanding
			case x < odds.Standing+odds.Overlapping:
				t.Pieces[i] = FaceOverlapping
			case x < odds.Standing+odds.Overlapping+(1-odds.Standing-odds.Overlapping)/2:
				t.Pieces[i] = FaceFu
			default:
				t.Pieces[i] = FaceTo
			}
		}
		tosses = append(tosses, t)
		if fu, to := t.Count(); fu != to {
			return Judge(tosser, other, tosses)
		}
	}
	return Furigoma{}, fmt.Errorf("furigoma: no decision in %d tosses with odds %+v", MaxTosses, odds)
}
