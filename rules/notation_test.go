package rules

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// boardSFEN builds an SFEN with the given pieces ("93": "G" is a Sente
// gold on 9三, "+P" a Sente と, lower case for Gote), hands and side.
func boardSFEN(t testing.TB, pieces map[string]string, side Color, hands string) string {
	t.Helper()
	var grid [9][9]string
	for sq, pc := range pieces {
		if len(sq) != 2 {
			t.Fatalf("bad square %q", sq)
		}
		f, r := int(sq[0]-'0'), int(sq[1]-'0')
		grid[r-1][9-f] = pc
	}
	var b strings.Builder
	for r := 0; r < 9; r++ {
		if r > 0 {
			b.WriteByte('/')
		}
		empty := 0
		for c := 0; c < 9; c++ {
			if grid[r][c] == "" {
				empty++
				continue
			}
			if empty > 0 {
				fmt.Fprint(&b, empty)
				empty = 0
			}
			b.WriteString(grid[r][c])
		}
		if empty > 0 {
			fmt.Fprint(&b, empty)
		}
	}
	sideCh := "b"
	if side == Gote {
		sideCh = "w"
	}
	if hands == "" {
		hands = "-"
	}
	return b.String() + " " + sideCh + " " + hands + " 1"
}

func sq(t testing.TB, s string) Square {
	t.Helper()
	if s == "" {
		return NoSquare
	}
	return NewSquare(int(s[0]-'0'), int(s[1]-'0'))
}

// seedCase is one worked example of seed 002 (or 004): the pieces of the
// diagram, the move, and the text the seed gives.
type seedCase struct {
	name     string
	pieces   map[string]string
	from, to string // from "" for a drop of dropPT
	dropPT   PieceType
	promote  bool
	prev     string
	hands    string
	side     Color
	compact  string
	record   string // optional
}

