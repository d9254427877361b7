package kifu

import (
	"fmt"
	"math/rand/v2"
	"time"

	"kisen/rules"
)

// genOptions shape a generated record.
type genOptions struct {
	handicap   rules.Handicap
	plies      int
	times      bool
	comments   bool
	variations int
	end        EndKind
}

// genRecord plays a seeded random legal game and dresses it as a record:
// realistic headers, per-move times with consistent totals, comments and
// variations. Tests write it in every format and read it back.
func genRecord(seed uint64, o genOptions) *Record {
	r := rand.New(rand.NewPCG(seed, 0x6b696675))
	rec := &Record{Handicap: o.handicap}
	rec.Header.Add("", " ---- Kisen 棋譜ファイル ----")
	rec.Header.Add(KeyStart, fmt.Sprintf("2026/%02d/%02d 10:00:00", 1+r.IntN(12), 1+r.IntN(28)))
	rec.Header.Add(KeyEvent, fmt.Sprintf("第%d期 棋戦 予選", 1+r.IntN(80)))
	rec.Header.Add(KeyPlace, "東京・将棋会館")
	rec.Header.Add(KeyTimeLimit, "3:00+60")
	rec.Header.Add(keyHandicap, o.handicap.Name())
	rec.Header.Add(KeySente, fmt.Sprintf("棋士%02d 五段", r.IntN(100)))
	rec.Header.Add(KeyGote, fmt.Sprintf("棋士%02d 七段", r.IntN(100)))
	rec.Header.Add("表題", "予選 1回戦")
	if o.comments {
		rec.StartComments = []string{"対局開始前のコメント"}
	}
	pos := rules.NewPosition(o.handicap)
	rec.Main = genLine(r, pos, o.plies, o, 0)
	for v := 0; v < o.variations && len(rec.Main.Nodes) > 2; v++ {
		addVariation(r, rec, o)
	}
	return rec
}

func genLine(r *rand.Rand, pos *rules.Position, plies int, o genOptions, depth int) Line {
	var l Line
	var totals [2]time.Duration
	buf := make([]rules.Move, 0, rules.MaxLegalMoves)
	for i := 0; i < plies; i++ {
		buf = pos.LegalMoves(buf[:0])
		if len(buf) == 0 {
			l.End = &Terminal{Kind: EndCheckmate}
			return l
		}
		m := buf[r.IntN(len(buf))]
		n := Node{Move: m}
		if o.times {
			d := time.Duration(r.IntN(600)) * time.Second
			totals[pos.SideToMove()] += d
			n.Time, n.Total, n.HasTime = d, totals[pos.SideToMove()], true
		}
		if o.comments && r.IntN(10) == 0 {
			n.Comments = []string{fmt.Sprintf("%d手目の解説 depth %d", i+1, depth)}
		}
		pos.Do(m)
		l.Nodes = append(l.Nodes, n)
	}
	if o.end != EndNone {
		t := &Terminal{Kind: o.end}
		if o.end == EndIllegalAction {
			t.Loser = pos.SideToMove().Opponent()
		}
		if o.times {
			t.Time, t.HasTime = 5*time.Second, true
			t.Total = totals[pos.SideToMove()] + t.Time
		}
		l.End = t
	}
	return l
}

// addVariation branches somewhere in the main line (or in an existing
// variation) with a different legal move.
func addVariation(r *rand.Rand, rec *Record, o genOptions) {
	line := &rec.Main
	pos := rules.NewPosition(rec.Handicap)
	// Maybe descend into an existing variation first.
	for {
		at := r.IntN(len(line.Nodes))
		if len(line.Nodes[at].Variations) > 0 && r.IntN(2) == 0 {
			for i := 0; i < at; i++ {
				pos.Do(line.Nodes[i].Move)
			}
			vi := r.IntN(len(line.Nodes[at].Variations))
			line = &line.Nodes[at].Variations[vi]
			continue
		}
		for i := 0; i < at; i++ {
			pos.Do(line.Nodes[i].Move)
		}
		buf := pos.LegalMoves(nil)
		var alts []rules.Move
		taken := map[rules.Move]bool{line.Nodes[at].Move: true}
		for _, v := range line.Nodes[at].Variations {
			taken[v.Nodes[0].Move] = true
		}
		for _, m := range buf {
			if !taken[m] {
				alts = append(alts, m)
			}
		}
		if len(alts) == 0 {
			return
		}
		vo := o
		vo.end = EndResign
		first := alts[r.IntN(len(alts))]
		n := Node{Move: first}
		if o.times {
			n.Time, n.HasTime = 3*time.Second, true
		}
		pos.Do(first)
		rest := genLine(r, pos, 3+r.IntN(5), vo, 1)
		v := Line{Nodes: append([]Node{n}, rest.Nodes...), End: rest.End}
		line.Nodes[at].Variations = append(line.Nodes[at].Variations, v)
		return
	}
}
