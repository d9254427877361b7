package kifu

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Format is a record file format.
type Format uint8

const (
	FormatUnknown Format = iota
	FormatKIF
	FormatKI2
	FormatCSA
	FormatUSI
)

var formatNames = [...]string{"unknown", "kif", "ki2", "csa", "usi"}

// String is the lower-case name used on the command line: kif, ki2, csa, usi.
func (f Format) String() string {
	if int(f) < len(formatNames) {
		return formatNames[f]
	}
	return "unknown"
}

// MarshalText writes the name.
func (f Format) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

// ParseFormat reads a format name (kif, ki2, csa, usi; "sfen" is usi).
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "kif", "kifu":
		return FormatKIF, nil
	case "ki2", "ki2u":
		return FormatKI2, nil
	case "csa":
		return FormatCSA, nil
	case "usi", "sfen":
		return FormatUSI, nil
	}
	return FormatUnknown, fmt.Errorf("unknown record format %q (want kif, ki2, csa or usi)", s)
}

// FormatOfName guesses the format from a file name's extension.
func FormatOfName(name string) Format {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".kif", ".kifu":
		return FormatKIF
	case ".ki2", ".ki2u":
		return FormatKI2
	case ".csa":
		return FormatCSA
	case ".usi", ".sfen":
		return FormatUSI
	}
	return FormatUnknown
}

// DetectFormat guesses the format of decoded text from its content.
func DetectFormat(text string) Format {
	kif, kakinoki := false, false
	for _, raw := range splitLines(text) {
		line := strings.TrimSpace(raw)
		switch {
		case line == "":
			continue
		case strings.HasPrefix(line, "position ") || line == "startpos" ||
			strings.HasPrefix(line, "startpos ") || strings.HasPrefix(line, "sfen "):
			return FormatUSI
		case strings.HasPrefix(line, "'"), strings.HasPrefix(line, "#"):
			continue
		case line[0] == 'V' && len(line) > 1 && line[1] >= '0' && line[1] <= '9',
			strings.HasPrefix(line, "N+"), strings.HasPrefix(line, "N-"),
			strings.HasPrefix(line, "PI"), strings.HasPrefix(line, "P1"),
			len(line) >= 7 && (line[0] == '+' || line[0] == '-') && isDigits(line[1:5]):
			return FormatCSA
		case strings.HasPrefix(line, "手数----"):
			kif = true
		case isKIFMoveLine(line):
			kif = true
		case strings.HasPrefix(line, "▲") || strings.HasPrefix(line, "△") ||
			strings.HasPrefix(line, "☗") || strings.HasPrefix(line, "☖"):
			return FormatKI2
		case strings.HasPrefix(line, "まで"):
			// A closing line with no numbered move before it: KI2.
			return FormatKI2
		default:
			if _, _, ok := splitHeaderLine(line); ok && strings.Contains(line, "：") {
				kakinoki = true
			}
		}
		if kif {
			return FormatKIF
		}
	}
	if kakinoki { // header only: KIF and KI2 read the same
		return FormatKIF
	}
	return FormatUnknown
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isKIFMoveLine reports a numbered KIF move line ("  1 ７六歩(77)").
func isKIFMoveLine(line string) bool {
	i := 0
	for i < len(line) && line[i] >= '0' && line[i] <= '9' {
		i++
	}
	return i > 0 && i < len(line) && (line[i] == ' ' || line[i] == '\t')
}

// ReadResult is a record read from bytes, with how it was read.
type ReadResult struct {
	Record   *Record
	Format   Format
	Encoding Encoding
}

// Read decodes data (UTF-8 or Shift_JIS, detected) and reads the record in
// format f; FormatUnknown detects the format from name and content.
func Read(data []byte, name string, f Format) (ReadResult, error) {
	text, enc, err := decodeText(data)
	if err != nil {
		return ReadResult{Format: f}, &ParseError{Format: f, Kind: ErrSyntax, Err: err}
	}
	if f == FormatUnknown {
		f = FormatOfName(name)
	}
	if f == FormatUnknown {
		f = DetectFormat(text)
	}
	var rec *Record
	switch f {
	case FormatKIF:
		rec, err = ReadKIF(text)
	case FormatKI2:
		rec, err = ReadKI2(text)
	case FormatCSA:
		rec, err = ReadCSA(text)
	case FormatUSI:
		rec, err = ReadUSI(text)
	default:
		return ReadResult{Encoding: enc}, &ParseError{Format: f, Kind: ErrUnknownStyle, Err: fmt.Errorf("cannot tell the record format (want KIF, KI2, CSA or USI)")}
	}
	if err != nil {
		return ReadResult{Format: f, Encoding: enc}, err
	}
	return ReadResult{Record: rec, Format: f, Encoding: enc}, nil
}

// Write writes r in format f (always UTF-8).
func Write(r *Record, f Format) (string, error) {
	switch f {
	case FormatKIF:
		return WriteKIF(r)
	case FormatKI2:
		return WriteKI2(r)
	case FormatCSA:
		return WriteCSA(r)
	case FormatUSI:
		return WriteUSI(r)
	}
	return "", fmt.Errorf("cannot write format %s", f)
}
