package office

import (
	"encoding/csv"
	"io"
	"strings"
)

// CSV injection (issue 21 item 8, docs/downloads.md "Spreadsheet
// formulas"): a spreadsheet program opening a CSV runs a cell that begins
// with =, +, -, @, a tab or a carriage return as a formula, so a player
// named =HYPERLINK(…) would run in the director's spreadsheet. Every CSV
// Kisen writes goes through CSVWriter, which prefixes such a cell with a
// single quote (OWASP's rule). A cell that begins with quotes followed by
// one of those characters gets one more quote, so NeutralisedCSVCell is a
// bijection and the player and league-history imports undo it exactly
// (UnneutraliseCSVCell).
//
// The one exemption: a cell Kisen itself formatted as a number (a rating
// "-12.5", an id) and marked so by the caller is written as is, so a
// spreadsheet still sees a number — and only when the cell really is a
// plain decimal number (or the bye marker "-"); user text is never
// exempt.

// csvFormulaStart reports whether c starts a formula in a spreadsheet.
func csvFormulaStart(c byte) bool {
	switch c {
	case '=', '+', '-', '@', '\t', '\r':
		return true
	}
	return false
}

// NeutralisedCSVCell returns the cell as written to a CSV download: one
// quote added when it matches ^'*[=+\-@\t\r].
func NeutralisedCSVCell(s string) string {
	rest := strings.TrimLeft(s, "'")
	if rest != "" && csvFormulaStart(rest[0]) {
		return "'" + s
	}
	return s
}

// UnneutraliseCSVCell undoes NeutralisedCSVCell: one quote removed when the
// cell matches ^'+[=+\-@\t\r]. Any other cell is returned unchanged.
func UnneutraliseCSVCell(s string) string {
	if !strings.HasPrefix(s, "'") {
		return s
	}
	rest := strings.TrimLeft(s, "'")
	if rest != "" && csvFormulaStart(rest[0]) {
		return s[1:]
	}
	return s
}

// plainNumber reports whether s is a decimal number as strconv formats it
// (-12, 1500.0) or the bye marker "-".
func plainNumber(s string) bool {
	if s == "-" {
		return true
	}
	s = strings.TrimPrefix(s, "-")
	if s == "" {
		return false
	}
	dot := false
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] >= '0' && s[i] <= '9':
		case s[i] == '.' && !dot && i > 0 && i < len(s)-1:
			dot = true
		default:
			return false
		}
	}
	return true
}

// CSVWriter is encoding/csv's writer with every cell neutralised. It is the
// only way Kisen writes a CSV download (players, ratings, a player's
// record, a stage, a league class's schedule).
type CSVWriter struct {
	w   *csv.Writer
	rec []string
}

// NewCSVWriter writes to w.
func NewCSVWriter(w io.Writer) *CSVWriter { return &CSVWriter{w: csv.NewWriter(w)} }

// Write writes one record; every cell is neutralised except those at the
// indexes in own that hold a plain number Kisen formatted itself (see the
// package comment above). rec itself is not changed.
func (cw *CSVWriter) Write(rec []string, own ...int) error {
	cw.rec = cw.rec[:0]
	for i, c := range rec {
		exempt := false
		for _, k := range own {
			if k == i && plainNumber(c) {
				exempt = true
			}
		}
		if !exempt {
			c = NeutralisedCSVCell(c)
		}
		cw.rec = append(cw.rec, c)
	}
	return cw.w.Write(cw.rec)
}

// Flush writes any buffered data.
func (cw *CSVWriter) Flush() { cw.w.Flush() }

// Error reports a failed Write or Flush.
func (cw *CSVWriter) Error() error { return cw.w.Error() }
