package office

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/unicode/norm"
)

// Message ids of CSV file errors.
const (
	codeCSVEncoding      = "players.csv.encoding"
	codeCSVSyntax        = "players.csv.syntax"
	codeCSVEmpty         = "players.csv.empty"
	codeCSVHeaderMissing = "players.csv.header_missing"
	codeCSVHeaderUnknown = "players.csv.header_unknown"
	codeCSVHeaderTwice   = "players.csv.header_twice"
	codeCSVColumns       = "players.csv.columns"
	codeCSVTooManyRows   = "players.csv.too_many_rows"
)

// PlayerCSVColumns is the header Kisen writes, in order; import accepts
// these names (any case) or the Japanese ones in playerCSVAliases, in any
// order. name, reading and kind are required.
var PlayerCSVColumns = []string{
	PlayerFieldID, PlayerFieldNumber, PlayerFieldName, PlayerFieldReading, PlayerFieldKind,
	PlayerFieldRank, PlayerFieldClass, PlayerFieldAffiliation, PlayerFieldBirthDate,
	MasterFieldID, MasterFieldNumber, MasterFieldName, MasterFieldReading, MasterFieldSince,
	SeatFieldTitles, SeatFieldRankSince, SeatFieldProSince,
}

// playerCSVSeatColumns are the optional 席次 columns (docs/seating.md): a
// file without one leaves that fact of existing players as it is.
var playerCSVSeatColumns = []string{SeatFieldTitles, SeatFieldRankSince, SeatFieldProSince}

var playerCSVAliases = map[string]string{
	"id": PlayerFieldID, "番号": PlayerFieldNumber, "棋士番号": PlayerFieldNumber,
	"氏名": PlayerFieldName, "名前": PlayerFieldName, "よみ": PlayerFieldReading, "読み": PlayerFieldReading,
	"種別": PlayerFieldKind, "段級位": PlayerFieldRank, "クラス": PlayerFieldClass, "順位戦": PlayerFieldClass,
	"所属": PlayerFieldAffiliation, "生年月日": PlayerFieldBirthDate,
	"師匠id": MasterFieldID, "師匠番号": MasterFieldNumber, "師匠": MasterFieldName, "師匠名": MasterFieldName,
	"師匠よみ": MasterFieldReading, "入門日": MasterFieldSince, "師匠開始日": MasterFieldSince,
	"タイトル": SeatFieldTitles, "保持タイトル": SeatFieldTitles, "昇段日": SeatFieldRankSince,
	"現段位昇段日": SeatFieldRankSince, "四段昇段日": SeatFieldProSince, "プロ入り日": SeatFieldProSince,
}

var playerCSVRequired = []string{PlayerFieldName, PlayerFieldReading, PlayerFieldKind}

// PlayerCSVMaxRows bounds one import (the upload limit is 8 MB anyway).
const PlayerCSVMaxRows = 50000

// playerCSVRow is one data row: its line in the file and its cells by
// column name ("" for absent columns).
type playerCSVRow struct {
	Line  int
	Cells map[string]string
}

func (r playerCSVRow) get(col string) string { return strings.TrimSpace(r.Cells[col]) }

// has says whether the file has the column.
func (r playerCSVRow) has(col string) bool {
	_, ok := r.Cells[col]
	return ok
}

// decodePlayerCSV returns the file as UTF-8 text. UTF-8 (with or without a
// BOM) is taken as is. Anything else must decode as Shift_JIS (Windows-31J,
// what Japanese Excel writes) without a single undecodable byte; a file
// that is valid UTF-8 is never read as Shift_JIS, and Japanese Shift_JIS
// text is practically never valid UTF-8, so the guess is safe.
func decodePlayerCSV(data []byte) (string, bool) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if utf8.Valid(data) {
		return string(data), true
	}
	out, err := japanese.ShiftJIS.NewDecoder().Bytes(data)
	if err != nil || bytes.ContainsRune(out, utf8.RuneError) {
		return "", false
	}
	return string(out), true
}

// readPlayerCSV parses the file into rows keyed by column; every problem
// with the file itself (encoding, quoting, header, column count) goes to
// ve with its line.
func readPlayerCSV(data []byte, ve *ValidationError) []playerCSVRow {
	text, ok := decodePlayerCSV(data)
	if !ok {
		ve.Add(1, "", codeCSVEncoding, nil)
		return nil
	}
	r := csv.NewReader(strings.NewReader(text))
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if errors.Is(err, io.EOF) {
		ve.Add(1, "", codeCSVEmpty, nil)
		return nil
	}
	if err != nil {
		addCSVSyntax(ve, err)
		return nil
	}
	cols := make([]string, len(header))
	seen := map[string]bool{}
	for i, h := range header {
		key := strings.ToLower(strings.TrimSpace(norm.NFKC.String(h)))
		if alias, ok := playerCSVAliases[key]; ok {
			key = alias
		}
		switch {
		case !isPlayerCSVColumn(key):
			ve.Add(1, h, codeCSVHeaderUnknown, map[string]any{"Column": h})
		case seen[key]:
			ve.Add(1, key, codeCSVHeaderTwice, map[string]any{"Column": key})
		}
		seen[key] = true
		cols[i] = key
	}
	for _, req := range playerCSVRequired {
		if !seen[req] {
			ve.Add(1, req, codeCSVHeaderMissing, map[string]any{"Column": req})
		}
	}
	if len(ve.Fields) > 0 {
		return nil
	}
	var rows []playerCSVRow
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			addCSVSyntax(ve, err)
			return nil
		}
		line, _ := r.FieldPos(0)
		if blankRecord(rec) {
			continue
		}
		if len(rec) != len(cols) {
			ve.Add(line, "", codeCSVColumns, map[string]any{"Got": len(rec), "Want": len(cols)})
			continue
		}
		if len(rows) == PlayerCSVMaxRows {
			ve.Add(line, "", codeCSVTooManyRows, map[string]any{"Max": PlayerCSVMaxRows})
			return nil
		}
		row := playerCSVRow{Line: line, Cells: make(map[string]string, len(cols))}
		for i, c := range cols {
			// An exported file re-imports as it was: the quote the
			// export put before a formula-like cell goes (csv_safe.go).
			row.Cells[c] = UnneutraliseCSVCell(rec[i])
		}
		rows = append(rows, row)
	}
	return rows
}

func addCSVSyntax(ve *ValidationError, err error) {
	line := 1
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		line = pe.StartLine
	}
	ve.Add(line, "", codeCSVSyntax, nil)
}

func isPlayerCSVColumn(key string) bool {
	for _, c := range PlayerCSVColumns {
		if c == key {
			return true
		}
	}
	return false
}

func blankRecord(rec []string) bool {
	for _, f := range rec {
		if strings.TrimSpace(f) != "" {
			return false
		}
	}
	return true
}
