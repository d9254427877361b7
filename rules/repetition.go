package rules

// SennichiteAt describes a 千日手: the ply of the 4th occurrence of a
// position (D-S1, 000 第8条第1項), the ply of its first occurrence, and
// whether it was perpetual check (連続王手の千日手, D-S4, 000 第10条第10項)
// with the side that loses.
type SennichiteAt struct {
	Ply       int   // plies since the start when the 4th occurrence arose
	FirstPly  int   // ply of the first of the four occurrences
	Perpetual bool  // one side gave check with every move from FirstPly to Ply
	Loser     Color // the side that kept checking; meaningful only if Perpetual
}

// Repetition follows a game position by position and reports 千日手.
//
// The window for perpetual check is the moves from the first of the four
// occurrences up to the 4th: moves FirstPly+1 .. Ply. A side loses by
// perpetual check when every one of its moves in that window gave check
// (D-S4). Because the window starts at an occurrence of the repeated
// position, the final position can be the one right after a check or the
// one right after the check was answered; both are the same rule
// (000 第10条第10項). If both sides checked with every move the rule
// cannot single out one side, and it is reported as a plain 千日手.
//
// After a 4th occurrence the history is cleared: when play goes on the
// repetition is broken (打開, D-S3, 000 第8条第3項) and only four new
// occurrences, all after it, make a new 千日手.
type Repetition struct {
	ply     int
	base    int // ply of entries[0]
	entries []repEntry
	// seen counts entries per low byte of their key (saturating), so a
	// position whose bucket holds fewer than four entries, which is nearly
	// every position, is known not to be a 4th occurrence without a scan.
	seen [256]uint8
}

type repEntry struct {
	key   uint64
	mover Color // side that made the move leading here
	check bool  // that move gave check
}

// NewRepetition starts following at p (ply 0), which counts as the first
// occurrence of its position.
func NewRepetition(p *Position) *Repetition {
	r := &Repetition{entries: make([]repEntry, 0, 256)}
	r.entries = append(r.entries, repEntry{key: p.Key(), mover: p.SideToMove() ^ 1})
	r.seen[uint8(p.Key())]++
	return r
}

// Ply is the number of positions pushed so far.
func (r *Repetition) Ply() int { return r.ply }

// Push records p, the position after the next move, and whether that move
// gave check. It reports a 千日手 when p occurs for the 4th time.
func (r *Repetition) Push(p *Position, gaveCheck bool) (SennichiteAt, bool) {
	r.ply++
	key := p.Key()
	r.entries = append(r.entries, repEntry{key: key, mover: p.SideToMove() ^ 1, check: gaveCheck})
	if b := &r.seen[uint8(key)]; *b < 255 {
		*b++
		if *b < 4 {
			return SennichiteAt{}, false
		}
	}
	n := len(r.entries) - 1
	count, first := 0, n
	// A position repeats only with the same side to move, so only entries
	// an even distance back can match.
	for i := n; i >= 0; i -= 2 {
		if r.entries[i].key == key {
			count++
			first = i
		}
	}
	if count < 4 {
		return SennichiteAt{}, false
	}
	at := SennichiteAt{Ply: r.ply, FirstPly: r.base + first}
	var moved, checked [2]int
	for _, e := range r.entries[first+1:] {
		moved[e.mover]++
		if e.check {
			checked[e.mover]++
		}
	}
	allCheck := func(c Color) bool { return moved[c] > 0 && checked[c] == moved[c] }
	switch {
	case allCheck(Sente) && !allCheck(Gote):
		at.Perpetual, at.Loser = true, Sente
	case allCheck(Gote) && !allCheck(Sente):
		at.Perpetual, at.Loser = true, Gote
	}
	// D-S3: continuing past here breaks the repetition; start afresh.
	r.entries = r.entries[:0]
	r.seen = [256]uint8{}
	r.base = r.ply + 1
	return at, true
}
