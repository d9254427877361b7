package accounts

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/web/site"
)

// setupInput is the first-run form.
type setupInput struct {
	Token       string `form:"token" query:"token"`
	Login       string `form:"login"`
	DisplayName string `form:"display_name"`
	Password    string `form:"password"`
	Password2   string `form:"password2"`
}

// setupForm shows the form for the first administrator; without a valid
// token, or once an administrator exists, the page does not exist (404).
func (s *Room) setupForm(c echo.Context) error {
	ctx := c.Request().Context()
	token := c.QueryParam("token")
	if err := s.Office.Accounts().CheckSetupToken(ctx, token); err != nil {
		return err
	}
	return s.Render(c, http.StatusOK, SetupPage(s.Page(c, site.L(ctx).T("accounts.setup.title")), setupInput{Token: token}, nil))
}

func (s *Room) setupSubmit(c echo.Context) error {
	ctx := c.Request().Context()
	var in setupInput
	if err := c.Bind(&in); err != nil {
		return err
	}
	u, err := s.Office.Accounts().CompleteSetup(ctx, office.SetupInput{
		Token: in.Token, Login: in.Login, DisplayName: in.DisplayName, Password: in.Password, Password2: in.Password2,
	})
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		return s.Render(c, http.StatusUnprocessableEntity, SetupPage(s.Page(c, site.L(ctx).T("accounts.setup.title")), in, msgs))
	}
	if err != nil {
		return err
	}
	if err := s.signInAs(c, u.ID); err != nil {
		return err
	}
	return site.SeeOther(c, "/start") // the first-run checklist
}
