package web

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding/japanese"

	"kisen/office"
	"kisen/office/seed"
	"kisen/pairing"
	"kisen/rules/kifu"
	"kisen/store"
	"kisen/web/games"
	"kisen/web/site"
)

// corpusRecord is one record of the repository's corpus of real-game
// samples (rules/kifu/testdata), as the reader of `kisen kifu` reads it.
type corpusRecord struct {
	name string
	text string // UTF-8 (a Shift_JIS file decoded, as the record form receives it)
	rec  *kifu.Record
}

func readCorpus(t *testing.T) []corpusRecord {
	t.Helper()
	var paths []string
	for _, pat := range []string{"*.kif", "*.ki2", "*.csa", "*.usi"} {
		m, err := filepath.Glob(filepath.Join("..", "rules", "kifu", "testdata", pat))
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, m...)
	}
	sort.Strings(paths)
	if len(paths) < 10 {
		t.Fatalf("corpus: only %d records under rules/kifu/testdata", len(paths))
	}
	var out []corpusRecord
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		res, err := kifu.Read(data, p, kifu.FormatUnknown)
		if err != nil {
			t.Fatalf("corpus %s: %v", p, err)
		}
		text := string(data)
		if !utf8.Valid(data) {
			dec, err := japanese.ShiftJIS.NewDecoder().Bytes(data)
			if err != nil {
				t.Fatal(err)
			}
			text = string(dec)
		}
		out = append(out, corpusRecord{name: filepath.Base(p), text: text, rec: res.Record})
	}
	return out
}

// saveCorpusGame creates a game of the corpus record's start and saves the
// record through the game page's use case (SaveRecord).
func saveCorpusGame(t *testing.T, a *testApp, g gameSetup, c corpusRecord, label string) store.Game {
	t.Helper()
	ctx := context.Background()
	o := a.srv.Office
	game, err := o.CreateGame(ctx, g.admin, office.GameInput{EventID: g.event.ID, Label: label, SenteID: &g.sente.ID, GoteID: &g.gote.ID,
		AllowanceMinutes: 180, Handicap: c.rec.Handicap.Name(), ScheduledOn: "2026-11-21"})
	if err != nil {
		t.Fatalf("%s: create game: %v", c.name, err)
	}
	if _, _, err := o.SaveRecord(ctx, g.admin, game.ID, office.RecordInput{Text: c.text, Format: kifu.FormatOfName(c.name).String(), AcceptFoul: true}); err != nil {
		t.Fatalf("%s: save record: %v", c.name, err)
	}
	return game
}

func usiMoves(r *kifu.Record) []string {
	var out []string
	for _, m := range r.Moves() {
		out = append(out, m.USI())
	}
	return out
}

// downloadFormats are the game page's four links with the format each is
// read back as.
var downloadFormats = []struct {
	query string
	read  kifu.Format
	ext   string
	ctype string
}{
	{".kif", kifu.FormatKIF, ".kifu", "text/plain; charset=utf-8"},
	{".kif?charset=sjis", kifu.FormatKIF, ".kif", "text/plain; charset=Shift_JIS"},
	{".csa", kifu.FormatCSA, ".csa", "text/plain; charset=utf-8"},
	{".usi", kifu.FormatUSI, ".usi", "text/plain; charset=utf-8"},
}

