// Package config reads every setting of Kisen from flags and environment
// into one validated struct that is passed down explicitly.
package config

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Config is the whole configuration of one Kisen process.
type Config struct {
	Listen        string     // address of the web server
	DataDir       string     // folder for the embedded SQLite database and other files
	DatabaseURL   string     // postgres://… or empty for SQLite under DataDir
	LogFormat     string     // text | json
	LogLevel      slog.Level // debug | info | warn | error
	SecureCookies bool       // set the Secure flag on cookies (behind HTTPS)
	MetricsListen string     // separate address for /metrics; empty: none
	// MetricsPublic serves /metrics on the main address too (issue 21
	// item 12: off by default, the metrics name every route and its load).
	MetricsPublic   bool
	ShutdownTimeout time.Duration // how long in-flight requests get on SIGTERM
	RetryAfter      time.Duration // Retry-After of a 503 while the database is unreachable
	// RatingRefresh is how often the rating worker of `kisen serve` checks
	// whether results changed (one row read) and recomputes when they did.
	RatingRefresh time.Duration
	// TrustedProxies are the networks of reverse proxies whose
	// X-Forwarded-For is believed for the client address (the sign-in
	// limit counts per address); empty trusts no header.
	TrustedProxies []*net.IPNet
	// The database connection pool (docs/caching.md). DBMaxOpen and
	// DBMaxIdle 0 mean "by database": see DBMaxOpenConns, DBMaxIdleConns.
	DBMaxOpen         int
	DBMaxIdle         int
	DBConnMaxLifetime time.Duration // a connection is closed after this long
	DBConnMaxIdleTime time.Duration // an idle connection is closed after this long
	// APIRate is how many requests per second one client address may make
	// to /api/v1 on average, APIBurst how many at once (docs/api.md);
	// beyond them the API answers 429 with Retry-After. APIRate 0 turns
	// the limit off.
	APIRate  float64
	APIBurst int
	// Live pages (docs/live.md): open event streams in total and per
	// client address, the comment sent on a quiet stream so proxies keep
	// it open, and how often SQLite's revision rows are read.
	LiveMaxStreams    int
	LiveMaxPerAddress int
	LiveHeartbeat     time.Duration
	LivePoll          time.Duration
}

// Pool sizes when --db-max-open is not set. PostgreSQL serves several
// readers and writers at once; SQLite has one writer (WAL lets readers
// proceed alongside it), so more connections only queue on its lock.
const (
	DefaultDBMaxOpenPostgres = 20
	DefaultDBMaxOpenSQLite   = 8
	maxPoolSize              = 1000
)

// Default is the configuration of `make run` on a fresh clone.
func Default() Config {
	return Config{
		Listen:          "127.0.0.1:8080",
		DataDir:         "var",
		LogFormat:       "text",
		LogLevel:        slog.LevelInfo,
		ShutdownTimeout: 15 * time.Second,
		RetryAfter:      5 * time.Second,
		// Lifetime bounds how long a connection outlives a failover or a
		// PostgreSQL setting change; idle time returns a burst's extra
		// connections to the server within minutes.
		DBConnMaxLifetime: 30 * time.Minute,
		DBConnMaxIdleTime: 5 * time.Minute,
		RatingRefresh:     2 * time.Second,
		APIRate:           10,
		APIBurst:          60,
		// A venue's spectators often share one address (the hall's Wi-Fi):
		// the per-address limit is generous; the total bounds memory.
		LiveMaxStreams:    5000,
		LiveMaxPerAddress: 200,
		LiveHeartbeat:     25 * time.Second,
		LivePoll:          250 * time.Millisecond,
	}
}

// FieldError names the setting that is wrong and why.
type FieldError struct {
	Field  string // flag name, e.g. "listen"
	Env    string // environment variable, e.g. "KISEN_LISTEN"
	Value  string
	Reason string
}

func (e *FieldError) Error() string {
	return fmt.Sprintf("setting %s (--%s / %s) = %q: %s", e.Field, e.Field, e.Env, e.Value, e.Reason)
}

// setting describes one configuration field: its flag, its variable and how
// to parse it into the struct.
type setting struct {
	name  string
	env   string
	usage string
	def   func(Config) string
	set   func(*Config, string) error
}

