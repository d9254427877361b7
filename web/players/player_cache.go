package players

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"kisen/web/site"
)

// notModifiedPlayer is notModified (cache.go) for a player's public record
// page, which spans events: its revision is the player's
// (ratings.PlayerPageRevisions: the events of the player's games, the
// registry and the stored ratings), read before the page's data. An
// anonymous visitor gets an ETag and 304 on a match, and the page's bytes
// come from the render cache when another visitor has seen them at that
// revision (issue 12). Staff get the page as computed, without validators.
// games is the record's revision read with the page's (for
// ratings.PlayerRecordAt), "" when none was read.
func (s *Room) notModifiedPlayer(c echo.Context, playerID int64) (done bool, games string, err error) {
	id := strconv.FormatInt(playerID, 10)
	done, err = s.notModifiedAt(c, "p"+id, id, func(ctx context.Context) (string, error) {
		page, g, err := s.Ratings().PlayerPageRevisions(ctx, playerID)
		games = g
		return page, err
	})
	return done, games, err
}

// notModifiedRatings is notModifiedPlayer for the public ratings list
// (every page, search and filter: the URL is in the tag). Its revision is
// the registry's (names, kinds, classes) and the stored ratings' state,
// which also moves when the rating settings change (migration 00098).
func (s *Room) notModifiedRatings(c echo.Context) (bool, error) {
	return s.notModifiedAt(c, "r", "ratings", s.Office.RatingsPageRevision)
}

// notModifiedAt answers a conditional GET of a page that belongs to no
// one event: rev names its state (read before the page's data), prefix
// and name the page in the tag. Anonymous visitors only, as in cache.go.
func (s *Room) notModifiedAt(c echo.Context, prefix, name string, rev func(context.Context) (string, error)) (bool, error) {
	site.CacheHeaders(c)
	if c.Request().Method != http.MethodGet || !site.Actor(c).Anonymous() {
		return false, nil
	}
	r0, err := rev(c.Request().Context())
	if err != nil {
		return false, err
	}
	// The revision holds times and separators a tag may not: it goes into
	// the tag's hash, with the page's name. No Last-Modified: the
	// revision's parts carry no one time of change.
	return s.AnswerConditional(c, s.TagOf(c, prefix, true, name, r0), s.TagOf(c, prefix, false, name, r0), time.Time{}, true)
}