// TestDownload_D_N_CorpusRoundTrip: every record of the corpus, saved on a
// game and downloaded in each format, reads back through `kisen kifu`'s
// reader (kifu.Read, the format detected from the file name the server
// gave) to the same moves as the original file and — in KIF and CSA, which
// hold one — the same result; the Shift_JIS file decodes to exactly the
// UTF-8 file. On both databases.
func TestDownload_D_N_CorpusRoundTrip(t *testing.T) {
	t.Parallel()
	corpus := readCorpus(t)
	eachApp(t, func(t *testing.T, a *testApp) {
		g := newGameSetup(t, a, "{}")
		for i, c := range corpus {
			game := saveCorpusGame(t, a, g, c, fmt.Sprintf("第%d局", i+1))
			var utf8KIF []byte
			for _, f := range downloadFormats {
				path := site.GameURL(game.ID) + "/record" + f.query
				resp, body := a.get(path)
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("%s %s: %d\n%s", c.name, path, resp.StatusCode, body)
				}
				if got := resp.Header.Get("Content-Type"); got != f.ctype {
					t.Errorf("%s %s: Content-Type %q, want %q", c.name, path, got, f.ctype)
				}
				_, params, err := mime.ParseMediaType(resp.Header.Get("Content-Disposition"))
				if err != nil {
					t.Fatalf("%s %s: Content-Disposition %q: %v", c.name, path, resp.Header.Get("Content-Disposition"), err)
				}
				name := params["filename"] // mime decodes filename* into filename
				if !strings.HasSuffix(name, f.ext) || !strings.Contains(name, "羽生善治") || !strings.Contains(name, "藤井聡太") || !strings.HasPrefix(name, "2026-11-21_") {
					t.Errorf("%s %s: file name %q, want date, both players and %s", c.name, path, name, f.ext)
				}
				res, err := kifu.Read([]byte(body), name, kifu.FormatUnknown)
				if err != nil {
					t.Fatalf("%s %s: the download does not read back: %v\n%s", c.name, path, err, body)
				}
				if res.Format != f.read {
					t.Errorf("%s %s: read back as %s, want %s", c.name, path, res.Format, f.read)
				}
				if got, want := usiMoves(res.Record), usiMoves(c.rec); !slices.Equal(got, want) {
					t.Errorf("%s %s: moves\n got %v\nwant %v", c.name, path, got, want)
				}
				if f.read != kifu.FormatUSI {
					if got, want := res.Record.Result(), c.rec.Result(); got.Outcome != want.Outcome || got.Reason != want.Reason {
						t.Errorf("%s %s: result %+v, want %+v", c.name, path, got, want)
					}
				}
				switch f.query {
				case ".kif":
					utf8KIF = []byte(body)
					if res.Encoding != kifu.UTF8 {
						t.Errorf("%s: UTF-8 KIF read as %s", c.name, res.Encoding)
					}
				case ".kif?charset=sjis":
					if utf8.ValidString(body) {
						t.Errorf("%s: the Shift_JIS file is valid UTF-8 (not converted)", c.name)
					}
					dec, err := japanese.ShiftJIS.NewDecoder().Bytes([]byte(body))
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(dec, utf8KIF) {
						t.Errorf("%s: Shift_JIS file decodes to\n%s\nnot the UTF-8 file\n%s", c.name, dec, utf8KIF)
					}
				}
			}
		}
	})
}

// TestDownload_HeaderNamesTheGame: a record without players or event in
// its header (USI holds none) is written with the game's: players, event
// and date appear in KIF and CSA.
func TestDownload_HeaderNamesTheGame(t *testing.T) {
	t.Parallel()
	a := newTestApp(t, storetestSQLite(t))
	g := newGameSetup(t, a, "{}")
	c := corpusRecord{name: "x.usi", text: "position startpos moves 7g7f 3c3d\n"}
	res, err := kifu.Read([]byte(c.text), c.name, kifu.FormatUnknown)
	if err != nil {
		t.Fatal(err)
	}
	c.rec = res.Record
	game := saveCorpusGame(t, a, g, c, "1回戦")
	_, kif := a.get(site.GameURL(game.ID) + "/record.kif")
	for _, want := range []string{"先手：羽生 善治", "後手：藤井 聡太", "棋戦：第1期テスト戦", "開始日時：2026/11/21"} {
		if !strings.Contains(kif, want) {
			t.Errorf("KIF lacks %q:\n%s", want, kif)
		}
	}
	_, csa := a.get(site.GameURL(game.ID) + "/record.csa")
	for _, want := range []string{"N+羽生 善治", "N-藤井 聡太", "$EVENT:第1期テスト戦", "$START_TIME:2026/11/21"} {
		if !strings.Contains(csa, want) {
			t.Errorf("CSA lacks %q:\n%s", want, csa)
		}
	}
}

