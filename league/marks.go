package league

// MarkState says how far a row's marks (昇級, 降級, 挑戦者, プレーオフ,
// ★降級点, and a 降級点 erased) can be trusted while a term is played.
type MarkState int

const (
	// MarkHidden: no game of the class has been decided yet, so no mark
	// means anything; none is shown.
	MarkHidden MarkState = iota
	// MarkProvisional: the mark is where the row stands now and can still
	// change with the remaining games (暫定).
	MarkProvisional
	// MarkDecided: no result of the remaining games can change the mark.
	MarkDecided
)

// Marks tells, per player id, whether the row's marks are decided: the
// table is final, or — bounding each player's record by their remaining
// games (every unplayed game won, or every one lost) — the place, the
// all-wins promotion, the 降級点 and its erasure come out the same
// whatever happens. The bound treats the remaining games as independent
// (a game between two players counts as possibly won by each), so a
// "decided" is always true and a "provisional" may be cautious.
func Marks(tab Table, r ClassRules) map[string]MarkState {
	out := make(map[string]MarkState, len(tab.Rows))
	played := 0
	for _, row := range tab.Rows {
		played += row.Wins + row.Losses
	}
	for _, row := range tab.Rows {
		switch {
		case tab.Final:
			out[row.ID] = MarkDecided
		case played == 0:
			out[row.ID] = MarkHidden
		case settled(tab.Rows, row, r):
			out[row.ID] = MarkDecided
		default:
			out[row.ID] = MarkProvisional
		}
	}
	return out
}

// record is a bound on a final record: wins, losses, and 順位 for ties.
type record struct{ w, l, junni int }

func best(r Row) record  { return record{r.Wins + r.Unplayed, r.Losses, r.Junni} }
func worst(r Row) record { return record{r.Wins, r.Losses + r.Unplayed, r.Junni} }

// before is the table's order: more wins, then fewer losses, then 順位.
func (a record) before(b record) bool {
	if a.w != b.w {
		return a.w > b.w
	}
	if a.l != b.l {
		return a.l < b.l
	}
	return a.junni < b.junni
}

// strictlyBetter compares records without 順位 (a tie goes to a playoff).
func (a record) strictlyBetter(b record) bool {
	return a.w > b.w || (a.w == b.w && a.l < b.l)
}

// settled reports whether p's outcome, new 降級点 and erased 降級点 are
// the same whatever the remaining games give.
func settled(rows []Row, p Row, r ClassRules) bool {
	n := len(rows)
	minPlace, maxPlace := 1, 1
	for _, q := range rows {
		if q.ID == p.ID {
			continue
		}
		if worst(q).before(best(p)) {
			minPlace++
		}
		if best(q).before(worst(p)) {
			maxPlace++
		}
	}
	top := r.Challengers + r.Promote
	bottom := n - r.Demote // last place that is not a direct demotion
	// All-wins promotion (beyond the places): decided once the player has
	// lost, or has won every game and has none left.
	allWinsOpen := r.AllWinsPromote && p.Losses == 0 && p.Unplayed > 0
	if allWinsOpen && maxPlace > top {
		return false
	}
	allWins := r.AllWinsPromote && p.Losses == 0 && p.Unplayed == 0 && p.Wins > 0
	if !allWins {
		if r.Challengers > 0 && r.Playoff {
			// Everyone who ends level with the first place plays off
			// (パラマス), and the promotion places follow them: decided
			// only for the sure sole leader, or for a player someone will
			// surely finish ahead of, in a class without promotion places.
			soleLeader, behind := true, false
			for _, q := range rows {
				if q.ID == p.ID {
					continue
				}
				soleLeader = soleLeader && worst(p).strictlyBetter(best(q))
				behind = behind || worst(q).strictlyBetter(best(p))
			}
			if !soleLeader && (!behind || r.Promote > 0) {
				return false
			}
		} else if minPlace <= top && maxPlace > top {
			return false // promotion still open
		} else if r.Challengers > 0 && minPlace <= r.Challengers && maxPlace > r.Challengers {
			return false // challenger or promoted still open
		}
		if minPlace <= bottom && maxPlace > bottom {
			return false // direct demotion still open
		}
	}
	if r.PointsNum > 0 && r.PointsDen > 0 && !allWins {
		k := n * r.PointsNum / r.PointsDen
		first := bottom - k + 1 // the 降級点 places sit just above direct demotion
		if first <= top {
			return false // the zones overlap: too small a class to bound
		}
		inZone := minPlace >= first && maxPlace <= bottom
		outOfZone := maxPlace < first || minPlace > bottom
		if !inZone && !outOfZone {
			return false
		}
	}
	if p.Points > 0 || p.Erased > 0 {
		// A winning record erases 降級点: decided once it surely is or
		// surely is not one.
		sure := p.Wins > p.Losses+p.Unplayed
		never := p.Wins+p.Unplayed <= p.Losses
		if !sure && !never {
			return false
		}
	}
	return true
}
