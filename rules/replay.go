package rules

// Replay is a whole game: a start position and the moves played.
type Replay struct {
	Start *Position // nil means the even start
	Moves []Move
}

// FoulAt is the first illegal move of a replay.
type FoulAt struct {
	Ply  int // 1-based index into Moves
	Move Move
	Kind Foul
	By   Color // the side that made it
}

// ReplayReport is what Replay.Run found.
type ReplayReport struct {
	// Plies is the number of moves played legally: up to the first foul,
	// up to a 連続王手の千日手, or the whole game.
	Plies int
	Final *Position // the position after the last legal move played
	// Foul is the first illegal move, nil if none (D-X1).
	Foul *FoulAt
	// Sennichite is set when the game ends in 千日手: a 4th occurrence on
	// the last move, or a perpetual-check 千日手 anywhere (that is a foul,
	// D-X1, and the replay stops there: D-X2 winds the game back to it).
	Sennichite *SennichiteAt
	// PlayedThrough lists plain 千日手 4th occurrences after which the game
	// went on; by D-S3 (000 第8条第3項) they are broken and do not count.
	PlayedThrough []int
	// Checks[i] reports whether move i+1 gave check, for the Plies moves
	// played; the adjudicator follows a series of checks with it (D-J4).
	Checks []bool
}

// Run replays the game, checking every move and following repetitions.
func (r Replay) Run() ReplayReport {
	var p *Position
	if r.Start == nil {
		p = NewPosition(Even)
	} else {
		p = r.Start.Clone()
	}
	rep := NewRepetition(p)
	out := ReplayReport{Checks: make([]bool, 0, len(r.Moves))}
	// Whether the side to move is in check is carried from move to move,
	// so neither the legality test nor the check test walks round a king
	// for most moves (legality.go). The shortcut for "gave check" needs a
	// start where the side not to move is not in check; a Position never
	// holds anything else, but a start that did would still be judged
	// exactly, by InCheck after every move.
	inCheck := p.InCheck()
	fast := p.king[p.side^1] == NoSquare || !p.attacked(p.king[p.side^1], p.side)
	for i, m := range r.Moves {
		if f := p.foul(m, knownCheck(inCheck)); f != FoulNone {
			out.Foul = &FoulAt{Ply: i + 1, Move: m, Kind: f, By: p.SideToMove()}
			break
		}
		p.Do(m)
		if fast {
			inCheck = p.checkedAfter(m)
		} else {
			inCheck = p.InCheck()
		}
		out.Checks = append(out.Checks, inCheck)
		out.Plies = i + 1
		if at, ok := rep.Push(p, inCheck); ok {
			if at.Perpetual || i == len(r.Moves)-1 {
				found := at // only this copy escapes, not one per move
				out.Sennichite = &found
				break
			}
			out.PlayedThrough = append(out.PlayedThrough, at.Ply)
		}
	}
	out.Final = p
	return out
}
