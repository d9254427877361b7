package teams

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"kisen/office"
	"kisen/office/day"
	"kisen/pairing"
	"kisen/store"
)

// Teams and rosters (issue 25 item 1, docs/team-entries.md). A roster
// lists up to boards + reserves players in registration order; each is a
// registered player (chosen by id, or matched by name and reading as the
// amateur day matches its entries) or registered now. A player plays for
// one team per event: the database refuses a second (team_members UNIQUE
// (event_id, player_id)), and the form says which team has him first.

// Member actions in a preview.
const (
	MemberChosen = "chosen" // picked from the registry by id
	MemberMatch  = "match"  // the one registered player of the same name and reading
	MemberCreate = "create" // registered as a new player on saving
)

// MemberInput is one roster row as typed: a registered player's id, or a
// name and reading (and a rank, else the registry's). A row with an id and
// a name that is not that player's is read by its name (the form keeps the
// ids of a team being edited, and the director typed another player over
// one).
type MemberInput struct {
	PlayerID int64
	Name     string
	Reading  string
	Rank     string
}

// TeamInput is the team form. Members are rows in registration order;
// empty rows are skipped.
type TeamInput struct {
	EventID         int64
	TeamID          int64  // 0: a new team
	Version         int    // the team's version seen (0 for a new team)
	Name            string `field:"name" validate:"nocontrol,storable,required,max=60" msg:"teams.err"`
	NameEn          string `field:"name_en" validate:"nocontrol,storable,max=60" msg:"teams.err"`
	Affiliation     string `field:"affiliation" validate:"nocontrol,storable,max=60" msg:"teams.err"`
	AffiliationKind string `field:"affiliation_kind" validate:"oneof=school club branch company other" msg:"teams.err"`
	Members         []MemberInput
}

// MemberLine is what saving a roster row does.
type MemberLine struct {
	Row     int // the form's row or the file's line
	Name    string
	Reading string
	Rank    string
	Action  string
	Player  store.Player     // MemberChosen, MemberMatch
	Similar []day.Suggestion // MemberCreate: registered players of a similar name or reading
}

// TeamPreview is what saving a team would do.
type TeamPreview struct {
	Team    store.Team
	Members []MemberLine
}

// registry indexes the players by id and by folded name and reading, so
// each row is compared with a map, not with every player.
type registry struct {
	byID              map[int64]store.Player
	byName, byReading map[string][]store.Player
}

func newRegistry(players []store.Player) registry {
	r := registry{byID: map[int64]store.Player{}, byName: map[string][]store.Player{}, byReading: map[string][]store.Player{}}
	for _, p := range players {
		r.byID[p.ID] = p
		r.byName[office.FoldName(p.Name)] = append(r.byName[office.FoldName(p.Name)], p)
		if p.Reading != "" {
			r.byReading[office.FoldName(p.Reading)] = append(r.byReading[office.FoldName(p.Reading)], p)
		}
	}
	return r
}

// suggest is day.SuggestPlayers over the players sharing the folded name
// or reading.
func (r registry) suggest(name, reading string) []day.Suggestion {
	seen := map[int64]bool{}
	var near []store.Player
	for _, ps := range [][]store.Player{r.byName[office.FoldName(name)], r.byReading[office.FoldName(reading)]} {
		for _, p := range ps {
			if !seen[p.ID] {
				seen[p.ID] = true
				near = append(near, p)
			}
		}
	}
	return day.SuggestPlayers(near, name, reading)
}

// memberFields are a row's free texts, checked by the player form's tags.
type memberFields struct {
	Name    string `field:"name" validate:"nocontrol,storable,required,max=60" msg:"players.err"`
	Reading string `field:"reading" validate:"nocontrol,storable,max=60" msg:"players.err"`
}

