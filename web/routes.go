package web

import (
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
)

// routes is the one route table. Each area registers its routes from its
// own file (accounts.go, players.go, events.go, …).
func (s *Server) routes() error {
	e := s.echo
	e.Pre(headAsGet) // HEAD wherever GET (defaults.go)
	e.Use(
		middleware.RequestID(),
		s.requestLogger(),
		middleware.Recover(),
		s.metricsMiddleware,
		securityHeaders,
		s.language, // before sessions, so a session error is localised too
		s.apiGate,  // /api/: CORS, preflight, Accept-Language, rate limit (api.go)
		echo.WrapMiddleware(s.loadAndSave),
		s.loadActor,
		// After the language and the actor (issue 13): a 413 page speaks
		// the user's language with their navigation. Nothing above reads
		// the body.
		limitBody(),
		s.storableText, // before the CSRF check and every handler read the form
		s.csrf(),
		s.askBeforeFutureResults,
		s.captureRender, // last: it keeps what the handler wrote (render_cache.go)
	)

	e.GET("/healthz", s.healthz)
	e.GET("/readyz", s.readyz)
	if s.cfg.MetricsPublic { // else only on --metrics-listen (issue 21 item 12)
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

	// The amateur tournament day (issue 14, web/day*.go, docs/amateur-day.md).
	e.GET("/events/:id/day", s.dayPage)
	e.POST("/events/:id/day/classes", s.dayClassCreate, requireUser)
	e.GET("/events/:id/day/reception", s.dayReception, requireUser)
	e.POST("/events/:id/day/entrants", s.dayEnter, requireUser)
	e.POST("/events/:id/day/checkin", s.dayCheckin, requireUser)
	e.POST("/events/:id/day/fee", s.dayFee, requireUser)
	e.POST("/events/:id/day/fee-category", s.dayFeeCategory, requireUser)
	e.POST("/events/:id/day/move", s.dayMove, requireUser)
	e.POST("/events/:id/day/withdraw", s.dayWithdraw, requireUser)
	e.POST("/events/:id/day/walkin", s.dayWalkIn, requireUser)
	e.GET("/events/:id/day/rounds/:n/boards", s.dayEventBoards, requireUser)
	e.GET("/day/classes/:cid", s.dayClassPage)
	e.GET("/day/classes/:cid/edit", s.dayClassEdit, requireUser)
	e.POST("/day/classes/:cid", s.dayClassUpdate, requireUser)
	e.GET("/day/classes/:cid/standings", s.dayStandings)
	e.POST("/day/classes/:cid/draw", s.dayDrawPreview, requireUser)
	e.POST("/day/classes/:cid/draw/confirm", s.dayDrawConfirm, requireUser, s.actsOnDayClass(false))
	e.GET("/day/classes/:cid/rounds/:n/boards", s.dayBoards, requireUser)
	e.POST("/day/classes/:cid/rounds/:n/boards/:b/preview", s.dayBoardPreview, requireUser)
	e.POST("/day/classes/:cid/rounds/:n/boards/:b", s.dayBoardResult, requireUser, s.actsOnDayClass(true))
	e.POST("/day/classes/:cid/rounds/:n/boards/:b/toss", s.dayBoardToss, requireUser, s.actsOnDayClass(true))
	s.dayFinalRoutes(e) // a day class's final knockout (web/day_final.go)

	// The day's paper, the players' own report and the director's view
	// (issue 14 parts 5-QR, 6, 7; web/day_paper*.go, docs/amateur-day-paper.md).
	s.dayPaperRoutes(e)
	s.downloadRoutes(e) // downloads.go (issue 15)
	s.embedRoutes(e)    // embeds.go (issue 15)
	s.tokenRoutes(e)    // api_tokens.go
	if err := s.apiRoutes(e); err != nil {
		return err
	}
	return nil
}
