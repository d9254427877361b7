package day

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/office/day"
	"kisen/web/site"
)

// The director's list of entries (issue 23 §1): the form's settings, every
// entry with what may be done with it, and bulk entry by paste or CSV with
// its preview. Each action carries the version the list showed.

// entryRowView is one entry on the director's list.
type entryRowView struct {
	ID          int64
	Version     int
	Name        string
	Reading     string
	Rank        string
	RankRaw     string
	Club        string
	Contact     string
	Class       string
	ClassID     int64
	Status      string // in words
	Open        bool   // pending or waiting: may be decided
	Place       int
	Reason      string
	Created     string
	Suggestions []entrySuggestion
}

type entrySuggestion struct {
	PlayerID int64
	Label    string // 氏名（よみ・段級位・所属）
	Kind     string // in words
}

// entryCap is one class's cap field.
type entryCap struct {
	Field string
	Class string
	Value string
}

// bulkLineView is one line of a paste's preview.
type bulkLineView struct {
	Line    int
	Text    string // name, reading, rank, club as read
	Action  string // create / match / refuse
	Words   string // what happens, in words
	Similar string // registered players of a similar name (a created line)
	Class   string
}

type entriesView struct {
	EventID   int64
	EventName string
	DayURL    string
	FormURL   string
	Open      bool
	Deadline  string // datetime-local value
	Caps      []entryCap
	Version   int
	Classes   []site.Choice
	Rows      []entryRowView
	Counts    map[string]int
	Errs      site.FieldMsgs
	Message   string
	EditID    int64 // the entry whose edit form shows errors
	EditForm  entryForm
	BulkText  string
	BulkCSV   string // a previewed file's rows (UTF-8), carried to the confirmation
	Preview   []bulkLineView
	BulkSum   string
	Finger    string
	BulkDone  string
	// Approvable: the pending entries without a suggestion, as the
	// approve-all preview names them; AllFinger is their fingerprint;
	// AllPreview shows the preview and its confirmation.
	Approvable []string
	AllFinger  string
	AllPreview bool
}

func (s *Room) entriesView(c echo.Context, id int64) (entriesView, error) {
	ctx := c.Request().Context()
	a := site.Actor(c)
	rows, err := s.DayRoom().EntriesOf(ctx, a, id)
	if err != nil {
		return entriesView{}, err
	}
	e, err := s.Office.Event(ctx, a, id)
	if err != nil {
		return entriesView{}, err
	}
	set, err := s.DayRoom().EntrySettingsOf(ctx, a, id)
	if err != nil {
		return entriesView{}, err
	}
	classes, err := s.DayRoom().Classes(ctx, a, id)
	if err != nil {
		return entriesView{}, err
	}
	v := entriesView{EventID: id, EventName: site.LocalName(ctx, e.Name, e.NameEn), DayURL: dayURL(id),
		FormURL: c.Scheme() + "://" + c.Request().Host + dayEntryURL(id), Open: set.Open, Version: set.Version, Counts: map[string]int{}}
	if set.Deadline != nil {
		v.Deadline = set.Deadline.In(site.Tokyo).Format("2006-01-02T15:04")
	}
	names := map[int64]string{}
	for _, cl := range classes {
		n := site.LocalName(ctx, cl.Name, cl.NameEn)
		names[cl.ID] = n
		val := ""
		if k := set.Caps[cl.ID]; k > 0 {
			val = strconv.Itoa(k)
		}
		v.Caps = append(v.Caps, entryCap{Field: "cap_" + strconv.FormatInt(cl.ID, 10), Class: n, Value: val})
		v.Classes = append(v.Classes, site.Choice{Value: strconv.FormatInt(cl.ID, 10), Label: n})
	}
	for _, r := range rows {
		v.Counts[r.Status]++
		rv := entryRowView{ID: r.ID, Version: r.Version, Name: r.Name, Reading: r.Reading, Rank: site.RankLabel(ctx, r.Rank), RankRaw: r.Rank,
			Club: r.Club, Contact: r.Contact, Class: names[r.ClassID], ClassID: r.ClassID, Status: site.T(ctx, "day_entry.status."+r.Status),
			Open: r.Status == day.EntryPending || r.Status == day.EntryWaiting, Place: r.Place, Reason: r.Reason, Created: site.ShowTime(r.CreatedAt)}
		for _, sg := range r.Suggestions {
			p := sg.Player
			label := p.Name + "（" + p.Reading
			if p.Rank != "" {
				label += "・" + site.RankLabel(ctx, p.Rank)
			}
			if p.Affiliation != "" {
				label += "・" + p.Affiliation
			}
			rv.Suggestions = append(rv.Suggestions, entrySuggestion{PlayerID: p.ID, Label: label + "）", Kind: site.T(ctx, "day_entry.match."+sg.Kind)})
		}
		v.Rows = append(v.Rows, rv)
	}
	for _, r := range day.Approvable(rows) {
		v.Approvable = append(v.Approvable, r.Name+"（"+names[r.ClassID]+"・"+site.RankLabel(ctx, r.Rank)+"）")
	}
	v.AllFinger = day.ApprovableFingerprint(id, rows)
	return v, nil
}

