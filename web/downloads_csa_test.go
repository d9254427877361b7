package web

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"kisen/rules/kifu"
	"kisen/web/site"
)

// tsshogiSpecial is the terminal word tsshogi reports for each of ours
// (kifu's Result reason), where the two name the same thing.
var tsshogiSpecial = map[string][]string{
	"resign":         {"resign"},
	"checkmate":      {"mate"},
	"time_up":        {"timeout"},
	"illegal_move":   {"foulLose"},
	"illegal_action": {"foulLose", "foulWin"},
	"declaration":    {"enteringOfKing"},
	"sennichite":     {"repetitionDraw"},
	"max_moves":      {"maxMoves"},
	"suspended":      {"interrupt"},
	"no_mate":        {"noMate"},
}

// tsshogiReader finds Node.js and tsshogi (KISEN_TSSHOGI_DIR). Without
// them the test skips, unless KISEN_TEST_CSA_READER=required (CI, which
// installs both: .ci/run), where it fails.
func tsshogiReader(t *testing.T) (node, dir string) {
	t.Helper()
	skip := func(why string) {
		if os.Getenv("KISEN_TEST_CSA_READER") == "required" {
			t.Fatalf("KISEN_TEST_CSA_READER=required but %s", why)
		}
		t.Skip(why + "; the independent CSA reader test is skipped")
	}
	for _, name := range []string{"node", "nodejs"} {
		if p, err := exec.LookPath(name); err == nil {
			node = p
			break
		}
	}
	if node == "" {
		skip("Node.js is not installed")
	}
	dir = os.Getenv("KISEN_TSSHOGI_DIR")
	if dir == "" {
		skip("KISEN_TSSHOGI_DIR is not set")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "tsshogi", "package.json")); err != nil {
		skip("tsshogi is not installed under KISEN_TSSHOGI_DIR")
	}
	return node, dir
}

// TestDownload_D_N_CSAReadByTsshogi: the CSA file the game page offers,
// for every record of the corpus, is read by tsshogi — a CSA reader
// written independently of Kisen (npm, run with Node.js) — to the same
// start position, the same moves and the same ending.
func TestDownload_D_N_CSAReadByTsshogi(t *testing.T) {
	t.Parallel()
	node, dir := tsshogiReader(t)
	corpus := readCorpus(t)
	eachApp(t, func(t *testing.T, a *testApp) {
		g := newGameSetup(t, a, "{}")
		tmp := t.TempDir()
		var files []string
		byFile := map[string]corpusRecord{}
		for i, c := range corpus {
			game := saveCorpusGame(t, a, g, c, fmt.Sprintf("第%d局", i+1))
			resp, body := a.get(site.GameURL(game.ID) + "/record.csa")
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("%s: %d\n%s", c.name, resp.StatusCode, body)
			}
			name := fmt.Sprintf("%02d_%s.csa", i, c.name)
			p := filepath.Join(tmp, name)
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, p)
			byFile[name] = c
		}
		cmd := exec.Command(node, append([]string{filepath.Join("testdata", "csa_tsshogi.cjs")}, files...)...)
		cmd.Env = append(os.Environ(), "KISEN_TSSHOGI_DIR="+dir)
		out, err := cmd.Output()
		if err != nil {
			var stderr string
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = string(ee.Stderr)
			}
			t.Fatalf("tsshogi: %v\n%s", err, stderr)
		}
		seen := 0
		sc := bufio.NewScanner(strings.NewReader(string(out)))
		for sc.Scan() {
			var got struct {
				File, Start, Special, Error string
				Moves                       []string
			}
			if err := json.Unmarshal(sc.Bytes(), &got); err != nil {
				t.Fatalf("tsshogi output %q: %v", sc.Text(), err)
			}
			c, ok := byFile[got.File]
			if !ok {
				t.Fatalf("tsshogi read a file it was not given: %q", got.File)
			}
			seen++
			if got.Error != "" {
				t.Errorf("%s: tsshogi refuses the CSA file: %s", c.name, got.Error)
				continue
			}
			if w := usiMoves(c.rec); !slices.Equal(got.Moves, w) && !(len(got.Moves) == 0 && len(w) == 0) {
				t.Errorf("%s: tsshogi reads the moves\n%v\nwant\n%v", c.name, got.Moves, w)
			}
			start, err := c.rec.StartPosition()
			if err != nil {
				t.Fatal(err)
			}
			if gs, ws := strings.Fields(got.Start), strings.Fields(start.SFEN()); len(gs) < 3 || !slices.Equal(gs[:3], ws[:3]) {
				t.Errorf("%s: tsshogi reads the start %q, want %q", c.name, got.Start, start.SFEN())
			}
			res := c.rec.Result()
			if res.Outcome == kifu.OutcomeUnknown {
				if got.Special != "" {
					t.Errorf("%s: no ending in the record, tsshogi reads %q", c.name, got.Special)
				}
			} else if want, ok := tsshogiSpecial[string(res.Reason)]; ok && !slices.Contains(want, got.Special) {
				t.Errorf("%s: ending %s, tsshogi reads %q (want one of %v)", c.name, res.Reason, got.Special, want)
			}
		}
		if seen != len(files) {
			t.Errorf("tsshogi reported %d of %d files:\n%s", seen, len(files), out)
		}
	})
}
