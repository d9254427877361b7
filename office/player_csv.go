package office

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"golang.org/x/text/unicode/norm"

	"kisen/store"
)

// Message ids of row errors only an import can have.
const (
	codeCSVIDFormat       = "players.csv.id_format"
	codeCSVIDUnknown      = "players.csv.id_unknown"
	codeCSVIDTwice        = "players.csv.id_twice"
	codeCSVNumberTwice    = "players.csv.number_twice"
	codeCSVSinceConflict  = "players.csv.since_conflict"
	codeCSVMasterNotFound = "players.csv.master_not_found"
)

// PlayerImportSummary says what an import did.
type PlayerImportSummary struct {
	Rows           int // data rows read
	Created        int
	Updated        int
	Unchanged      int
	MastersChanged int // new 師匠 periods opened
}

// importRow is what one row writes: an existing player (id > 0) or a new
// one, known until it is inserted by a temporary negative id.
type importRow struct {
	line    int
	id      int64 // existing player id, or -(row index+1) for a new player
	player  store.Player
	changed bool
	master  *store.PlayerMaster // a new period to open, nil when none
	closes  *store.PlayerMaster // the open period it supersedes (ToDate set)
	seat    *store.SeatFacts    // the 席次 facts to write, nil when the file has none of their columns
}

// ImportPlayersCSV reads a players CSV (docs/players-and-lineage.md) and, in one
// transaction, creates players and updates existing ones: a row with an id
// updates that player; a row whose federation number is registered updates
// that player (upsert); any other row creates a player. Master columns
// open a new 師匠 period when they name a different master than the open
// one. A file with any bad row writes nothing; the ValidationError lists
// every bad row with its line and column. Administrators only.
func (o *Office) ImportPlayersCSV(ctx context.Context, a Actor, data []byte) (PlayerImportSummary, error) {
	if err := a.RequireAdmin(); err != nil {
		return PlayerImportSummary{}, fmt.Errorf("import players: %w", err)
	}
	ve := &ValidationError{}
	rows := readPlayerCSV(data, ve)
	if err := ve.OrNil(); err != nil {
		return PlayerImportSummary{}, err
	}
	if len(rows) == 0 {
		ve.Add(1, "", codeCSVEmpty, nil)
		return PlayerImportSummary{}, ve
	}
	now := o.now().UTC()
	var sum PlayerImportSummary
	err := o.store.Tx(ctx, func(tx *store.Store) error {
		plan, err := planPlayerImport(ctx, tx, rows, playerToday(now), ve)
		if err != nil {
			return err
		}
		if err := ve.OrNil(); err != nil {
			return err
		}
		sum, err = applyPlayerImport(ctx, tx, plan, now)
		return err
	})
	if err != nil {
		return PlayerImportSummary{}, err
	}
	return sum, nil
}