// resolveMember reads one row: a chosen player, a match, or a new player;
// problems go to ve on line row.
func resolveMember(ve *office.ValidationError, row int, m MemberInput, reg registry) (MemberLine, bool) {
	l := MemberLine{Row: row, Name: office.NFC(strings.TrimSpace(m.Name)), Reading: office.NFC(strings.TrimSpace(m.Reading)), Rank: strings.TrimSpace(m.Rank)}
	n := len(ve.Fields)
	if l.Rank != "" {
		if r, err := pairing.ParseRank(l.Rank); err != nil {
			ve.Add(row, "rank", "teams.err.rank", map[string]any{"Value": l.Rank})
		} else {
			l.Rank = r.String()
		}
	}
	if p, ok := reg.byID[m.PlayerID]; ok && l.Name != "" && office.FoldName(l.Name) != office.FoldName(p.Name) {
		m.PlayerID = 0 // the row's name was changed: it names another player
	}
	if m.PlayerID > 0 {
		p, ok := reg.byID[m.PlayerID]
		if !ok {
			ve.Add(row, "player", "teams.err.player_unknown", nil)
			return l, false
		}
		l.Action, l.Player, l.Name, l.Reading = MemberChosen, p, p.Name, p.Reading
	} else {
		office.CheckInputFields(ve, row, &memberFields{Name: l.Name, Reading: l.Reading})
		if l.Reading != "" {
			if r, ok := office.NormaliseReading(l.Reading); ok {
				l.Reading = r
			} else {
				ve.Add(row, "reading", "players.err.reading_kana", nil)
			}
		}
		if len(ve.Fields) > n {
			return l, false
		}
		ss := reg.suggest(l.Name, l.Reading)
		var same []store.Player
		for _, s := range ss {
			if s.Kind == day.MatchSame {
				same = append(same, s.Player)
			}
		}
		switch {
		case len(same) == 1:
			l.Action, l.Player = MemberMatch, same[0]
		case len(same) > 1:
			ve.Add(row, "name", "teams.err.ambiguous", map[string]any{"Names": playerNames(same)})
			return l, false
		case l.Reading == "":
			ve.Add(row, "reading", "teams.err.reading_needed", nil)
			return l, false
		default:
			l.Action, l.Similar = MemberCreate, ss
		}
	}
	if l.Rank == "" && l.Player.ID != 0 && l.Player.Rank != "" {
		if r, err := pairing.ParseRank(l.Player.Rank); err == nil {
			l.Rank = r.String()
		}
	}
	return l, len(ve.Fields) == n
}

func playerNames(ps []store.Player) string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = p.Name + "（" + p.Reading + "）"
	}
	return strings.Join(parts, "、")
}

// rosterState is what a roster write checks against: the settings, the
// event's teams, which team each player is on, and the registry.
type rosterState struct {
	settings store.TeamEvent
	teams    []store.Team
	teamOf   map[int64]int64 // player → team
	reg      registry
}

func loadRosterState(ctx context.Context, tx *store.Store, te store.TeamEvent) (rosterState, error) {
	st := rosterState{settings: te, teamOf: map[int64]int64{}}
	var err error
	if st.teams, err = tx.TeamsOfEvent(ctx, te.EventID); err != nil {
		return st, err
	}
	members, err := tx.TeamMembersOfEvent(ctx, te.EventID)
	if err != nil {
		return st, err
	}
	for _, m := range members {
		st.teamOf[m.PlayerID] = m.TeamID
	}
	players, err := tx.AllPlayers(ctx)
	if err != nil {
		return st, err
	}
	st.reg = newRegistry(players)
	return st, nil
}

func (st rosterState) teamName(id int64) string {
	for _, t := range st.teams {
		if t.ID == id {
			return t.Name
		}
	}
	return ""
}

// checkRoster reads the rows of one team (teamID 0: new) into lines;
// rows are numbered by rows[i] (the form's row or the file's line). A
// player on another team, twice on this one, or a roster longer than the
// event allows is a problem on its row.
//
// newKeys (folded name and reading → first row) and taken (player → the
// team named earlier in the same file) carry what earlier teams of one
// paste claimed.
func (st rosterState) checkRoster(ve *office.ValidationError, teamID int64, teamName string, rows []int, in []MemberInput, newKeys map[string]int, taken map[int64]string) []MemberLine {
	var lines []MemberLine
	firstRow := map[int64]int{}
	for i, m := range in {
		l, ok := resolveMember(ve, rows[i], m, st.reg)
		if !ok {
			continue
		}
		if len(lines) == st.settings.Boards+st.settings.Reserves {
			ve.Add(l.Row, "name", "teams.err.roster_full", map[string]any{"Boards": st.settings.Boards, "Reserves": st.settings.Reserves})
			continue
		}
		switch l.Action {
		case MemberCreate:
			key := office.FoldName(l.Name) + "\x00" + office.FoldName(l.Reading)
			if first, dup := newKeys[key]; dup {
				ve.Add(l.Row, "name", "teams.err.twice", map[string]any{"Name": l.Name, "First": first})
				continue
			}
			newKeys[key] = l.Row
		default:
			if first, dup := firstRow[l.Player.ID]; dup {
				ve.Add(l.Row, "name", "teams.err.twice", map[string]any{"Name": l.Player.Name, "First": first})
				continue
			}
			firstRow[l.Player.ID] = l.Row
			if other, on := st.teamOf[l.Player.ID]; on && other != teamID {
				ve.Add(l.Row, "name", "teams.err.other_team", map[string]any{"Name": l.Player.Name, "Team": st.teamName(other)})
				continue
			}
			if other, on := taken[l.Player.ID]; on && other != teamName {
				ve.Add(l.Row, "name", "teams.err.other_team", map[string]any{"Name": l.Player.Name, "Team": other})
				continue
			}
			taken[l.Player.ID] = teamName
		}
		lines = append(lines, l)
	}
	return lines
}

