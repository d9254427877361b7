// Package analysis reads a game record with the rules engine and reports
// what it shows as adjudication.Findings: the first illegal move, every
// 千日手 (and whether it was perpetual check), mate, the jishogi points,
// the declaration facts and the 500-move rule. It is the one bridge from
// kisen/rules to kisen/adjudication, shared by the command line and the
// web, and is as pure as both.
package analysis

import (
	"fmt"
	"strings"

	"kisen/adjudication"
	"kisen/rules"
)

// Game reads g's record or moves; it returns nil findings when g has
// neither. Bad input gives an adjudication.FieldError naming the field.
func Game(g adjudication.Game) (*adjudication.Findings, error) {
	r, err := Read(g)
	return r.Findings, err
}

// Handicap reads a handicap's Japanese name; "" is 平手.
func Handicap(name string) (rules.Handicap, error) {
	if name == "" {
		return rules.Even, nil
	}
	h, ok := rules.HandicapByName(name)
	if !ok {
		names := make([]string, 0, 16)
		for _, h := range rules.AllHandicaps() {
			names = append(names, h.Name())
		}
		return rules.Even, &adjudication.FieldError{Field: "handicap",
			Msg: fmt.Sprintf("%q is not a handicap (one of %s)", name, strings.Join(names, " "))}
	}
	return h, nil
}

// Moves reads USI moves from start (an SFEN, "startpos", or "" for the
// handicap's start position).
func Moves(handicap, start string, usi []string) (*adjudication.Findings, error) {
	h, err := Handicap(handicap)
	if err != nil {
		return nil, err
	}
	var pos *rules.Position
	if start == "" {
		pos = rules.NewPosition(h)
	} else {
		pos, err = rules.ParseSFEN(start)
		if err != nil {
			return nil, &adjudication.FieldError{Field: "start", Msg: err.Error()}
		}
	}
	moves := make([]rules.Move, len(usi))
	for i, s := range usi {
		m, err := rules.ParseUSIMove(s)
		if err != nil {
			return nil, &adjudication.FieldError{Field: fmt.Sprintf("moves[%d]", i), Msg: err.Error()}
		}
		moves[i] = m
	}
	return Replay(pos, h, moves), nil
}

// Replay is the findings for moves played from start; h credits removed
// handicap pieces to 上手 in the points (D-J, 004).
func Replay(start *rules.Position, h rules.Handicap, moves []rules.Move) *adjudication.Findings {
	rep := rules.Replay{Start: start, Moves: moves}.Run()
	f := &adjudication.Findings{Plies: len(moves)}
	if rep.Foul != nil {
		kind := adjudication.FoulKind(rep.Foul.Kind.String())
		if !kind.Valid() {
			kind = adjudication.FoulIllegalMovement
		}
		f.Foul = &adjudication.FoulFinding{Ply: rep.Foul.Ply, Kind: kind, Offender: side(rep.Foul.By)}
	}
	for _, ply := range rep.PlayedThrough {
		f.Sennichite = append(f.Sennichite, adjudication.SennichiteFinding{Ply: ply})
	}
	if s := rep.Sennichite; s != nil {
		sf := adjudication.SennichiteFinding{Ply: s.Ply, Perpetual: s.Perpetual}
		if s.Perpetual {
			l := side(s.Loser)
			sf.Loser = &l
		}
		f.Sennichite = append(f.Sennichite, sf)
	}
	f.MaxMovesPly = adjudication.MaxMovesPly(rep.Checks)
	final := rep.Final
	f.SideToMove = side(final.SideToMove())
	f.Complete = rep.Foul == nil && rep.Plies == len(moves)
	if !f.Complete {
		return f
	}
	f.Mate = final.IsCheckmate()
	f.Points = &adjudication.Points{Sente: final.JishogiPoints(rules.Sente, h), Gote: final.JishogiPoints(rules.Gote, h)}
	// Declare counts the side to move's pieces in hand and in the enemy
	// camp; ply 0 keeps the 500-move condition out of its answer, since
	// adjudication judges that from the ply itself.
	v := final.Declare(rules.DeclarationFederation, h, true, 0)
	f.Declaration = &adjudication.DeclarationFacts{
		KingInCamp:   kingInCamp(final),
		PiecesInCamp: v.InCamp,
		Points:       v.Points,
		InCheck:      final.InCheck(),
	}
	f.FinalOccurrences = finalOccurrences(start, moves, lastSennichiteBefore(f, len(moves)))
	return f
}

// kingInCamp: the side to move's king stands in the three farthest ranks
// (D-J3 condition 1).
func kingInCamp(p *rules.Position) bool {
	c := p.SideToMove()
	k := p.KingSquare(c)
	if k == rules.NoSquare {
		return false
	}
	if c == rules.Sente {
		return k.Rank() <= 3
	}
	return k.Rank() >= 7
}

// lastSennichiteBefore is the ply of the last 千日手 strictly before ply
// (0 if none): occurrences before it no longer count (D-S3).
func lastSennichiteBefore(f *adjudication.Findings, ply int) int {
	last := 0
	for _, s := range f.Sennichite {
		if s.Ply < ply {
			last = s.Ply
		}
	}
	return last
}

// finalOccurrences counts how often the final position occurred at plies
// after since (the start counts as ply 0).
func finalOccurrences(start *rules.Position, moves []rules.Move, since int) int {
	p := start
	if p == nil {
		p = rules.NewPosition(rules.Even)
	}
	p = p.Clone()
	keys := make([]uint64, 0, len(moves)+1)
	keys = append(keys, p.Key())
	for _, m := range moves {
		p.Do(m)
		keys = append(keys, p.Key())
	}
	final, n := keys[len(keys)-1], 0
	for ply, k := range keys {
		if k == final && (since == 0 || ply > since) {
			n++
		}
	}
	return n
}

func side(c rules.Color) adjudication.Side {
	if c == rules.Gote {
		return adjudication.Gote
	}
	return adjudication.Sente
}
