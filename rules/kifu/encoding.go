package kifu

import (
	"bytes"
	"fmt"
	"iter"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/text/encoding/japanese"
)

// Encoding names the character set a record was read in.
type Encoding uint8

const (
	UTF8 Encoding = iota
	ShiftJIS
)

// String is "UTF-8" or "Shift_JIS".
func (e Encoding) String() string {
	if e == ShiftJIS {
		return "Shift_JIS"
	}
	return "UTF-8"
}

// decodeText turns record bytes into text. Valid UTF-8 (with or without a
// byte-order mark) is taken as UTF-8; anything else is decoded as
// Shift_JIS, the encoding of .kif files and of CSA files without an
// encoding line (CSA V3.0 2.2). Bytes that are neither are an error.
func decodeText(data []byte) (string, Encoding, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if utf8.Valid(data) {
		return string(data), UTF8, nil
	}
	out, err := japanese.ShiftJIS.NewDecoder().Bytes(data)
	if err != nil {
		return "", ShiftJIS, fmt.Errorf("text is neither UTF-8 nor Shift_JIS: %w", err)
	}
	if !utf8.Valid(out) {
		return "", ShiftJIS, fmt.Errorf("text is neither UTF-8 nor Shift_JIS")
	}
	return string(out), ShiftJIS, nil
}

// EncodeShiftJIS converts UTF-8 text to Shift_JIS, for programs that only
// read .kif files in that encoding.
func EncodeShiftJIS(text string) ([]byte, error) {
	out, err := japanese.ShiftJIS.NewEncoder().Bytes([]byte(text))
	if err != nil {
		return nil, fmt.Errorf("encode Shift_JIS: %w", err)
	}
	return out, nil
}

// splitLines splits on LF, CRLF or CR.
func splitLines(text string) []string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	return strings.Split(text, "\n")
}

// eachLine yields the lines splitLines returns, with their 0-based
// index, without building the slice (the readers' hot loop).
func eachLine(text string) iter.Seq2[int, string] {
	return func(yield func(int, string) bool) {
		for i := 0; ; i++ {
			end := strings.IndexByte(text, '\n')
			head := text
			if end >= 0 {
				head = text[:end]
			}
			if cr := strings.IndexByte(head, '\r'); cr >= 0 {
				end = cr
			}
			if end < 0 {
				yield(i, text)
				return
			}
			if !yield(i, text[:end]) {
				return
			}
			if text[end] == '\r' && end+1 < len(text) && text[end+1] == '\n' {
				end++
			}
			text = text[end+1:]
		}
	}
}

// ParseError is bad input: where it is and what is wrong. Kind says what
// is wrong in a way a caller can put into the reader's words; Err is the
// English detail for logs and the command line.
type ParseError struct {
	Format Format
	Line   int // 1-based; 0 when the error is not tied to a line
	Kind   ErrorKind
	Ply    int // the move concerned, when Kind names one
	Err    error
}

// ErrorKind is what is wrong with a record, for messages in words.
type ErrorKind string

// The kinds of record errors.
const (
	ErrSyntax       ErrorKind = "syntax"        // a line that cannot be read (the default)
	ErrNotALine     ErrorKind = "not_a_line"    // neither header, comment nor move
	ErrMoveLine     ErrorKind = "move_line"     // a move line of the wrong shape
	ErrMoveNumber   ErrorKind = "move_number"   // move numbers out of sequence
	ErrIllegalMove  ErrorKind = "illegal_move"  // a move that cannot be played
	ErrAfterEnd     ErrorKind = "after_end"     // a move after the game's last word
	ErrHandicap     ErrorKind = "handicap"      // an unknown 手合割
	ErrSeveral      ErrorKind = "several"       // more than one record in the text
	ErrNoPosition   ErrorKind = "no_position"   // a USI text without a position line
	ErrUnknownStyle ErrorKind = "unknown_style" // the format cannot be told
)

func (e *ParseError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s line %d: %v", e.Format, e.Line, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.Format, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }

func lineErr(f Format, line int, format string, args ...any) error {
	return &ParseError{Format: f, Line: line, Kind: ErrSyntax, Err: fmt.Errorf(format, args...)}
}

// kindErr is lineErr with the kind of error (and the move, if any).
func kindErr(f Format, line int, kind ErrorKind, ply int, format string, args ...any) error {
	return &ParseError{Format: f, Line: line, Kind: kind, Ply: ply, Err: fmt.Errorf(format, args...)}
}

// jst is Japan time, in which records state their dates.
var jst = time.FixedZone("JST", 9*60*60)

var recordTimeLayouts = []string{
	"2006/01/02 15:04:05",
	"2006/01/02 15:04",
	"2006/01/02",
	"2006-01-02T15:04:05Z07:00",
	"2006-01-02 15:04:05",
	"2006-01-02",
}

// parseRecordTime reads a date as records write it; a KIF weekday in
// parentheses "(火)" is ignored.
func parseRecordTime(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, "(（"); i >= 0 {
		if j := strings.IndexAny(s[i:], ")）"); j >= 0 {
			_, n := utf8.DecodeRuneInString(s[i+j:])
			s = strings.TrimSpace(s[:i]) + " " + strings.TrimSpace(s[i+j+n:])
			s = strings.TrimSpace(s)
		}
	}
	for _, layout := range recordTimeLayouts {
		if t, err := time.ParseInLocation(layout, s, jst); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}