// checkTeam reads the team's own fields.
func (st rosterState) checkTeam(ve *office.ValidationError, line int, in *TeamInput) {
	in.Name, in.NameEn, in.Affiliation = office.NFC(strings.TrimSpace(in.Name)), strings.TrimSpace(in.NameEn), office.NFC(strings.TrimSpace(in.Affiliation))
	if in.AffiliationKind == "" {
		in.AffiliationKind = AffiliationOther
	}
	office.CheckInput(ve, line, in)
	if in.Name != "" && slices.ContainsFunc(st.teams, func(t store.Team) bool {
		return t.ID != in.TeamID && office.FoldName(t.Name) == office.FoldName(in.Name)
	}) {
		ve.Add(line, "team", "teams.err.name_taken", map[string]any{"Name": in.Name})
	}
}

// previewTeamIn checks a team form inside tx.
func (t *Teams) previewTeamIn(ctx context.Context, tx *store.Store, actor office.Actor, in *TeamInput) (TeamPreview, rosterState, store.Team, error) {
	te, err := requireTeamEvent(ctx, tx, actor, in.EventID, EditRoles)
	if err != nil {
		return TeamPreview{}, rosterState{}, store.Team{}, err
	}
	var cur store.Team
	if in.TeamID != 0 {
		if cur, err = tx.TeamByID(ctx, in.TeamID); err != nil {
			return TeamPreview{}, rosterState{}, store.Team{}, err
		}
		if cur.EventID != in.EventID {
			return TeamPreview{}, rosterState{}, store.Team{}, fmt.Errorf("team %d is not in event %d: %w", in.TeamID, in.EventID, office.ErrNotFound)
		}
		if cur.Version != in.Version {
			return TeamPreview{}, rosterState{}, store.Team{}, fmt.Errorf("team %d changed since version %d: %w", in.TeamID, in.Version, office.ErrConflict)
		}
	}
	st, err := loadRosterState(ctx, tx, te)
	if err != nil {
		return TeamPreview{}, rosterState{}, store.Team{}, err
	}
	ve := &office.ValidationError{}
	if in.TeamID == 0 {
		if open, err := ordersOpenIn(ctx, tx, in.EventID, t.now()); err != nil {
			return TeamPreview{}, rosterState{}, store.Team{}, err
		} else if open {
			ve.Add(0, "name", "teams.err.orders_open", nil)
		}
	}
	st.checkTeam(ve, 0, in)
	var rows []int
	var members []MemberInput
	for i, m := range in.Members {
		if m.PlayerID == 0 && strings.TrimSpace(m.Name) == "" && strings.TrimSpace(m.Reading) == "" && strings.TrimSpace(m.Rank) == "" {
			continue
		}
		rows, members = append(rows, i+1), append(members, m)
	}
	if len(members) == 0 {
		ve.Add(0, "members", "teams.err.no_members", nil)
	}
	lines := st.checkRoster(ve, in.TeamID, in.Name, rows, members, map[string]int{}, map[int64]string{})
	if err := ve.OrNil(); err != nil {
		return TeamPreview{}, rosterState{}, store.Team{}, err
	}
	tm := cur
	tm.EventID, tm.Name, tm.NameEn, tm.Affiliation, tm.AffiliationKind = in.EventID, in.Name, in.NameEn, in.Affiliation, in.AffiliationKind
	return TeamPreview{Team: tm, Members: lines}, st, cur, nil
}

// PreviewTeam says what saving the team form would do (directors):
// which rows are registered players and which new ones, with the
// registered players of a similar name. Nothing is written.
func (t *Teams) PreviewTeam(ctx context.Context, actor office.Actor, in TeamInput) (TeamPreview, error) {
	p, _, _, err := t.previewTeamIn(ctx, t.store, actor, &in)
	return p, err
}

// SaveTeam creates or changes a team and its roster in one transaction
// (directors), at the team's version seen; new players are registered.
func (t *Teams) SaveTeam(ctx context.Context, actor office.Actor, in TeamInput) (store.Team, error) {
	var out store.Team
	err := t.store.Tx(ctx, func(tx *store.Store) error {
		p, st, _, err := t.previewTeamIn(ctx, tx, actor, &in)
		if err != nil {
			return err
		}
		now := t.now()
		tm := p.Team
		tm.UpdatedAt = now
		if tm.ID == 0 {
			tm.CreatedAt = now
			if err := tx.CreateTeam(ctx, &tm); err != nil {
				return err
			}
		} else if err := tx.UpdateTeam(ctx, &tm); err != nil {
			return err
		}
		members, err := t.membersOf(ctx, tx, st, tm, p.Members)
		if err != nil {
			return err
		}
		if err := tx.ReplaceTeamMembers(ctx, tm.ID, members); err != nil {
			return err
		}
		out = tm
		return nil
	})
	return out, err
}

