package accounts

import (
	"errors"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/web/site"
)

// loginInput is the sign-in form.
type loginInput struct {
	Login    string `form:"login"`
	Password string `form:"password"`
	Next     string `form:"next" query:"next"`
}

func (s *Room) loginForm(c echo.Context) error {
	ctx := c.Request().Context()
	in := loginInput{Next: site.SafeNext(c.QueryParam("next"))}
	return s.Render(c, http.StatusOK, LoginPage(s.Page(c, site.L(ctx).T("accounts.login.title")), in, ""))
}

// loginSubmit signs in; a wrong login or password and the rate limit each
// re-render the form with a message (422 and 429).
func (s *Room) loginSubmit(c echo.Context) error {
	ctx := c.Request().Context()
	var in loginInput
	if err := c.Bind(&in); err != nil {
		return err
	}
	in.Next = site.SafeNext(in.Next)
	u, err := s.Office.Accounts().Login(ctx, office.LoginInput{Login: in.Login, Password: in.Password, IP: s.clientIP(c)})
	title := site.L(ctx).T("accounts.login.title")
	in.Password = ""
	switch {
	case errors.Is(err, office.ErrRateLimited):
		return s.Render(c, http.StatusTooManyRequests, LoginPage(s.Page(c, title), in, s.retryMessage(c, err)))
	case errors.Is(err, office.ErrLoginFailed):
		return s.Render(c, http.StatusUnprocessableEntity, LoginPage(s.Page(c, title), in, site.L(ctx).T("accounts.login.failed")))
	case err != nil:
		return err
	}
	if err := s.signInAs(c, u.ID); err != nil {
		return err
	}
	return site.SeeOther(c, in.Next)
}

// logout ends the session (POST only, CSRF-protected) under a new token.
func (s *Room) logout(c echo.Context) error {
	ctx := c.Request().Context()
	if err := s.Sessions.RenewToken(ctx); err != nil {
		return err
	}
	s.Sessions.Remove(ctx, site.SessionUserKey)
	s.RotateCSRF(c)
	return site.SeeOther(c, "/")
}

// retryMessage sets Retry-After for a refused sign-in and says, in the
// reader's language, when it may be tried again (Japan time, and how long
// that is from now).
func (s *Room) retryMessage(c echo.Context, err error) string {
	lz := site.L(c.Request().Context())
	now := s.Now()
	at, ok := office.RetryAt(err)
	if !ok || !at.After(now) {
		at = now.Add(time.Second)
	}
	secs := int64(math.Ceil(at.Sub(now).Seconds()))
	c.Response().Header().Set("Retry-After", strconv.FormatInt(secs, 10))
	wait := lz.T("sec_harden.wait.seconds", "N", secs)
	if secs >= 120 {
		wait = lz.T("sec_harden.wait.minutes", "N", (secs+59)/60)
	}
	return lz.T("sec_harden.login.too_many", "Time", at.In(site.Tokyo).Format("15:04:05"), "Wait", wait)
}