// TestDownload_VisibilityAndBadInput: a draft event's records are not
// found by the public (as its game page), found by its arbiter; a game
// without a record is 404; a bad format or charset is a 422 naming the
// field in the reader's language.
func TestDownload_VisibilityAndBadInput(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		g := newGameSetup(t, a, "{}")
		c := readCorpus(t)[0]
		game := saveCorpusGame(t, a, g, c, "1回戦")
		bare, err := a.srv.Office.CreateGame(ctx, g.admin, office.GameInput{EventID: g.event.ID, Label: "2回戦", SenteID: &g.sente.ID, GoteID: &g.gote.ID, AllowanceMinutes: 180})
		if err != nil {
			t.Fatal(err)
		}
		if resp, _ := a.get(site.GameURL(bare.ID) + "/record.kif"); resp.StatusCode != http.StatusNotFound {
			t.Errorf("a game without a record: %d, want 404", resp.StatusCode)
		}
		for _, tc := range []struct{ path, field, words string }{
			{site.GameURL(game.ID) + "/record.kif?charset=latin1", "charset", "文字コード"},
			{site.GameURL(game.ID) + "/record.csa?charset=sjis", "charset", "KIF"},
			{fmt.Sprintf("/events/%d/records.zip?format=pgn", g.event.ID), "format", "形式"},
		} {
			resp, body := a.get(tc.path)
			if resp.StatusCode != http.StatusUnprocessableEntity {
				t.Errorf("%s: %d, want 422", tc.path, resp.StatusCode)
				continue
			}
			if !strings.Contains(body, `data-testid="download-error-`+tc.field+`"`) || !strings.Contains(body, tc.words) {
				t.Errorf("%s: the page does not name the field %s (%q):\n%s", tc.path, tc.field, tc.words, body)
			}
		}
		// A draft event's game: hidden from the public, shown to its arbiter.
		draft, err := a.srv.Office.CreateEvent(ctx, g.admin, office.EventInput{OrganiserID: g.event.OrganiserID, Name: "第2期テスト戦", Kind: office.EventKnockout,
			StartDate: "2026-11-01", EndDate: "2026-12-31"})
		if err != nil {
			t.Fatal(err)
		}
		if err := a.srv.Office.GrantEventRole(ctx, g.admin, office.RoleGrant{EventID: draft.ID, UserID: g.arbiter.UserID, Role: office.RoleArbiter}); err != nil {
			t.Fatal(err)
		}
		dg := g
		dg.event = draft
		game = saveCorpusGame(t, a, dg, c, "1回戦")
		for _, path := range []string{site.GameURL(game.ID) + "/record.kif", fmt.Sprintf("/events/%d/records.zip", draft.ID)} {
			if resp, _ := a.get(path); resp.StatusCode != http.StatusNotFound {
				t.Errorf("draft, public: %s: %d, want 404", path, resp.StatusCode)
			}
		}
		a.signIn(a.client, g.arbiter.UserID)
		if resp, body := a.get(site.GameURL(game.ID) + "/record.kif"); resp.StatusCode != http.StatusOK {
			t.Errorf("draft, its arbiter: %d, want 200\n%s", resp.StatusCode, body)
		}
	})
}

// zipNames reads a zip's file names and bodies.
func readZip(t *testing.T, body string) map[string]string {
	t.Helper()
	zr, err := zip.NewReader(strings.NewReader(body), int64(len(body)))
	if err != nil {
		t.Fatalf("not a zip: %v", err)
	}
	out := map[string]string{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if _, dup := out[f.Name]; dup {
			t.Errorf("zip holds %s twice", f.Name)
		}
		out[f.Name] = string(b)
	}
	return out
}

