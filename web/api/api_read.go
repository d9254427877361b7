package api

import (
	"cmp"
	"context"
	"maps"
	"math"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"kisen/league"
	"kisen/office"
	"kisen/office/day"
	"kisen/office/ratings"
	"kisen/pairing"
	"kisen/web/site"
)

// The read handlers of the API. Each reads through the office functions
// its page uses, so an event, stage or class is visible exactly when its
// page is (office/visibility.go); lists read a fixed number of statements
// whatever their size (querycount_test.go).

var timeZero time.Time

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

func idPtr(id int64) *int64 {
	if id == 0 {
		return nil
	}
	return &id
}

// apiEventsVisible is the event list the actor may read: the public's,
// and a read_drafts token's own event.
func (s *Room) apiEventsVisible(ctx context.Context, a office.Actor) ([]office.Event, error) {
	es, err := s.Office.Events(ctx, a)
	if err != nil {
		return nil, err
	}
	if a.Token != nil && a.Token.Scope == office.ScopeReadDrafts {
		if e, err := s.Office.Event(ctx, a, a.Token.EventID); err == nil && office.IsDraft(e) {
			es = append([]office.Event{e}, es...)
		}
	}
	return es, nil
}

func APIEventOf(e office.Event) APIEvent {
	return APIEvent{ID: e.ID, OrganiserID: e.OrganiserID, Name: e.Name, NameEn: e.NameEn, Kind: e.Kind, StartDate: e.StartDate,
		EndDate: e.EndDate, Venue: e.Venue, Status: e.Status, URL: "/events/" + site.I64(e.ID)}
}

// apiOrganisersVisible: an organiser is public through its public events
// (there is no public organiser page; its name is on every event page).
func (s *Room) apiOrganisersVisible(ctx context.Context, a office.Actor) ([]APIOrganiser, error) {
	es, err := s.apiEventsVisible(ctx, a)
	if err != nil {
		return nil, err
	}
	shown, err := s.Office.OrganisersOf(ctx, es)
	if err != nil {
		return nil, err
	}
	out := []APIOrganiser{}
	for _, o := range shown {
		out = append(out, APIOrganiser{ID: o.ID, Name: o.Name, NameEn: o.NameEn})
	}
	slices.SortFunc(out, func(x, y APIOrganiser) int { return cmp.Compare(x.ID, y.ID) })
	return out, nil
}

func (s *Room) apiOrganisers(c echo.Context) error {
	p, err := s.apiPaging(c, "organisers", 1)
	if err != nil {
		return err
	}
	var afterID int64
	if p.after != nil {
		if afterID, err = cursorID(p.after[0]); err != nil {
			return err
		}
	}
	all, err := s.apiOrganisersVisible(c.Request().Context(), site.Actor(c))
	if err != nil {
		return err
	}
	items, next := keysetPage(all, p, "organisers", func(o APIOrganiser) bool { return o.ID > afterID },
		func(o APIOrganiser) []string { return []string{site.I64(o.ID)} })
	return s.apiJSON(c, 200, APIOrganiserList{Items: items, NextCursor: next})
}

func (s *Room) apiOrganiser(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	all, err := s.apiOrganisersVisible(c.Request().Context(), site.Actor(c))
	if err != nil {
		return err
	}
	for _, o := range all {
		if o.ID == id {
			return s.apiJSON(c, 200, o)
		}
	}
	return office.ErrNotFound
}

func (s *Room) apiEvents(c echo.Context) error {
	p, err := s.apiPaging(c, "events", 2)
	if err != nil {
		return err
	}
	// Newest start first, then the higher id (the store's order, made
	// explicit: a read_drafts token's draft is added to the list).
	var afterDate string
	var afterID int64
	if p.after != nil {
		afterDate = p.after[0]
		if afterID, err = cursorID(p.after[1]); err != nil {
			return err
		}
		if _, derr := time.Parse(office.DateLayout, afterDate); derr != nil {
			return &apiBadCursor{"date"}
		}
	}
	var org int64
	if v := c.QueryParam("organiser_id"); v != "" {
		if org, err = strconv.ParseInt(v, 10, 64); err != nil || org <= 0 {
			ve := &office.ValidationError{}
			ve.Add(0, "organiser_id", "api.err.id", nil)
			return ve
		}
	}
	es, err := s.apiEventsVisible(c.Request().Context(), site.Actor(c))
	if err != nil {
		return err
	}
	ids := make([]int64, 0, len(es))
	for _, e := range es {
		ids = append(ids, e.ID)
	}
	days, err := s.Office.DayEventIDs(c.Request().Context(), ids) // one statement: kind "day" (api_day.go)
	if err != nil {
		return err
	}
	all := []APIEvent{}
	for _, e := range es {
		if org == 0 || e.OrganiserID == org {
			ev := APIEventOf(e)
			ev.Kind = apiEventKind(e, days[e.ID])
			all = append(all, ev)
		}
	}
	slices.SortStableFunc(all, func(x, y APIEvent) int {
		return cmp.Or(cmp.Compare(y.StartDate, x.StartDate), cmp.Compare(y.ID, x.ID))
	})
	items, next := keysetPage(all, p, "events",
		func(e APIEvent) bool { return e.StartDate < afterDate || e.StartDate == afterDate && e.ID < afterID },
		func(e APIEvent) []string { return []string{e.StartDate, site.I64(e.ID)} })
	return s.apiJSON(c, 200, APIEventList{Items: items, NextCursor: next})
}

