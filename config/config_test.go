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
		"KISEN_LISTEN":           "0.0.0.0:9000",
		"KISEN_DATABASE_URL":     "postgres://u:p@db:5432/kisen",
		"KISEN_LOG_FORMAT":       "json",
		"KISEN_LOG_LEVEL":        "debug",
		"KISEN_SECURE_COOKIES":   "true",
		"KISEN_METRICS_LISTEN":   "127.0.0.1:9100",
		"KISEN_SHUTDOWN_TIMEOUT": "30s",
		"KISEN_RETRY_AFTER":      "12s",
		"KISEN_DATA_DIR":         "/srv/kisen",
		"KISEN_TRUSTED_PROXIES":  "10.0.0.0/8, 192.0.2.7",
		"KISEN_RATING_REFRESH":   "750ms",
	}
	c, err = Load("serve", []string{"--listen", "127.0.0.1:7000", "--log-level", "warn"}, envOf(env), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	want := Config{Listen: "127.0.0.1:7000", DataDir: "/srv/kisen", DatabaseURL: "postgres://u:p@db:5432/kisen",
		LogFormat: "json", LogLevel: slog.LevelWarn, SecureCookies: true, MetricsListen: "127.0.0.1:9100", ShutdownTimeout: 30 * time.Second,
		RetryAfter: 12 * time.Second, RatingRefresh: 750 * time.Millisecond}
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
