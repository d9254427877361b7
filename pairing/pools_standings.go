package pairing

import "slices"

// standings lists every player in input order.
func (p *pools) standings(s *state, bl *blocking) []PoolStanding {
	out := make([]PoolStanding, len(p.req.Players))
	for i, pl := range p.req.Players {
		st := PoolStanding{ID: pl.ID, Name: pl.Name, Record: s.rec[i], Byes: s.byes[i], Status: s.status[i], Round: s.round[i]}
		if st.Status == StatusPlaying {
			st.Round = 0
		}
		if bl != nil {
			st.Block = bl.ids[bl.of[i]]
			if st.Status == StatusQualified {
				st.BlockPlace = 1
				if st.Record.Losses > 0 {
					st.BlockPlace = 2
				}
			}
		}
		out[i] = st
	}
	return out
}

// PoolsStandings is the standings after the results given, in standings
// order (SortPoolStandings), and the number of rounds played. Results that
// break a rule are refused as a draw refuses them (CheckPools names each).
func PoolsStandings(req PoolsRequest) ([]PoolStanding, int, error) {
	req.Proposed = nil
	p, bl, rounds, err := preparePools(req)
	if err != nil {
		return nil, 0, err
	}
	s, bad := p.replay(rounds, bl)
	if bl != nil && len(req.Blocks) > 0 {
		if v := bl.violations(); len(v) > 0 {
			return nil, 0, fieldErr("blocks", "%s; see kisen draw pools --check", v[0].Message)
		}
	}
	if len(bad) > 0 {
		return nil, 0, fieldErr("games", "the results break a rule (%s: %s); see kisen draw pools --check", bad[0].Rule, bad[0].Message)
	}
	out := p.standings(s, bl)
	SortPoolStandings(out)
	return out, s.played, nil
}

// SortPoolStandings orders standings as the day's pages and the command
// show them: qualified players first, then those still playing, then
// those out; more wins first, then fewer losses; otherwise as given.
func SortPoolStandings(lines []PoolStanding) {
	order := map[string]int{StatusQualified: 0, StatusPlaying: 1, StatusOut: 2}
	slices.SortStableFunc(lines, func(a, b PoolStanding) int {
		if c := order[a.Status] - order[b.Status]; c != 0 {
			return c
		}
		if c := b.Record.Wins - a.Record.Wins; c != 0 {
			return c
		}
		return a.Record.Losses - b.Record.Losses
	})
}
