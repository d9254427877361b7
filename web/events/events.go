package events

import (
	"cmp"
	"context"
	"errors"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/office/teams"
	"kisen/web/day"
	"kisen/web/site"
)

// eventRoutes: organisers and their events.
func (s *Room) EventRoutes(e *echo.Echo) {
	e.GET("/events", s.eventsPage)
	e.POST("/events", s.eventCreate, site.RequireAdmin)
	e.GET("/events/:id", s.eventPage)
	e.GET("/events/:id/stream", s.EventStream)
	e.POST("/events/:id/status", s.eventSetStatus, site.RequireUser)
	e.POST("/events/:id/roles", s.roleGrant, site.RequireUser)
	e.POST("/events/:id/roles/revoke", s.roleRevoke, site.RequireUser)
}

// eventInput is the event form.
type eventInput struct {
	OrganiserID string `form:"organiser_id"`
	Name        string `form:"name"`
	NameEn      string `form:"name_en"`
	Kind        string `form:"kind"`
	StartDate   string `form:"start_date"`
	EndDate     string `form:"end_date"`
	Venue       string `form:"venue"`
}

// eventRow is one line of the events list.
type eventRow struct {
	ID        int64
	Name      string
	Kind      string
	StartDate string
	EndDate   string
	Status    string
}

func (s *Room) eventsPage(c echo.Context) error {
	return s.renderEvents(c, http.StatusOK, eventInput{Kind: office.EventKnockout}, nil)
}

func (s *Room) renderEvents(c echo.Context, status int, in eventInput, errs site.FieldMsgs) error {
	ctx := c.Request().Context()
	a := site.Actor(c)
	evs, err := s.Office.Events(ctx, a)
	if err != nil {
		return err
	}
	rows := make([]eventRow, 0, len(evs))
	ids := make([]int64, 0, len(evs))
	for _, e := range evs {
		ids = append(ids, e.ID)
	}
	days, err := s.Office.DayEventIDs(ctx, ids)
	if err != nil {
		return err
	}
	teamEvents, err := s.Teams.TeamEventIDs(ctx, ids)
	if err != nil {
		return err
	}
	for _, e := range evs {
		kind := e.Kind
		if days[e.ID] {
			kind = day.EventKindDay
		}
		if teamEvents[e.ID] {
			kind = teams.EventKindTeam
		}
		rows = append(rows, eventRow{ID: e.ID, Name: site.LocalName(ctx, e.Name, e.NameEn), Kind: kind,
			StartDate: e.StartDate, EndDate: e.EndDate, Status: e.Status})
	}
	var orgs []site.Choice
	if a.Admin {
		list, err := s.Office.Organisers(ctx, a)
		if err != nil {
			return err
		}
		for _, o := range list {
			orgs = append(orgs, site.Choice{Value: strconv.FormatInt(o.ID, 10), Label: site.LocalName(ctx, o.Name, o.NameEn)})
		}
	}
	return s.Render(c, status, EventsPage(s.Page(c, site.L(ctx).T("events.list.title")), rows, a.Admin, orgs, in, errs))
}

func (s *Room) eventCreate(c echo.Context) error {
	ctx := c.Request().Context()
	var in eventInput
	if err := c.Bind(&in); err != nil {
		return err
	}
	orgID, _ := strconv.ParseInt(in.OrganiserID, 10, 64) // 0 when not chosen: office reports it
	ein := office.EventInput{
		OrganiserID: orgID, Name: in.Name, NameEn: in.NameEn, Kind: in.Kind,
		StartDate: in.StartDate, EndDate: in.EndDate, Venue: in.Venue,
	}
	create := s.Office.CreateEvent
	switch in.Kind {
	case day.EventKindDay: // an amateur day (web/day/day.go)
		create = s.DayRoom().CreateDay
	case teams.EventKindTeam: // a team event (web/teams/), settings on its teams page
		create = func(ctx context.Context, a office.Actor, in office.EventInput) (office.Event, error) {
			return s.Teams.CreateTeamEvent(ctx, a, in, teams.DefaultSettings())
		}
	}
	e, err := create(ctx, site.Actor(c), ein)
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		return s.renderEvents(c, http.StatusUnprocessableEntity, in, msgs)
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, "/events/"+strconv.FormatInt(e.ID, 10))
}

