package web

import (
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
)

// routes is the one route table. Each area registers its routes from its
// own file (accounts.go, players.go, events.go, …).
func (s *Server) routes() {
	e := s.echo
	e.Use(
		middleware.RequestID(),
		s.requestLogger(),
		middleware.Recover(),
		s.metricsMiddleware,
		securityHeaders,
		s.language, // before sessions, so a session error is localised too
		echo.WrapMiddleware(s.loadAndSave),
		s.loadActor,
		// After the language and the actor (issue 13): a 413 page speaks
		// the user's language with their navigation. Nothing above reads
		// the body.
		middleware.BodyLimit(bodyLimit),
		s.storableText, // before the CSRF check and every handler read the form
		s.csrf(),
		s.askBeforeFutureResults,
		s.captureRender, // last: it keeps what the handler wrote (render_cache.go)
	)

	e.GET("/healthz", s.healthz)
	e.GET("/readyz", s.readyz)
	if s.cfg.MetricsListen == "" {
		e.GET("/metrics", echo.WrapHandler(s.metricsHandler()))
	}
	e.GET("/static/*", s.static)

	e.GET("/", s.home)
	e.GET("/start", s.startPage, requireUser)
	e.GET("/lang", s.setLanguage)

	s.accountRoutes(e)
	s.playerRoutes(e)
	s.eventRoutes(e)
	s.gameRoutes(e)
	s.bracketRoutes(e)
	s.leagueRoutes(e)
	s.ratingRoutes(e)
	s.bulkRoutes(e)
	s.pickerRoutes(e)
}