func seedCases() []seedCase {
	g := func(s ...string) map[string]string {
		m := map[string]string{}
		for i := 0; i+1 < len(s); i += 2 {
			m[s[i]] = s[i+1]
		}
		return m
	}
	// The diagrams of 002 hold only the pieces named in each example.
	motionA := g("93", "G", "72", "G")
	motionB := g("43", "G", "31", "G")
	motionC := g("56", "G", "45", "G")
	motionD := g("89", "S", "77", "S")
	motionE := g("49", "S", "27", "S")
	twoA := g("92", "G", "72", "G")
	twoB := g("32", "G", "12", "G")
	twoC := g("65", "S", "45", "S")
	twoD := g("89", "G", "79", "G")
	twoE := g("39", "S", "29", "S")
	threeA := g("63", "G", "53", "G", "43", "G")
	threeB := g("79", "+P", "89", "+P", "99", "+P", "98", "+P", "87", "+P")
	threeC := g("29", "S", "17", "S", "39", "S", "37", "S")
	dragonA := g("91", "+R", "84", "+R")
	dragonB := g("23", "+R", "52", "+R")
	dragonC := g("55", "+R", "15", "+R")
	dragonD := g("99", "+R", "89", "+R")
	dragonE := g("28", "+R", "19", "+R")
	horseA := g("91", "+B", "81", "+B")
	horseB := g("95", "+B", "63", "+B")
	horseC := g("11", "+B", "34", "+B")
	horseD := g("99", "+B", "59", "+B")
	horseE := g("47", "+B", "18", "+B")
	drop004 := g("99", "G")
	return []seedCase{
		// 002 基本事項: one piece can go there, so nothing is added (not 76歩直不成).
		{name: "D_N_OnlyOnePiece_76歩", pieces: g("77", "P", "59", "K"), from: "77", to: "76", compact: "76歩", record: "▲７六歩"},
		// 002 同: a capture on the previous move's square (not 76同歩).
		{name: "D_N_Same_同歩", pieces: g("77", "P", "76", "p", "59", "K"), from: "77", to: "76", prev: "76", compact: "同歩", record: "▲同　歩"},
		// 002 成: written even when not promoting would be a foul (12歩 to 11).
		{name: "D_N_ForcedPromotion_11歩成", pieces: g("12", "P"), from: "12", to: "11", promote: true, compact: "11歩成", record: "▲１一歩成"},
		{name: "D_N_OptionalPromotion_成", pieces: g("34", "S"), from: "34", to: "23", promote: true, compact: "23銀成"},
		{name: "D_N_OptionalPromotion_不成", pieces: g("34", "S"), from: "34", to: "23", compact: "23銀不成"},
		// 004 打: a gold on 9九; drops on 98, 88, 89 get 打, elsewhere not.
		{name: "D_N_004_Drop98_打", pieces: drop004, to: "98", dropPT: Gold, hands: "G", compact: "98金打", record: "▲９八金打"},
		{name: "D_N_004_Drop88_打", pieces: drop004, to: "88", dropPT: Gold, hands: "G", compact: "88金打"},
		{name: "D_N_004_Drop89_打", pieces: drop004, to: "89", dropPT: Gold, hands: "G", compact: "89金打"},
		{name: "D_N_004_Drop55_No打", pieces: drop004, to: "55", dropPT: Gold, hands: "G", compact: "55金"},
		{name: "D_N_004_Drop97_No打", pieces: drop004, to: "97", dropPT: Gold, hands: "G", compact: "97金"},
		// 002 上・寄・引.
		{name: "D_N_MotionA_82金上", pieces: motionA, from: "93", to: "82", compact: "82金上"},
		{name: "D_N_MotionA_82金寄", pieces: motionA, from: "72", to: "82", compact: "82金寄"},
		{name: "D_N_MotionB_32金上", pieces: motionB, from: "43", to: "32", compact: "32金上"},
		{name: "D_N_MotionB_32金引", pieces: motionB, from: "31", to: "32", compact: "32金引"},
		{name: "D_N_MotionC_55金上", pieces: motionC, from: "56", to: "55", compact: "55金上"},
		{name: "D_N_MotionC_55金寄", pieces: motionC, from: "45", to: "55", compact: "55金寄"},
		{name: "D_N_MotionD_88銀上", pieces: motionD, from: "89", to: "88", compact: "88銀上"},
		{name: "D_N_MotionD_88銀引", pieces: motionD, from: "77", to: "88", compact: "88銀引"},
		{name: "D_N_MotionE_38銀上", pieces: motionE, from: "49", to: "38", compact: "38銀上"},
		{name: "D_N_MotionE_38銀引", pieces: motionE, from: "27", to: "38", compact: "38銀引"},
		// 002 two pieces: 左・右 (and 直).
		{name: "D_N_TwoA_81金左", pieces: twoA, from: "92", to: "81", compact: "81金左"},
		{name: "D_N_TwoA_81金右", pieces: twoA, from: "72", to: "81", compact: "81金右"},
		{name: "D_N_TwoB_22金左", pieces: twoB, from: "32", to: "22", compact: "22金左"},
		{name: "D_N_TwoB_22金右", pieces: twoB, from: "12", to: "22", compact: "22金右"},
		{name: "D_N_TwoC_56銀左", pieces: twoC, from: "65", to: "56", compact: "56銀左"},
		{name: "D_N_TwoC_56銀右", pieces: twoC, from: "45", to: "56", compact: "56銀右"},
		{name: "D_N_TwoD_78金左", pieces: twoD, from: "89", to: "78", compact: "78金左"},
		{name: "D_N_TwoD_78金直", pieces: twoD, from: "79", to: "78", compact: "78金直", record: "▲７八金直"},
		{name: "D_N_TwoE_38銀直", pieces: twoE, from: "39", to: "38", compact: "38銀直"},
		{name: "D_N_TwoE_38銀右", pieces: twoE, from: "29", to: "38", compact: "38銀右"},
		// 002 three or more pieces.
		{name: "D_N_ThreeA_52金左", pieces: threeA, from: "63", to: "52", compact: "52金左"},
		{name: "D_N_ThreeA_52金直", pieces: threeA, from: "53", to: "52", compact: "52金直"},
		{name: "D_N_ThreeA_52金右", pieces: threeA, from: "43", to: "52", compact: "52金右", record: "▲５二金右"},
		{name: "D_N_ThreeB_88と右", pieces: threeB, from: "79", to: "88", compact: "88と右"},
		{name: "D_N_ThreeB_88と直", pieces: threeB, from: "89", to: "88", compact: "88と直"},
		{name: "D_N_ThreeB_88と左上", pieces: threeB, from: "99", to: "88", compact: "88と左上"},
		{name: "D_N_ThreeB_88と寄", pieces: threeB, from: "98", to: "88", compact: "88と寄"},
		{name: "D_N_ThreeB_88と引", pieces: threeB, from: "87", to: "88", compact: "88と引"},
		{name: "D_N_ThreeC_28銀直", pieces: threeC, from: "29", to: "28", compact: "28銀直"},
		{name: "D_N_ThreeC_28銀右", pieces: threeC, from: "17", to: "28", compact: "28銀右"},
		{name: "D_N_ThreeC_28銀左上", pieces: threeC, from: "39", to: "28", compact: "28銀左上"},
		{name: "D_N_ThreeC_28銀左引", pieces: threeC, from: "37", to: "28", compact: "28銀左引"},
		// 002 竜: motion first, then 左/右, never 直.
		{name: "D_N_DragonA_82竜引", pieces: dragonA, from: "91", to: "82", compact: "82竜引"},
		{name: "D_N_DragonA_82竜上", pieces: dragonA, from: "84", to: "82", compact: "82竜上"},
		{name: "D_N_DragonB_43竜寄", pieces: dragonB, from: "23", to: "43", compact: "43竜寄"},
		{name: "D_N_DragonB_43竜引", pieces: dragonB, from: "52", to: "43", compact: "43竜引"},
		{name: "D_N_DragonC_35竜左", pieces: dragonC, from: "55", to: "35", compact: "35竜左"},
		{name: "D_N_DragonC_35竜右", pieces: dragonC, from: "15", to: "35", compact: "35竜右"},
		{name: "D_N_DragonD_88竜左", pieces: dragonD, from: "99", to: "88", compact: "88竜左"},
		{name: "D_N_DragonD_88竜右", pieces: dragonD, from: "89", to: "88", compact: "88竜右"},
		{name: "D_N_DragonE_17竜左", pieces: dragonE, from: "28", to: "17", compact: "17竜左"},
		{name: "D_N_DragonE_17竜右", pieces: dragonE, from: "19", to: "17", compact: "17竜右"},
		// 002 馬: likewise.
		{name: "D_N_HorseA_82馬左", pieces: horseA, from: "91", to: "82", compact: "82馬左"},
		{name: "D_N_HorseA_82馬右", pieces: horseA, from: "81", to: "82", compact: "82馬右"},
		{name: "D_N_HorseB_85馬寄", pieces: horseB, from: "95", to: "85", compact: "85馬寄"},
		{name: "D_N_HorseB_85馬引", pieces: horseB, from: "63", to: "85", compact: "85馬引"},
		{name: "D_N_HorseC_12馬引", pieces: horseC, from: "11", to: "12", compact: "12馬引"},
		{name: "D_N_HorseC_12馬上", pieces: horseC, from: "34", to: "12", compact: "12馬上"},
		{name: "D_N_HorseD_77馬左", pieces: horseD, from: "99", to: "77", compact: "77馬左"},
		{name: "D_N_HorseD_77馬右", pieces: horseD, from: "59", to: "77", compact: "77馬右"},
		{name: "D_N_HorseE_29馬左", pieces: horseE, from: "47", to: "29", compact: "29馬左"},
		{name: "D_N_HorseE_29馬右", pieces: horseE, from: "18", to: "29", compact: "29馬右"},
	}
}