func settings() []setting {
	return []setting{
		{"listen", "KISEN_LISTEN", "address to listen on (host:port)",
			func(c Config) string { return c.Listen },
			func(c *Config, v string) error {
				if _, _, err := net.SplitHostPort(v); err != nil {
					return errors.New("must be host:port, e.g. 127.0.0.1:8080")
				}
				c.Listen = v
				return nil
			}},
		{"data-dir", "KISEN_DATA_DIR", "folder for the SQLite database",
			func(c Config) string { return c.DataDir },
			func(c *Config, v string) error {
				if strings.TrimSpace(v) == "" {
					return errors.New("must not be empty")
				}
				c.DataDir = filepath.Clean(v)
				return nil
			}},
		{"database-url", "KISEN_DATABASE_URL", "postgres://… (empty: SQLite under the data folder)",
			func(c Config) string { return c.DatabaseURL },
			func(c *Config, v string) error {
				if v == "" {
					c.DatabaseURL = ""
					return nil
				}
				u, err := url.Parse(v)
				if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") || u.Host == "" {
					return errors.New("must be a postgres:// or postgresql:// URL with a host")
				}
				c.DatabaseURL = v
				return nil
			}},
		{"log-format", "KISEN_LOG_FORMAT", "text | json",
			func(c Config) string { return c.LogFormat },
			func(c *Config, v string) error {
				if v != "text" && v != "json" {
					return errors.New("must be text or json")
				}
				c.LogFormat = v
				return nil
			}},
		{"log-level", "KISEN_LOG_LEVEL", "debug | info | warn | error",
			func(c Config) string { return strings.ToLower(c.LogLevel.String()) },
			func(c *Config, v string) error {
				var l slog.Level
				switch strings.ToLower(v) {
				case "debug", "info", "warn", "error":
					if err := l.UnmarshalText([]byte(v)); err != nil {
						return err
					}
				default:
					return errors.New("must be debug, info, warn or error")
				}
				c.LogLevel = l
				return nil
			}},
		{"secure-cookies", "KISEN_SECURE_COOKIES", "mark cookies Secure (true when served over HTTPS)",
			func(c Config) string { return strconv.FormatBool(c.SecureCookies) },
			func(c *Config, v string) error {
				b, err := strconv.ParseBool(v)
				if err != nil {
					return errors.New("must be true or false")
				}
				c.SecureCookies = b
				return nil
			}},
		{"metrics-public", "KISEN_METRICS_PUBLIC", "also serve /metrics on the main address (false: only on --metrics-listen)",
			func(c Config) string { return strconv.FormatBool(c.MetricsPublic) },
			func(c *Config, v string) error {
				b, err := strconv.ParseBool(v)
				if err != nil {
					return errors.New("must be true or false")
				}
				c.MetricsPublic = b
				return nil
			}},
		{"metrics-listen", "KISEN_METRICS_LISTEN", "separate host:port for /metrics (empty: none; see --metrics-public)",
			func(c Config) string { return c.MetricsListen },
			func(c *Config, v string) error {
				if v != "" {
					if _, _, err := net.SplitHostPort(v); err != nil {
						return errors.New("must be empty or host:port")
					}
				}
				c.MetricsListen = v
				return nil
			}},
		{"shutdown-timeout", "KISEN_SHUTDOWN_TIMEOUT", "grace period for in-flight requests on SIGTERM",
			func(c Config) string { return c.ShutdownTimeout.String() },
			func(c *Config, v string) error {
				d, err := time.ParseDuration(v)
				if err != nil || d <= 0 || d > 10*time.Minute {
					return errors.New("must be a duration between 0s and 10m, e.g. 15s")
				}
				c.ShutdownTimeout = d
				return nil
			}},
		{"trusted-proxies", "KISEN_TRUSTED_PROXIES", "comma-separated networks (CIDR) of reverse proxies whose X-Forwarded-For is believed; empty believes none",
			func(c Config) string {
				out := make([]string, len(c.TrustedProxies))
				for i, n := range c.TrustedProxies {
					out[i] = n.String()
				}
				return strings.Join(out, ",")
			},
			func(c *Config, v string) error {
				var nets []*net.IPNet
				for _, part := range strings.Split(v, ",") {
					part = strings.TrimSpace(part)
					if part == "" {
						continue
					}
					if !strings.Contains(part, "/") { // a single address
						if ip := net.ParseIP(part); ip != nil && ip.To4() != nil {
							part += "/32"
						} else {
							part += "/128"
						}
					}
					_, n, err := net.ParseCIDR(part)
					if err != nil {
						return fmt.Errorf("%q is not a network: use CIDR such as 10.0.0.0/8 or an address", part)
					}
					nets = append(nets, n)
				}
				c.TrustedProxies = nets
				return nil
			}},
		{"retry-after", "KISEN_RETRY_AFTER", "Retry-After of the 503 answered while the database is unreachable",
			func(c Config) string { return c.RetryAfter.String() },
			func(c *Config, v string) error {
				d, err := time.ParseDuration(v)
				if err != nil || d < time.Second || d > time.Hour {
					return errors.New("must be a duration between 1s and 1h, e.g. 5s")
				}
				c.RetryAfter = d
				return nil
			}},
		{"rating-refresh", "KISEN_RATING_REFRESH", "how often the rating worker checks for new results and recomputes (one row read while idle)",
			func(c Config) string { return c.RatingRefresh.String() },
			func(c *Config, v string) error {
				d, err := time.ParseDuration(v)
				if err != nil || d < 100*time.Millisecond || d > time.Hour {
					return errors.New("must be a duration between 100ms and 1h, e.g. 2s")
				}
				c.RatingRefresh = d
				return nil
			}},
		{"api-rate", "KISEN_API_RATE", "API requests per second per client address on average (0: no limit)",
			func(c Config) string { return strconv.FormatFloat(c.APIRate, 'f', -1, 64) },
			func(c *Config, v string) error {
				f, err := strconv.ParseFloat(v, 64)
				if err != nil || f < 0 || f > 100000 || f != f {
					return errors.New("must be a number between 0 and 100000, e.g. 10")
				}
				c.APIRate = f
				return nil
			}},
		{"api-burst", "KISEN_API_BURST", "API requests one client address may make at once before the rate applies",
			func(c Config) string { return strconv.Itoa(c.APIBurst) },
			func(c *Config, v string) error {
				n, err := strconv.Atoi(v)
				if err != nil || n < 1 || n > 100000 {
					return errors.New("must be a whole number between 1 and 100000, e.g. 60")
				}
				c.APIBurst = n
				return nil
			}},
		{"live-max-streams", "KISEN_LIVE_MAX_STREAMS", "most open live-page streams (/events/:id/stream) in this process",
			func(c Config) string { return strconv.Itoa(c.LiveMaxStreams) },
			func(c *Config, v string) error {
				n, err := strconv.Atoi(v)
				if err != nil || n < 1 || n > 1000000 {
					return errors.New("must be a whole number from 1 to 1000000")
				}
				c.LiveMaxStreams = n
				return nil
			}},
		{"live-max-per-address", "KISEN_LIVE_MAX_PER_ADDRESS", "most open live-page streams from one client address",
			func(c Config) string { return strconv.Itoa(c.LiveMaxPerAddress) },
			func(c *Config, v string) error {
				n, err := strconv.Atoi(v)
				if err != nil || n < 1 || n > 1000000 {
					return errors.New("must be a whole number from 1 to 1000000")
				}
				c.LiveMaxPerAddress = n
				return nil
			}},
		{"live-heartbeat", "KISEN_LIVE_HEARTBEAT", "how often a quiet live-page stream sends a comment (keeps proxies from closing it)",
			func(c Config) string { return c.LiveHeartbeat.String() },
			func(c *Config, v string) error {
				d, err := time.ParseDuration(v)
				if err != nil || d < 100*time.Millisecond || d > 5*time.Minute {
					return errors.New("must be a duration between 100ms and 5m, e.g. 25s")
				}
				c.LiveHeartbeat = d
				return nil
			}},
		{"live-poll", "KISEN_LIVE_POLL", "SQLite only: how often the revision rows are read for writes made by other commands (this process's own writes are seen at once)",
			func(c Config) string { return c.LivePoll.String() },
			func(c *Config, v string) error {
				d, err := time.ParseDuration(v)
				if err != nil || d < 10*time.Millisecond || d > 10*time.Second {
					return errors.New("must be a duration between 10ms and 10s, e.g. 250ms")
				}
				c.LivePoll = d
				return nil
			}},
		{"db-max-open", "KISEN_DB_MAX_OPEN", fmt.Sprintf("most open database connections per process (empty: %d for PostgreSQL, %d for SQLite)", DefaultDBMaxOpenPostgres, DefaultDBMaxOpenSQLite),
			func(c Config) string { return poolSize(c.DBMaxOpen) },
			func(c *Config, v string) error {
				n, err := parsePoolSize(v)
				if err != nil {
					return err
				}
				c.DBMaxOpen = n
				return nil
			}},
		{"db-max-idle", "KISEN_DB_MAX_IDLE", "most idle database connections kept open (empty: as many as --db-max-open; at most --db-max-open)",
			func(c Config) string { return poolSize(c.DBMaxIdle) },
			func(c *Config, v string) error {
				n, err := parsePoolSize(v)
				if err != nil {
					return err
				}
				c.DBMaxIdle = n
				return nil
			}},
		{"db-conn-max-lifetime", "KISEN_DB_CONN_MAX_LIFETIME", "close a database connection after it has been open this long",
			func(c Config) string { return c.DBConnMaxLifetime.String() },
			func(c *Config, v string) error {
				d, err := parsePoolDuration(v)
				if err != nil {
					return err
				}
				c.DBConnMaxLifetime = d
				return nil
			}},
		{"db-conn-max-idle-time", "KISEN_DB_CONN_MAX_IDLE_TIME", "close a database connection after it has been idle this long",
			func(c Config) string { return c.DBConnMaxIdleTime.String() },
			func(c *Config, v string) error {
				d, err := parsePoolDuration(v)
				if err != nil {
					return err
				}
				c.DBConnMaxIdleTime = d
				return nil
			}},
	}
}

