package site

import (
	"fmt"
	"html"
	"strconv"

	"github.com/labstack/echo/v4"
)

func Itoa(n int) string { return strconv.Itoa(n) }

func I64(n int64) string { return strconv.FormatInt(n, 10) }

func GameURL(id int64) string { return "/games/" + I64(id) }

func PlayerURL(id int64) string { return "/players/" + strconv.FormatInt(id, 10) }

func StageURL(id int64) string { return "/stages/" + strconv.FormatInt(id, 10) }

// embedCode is the <iframe> an organiser pastes into their site.
func EmbedCode(c echo.Context, path, title string) string {
	src := c.Scheme() + "://" + c.Request().Host + path
	return fmt.Sprintf(`<iframe src="%s" title="%s" width="100%%" height="600" style="border:0" loading="lazy"></iframe>`,
		html.EscapeString(src), html.EscapeString(title))
}