func (c seedCase) position(t testing.TB) *Position {
	t.Helper()
	p, err := ParseSFEN(boardSFEN(t, c.pieces, c.side, c.hands))
	if err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	return p
}

func (c seedCase) move(t testing.TB) Move {
	if c.from == "" {
		return NewDrop(c.dropPT, sq(t, c.to))
	}
	return NewMove(sq(t, c.from), sq(t, c.to), c.promote)
}

func TestMoveText_D_N_SeedExamples(t *testing.T) {
	t.Parallel()
	for _, c := range seedCases() {
		t.Run(c.name, func(t *testing.T) {
			p := c.position(t)
			m := c.move(t)
			if !p.IsLegal(m) {
				t.Fatalf("test setup: %s is not legal in %s (%s)", m, p.SFEN(), p.Foul(m))
			}
			prev := sq(t, c.prev)
			if got := p.MoveText(m, prev, StyleCompact); got != c.compact {
				t.Errorf("MoveText compact = %q, want %q", got, c.compact)
			}
			if c.record != "" {
				if got := p.MoveText(m, prev, StyleRecord); got != c.record {
					t.Errorf("MoveText record = %q, want %q", got, c.record)
				}
			}
			got, err := p.ParseMoveText(c.compact, prev)
			if err != nil || got != m {
				t.Errorf("ParseMoveText(%q) = %s, %v; want %s", c.compact, got, err, m)
			}
		})
	}
}

