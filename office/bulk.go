package office

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"kisen/store"
)

// Message ids of bulk entry (issue 13).
const (
	codeBulkEmpty          = "bulk.err.empty"
	codeBulkUnknown        = "bulk.err.player_unknown"
	codeBulkAmbiguousAmong = "bulk.err.player_ambiguous_among"
	codeBulkTwice          = "bulk.err.twice"
	codeBulkEntered        = "bulk.err.already_entered"
	codeBulkSeed           = "bulk.err.seed"
	codeBulkColumns        = "bulk.err.columns"
	bulkMaxLines           = 5000
	codeBulkTooManyLines   = "bulk.err.too_many_lines"
	codeBulkNotBeforeDraw  = "bulk.err.after_draw"
	bulkEntrantsFieldLines = "lines"
)

// AddEntrants adds the players a pasted list names to a stage before its
// draw (directors and schedulers): one line per player, a federation
// number or a name, optionally followed by a comma (or tab) and a seed.
// Every bad line is reported with its number, and nothing is stored unless
// every line is good (one transaction). It returns how many were added.
func (o *Office) AddEntrants(ctx context.Context, actor Actor, stageID int64, text string) (int, error) {
	added := 0
	err := o.stageTx(ctx, actor, stageID, func(tx *store.Store, st store.KnockoutStage) error {
		v := &ValidationError{}
		if st.Status != StageSetup {
			v.Add(0, bulkEntrantsFieldLines, codeBulkNotBeforeDraw, nil)
			return v
		}
		ix, err := loadPlayerIndex(ctx, tx)
		if err != nil {
			return err
		}
		existing, err := tx.EntrantsOfStage(ctx, st.ID)
		if err != nil {
			return err
		}
		entered := map[int64]bool{}
		for _, e := range existing {
			entered[e.PlayerID] = true
		}
		var adds []store.KnockoutEntrant
		seen := map[int64]int{}
		lines := strings.Split(text, "\n")
		if len(lines) > bulkMaxLines {
			v.Add(0, bulkEntrantsFieldLines, codeBulkTooManyLines, map[string]any{"Max": bulkMaxLines})
			return v
		}
		for i, line := range lines {
			n := i + 1
			line = strings.TrimSpace(line)
			if line == "" {
				continue
			}
			ref, seedText, hasSeed := strings.Cut(strings.ReplaceAll(strings.ReplaceAll(line, "\t", ","), "，", ","), ",")
			ref = strings.TrimSpace(ref)
			seed := 0
			if hasSeed && strings.TrimSpace(seedText) != "" {
				k, err := strconv.Atoi(strings.TrimSpace(seedText))
				if err != nil || k < 0 || k > 4096 {
					v.Add(n, bulkEntrantsFieldLines, codeBulkSeed, map[string]any{"Line": n, "Value": strings.TrimSpace(seedText)})
					continue
				}
				seed = k
			}
			p, code := ix.find(ref)
			switch code {
			case "league.err.player_unknown":
				v.Add(n, bulkEntrantsFieldLines, codeBulkUnknown, map[string]any{"Line": n, "Value": ref})
				continue
			case "league.err.player_ambiguous":
				// The players the line could mean, so the director sees
				// whom to choose between (issue 23 §1).
				v.Add(n, bulkEntrantsFieldLines, codeBulkAmbiguousAmong, map[string]any{"Line": n, "Value": ref, "Names": candidateNames(ix.candidates(ref, 5))})
				continue
			}
			if first, dup := seen[p.ID]; dup {
				v.Add(n, bulkEntrantsFieldLines, codeBulkTwice, map[string]any{"Line": n, "Name": p.Name, "First": first})
				continue
			}
			seen[p.ID] = n
			if entered[p.ID] {
				v.Add(n, bulkEntrantsFieldLines, codeBulkEntered, map[string]any{"Line": n, "Name": p.Name})
				continue
			}
			adds = append(adds, store.KnockoutEntrant{StageID: st.ID, PlayerID: p.ID, Seed: seed, EnterRound: 1, CreatedAt: o.now()})
		}
		if len(adds) == 0 && len(v.Fields) == 0 {
			v.Add(0, bulkEntrantsFieldLines, codeBulkEmpty, nil)
		}
		if err := v.OrNil(); err != nil {
			return err
		}
		for i := range adds {
			if err := tx.AddEntrant(ctx, &adds[i]); err != nil {
				return fmt.Errorf("add entrant %d of %d: %w", i+1, len(adds), err)
			}
		}
		added = len(adds)
		return nil
	})
	return added, err
}