func (s *Room) apiEvent(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	if done, err := s.apiNotModified(c, func(context.Context) (int64, error) { return id, nil }); done || err != nil {
		return err
	}
	e, err := s.Office.Event(c.Request().Context(), site.Actor(c), id)
	if err != nil {
		return err
	}
	isDay, err := s.DayRoom().IsDay(c.Request().Context(), id)
	if err != nil {
		return err
	}
	ev := APIEventOf(e)
	ev.Kind = apiEventKind(e, isDay)
	return s.apiJSON(c, 200, ev)
}

func (s *Room) apiStages(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	if done, err := s.apiNotModified(c, func(context.Context) (int64, error) { return id, nil }); done || err != nil {
		return err
	}
	eb, err := s.Office.EventBrackets(c.Request().Context(), site.Actor(c), id)
	if err != nil {
		return err
	}
	entrant := func(eid string) APIEntrant {
		if pid, err := strconv.ParseInt(eid, 10, 64); err == nil && pid > 0 {
			return APIEntrant{PlayerID: &pid, Name: eb.PlayerName(eid)}
		}
		return APIEntrant{}
	}
	ref := func(pid int64) *APIPlayerRef {
		if pid == 0 {
			return nil
		}
		return &APIPlayerRef{ID: pid, Name: eb.Players[pid].Name}
	}
	ctx := c.Request().Context()
	game := func(g office.BracketGame, name pairing.RoundName) APIBracketGame {
		out := APIBracketGame{ID: g.ID, Round: g.Round, RoundName: string(name.Kind), RoundLabel: site.RoundWords(ctx, name), Index: g.Index, Status: string(g.Status), Forfeit: g.Kind == "forfeit",
			Players: []APIEntrant{entrant(g.Players[0]), entrant(g.Players[1])}, GameID: idPtr(g.GameID),
			DecidingGameID: idPtr(g.DecidingGameID), Sente: ref(g.SenteID), Gote: ref(g.GoteID), Result: g.Result, Reason: g.Reason,
			Redos: g.Redos, ScheduledOn: g.ScheduledOn, Handicap: g.Handicap, Version: g.Version}
		if g.Winner != "" {
			w := entrant(g.Winner)
			out.Winner = &w
		}
		return out
	}
	out := APIStageList{EventID: id, Items: []APIStage{}}
	for _, sb := range eb.Stages {
		if sb.Stage.Status != office.StagePublished {
			continue // what the public page shows, whoever reads
		}
		st := APIStage{ID: sb.Stage.ID, Name: sb.Stage.Name, NameEn: sb.Stage.NameEn, Kind: sb.Stage.Kind, Status: sb.Stage.Status,
			BestOf: sb.Stage.BestOf, Finished: sb.Finished, Rounds: [][]APIBracketGame{}, CSVURL: "/stages/" + site.I64(sb.Stage.ID) + "/csv"}
		for i, r := range sb.Rounds {
			row := []APIBracketGame{}
			name := pairing.NameRound(i+1, len(sb.Rounds), sb.Stage.Qualifiers)
			for _, g := range r {
				row = append(row, game(g, name))
			}
			st.Rounds = append(st.Rounds, row)
		}
		if sb.ThirdPlace != nil {
			g := game(*sb.ThirdPlace, pairing.ThirdPlaceRound())
			st.ThirdPlace = &g
		}
		if sb.Champion != "" {
			ch := entrant(sb.Champion)
			st.Champion = &ch
		}
		out.Items = append(out.Items, st)
	}
	return s.apiJSON(c, 200, out)
}

