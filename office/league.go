package office

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"kisen/league"
	"kisen/store"
)

// League class statuses: set up (members), drawn (schedule reviewable and
// editable), published (games created, results entered).
const (
	LeagueSetup     = "setup"
	LeagueDrawn     = "drawn"
	LeaguePublished = "published"
)

// JunisenClasses lists the 順位戦 classes from the top.
var JunisenClasses = []string{"A", "B1", "B2", "C1", "C2"}

// leaguePlayerID is how a registered player appears in the league room: the
// player id in decimal, so `kisen draw league` input can be written by hand
// from the registry.
func leaguePlayerID(id int64) string { return strconv.FormatInt(id, 10) }

// playerOfLeagueID reads a league player id back.
func playerOfLeagueID(s string) (int64, bool) {
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil && n > 0
}

// leagueKindOf maps an event kind to the league room's kind.
func leagueKindOf(e store.Event) (league.Kind, error) {
	switch e.Kind {
	case EventJunisenTerm:
		return league.KindJunisen, nil
	case EventLeague:
		return league.KindLeague, nil
	}
	return "", fmt.Errorf("event %d is a %s, not a league: %w", e.ID, e.Kind, ErrInvalid)
}

// classRank orders classes from the top (A first); the league group "" of
// an event of kind league comes first too.
func classRank(c string) int {
	if i := slices.Index(JunisenClasses, c); i >= 0 {
		return i
	}
	return -1
}

// sortClasses puts an event's classes in class order.
func sortClasses(cs []store.LeagueClass) {
	slices.SortFunc(cs, func(a, b store.LeagueClass) int { return classRank(a.Class) - classRank(b.Class) })
}

// requireLeagueView is the one visibility rule (mayViewEvent) for league
// pages.
func requireLeagueView(ctx context.Context, s *store.Store, actor Actor, e store.Event) error {
	return mayViewEvent(ctx, s, actor, e)
}

// CanScheduleLeague reports whether the actor may change the event's
// league (directors and schedulers, administrators).
func (o *Office) CanScheduleLeague(ctx context.Context, actor Actor, eventID int64) bool {
	return o.holdsEventRole(ctx, actor, eventID, RoleDirector, RoleScheduler)
}

// CanEnterLeagueResults reports whether the actor may use the quick result
// form (directors, schedulers, arbiters, recorders).
func (o *Office) CanEnterLeagueResults(ctx context.Context, actor Actor, eventID int64) bool {
	return o.holdsEventRole(ctx, actor, eventID, RoleDirector, RoleScheduler, RoleArbiter, RoleRecorder)
}

// classSettings decodes a class's stored league settings and rules.
func classSettings(c store.LeagueClass) (league.Settings, league.ClassRules, error) {
	var s league.Settings
	var r league.ClassRules
	if err := json.Unmarshal([]byte(c.Settings), &s); err != nil {
		return s, r, fmt.Errorf("league class %d settings: %w", c.ID, err)
	}
	if err := json.Unmarshal([]byte(c.Rules), &r); err != nil {
		return s, r, fmt.Errorf("league class %d rules: %w", c.ID, err)
	}
	return s, r, nil
}

// ClassSchedule decodes a class's stored schedule (empty before the draw).
func ClassSchedule(c store.LeagueClass) (league.Schedule, error) {
	var s league.Schedule
	if c.Schedule == "" || c.Schedule == "{}" {
		return s, nil
	}
	if err := json.Unmarshal([]byte(c.Schedule), &s); err != nil {
		return s, fmt.Errorf("league class %d schedule: %w", c.ID, err)
	}
	return s, nil
}

// ClassReport decodes a class's stored constraint report.
func ClassReport(c store.LeagueClass) league.Report {
	var r league.Report
	_ = json.Unmarshal([]byte(c.Report), &r) // written only by office; bad JSON reads as no report
	return r
}

// ClassRoundDates decodes a class's round dates (index 0 is round 1).
func ClassRoundDates(c store.LeagueClass) [][]string {
	var ds [][]string
	_ = json.Unmarshal([]byte(c.RoundDates), &ds) // written only by office
	return ds
}

// playerIndex finds registry players by federation number, by exact
// name, or — when neither is found — by the name or reading as FoldName
// compares them (spaces, katakana and 異体字 ignored; issue 23 §1), for
// the member list, the history import and pasted entrants.
type playerIndex struct {
	byNumber  map[string]store.Player
	byName    map[string][]store.Player
	byFolded  map[string][]store.Player // FoldName of the name
	byReading map[string][]store.Player // FoldName of the reading
}

func loadPlayerIndex(ctx context.Context, s *store.Store) (playerIndex, error) {
	all, err := s.AllPlayers(ctx)
	if err != nil {
		return playerIndex{}, err
	}
	ix := playerIndex{byNumber: map[string]store.Player{}, byName: map[string][]store.Player{},
		byFolded: map[string][]store.Player{}, byReading: map[string][]store.Player{}}
	for _, p := range all {
		if p.Number != nil {
			ix.byNumber[*p.Number] = p
		}
		ix.byName[p.Name] = append(ix.byName[p.Name], p)
		ix.byFolded[FoldName(p.Name)] = append(ix.byFolded[FoldName(p.Name)], p)
		if p.Reading != "" {
			ix.byReading[FoldName(p.Reading)] = append(ix.byReading[FoldName(p.Reading)], p)
		}
	}
	return ix, nil
}

// find resolves a number or a name; code is the message id when it fails.
// An exact name comes first; then the folded name, then the folded
// reading, each only when it names one player.
func (ix playerIndex) find(ref string) (store.Player, string) {
	ref = strings.TrimSpace(ref)
	if p, ok := ix.byNumber[ref]; ok {
		return p, ""
	}
	if ps := ix.byName[ref]; len(ps) == 1 {
		return ps[0], ""
	} else if len(ps) > 1 {
		return store.Player{}, "league.err.player_ambiguous"
	}
	f := FoldName(ref)
	for _, ps := range [][]store.Player{ix.byFolded[f], ix.byReading[f]} {
		switch len(ps) {
		case 0:
			continue
		case 1:
			return ps[0], ""
		default:
			return store.Player{}, "league.err.player_ambiguous"
		}
	}
	return store.Player{}, "league.err.player_unknown"
}

// candidates are the players a reference could mean (exact or folded
// name, folded reading), by reading, at most max — the suggestion an
// ambiguous pasted line names.
func (ix playerIndex) candidates(ref string, limit int) []store.Player {
	ref = strings.TrimSpace(ref)
	f := FoldName(ref)
	seen := map[int64]bool{}
	var out []store.Player
	for _, ps := range [][]store.Player{ix.byName[ref], ix.byFolded[f], ix.byReading[f]} {
		for _, p := range ps {
			if !seen[p.ID] {
				seen[p.ID] = true
				out = append(out, p)
			}
		}
	}
	slices.SortFunc(out, func(a, b store.Player) int { return strings.Compare(a.Reading+a.Name, b.Reading+b.Name) })
	if len(out) > limit {
		out = out[:limit]
	}
	return out
}
