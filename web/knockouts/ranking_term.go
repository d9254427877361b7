package knockouts

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/web/site"
)

// The next term of a ranking event (issue 24 item 8, D-G5,
// docs/ranking-groups.md): administrators preview, in players' names,
// who stays in each group, who goes up and down and who joins, choose
// the new entrants from the player registry, and confirm; the
// confirmation carries the preview's fingerprint (a term changed since:
// 409 with the fresh preview). Everyone else is told the page is not
// there, like a missing event (office.RankingTermEvent).

// RankingTermRoutes: the roll-over's preview and confirmation.
func (s *Room) RankingTermRoutes(e *echo.Echo) {
	e.GET("/events/:id/ranking-term", s.rankingTermPage)
	e.POST("/events/:id/ranking-term", s.rankingTermConfirm)
	e.GET("/events/:id/ranking", s.rankingOutcomesPage) // ranking_outcomes.go
}

// termGroupView is one group of the term in words: who stays, who goes up
// to the group above, who goes down to the group below, who joins, and the
// next term's count of members.
type termGroupView struct {
	Group     int
	Name      string // the group's stage name (「1組」)
	Stays     []string
	Up        []string
	Down      []string
	Joining   []string
	NextCount int
}

// termEventForm is the new event's name and dates (the confirmation's
// fields), first filled from the term being rolled over.
type termEventForm struct {
	Name, NameEn, StartDate, EndDate string
}

type rankingTermView struct {
	EventID   int64
	EventName string
	// Groups is the preview; empty when the term cannot be rolled over
	// (a group still playing) or the new entrants were refused.
	Groups      []termGroupView
	Fingerprint string
	Chosen      []site.Choice // the new entrants chosen (player id, name)
	Query       string
	Found       []site.Choice // registry players matching Query, not chosen
	Searched    bool
	Form        termEventForm
	Stale       bool // the confirmation's fingerprint was not the term's
}

