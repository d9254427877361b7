package players

import (
	"context"
	"errors"
	"net/url"
	"strconv"

	"kisen/office"
	"kisen/web/site"
)

// playerRow is one player as pages show it.
type playerRow struct {
	ID          int64
	URL         string
	Name        string
	Reading     string
	Kind        office.PlayerKind
	Rank        string
	Class       office.PlayerClass
	Affiliation string
	Number      string
	BirthDate   string
}

func playerRowOf(p office.Player) playerRow {
	return playerRow{
		ID: p.ID, URL: site.PlayerURL(p.ID), Name: p.Name, Reading: p.Reading, Kind: p.Kind, Rank: p.Rank,
		Class: p.Class, Affiliation: p.Affiliation, Number: p.NumberOrEmpty(), BirthDate: p.BirthDate.String(),
	}
}

// playerListView is the player list and its search.
type playerListView struct {
	Query   string
	Rows    []playerRow
	Total   int64
	Page    int
	Pages   int
	PrevURL string
	NextURL string
	CanEdit bool
}

func playerListViewOf(pg office.PlayerPage, canEdit bool) playerListView {
	v := playerListView{Query: pg.Query, Total: pg.Total, Page: pg.Page, Pages: pg.Pages, CanEdit: canEdit}
	for _, p := range pg.Players {
		v.Rows = append(v.Rows, playerRowOf(p))
	}
	pageURL := func(n int) string {
		q := url.Values{}
		if pg.Query != "" {
			q.Set("q", pg.Query)
		}
		if n > 1 {
			q.Set("page", strconv.Itoa(n))
		}
		if len(q) == 0 {
			return "/players"
		}
		return "/players?" + q.Encode()
	}
	if pg.Page > 1 {
		v.PrevURL = pageURL(pg.Page - 1)
	}
	if pg.Page < pg.Pages {
		v.NextURL = pageURL(pg.Page + 1)
	}
	return v
}

// lineageItem is one person in a lineage with the period that links them.
type lineageItem struct {
	URL     string // "" for a teacher outside the registry
	Name    string
	Reading string
	From    string
	To      string // "" while the period is open
}

// playerDetailView is a player's page.
type playerDetailView struct {
	Player    playerRow
	On        string
	Master    *lineageItem
	Disciples []lineageItem
	Fellows   []lineageItem
	History   []lineageItem // this player's masters over time
	Taught    []lineageItem // this player's disciples over time
	CanEdit   bool
}

func playerDetailViewOf(p office.Player, l office.PlayerLineage, canEdit bool) playerDetailView {
	master := func(m office.PlayerMaster) lineageItem {
		it := lineageItem{Name: m.TeacherName, Reading: m.TeacherReading, From: m.FromDate.String(), To: m.ToDate.String()}
		if m.MasterPlayerID != nil {
			mp := l.People[*m.MasterPlayerID]
			it.URL, it.Name, it.Reading = site.PlayerURL(mp.ID), mp.Name, mp.Reading
		}
		return it
	}
	disciple := func(m office.PlayerMaster) lineageItem {
		dp := l.People[m.DiscipleID]
		return lineageItem{URL: site.PlayerURL(dp.ID), Name: dp.Name, Reading: dp.Reading, From: m.FromDate.String(), To: m.ToDate.String()}
	}
	v := playerDetailView{Player: playerRowOf(p), On: l.On.String(), CanEdit: canEdit}
	if l.Master != nil {
		m := master(*l.Master)
		v.Master = &m
	}
	for _, m := range l.Disciples {
		v.Disciples = append(v.Disciples, disciple(m))
	}
	for _, m := range l.Fellows {
		v.Fellows = append(v.Fellows, disciple(m))
	}
	for _, m := range l.History {
		v.History = append(v.History, master(m))
	}
	for _, m := range l.Taught {
		v.Taught = append(v.Taught, disciple(m))
	}
	return v
}

// playerErrs maps a form field to its message, already in the user's
// language.
type playerErrs map[string]string

// playerErrsOf translates a validation error's field messages; ok is false
// when err is not a validation error.
func playerErrsOf(ctx context.Context, err error) (playerErrs, bool) {
	var ve *office.ValidationError
	if !errors.As(err, &ve) {
		return nil, false
	}
	lz := site.L(ctx)
	out := playerErrs{}
	for _, f := range ve.Fields {
		if _, seen := out[f.Field]; !seen {
			out[f.Field] = lz.TData(f.Code, site.WordArgs(ctx, f.Args))
		}
	}
	return out, true
}

// csvProblem is one bad row of an import, translated.
type csvProblem struct {
	Line    int
	Column  string
	Message string
}

func csvProblemsOf(ctx context.Context, err error) ([]csvProblem, bool) {
	var ve *office.ValidationError
	if !errors.As(err, &ve) {
		return nil, false
	}
	lz := site.L(ctx)
	out := make([]csvProblem, 0, len(ve.Fields))
	for _, f := range ve.Fields {
		out = append(out, csvProblem{Line: f.Line, Column: f.Field, Message: lz.TData(f.Code, site.WordArgs(ctx, f.Args))})
	}
	return out, true
}

// playerKindLabel names a kind in the user's language.
func PlayerKindLabel(ctx context.Context, k office.PlayerKind) string {
	switch k {
	case office.PlayerProfessional:
		return site.T(ctx, "players.kind.professional")
	case office.PlayerWomens:
		return site.T(ctx, "players.kind.womens")
	case office.PlayerShoreikai:
		return site.T(ctx, "players.kind.shoreikai")
	case office.PlayerAmateur:
		return site.T(ctx, "players.kind.amateur")
	}
	return string(k)
}

// playerClassLabel names a 順位戦 class in the user's language.
func playerClassLabel(ctx context.Context, c office.PlayerClass) string {
	switch c {
	case office.PlayerClassA:
		return site.T(ctx, "players.class.a")
	case office.PlayerClassB1:
		return site.T(ctx, "players.class.b1")
	case office.PlayerClassB2:
		return site.T(ctx, "players.class.b2")
	case office.PlayerClassC1:
		return site.T(ctx, "players.class.c1")
	case office.PlayerClassC2:
		return site.T(ctx, "players.class.c2")
	case office.PlayerClassFree:
		return site.T(ctx, "players.class.free")
	}
	return ""
}

// playerPeriod shows a period as "from – to" or "from – present".
func playerPeriod(ctx context.Context, it lineageItem) string {
	if it.To == "" {
		return site.T(ctx, "players.lineage.since", "From", it.From)
	}
	return site.T(ctx, "players.lineage.period", "From", it.From, "To", it.To)
}