// planPlayerImport validates every row against the file and the database
// and works out what to write; errors go to ve and nothing is written.
func planPlayerImport(ctx context.Context, tx *store.Store, rows []playerCSVRow, today store.CivilDate, ve *ValidationError) ([]importRow, error) {
	existing, err := tx.AllPlayers(ctx)
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]store.Player, len(existing))
	byNumber := make(map[string]int64, len(existing))
	for _, p := range existing {
		byID[p.ID] = p
		if p.Number != nil {
			byNumber[*p.Number] = p.ID
		}
	}
	periods, err := tx.AllMasterPeriods(ctx)
	if err != nil {
		return nil, err
	}
	var facts map[int64]store.SeatFacts
	if len(rows) > 0 && hasSeatColumns(rows[0]) {
		if facts, err = tx.AllSeatFacts(ctx); err != nil {
			return nil, err
		}
	}
	history := map[int64][]store.PlayerMaster{}
	for _, m := range periods {
		history[m.DiscipleID] = append(history[m.DiscipleID], m)
	}

	// Pass 1: the players themselves, and which row writes which player.
	plan := make([]importRow, len(rows))
	idLine := map[int64]int{}
	numberLine := map[string]int{}
	fileNumber := map[string]int64{} // final number → row target id
	for i, row := range rows {
		pr := &plan[i]
		pr.line = row.Line
		in := PlayerInput{
			Number: row.get(PlayerFieldNumber), Name: row.get(PlayerFieldName), Reading: row.get(PlayerFieldReading),
			Kind: row.get(PlayerFieldKind), Rank: row.get(PlayerFieldRank), Class: row.get(PlayerFieldClass),
			Affiliation: row.get(PlayerFieldAffiliation), BirthDate: row.get(PlayerFieldBirthDate),
		}
		if hasSeatColumns(row) {
			// checked with the form's rules (the tags with the player's,
			// the days here), named by line and column
			in.Seat = &SeatFactsInput{Titles: row.get(SeatFieldTitles), RankSince: row.get(SeatFieldRankSince), ProSince: row.get(SeatFieldProSince)}
		}
		pr.player = validatePlayer(ve, row.Line, in, today)
		if in.Seat != nil {
			f := store.SeatFacts{}
			f.Titles, f.RankSince, f.ProSince = seatFactsOf(ve, row.Line, *in.Seat, today)
			pr.seat = &f
		}
		pr.id = -int64(i + 1)
		if s := row.get(PlayerFieldID); s != "" {
			id, err := strconv.ParseInt(norm.NFKC.String(s), 10, 64)
			switch _, ok := byID[id]; {
			case err != nil || id <= 0:
				ve.Add(row.Line, PlayerFieldID, codeCSVIDFormat, nil)
			case !ok:
				ve.Add(row.Line, PlayerFieldID, codeCSVIDUnknown, map[string]any{"ID": id})
			case idLine[id] != 0:
				ve.Add(row.Line, PlayerFieldID, codeCSVIDTwice, map[string]any{"Line": idLine[id]})
			default:
				pr.id = id
				idLine[id] = row.Line
			}
		}
		if n := pr.player.Number; n != nil {
			owner, registered := byNumber[*n]
			switch {
			case numberLine[*n] != 0:
				ve.Add(row.Line, PlayerFieldNumber, codeCSVNumberTwice, map[string]any{"Line": numberLine[*n]})
			case registered && pr.id < 0 && row.get(PlayerFieldID) == "":
				if idLine[owner] != 0 {
					ve.Add(row.Line, PlayerFieldNumber, codeCSVIDTwice, map[string]any{"Line": idLine[owner]})
				} else {
					pr.id = owner // upsert by federation number
					idLine[owner] = row.Line
				}
			case registered && owner != pr.id:
				ve.Add(row.Line, PlayerFieldNumber, codePlayerNumberTaken, map[string]any{"Name": byID[owner].Name})
			}
			numberLine[*n] = row.Line
			fileNumber[*n] = pr.id
		}
	}

	// Pass 2: masters, now that every row's player is known.
	for i, row := range rows {
		pr := &plan[i]
		if pr.id > 0 {
			old := byID[pr.id]
			pr.player.ID, pr.player.CreatedAt = old.ID, old.CreatedAt
			pr.changed = playerFieldsDiffer(old, pr.player)
			if pr.seat != nil {
				pr.seat = keepAbsentSeatFacts(row, *pr.seat, facts[pr.id])
				pr.changed = pr.changed || seatFactsDiffer(facts[pr.id], *pr.seat)
			}
		}
		planImportMaster(row, pr, byID, byNumber, fileNumber, history[pr.id], ve)
	}
	if len(ve.Fields) > 0 {
		return nil, nil
	}

	// Pass 3: no 師弟 cycle on any day, over the registry as it will be.
	closing := map[int64]store.PlayerMaster{}
	for _, pr := range plan {
		if pr.closes != nil {
			closing[pr.closes.ID] = *pr.closes
		}
	}
	future := make([]store.PlayerMaster, len(periods))
	for i, m := range periods {
		if c, ok := closing[m.ID]; ok {
			m = c
		}
		future[i] = m
	}
	edges := playerEdges(future)
	g := newMasterGraph(edges)
	for _, pr := range plan {
		if pr.master == nil || pr.master.MasterPlayerID == nil {
			continue
		}
		e := masterEdge{Disciple: pr.id, Master: *pr.master.MasterPlayerID, From: pr.master.FromDate, Line: pr.line}
		if g.closesCycle(e) {
			ve.Add(pr.line, MasterFieldNumber, codeMasterCycle, nil)
			continue
		}
		g.add(e)
	}
	return plan, nil
}

