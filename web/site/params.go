package site

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"
)

// pathParam reads a positive id from the named path parameter; anything
// else is 404, so a mistyped URL reads as a missing page.
func PathParam(c echo.Context, name string) (int64, error) {
	id, err := strconv.ParseInt(c.Param(name), 10, 64)
	if err != nil || id <= 0 {
		return 0, echo.NewHTTPError(http.StatusNotFound)
	}
	return id, nil
}

// pathID reads :id.
func PathID(c echo.Context) (int64, error) { return PathParam(c, "id") }
