package office

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"
)

// LeagueHistoryCSVColumns is the header of an earlier term's CSV: one row
// per player and round — the class, the player's 順位 that term, the
// player (federation number or exact name), the round and the opponent
// (empty for a rest, 抜け番).
var LeagueHistoryCSVColumns = []string{"class", "junni", "player", "round", "opponent"}

// leagueHistoryExtra are columns the league CSV export adds; the import
// reads past them.
var leagueHistoryExtra = []string{"side", "date", "result", "opponent_name", "player_name"}

var leagueHistoryAliases = map[string]string{
	"クラス": "class", "順位": "junni", "棋士": "player", "氏名": "player", "回戦": "round", "対戦相手": "opponent", "相手": "opponent",
}

// maxHistoryRows bounds an import (61 players × 11 rounds × 5 classes
// fits many times over).
const maxHistoryRows = 20000

// historyRow is one parsed CSV row, before players are looked up.
type historyRow struct {
	Line     int
	Class    string
	Junni    int
	Player   string
	Round    int
	Opponent string // "" for a rest
}

// parseLeagueHistoryCSV reads the earlier term's CSV. Every problem is
// reported with its line and field; rows are returned only when there is
// none.
func parseLeagueHistoryCSV(data []byte) ([]historyRow, *ValidationError) {
	v := &ValidationError{}
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	r.TrimLeadingSpace = true
	header, err := r.Read()
	if errors.Is(err, io.EOF) {
		v.Add(0, "file", "league.csv.empty", nil)
		return nil, v
	}
	if err != nil {
		v.Add(1, "file", "league.csv.syntax", map[string]any{"Line": 1})
		return nil, v
	}
	col := map[string]int{}
	for i, h := range header {
		name := strings.ToLower(strings.TrimSpace(h))
		if a, ok := leagueHistoryAliases[name]; ok {
			name = a
		}
		if slices.Contains(leagueHistoryExtra, name) {
			continue
		}
		if !slices.Contains(LeagueHistoryCSVColumns, name) {
			v.Add(1, "header", "league.csv.header_unknown", map[string]any{"Value": h, "Line": 1})
			continue
		}
		if _, dup := col[name]; dup {
			v.Add(1, "header", "league.csv.header_twice", map[string]any{"Value": h, "Line": 1})
			continue
		}
		col[name] = i
	}
	for _, need := range LeagueHistoryCSVColumns {
		if _, ok := col[need]; !ok {
			v.Add(1, "header", "league.csv.header_missing", map[string]any{"Value": need, "Line": 1})
		}
	}
	if v.OrNil() != nil {
		return nil, v
	}
	var rows []historyRow
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			// FieldPos panics without a record: take the line from the error.
			line := 0
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				line = pe.Line
			}
			v.Add(line, "file", "league.csv.syntax", map[string]any{"Line": line})
			return nil, v
		}
		line, _ := r.FieldPos(0)
		if len(rows) >= maxHistoryRows {
			v.Add(line, "file", "league.csv.too_many_rows", map[string]any{"Max": maxHistoryRows})
			return nil, v
		}
		get := func(name string) string {
			if i := col[name]; i < len(rec) {
				return UnneutraliseCSVCell(strings.TrimSpace(rec[i]))
			}
			return ""
		}
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue
		}
		// Text the databases cannot store (issue 11): named by line and column.
		bad := false
		for i, cell := range rec {
			if !StorableText(cell) {
				v.Add(line, "file", "league.csv.unstorable", map[string]any{"Line": line, "Column": i + 1})
				bad = true
			}
		}
		if bad {
			continue
		}
		h := historyRow{Line: line, Class: strings.ToUpper(get("class")), Player: get("player"), Opponent: get("opponent")}
		if h.Class != "" && !slices.Contains(JunisenClasses, h.Class) {
			v.Add(line, "class", "league.csv.class", map[string]any{"Value": get("class"), "Line": line})
		}
		if n, err := strconv.Atoi(get("junni")); err != nil || n < 1 || n > 1000 {
			v.Add(line, "junni", "league.csv.number", map[string]any{"Value": get("junni"), "Line": line, "Field": "junni"})
		} else {
			h.Junni = n
		}
		if n, err := strconv.Atoi(get("round")); err != nil || n < 1 || n > 100 {
			v.Add(line, "round", "league.csv.number", map[string]any{"Value": get("round"), "Line": line, "Field": "round"})
		} else {
			h.Round = n
		}
		if h.Player == "" {
			v.Add(line, "player", "league.csv.required", map[string]any{"Line": line, "Field": "player"})
		}
		if h.Player != "" && h.Player == h.Opponent {
			v.Add(line, "opponent", "league.csv.self", map[string]any{"Value": h.Player, "Line": line})
		}
		rows = append(rows, h)
	}
	if len(rows) == 0 && v.OrNil() == nil {
		v.Add(0, "file", "league.csv.empty", nil)
	}
	if v.OrNil() != nil {
		return nil, v
	}
	return rows, nil
}