// mirror turns a position upside down and swaps the colours, so every
// seed example (all Sente) is also checked from Gote's side: a text is
// written from the mover's point of view (002 右/左 = 指す側から見て).
func mirrorSFEN(t testing.TB, sfen string) string {
	t.Helper()
	p, err := ParseSFEN(sfen)
	if err != nil {
		t.Fatal(err)
	}
	pieces := map[string]string{}
	for s := Square(0); s < NumSquares; s++ {
		pc := p.At(s)
		if pc.IsEmpty() {
			continue
		}
		ms := NewSquare(10-s.File(), 10-s.Rank())
		pieces[ms.String()] = NewPiece(pc.Color().Opponent(), pc.Type()).String()
	}
	var hands strings.Builder
	for _, c := range []Color{Sente, Gote} {
		for _, pt := range HandTypes {
			if n := p.Hand(c, pt); n > 0 {
				if n > 1 {
					fmt.Fprint(&hands, n)
				}
				hands.WriteString(NewPiece(c.Opponent(), pt).String())
			}
		}
	}
	return boardSFEN(t, pieces, p.SideToMove().Opponent(), hands.String())
}

func mirrorSquare(s Square) Square {
	if !s.Valid() {
		return s
	}
	return NewSquare(10-s.File(), 10-s.Rank())
}

func mirrorMove(m Move) Move {
	if m.IsDrop() {
		return NewDrop(m.DropType(), mirrorSquare(m.To()))
	}
	return NewMove(mirrorSquare(m.From()), mirrorSquare(m.To()), m.IsPromotion())
}

func mirrorText(s string) string {
	var b strings.Builder
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		if i+1 < len(rs) && rs[i] >= '1' && rs[i] <= '9' && rs[i+1] >= '1' && rs[i+1] <= '9' {
			b.WriteRune('0' + 10 - (rs[i] - '0'))
			b.WriteRune('0' + 10 - (rs[i+1] - '0'))
			i++
			continue
		}
		b.WriteRune(rs[i])
	}
	return b.String()
}

func TestMoveText_D_N_SeedExamplesFromGotesSide(t *testing.T) {
	t.Parallel()
	for _, c := range seedCases() {
		t.Run(c.name, func(t *testing.T) {
			p0 := c.position(t)
			p, err := ParseSFEN(mirrorSFEN(t, p0.SFEN()))
			if err != nil {
				t.Fatal(err)
			}
			m := mirrorMove(c.move(t))
			want := mirrorText(c.compact)
			prev := mirrorSquare(sq(t, c.prev))
			if got := p.MoveText(m, prev, StyleCompact); got != want {
				t.Errorf("gote MoveText = %q, want %q", got, want)
			}
			if got := p.MoveText(m, prev, StyleRecord); !strings.HasPrefix(got, "△") {
				t.Errorf("gote record text %q lacks △", got)
			}
			if got, err := p.ParseMoveText(want, prev); err != nil || got != m {
				t.Errorf("ParseMoveText(%q) = %s, %v; want %s", want, got, err, m)
			}
		})
	}
}

