package teams

import (
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"

	"kisen/office"
	"kisen/store"
)

// Teams by paste or CSV (issue 25 item 1, docs/team-entries.md): one line
// per player — team, affiliation, affiliation kind, name, reading, rank —
// the team's lines in registration order (they need not be together). A
// preview says what would be registered; the confirmation writes every
// team, or nothing: one bad line refuses the whole paste, with a message
// naming each bad line and field.

// CSVColumns are a line's columns, in order.
var CSVColumns = []string{"team", "affiliation", "affiliation_kind", "name", "reading", "rank"}

// CSVMaxLines bounds a paste or a file.
const CSVMaxLines = 3000

// CSVInput is a paste (Text) or an uploaded file (CSV) for a team event.
type CSVInput struct {
	EventID     int64
	Text        string
	CSV         []byte
	Fingerprint string // the preview's, on confirm
}

// CSVPreview is what a paste would register: each team with its rows.
type CSVPreview struct {
	Teams       []TeamPreview
	Create      int // new players
	Match       int // registered players
	Fingerprint string
}

type csvRecord struct {
	line  int
	cells []string
}

// csvRecords splits the input into cells per line, with the line numbers
// of the paste or the file. A first row naming the team column is a header.
func csvRecords(in CSVInput) ([]csvRecord, error) {
	var out []csvRecord
	if in.CSV != nil {
		text, ok := office.DecodeUploadedCSV(in.CSV)
		if !ok {
			return nil, invalid("file", "teams.csv.err.encoding", nil)
		}
		r := csv.NewReader(strings.NewReader(text))
		r.FieldsPerRecord = -1
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
				return nil, invalid("file", "teams.csv.err.csv", map[string]any{"Line": line})
			}
			line, _ := r.FieldPos(0)
			if first && isCSVHeader(rec) {
				continue
			}
			for i := range rec {
				rec[i] = office.UnneutraliseCSVCell(rec[i])
			}
			if blank(rec) {
				continue
			}
			out = append(out, csvRecord{line, rec})
		}
		return out, nil
	}
	for i, line := range strings.Split(strings.ReplaceAll(in.Text, "\r\n", "\n"), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		sep := ","
		if strings.Contains(line, "\t") {
			sep = "\t"
		}
		rec := strings.Split(strings.ReplaceAll(line, "，", ","), sep)
		if i == 0 && isCSVHeader(rec) {
			continue
		}
		out = append(out, csvRecord{i + 1, rec})
	}
	return out, nil
}