// planImportMaster works out the 師匠 change one row asks for. Master
// columns name the current master as of master_since: a player by
// master_id or master_number (then master_name/master_reading are only for
// readers and ignored), or else an outside teacher by name and reading.
// Blank master columns leave the history as it is.
func planImportMaster(row playerCSVRow, pr *importRow, byID map[int64]store.Player, byNumber map[string]int64,
	fileNumber map[string]int64, history []store.PlayerMaster, ve *ValidationError) {
	mid, mnum := row.get(MasterFieldID), strings.TrimSpace(norm.NFKC.String(row.get(MasterFieldNumber)))
	mname, mreading, since := row.get(MasterFieldName), row.get(MasterFieldReading), row.get(MasterFieldSince)
	if mid == "" && mnum == "" && mname == "" && mreading == "" && since == "" {
		return
	}
	line := row.Line
	n0 := len(ve.Fields)
	from := parsePeriodDay(ve, line, MasterFieldSince, since, true)
	m := store.PlayerMaster{DiscipleID: pr.id, FromDate: from}
	switch {
	case mid != "":
		id, err := strconv.ParseInt(norm.NFKC.String(mid), 10, 64)
		if _, ok := byID[id]; err != nil || !ok {
			ve.Add(line, MasterFieldID, codeMasterUnknown, nil)
		} else {
			m.MasterPlayerID = &id
		}
	case mnum != "":
		// The file's numbers win over the registry's: the master may be
		// created or renumbered by another row of the same file.
		if id, ok := fileNumber[mnum]; ok {
			m.MasterPlayerID = &id
		} else if id, ok := byNumber[mnum]; ok {
			m.MasterPlayerID = &id
		} else {
			ve.Add(line, MasterFieldNumber, codeCSVMasterNotFound, map[string]any{"Number": mnum})
		}
	default:
		resolved, _, _ := resolveMaster(context.Background(), nil, ve, line, MasterRef{TeacherName: mname, TeacherReading: mreading})
		m.TeacherName, m.TeacherReading = resolved.TeacherName, resolved.TeacherReading
	}
	if len(ve.Fields) > n0 {
		return
	}
	if m.MasterPlayerID != nil && *m.MasterPlayerID == pr.id {
		ve.Add(line, masterField(m), codeMasterSelf, nil)
		return
	}
	var replaced *store.PlayerMaster
	if cur := openPeriod(history); cur != nil {
		switch {
		case cur.Key() == m.Key() && cur.FromDate == from:
			return // already recorded
		case cur.Key() == m.Key():
			ve.Add(line, MasterFieldSince, codeCSVSinceConflict, map[string]any{"From": cur.FromDate.String()})
			return
		case !from.After(cur.FromDate):
			ve.Add(line, MasterFieldSince, codeMasterSinceOrder, map[string]any{"From": cur.FromDate.String()})
			return
		}
		closed := *cur
		closed.ToDate = from.AddDays(-1)
		replaced = &closed
	}
	for _, h := range history {
		if replaced != nil && h.ID == replaced.ID {
			continue
		}
		if periodsOverlap(h.FromDate, h.ToDate, m.FromDate, m.ToDate) {
			ve.Add(line, MasterFieldSince, codeMasterOverlap, map[string]any{"From": h.FromDate.String(), "To": h.ToDate.String()})
			return
		}
	}
	pr.master, pr.closes = &m, replaced
}

// hasSeatColumns says whether the file has any 席次 column (every row of
// a file has the same columns).
func hasSeatColumns(row playerCSVRow) bool {
	for _, c := range playerCSVSeatColumns {
		if row.has(c) {
			return true
		}
	}
	return false
}

// keepAbsentSeatFacts fills the facts whose column the file lacks from the
// player's recorded ones; a present column, even empty, replaces the fact.
func keepAbsentSeatFacts(row playerCSVRow, f, old store.SeatFacts) *store.SeatFacts {
	if !row.has(SeatFieldTitles) {
		f.Titles = old.Titles
	}
	if !row.has(SeatFieldRankSince) {
		f.RankSince = old.RankSince
	}
	if !row.has(SeatFieldProSince) {
		f.ProSince = old.ProSince
	}
	return &f
}

func seatFactsDiffer(a, b store.SeatFacts) bool {
	return a.Titles != b.Titles || a.RankSince != b.RankSince || a.ProSince != b.ProSince
}

func playerFieldsDiffer(a, b store.Player) bool {
	return a.NumberOrEmpty() != b.NumberOrEmpty() || a.Name != b.Name || a.Reading != b.Reading ||
		a.Kind != b.Kind || a.Rank != b.Rank || a.Class != b.Class || a.Affiliation != b.Affiliation ||
		a.BirthDate != b.BirthDate
}