func (s *Room) apiLeague(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	if done, err := s.apiNotModified(c, func(context.Context) (int64, error) { return id, nil }); done || err != nil {
		return err
	}
	lo, err := s.Office.League(c.Request().Context(), site.Actor(c), id)
	if err != nil {
		return err
	}
	out := APIClassList{EventID: id, Items: []APIClass{}}
	for _, cl := range lo.Classes {
		out.Items = append(out.Items, APIClass{ID: cl.ID, EventID: id, Class: cl.Class, Status: cl.Status, Members: lo.Counts[cl.ID],
			URL: APIPrefix + "/league-classes/" + site.I64(cl.ID)})
	}
	return s.apiJSON(c, 200, out)
}

var markNames = map[league.MarkState]string{league.MarkHidden: "hidden", league.MarkProvisional: "provisional", league.MarkDecided: "decided"}

func (s *Room) apiClass(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	if done, err := s.apiNotModified(c, s.EventOfClass(site.Actor(c), id)); done || err != nil {
		return err
	}
	st, err := s.Office.Standings(c.Request().Context(), site.Actor(c), id)
	if err != nil {
		return err
	}
	out := APIClassDetail{ID: id, EventID: st.Event.ID, Class: st.Class.Class, Status: st.Class.Status, Final: st.Table.Final,
		Rounds: []APIRound{}, Standings: []APIStandingRow{}, URL: "/league/" + site.I64(id)}
	for _, r := range st.Schedule.Rounds {
		rd := APIRound{Number: r.Number}
		if !r.Date.IsZero() {
			rd.Date = r.Date.Format(office.DateLayout)
		}
		out.Rounds = append(out.Rounds, rd)
	}
	for _, r := range st.Rows {
		row := APIStandingRow{Place: r.Row.Place, Junni: r.Row.Junni, Player: APIPlayerRef{ID: r.PlayerID, Name: st.Players[r.PlayerID].Name},
			Wins: r.Row.Wins, Losses: r.Row.Losses, Rests: r.Row.Rests, Unplayed: r.Row.Unplayed, Points: r.PointsBefore,
			Marks: markNames[r.Mark], Cells: []APILeagueCell{}}
		if r.Mark == league.MarkDecided {
			row.Points = r.Row.Points
		}
		if r.Mark != league.MarkHidden {
			row.Outcome = string(r.Row.Outcome)
		}
		for i, cell := range r.Cells {
			row.Cells = append(row.Cells, APILeagueCell{Round: i + 1, Rest: cell.Rest, OpponentID: idPtr(cell.Opponent), Sente: cell.Sente,
				Result: cell.Result, GameID: idPtr(cell.GameID), Date: cell.Date})
		}
		out.Standings = append(out.Standings, row)
	}
	return s.apiJSON(c, 200, out)
}

func (s *Room) apiGames(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	p, err := s.apiPaging(c, "games", 1)
	if err != nil {
		return err
	}
	var afterID int64
	if p.after != nil {
		if afterID, err = cursorID(p.after[0]); err != nil {
			return err
		}
	}
	if done, err := s.apiNotModified(c, func(context.Context) (int64, error) { return id, nil }); done || err != nil {
		return err
	}
	ctx := c.Request().Context()
	if _, err := s.Office.Event(ctx, site.Actor(c), id); err != nil {
		return err
	}
	// One set read for every game and one for the players named, as the
	// games page (games.go): a fixed number of statements.
	gs, hidden, err := s.Office.EventGames(ctx, site.Actor(c), id) // hidden: unpublished stages' and classes' games
	if err != nil {
		return err
	}
	games := slices.SortedFunc(maps.Values(gs.Games), func(x, y office.Game) int { return cmp.Compare(x.ID, y.ID) })
	games = slices.DeleteFunc(games, func(g office.Game) bool { return hidden[g.ID] })
	page, next := keysetPage(games, p, "games", func(g office.Game) bool { return g.ID > afterID },
		func(g office.Game) []string { return []string{site.I64(g.ID)} })
	var pids []int64
	for _, g := range page {
		for _, pid := range []*int64{g.SentePlayerID, g.GotePlayerID} {
			if pid != nil {
				pids = append(pids, *pid)
			}
		}
	}
	players, err := s.Office.PlayersByIDs(ctx, pids)
	if err != nil {
		return err
	}
	out := APIGameList{Items: []APIGameSummary{}, NextCursor: next}
	for _, g := range page {
		it := APIGameSummary{ID: g.ID, EventID: g.EventID, Label: g.Label, Sente: apiPlayerRef(players, g.SentePlayerID),
			Gote: apiPlayerRef(players, g.GotePlayerID), RedoOf: g.RedoOfID, Void: gs.Void[g.ID]}
		if g.ScheduledOn != nil {
			it.ScheduledOn = *g.ScheduledOn
		}
		if eff, ok := gs.Effective(g.ID); ok {
			it.Result, it.Reason = eff.Result, eff.Reason
		}
		if lv, ok := gs.Latest(g.ID); ok {
			it.Version = lv.Version
		}
		out.Items = append(out.Items, it)
	}
	return s.apiJSON(c, 200, out)
}

