package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"time"

	"kisen/config"
	"kisen/migrations"
	"kisen/office"
	"kisen/office/ratings"
	"kisen/store"
	"kisen/web"
)

// loadConfig reads flags and environment; on a bad value it prints the
// message naming the setting and returns exit code 2.
func loadConfig(name string, e env) (config.Config, int) {
	cfg, err := config.Load(name, e.args, e.lookupEnv, e.stderr)
	if errors.Is(err, flag.ErrHelp) {
		return cfg, 0
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "kisen %s: %v\n", name, err)
		return cfg, 2
	}
	return cfg, -1
}

func newLogger(cfg config.Config, w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.LogLevel}
	if cfg.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// storeOptions is the database and its connection pool as configured.
func storeOptions(cfg config.Config) store.Options {
	return store.Options{
		URL: cfg.DatabaseURL, SQLitePath: cfg.SQLitePath(),
		MaxOpenConns: cfg.DBMaxOpenConns(), MaxIdleConns: cfg.DBMaxIdleConns(),
		ConnMaxLifetime: cfg.DBConnMaxLifetime, ConnMaxIdleTime: cfg.DBConnMaxIdleTime,
	}
}

// openStore opens and migrates the configured database.
func openStore(ctx context.Context, cfg config.Config) (*store.Store, error) {
	st, err := store.Open(ctx, storeOptions(cfg))
	if err != nil {
		return nil, err
	}
	if err := migrations.Up(ctx, st.SQL(), string(st.Dialect())); err != nil {
		_ = st.Close()
		return nil, err
	}
	return st, nil
}

func runServe(ctx context.Context, e env) int {
	cfg, code := loadConfig("serve", e)
	if code >= 0 {
		return code
	}
	log := newLogger(cfg, e.stderr)
	st, err := openStore(ctx, cfg)
	if err != nil {
		fmt.Fprintf(e.stderr, "kisen serve: %v\n", err)
		return 1
	}
	defer st.Close()
	warnSuperuser(ctx, st, log)
	srv, err := web.New(web.Deps{Config: cfg, Office: office.New(st, time.Now), Logger: log})
	if err != nil {
		fmt.Fprintf(e.stderr, "kisen serve: %v\n", err)
		return 1
	}
	stopRatings := startRatingRefresher(ctx, cfg, st, log)
	defer stopRatings()
	err = srv.Run(ctx, func(addr string) {
		base := "http://" + addr
		fmt.Fprintf(e.stdout, "Kisen is running at %s  (database: %s)\n", base, describeDB(cfg))
		link, err := srv.SetupLink(ctx, base)
		if err != nil {
			log.Error("setup link", "err", err)
			return
		}
		if link != "" {
			fmt.Fprintf(e.stdout, "No administrator exists yet. Create the first one here (one-time link):\n  %s\n", link)
		}
	})
	if err != nil {
		fmt.Fprintf(e.stderr, "kisen serve: %v\n", err)
		return 1
	}
	return 0
}

// startRatingRefresher runs the rating worker (office.RunRatingRefresher)
// beside the web server: pages read stored ratings and never recompute, so
// this goroutine is what brings them up to date after a result. The
// returned stop ends it and waits until it has, before the store closes.
func startRatingRefresher(ctx context.Context, cfg config.Config, st *store.Store, log *slog.Logger) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		ratings.New(office.New(st, time.Now)).RunRatingRefresher(ctx, cfg.RatingRefresh, log.With("worker", "ratings"))
	}()
	return func() {
		cancel()
		<-done
	}
}

func describeDB(cfg config.Config) string {
	if cfg.UsesPostgres() {
		return "PostgreSQL " + store.Redact(cfg.DatabaseURL)
	}
	return "SQLite " + cfg.SQLitePath()
}