func (s *Room) renderEntries(c echo.Context, status int, id int64, edit func(*entriesView)) error {
	v, err := s.entriesView(c, id)
	if err != nil {
		return err
	}
	if edit != nil {
		edit(&v)
	}
	if done := c.QueryParam("done"); done != "" && v.BulkDone == "" {
		v.BulkDone = site.T(c.Request().Context(), "day_entry.bulk.done", "N", done)
	}
	if n, err := strconv.Atoi(c.QueryParam("approved")); err == nil && v.BulkDone == "" {
		v.BulkDone = site.T(c.Request().Context(), "day_entry_all.done", "N", n)
	}
	return s.Render(c, status, DayEntriesPage(s.Page(c, site.T(c.Request().Context(), "day_entry.list.title", "Event", v.EventName)), v))
}

// DayEntries is the director's list.
func (s *Room) DayEntries(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	return s.renderEntries(c, http.StatusOK, id, nil)
}

// entriesBack answers an action: 303 to the list, 422 with the messages
// on the list, or the error (404, 403, 409).
func (s *Room) entriesBack(c echo.Context, id int64, err error, edit func(*entriesView, site.FieldMsgs)) error {
	if msgs, bad := site.FieldMsgsOf(c.Request().Context(), err); bad {
		return s.renderEntries(c, http.StatusUnprocessableEntity, id, func(v *entriesView) {
			v.Errs = msgs
			v.Message = firstMsg(msgs)
			if edit != nil {
				edit(v, msgs)
			}
		})
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, dayEntriesURL(id))
}

// DayEntrySettings saves open/closed, the deadline and the caps.
func (s *Room) DayEntrySettings(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	if err := s.Office.RequireEventRole(ctx, site.Actor(c), id, office.RoleDirector); err != nil {
		return err
	}
	classes, err := s.DayRoom().Classes(ctx, site.Actor(c), id)
	if err != nil {
		return err
	}
	in := day.EntrySettingsInput{EventID: id, Open: c.FormValue("open") == "1", Deadline: c.FormValue("deadline"), Caps: map[int64]string{}}
	in.Version, _ = strconv.Atoi(c.FormValue("version"))
	for _, cl := range classes {
		in.Caps[cl.ID] = c.FormValue("cap_" + strconv.FormatInt(cl.ID, 10))
	}
	return s.entriesBack(c, id, s.DayRoom().SetEntrySettings(ctx, site.Actor(c), in), nil)
}

// decision reads the entry and version of an action.
func decision(c echo.Context) (day.EntryDecision, error) {
	id, err := site.PathID(c)
	if err != nil {
		return day.EntryDecision{}, err
	}
	eid, err := site.PathParam(c, "entry")
	if err != nil {
		return day.EntryDecision{}, err
	}
	v, _ := strconv.Atoi(c.FormValue("version"))
	return day.EntryDecision{EventID: id, EntryID: eid, Version: v}, nil
}

// DayEntryApprove approves an entry: a new player, or the registered
// player chosen (merge).
func (s *Room) DayEntryApprove(c echo.Context) error {
	in, err := decision(c)
	if err != nil {
		return err
	}
	in.PlayerID = formID(c, "player_id")
	_, err = s.DayRoom().ApproveEntry(c.Request().Context(), site.Actor(c), in)
	return s.entriesBack(c, in.EventID, err, nil)
}

// DayEntryRefuse refuses an entry with a reason.
func (s *Room) DayEntryRefuse(c echo.Context) error {
	in, err := decision(c)
	if err != nil {
		return err
	}
	in.Reason = c.FormValue("reason")
	return s.entriesBack(c, in.EventID, s.DayRoom().RefuseEntry(c.Request().Context(), site.Actor(c), in), nil)
}

// DayEntryEdit rewrites an undecided entry.
func (s *Room) DayEntryEdit(c echo.Context) error {
	in, err := decision(c)
	if err != nil {
		return err
	}
	var f entryForm
	if err := c.Bind(&f); err != nil {
		return err
	}
	err = s.DayRoom().EditEntry(c.Request().Context(), site.Actor(c), in, f.input(in.EventID))
	return s.entriesBack(c, in.EventID, err, func(v *entriesView, _ site.FieldMsgs) {
		v.EditID, v.EditForm = in.EntryID, f
	})
}