// PastedPlayerColumns are the columns of a pasted player list, in order:
// federation number (may be empty), name, reading, rank (may be empty).
var PastedPlayerColumns = []string{PlayerFieldNumber, PlayerFieldName, PlayerFieldReading, PlayerFieldRank}

// ImportPlayersPaste registers many players from pasted lines — number,
// name, reading, rank, separated by tabs (a spreadsheet's copy) or commas
// — all of one kind, through the CSV import's checks and writes (one
// transaction; every bad line reported with its number in the pasted
// text, all of them at once; nothing stored unless all are good).
// Administrators only.
func (o *Office) ImportPlayersPaste(ctx context.Context, a Actor, text, kind string) (PlayerImportSummary, error) {
	if err := a.RequireAdmin(); err != nil {
		return PlayerImportSummary{}, fmt.Errorf("paste players: %w", err)
	}
	shape := &ValidationError{} // problems of the paste itself, by pasted line
	var buf bytes.Buffer
	// Neutralised like an export, so the import (which undoes it) stores
	// what was pasted.
	w := NewCSVWriter(&buf)
	_ = w.Write(append(append([]string{}, PastedPlayerColumns...), PlayerFieldKind))
	var lineOf []int // CSV data row k (line k+2) → pasted line
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	if len(lines) > bulkMaxLines {
		shape.Add(0, "lines", codeBulkTooManyLines, map[string]any{"Max": bulkMaxLines})
		return PlayerImportSummary{}, shape
	}
	for i, line := range lines {
		if strings.TrimSpace(line) == "" {
			continue
		}
		sep := ","
		if strings.Contains(line, "\t") {
			sep = "\t"
		}
		cells := strings.Split(strings.ReplaceAll(line, "，", ","), sep)
		for k := range cells {
			cells[k] = strings.TrimSpace(cells[k])
		}
		if len(cells) > len(PastedPlayerColumns) {
			// Named, and the first columns still checked below, so every
			// problem of the paste shows at once.
			shape.Add(i+1, "lines", codeBulkColumns, map[string]any{"Line": i + 1, "N": len(cells), "Max": len(PastedPlayerColumns)})
			cells = cells[:len(PastedPlayerColumns)]
		}
		for len(cells) < len(PastedPlayerColumns) {
			cells = append(cells, "")
		}
		_ = w.Write(append(cells, kind))
		lineOf = append(lineOf, i+1)
	}
	w.Flush()
	if len(lineOf) == 0 {
		shape.Add(0, "lines", codeBulkEmpty, nil)
		return PlayerImportSummary{}, shape
	}
	ve := &ValidationError{} // the import's problems, by CSV line until remapped
	// fail merges both lists, the import's lines turned into pasted ones.
	fail := func() error {
		for i := range ve.Fields {
			f := &ve.Fields[i]
			if k := f.Line - 2; k >= 0 && k < len(lineOf) {
				f.Line = lineOf[k]
			}
			if l, ok := f.Args["Line"].(int); ok && l-2 >= 0 && l-2 < len(lineOf) {
				f.Args["Line"] = lineOf[l-2]
			}
		}
		out := &ValidationError{Fields: append(shape.Fields, ve.Fields...)}
		slices.SortStableFunc(out.Fields, func(x, y FieldError) int { return x.Line - y.Line })
		return out
	}
	rows := readPlayerCSV(buf.Bytes(), ve)
	if len(ve.Fields) > 0 {
		return PlayerImportSummary{}, fail()
	}
	now := o.now().UTC()
	var sum PlayerImportSummary
	err := o.store.Tx(ctx, func(tx *store.Store) error {
		plan, err := planPlayerImport(ctx, tx, rows, playerToday(now), ve)
		if err != nil {
			return err
		}
		if len(ve.Fields) > 0 || len(shape.Fields) > 0 {
			return fail()
		}
		sum, err = applyPlayerImport(ctx, tx, plan, now)
		return err
	})
	if err != nil {
		return PlayerImportSummary{}, err
	}
	return sum, nil
}

// candidateNames lists players as 氏名（よみ・番号）, separated by 「、」.
func candidateNames(ps []store.Player) string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		who := p.Reading
		if p.Number != nil {
			who += "・" + *p.Number
		}
		parts[i] = p.Name + "（" + who + "）"
	}
	return strings.Join(parts, "、")
}