// TestDownload_EventZipHoldsExactlyThePublishedGames: the event's zip
// holds one file per game with a record, each reading back to that game's
// moves; a game of an unpublished stage is left out for the public and
// included for the staff; games without a record are not in it.
func TestDownload_EventZipHoldsExactlyThePublishedGames(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		g := newGameSetup(t, a, "{}")
		corpus := readCorpus(t)
		want := map[int64][]string{} // game → moves, the games the public zip must hold
		for i, c := range corpus[:4] {
			game := saveCorpusGame(t, a, g, c, fmt.Sprintf("第%d局", i+1))
			want[game.ID] = usiMoves(c.rec)
		}
		if _, err := a.srv.Office.CreateGame(ctx, g.admin, office.GameInput{EventID: g.event.ID, Label: "記録なし", SenteID: &g.sente.ID, GoteID: &g.gote.ID, AllowanceMinutes: 180}); err != nil {
			t.Fatal(err)
		}
		// A game that an unpublished stage plays: hidden from the public.
		hidden := saveCorpusGame(t, a, g, corpus[4], "未公開")
		st, err := a.srv.Office.CreateStage(ctx, g.admin, office.StageInput{EventID: g.event.ID, Name: "二次予選", Kind: string(pairing.SecondPreliminary)})
		if err != nil {
			t.Fatal(err)
		}
		if err := a.store.DB(ctx).Create(&store.KnockoutGame{StageID: st.ID, BracketGame: "R1-G1", GameID: hidden.ID, CreatedAt: a.now}).Error; err != nil {
			t.Fatal(err)
		}
		check := func(who string, want map[int64][]string) {
			for _, f := range office.DownloadFormats {
				resp, body := a.get(fmt.Sprintf("/events/%d/records.zip?format=%s", g.event.ID, f))
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("%s %s: %d\n%s", who, f, resp.StatusCode, body)
				}
				if ct := resp.Header.Get("Content-Type"); ct != "application/zip" {
					t.Errorf("%s: Content-Type %q", who, ct)
				}
				files := readZip(t, body)
				if len(files) != len(want) {
					t.Errorf("%s %s: %d files, want %d: %v", who, f, len(files), len(want), keys(files))
				}
				got := map[string]bool{}
				for name, text := range files {
					if !strings.HasSuffix(name, f.Extension()) {
						t.Errorf("%s: %s is not a %s file", who, name, f.Extension())
					}
					res, err := kifu.Read([]byte(text), name, kifu.FormatUnknown)
					if err != nil {
						t.Fatalf("%s %s: %v", who, name, err)
					}
					got[strings.Join(usiMoves(res.Record), " ")] = true
				}
				for id, moves := range want {
					if !got[strings.Join(moves, " ")] {
						t.Errorf("%s %s: game %d's record is missing", who, f, id)
					}
				}
			}
		}
		check("public", want)
		staff := map[int64][]string{hidden.ID: usiMoves(corpus[4].rec)}
		for id, m := range want {
			staff[id] = m
		}
		a.signIn(a.client, g.arbiter.UserID)
		check("arbiter", staff)
		// The unpublished stage's own zip is not found by the public.
		pub := a.newClient()
		resp, err := pub.Get(a.ts.URL + fmt.Sprintf("/stages/%d/records.zip", st.ID))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("public, unpublished stage's zip: %d, want 404", resp.StatusCode)
		}
	})
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestContentDisposition_RFC6266: the Japanese name survives as filename*
// (RFC 5987) and the ASCII name stands beside it.
func TestContentDisposition_RFC6266(t *testing.T) {
	t.Parallel()
	h := games.ContentDisposition("kisen-game-1-20261121.kifu", "2026-11-21_羽生善治_藤井聡太.kifu")
	_, params, err := mime.ParseMediaType(h)
	if err != nil {
		t.Fatal(err)
	}
	if params["filename"] != "2026-11-21_羽生善治_藤井聡太.kifu" {
		t.Errorf("filename* decodes to %q", params["filename"])
	}
	if !strings.Contains(h, `filename="kisen-game-1-20261121.kifu"`) {
		t.Errorf("no ASCII filename in %q", h)
	}
	if dec, err := url.PathUnescape(strings.SplitN(h, "UTF-8''", 2)[1]); err != nil || dec != "2026-11-21_羽生善治_藤井聡太.kifu" {
		t.Errorf("filename* %q does not unescape: %v", h, err)
	}
}