func apiPlayerRef(ps map[int64]office.Player, id *int64) *APIPlayerRef {
	if id == nil {
		return nil
	}
	return &APIPlayerRef{ID: *id, Name: ps[*id].Name}
}

func apiResultVersion(h office.ResultVersion, names map[int64]string, inForce bool) APIResultVersion {
	return APIResultVersion{Version: h.Version, Result: h.Result, Reason: h.Reason, Note: h.Note, EnteredBy: names[h.EnteredBy],
		EnteredVia: h.EnteredVia, EnteredAt: h.EnteredAt.UTC(), Confirmed: h.Confirmed(), ConfirmedAt: utcPtr(h.ConfirmedAt), ConfirmedVia: site.Deref(h.ConfirmedVia),
		InForce: inForce}
}

func (s *Room) apiGame(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	if done, err := s.apiNotModified(c, s.EventOfGame(site.Actor(c), id)); done || err != nil {
		return err
	}
	g, err := s.apiGameOf(c.Request().Context(), site.Actor(c), id)
	if err != nil {
		return err
	}
	return s.apiJSON(c, 200, g)
}

// apiGameOf is the game resource, read as the game page reads it.
func (s *Room) apiGameOf(ctx context.Context, a office.Actor, id int64) (APIGame, error) {
	g, _, err := s.Office.Game(ctx, a, id) // the game page's rule
	if err != nil {
		return APIGame{}, err
	}
	return s.apiGameBody(ctx, g)
}

// apiGameBody is the game's answer once the actor may see it.
func (s *Room) apiGameBody(ctx context.Context, g office.Game) (APIGame, error) {
	var pids []int64
	for _, p := range []*int64{g.SentePlayerID, g.GotePlayerID} {
		if p != nil {
			pids = append(pids, *p)
		}
	}
	players, err := s.Office.PlayersByIDs(ctx, pids)
	if err != nil {
		return APIGame{}, err
	}
	out := APIGame{ID: g.ID, EventID: g.EventID, Label: g.Label, Sente: apiPlayerRef(players, g.SentePlayerID), Gote: apiPlayerRef(players, g.GotePlayerID),
		Handicap: g.Handicap, RedoOf: g.RedoOfID, RedoNumber: g.RedoNumber, Redos: []int64{}, History: []APIResultVersion{}, Moves: []string{},
		Links: APIGameLinks{HTML: site.GameURL(g.ID), KIF: site.GameURL(g.ID) + "/record.kif", CSA: site.GameURL(g.ID) + "/record.csa", USI: site.GameURL(g.ID) + "/record.usi"}}
	if g.ScheduledOn != nil {
		out.ScheduledOn = *g.ScheduledOn
	}
	redos, err := s.Office.RedoGames(ctx, g.ID)
	if err != nil {
		return out, err
	}
	for _, r := range redos {
		out.Redos = append(out.Redos, r.ID)
	}
	rec, has, err := s.Office.LatestGameRecordMoves(ctx, g.ID) // the newest version's moves, not its text (issue 21 item 7)
	if err != nil {
		return out, err
	}
	if has {
		out.StartSFEN, out.Plies = rec.StartSFEN, rec.Plies
		if f := strings.Fields(rec.Moves); len(f) > 0 {
			out.Moves = f
		}
	}
	hist, err := s.Office.ResultHistory(ctx, g.ID)
	if err != nil {
		return out, err
	}
	var ids []int64
	for _, h := range hist {
		ids = append(ids, h.EnteredBy)
	}
	names := s.UserNames(ctx, ids...)
	reported, err := s.ReportedResults(ctx, hist)
	if err != nil {
		return out, err
	}
	eff, has := office.EffectiveOf(hist)
	for _, h := range hist {
		v := apiResultVersion(h, names, has && h.ID == eff.ID)
		if src, ok := reported[h.ID]; ok { // the players' report (issue 21 item 5)
			v.EnteredVia = day.ReasonPlayersReport
			if src.ConfirmedBy == nil {
				v.EnteredBy = ""
			}
		}
		out.History = append(out.History, v)
		if v.InForce {
			vv := v
			out.Result = &vv
		}
		out.Version = h.Version
	}
	return out, nil
}

