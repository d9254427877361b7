package office

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"kisen/pairing"
	"kisen/store"
)

// HandicapSettings are the 手合割 keys of an organiser's or an event's
// settings JSON (D-H, 004):
//
//	{"handicap_by_rank": true,
//	 "handicap_table": [{"min_gap": 0, "handicap": "振り駒"}, {"min_gap": 1, "handicap": "平手"}, …]}
//
// ByRank nil means "not said": on for amateur organisers, off otherwise
// (professional games are even, 000 第7条). An empty Table means the
// organiser's table, and failing that pairing's default table of 004.
type HandicapSettings struct {
	ByRank *bool         `json:"handicap_by_rank,omitempty"`
	Table  []HandicapRow `json:"handicap_table,omitempty"`
}

// HandicapRow is one row of a 手合割 table as stored: from MinGap 段級差 up
// (until the next row) play Handicap.
type HandicapRow struct {
	MinGap   int    `json:"min_gap"`
	Handicap string `json:"handicap"`
}

// PairingTable converts stored rows to pairing's table.
func PairingTable(rows []HandicapRow) pairing.HandicapTable {
	t := make(pairing.HandicapTable, len(rows))
	for i, r := range rows {
		t[i] = pairing.HandicapRow{MinGap: r.MinGap, Handicap: pairing.Handicap(r.Handicap)}
	}
	return t
}

// StoredTable converts pairing's table to stored rows.
func StoredTable(t pairing.HandicapTable) []HandicapRow {
	rows := make([]HandicapRow, len(t))
	for i, r := range t {
		rows[i] = HandicapRow{MinGap: r.MinGap, Handicap: string(r.Handicap)}
	}
	return rows
}

func parseHandicapSettings(raw string) HandicapSettings {
	var h HandicapSettings
	_ = json.Unmarshal([]byte(raw), &h) // settings of other areas or bad JSON read as "not said"
	return h
}

// EventHandicap is how an event's bracket games start: On says games are
// given a 手合割 by the players' rank gap; Table is the table in force.
type EventHandicap struct {
	On      bool
	Table   pairing.HandicapTable
	Default bool // the table is pairing's default (004), not the organiser's or the event's
	Amateur bool // the organiser is an amateur association
}

// eventHandicap reads the event's settings, then its organiser's (D-H).
func eventHandicap(ctx context.Context, s *store.Store, e store.Event) (EventHandicap, error) {
	org, err := s.OrganiserByID(ctx, e.OrganiserID)
	if err != nil {
		return EventHandicap{}, err
	}
	ev, os := parseHandicapSettings(e.Settings), parseHandicapSettings(org.Settings)
	h := EventHandicap{Amateur: org.Kind == OrganiserAmateur}
	switch {
	case ev.ByRank != nil:
		h.On = *ev.ByRank
	case os.ByRank != nil:
		h.On = *os.ByRank
	default:
		h.On = h.Amateur
	}
	switch {
	case len(ev.Table) > 0 && PairingTable(ev.Table).Validate() == nil:
		h.Table = PairingTable(ev.Table)
	case len(os.Table) > 0 && PairingTable(os.Table).Validate() == nil:
		h.Table = PairingTable(os.Table)
	default:
		h.Table, h.Default = pairing.DefaultHandicapTable(), true
	}
	return h, nil
}

// EventHandicap reads an event's 手合割 settings (anyone who may see the
// event: they decide its games).
func (o *Office) EventHandicap(ctx context.Context, actor Actor, eventID int64) (EventHandicap, error) {
	e, err := o.Event(ctx, actor, eventID)
	if err != nil {
		return EventHandicap{}, err
	}
	return eventHandicap(ctx, o.store, e)
}

// HandicapInput is the 手合割 form: the switch and the table as typed, one
// row a line, "gap handicap" (e.g. "2 香落ち").
type HandicapInput struct {
	EventID int64
	ByRank  bool
	Table   string
}

// ParseHandicapTable reads the typed table and validates it with pairing
// (starts at 0, gaps increase, known names, even handicaps first); a
// refusal carries a message id per rule (handicapReason).
func ParseHandicapTable(text string) (pairing.HandicapTable, *ValidationError) {
	v := &ValidationError{}
	var t pairing.HandicapTable
	for i, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		f := strings.Fields(strings.NewReplacer("\t", " ", ",", " ", "　", " ").Replace(line))
		if len(f) == 0 {
			continue
		}
		gap, err := strconv.Atoi(f[0])
		if len(f) != 2 || err != nil || gap < 0 {
			v.Add(i+1, "table", "knockout.err.handicap_line", map[string]any{"Line": i + 1})
			continue
		}
		t = append(t, pairing.HandicapRow{MinGap: gap, Handicap: pairing.Handicap(f[1])})
	}
	if len(v.Fields) == 0 {
		if err := t.Validate(); err != nil {
			// Every form that reads a table (organiser and event pages
			// alike) says the broken rule in the user's language; pairing's
			// English sentence never reaches a page (issue 24 item 3).
			code, args := handicapReason(err, t)
			v.Add(0, "table", code, args)
		}
	}
	return t, v
}

