package web

import (
	"kisen/web/site"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
)

// routes is the one route table. Each area registers its routes from its
// own file (accounts.go, players.go, events.go, …).
func (s *Server) routes() error {
	e := s.Echo
	e.Pre(site.HeadAsGet) // HEAD wherever GET (defaults.go)
	e.Use(
		middleware.RequestID(),
		s.RequestLogger(),
		middleware.Recover(),
		s.MetricsMiddleware,
		site.SecurityHeaders,
		s.Language, // before sessions, so a session error is localised too
		s.APIGate,  // /api/: CORS, preflight, Accept-Language, rate limit (api.go)
		echo.WrapMiddleware(s.LoadAndSave),
		s.LoadActor,
		// After the language and the actor (issue 13): a 413 page speaks
		// the user's language with their navigation. Nothing above reads
		// the body.
		s.LimitBody,
		s.StorableText, // before the CSRF check and every handler read the form
		s.CSRF(),
		s.AskBeforeFutureResults,
		s.CaptureRender, // last: it keeps what the handler wrote (render_cache.go)
	)

	e.GET("/healthz", s.healthz)
	e.GET("/readyz", s.readyz)
	if s.Config.MetricsPublic { // else only on --metrics-listen (issue 21 item 12)
		e.GET("/metrics", echo.WrapHandler(s.MetricsHandler()))
	}
	e.GET("/static/*", s.Static)

	e.GET("/", s.home)
	e.GET("/start", s.StartPage, site.RequireUser)
	e.GET("/lang", s.SetLanguage)

	s.AccountRoutes(e)
	s.PlayerRoutes(e)
	s.EventRoutes(e)
	e.GET("/events/:id/projector", s.Projector) // the live room (web/live)
	s.OrganiserRoutes(e)
	s.SettingsRoutes(e)
	s.GameRoutes(e)
	s.RecorderRoutes(e) // the recorder's page and link (issue 26, web/recorder, docs/recorder.md)
	s.AppealRoutes(e)
	s.BracketRoutes(e)
	s.RankingTermRoutes(e) // the next term of ranking groups and their outcome (web/knockouts/ranking_term.go)
	s.LeagueRoutes(e)
	s.RelativeRoutes(e) // 肉親 feed every league draw
	s.RatingRoutes(e)
	s.BulkRoutes(e)
	s.PickerRoutes(e)

	// Team events (団体戦, issue 25, web/teams/, docs/team-entries.md).
	s.TeamRoutes(e)
	s.TeamDeskRoutes(e)   // the desk's match entry by table (issue 25 item 5)
	s.TeamRecordRoutes(e) // crosstable, team pages, prizes, paper (issue 25 items 5 and 6)

	// The amateur tournament day (issue 14, web/day/, docs/amateur-day.md).
	e.GET("/events/:id/day", s.DayPage)
	e.POST("/events/:id/day/classes", s.DayClassCreate, site.RequireUser)
	e.GET("/events/:id/day/reception", s.DayReception, site.RequireUser)
	e.POST("/events/:id/day/entrants", s.DayEnter, site.RequireUser)
	e.GET("/events/:id/day/reception/rows", s.DayDeskRows, site.RequireUser)
	e.GET("/events/:id/day/reception/search", s.DayDeskSearch, site.RequireUser)
	e.POST("/events/:id/day/reception/undo", s.DayDeskUndo, site.RequireUser)
	e.POST("/events/:id/day/checkin", s.DayCheckin, site.RequireUser)
	e.POST("/events/:id/day/fee", s.DayFee, site.RequireUser)
	e.POST("/events/:id/day/fee-category", s.DayFeeCategory, site.RequireUser)
	e.POST("/events/:id/day/move", s.DayMove, site.RequireUser)
	e.POST("/events/:id/day/withdraw", s.DayWithdraw, site.RequireUser)
	e.POST("/events/:id/day/walkin", s.DayWalkIn, site.RequireUser)
	e.GET("/events/:id/day/rounds/:n/boards", s.DayEventBoards, site.RequireUser)
	e.GET("/day/classes/:cid", s.DayClassPage)
	e.GET("/day/classes/:cid/edit", s.DayClassEdit, site.RequireUser)
	e.POST("/day/classes/:cid", s.DayClassUpdate, site.RequireUser)
	e.GET("/day/classes/:cid/standings", s.DayStandings)
	e.GET("/day/classes/:cid/rounds/:n", s.DayRound) // public, live (web/day/day_public.go)
	e.POST("/day/classes/:cid/draw", s.DayDrawPreview, site.RequireUser)
	e.POST("/day/classes/:cid/draw/confirm", s.DayDrawConfirm, site.RequireUser, s.ActsOnDayClass(false))
	e.GET("/day/classes/:cid/rounds/:n/boards", s.DayBoards, site.RequireUser)
	e.POST("/day/classes/:cid/rounds/:n/boards/:b/preview", s.DayBoardPreview, site.RequireUser)
	e.POST("/day/classes/:cid/rounds/:n/boards/:b", s.DayBoardResult, site.RequireUser, s.ActsOnDayClass(true))
	e.POST("/day/classes/:cid/rounds/:n/boards/:b/toss", s.DayBoardToss, site.RequireUser, s.ActsOnDayClass(true))
	s.DayFinalRoutes(e) // a day class's final knockout (web/day/day_final.go)
	s.DayEntryRoutes(e) // entries before the day (issue 23 §1; web/day/day_entry.go, docs/amateur-day-entries.md)

	// The day's paper, the players' own report and the director's view
	// (issue 14 parts 5-QR, 6, 7; web/day/day_paper*.go, docs/amateur-day-paper.md).
	s.DayPaperRoutes(e)
	s.DownloadRoutes(e)  // downloads.go (issue 15)
	s.EmbedRoutes(e)     // embeds.go (issue 15)
	s.LiveBoardRoutes(e) // the public live board and its embed (issue 26; web/live/board.go)
	s.TokenRoutes(e)     // api_tokens.go
	if err := s.APIRoutes(e); err != nil {
		return err
	}
	return nil
}
