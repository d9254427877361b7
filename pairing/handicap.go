package pairing

import (
	"fmt"
	"sort"
)

// Handicap is a 手合割 name.
type Handicap string

const (
	// Even games: gap 0 is decided by 振り駒; 平手 with a gap means the lower
	// rank takes sente without a toss (004, 003).
	EvenByToss   Handicap = "振り駒"
	Hirate       Handicap = "平手"
	KyoOchi      Handicap = "香落ち"  // 上手's left lance, on the bishop's side (1一), 004
	KakuOchi     Handicap = "角落ち"  // bishop
	HishaOchi    Handicap = "飛車落ち" // rook
	HiKyoOchi    Handicap = "飛香落ち" // rook and left lance
	NimaiOchi    Handicap = "二枚落ち" // rook and bishop
	YonmaiOchi   Handicap = "四枚落ち" // rook, bishop, both lances
	RokumaiOchi  Handicap = "六枚落ち" // rook, bishop, lances, knights
	HachimaiOchi Handicap = "八枚落ち" // also both silvers
	JumaiOchi    Handicap = "十枚落ち" // also both golds
	MigiKyoOchi  Handicap = "右香落ち" // the right lance (9一), some clubs' variant
)

// removed lists the pieces the 上手 leaves off, as squares from the 上手's
// side of the usual diagram (上手 at the top, so its bishop sits on 2二).
var removed = map[Handicap][]string{
	EvenByToss: nil, Hirate: nil,
	KyoOchi:      {"1一香"},
	MigiKyoOchi:  {"9一香"},
	KakuOchi:     {"2二角"},
	HishaOchi:    {"8二飛"},
	HiKyoOchi:    {"8二飛", "1一香"},
	NimaiOchi:    {"8二飛", "2二角"},
	YonmaiOchi:   {"8二飛", "2二角", "1一香", "9一香"},
	RokumaiOchi:  {"8二飛", "2二角", "1一香", "9一香", "2一桂", "8一桂"},
	HachimaiOchi: {"8二飛", "2二角", "1一香", "9一香", "2一桂", "8一桂", "3一銀", "7一銀"},
	JumaiOchi:    {"8二飛", "2二角", "1一香", "9一香", "2一桂", "8一桂", "3一銀", "7一銀", "4一金", "6一金"},
}

// Removed is the list of pieces the 上手 leaves off for h (nil for even games).
func (h Handicap) Removed() []string { return append([]string(nil), removed[h]...) }

// Known reports whether h is a handicap this package can describe.
func (h Handicap) Known() bool { _, ok := removed[h]; return ok }

// IsEven reports whether both players keep every piece.
func (h Handicap) IsEven() bool { return h == EvenByToss || h == Hirate }

// HandicapRow: from MinGap 段級差 upward (until the next row) use Handicap.
type HandicapRow struct {
	MinGap   int
	Handicap Handicap
}

// HandicapTable maps a rank gap to a handicap; an organiser may edit it.
type HandicapTable []HandicapRow

// DefaultHandicapTable is the table of 004 (the Tokyo 将棋会館 dojo), D-H.
func DefaultHandicapTable() HandicapTable {
	return HandicapTable{
		{0, EvenByToss}, {1, Hirate}, {2, KyoOchi}, {3, KakuOchi}, {4, HishaOchi},
		{5, HiKyoOchi}, {6, NimaiOchi}, {8, YonmaiOchi}, {10, RokumaiOchi},
	}
}

// Validate checks an edited table: it starts at gap 0, gaps strictly
// increase, every name is known, and the even handicaps come first (a
// larger gap never gets a smaller handicap than 平手).
func (t HandicapTable) Validate() error {
	if len(t) == 0 {
		return fieldErr("handicap_table", "empty table")
	}
	if t[0].MinGap != 0 {
		return fieldErr("handicap_table[0].min_gap", "the first row must start at gap 0, got %d", t[0].MinGap)
	}
	for i, r := range t {
		at := fmt.Sprintf("handicap_table[%d]", i)
		if !r.Handicap.Known() {
			return fieldErr(at+".handicap", "unknown handicap %q", r.Handicap)
		}
		if i > 0 && r.MinGap <= t[i-1].MinGap {
			return fieldErr(at+".min_gap", "gap %d does not increase on the previous row's %d", r.MinGap, t[i-1].MinGap)
		}
		if i > 0 && r.Handicap == EvenByToss {
			return fieldErr(at+".handicap", "振り駒 only fits equal ranks (gap 0)")
		}
		if i > 0 && r.Handicap.IsEven() && !t[i-1].Handicap.IsEven() {
			return fieldErr(at+".handicap", "%s after %s would give a larger gap a smaller handicap", r.Handicap, t[i-1].Handicap)
		}
	}
	return nil
}

// Lookup returns the handicap for a gap (≥ 0).
func (t HandicapTable) Lookup(gap int) (Handicap, error) {
	if err := t.Validate(); err != nil {
		return "", err
	}
	if gap < 0 {
		return "", fmt.Errorf("negative rank gap %d: %w", gap, ErrInvalid)
	}
	i := sort.Search(len(t), func(i int) bool { return t[i].MinGap > gap }) - 1
	return t[i].Handicap, nil
}

// GameTerms is how a game between two ranked players starts.
type GameTerms struct {
	Gap      int
	Handicap Handicap
	// Sente is the player who moves first, or "" when a 振り駒 decides it
	// (equal ranks); then Tosser throws the pieces.
	Sente string
	// Uwate is the handicap giver (上手), "" in even games.
	Uwate  string
	Tosser string
}

// DecideTerms applies D-H (004) to players a and b: the rank gap picks the
// handicap from the table; the 上手 of a handicap game moves first with no
// toss (003); an even game with a gap gives sente to the lower rank (004,
// 003); equal ranks go to 振り駒, tossed by upperSeat (the upper-seat
// player, 000 第7条1), which must be a or b.
func DecideTerms(t HandicapTable, a string, ra Rank, b string, rb Rank, upperSeat string) (GameTerms, error) {
	if a == "" || b == "" || a == b {
		return GameTerms{}, fmt.Errorf("two different players needed, got %q and %q: %w", a, b, ErrInvalid)
	}
	hi, lo := a, b
	if rb.Step > ra.Step {
		hi, lo = b, a
	}
	gap := ra.Step - rb.Step
	if gap < 0 {
		gap = -gap
	}
	h, err := t.Lookup(gap)
	if err != nil {
		return GameTerms{}, err
	}
	g := GameTerms{Gap: gap, Handicap: h}
	switch {
	case h == EvenByToss:
		if upperSeat != a && upperSeat != b {
			return GameTerms{}, fieldErr("upper_seat", "%q is neither player; equal ranks need the upper-seat player to toss", upperSeat)
		}
		g.Tosser = upperSeat
	case h == Hirate:
		g.Sente = lo
	default:
		g.Uwate, g.Sente = hi, hi
	}
	return g, nil
}
