package kifu

import (
	"kisen/rules"
)

// Report is what the rules engine finds in a record's main line, next to
// what the record itself says.
type Report struct {
	Moves     int    `json:"moves"`      // moves in the record's main line
	Legal     int    `json:"legal"`      // moves replayed legally
	FinalSFEN string `json:"final_sfen"` // after the last legal move
	Result    Result `json:"result"`     // as written in the record
	// Foul is the first illegal move (D-X1), nil if none.
	Foul *FoulReport `json:"foul"`
	// Sennichite is a 千日手 the replay found (D-S1, D-S4), nil if none.
	Sennichite *SennichiteReport `json:"sennichite"`
	// PlayedThrough lists plies of 4th occurrences after which play went
	// on: broken (打開, D-S3), they do not count.
	PlayedThrough []int `json:"sennichite_played_through,omitempty"`
	// Jishogi counts both sides' points at the end (D-J; removed handicap
	// pieces credited to 上手).
	Jishogi JishogiReport `json:"jishogi"`
	// Declaration judges a declaration by the side to move at the end,
	// under both rules (D-J3).
	Declaration DeclarationReport `json:"declaration"`
}

// FoulReport locates an illegal move.
type FoulReport struct {
	Ply      int    `json:"ply"`
	Line     int    `json:"line,omitempty"` // input line of the move (0 when unknown)
	Kind     string `json:"kind"`           // rules.Foul code: nifu, dead_piece, …
	Japanese string `json:"japanese"`       // 二歩, 行き所のない駒, …
	Move     string `json:"move"`           // ▲５五歩打 (record style)
	USI      string `json:"usi"`
	By       string `json:"by"` // sente or gote
}

// SennichiteReport is a 千日手 found in the moves.
type SennichiteReport struct {
	Ply       int    `json:"ply"`
	Line      int    `json:"line,omitempty"`
	FirstPly  int    `json:"first_ply"`
	Perpetual bool   `json:"perpetual"`
	Loser     string `json:"loser,omitempty"` // set when Perpetual
}

// JishogiReport is both sides' 持将棋 points.
type JishogiReport struct {
	Sente int `json:"sente"`
	Gote  int `json:"gote"`
}

// DeclarationReport is the verdict on a declaration by Side.
type DeclarationReport struct {
	Side       string  `json:"side"`
	Federation Verdict `json:"federation"`
	Rule27     Verdict `json:"rule27"`
}

// Verdict is one rule's judgement of a declaration.
type Verdict struct {
	Result          string `json:"result"` // win, redo, lose
	Points          int    `json:"points"`
	InCamp          int    `json:"in_camp"`
	FailedCondition string `json:"failed_condition,omitempty"`
}

func verdictOf(v rules.DeclarationVerdict) Verdict {
	return Verdict{Result: v.Result.String(), Points: v.Points, InCamp: v.InCamp, FailedCondition: v.FailedCondition}
}

// Check replays the main line with the rules engine: the first foul,
// 千日手 (plain or perpetual check), the points of both sides and the
// verdict on a declaration at the end. A record gives no clock, so the
// 27点法 verdict assumes the declarer had time left.
func Check(r *Record) (Report, error) {
	start, err := r.StartPosition()
	if err != nil {
		return Report{}, err
	}
	moves := r.Moves()
	rep := rules.Replay{Start: start, Moves: moves}.Run()
	out := Report{
		Moves:     len(moves),
		Legal:     rep.Plies,
		FinalSFEN: rep.Final.SFEN(),
		Result:    r.Result(),
	}
	lineOf := func(ply int) int {
		if ply >= 1 && ply <= len(r.Main.Nodes) {
			return r.Main.Nodes[ply-1].SourceLine
		}
		return 0
	}
	if f := rep.Foul; f != nil {
		prev := rules.NoSquare
		if f.Ply >= 2 {
			prev = moves[f.Ply-2].To()
		}
		out.Foul = &FoulReport{
			Ply: f.Ply, Line: lineOf(f.Ply), Kind: f.Kind.String(), Japanese: f.Kind.Japanese(),
			Move: rep.Final.MoveText(f.Move, prev, rules.StyleRecord), USI: f.Move.USI(), By: f.By.String(),
		}
	}
	if s := rep.Sennichite; s != nil {
		out.Sennichite = &SennichiteReport{Ply: s.Ply, Line: lineOf(s.Ply), FirstPly: s.FirstPly, Perpetual: s.Perpetual}
		if s.Perpetual {
			out.Sennichite.Loser = s.Loser.String()
		}
	}
	out.PlayedThrough = rep.PlayedThrough
	h := rules.Even
	if r.Start == "" {
		h = r.Handicap
	}
	out.Jishogi = JishogiReport{Sente: rep.Final.JishogiPoints(rules.Sente, h), Gote: rep.Final.JishogiPoints(rules.Gote, h)}
	out.Declaration = DeclarationReport{
		Side:       rep.Final.SideToMove().String(),
		Federation: verdictOf(rep.Final.Declare(rules.DeclarationFederation, h, true, rep.Plies)),
		Rule27:     verdictOf(rep.Final.Declare(rules.Declaration27, h, true, rep.Plies)),
	}
	return out, nil
}
