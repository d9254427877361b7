// Package site is what every web room shares (docs/rooms.md): the server
// core, rendering and the layout, words and i18n, errors, middleware,
// sessions, forms, caching, URL builders, previews and the live hub. It
// imports no room; the rooms and the route table (package web) import it.
package site

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/alexedwards/scs/v2"
	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"

	"kisen/config"
	"kisen/office"
)

// Deps is what the server is built from: the office's use cases (over
// the store and the clock, composed by cmd/kisen) are its only way to the
// data (docs/rooms.md).
type Deps struct {
	Config config.Config
	Office *office.Office
	Logger *slog.Logger
}

// Server is the web application.
type Server struct {
	AskFuture bool
	// BodyLimit caps a request body in bytes; 0 is BodyLimitBytes
	// (body_limit.go). Tests set a small one.
	BodyLimit int64
	Config    config.Config
	Office    *office.Office
	Log       *slog.Logger
	Now       func() time.Time
	Msgs      *Messages
	Sessions  *scs.SessionManager
	Echo      *echo.Echo
	metrics   *metrics
	registry  *prometheus.Registry
	build     string // names the build in page tags (cache.go)
	// APIErrors, set by the API's routes, answers an error under /api/ in
	// the API's JSON shape (errors.go).
	APIErrors func(error, echo.Context)
	Live      *liveHub
	// liveStepHook, when set (tests), runs at each step of a live
	// stream's opening (liveStep).
	LiveStepHook func(step string)
	Pages        *renderCache // anonymous public pages by revision (render_cache.go); nil keeps none
}

// New builds the shared server; package web adds the routes.
func New(d Deps) (*Server, error) {
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	msgs, err := LoadMessages()
	if err != nil {
		return nil, err
	}
	s := &Server{
		Config: d.Config,
		Office: d.Office,
		Log:    d.Logger,
		Now:    d.Office.Now,
		Msgs:   msgs,
		build:  buildID(),
		Pages:  NewRenderCache(),
		// Ask once before a result for a game scheduled after today
		// (result_future.go).
		AskFuture: true,
	}
	s.Live = newLiveHub(d.Config.LiveMaxStreams, d.Config.LiveMaxPerAddress, d.Config.LiveHeartbeat, s.EventRevisionString)
	s.Sessions = scs.New()
	s.Sessions.Store = d.Office.Sessions()
	s.Sessions.Lifetime = 14 * 24 * time.Hour
	s.Sessions.IdleTimeout = 3 * 24 * time.Hour
	s.Sessions.Cookie.Name = "kisen_session"
	s.Sessions.Cookie.HttpOnly = true
	s.Sessions.Cookie.SameSite = http.SameSiteLaxMode
	s.Sessions.Cookie.Secure = d.Config.SecureCookies
	s.Sessions.ErrorFunc = s.sessionError
	s.registry = prometheus.NewRegistry()
	s.metrics = newMetrics(s.registry)
	s.Live.opened, s.Live.closed = s.metrics.liveStreams.Inc, s.metrics.liveStreams.Dec
	s.Echo = echo.New()
	s.Echo.HideBanner = true
	s.Echo.HidePort = true
	s.Echo.HTTPErrorHandler = s.HandleError
	s.Echo.IPExtractor = IPExtractor(d.Config.TrustedProxies)
	return s, nil
}

// Handler is the whole application as an http.Handler (for tests).
func (s *Server) Handler() http.Handler { return s.Echo }

// Run serves on the configured address until ctx ends, then shuts down
// gracefully, giving in-flight requests the configured grace period.
// ready is called with the bound address once the listener is open.
func (s *Server) Run(ctx context.Context, ready func(addr string)) error {
	ln, err := net.Listen("tcp", s.Config.Listen)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", s.Config.Listen, err)
	}
	srv := s.httpServer(s.Echo)
	// Shutdown waits for requests to finish; live streams never do on
	// their own, so it ends them first (they reconnect to another process).
	srv.RegisterOnShutdown(s.Live.Close)
	servers := []*http.Server{srv}
	errc := make(chan error, 2)
	go func() { errc <- srv.Serve(ln) }()
	if s.Config.MetricsListen != "" {
		mln, err := net.Listen("tcp", s.Config.MetricsListen)
		if err != nil {
			_ = srv.Close()
			return fmt.Errorf("listen on %s for metrics: %w", s.Config.MetricsListen, err)
		}
		msrv := s.httpServer(s.MetricsHandler())
		servers = append(servers, msrv)
		go func() { errc <- msrv.Serve(mln) }()
	}
	go s.sweepSessions(ctx)
	liveCtx, stopLive := context.WithCancel(ctx)
	defer stopLive()
	go s.RunLive(liveCtx)
	if ready != nil {
		ready(ln.Addr().String())
	}
	select {
	case err := <-errc:
		if !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	case <-ctx.Done():
	}
	s.Log.Info("shutting down", "grace", s.Config.ShutdownTimeout)
	sctx, cancel := context.WithTimeout(context.Background(), s.Config.ShutdownTimeout)
	defer cancel()
	var firstErr error
	for _, hs := range servers {
		if err := hs.Shutdown(sctx); err != nil && firstErr == nil {
			firstErr = err
		}
	}
	return firstErr
}

func (s *Server) httpServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    1 << 20,
		ErrorLog:          slog.NewLogLogger(s.Log.Handler(), slog.LevelWarn),
	}
}

// sweepSessions deletes expired sessions hourly.
func (s *Server) sweepSessions(ctx context.Context) {
	ss := s.Office.Sessions()
	t := time.NewTicker(time.Hour)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if n, err := ss.DeleteExpired(ctx); err != nil {
				s.Log.Warn("sweep sessions", "err", err)
			} else if n > 0 {
				s.Log.Info("swept expired sessions", "count", n)
			}
		}
	}
}

// ipExtractor says which client address a request has (the sign-in limit
// counts per address). X-Forwarded-For is believed only when the direct
// peer is one of the trusted proxies, and then only up to the right-most
// address that is not itself a trusted proxy; with none configured the TCP
// peer counts and forwarded headers are ignored (a client could rotate
// them).
func IPExtractor(trusted []*net.IPNet) echo.IPExtractor {
	if len(trusted) == 0 {
		return echo.ExtractIPDirect()
	}
	opts := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
	for _, n := range trusted {
		opts = append(opts, echo.TrustIPRange(n))
	}
	return echo.ExtractIPFromXFFHeader(opts...)
}
