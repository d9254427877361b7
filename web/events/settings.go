package events

import (
	"context"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/web/site"
)

// settingsRoutes: an organiser's adjudication settings and each event's
// own copy, with the lock once the event's first game has started.
func (s *Room) SettingsRoutes(e *echo.Echo) {
	e.GET("/organisers/:id/settings", s.organiserSettingsPage, site.RequireAdmin)
	e.POST("/organisers/:id/settings", s.organiserSettingsSave, site.RequireAdmin)
	e.GET("/events/:id/settings", s.eventSettingsPage)
	e.POST("/events/:id/settings", s.eventSettingsSave, site.RequireUser)
	e.POST("/events/:id/settings/unlock", s.eventSettingsUnlock, site.RequireAdmin)
}

// settingsFormInput is the settings form as posted; checkboxes are "true"
// when ticked.
type settingsFormInput struct {
	Kind                string `form:"kind"`
	Jishogi             string `form:"jishogi"`
	JishogiTie27        string `form:"jishogi_27_tie"`
	Declaration         string `form:"declaration"`
	ResignationPriority bool   `form:"resignation_priority"`
	ClockHand           string `form:"clock_hand"`
	RedoAfter           string `form:"redo_after"`
	RedoThen            string `form:"redo_then"`
	RedoCountsAsGame    bool   `form:"redo_counts_as_game"`
	AllowanceMinutes    string `form:"allowance"`
	Timing              string `form:"timing"`
	Byoyomi             string `form:"byoyomi"`
	RedoTopUp           bool   `form:"redo_top_up"`
	ShortAllowanceRedo  string `form:"short_allowance_redo"`
	RequireConfirmation bool   `form:"require_confirmation"`
	AppealDays          string `form:"appeal_days"`
}

func (in settingsFormInput) form() office.SettingsForm { return office.SettingsForm(in) }

// settingsView is the settings page's view model.
type settingsView struct {
	Title     string
	Action    string
	BackURL   string
	BackText  string
	Form      office.SettingsForm
	Editable  bool
	Locked    bool
	Started   bool
	CanUnlock bool
	UnlockURL string
	Unlocks   []unlockRow
	Changes   []changeRow
	Saved     bool
}

type unlockRow struct{ By, At, Reason string }
type changeRow struct {
	By, At string
	Unlock bool
}

func (s *Room) organiserSettingsPage(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	st, err := s.Office.OrganiserSettings(c.Request().Context(), site.Actor(c), id)
	if err != nil {
		return err
	}
	return s.renderOrganiserSettings(c, http.StatusOK, id, office.FormOf(st), nil, c.QueryParam("saved") == "1")
}

func (s *Room) renderOrganiserSettings(c echo.Context, status int, id int64, f office.SettingsForm, errs site.FieldMsgs, saved bool) error {
	ctx := c.Request().Context()
	org, err := s.Office.Organiser(ctx, site.Actor(c), id)
	if err != nil {
		return err
	}
	name := site.LocalName(ctx, org.Name, org.NameEn)
	v := settingsView{Title: site.T(ctx, "adjudication.settings.organiser_title", "Name", name),
		Action: "/organisers/" + strconv.FormatInt(id, 10) + "/settings", BackURL: "/organisers", BackText: site.T(ctx, "adjudication.settings.back_organisers"),
		Form: f, Editable: true, Saved: saved}
	return s.Render(c, status, SettingsPage(s.Page(c, v.Title), v, errs))
}

func (s *Room) organiserSettingsSave(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	var in settingsFormInput
	if err := c.Bind(&in); err != nil {
		return err
	}
	ctx := c.Request().Context()
	err = s.Office.SetOrganiserSettings(ctx, site.Actor(c), id, in.form())
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		return s.renderOrganiserSettings(c, http.StatusUnprocessableEntity, id, in.form(), msgs, false)
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, "/organisers/"+strconv.FormatInt(id, 10)+"/settings?saved=1")
}

func (s *Room) eventSettingsPage(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	return s.renderEventSettings(c, http.StatusOK, id, nil, nil, c.QueryParam("saved") == "1")
}

func (s *Room) renderEventSettings(c echo.Context, status int, id int64, f *office.SettingsForm, errs site.FieldMsgs, saved bool) error {
	ctx := c.Request().Context()
	a := site.Actor(c)
	e, err := s.Office.Event(ctx, a, id)
	if err != nil {
		return err
	}
	st, err := s.Office.EventSettingsState(ctx, a, id)
	if err != nil {
		return err
	}
	name := site.LocalName(ctx, e.Name, e.NameEn)
	director := s.Office.RequireEventRole(ctx, a, id, office.RoleDirector) == nil
	v := settingsView{Title: site.T(ctx, "adjudication.settings.event_title", "Name", name),
		Action: "/events/" + strconv.FormatInt(id, 10) + "/settings", BackURL: "/events/" + strconv.FormatInt(id, 10), BackText: name,
		Form: office.FormOf(st.Settings), Editable: director && !st.Locked, Locked: st.Locked, Started: st.Started,
		CanUnlock: a.Admin && st.Locked, UnlockURL: "/events/" + strconv.FormatInt(id, 10) + "/settings/unlock", Saved: saved}
	if f != nil {
		v.Form = *f
	}
	v.Unlocks, v.Changes = s.settingsLog(ctx, st)
	site.MarkDraft(c, office.IsDraft(e))
	return s.Render(c, status, SettingsPage(s.Page(c, v.Title), v, errs))
}

func (s *Room) settingsLog(ctx context.Context, st office.SettingsState) ([]unlockRow, []changeRow) {
	var ids []int64
	for _, u := range st.Unlocks {
		ids = append(ids, u.UnlockedBy)
	}
	for _, ch := range st.Changes {
		ids = append(ids, ch.ChangedBy)
	}
	names := s.UserNames(ctx, ids...)
	var us []unlockRow
	for _, u := range st.Unlocks {
		us = append(us, unlockRow{By: names[u.UnlockedBy], At: site.ShowTime(u.UnlockedAt), Reason: u.Reason})
	}
	var cs []changeRow
	for _, ch := range st.Changes {
		cs = append(cs, changeRow{By: names[ch.ChangedBy], At: site.ShowTime(ch.ChangedAt), Unlock: ch.UnlockID != nil})
	}
	return us, cs
}

func (s *Room) eventSettingsSave(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	var in settingsFormInput
	if err := c.Bind(&in); err != nil {
		return err
	}
	ctx := c.Request().Context()
	f := in.form()
	err = s.Office.SetEventSettings(ctx, site.Actor(c), id, f)
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		return s.renderEventSettings(c, http.StatusUnprocessableEntity, id, &f, msgs, false)
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, "/events/"+strconv.FormatInt(id, 10)+"/settings?saved=1")
}

func (s *Room) eventSettingsUnlock(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	err = s.Office.UnlockEventSettings(ctx, site.Actor(c), id, c.FormValue("reason"))
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		return s.renderEventSettings(c, http.StatusUnprocessableEntity, id, nil, msgs, false)
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, "/events/"+strconv.FormatInt(id, 10)+"/settings")
}

// settingOption is one choice of a settings select.
type settingOption struct{ Value, Label string }

func opts(ctx context.Context, prefix string, values ...string) []settingOption {
	out := make([]settingOption, len(values))
	for i, v := range values {
		out[i] = settingOption{Value: v, Label: site.T(ctx, prefix+v)}
	}
	return out
}