func apiPlayerOf(p office.Player) APIPlayer {
	return APIPlayer{ID: p.ID, Name: p.Name, Reading: p.Reading, Kind: string(p.Kind), Rank: p.Rank, Class: string(p.Class),
		Affiliation: p.Affiliation, Number: p.NumberOrEmpty(), BirthDate: p.BirthDate.String(), URL: site.PlayerURL(p.ID)}
}

func (s *Room) apiPlayers(c echo.Context) error {
	p, err := s.apiPaging(c, "players", 2)
	if err != nil {
		return err
	}
	var after *office.PlayerKey
	if p.after != nil {
		id, err := cursorID(p.after[1])
		if err != nil {
			return err
		}
		after = &office.PlayerKey{Reading: p.after[0], ID: id}
	}
	ps, err := s.Office.PlayersAfter(c.Request().Context(), c.QueryParam("q"), after, p.limit)
	if err != nil {
		return err
	}
	out := APIPlayerList{Items: []APIPlayer{}, NextCursor: nextKeyset(p, "players", len(ps), func() []string {
		last := ps[p.limit-1]
		return []string{last.Reading, site.I64(last.ID)}
	})}
	for _, pl := range ps[:min(len(ps), p.limit)] {
		out.Items = append(out.Items, apiPlayerOf(pl))
	}
	return s.apiJSON(c, 200, out)
}

func (s *Room) apiPlayer(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	p, err := s.Office.Player(c.Request().Context(), id)
	if err != nil {
		return err
	}
	return s.apiJSON(c, 200, apiPlayerOf(p))
}

func (s *Room) apiRatings(c echo.Context) error {
	p, err := s.apiPaging(c, "ratings", 3)
	if err != nil {
		return err
	}
	var after *office.RatedKey
	if p.after != nil {
		r, ferr := strconv.ParseFloat(p.after[0], 64)
		id, err := cursorID(p.after[2])
		if err != nil {
			return err
		}
		if ferr != nil || math.IsNaN(r) || math.IsInf(r, 0) {
			return &apiBadCursor{"rating"}
		}
		after = &office.RatedKey{Rating: r, Reading: p.after[1], ID: id}
	}
	rows, err := s.Players.Ratings().RatingsAfter(c.Request().Context(), ratings.RatingFilter{Query: c.QueryParam("q")}, after, p.limit)
	if err != nil {
		return err
	}
	out := APIRatingList{Items: []APIRating{}, NextCursor: nextKeyset(p, "ratings", len(rows), func() []string {
		last := rows[p.limit-1]
		return []string{strconv.FormatFloat(last.Rating.Rating, 'g', -1, 64), last.Player.Reading, site.I64(last.Player.ID)}
	})}
	for _, r := range rows[:min(len(rows), p.limit)] {
		out.Items = append(out.Items, APIRating{Place: r.Place, Player: APIPlayerRef{ID: r.Player.ID, Name: r.Player.Name},
			Rating: r.Rating.Rating, RD: r.Rating.RD, Games: r.Rating.Games, Wins: r.Rating.Wins, Losses: r.Rating.Losses,
			LastPlayed: utcPtr(r.Rating.LastPlayed)})
	}
	return s.apiJSON(c, 200, out)
}

// checkStorableJSON applies the one text check of every form
// (storableText, input.go) to the string fields of a decoded body.
func checkStorableJSON(v any) error {
	vals := url.Values{}
	rv := reflect.Indirect(reflect.ValueOf(v))
	if rv.Kind() != reflect.Struct {
		return nil
	}
	for i := range rv.NumField() {
		f := rv.Type().Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if rv.Field(i).Kind() == reflect.String && name != "" {
			vals.Set(name, rv.Field(i).String())
		}
	}
	if field, ok := office.CheckStorableValues(vals); !ok {
		return &site.UnstorableError{Field: field}
	}
	return nil
}
