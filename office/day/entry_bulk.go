package day

import (
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"kisen/office"
	"kisen/pairing"
	"kisen/store"
)

// Bulk entry (issue 23 §1, docs/amateur-day-entries.md): the director
// pastes lines or uploads a CSV file — name, reading, rank, club, class
// (all but the name optional as the line allows) — sees line by line what
// would be created, matched with a registered player, or refused and why,
// then confirms: every good line is registered (or matched) and entered in
// one transaction, carrying the preview's fingerprint (ErrConflict when
// anything the preview read has changed).

// Bulk actions of a line.
const (
	BulkCreate = "create" // a new player is registered and entered
	BulkMatch  = "match"  // the one registered player of the same name and reading is entered
	BulkRefuse = "refuse" // nothing happens for this line; Problems say why
)

// BulkColumns are a line's columns, in order.
var BulkColumns = []string{"name", "reading", "rank", "club", "class"}

// BulkMaxLines bounds a paste or a file.
const BulkMaxLines = 2000

// BulkLine is one line of the preview.
type BulkLine struct {
	Line                      int
	Name, Reading, Rank, Club string
	ClassID                   int64
	Action                    string
	Player                    store.Player        // the matched player (BulkMatch)
	Problems                  []office.FieldError // why the line is refused (BulkRefuse)
	Similar                   []Suggestion        // registered players of a similar name or reading (BulkCreate)
}

// BulkPreview is what a paste would do.
type BulkPreview struct {
	Lines                 []BulkLine
	Create, Match, Refuse int
	Fingerprint           string
}

// BulkInput is a paste (Text) or an uploaded file (CSV) for a day.
type BulkInput struct {
	EventID     int64
	Text        string
	CSV         []byte
	Fingerprint string // the preview's, on confirm
}

// bulkRecords splits the input into cells per line (line numbers of the
// paste or the file). A file's first row is a header when its first cell
// names the name column.
func bulkRecords(in BulkInput) ([][]string, []int, error) {
	if in.CSV != nil {
		text, ok := office.DecodeUploadedCSV(in.CSV)
		if !ok {
			return nil, nil, invalid("file", "day_entry.bulk.err.encoding", nil)
		}
		r := csv.NewReader(strings.NewReader(text))
		r.FieldsPerRecord = -1
		var recs [][]string
		var lines []int
		for first := true; ; first = false {
			rec, err := r.Read()
			if err == io.EOF {
				break
			}
			if err != nil {
				line := 0
				var pe *csv.ParseError
				if errors.As(err, &pe) {
					line = pe.StartLine
				}
				return nil, nil, invalid("file", "day_entry.bulk.err.csv", map[string]any{"Line": line})
			}
			line, _ := r.FieldPos(0)
			if first && isBulkHeader(rec) {
				continue
			}
			for i := range rec {
				rec[i] = office.UnneutraliseCSVCell(rec[i])
			}
			recs, lines = append(recs, rec), append(lines, line)
		}
		return recs, lines, nil
	}
	var recs [][]string
	var lines []int
	for i, line := range strings.Split(strings.ReplaceAll(in.Text, "\r\n", "\n"), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		sep := ","
		if strings.Contains(line, "\t") {
			sep = "\t"
		}
		recs = append(recs, strings.Split(strings.ReplaceAll(line, "，", ","), sep))
		lines = append(lines, i+1)
	}
	return recs, lines, nil
}

func isBulkHeader(rec []string) bool {
	if len(rec) == 0 {
		return false
	}
	h := strings.TrimSpace(strings.TrimPrefix(rec[0], "\ufeff"))
	return h == "氏名" || h == "名前" || strings.EqualFold(h, "name")
}

// PreviewEntries says what a paste or file would do (directors); nothing
// is written.
func (d *Day) PreviewEntries(ctx context.Context, actor office.Actor, in BulkInput) (BulkPreview, error) {
	if _, err := requireDay(ctx, d.store, actor, in.EventID, deskRoles); err != nil {
		return BulkPreview{}, err
	}
	return previewIn(ctx, d.store, in)
}

