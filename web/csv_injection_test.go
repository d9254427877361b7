package web

import (
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"kisen/office"
	"kisen/office/ratings"
	"kisen/office/seed"
)

// Issue 21 item 8: every CSV download neutralises a cell a spreadsheet
// would run as a formula. The hostile names are OWASP's examples; each is
// seeded straight into the database (as an old row or another client
// could have stored it) and must come back with a leading quote, while an
// ordinary Japanese name comes back unchanged.
var csvHostile = []string{`=HYPERLINK("x")`, "+1", "-1+1", "@SUM(A1)", "\tX", "\rX"}

// csvFormulaChar is the set of first characters a spreadsheet evaluates.
func csvFormulaChar(s string) bool { return s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) }

// csvCells downloads path and returns its rows (BOM removed).
func csvCells(t *testing.T, a *testApp, path string) [][]string {
	t.Helper()
	resp, body := a.get(path)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: %d", path, resp.StatusCode)
	}
	r := csv.NewReader(strings.NewReader(strings.TrimPrefix(body, "\ufeff")))
	r.FieldsPerRecord = -1
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rows
}

// checkNeutralised asserts that no cell of the download starts a formula,
// except cells of the columns named in numbers that are plain numbers
// Kisen wrote (a bye's "-" included), that every hostile value of want
// appears with one quote before it, and that every name of plain appears
// unchanged.
func checkNeutralised(t *testing.T, path string, rows [][]string, want, plain []string, numbers ...string) {
	t.Helper()
	if len(rows) < 2 {
		t.Fatalf("%s: %d rows", path, len(rows))
	}
	numCol := map[int]bool{}
	for i, h := range rows[0] {
		for _, n := range numbers {
			if h == n {
				numCol[i] = true
			}
		}
	}
	seen := map[string]bool{}
	for _, row := range rows[1:] {
		for i, c := range row {
			seen[c] = true
			if !csvFormulaChar(c) {
				continue
			}
			if numCol[i] && (c == "-" || strings.Trim(c, "-0123456789.") == "") {
				continue
			}
			t.Errorf("%s: column %s holds %q, a formula for a spreadsheet", path, rows[0][i], c)
		}
	}
	for _, h := range want {
		if !seen["'"+h] {
			t.Errorf("%s: no cell %q (the hostile %q neutralised)", path, "'"+h, h)
		}
	}
	for _, p := range plain {
		if !seen[p] {
			t.Errorf("%s: the ordinary name %q does not appear unchanged", path, p)
		}
	}
}

// renameRows sets column col of the rows with ids to the hostile values,
// in order, straight in the database.
func renameRows(t *testing.T, a *testApp, table, col string, ids []int64, values []string) {
	t.Helper()
	for i, id := range ids {
		if err := a.store.DB(context.Background()).Table(table).Where("id = ?", id).Update(col, values[i]).Error; err != nil {
			t.Fatal(err)
		}
	}
}

func playerIDs(t *testing.T, a *testApp) []int64 {
	t.Helper()
	var ids []int64
	if err := a.store.DB(context.Background()).Table("players").Order("id").Pluck("id", &ids).Error; err != nil {
		t.Fatal(err)
	}
	return ids
}

func playerName(t *testing.T, a *testApp, id int64) string {
	t.Helper()
	p, err := a.store.PlayerByID(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return p.Name
}

func csvFixture(t *testing.T, a *testApp) *seed.Fixture {
	t.Helper()
	f, err := seed.New(context.Background(), a.srv.Office, a.store, a.now)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestCSVInjection_PlayersExportNeutralisesFormulas(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := csvFixture(t, a)
		if _, err := f.Players(context.Background(), 8, ""); err != nil {
			t.Fatal(err)
		}
		ids := playerIDs(t, a)
		renameRows(t, a, "players", "name", ids[:6], csvHostile)
		renameRows(t, a, "players", "reading", ids[:1], []string{"=1+1"})
		plain := playerName(t, a, ids[7])
		rows := csvCells(t, a, "/players/export.csv")
		checkNeutralised(t, "players", rows, append(csvHostile, "=1+1"), []string{plain}, "id", "master_id")
	})
}

func TestCSVInjection_RatingsExportNeutralisesFormulas(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := csvFixture(t, a)
		me, err := f.Record(context.Background(), 12)
		if err != nil {
			t.Fatal(err)
		}
		ids := playerIDs(t, a)
		renameRows(t, a, "players", "name", ids[1:7], csvHostile)
		if _, err := ratings.New(a.srv.Office).RefreshRatingsIfStale(context.Background()); err != nil {
			t.Fatal(err)
		}
		rows := csvCells(t, a, "/ratings/export.csv")
		checkNeutralised(t, "ratings", rows, csvHostile, []string{me.Name},
			"place", "player_id", "rating", "rd", "games", "wins", "losses")
	})
}

