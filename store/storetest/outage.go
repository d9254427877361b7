package storetest

import (
	"context"
	"database/sql"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"kisen/store"
)

// Outage makes one test database unreachable and reachable again, from the
// admin connection: new connections are refused and existing ones are
// terminated, which is what clients see when PostgreSQL goes down.
type Outage struct {
	t     *testing.T
	adm   *sql.DB
	dbase string
}

// PostgresOutage prepares an outage of the test database behind o (from
// PostgresOptions). The database is made reachable again at cleanup, so it
// can be dropped.
func PostgresOutage(t *testing.T, o store.Options) *Outage {
	t.Helper()
	u, err := url.Parse(o.URL)
	if err != nil {
		t.Fatal(err)
	}
	name := strings.TrimPrefix(u.Path, "/")
	if !strings.HasPrefix(name, "kisen_test_") {
		t.Fatalf("outage only of a test database, not %q", name)
	}
	adm, err := sql.Open("pgx", os.Getenv("KISEN_TEST_DATABASE_URL"))
	if err != nil {
		t.Fatal(err)
	}
	out := &Outage{t: t, adm: adm, dbase: name}
	t.Cleanup(func() {
		out.End()
		_ = adm.Close()
	})
	return out
}

// Begin refuses new connections to the database and ends the open ones.
func (o *Outage) Begin() {
	o.t.Helper()
	o.exec("ALTER DATABASE " + o.dbase + " ALLOW_CONNECTIONS false")
	o.exec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '" + o.dbase + "' AND pid <> pg_backend_pid()")
}

// End allows connections again.
func (o *Outage) End() {
	o.t.Helper()
	o.exec("ALTER DATABASE " + o.dbase + " ALLOW_CONNECTIONS true")
}

func (o *Outage) exec(q string) {
	o.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := o.adm.ExecContext(ctx, q); err != nil {
		o.t.Fatalf("%s: %v", q, err)
	}
}