func previewIn(ctx context.Context, tx *store.Store, in BulkInput) (BulkPreview, error) {
	recs, lines, err := bulkRecords(in)
	if err != nil {
		return BulkPreview{}, err
	}
	if len(recs) == 0 {
		return BulkPreview{}, invalid("lines", "bulk.err.empty", nil)
	}
	if len(recs) > BulkMaxLines {
		return BulkPreview{}, invalid("lines", "bulk.err.too_many_lines", map[string]any{"Max": BulkMaxLines})
	}
	classes, err := classesIn(ctx, tx, in.EventID)
	if err != nil {
		return BulkPreview{}, err
	}
	players, err := tx.AllPlayers(ctx)
	if err != nil {
		return BulkPreview{}, err
	}
	entrants, err := tx.DayEntrantsOfEvent(ctx, in.EventID)
	if err != nil {
		return BulkPreview{}, err
	}
	entered := map[int64]bool{}
	for _, e := range entrants {
		entered[e.PlayerID] = true
	}
	m := newMatcher(players)
	var out BulkPreview
	firstPlayer := map[int64]int{}  // matched player → first line
	firstPerson := map[string]int{} // folded name and reading of a new player → first line
	for k, rec := range recs {
		l := bulkLine(lines[k], rec, classes, m)
		switch {
		case l.Action == BulkMatch && entered[l.Player.ID]:
			l.refuse("day_entry.bulk.err.entered", map[string]any{"Name": l.Player.Name})
		case l.Action == BulkMatch:
			if first, dup := firstPlayer[l.Player.ID]; dup {
				l.refuse("day_entry.bulk.err.twice", map[string]any{"First": first})
			} else {
				firstPlayer[l.Player.ID] = l.Line
			}
		case l.Action == BulkCreate:
			key := office.FoldName(l.Name) + "\x00" + office.FoldName(l.Reading)
			if first, dup := firstPerson[key]; dup {
				l.refuse("day_entry.bulk.err.twice", map[string]any{"First": first})
			} else {
				firstPerson[key] = l.Line
			}
		}
		switch l.Action {
		case BulkCreate:
			out.Create++
		case BulkMatch:
			out.Match++
		default:
			out.Refuse++
		}
		out.Lines = append(out.Lines, l)
	}
	out.Fingerprint = bulkFingerprint(in.EventID, out.Lines)
	return out, nil
}

func (l *BulkLine) refuse(code string, args map[string]any) {
	l.Action = BulkRefuse
	l.Problems = append(l.Problems, office.FieldError{Line: l.Line, Field: "lines", Code: code, Args: args})
}

// bulkLine reads one line: its fields checked as the form checks them,
// then matched with the registry.
func bulkLine(line int, rec []string, classes []Class, m matcher) BulkLine {
	cells := make([]string, len(BulkColumns))
	for i := range rec {
		if i < len(cells) {
			cells[i] = office.NFC(strings.TrimSpace(rec[i]))
		}
	}
	l := BulkLine{Line: line, Name: cells[0], Reading: cells[1], Rank: cells[2], Club: cells[3], Action: BulkCreate}
	if len(rec) > len(BulkColumns) {
		l.refuse("bulk.err.columns", map[string]any{"Line": line, "N": len(rec), "Max": len(BulkColumns)})
	}
	ve := &office.ValidationError{}
	office.CheckInputFields(ve, line, &bulkFields{Name: l.Name, Reading: l.Reading, Club: l.Club})
	for _, f := range ve.Fields {
		l.refuse(f.Code, f.Args)
		l.Problems[len(l.Problems)-1].Field = f.Field
	}
	if l.Reading != "" {
		if r, ok := office.NormaliseReading(l.Reading); ok {
			l.Reading = r
		} else {
			l.refuse("players.err.reading_kana", nil)
			l.Problems[len(l.Problems)-1].Field = "reading"
		}
	}
	if l.Action == BulkRefuse {
		return l
	}
	ss := m.suggest(l.Name, l.Reading)
	if p, ok := OneSame(ss); ok {
		l.Action, l.Player = BulkMatch, p
	} else if slices.ContainsFunc(ss, func(s Suggestion) bool { return s.Kind == MatchSame }) {
		var same []store.Player
		for _, s := range ss {
			if s.Kind == MatchSame {
				same = append(same, s.Player)
			}
		}
		l.refuse("day_entry.bulk.err.ambiguous", map[string]any{"Names": playerNames(same)})
		return l
	} else {
		l.Similar = ss
		if l.Reading == "" {
			l.refuse("day_entry.bulk.err.reading_needed", nil)
			return l
		}
	}
	// The class: named in the line, else from the rank (the line's, or the
	// matched player's registered rank).
	rank := l.Rank
	if rank == "" && l.Action == BulkMatch {
		rank = l.Player.Rank
	}
	if rank != "" {
		if r, err := pairing.ParseRank(rank); err != nil {
			l.refuse("day.err.rank", nil)
			return l
		} else {
			rank = r.String()
		}
	}
	l.Rank = rank
	if name := cells[4]; name != "" {
		i := slices.IndexFunc(classes, func(c Class) bool { return c.Name == name || (c.NameEn != "" && strings.EqualFold(c.NameEn, name)) })
		if i < 0 {
			l.refuse("day_entry.bulk.err.class_unknown", map[string]any{"Value": name})
			return l
		}
		l.ClassID = classes[i].ID
		return l
	}
	if rank == "" {
		l.refuse("day_entry.bulk.err.rank_needed", nil)
		return l
	}
	c, ok := ClassForRank(classes, rank)
	if !ok {
		l.refuse("day.err.no_class_for_rank", map[string]any{"Rank": rank})
		return l
	}
	l.ClassID = c.ID
	return l
}