func TestParseMoveText_D_N_AcceptedSpellings(t *testing.T) {
	t.Parallel()
	// Gote's silver on 3三 can take on 2二 or 4二? Use a small position:
	// Sente dragon on 2八 and silvers; Gote king far away.
	p, err := ParseSFEN(boardSFEN(t, map[string]string{
		"77": "P", "59": "K", "51": "k", "55": "B", "28": "R", "34": "S", "11": "l",
	}, Sente, "P"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		text string
		prev string
		want Move
	}{
		{"76歩", "", NewMove(sq(t, "77"), sq(t, "76"), false)},
		{"▲７六歩", "", NewMove(sq(t, "77"), sq(t, "76"), false)},
		{"☗7六歩", "", NewMove(sq(t, "77"), sq(t, "76"), false)},
		{"７６歩", "", NewMove(sq(t, "77"), sq(t, "76"), false)},
		{"  ▲７六歩 ", "", NewMove(sq(t, "77"), sq(t, "76"), false)},
		{"23銀成", "", NewMove(sq(t, "34"), sq(t, "23"), true)},
		{"23銀不成", "", NewMove(sq(t, "34"), sq(t, "23"), false)},
		{"23銀生", "", NewMove(sq(t, "34"), sq(t, "23"), false)},
		{"23銀", "", NewMove(sq(t, "34"), sq(t, "23"), false)},
		{"同銀成", "23", NewMove(sq(t, "34"), sq(t, "23"), true)},
		{"同　銀成", "23", NewMove(sq(t, "34"), sq(t, "23"), true)},
		{"同 銀成", "23", NewMove(sq(t, "34"), sq(t, "23"), true)},
		{"23同銀成", "23", NewMove(sq(t, "34"), sq(t, "23"), true)},
		{"66歩", "", NewDrop(Pawn, sq(t, "66"))},
		{"58玉", "", NewMove(sq(t, "59"), sq(t, "58"), false)},
		{"58王", "", NewMove(sq(t, "59"), sq(t, "58"), false)},
		{"▲５八玉", "", NewMove(sq(t, "59"), sq(t, "58"), false)},
		{"22角成", "", NewMove(sq(t, "55"), sq(t, "22"), true)},
	}
	for _, c := range cases {
		got, err := p.ParseMoveText(c.text, sq(t, c.prev))
		if err != nil || got != c.want {
			t.Errorf("ParseMoveText(%q) = %s, %v; want %s", c.text, got, err, c.want)
		}
	}
	// 竜 and 龍 are the same piece.
	q, err := ParseSFEN(boardSFEN(t, map[string]string{"28": "+R", "59": "K"}, Sente, ""))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"24竜", "24龍", "２四龍"} {
		if got, err := q.ParseMoveText(s, NoSquare); err != nil || got != NewMove(sq(t, "28"), sq(t, "24"), false) {
			t.Errorf("ParseMoveText(%q) = %s, %v", s, got, err)
		}
	}
}