// applyPlayerImport writes a checked plan: updates, inserts (in batches),
// then the 師匠 periods, whose new players now have real ids.
func applyPlayerImport(ctx context.Context, tx *store.Store, plan []importRow, now time.Time) (PlayerImportSummary, error) {
	sum := PlayerImportSummary{Rows: len(plan)}
	var fresh []*store.Player
	realID := map[int64]int64{}
	for i := range plan {
		pr := &plan[i]
		switch {
		case pr.id < 0:
			p := pr.player
			p.CreatedAt, p.UpdatedAt = now, now
			fresh = append(fresh, &p)
		case pr.changed:
			p := pr.player
			p.UpdatedAt = now
			if err := tx.UpdatePlayer(ctx, &p); err != nil {
				return sum, playerNumberConflict(err)
			}
			if f := pr.seat; f != nil {
				if err := tx.SetSeatFacts(ctx, p.ID, f.Titles, f.RankSince, f.ProSince, now); err != nil {
					return sum, err
				}
			}
			sum.Updated++
		default:
			sum.Unchanged++
		}
	}
	if err := tx.CreatePlayers(ctx, fresh); err != nil {
		return sum, playerNumberConflict(err)
	}
	sum.Created = len(fresh)
	k := 0
	for _, pr := range plan {
		if pr.id < 0 {
			realID[pr.id] = fresh[k].ID
			k++
			if f := pr.seat; f != nil && (*f != store.SeatFacts{}) {
				if err := tx.SetSeatFacts(ctx, realID[pr.id], f.Titles, f.RankSince, f.ProSince, now); err != nil {
					return sum, err
				}
			}
		}
	}
	resolve := func(id int64) int64 {
		if id < 0 {
			return realID[id]
		}
		return id
	}
	var periods []*store.PlayerMaster
	for _, pr := range plan {
		if pr.closes != nil {
			if err := tx.CloseMasterPeriod(ctx, pr.closes.ID, pr.closes.ToDate, now); err != nil {
				return sum, err
			}
		}
		if pr.master != nil {
			m := *pr.master
			m.DiscipleID = resolve(pr.id)
			if m.MasterPlayerID != nil {
				id := resolve(*m.MasterPlayerID)
				m.MasterPlayerID = &id
			}
			m.CreatedAt, m.UpdatedAt = now, now
			periods = append(periods, &m)
		}
	}
	sum.MastersChanged = len(periods)
	return sum, tx.AddMasterPeriods(ctx, periods)
}

// ExportPlayersCSV writes every player, sorted by reading, in the import
// format: UTF-8 with a BOM (so spreadsheet programs see UTF-8) and the
// header PlayerCSVColumns. The master columns give the open 師匠 period,
// the last three the 席次 facts.
// Public (the registry is public).
func (o *Office) ExportPlayersCSV(ctx context.Context, w io.Writer) error {
	players, err := o.store.AllPlayers(ctx)
	if err != nil {
		return err
	}
	periods, err := o.store.AllMasterPeriods(ctx)
	if err != nil {
		return err
	}
	facts, err := o.store.AllSeatFacts(ctx)
	if err != nil {
		return err
	}
	current := map[int64]store.PlayerMaster{}
	for _, m := range periods {
		if m.Open() {
			current[m.DiscipleID] = m
		}
	}
	byID := make(map[int64]store.Player, len(players))
	for _, p := range players {
		byID[p.ID] = p
	}
	if _, err := io.WriteString(w, "\ufeff"); err != nil {
		return err
	}
	cw := NewCSVWriter(w)
	if err := cw.Write(PlayerCSVColumns); err != nil {
		return err
	}
	for _, p := range players {
		rec := []string{
			strconv.FormatInt(p.ID, 10), p.NumberOrEmpty(), p.Name, p.Reading, string(p.Kind),
			p.Rank, string(p.Class), p.Affiliation, p.BirthDate.String(), "", "", "", "", "",
			exportTitles(facts[p.ID].Titles), facts[p.ID].RankSince.String(), facts[p.ID].ProSince.String(),
		}
		if m, ok := current[p.ID]; ok {
			if m.MasterPlayerID != nil {
				mp := byID[*m.MasterPlayerID]
				rec[9], rec[10], rec[11], rec[12] = strconv.FormatInt(mp.ID, 10), mp.NumberOrEmpty(), mp.Name, mp.Reading
			} else {
				rec[11], rec[12] = m.TeacherName, m.TeacherReading
			}
			rec[13] = m.FromDate.String()
		}
		if err := cw.Write(rec, 0, 9); err != nil { // the ids
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// exportTitles writes the stored titles (竜王,名人) separated by 「、」, the
// separator the form also reads, which therefore never occurs inside a
// title (and needs no CSV quoting).
func exportTitles(stored string) string { return strings.ReplaceAll(stored, ",", "、") }
