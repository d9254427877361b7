// Package web is Kisen's server: echo routes, thin handlers, templ
// components, sessions, i18n and static assets.
package web

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
	askFuture bool
	cfg       config.Config
	office    *office.Office
	log       *slog.Logger
	now       func() time.Time
	msgs      *Messages
	sessions  *scs.SessionManager
	echo      *echo.Echo
	metrics   *metrics
	registry  *prometheus.Registry
	build     string // names the build in page tags (cache.go)
	api       *apiState
	live      *liveHub
	// liveStepHook, when set (tests), runs at each step of a live
	// stream's opening (liveStep).
	liveStepHook func(step string)
	pages        *renderCache // anonymous public pages by revision (render_cache.go); nil keeps none
}

// New builds the server and its routes.
func New(d Deps) (*Server, error) {
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	msgs, err := LoadMessages()
	if err != nil {
		return nil, err
	}
	s := &Server{
		cfg:    d.Config,
		office: d.Office,
		log:    d.Logger,
		now:    d.Office.Now,
		msgs:   msgs,
		build:  buildID(),
		pages:  newRenderCache(),
		// Ask once before a result for a game scheduled after today
		// (result_future.go).
		askFuture: true,
	}
	s.live = newLiveHub(d.Config.LiveMaxStreams, d.Config.LiveMaxPerAddress, d.Config.LiveHeartbeat, s.eventRevisionString)
	s.sessions = scs.New()
	s.sessions.Store = d.Office.Sessions()
	s.sessions.Lifetime = 14 * 24 * time.Hour
	s.sessions.IdleTimeout = 3 * 24 * time.Hour
	s.sessions.Cookie.Name = "kisen_session"
	s.sessions.Cookie.HttpOnly = true
	s.sessions.Cookie.SameSite = http.SameSiteLaxMode
	s.sessions.Cookie.Secure = d.Config.SecureCookies
	s.sessions.ErrorFunc = s.sessionError
	s.registry = prometheus.NewRegistry()
	s.metrics = newMetrics(s.registry)
	s.live.opened, s.live.closed = s.metrics.liveStreams.Inc, s.metrics.liveStreams.Dec
	s.echo = echo.New()
	s.echo.HideBanner = true
	s.echo.HidePort = true
	s.echo.HTTPErrorHandler = s.handleError
	s.echo.IPExtractor = ipExtractor(d.Config.TrustedProxies)
	if err := s.routes(); err != nil {
		return nil, err
	}
	return s, nil
}

// Handler is the whole application as an http.Handler (for tests).
func (s *Server) Handler() http.Handler { return s.echo }

// Office exposes the use cases (for the command line and tests).
func (s *Server) Office() *office.Office { return s.office }

// Run serves on the configured address until ctx ends, then shuts down
// gracefully, giving in-flight requests the configured grace period.
// ready is called with the bound address once the listener is open.
func (s *Server) Run(ctx context.Context, ready func(addr string)) error {
	ln, err := net.Listen("tcp", s.cfg.Listen)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", s.cfg.Listen, err)
	}
	srv := s.httpServer(s.echo)
	// Shutdown waits for requests to finish; live streams never do on
	// their own, so it ends them first (they reconnect to another process).
	srv.RegisterOnShutdown(s.live.close)
	servers := []*http.Server{srv}
	errc := make(chan error, 2)
	go func() { errc <- srv.Serve(ln) }()
	if s.cfg.MetricsListen != "" {
		mln, err := net.Listen("tcp", s.cfg.MetricsListen)
		if err != nil {
			_ = srv.Close()
			return fmt.Errorf("listen on %s for metrics: %w", s.cfg.MetricsListen, err)
		}
		msrv := s.httpServer(s.metricsHandler())
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
	s.log.Info("shutting down", "grace", s.cfg.ShutdownTimeout)
	sctx, cancel := context.WithTimeout(context.Background(), s.cfg.ShutdownTimeout)
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
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
}

// sweepSessions deletes expired sessions hourly.
func (s *Server) sweepSessions(ctx context.Context) {
	ss := s.office.Sessions()
	t := time.NewTicker(time.Hour)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if n, err := ss.DeleteExpired(ctx); err != nil {
				s.log.Warn("sweep sessions", "err", err)
			} else if n > 0 {
				s.log.Info("swept expired sessions", "count", n)
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
func ipExtractor(trusted []*net.IPNet) echo.IPExtractor {
	if len(trusted) == 0 {
		return echo.ExtractIPDirect()
	}
	opts := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
	for _, n := range trusted {
		opts = append(opts, echo.TrustIPRange(n))
	}
	return echo.ExtractIPFromXFFHeader(opts...)
}