func TestParseMoveText_D_N_Errors(t *testing.T) {
	t.Parallel()
	threeA, err := ParseSFEN(boardSFEN(t, map[string]string{"63": "G", "53": "G", "43": "G"}, Sente, ""))
	if err != nil {
		t.Fatal(err)
	}
	start := NewPosition(Even)
	cases := []struct {
		p    *Position
		text string
		prev Square
		want string // a word the error must contain
	}{
		{threeA, "52金", NoSquare, "ambiguous"},
		{start, "55歩", NoSquare, "no 歩 of sente can move to 55"},
		{start, "同歩", NoSquare, "no previous move"},
		{start, "", NoSquare, "destination"},
		{start, "76", NoSquare, "piece name"},
		{start, "7x歩", NoSquare, "destination"},
		{start, "△３四歩", NoSquare, "marked for gote"},
		{start, "76歩打", NoSquare, "none is in hand"},
		{start, "76歩右上打", NoSquare, "打 cannot"},
		{start, "76歩zz", NoSquare, "unexpected"},
		{start, "18香成", NoSquare, "illegal"},
	}
	for _, c := range cases {
		_, err := c.p.ParseMoveText(c.text, c.prev)
		if err == nil {
			t.Errorf("ParseMoveText(%q) = nil error, want one mentioning %q", c.text, c.want)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseMoveText(%q) error %q does not mention %q", c.text, err, c.want)
		}
	}
}