func TestCSVInjection_RecordExportNeutralisesFormulas(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := csvFixture(t, a)
		me, err := f.Record(context.Background(), 12)
		if err != nil {
			t.Fatal(err)
		}
		ids := playerIDs(t, a)
		renameRows(t, a, "players", "name", ids[1:7], csvHostile)
		plain := playerName(t, a, ids[8])
		var ev int64
		if err := a.store.DB(context.Background()).Table("events").Order("id").Limit(1).Pluck("id", &ev).Error; err != nil {
			t.Fatal(err)
		}
		renameRows(t, a, "events", "name", []int64{ev}, []string{"@SUM(1+1)*cmd"})
		if _, err := ratings.New(a.srv.Office).RefreshRatingsIfStale(context.Background()); err != nil {
			t.Fatal(err)
		}
		rows := csvCells(t, a, fmt.Sprintf("/players/%d/record.csv", me.ID))
		checkNeutralised(t, "record", rows, append(csvHostile, "@SUM(1+1)*cmd"), []string{plain},
			"game_id", "event_id", "opponent_id", "rating_before", "rating_after")
	})
}

func TestCSVInjection_StageExportNeutralisesFormulas(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := csvFixture(t, a)
		_, st, err := f.Knockout(context.Background(), 8, 1)
		if err != nil {
			t.Fatal(err)
		}
		ids := playerIDs(t, a)
		renameRows(t, a, "players", "name", ids[:6], csvHostile)
		renameRows(t, a, "knockout_stages", "name", []int64{st.ID}, []string{"-2+3"})
		plain := playerName(t, a, ids[7])
		rows := csvCells(t, a, fmt.Sprintf("/stages/%d/csv", st.ID))
		checkNeutralised(t, "stage", rows, append(csvHostile, "-2+3"), []string{plain}, "redos", "game_id")
	})
}

func TestCSVInjection_LeagueScheduleNeutralisesFormulas(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := csvFixture(t, a)
		_, cl, err := f.League(context.Background(), 11, 5)
		if err != nil {
			t.Fatal(err)
		}
		ids := playerIDs(t, a)
		renameRows(t, a, "players", "name", ids[:6], csvHostile)
		renameRows(t, a, "players", "number", ids[6:7], []string{"+81"})
		plain := playerName(t, a, ids[7])
		rows := csvCells(t, a, fmt.Sprintf("/league/%d/schedule.csv", cl.ID))
		checkNeutralised(t, "league", rows, append(csvHostile, "+81"), []string{plain}, "junni", "round")
	})
}

// An exported registry whose names begin like formulas re-imports
// unchanged: the import takes off the quote the export added
// (docs/downloads.md).
func TestCSVInjection_PlayersExportRoundTripsThroughImport(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		names := []string{`=HYPERLINK("x")`, "+1", "-1+1", "@SUM(A1)", "'=quoted", "羽生 善治"}
		for i := range names {
			playersSeed(t, a, office.PlayerInput{Name: fmt.Sprintf("棋士%d", i), Reading: "きし", Kind: "professional", Rank: "四段", Number: fmt.Sprintf("N%d", i)})
		}
		renameRows(t, a, "players", "name", playerIDs(t, a), names)
		_, body := a.get("/players/export.csv")
		if !strings.Contains(body, `"'=HYPERLINK(""x"")"`) || !strings.Contains(body, "''=quoted") {
			t.Fatalf("export does not neutralise: %q", body)
		}
		a.signInAdmin()
		resp, _ := a.uploadCSV("/players/import", body)
		if resp.StatusCode != http.StatusSeeOther || !strings.Contains(resp.Header.Get("Location"), "created=0&updated=0&unchanged=6") {
			t.Errorf("re-upload: %d %s", resp.StatusCode, resp.Header.Get("Location"))
		}
		for i, id := range playerIDs(t, a) {
			if got := playerName(t, a, id); got != names[i] {
				t.Errorf("after the round trip player %d is %q, want %q", id, got, names[i])
			}
		}
	})
}

// The writer's rule on its own: the exemption for Kisen's numbers holds
// only for plain numbers; user text in any column is neutralised; the
// import's inverse is exact.
func TestCSVWriter_NeutralisesAllButOwnNumbers(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	w := office.NewCSVWriter(&b)
	_ = w.Write([]string{"-12.5", "-12", "-", "-1+1", "=1", "羽生", "'=x", "'a"}, 0, 2, 3)
	w.Flush()
	want := "-12.5,'-12,-,'-1+1,'=1,羽生,''=x,'a\n"
	if b.String() != want {
		t.Errorf("wrote %q, want %q", b.String(), want)
	}
	for _, s := range append(csvHostile, "", "'", "''-", "'a", "羽生", "-12") {
		if got := office.UnneutraliseCSVCell(office.NeutralisedCSVCell(s)); got != s {
			t.Errorf("round trip of %q gives %q", s, got)
		}
	}
}
