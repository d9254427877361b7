package web

import (
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
)

// notModifiedPlayer is notModified (cache.go) for a player's public record
// page, which spans events: its revision is the player's
// (ratings.PlayerPageRevision: the events of the player's games, the
// registry and the stored ratings), read before the page's data. An
// anonymous visitor gets an ETag and 304 on a match, and the page's bytes
// come from the render cache when another visitor has seen them at that
// revision (issue 12). Staff get the page as computed, without validators.
func (s *Server) notModifiedPlayer(c echo.Context, playerID int64) (bool, error) {
	h := c.Response().Header()
	h.Add(echo.HeaderVary, "Cookie")
	h.Add(echo.HeaderVary, "HX-Request")
	h.Set("Cache-Control", "private, no-cache")
	if c.Request().Method != http.MethodGet || !actor(c).Anonymous() {
		return false, nil
	}
	rev, err := s.ratings().PlayerPageRevision(c.Request().Context(), playerID)
	if err != nil {
		return false, err
	}
	// The revision holds times and separators a tag may not: it goes into
	// the tag's hash, with the player's id.
	id := strconv.FormatInt(playerID, 10)
	etag := s.tagOf(c, "p"+id, true, id, rev)
	r := c.Response()
	r.Before(func() {
		if r.Status == http.StatusOK || r.Status == http.StatusNotModified {
			h.Set("ETag", etag)
		}
	})
	if fresh(c.Request(), etag, time.Time{}) {
		return true, c.NoContent(http.StatusNotModified)
	}
	key := s.tagOf(c, "p"+id, false, id, rev)
	if done, err := s.serveRendered(c, key); done || err != nil {
		return true, err
	}
	c.Set(renderKeyCtx, key)
	return false, nil
}
