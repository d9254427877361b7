package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"kisen/config"
)

func runCmd(t *testing.T, ctx context.Context, getenv func(string) string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(ctx, env{args: args, stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: getenv})
	return code, out.String(), errb.String()
}

func noEnv(string) string { return "" }

func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestServe_BadSettingsStopStartupNamingTheSetting(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		args   []string
		env    map[string]string
		naming string
	}{
		{"listen flag", []string{"serve", "--listen", "nonsense"}, nil, "listen"},
		{"log level env", []string{"serve"}, map[string]string{"KISEN_LOG_LEVEL": "loud"}, "KISEN_LOG_LEVEL"},
		{"database url", []string{"serve", "--database-url", "mysql://x"}, nil, "database-url"},
		{"secure cookies", []string{"serve"}, map[string]string{"KISEN_SECURE_COOKIES": "perhaps"}, "KISEN_SECURE_COOKIES"},
		{"shutdown timeout", []string{"serve", "--shutdown-timeout", "-3s"}, nil, "shutdown-timeout"},
		{"pool", []string{"serve", "--db-max-open", "10"}, map[string]string{"KISEN_DB_MAX_IDLE": "30"}, "db-max-idle"},
		{"live streams", []string{"serve", "--live-max-streams", "0"}, nil, "live-max-streams"},
		{"live heartbeat", []string{"serve"}, map[string]string{"KISEN_LIVE_HEARTBEAT": "forever"}, "KISEN_LIVE_HEARTBEAT"},
		{"unknown flag", []string{"serve", "--colour", "red"}, nil, "colour"},
		{"stray argument", []string{"serve", "now"}, nil, "now"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, stderr := runCmd(t, context.Background(), envOf(c.env), c.args...)
			if code != 2 {
				t.Fatalf("exit %d, want 2; stderr %s", code, stderr)
			}
			if !strings.Contains(stderr, c.naming) {
				t.Fatalf("message does not name %q: %s", c.naming, stderr)
			}
		})
	}
}

func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return addr
}

// TestServe_StartsMigratesServesAndStops runs the real command on a fresh
// data folder: it creates and migrates the database, serves /healthz and
// /readyz, and shuts down cleanly when its context ends (as on SIGTERM).
func TestServe_StartsMigratesServesAndStops(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "data")
	addr := freePort(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	var errb bytes.Buffer
	go func() {
		done <- run(ctx, env{args: []string{"serve", "--listen", addr, "--data-dir", dir, "--log-level", "warn"},
			stdin: strings.NewReader(""), stdout: pw, stderr: &errb, getenv: noEnv})
		_ = pw.Close()
	}()
	lines := make(chan string, 16)
	go func() {
		buf := make([]byte, 4096)
		var acc string
		for {
			n, err := pr.Read(buf)
			acc += string(buf[:n])
			for {
				i := strings.IndexByte(acc, '\n')
				if i < 0 {
					break
				}
				lines <- acc[:i]
				acc = acc[i+1:]
			}
			if err != nil {
				close(lines)
				return
			}
		}
	}()
	select {
	case l := <-lines:
		if !strings.Contains(l, "http://"+addr) {
			t.Fatalf("first line should give the URL, got %q", l)
		}
	case <-time.After(2 * time.Minute): // it migrates a new database first: seconds under -race, more on a loaded machine
		t.Fatalf("server did not start; stderr: %s", errb.String())
	}
	for _, path := range []string{"/healthz", "/readyz"} {
		resp, err := http.Get("http://" + addr + path)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d", path, resp.StatusCode)
		}
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("exit %d after shutdown; stderr %s", code, errb.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("server did not stop after its context ended")
	}
	// The database exists and is migrated: migrate status shows no pending.
	code, out, stderr := runCmd(t, context.Background(), noEnv, "migrate", "status", "--data-dir", dir)
	if code != 0 {
		t.Fatalf("migrate status: %d %s", code, stderr)
	}
	if strings.Contains(out, "pending") || !regexp.MustCompile(`(?m)^00001\tapplied`).MatchString(out) {
		t.Fatalf("migrate status after serve:\n%s", out)
	}
}

func TestMigrate_UpDownStatus(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	code, out, stderr := runCmd(t, context.Background(), noEnv, "migrate", "up", "--data-dir", dir)
	if code != 0 || strings.Contains(out, "pending") {
		t.Fatalf("up: %d %s %s", code, out, stderr)
	}
	applied := strings.Count(out, "applied")
	code, out, _ = runCmd(t, context.Background(), noEnv, "migrate", "down", "--data-dir", dir)
	if code != 0 || strings.Count(out, "pending") != 1 || strings.Count(out, "applied") != applied-1 {
		t.Fatalf("down should leave exactly one pending:\n%s", out)
	}
	code, _, stderr = runCmd(t, context.Background(), noEnv, "migrate", "sideways")
	if code != 2 || !strings.Contains(stderr, "up, down, status") {
		t.Fatalf("bad action: %d %s", code, stderr)
	}
}

func TestRun_UnknownCommand(t *testing.T) {
	t.Parallel()
	code, _, stderr := runCmd(t, context.Background(), noEnv, "fly")
	if code != 2 || !strings.Contains(stderr, fmt.Sprintf("%q", "fly")) {
		t.Fatalf("%d %s", code, stderr)
	}
}

// Issue 12 part 5: the pool settings reach store.Open resolved.
func TestPool_StoreOptionsFromConfig(t *testing.T) {
	t.Parallel()
	cfg, err := config.Load("serve", []string{"--database-url", "postgres://db/kisen", "--db-max-idle", "12",
		"--db-conn-max-lifetime", "1h", "--db-conn-max-idle-time", "2m"}, noEnv, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	o := storeOptions(cfg)
	if o.URL != "postgres://db/kisen" || o.MaxOpenConns != config.DefaultDBMaxOpenPostgres || o.MaxIdleConns != 12 ||
		o.ConnMaxLifetime != time.Hour || o.ConnMaxIdleTime != 2*time.Minute {
		t.Fatalf("options %+v", o)
	}
	cfg, err = config.Load("serve", nil, noEnv, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if o := storeOptions(cfg); o.MaxOpenConns != config.DefaultDBMaxOpenSQLite || o.MaxIdleConns != o.MaxOpenConns {
		t.Fatalf("sqlite defaults %+v", o)
	}
}