func TestResolveMoveText_D_X1_FoulsAreClassified(t *testing.T) {
	t.Parallel()
	p, err := ParseSFEN(boardSFEN(t, map[string]string{
		"57": "P", "59": "K", "51": "k", "12": "P", "19": "r", "49": "G",
	}, Sente, "P"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		text string
		want Foul
	}{
		{"54歩打", FoulNifu},
		{"11歩不成", FoulDeadPiece},
		{"48金", FoulIgnoredCheck}, // the gold on 4九 is pinned by the rook on 1九
	}
	for _, c := range cases {
		m, foul, err := p.ResolveMoveText(c.text, NoSquare)
		if err != nil {
			t.Errorf("ResolveMoveText(%q): %v", c.text, err)
			continue
		}
		if foul != c.want || p.Foul(m) != c.want {
			t.Errorf("ResolveMoveText(%q) foul = %s (engine %s), want %s", c.text, foul, p.Foul(m), c.want)
		}
	}
}

// randomPositions plays seeded random legal games and yields every
// position reached.
func randomPositions(seed uint64, games, plies int, visit func(p *Position, prev Square)) {
	r := rand.New(rand.NewPCG(seed, 0x6b6973656e))
	buf := make([]Move, 0, MaxLegalMoves)
	for g := 0; g < games; g++ {
		p := NewPosition(AllHandicaps()[r.IntN(len(AllHandicaps()))])
		prev := NoSquare
		for i := 0; i < plies; i++ {
			visit(p, prev)
			buf = p.LegalMoves(buf[:0])
			if len(buf) == 0 {
				break
			}
			m := buf[r.IntN(len(buf))]
			p.Do(m)
			prev = m.To()
		}
	}
}

// TestMoveText_D_N_RoundTripEveryLegalMove: in random positions, every
// legal move's text (both styles) reads back to that move, and no two
// legal moves share a text.
func TestMoveText_D_N_RoundTripEveryLegalMove(t *testing.T) {
	t.Parallel()
	buf := make([]Move, 0, MaxLegalMoves)
	n := 0
	randomPositions(1, 16, 120, func(p *Position, prev Square) {
		buf = p.LegalMoves(buf[:0])
		seen := map[string]Move{}
		for _, m := range buf {
			for _, style := range []NotationStyle{StyleRecord, StyleCompact} {
				text := p.MoveText(m, prev, style)
				if other, dup := seen[text]; dup && other != m {
					t.Fatalf("%s: %s and %s both read %q", p.SFEN(), other, m, text)
				}
				seen[text] = m
				got, err := p.ParseMoveText(text, prev)
				if err != nil || got != m {
					t.Fatalf("%s: %s wrote %q, read back %s, %v", p.SFEN(), m, text, got, err)
				}
				n++
			}
		}
	})
	if n < 10000 {
		t.Fatalf("only %d moves checked", n)
	}
}

// TestMoveText_D_N_PromotionWordProperty: 成 exactly on promotions, 不成
// exactly on non-promotions that could have promoted, 打 only on drops.
func TestMoveText_D_N_PromotionWordProperty(t *testing.T) {
	t.Parallel()
	buf := make([]Move, 0, MaxLegalMoves)
	randomPositions(2, 10, 120, func(p *Position, prev Square) {
		buf = p.LegalMoves(buf[:0])
		for _, m := range buf {
			text := p.MoveText(m, prev, StyleCompact)
			could := false
			if !m.IsDrop() {
				// Independent of the notation code: promotion is possible
				// when the promoting version of the move is legal too.
				could = p.IsLegal(NewMove(m.From(), m.To(), true))
			}
			switch {
			case m.IsPromotion() && !strings.HasSuffix(text, "成"):
				t.Fatalf("%s: promotion %s written %q", p.SFEN(), m, text)
			case !m.IsPromotion() && could && !strings.HasSuffix(text, "不成"):
				t.Fatalf("%s: %s could promote, written %q", p.SFEN(), m, text)
			case !could && strings.HasSuffix(text, "不成"):
				t.Fatalf("%s: %s could not promote, written %q", p.SFEN(), m, text)
			case !m.IsDrop() && strings.HasSuffix(text, "打"):
				t.Fatalf("%s: board move %s written %q", p.SFEN(), m, text)
			}
		}
	})
}

func FuzzParseMoveText(f *testing.F) {
	for i, c := range seedCases() {
		f.Add(c.compact, c.prev, uint8(i))
	}
	f.Add("▲７六歩", "", uint8(0))
	f.Add("△同　銀", "76", uint8(1))
	f.Add("同成銀", "55", uint8(2))
	f.Add("88と左上", "", uint8(3))
	f.Add("５五角打", "", uint8(4))
	// Positions from random games, so texts meet drops, promotions and
	// several pieces of a kind.
	var sfens []string
	randomPositions(4, 8, 100, func(p *Position, _ Square) {
		if len(sfens) < 256 {
			sfens = append(sfens, p.SFEN())
		}
	})
	f.Fuzz(func(t *testing.T, text, prevText string, which uint8) {
		p, err := ParseSFEN(sfens[int(which)%len(sfens)])
		if err != nil {
			t.Fatal(err)
		}
		prev := NoSquare
		if len(prevText) == 2 && prevText[0] >= '1' && prevText[0] <= '9' && prevText[1] >= '1' && prevText[1] <= '9' {
			prev = sq(t, prevText)
		}
		before := p.SFEN()
		m, foul, rerr := p.ResolveMoveText(text, prev)
		if p.SFEN() != before {
			t.Fatalf("ResolveMoveText(%q) changed the position", text)
		}
		if rerr == nil && p.Foul(m) != foul {
			t.Fatalf("ResolveMoveText(%q) = %s with foul %s, engine says %s", text, m, foul, p.Foul(m))
		}
		pm, err := p.ParseMoveText(text, prev)
		if err != nil {
			if rerr == nil && foul == FoulNone {
				t.Fatalf("ParseMoveText(%q) failed (%v) but ResolveMoveText found legal %s", text, err, m)
			}
			return
		}
		if !p.IsLegal(pm) || rerr != nil || pm != m {
			t.Fatalf("ParseMoveText(%q) = %s; Resolve %s %v", text, pm, m, rerr)
		}
		// The canonical spelling of the move reads back to the same move.
		for _, style := range []NotationStyle{StyleRecord, StyleCompact} {
			canon := p.MoveText(pm, prev, style)
			if back, err := p.ParseMoveText(canon, prev); err != nil || back != pm {
				t.Fatalf("%q -> %s -> %q -> %s, %v", text, pm, canon, back, err)
			}
		}
	})
}

func BenchmarkMoveText(b *testing.B) {
	var ps []*Position
	var prevs []Square
	randomPositions(3, 4, 120, func(p *Position, prev Square) {
		ps = append(ps, p.Clone())
		prevs = append(prevs, prev)
	})
	buf := make([]Move, 0, MaxLegalMoves)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := ps[i%len(ps)]
		buf = p.LegalMoves(buf[:0])
		if len(buf) > 0 {
			_ = p.MoveText(buf[i%len(buf)], prevs[i%len(ps)], StyleRecord)
		}
	}
}