func blank(rec []string) bool {
	for _, c := range rec {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}

func isCSVHeader(rec []string) bool {
	if len(rec) == 0 {
		return false
	}
	h := strings.TrimSpace(strings.TrimPrefix(rec[0], "\ufeff"))
	return h == "チーム" || h == "チーム名" || strings.EqualFold(h, "team")
}

func invalid(field, code string, args map[string]any) error {
	v := &office.ValidationError{}
	v.Add(0, field, code, args)
	return v
}

// affiliationKindOf reads a kind as written in a file: the English key or
// the Japanese word; empty is other.
func affiliationKindOf(s string) (string, bool) {
	s = strings.TrimSpace(s)
	switch strings.ToLower(s) {
	case "", "other", "その他":
		return AffiliationOther, true
	case "school", "学校", "高校", "中学", "中学校", "大学", "小学校":
		return AffiliationSchool, true
	case "club", "クラブ", "道場", "将棋教室", "教室":
		return AffiliationClub, true
	case "branch", "支部":
		return AffiliationBranch, true
	case "company", "企業", "会社", "職域":
		return AffiliationCompany, true
	}
	return "", false
}

type csvTeam struct {
	in    TeamInput
	line  int // the team's first line
	rows  []int
	lines []MemberInput
}

// previewCSVIn reads and checks the whole paste inside tx; any problem is a
// ValidationError listing every bad line.
func (t *Teams) previewCSVIn(ctx context.Context, tx *store.Store, actor office.Actor, in CSVInput) (CSVPreview, rosterState, error) {
	te, err := requireTeamEvent(ctx, tx, actor, in.EventID, EditRoles)
	if err != nil {
		return CSVPreview{}, rosterState{}, err
	}
	recs, err := csvRecords(in)
	if err != nil {
		return CSVPreview{}, rosterState{}, err
	}
	if len(recs) == 0 {
		return CSVPreview{}, rosterState{}, invalid("lines", "teams.csv.err.empty", nil)
	}
	if len(recs) > CSVMaxLines {
		return CSVPreview{}, rosterState{}, invalid("lines", "teams.csv.err.too_many_lines", map[string]any{"Max": CSVMaxLines})
	}
	if open, err := ordersOpenIn(ctx, tx, in.EventID, t.now()); err != nil {
		return CSVPreview{}, rosterState{}, err
	} else if open {
		return CSVPreview{}, rosterState{}, invalid("lines", "teams.err.orders_open", nil)
	}
	st, err := loadRosterState(ctx, tx, te)
	if err != nil {
		return CSVPreview{}, rosterState{}, err
	}
	ve := &office.ValidationError{}
	var order []*csvTeam
	byName := map[string]*csvTeam{}
	for _, r := range recs {
		cells := make([]string, len(CSVColumns))
		for i := range r.cells {
			if i < len(cells) {
				cells[i] = office.NFC(strings.TrimSpace(r.cells[i]))
			}
		}
		if len(r.cells) > len(CSVColumns) {
			ve.Add(r.line, "lines", "teams.csv.err.columns", map[string]any{"N": len(r.cells), "Max": len(CSVColumns)})
			continue
		}
		if cells[0] == "" {
			ve.Add(r.line, "team", "teams.err.required", nil)
			continue
		}
		kind, ok := affiliationKindOf(cells[2])
		if !ok {
			ve.Add(r.line, "affiliation_kind", "teams.csv.err.kind", map[string]any{"Value": cells[2]})
			continue
		}
		key := office.FoldName(cells[0])
		ct := byName[key]
		if ct == nil {
			ct = &csvTeam{in: TeamInput{EventID: in.EventID, Name: cells[0], Affiliation: cells[1], AffiliationKind: kind}, line: r.line}
			byName[key] = ct
			order = append(order, ct)
			n := len(ve.Fields)
			st.checkTeam(ve, r.line, &ct.in)
			for i := n; i < len(ve.Fields); i++ { // the file's column is "team"
				if ve.Fields[i].Field == "name" {
					ve.Fields[i].Field = "team"
				}
			}
		} else {
			if cells[1] != "" && cells[1] != ct.in.Affiliation {
				ve.Add(r.line, "affiliation", "teams.csv.err.affiliation_differs", map[string]any{"Team": ct.in.Name, "First": ct.line, "Value": ct.in.Affiliation})
				continue
			}
			if cells[2] != "" && kind != ct.in.AffiliationKind {
				ve.Add(r.line, "affiliation_kind", "teams.csv.err.affiliation_differs", map[string]any{"Team": ct.in.Name, "First": ct.line, "Value": ct.in.AffiliationKind})
				continue
			}
		}
		ct.rows = append(ct.rows, r.line)
		ct.lines = append(ct.lines, MemberInput{Name: cells[3], Reading: cells[4], Rank: cells[5]})
	}
	out := CSVPreview{}
	newKeys, taken := map[string]int{}, map[int64]string{}
	for _, ct := range order {
		lines := st.checkRoster(ve, 0, ct.in.Name, ct.rows, ct.lines, newKeys, taken)
		tp := TeamPreview{Team: store.Team{EventID: in.EventID, Name: ct.in.Name, Affiliation: ct.in.Affiliation, AffiliationKind: ct.in.AffiliationKind}, Members: lines}
		for _, l := range lines {
			if l.Action == MemberCreate {
				out.Create++
			} else {
				out.Match++
			}
		}
		out.Teams = append(out.Teams, tp)
	}
	if err := ve.OrNil(); err != nil {
		sortByLine(ve)
		return CSVPreview{}, rosterState{}, err
	}
	out.Fingerprint = csvFingerprint(in.EventID, out.Teams)
	return out, st, nil
}

// sortByLine orders a paste's problems by line (stable within a line).
func sortByLine(ve *office.ValidationError) {
	fs := ve.Fields
	for i := 1; i < len(fs); i++ {
		for j := i; j > 0 && fs[j].Line < fs[j-1].Line; j-- {
			fs[j], fs[j-1] = fs[j-1], fs[j]
		}
	}
}

func csvFingerprint(eventID int64, teams []TeamPreview) string {
	h := sha256.New()
	fmt.Fprintf(h, "teams %d\n", eventID)
	for _, tp := range teams {
		fmt.Fprintf(h, "T\x00%s\x00%s\x00%s\n", tp.Team.Name, tp.Team.Affiliation, tp.Team.AffiliationKind)
		for _, l := range tp.Members {
			fmt.Fprintf(h, "%d\x00%s\x00%d\x00%s\x00%s\x00%s\n", l.Row, l.Action, l.Player.ID, l.Name, l.Reading, l.Rank)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// PreviewTeamsCSV says what a paste or file would register (directors);
// nothing is written. Any bad line makes it a ValidationError listing
// every bad line and field.
func (t *Teams) PreviewTeamsCSV(ctx context.Context, actor office.Actor, in CSVInput) (CSVPreview, error) {
	p, _, err := t.previewCSVIn(ctx, t.store, actor, in)
	return p, err
}

// ConfirmTeamsCSV registers every team of the paste with its roster in one
// transaction, or nothing: a bad line is the preview's ValidationError, a
// fingerprint other than the preview's now is ErrConflict.
func (t *Teams) ConfirmTeamsCSV(ctx context.Context, actor office.Actor, in CSVInput) (CSVPreview, error) {
	var out CSVPreview
	err := t.store.Tx(ctx, func(tx *store.Store) error {
		p, st, err := t.previewCSVIn(ctx, tx, actor, in)
		if err != nil {
			return err
		}
		if p.Fingerprint != in.Fingerprint {
			return fmt.Errorf("the paste's preview changed: %w", office.ErrConflict)
		}
		now := t.now()
		for _, tp := range p.Teams {
			tm := tp.Team
			tm.CreatedAt, tm.UpdatedAt = now, now
			if err := tx.CreateTeam(ctx, &tm); err != nil {
				return err
			}
			members, err := t.membersOf(ctx, tx, st, tm, tp.Members)
			if err != nil {
				return err
			}
			if err := tx.ReplaceTeamMembers(ctx, tm.ID, members); err != nil {
				return err
			}
		}
		out = p
		return nil
	})
	return out, err
}