// Load reads the environment first, then the flags in args (flags win).
// Output for -h and flag errors goes to out. The error names the setting.
func Load(name string, args []string, getenv func(string) string, out io.Writer) (Config, error) {
	c := Default()
	all := settings()
	for _, s := range all {
		if v, ok := lookup(getenv, s.env); ok {
			if err := s.set(&c, v); err != nil {
				return Config{}, &FieldError{Field: s.name, Env: s.env, Value: v, Reason: err.Error()}
			}
		}
	}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(out)
	var ferr error
	for _, s := range all {
		s := s
		fs.Func(s.name, fmt.Sprintf("%s (env %s, default %q)", s.usage, s.env, s.def(Default())), func(v string) error {
			if err := s.set(&c, v); err != nil {
				ferr = &FieldError{Field: s.name, Env: s.env, Value: v, Reason: err.Error()}
				return err
			}
			return nil
		})
	}
	if err := fs.Parse(args); err != nil {
		if ferr != nil {
			return Config{}, ferr
		}
		return Config{}, err
	}
	if fs.NArg() > 0 {
		return Config{}, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if err := c.checkPool(); err != nil {
		return Config{}, err
	}
	return c, nil
}

// checkPool refuses more idle connections than open ones (the settings
// may come from different sources, so this runs after all of them).
func (c Config) checkPool() error {
	if c.DBMaxIdleConns() > c.DBMaxOpenConns() {
		return &FieldError{Field: "db-max-idle", Env: "KISEN_DB_MAX_IDLE", Value: strconv.Itoa(c.DBMaxIdle),
			Reason: fmt.Sprintf("must not exceed db-max-open (%d)", c.DBMaxOpenConns())}
	}
	return nil
}

// DBMaxOpenConns is the pool's open-connection limit: --db-max-open, or
// by database when it is not set.
func (c Config) DBMaxOpenConns() int {
	switch {
	case c.DBMaxOpen > 0:
		return c.DBMaxOpen
	case c.UsesPostgres():
		return DefaultDBMaxOpenPostgres
	}
	return DefaultDBMaxOpenSQLite
}

// DBMaxIdleConns is how many idle connections the pool keeps: --db-max-idle,
// or as many as may be open. Issue 12 asks for at least half the open
// limit: fewer idle than open makes a burst close and reopen connections.
func (c Config) DBMaxIdleConns() int {
	if c.DBMaxIdle > 0 {
		return c.DBMaxIdle
	}
	return c.DBMaxOpenConns()
}

func poolSize(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}

func parsePoolSize(v string) (int, error) {
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > maxPoolSize {
		return 0, fmt.Errorf("must be a whole number from 1 to %d, or empty for the default", maxPoolSize)
	}
	return n, nil
}

func parsePoolDuration(v string) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	if err != nil || d < time.Second || d > 24*time.Hour {
		return 0, errors.New("must be a duration between 1s and 24h, e.g. 30m")
	}
	return d, nil
}

func lookup(getenv func(string) string, key string) (string, bool) {
	v := getenv(key)
	return v, v != ""
}

// SQLitePath is the database file used when DatabaseURL is empty.
func (c Config) SQLitePath() string { return filepath.Join(c.DataDir, "kisen.db") }

// UsesPostgres reports whether the configuration points at PostgreSQL.
func (c Config) UsesPostgres() bool { return c.DatabaseURL != "" }