// eventDetail is the view model of one event's page.
type eventDetail struct {
	ID          int64
	Name        string
	OtherName   string // the name in the other language, when there is one
	Organiser   string
	Kind        string
	Day         bool // an amateur day (web/day/day.go): Kind shows as such
	Team        bool // a team event (web/teams/): Kind shows as such
	StartDate   string
	EndDate     string
	Venue       string
	Status      string
	Next        []string // statuses the viewer may move the event to
	ManageRoles bool
	Roles       []roleRow
	Users       []site.Choice
	History     []statusRow
}

// roleRow is one role holder.
type roleRow struct {
	UserID int64
	Login  string
	Name   string
	Role   string
}

// statusRow is one recorded status change.
type statusRow struct {
	From, To, By, At string
}

func (s *Room) eventPage(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	if done, err := s.NotModifiedEvent(c, id); done || err != nil {
		return err
	}
	return s.renderEvent(c, http.StatusOK, id, nil)
}

func (s *Room) renderEvent(c echo.Context, status int, id int64, errs site.FieldMsgs) error {
	ctx := c.Request().Context()
	a := site.Actor(c)
	d, err := s.eventDetail(ctx, a, id)
	if err != nil {
		return err
	}
	site.MarkDraft(c, d.Status == office.StatusDraft)
	return s.Render(c, status, EventPage(s.Page(c, d.Name), d, errs))
}

func (s *Room) eventDetail(ctx context.Context, a office.Actor, id int64) (eventDetail, error) {
	e, err := s.Office.Event(ctx, a, id)
	if err != nil {
		return eventDetail{}, err
	}
	org, err := s.Office.EventOrganiser(ctx, e)
	if err != nil {
		return eventDetail{}, err
	}
	d := eventDetail{ID: e.ID, Name: site.LocalName(ctx, e.Name, e.NameEn), Organiser: site.LocalName(ctx, org.Name, org.NameEn),
		Kind: e.Kind, StartDate: e.StartDate, EndDate: e.EndDate, Venue: e.Venue, Status: e.Status}
	if e.NameEn != "" {
		d.OtherName = e.NameEn
		if d.Name == e.NameEn {
			d.OtherName = e.Name
		}
	}
	if d.Day, err = s.Office.IsDayEvent(ctx, id); err != nil {
		return eventDetail{}, err
	}
	if d.Team, err = s.Teams.IsTeamEvent(ctx, id); err != nil {
		return eventDetail{}, err
	}
	if d.Next, err = s.Office.NextStatuses(ctx, a, e); err != nil {
		return eventDetail{}, err
	}
	holders, err := s.Office.EventRoles(ctx, a, id)
	if err != nil {
		return eventDetail{}, err
	}
	for _, h := range holders {
		d.Roles = append(d.Roles, roleRow{UserID: h.UserID, Login: h.Login, Name: h.DisplayName, Role: h.Role})
	}
	err = s.Office.RequireEventRole(ctx, a, id, office.RoleDirector)
	switch {
	case errors.Is(err, office.ErrForbidden):
		return d, nil
	case err != nil:
		return eventDetail{}, err
	}
	d.ManageRoles = true
	users, err := s.Office.ActiveUsers(ctx, a)
	if err != nil {
		return eventDetail{}, err
	}
	names := map[int64]string{}
	for _, u := range users {
		d.Users = append(d.Users, site.Choice{Value: strconv.FormatInt(u.ID, 10), Label: u.DisplayName + " (" + u.Login + ")"})
		names[u.ID] = cmp.Or(u.DisplayName, u.Login) // the person, not the login (issue 24 item 3)
	}
	changes, err := s.Office.EventStatusChanges(ctx, a, id)
	if err != nil {
		return eventDetail{}, err
	}
	for _, ch := range changes {
		by, ok := names[ch.ChangedBy]
		if !ok {
			// A user no longer active; only directors see the history.
			if us, err := s.Office.StaffNames(ctx, []int64{ch.ChangedBy}); err == nil {
				by = cmp.Or(us[ch.ChangedBy].DisplayName, us[ch.ChangedBy].Login)
			}
		}
		d.History = append(d.History, statusRow{From: ch.FromStatus, To: ch.ToStatus, By: by, At: site.ShowTime(ch.ChangedAt)})
	}
	return d, nil
}

func (s *Room) eventSetStatus(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	err = s.Office.SetEventStatus(ctx, site.Actor(c), id, c.FormValue("to"))
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		return s.renderEvent(c, http.StatusUnprocessableEntity, id, site.FieldMsgs{"status": msgs["status"]})
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, "/events/"+strconv.FormatInt(id, 10))
}
