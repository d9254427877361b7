package site

import (
	"embed"
	"io/fs"
	"net/http"
	"path"
	"strings"

	"github.com/labstack/echo/v4"
)

//go:embed static
var staticFiles embed.FS

// static serves the embedded assets; names carry versions, so they cache.
func (s *Server) Static(c echo.Context) error {
	name := path.Clean(strings.TrimPrefix(c.Param("*"), "/"))
	if name == "." || strings.HasPrefix(name, "..") {
		return echo.ErrNotFound
	}
	sub, err := fs.Sub(staticFiles, "static")
	if err != nil {
		return err
	}
	if st, err := fs.Stat(sub, name); err != nil || st.IsDir() {
		return echo.ErrNotFound
	}
	c.Response().Header().Set("Cache-Control", "public, max-age=86400")
	http.ServeFileFS(c.Response(), c.Request(), sub, name)
	return nil
}
