package kifu

import (
	"fmt"
	"strings"

	"kisen/rules"
)

// USI position commands: "position startpos moves 7g7f 3c3d",
// "position sfen <board> <side> <hands> <move number> moves …", and the
// same without the word "position". USI holds the start and the moves
// only: no header, times, comments, result or variations.

// ReadUSI reads the first non-empty line of text as a USI position.
func ReadUSI(text string) (*Record, error) {
	for i, raw := range splitLines(text) {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		rec, err := parseUSIPosition(line)
		if err != nil {
			return nil, lineErr(FormatUSI, i+1, "%v", err)
		}
		for j := range rec.Main.Nodes {
			rec.Main.Nodes[j].SourceLine = i + 1
		}
		for j, rest := range splitLines(text)[i+1:] {
			if t := strings.TrimSpace(rest); t != "" && !strings.HasPrefix(t, "#") {
				return nil, kindErr(FormatUSI, i+j+2, ErrSeveral, 0, "one position per record; found another line %q", t)
			}
		}
		return rec, nil
	}
	return nil, kindErr(FormatUSI, 0, ErrNoPosition, 0, "no position line (want position startpos|sfen … [moves …])")
}

func parseUSIPosition(line string) (*Record, error) {
	f := strings.Fields(line)
	if len(f) > 0 && f[0] == "position" {
		f = f[1:]
	}
	if len(f) == 0 {
		return nil, fmt.Errorf("want startpos or sfen after position")
	}
	rec := &Record{}
	var rest []string
	switch f[0] {
	case "startpos":
		rest = f[1:]
	case "sfen":
		if len(f) < 4 {
			return nil, fmt.Errorf("sfen needs board, side to move and hands")
		}
		n := 4
		sfen := strings.Join(f[1:4], " ")
		if len(f) >= 5 && f[4] != "moves" {
			sfen += " " + f[4]
			n = 5
		} else {
			sfen += " 1"
		}
		if err := startFromSFEN(rec, sfen); err != nil {
			return nil, fmt.Errorf("sfen: %w", err)
		}
		rest = f[n:]
	default:
		return nil, fmt.Errorf("%q: want startpos or sfen", f[0])
	}
	if len(rest) == 0 {
		return rec, nil
	}
	if rest[0] != "moves" {
		return nil, fmt.Errorf("%q: want moves after the position", rest[0])
	}
	for i, s := range rest[1:] {
		m, err := rules.ParseUSIMove(s)
		if err != nil {
			return nil, fmt.Errorf("move %d: %w", i+1, err)
		}
		rec.Main.Nodes = append(rec.Main.Nodes, Node{Move: m})
	}
	return rec, nil
}

// WriteUSI writes the start and the main line as one USI position command.
func WriteUSI(r *Record) (string, error) {
	var b strings.Builder
	b.WriteString("position ")
	if r.Start == "" && r.Handicap == rules.Even {
		b.WriteString("startpos")
	} else {
		p, err := r.StartPosition()
		if err != nil {
			return "", err
		}
		b.WriteString("sfen " + p.SFEN())
	}
	if len(r.Main.Nodes) > 0 {
		b.WriteString(" moves")
		for _, n := range r.Main.Nodes {
			b.WriteString(" " + n.Move.USI())
		}
	}
	b.WriteByte('\n')
	return b.String(), nil
}
