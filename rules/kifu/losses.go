package kifu

import (
	"fmt"
	"time"
)

// Losses lists what writing r in format f leaves out, so a converter can
// say so instead of dropping it silently.
func Losses(r *Record, f Format) []string {
	var out []string
	vars := countVariations(r.Main)
	timed, comments := false, len(r.StartComments) > 0
	walk(r.Main, func(n *Node) {
		timed = timed || n.HasTime
		comments = comments || len(n.Comments) > 0
	})
	switch f {
	case FormatUSI:
		if len(r.Header.Fields) > 0 {
			out = append(out, "header (USI has none)")
		}
		if timed {
			out = append(out, "move times (USI has none)")
		}
		if comments {
			out = append(out, "comments (USI has none)")
		}
		if r.Main.End != nil {
			out = append(out, "result "+r.Main.End.Kind.String()+" (USI has none)")
		}
		if vars > 0 {
			out = append(out, fmt.Sprintf("%d variations (USI has none)", vars))
		}
	case FormatCSA:
		if vars > 0 {
			out = append(out, fmt.Sprintf("%d variations (CSA has none)", vars))
		}
	case FormatKI2:
		if timed {
			out = append(out, "move times (KI2 has none)")
		}
	case FormatKIF:
		frac := false
		walk(r.Main, func(n *Node) { frac = frac || n.Time%time.Second != 0 || n.Total%time.Second != 0 })
		if frac {
			out = append(out, "fractions of a second (KIF times are whole seconds)")
		}
	}
	if t := r.Main.End; t != nil && (f == FormatKIF || f == FormatKI2) {
		switch t.Kind {
		case EndMaxMoves, EndDeclareDraw:
			out = append(out, "result "+t.Kind.String()+" is written as 持将棋")
		case EndError:
			out = append(out, "result error is written as 中断")
		}
	}
	if t := r.Main.End; t != nil && f == FormatCSA && (t.Kind == EndForfeitWin || t.Kind == EndForfeitLoss) {
		out = append(out, "result "+t.Kind.String()+" has no CSA command; kept in a comment")
	}
	return out
}

func countVariations(l Line) int {
	n := 0
	for _, node := range l.Nodes {
		for _, v := range node.Variations {
			n += 1 + countVariations(v)
		}
	}
	return n
}

// walk visits every node of l and its variations.
func walk(l Line, visit func(*Node)) {
	for i := range l.Nodes {
		visit(&l.Nodes[i])
		for _, v := range l.Nodes[i].Variations {
			walk(v, visit)
		}
	}
}
