package events

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/web/site"
)

// roleInput names a user and a role in the event of the path.
type roleInput struct {
	UserID string `form:"user_id"`
	Role   string `form:"role"`
}

func (s *Room) bindRole(c echo.Context) (office.RoleGrant, error) {
	id, err := site.PathID(c)
	if err != nil {
		return office.RoleGrant{}, err
	}
	var in roleInput
	if err := c.Bind(&in); err != nil {
		return office.RoleGrant{}, err
	}
	uid, _ := strconv.ParseInt(in.UserID, 10, 64) // 0: office reports "choose a user"
	return office.RoleGrant{EventID: id, UserID: uid, Role: in.Role}, nil
}

// roleGrant gives a user a role in the event (administrators, directors).
func (s *Room) roleGrant(c echo.Context) error {
	ctx := c.Request().Context()
	g, err := s.bindRole(c)
	if err != nil {
		return err
	}
	err = s.Office.GrantEventRole(ctx, site.Actor(c), g)
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		return s.renderEvent(c, http.StatusUnprocessableEntity, g.EventID, msgs)
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, "/events/"+strconv.FormatInt(g.EventID, 10)+"#roles")
}

// roleRevoke takes a role away (administrators, directors).
func (s *Room) roleRevoke(c echo.Context) error {
	g, err := s.bindRole(c)
	if err != nil {
		return err
	}
	if err := s.Office.RevokeEventRole(c.Request().Context(), site.Actor(c), g); err != nil {
		return err
	}
	return site.SeeOther(c, "/events/"+strconv.FormatInt(g.EventID, 10)+"#roles")
}