// FormatHandicapTable writes a table the way the form reads it.
func FormatHandicapTable(t pairing.HandicapTable) string {
	var b strings.Builder
	for _, r := range t {
		fmt.Fprintf(&b, "%d %s\n", r.MinGap, r.Handicap)
	}
	return b.String()
}

// SetEventHandicap saves an event's 手合割 switch and table (directors).
// It is part of the event's settings, so it follows their lock: free until
// the first game starts, then each change needs an administrator's unlock;
// every change is recorded. Games already created keep their terms.
func (o *Office) SetEventHandicap(ctx context.Context, actor Actor, in HandicapInput) error {
	if err := o.RequireEventRole(ctx, actor, in.EventID, RoleDirector); err != nil {
		return err
	}
	t, v := ParseHandicapTable(in.Table)
	if err := v.OrNil(); err != nil {
		return err
	}
	return o.store.Tx(ctx, func(tx *store.Store) error {
		e, err := tx.EventByID(ctx, in.EventID)
		if err != nil {
			return err
		}
		st, err := settingsState(ctx, tx, e)
		if err != nil {
			return err
		}
		ch := &store.EventSettingsChange{EventID: e.ID, ChangedBy: actor.UserID, ChangedAt: o.now(), SettingsBefore: e.Settings}
		if st.Started {
			u, ok, err := tx.UnusedEventSettingsUnlock(ctx, e.ID)
			if err != nil {
				return err
			}
			if !ok {
				v.Add(0, "", "adjudication.err.settings_locked", nil)
				return v
			}
			ch.UnlockID = &u.ID
		}
		all := map[string]json.RawMessage{}
		_ = json.Unmarshal([]byte(e.Settings), &all) // bad JSON is replaced, other keys kept
		if all == nil {
			all = map[string]json.RawMessage{}
		}
		all["handicap_by_rank"] = json.RawMessage(strconv.FormatBool(in.ByRank))
		all["handicap_table"] = json.RawMessage(mustJSON(StoredTable(t)))
		ch.SettingsAfter = mustJSON(all)
		return tx.SetEventSettings(ctx, ch)
	})
}

// bracketStart is how one bracket game starts.
type bracketStart struct {
	Sente, Gote int64
	Handicap    string // rules' name: 平手, 香落ち, …
	SenteBy     string // furigoma, handicap, series
	Furigoma    string // JSON of the simulated toss, "{}" when none
}

// A stage's own 手合割 policy (knockout_stages.handicap_policy), set for a
// day's class final from its class; ” follows the event (D-H).
const (
	StageHandicapToss  = "toss"  // 平手, sente by 振り駒
	StageHandicapTable = "table" // the rank gap table
	StageHandicapMixed = "mixed" // up to EvenGap grades 平手 with the lower rank sente (004), beyond: the table
)

// startReads is what decideStart reads, read once for every game one
// draw, publication or advance creates (an event's games: its players'
// ranks, 席次 facts and 順位, the event's 手合割 and whether it is an
// amateur day), so creating a round's games costs the same reads whatever
// its size (issue 24). Each fact is read on first need, for every player
// of ids at once; 順位 once per game date.
type startReads struct {
	s       *store.Store
	eventID int64
	ids     []int64 // every player of the games being created

	event    *store.Event
	handicap EventHandicap
	amateur  *bool
	ranks    map[int64]store.Player
	seats    map[int64]store.SeatFacts
	junni    map[string]map[int64]store.Junni // by game day
}

// newStartReads prepares the reads of eventID's new games between the
// players ids.
func newStartReads(s *store.Store, eventID int64, ids []int64) *startReads {
	return &startReads{s: s, eventID: eventID, ids: ids, junni: map[string]map[int64]store.Junni{}}
}

// eventHandicap is the event's 手合割 settings (D-H).
func (r *startReads) eventHandicap(ctx context.Context) (EventHandicap, error) {
	if r.event == nil {
		e, err := r.s.EventByID(ctx, r.eventID)
		if err != nil {
			return EventHandicap{}, err
		}
		if r.handicap, err = eventHandicap(ctx, r.s, e); err != nil {
			return EventHandicap{}, err
		}
		r.event = &e
	}
	return r.handicap, nil
}

