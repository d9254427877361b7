package web

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"kisen/store"
	"kisen/store/storetest"
)

// eachBrowserDB runs a browser test once per database (SQLite and
// PostgreSQL, at the same time: the two share nothing), each with a fresh
// store. With KISEN_SCREENSHOT_DIR set, each database's screenshots go to a
// folder named after it (screenshotDir), so the second run does not
// overwrite the first.
func eachBrowserDB(t *testing.T, fn func(t *testing.T, s *store.Store)) {
	t.Helper()
	storetest.EachParallel(t, fn)
}

// screenshotDir is the folder a test's screenshots and PDFs go to:
// KISEN_SCREENSHOT_DIR, in it the folder of the database the test runs on
// (its sqlite or postgres subtest: eachBrowserDB, eachApp), or the test's
// temporary folder when the variable is not set. Read from the test's name,
// not set with t.Setenv: the tests run in parallel.
func screenshotDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("KISEN_SCREENSHOT_DIR")
	if dir == "" {
		return t.TempDir()
	}
	parts := strings.Split(t.Name(), "/")
	for _, db := range []string{"sqlite", "postgres"} {
		if slices.Contains(parts[1:], db) {
			dir = filepath.Join(dir, db)
			break
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}