// termChosen reads the new entrants posted (new, one value each, in the
// order chosen, each once). ok is false when a value is no player id.
func termChosen(vals []string) (ids []int64, ok bool) {
	ok = true
	seen := map[int64]bool{}
	for _, v := range vals {
		v = strings.TrimSpace(v)
		if v == "" {
			continue
		}
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil || id <= 0 {
			ok = false
			continue
		}
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	return ids, ok
}

// nextYear moves a YYYY-MM-DD date one year on ("" when it is none).
func nextYear(d string) string {
	t, err := time.Parse(office.DateLayout, d)
	if err != nil {
		return ""
	}
	return t.AddDate(1, 0, 0).Format(office.DateLayout)
}

// rankingTermPage (GET /events/:id/ranking-term?new=…&q=…): the preview
// with the new entrants chosen and, with q, registry players to add.
func (s *Room) rankingTermPage(c echo.Context) error {
	id, err := site.PathParam(c, "id")
	if err != nil {
		return err
	}
	q := c.QueryParams()
	ids, ok := termChosen(q["new"])
	return s.renderRankingTerm(c, id, ids, ok, strings.TrimSpace(q.Get("q")), nil, nil)
}

// rankingTermConfirm (POST /events/:id/ranking-term): the roll-over
// (office.RollOverRanking), then the new event.
func (s *Room) rankingTermConfirm(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathParam(c, "id")
	if err != nil {
		return err
	}
	a := site.Actor(c)
	// Who may see the page is decided before the form is read: anyone
	// else gets 404 whatever they post.
	e, err := s.Office.RankingTermEvent(ctx, a, id)
	if err != nil {
		return err
	}
	f, _ := c.FormParams()
	ids, ok := termChosen(f["new"])
	form := &termEventForm{Name: strings.TrimSpace(f.Get("name")), NameEn: strings.TrimSpace(f.Get("name_en")),
		StartDate: strings.TrimSpace(f.Get("start_date")), EndDate: strings.TrimSpace(f.Get("end_date"))}
	if !ok {
		return s.renderRankingTerm(c, id, ids, false, "", form, nil)
	}
	in := office.RankingTermInput{
		Event:       office.EventInput{OrganiserID: e.OrganiserID, Name: form.Name, NameEn: form.NameEn, StartDate: form.StartDate, EndDate: form.EndDate, Venue: e.Venue},
		NewEntrants: ids, Fingerprint: f.Get("fingerprint"),
	}
	ne, err := s.Office.RollOverRanking(ctx, a, id, in)
	switch {
	case errors.Is(err, office.ErrConflict):
		return s.renderRankingTerm(c, id, ids, true, "", form, &termRefusal{stale: true})
	case err != nil:
		if msgs, isInput := site.FieldMsgsOf(ctx, err); isInput {
			return s.renderRankingTerm(c, id, ids, true, "", form, &termRefusal{msgs: msgs})
		}
		return err
	}
	return site.SeeOther(c, "/events/"+strconv.FormatInt(ne.ID, 10))
}

// termRefusal is why a confirmation was refused: a stale fingerprint, or
// messages on the event's fields.
type termRefusal struct {
	stale bool
	msgs  site.FieldMsgs
}

// renderRankingTerm reads the preview for ids and renders the page: 200;
// 422 when the new entrants (or, after a confirmation, the new event's
// fields) are refused; 409 after a stale confirmation, with the fresh
// preview.
func (s *Room) renderRankingTerm(c echo.Context, id int64, ids []int64, idsOK bool, query string, form *termEventForm, refused *termRefusal) error {
	ctx := c.Request().Context()
	a := site.Actor(c)
	e, err := s.Office.RankingTermEvent(ctx, a, id)
	if err != nil {
		return err
	}
	site.MarkDraft(c, office.IsDraft(e))
	v := rankingTermView{EventID: id, EventName: site.LocalName(ctx, e.Name, e.NameEn), Query: query}
	if form != nil {
		v.Form = *form
	} else {
		v.Form = termEventForm{Name: e.Name, NameEn: e.NameEn, StartDate: nextYear(e.StartDate), EndDate: nextYear(e.EndDate)}
	}
	status := http.StatusOK
	errs := site.FieldMsgs{}
	if !idsOK {
		errs["new_entrants"] = site.T(ctx, "knockout.err.player")
		status = http.StatusUnprocessableEntity
	}
	term, previewErr := s.Office.PreviewRankingTerm(ctx, a, id, ids)
	if msgs, isInput := site.FieldMsgsOf(ctx, previewErr); isInput {
		for k, m := range msgs {
			if errs[k] == "" {
				errs[k] = m
			}
		}
		if msgs["new_entrants"] != "" {
			status = http.StatusUnprocessableEntity
		}
	} else if previewErr != nil {
		return previewErr
	}
	// Every name the page shows, in one read: the term's members, the
	// chosen entrants (even one the office refused, to be taken off).
	var all []int64
	for _, g := range term.Groups {
		all = append(all, g.Members...)
	}
	all = append(all, ids...)
	ps, err := s.Office.PlayersByIDs(ctx, all)
	if err != nil {
		return err
	}
	name := func(pid int64) string {
		if p, ok := ps[pid]; ok {
			return p.Name
		}
		return site.T(ctx, "knockout.term.unknown_player")
	}
	chosen := map[int64]bool{}
	for _, pid := range ids {
		chosen[pid] = true
		v.Chosen = append(v.Chosen, site.Choice{Value: strconv.FormatInt(pid, 10), Label: name(pid)})
	}
	if idsOK && previewErr == nil {
		v.Fingerprint = term.Fingerprint
		v.Groups = termGroups(ctx, term, name)
	}
	inTerm := map[int64]bool{}
	for _, g := range term.Groups {
		for _, pid := range g.Members {
			inTerm[pid] = true
		}
	}
	if query != "" {
		found, err := s.Office.PlayerChoices(ctx, query, 20)
		if err != nil {
			return err
		}
		v.Searched = true
		for _, p := range found {
			if !chosen[p.ID] && !inTerm[p.ID] {
				v.Found = append(v.Found, site.Choice{Value: strconv.FormatInt(p.ID, 10), Label: p.Name + " " + site.RankLabel(ctx, p.Rank)})
			}
		}
	}
	if refused != nil {
		switch {
		case refused.stale:
			status = http.StatusConflict
			v.Stale = true
		case len(refused.msgs) > 0:
			status = http.StatusUnprocessableEntity
			for k, m := range refused.msgs {
				errs[k] = m
			}
		}
	}
	if status == http.StatusOK && len(errs) > 0 && refused != nil {
		status = http.StatusUnprocessableEntity
	}
	title := v.EventName + " — " + site.T(ctx, "knockout.term.title")
	return s.Render(c, status, RankingTermPage(s.Page(c, title), v, errs))
}

// termGroups says the term per group: of each group's players, who stays,
// who goes up (to the group above) and who goes down (to the group below);
// the new entrants join the lowest group (From 0).
func termGroups(ctx context.Context, term office.RankingTerm, name func(int64) string) []termGroupView {
	out := make([]termGroupView, len(term.Groups))
	for i, g := range term.Groups {
		out[i] = termGroupView{Group: g.Group, Name: site.StageName(ctx, g.From.Name, g.From.NameEn, g.From.Kind), NextCount: len(g.Members)}
	}
	for _, m := range term.Moves {
		pid, err := strconv.ParseInt(m.Player, 10, 64) // an entrant id is the player's
		if err != nil {
			continue
		}
		n := name(pid)
		switch {
		case m.From == 0 && m.To >= 1 && m.To <= len(out):
			out[m.To-1].Joining = append(out[m.To-1].Joining, n)
		case m.From < 1 || m.From > len(out):
		case m.To == m.From:
			out[m.From-1].Stays = append(out[m.From-1].Stays, n)
		case m.To < m.From:
			out[m.From-1].Up = append(out[m.From-1].Up, n)
		default:
			out[m.From-1].Down = append(out[m.From-1].Down, n)
		}
	}
	return out
}

// rankingTermQuery is the page's address with the chosen entrants (the
// search form's and the links' base).
func rankingTermQuery(eventID int64, chosen []site.Choice) string {
	q := url.Values{}
	for _, c := range chosen {
		q.Add("new", c.Value)
	}
	u := "/events/" + strconv.FormatInt(eventID, 10) + "/ranking-term"
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	return u
}