// players are the registry rows of the players (their ranks).
func (r *startReads) players(ctx context.Context) (map[int64]store.Player, error) {
	if r.ranks == nil {
		ps, err := r.s.PlayersByIDs(ctx, r.ids)
		if err != nil {
			return nil, err
		}
		r.ranks = ps
	}
	return r.ranks, nil
}

// joza decides the 上座 of a and b on the day on, as decideJoza does for a
// game not yet created (D-Z1, D-Z2).
func (r *startReads) joza(ctx context.Context, a, b int64, on time.Time) (int64, error) {
	if r.amateur == nil {
		amateur, err := r.s.IsDayEvent(ctx, r.eventID)
		if err != nil {
			return 0, err
		}
		r.amateur = &amateur
	}
	if r.seats == nil {
		facts, err := r.s.SeatFactsOf(ctx, r.ids)
		if err != nil {
			return 0, err
		}
		r.seats = facts
	}
	var junni map[int64]store.Junni
	if !*r.amateur {
		day := on.Format(time.DateOnly)
		var ok bool
		if junni, ok = r.junni[day]; !ok {
			var err error
			if junni, err = r.s.JunniOn(ctx, r.ids, day); err != nil {
				return 0, err
			}
			r.junni[day] = junni
		}
	}
	first, _ := jozaOfPair(r.seats, junni, *r.amateur, a, b, on)
	return first, nil
}

// decideStart applies, in order: a 番勝負's fixed sente; the event's 手合割
// by rank gap when on (D-H, 004: a gap gives a handicap or sente to the
// lower rank, no toss); otherwise — and for equal ranks — a simulated
// 振り駒 tossed by the 上座 player on the day on (D-Z1, D-F1..F3, 000
// 第7条), never simply the upper line. A rank the registry cannot read falls
// back to 振り駒, so a result is never blocked. What it reads comes from
// reads, shared by every game created with this one.
func decideStart(ctx context.Context, reads *startReads, st store.KnockoutStage, id string, players [2]string, a, b int64, fixedSente string, on time.Time) (bracketStart, error) {
	out := bracketStart{Sente: a, Gote: b, Handicap: string(pairing.Hirate), SenteBy: pairing.SenteBySeries, Furigoma: "{}"}
	if fixedSente != "" {
		if fixedSente == players[1] {
			out.Sente, out.Gote = b, a
		}
		return out, nil
	}
	h, err := reads.eventHandicap(ctx)
	if err != nil {
		return out, err
	}
	switch st.HandicapPolicy {
	case StageHandicapToss:
		h.On = false
	case StageHandicapTable, StageHandicapMixed:
		h.On = true
	}
	if h.On && st.Kind != StageSeries {
		ps, err := reads.players(ctx)
		if err != nil {
			return out, err
		}
		ra, errA := pairing.ParseRank(ps[a].Rank)
		rb, errB := pairing.ParseRank(ps[b].Rank)
		if gap := ra.Step - rb.Step; errA == nil && errB == nil && st.HandicapPolicy == StageHandicapMixed && gap != 0 && max(gap, -gap) <= st.EvenGap {
			// 004: a small gap plays 平手, the lower rank sente.
			if rb.Step < ra.Step {
				out.Sente, out.Gote = b, a
			}
			out.SenteBy = pairing.SenteByHandicap
			return out, nil
		}
		if errA == nil && errB == nil {
			terms, err := pairing.DecideTerms(h.Table, players[0], ra, players[1], rb, players[0])
			if err != nil {
				return out, fmt.Errorf("stage %d game %s terms: %w", st.ID, id, err)
			}
			if terms.Sente != "" {
				out.Handicap, out.SenteBy = string(terms.Handicap), pairing.SenteByHandicap
				if terms.Sente == players[1] {
					out.Sente, out.Gote = b, a
				}
				return out, nil
			}
		}
	}
	rng, err := tossRand(st.DrawSeed, id)
	if err != nil {
		return out, err
	}
	// 000 第7条1, 001 第3条: the 上座 player tosses (D-Z1), not the upper line.
	joza, err := reads.joza(ctx, a, b, on)
	if err != nil {
		return out, err
	}
	tosser, other := players[0], players[1]
	if joza == b {
		tosser, other = other, tosser
	}
	f, err := pairing.Simulate(rng, tosser, other, pairing.DefaultTossOdds())
	if err != nil {
		return out, err
	}
	if f.Sente == players[1] {
		out.Sente, out.Gote = b, a
	}
	out.SenteBy, out.Furigoma = pairing.SenteByFurigoma, mustJSON(f)
	return out, nil
}