// bulkFields are a line's free texts, checked by the form's tags.
type bulkFields struct {
	Name    string `field:"name" validate:"nocontrol,storable,required,max=60" msg:"players.err"`
	Reading string `field:"reading" validate:"nocontrol,storable,max=60" msg:"players.err"`
	Club    string `field:"club" validate:"nocontrol,storable,max=60" msg:"players.err"`
}

func playerNames(ps []store.Player) string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = p.Name + "（" + p.Reading + "）"
	}
	return strings.Join(parts, "、")
}

// bulkFingerprint digests what the preview would do, line by line.
func bulkFingerprint(eventID int64, lines []BulkLine) string {
	h := sha256.New()
	fmt.Fprintf(h, "day %d\n", eventID)
	for _, l := range lines {
		fmt.Fprintf(h, "%d\x00%s\x00%d\x00%d\x00%s\x00%s\x00%s\x00%s\n", l.Line, l.Action, l.Player.ID, l.ClassID, l.Name, l.Reading, l.Rank, l.Club)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// ConfirmEntries does what the preview said, in one transaction: each
// create line registers its player, each match line takes its player,
// and both are entered in their class (as Enter does, with an approved
// entry recorded as pasted); refused lines are skipped. A fingerprint
// other than the preview's now is ErrConflict and nothing is written.
func (d *Day) ConfirmEntries(ctx context.Context, actor office.Actor, in BulkInput) (BulkPreview, error) {
	var out BulkPreview
	err := d.store.Tx(ctx, func(tx *store.Store) error {
		if _, err := requireDay(ctx, tx, actor, in.EventID, deskRoles); err != nil {
			return err
		}
		p, err := previewIn(ctx, tx, in)
		if err != nil {
			return err
		}
		if p.Fingerprint != in.Fingerprint {
			return fmt.Errorf("the paste's preview changed: %w", office.ErrConflict)
		}
		now := d.now()
		source := "paste"
		if in.CSV != nil {
			source = "csv"
		}
		for _, l := range p.Lines {
			if l.Action == BulkRefuse {
				continue
			}
			pl := l.Player
			if l.Action == BulkCreate {
				if pl, err = office.NewPlayerIn(ctx, tx, office.PlayerInput{Name: l.Name, Reading: l.Reading, Kind: string(store.PlayerAmateur), Rank: l.Rank, Affiliation: l.Club}, now); err != nil {
					return lineError(l.Line, err)
				}
			}
			if _, err := enterIn(ctx, tx, actor, EntryInput{EventID: in.EventID, PlayerID: pl.ID, Rank: l.Rank, ClassID: l.ClassID}, false, now); err != nil {
				return lineError(l.Line, err)
			}
			e := store.DayEntry{EventID: in.EventID, ClassID: l.ClassID, Name: l.Name, Reading: pl.Reading, Rank: l.Rank, Club: l.Club,
				Status: store.EntryApproved, Source: source, PlayerID: &pl.ID, DecidedBy: &actor.UserID, DecidedAt: &now, CreatedAt: now, UpdatedAt: now}
			if err := tx.AddDayEntry(ctx, &e); err != nil {
				return err
			}
		}
		out = p
		return nil
	})
	return out, err
}

// lineError puts a line's number on the field errors of a write the
// preview could not foresee.
func lineError(line int, err error) error {
	if ve, ok := err.(*office.ValidationError); ok {
		for i := range ve.Fields {
			ve.Fields[i].Line = line
		}
	}
	return err
}