// membersOf registers the new players of lines and returns the roster rows.
func (t *Teams) membersOf(ctx context.Context, tx *store.Store, st rosterState, tm store.Team, lines []MemberLine) ([]store.TeamMember, error) {
	now := t.now()
	out := make([]store.TeamMember, 0, len(lines))
	for i, l := range lines {
		pl := l.Player
		if l.Action == MemberCreate {
			var err error
			pl, err = office.NewPlayerIn(ctx, tx, office.PlayerInput{Name: l.Name, Reading: l.Reading, Kind: string(store.PlayerAmateur), Rank: l.Rank, Affiliation: tm.Affiliation}, now)
			if err != nil {
				return nil, onLine(l.Row, err)
			}
		}
		out = append(out, store.TeamMember{EventID: st.settings.EventID, TeamID: tm.ID, PlayerID: pl.ID, Position: i + 1, Rank: l.Rank, CreatedAt: now})
	}
	return out, nil
}

// onLine puts a row's number on the field errors of a write the check
// could not foresee.
func onLine(line int, err error) error {
	if ve, ok := err.(*office.ValidationError); ok {
		for i := range ve.Fields {
			ve.Fields[i].Line = line
		}
	}
	return err
}

// TeamView is a team with its roster in registration order.
type TeamView struct {
	store.Team
	Members []RosterMember
}

// RosterMember is one registered player of a team: Board is his place in
// the registered order (1 … boards), 0 for a reserve (補欠).
type RosterMember struct {
	store.TeamMemberRow
	Reserve bool
}

// RosterView is every team of an event with its roster.
type RosterView struct {
	Event    store.Event
	Settings Settings
	Teams    []TeamView
	Staff    bool // the reader holds a role in the event
	CanEdit  bool // the reader may change teams and rosters
}

// Roster reads every team and roster of a team event for anyone who may
// see the event (a fixed number of statements whatever the size).
func (t *Teams) Roster(ctx context.Context, actor office.Actor, eventID int64) (RosterView, error) {
	e, s, err := t.EventSettings(ctx, actor, eventID)
	if err != nil {
		return RosterView{}, err
	}
	v := RosterView{Event: e, Settings: s}
	if v.Staff, err = isStaff(ctx, t.store, actor, eventID); err != nil {
		return RosterView{}, err
	}
	if v.Staff {
		v.CanEdit = office.RequireEventRoleIn(ctx, t.store, actor, eventID, EditRoles...) == nil
	}
	teams, err := t.store.TeamsOfEvent(ctx, eventID)
	if err != nil {
		return RosterView{}, err
	}
	members, err := t.store.TeamMembersOfEvent(ctx, eventID)
	if err != nil {
		return RosterView{}, err
	}
	byTeam := map[int64][]RosterMember{}
	for _, m := range members {
		byTeam[m.TeamID] = append(byTeam[m.TeamID], RosterMember{TeamMemberRow: m, Reserve: m.Position > s.Boards})
	}
	for _, tm := range teams {
		v.Teams = append(v.Teams, TeamView{Team: tm, Members: byTeam[tm.ID]})
	}
	return v, nil
}

// TeamOf reads one team with its roster for the team form (directors).
func (t *Teams) TeamOf(ctx context.Context, actor office.Actor, teamID int64) (TeamView, Settings, error) {
	tm, err := t.store.TeamByID(ctx, teamID)
	if err != nil {
		return TeamView{}, Settings{}, err
	}
	if err := office.RequireEventRoleIn(ctx, t.store, actor, tm.EventID, EditRoles...); err != nil {
		return TeamView{}, Settings{}, err
	}
	te, err := t.store.TeamEventByID(ctx, tm.EventID)
	if err != nil {
		return TeamView{}, Settings{}, err
	}
	members, err := t.store.TeamMembersOfEvent(ctx, tm.EventID)
	if err != nil {
		return TeamView{}, Settings{}, err
	}
	v := TeamView{Team: tm}
	for _, m := range members {
		if m.TeamID == tm.ID {
			v.Members = append(v.Members, RosterMember{TeamMemberRow: m, Reserve: m.Position > te.Boards})
		}
	}
	return v, settingsOf(te), nil
}
