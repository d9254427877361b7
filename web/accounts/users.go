package accounts

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/web/site"
)

// newUserInput is the form for adding a user.
type newUserInput struct {
	Login       string `form:"login"`
	DisplayName string `form:"display_name"`
	Password    string `form:"password"`
	Password2   string `form:"password2"`
}

// userRow is one line of the users list.
type userRow struct {
	ID          int64
	Login       string
	DisplayName string
	Admin       bool
	Disabled    bool
	Created     string
	Self        bool
}

func (s *Room) usersPage(c echo.Context) error {
	return s.renderUsers(c, http.StatusOK, newUserInput{}, nil)
}

func (s *Room) renderUsers(c echo.Context, status int, in newUserInput, errs site.FieldMsgs) error {
	ctx := c.Request().Context()
	a := site.Actor(c)
	users, err := s.Office.Accounts().Users(ctx, a)
	if err != nil {
		return err
	}
	rows := make([]userRow, 0, len(users))
	for _, u := range users {
		rows = append(rows, userRow{ID: u.ID, Login: u.Login, DisplayName: u.DisplayName, Admin: u.IsAdmin,
			Disabled: u.Disabled, Created: site.ShowTime(u.CreatedAt), Self: u.ID == a.UserID})
	}
	in.Password, in.Password2 = "", ""
	return s.Render(c, status, UsersPage(s.Page(c, site.L(ctx).T("accounts.users.title")), rows, in, errs))
}

func (s *Room) userCreate(c echo.Context) error {
	ctx := c.Request().Context()
	var in newUserInput
	if err := c.Bind(&in); err != nil {
		return err
	}
	_, err := s.Office.Accounts().CreateUser(ctx, site.Actor(c), office.NewUser{
		Login: in.Login, DisplayName: in.DisplayName, Password: in.Password, Password2: in.Password2,
	})
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		return s.renderUsers(c, http.StatusUnprocessableEntity, in, msgs)
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, "/users")
}

// userFlag reads :id and the form's value ("1" or "0").
func userFlag(c echo.Context) (int64, bool, error) {
	id, err := site.PathID(c)
	if err != nil {
		return 0, false, err
	}
	return id, c.FormValue("value") == "1", nil
}

func (s *Room) userSetDisabled(c echo.Context) error {
	id, on, err := userFlag(c)
	if err != nil {
		return err
	}
	return s.afterUserChange(c, s.Office.Accounts().SetUserDisabled(c.Request().Context(), site.Actor(c), id, on))
}

func (s *Room) userSetAdmin(c echo.Context) error {
	id, on, err := userFlag(c)
	if err != nil {
		return err
	}
	return s.afterUserChange(c, s.Office.Accounts().SetUserAdmin(c.Request().Context(), site.Actor(c), id, on))
}

// afterUserChange shows the list with the reason when a change was
// refused (the last administrator), else returns to the list.
func (s *Room) afterUserChange(c echo.Context, err error) error {
	if msgs, ok := site.FieldMsgsOf(c.Request().Context(), err); ok {
		return s.renderUsers(c, http.StatusUnprocessableEntity, newUserInput{}, site.FieldMsgs{"": msgs["user"]})
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, "/users")
}

func userDisableLabel(ctx context.Context, disabled bool) string {
	if disabled {
		return site.T(ctx, "accounts.users.enable")
	}
	return site.T(ctx, "accounts.users.disable")
}

func userAdminLabel(ctx context.Context, admin bool) string {
	if admin {
		return site.T(ctx, "accounts.users.revoke_admin")
	}
	return site.T(ctx, "accounts.users.grant_admin")
}
