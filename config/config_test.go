package config

import (
	"errors"
	"io"
	"log/slog"
	"reflect"
	"strings"
	"testing"
	"time"
)

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestLoad_DefaultsEnvAndFlags(t *testing.T) {
	t.Parallel()
	c, err := Load("serve", nil, envOf(nil), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.Listen != "127.0.0.1:8080" || c.DataDir != "var" || c.UsesPostgres() || c.SQLitePath() != "var/kisen.db" {
		t.Fatalf("defaults: %+v", c)
	}
	if c.RatingRefresh != 2*time.Second {
		t.Fatalf("rating refresh defaults to %v, want 2s", c.RatingRefresh)
	}
	env := map[string]string{
		"KISEN_LISTEN":                "0.0.0.0:9000",
		"KISEN_DATABASE_URL":          "postgres://u:p@db:5432/kisen",
		"KISEN_LOG_FORMAT":            "json",
		"KISEN_LOG_LEVEL":             "debug",
		"KISEN_SECURE_COOKIES":        "true",
		"KISEN_METRICS_LISTEN":        "127.0.0.1:9100",
		"KISEN_SHUTDOWN_TIMEOUT":      "30s",
		"KISEN_RETRY_AFTER":           "12s",
		"KISEN_DATA_DIR":              "/srv/kisen",
		"KISEN_TRUSTED_PROXIES":       "10.0.0.0/8, 192.0.2.7",
		"KISEN_DB_MAX_OPEN":           "40",
		"KISEN_DB_MAX_IDLE":           "30",
		"KISEN_DB_CONN_MAX_LIFETIME":  "1h",
		"KISEN_DB_CONN_MAX_IDLE_TIME": "10m",
		"KISEN_RATING_REFRESH":        "750ms",
		"KISEN_API_RATE":              "2.5",
		"KISEN_LIVE_MAX_STREAMS":      "3000",
		"KISEN_LIVE_HEARTBEAT":        "10s",
		"KISEN_LIVE_POLL":             "100ms",
	}
	c, err = Load("serve", []string{"--listen", "127.0.0.1:7000", "--log-level", "warn", "--db-max-idle", "20", "--live-max-per-address", "50"}, envOf(env), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	want := Config{Listen: "127.0.0.1:7000", DataDir: "/srv/kisen", DatabaseURL: "postgres://u:p@db:5432/kisen",
		LogFormat: "json", LogLevel: slog.LevelWarn, SecureCookies: true, MetricsListen: "127.0.0.1:9100", ShutdownTimeout: 30 * time.Second,
		RetryAfter: 12 * time.Second, DBMaxOpen: 40, DBMaxIdle: 20, DBConnMaxLifetime: time.Hour, DBConnMaxIdleTime: 10 * time.Minute,
		RatingRefresh: 750 * time.Millisecond, APIRate: 2.5, APIBurst: 60,
		LiveMaxStreams: 3000, LiveMaxPerAddress: 50, LiveHeartbeat: 10 * time.Second, LivePoll: 100 * time.Millisecond}
	var nets []string
	for _, n := range c.TrustedProxies {
		nets = append(nets, n.String())
	}
	if got := strings.Join(nets, ","); got != "10.0.0.0/8,192.0.2.7/32" {
		t.Fatalf("trusted proxies %q", got)
	}
	c.TrustedProxies = nil
	if !reflect.DeepEqual(c, want) {
		t.Fatalf("got %+v\nwant %+v (flags must win over the environment)", c, want)
	}
}

func TestLoad_BadValuesNameTheSetting(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args  []string
		env   map[string]string
		field string
	}{
		{[]string{"--listen", "8080"}, nil, "listen"},
		{nil, map[string]string{"KISEN_DATA_DIR": "   "}, "data-dir"},
		{[]string{"--database-url", "sqlite://x"}, nil, "database-url"},
		{[]string{"--database-url", "postgres://"}, nil, "database-url"},
		{nil, map[string]string{"KISEN_LOG_FORMAT": "xml"}, "log-format"},
		{[]string{"--log-level", "trace"}, nil, "log-level"},
		{nil, map[string]string{"KISEN_SECURE_COOKIES": "yes please"}, "secure-cookies"},
		{[]string{"--metrics-listen", "nope"}, nil, "metrics-listen"},
		{[]string{"--shutdown-timeout", "1h"}, nil, "shutdown-timeout"},
		{[]string{"--retry-after", "500ms"}, nil, "retry-after"},
		{nil, map[string]string{"KISEN_RETRY_AFTER": "soon"}, "retry-after"},
		{[]string{"--rating-refresh", "10ms"}, nil, "rating-refresh"},
		{[]string{"--rating-refresh", "2h"}, nil, "rating-refresh"},
		{nil, map[string]string{"KISEN_RATING_REFRESH": "often"}, "rating-refresh"},
		{[]string{"--trusted-proxies", "10.0.0.0/33"}, nil, "trusted-proxies"},
		{nil, map[string]string{"KISEN_TRUSTED_PROXIES": "proxy.local"}, "trusted-proxies"},
		{[]string{"--db-max-open", "0"}, nil, "db-max-open"},
		{nil, map[string]string{"KISEN_DB_MAX_OPEN": "many"}, "db-max-open"},
		{[]string{"--db-max-open", "1001"}, nil, "db-max-open"},
		{[]string{"--db-max-idle", "-1"}, nil, "db-max-idle"},
		{[]string{"--db-max-open", "10", "--db-max-idle", "11"}, nil, "db-max-idle"},
		{nil, map[string]string{"KISEN_DB_MAX_IDLE": "9"}, "db-max-idle"}, // SQLite opens 8 by default
		{[]string{"--db-conn-max-lifetime", "0s"}, nil, "db-conn-max-lifetime"},
		{nil, map[string]string{"KISEN_DB_CONN_MAX_LIFETIME": "48h"}, "db-conn-max-lifetime"},
		{[]string{"--db-conn-max-idle-time", "soon"}, nil, "db-conn-max-idle-time"},
	}
	for _, c := range cases {
		_, err := Load("serve", c.args, envOf(c.env), io.Discard)
		var fe *FieldError
		if !errors.As(err, &fe) {
			t.Errorf("%v %v: want a FieldError, got %v", c.args, c.env, err)
			continue
		}
		if fe.Field != c.field {
			t.Errorf("%v %v: names %q, want %q", c.args, c.env, fe.Field, c.field)
		}
	}
}

// Issue 12 part 5: the pool's limits come from the settings, else by
// database; idle defaults to open and may not exceed it.
func TestConfig_PoolByDatabase(t *testing.T) {
	t.Parallel()
	pg := map[string]string{"KISEN_DATABASE_URL": "postgres://db/kisen"}
	cases := []struct {
		args             []string
		env              map[string]string
		open, idle       int
		lifetime, idleTo time.Duration
	}{
		{nil, nil, DefaultDBMaxOpenSQLite, DefaultDBMaxOpenSQLite, 30 * time.Minute, 5 * time.Minute},
		{nil, pg, DefaultDBMaxOpenPostgres, DefaultDBMaxOpenPostgres, 30 * time.Minute, 5 * time.Minute},
		{[]string{"--db-max-open", "50"}, pg, 50, 50, 30 * time.Minute, 5 * time.Minute},
		{[]string{"--db-max-idle", "10"}, pg, 20, 10, 30 * time.Minute, 5 * time.Minute},
		{[]string{"--db-max-idle", "8"}, nil, 8, 8, 30 * time.Minute, 5 * time.Minute},
		{[]string{"--db-max-open", "4", "--db-max-idle", "1", "--db-conn-max-lifetime", "1m", "--db-conn-max-idle-time", "1s"}, nil, 4, 1, time.Minute, time.Second},
		// An empty flag returns to the rule (over an environment value).
		{[]string{"--db-max-open", ""}, map[string]string{"KISEN_DB_MAX_OPEN": "3"}, 8, 8, 30 * time.Minute, 5 * time.Minute},
	}
	for _, tc := range cases {
		c, err := Load("serve", tc.args, envOf(tc.env), io.Discard)
		if err != nil {
			t.Errorf("%v %v: %v", tc.args, tc.env, err)
			continue
		}
		if c.DBMaxOpenConns() != tc.open || c.DBMaxIdleConns() != tc.idle || c.DBConnMaxLifetime != tc.lifetime || c.DBConnMaxIdleTime != tc.idleTo {
			t.Errorf("%v %v: open %d idle %d lifetime %s idle time %s, want %d %d %s %s", tc.args, tc.env,
				c.DBMaxOpenConns(), c.DBMaxIdleConns(), c.DBConnMaxLifetime, c.DBConnMaxIdleTime, tc.open, tc.idle, tc.lifetime, tc.idleTo)
		}
	}
	_, err := Load("serve", []string{"--db-max-open", "10", "--db-max-idle", "12"}, envOf(nil), io.Discard)
	var fe *FieldError
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), "db-max-idle") || !strings.Contains(fe.Reason, "db-max-open (10)") {
		t.Fatalf("idle over open: %v, want a message naming both settings", err)
	}
}
