package site

import (
	"context"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/office/day"
)

// Permission before validation (issue 21 item 4; docs/security.md).
//
// A write route whose handler reads and judges its form before calling the
// office (numbers, the version seen, the draw's fingerprint, an upload)
// asks the office first whether the principal may act on the thing its
// path names at all, with the roles its use case accepts. A refused
// principal gets 404 (may not see it: a draft, a hidden stage, a missing
// id) or 403 (may see it but not act) whatever the body holds — never a
// 422 about fields they may not fill in. The use case checks again, more
// finely, when it runs.

// actsOn builds the middleware: id is the path parameter, check the
// office's answer for it.
func (s *Server) actsOn(param string, check func(ctx context.Context, a office.Actor, id int64) error) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			id, err := PathParam(c, param)
			if err != nil {
				return err
			}
			if err := check(c.Request().Context(), Actor(c), id); err != nil {
				return err
			}
			return next(c)
		}
	}
}

// actsOnEvent: the principal holds one of roles in event :id.
func (s *Server) ActsOnEvent(roles ...string) echo.MiddlewareFunc {
	return s.actsOn("id", func(ctx context.Context, a office.Actor, id int64) error {
		return s.Office.RequireEventRole(ctx, a, id, roles...)
	})
}

// actsOnGame: the principal holds one of roles in game :id's event.
func (s *Server) ActsOnGame(roles ...string) echo.MiddlewareFunc {
	return s.actsOn("id", func(ctx context.Context, a office.Actor, id int64) error {
		return s.Office.RequireGameRole(ctx, a, id, roles...)
	})
}

// actsOnStage: the principal holds one of roles in stage :id's event (an
// unpublished stage they may not manage is not found, as its page is).
func (s *Server) ActsOnStage(roles ...string) echo.MiddlewareFunc {
	return s.actsOn("id", func(ctx context.Context, a office.Actor, id int64) error {
		return s.Office.RequireStageRole(ctx, a, id, roles...)
	})
}

// actsOnLeagueClass: the principal holds one of roles in league class
// :cid's event.
func (s *Server) ActsOnLeagueClass(roles ...string) echo.MiddlewareFunc {
	return s.actsOn("cid", func(ctx context.Context, a office.Actor, id int64) error {
		return s.Office.RequireLeagueClassRole(ctx, a, id, roles...)
	})
}

// actsOnDayClass: the principal runs the desk of day class :cid's event,
// or (results) may enter its results.
func (s *Server) ActsOnDayClass(results bool) echo.MiddlewareFunc {
	return s.actsOn("cid", func(ctx context.Context, a office.Actor, id int64) error {
		return s.DayRoom().RequireClassRole(ctx, a, id, results)
	})
}

// dayRoom is the day's use cases over the server's office.
func (s *Server) DayRoom() *day.Day { return day.New(s.Office) }
