package web

import (
	"os"
	"path/filepath"
	"testing"

	"kisen/store"
	"kisen/store/storetest"
)

// eachBrowserDB runs a browser test once per database (SQLite, then
// PostgreSQL), each with a fresh store. With KISEN_SCREENSHOT_DIR set,
// each database's screenshots go to a folder named after it, so the second
// run does not overwrite the first.
func eachBrowserDB(t *testing.T, fn func(t *testing.T, s *store.Store)) {
	t.Helper()
	dir := os.Getenv("KISEN_SCREENSHOT_DIR")
	for _, db := range []struct {
		name string
		open func(testing.TB) *store.Store
	}{{"sqlite", storetest.SQLite}, {"postgres", storetest.Postgres}} {
		t.Run(db.name, func(t *testing.T) {
			if dir != "" {
				sub := filepath.Join(dir, db.name)
				if err := os.MkdirAll(sub, 0o755); err != nil {
					t.Fatal(err)
				}
				t.Setenv("KISEN_SCREENSHOT_DIR", sub)
			}
			fn(t, db.open(t))
		})
	}
}