// bulkInput reads a paste (lines) or an uploaded CSV file (file).
func bulkInput(c echo.Context, id int64) (day.BulkInput, error) {
	in := day.BulkInput{EventID: id, Text: c.FormValue("lines"), Fingerprint: c.FormValue("fingerprint")}
	if csv := c.FormValue("csv"); csv != "" {
		// A previewed file, carried to the confirmation as its text.
		in.CSV, in.Text = []byte(csv), ""
	}
	if fh, err := c.FormFile("file"); err == nil && fh.Size > 0 {
		f, err := fh.Open()
		if err != nil {
			return in, err
		}
		defer f.Close()
		if in.CSV, err = io.ReadAll(f); err != nil {
			return in, err
		}
		in.Text = ""
	} else if err != nil && !errors.Is(err, http.ErrMissingFile) && !errors.Is(err, http.ErrNotMultipart) {
		return in, err
	}
	return in, nil
}

// DayEntryBulkPreview shows what a paste or file would do, line by line.
func (s *Room) DayEntryBulkPreview(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	if err := s.Office.RequireEventRole(ctx, site.Actor(c), id, office.RoleDirector); err != nil {
		return err
	}
	in, err := bulkInput(c, id)
	if err != nil {
		return err
	}
	p, err := s.DayRoom().PreviewEntries(ctx, site.Actor(c), in)
	if err != nil {
		return s.entriesBack(c, id, err, func(v *entriesView, _ site.FieldMsgs) { v.BulkText = in.Text })
	}
	return s.renderEntries(c, http.StatusOK, id, func(v *entriesView) {
		v.BulkText, v.Finger = in.Text, p.Fingerprint
		if in.CSV != nil {
			v.BulkCSV, _ = office.DecodeUploadedCSV(in.CSV) // the preview read it
		}
		v.BulkSum = site.T(ctx, "day_entry.bulk.summary", "Create", p.Create, "Match", p.Match, "Refuse", p.Refuse)
		v.Preview = bulkLinesView(ctx, p, v.Classes)
	})
}

func bulkLinesView(ctx context.Context, p day.BulkPreview, classes []site.Choice) []bulkLineView {
	names := map[string]string{}
	for _, c := range classes {
		names[c.Value] = c.Label
	}
	lz := site.L(ctx)
	out := make([]bulkLineView, len(p.Lines))
	for i, l := range p.Lines {
		lv := bulkLineView{Line: l.Line, Text: joinNonEmpty(l.Name, l.Reading, site.RankLabel(ctx, l.Rank), l.Club), Action: l.Action,
			Class: names[strconv.FormatInt(l.ClassID, 10)]}
		switch l.Action {
		case day.BulkCreate:
			lv.Words = site.T(ctx, "day_entry.bulk.create")
			for k, sg := range l.Similar {
				if k > 0 {
					lv.Similar += "、"
				}
				lv.Similar += sg.Player.Name + "（" + sg.Player.Reading + "）"
			}
		case day.BulkMatch:
			lv.Words = site.T(ctx, "day_entry.bulk.match", "Name", l.Player.Name, "Reading", l.Player.Reading)
		default:
			for k, pr := range l.Problems {
				if k > 0 {
					lv.Words += " "
				}
				lv.Words += lz.TData(pr.Code, site.WordArgs(ctx, pr.Args))
			}
		}
		out[i] = lv
	}
	return out
}

func joinNonEmpty(parts ...string) string {
	out := ""
	for _, p := range parts {
		if p == "" {
			continue
		}
		if out != "" {
			out += "・"
		}
		out += p
	}
	return out
}

// DayEntryBulkConfirm does what the preview said (409 when it no longer
// holds).
func (s *Room) DayEntryBulkConfirm(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	if err := s.Office.RequireEventRole(ctx, site.Actor(c), id, office.RoleDirector); err != nil {
		return err
	}
	in, err := bulkInput(c, id)
	if err != nil {
		return err
	}
	p, err := s.DayRoom().ConfirmEntries(ctx, site.Actor(c), in)
	if err != nil {
		return s.entriesBack(c, id, err, func(v *entriesView, _ site.FieldMsgs) { v.BulkText = in.Text })
	}
	return site.SeeOther(c, dayEntriesURL(id)+"?done="+strconv.Itoa(p.Create+p.Match))
}

// entryStatusOrder is the order the list's counts are shown in.
var entryStatusOrder = day.EntryStatuses

// DayEntryApproveAllPreview names every pending entry without a
// suggestion, which the confirmation will approve as new players.
func (s *Room) DayEntryApproveAllPreview(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	return s.renderEntries(c, http.StatusOK, id, func(v *entriesView) { v.AllPreview = true })
}

// DayEntryApproveAllConfirm approves them, in one transaction, if they are
// still the ones the preview named (409 otherwise, nothing written).
func (s *Room) DayEntryApproveAllConfirm(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	n, err := s.DayRoom().ApproveAll(c.Request().Context(), site.Actor(c), id, c.FormValue("fingerprint"))
	if err != nil {
		return err
	}
	return site.SeeOther(c, dayEntriesURL(id)+"?approved="+strconv.Itoa(n))
}
