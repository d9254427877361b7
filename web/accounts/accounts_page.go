package accounts

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/web/site"
)

// passwordInput is the password change form.
type passwordInput struct {
	Current string `form:"current"`
	New     string `form:"new"`
	New2    string `form:"new2"`
}

// myRole is one role of the signed-in user, for the account page.
type myRole struct {
	EventID   int64
	EventName string
	Role      string
}

// accountPage shows the signed-in user's roles and the password form.
func (s *Room) accountPage(c echo.Context) error {
	return s.renderAccount(c, http.StatusOK, nil, c.QueryParam("saved") == "1")
}

func (s *Room) renderAccount(c echo.Context, status int, errs site.FieldMsgs, saved bool) error {
	ctx := c.Request().Context()
	a := site.Actor(c)
	rows, err := s.Office.UserEventRoles(ctx, a, a.UserID)
	if err != nil {
		return err
	}
	roles := make([]myRole, 0, len(rows))
	for _, r := range rows {
		roles = append(roles, myRole{EventID: r.EventID, EventName: site.LocalName(ctx, r.EventName, r.EventNameEn), Role: r.Role})
	}
	return s.Render(c, status, AccountPage(s.Page(c, site.L(ctx).T("accounts.account.title")), a, roles, errs, saved))
}

// passwordSubmit changes the password. Other sessions of the user stay
// signed in; this session gets a new token.
func (s *Room) passwordSubmit(c echo.Context) error {
	ctx := c.Request().Context()
	var in passwordInput
	if err := c.Bind(&in); err != nil {
		return err
	}
	err := s.Office.Accounts().ChangePassword(ctx, site.Actor(c), office.PasswordChange{
		Current: in.Current, New: in.New, New2: in.New2, IP: s.clientIP(c),
	})
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		return s.renderAccount(c, http.StatusUnprocessableEntity, msgs, false)
	}
	if errors.Is(err, office.ErrRateLimited) {
		s.retryMessage(c, err) // Retry-After
		return echo.NewHTTPError(http.StatusTooManyRequests).SetInternal(err)
	}
	if err != nil {
		return err
	}
	if err := s.Sessions.RenewToken(ctx); err != nil {
		return err
	}
	return site.SeeOther(c, "/account?saved=1")
}