// TestDownload_StageZipHoldsTheStageGames: a published stage's zip holds
// one file per game of its bracket with a record, and not the event's
// other games; the event's zip holds both. The game, event and brackets
// pages link the downloads in the reader's language.
func TestDownload_StageZipHoldsTheStageGames(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f, err := seed.New(ctx, a.srv.Office, a.store, a.now)
		if err != nil {
			t.Fatal(err)
		}
		ev, st, err := f.Knockout(ctx, 8, 2)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Records(ctx, ev.ID); err != nil {
			t.Fatal(err)
		}
		roots, err := a.store.GameIDsOfStage(ctx, st.ID)
		if err != nil {
			t.Fatal(err)
		}
		stageGames := map[int64]bool{}
		for _, id := range roots {
			g, err := a.store.GameByID(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if g.SentePlayerID != nil && g.GotePlayerID != nil {
				stageGames[id] = true
			}
		}
		// A game of the event outside the bracket, with a record.
		ps, err := f.Players(ctx, 2, "")
		if err != nil {
			t.Fatal(err)
		}
		other, err := a.srv.Office.CreateGame(ctx, f.Admin, office.GameInput{EventID: ev.ID, Label: "記念対局", SenteID: &ps[0].ID, GoteID: &ps[1].ID, AllowanceMinutes: 60})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := a.srv.Office.SaveRecord(ctx, f.Admin, other.ID, office.RecordInput{Text: "position startpos moves 2g2f\n"}); err != nil {
			t.Fatal(err)
		}
		_, body := a.get(fmt.Sprintf("/stages/%d/records.zip?format=usi", st.ID))
		files := readZip(t, body)
		if len(stageGames) < 6 || len(files) != len(stageGames) {
			t.Errorf("stage zip: %d files, the stage has %d games with records", len(files), len(stageGames))
		}
		for name, text := range files {
			if strings.Contains(text, "2g2f") && !strings.Contains(text, "7g7f") {
				t.Errorf("stage zip holds the game outside the bracket: %s", name)
			}
		}
		_, body = a.get(fmt.Sprintf("/events/%d/records.zip?format=usi", ev.ID))
		if got := len(readZip(t, body)); got != len(stageGames)+1 {
			t.Errorf("event zip: %d files, want %d", got, len(stageGames)+1)
		}

		for _, lang := range []string{"ja", "en"} {
			a.setLang(a.client, lang)
			for _, tc := range []struct{ page, testid, words string }{
				{site.GameURL(other.ID), "download-kif-sjis", map[string]string{"ja": "棋譜をダウンロード", "en": "Download the record"}[lang]},
				{fmt.Sprintf("/events/%d", ev.ID), "event-zip-csa", map[string]string{"ja": "まとめてダウンロード", "en": "every record of this event"}[lang]},
				{fmt.Sprintf("/events/%d/brackets", ev.ID), fmt.Sprintf("stage-zip-%d-usi", st.ID), map[string]string{"ja": "この段階の棋譜", "en": "every record of this stage"}[lang]},
			} {
				resp, body := a.get(tc.page)
				if resp.StatusCode != http.StatusOK || !strings.Contains(body, `data-testid="`+tc.testid+`"`) || !strings.Contains(body, tc.words) {
					t.Errorf("%s %s: no %s link saying %q", lang, tc.page, tc.testid, tc.words)
				}
			}
		}
		// The stage's own page (its staff) links the zip too.
		a.signIn(a.client, f.Admin.UserID)
		if _, body := a.get(site.StageURL(st.ID)); !strings.Contains(body, `data-testid="stage-zip-kif"`) {
			t.Errorf("the stage page has no zip link")
		}
	})
}

// TestDownload_ShiftJISCannotHoldTheName: a record with a character
// Shift_JIS lacks (𠮷) is refused in Shift_JIS with a 422 naming the
// character set and pointing to UTF-8, and still served in UTF-8.
func TestDownload_ShiftJISCannotHoldTheName(t *testing.T) {
	t.Parallel()
	a := newTestApp(t, storetestSQLite(t))
	g := newGameSetup(t, a, "{}")
	var c corpusRecord
	for _, r := range readCorpus(t) {
		if r.name == "even.kif" {
			c = r
		}
	}
	c.text = strings.Replace(c.text, "山田太郎", "𠮷田太郎", 1)
	game := saveCorpusGame(t, a, g, c, "1回戦")
	resp, body := a.get(site.GameURL(game.ID) + "/record.kif?charset=sjis")
	if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, `data-testid="download-error-charset"`) || !strings.Contains(body, "UTF-8") {
		t.Errorf("Shift_JIS of 𠮷: %d, want 422 naming the character set\n%s", resp.StatusCode, body)
	}
	if resp, body := a.get(site.GameURL(game.ID) + "/record.kif"); resp.StatusCode != http.StatusOK || !strings.Contains(body, "𠮷田太郎") {
		t.Errorf("UTF-8: %d\n%s", resp.StatusCode, body)
	}
}
