package web

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"net/url"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"kisen/store"
)

// `kisen draw league` and the web draw call the same league room: for the
// same players, 師匠, 肉親, settings, dates and seed, the binary's schedule
// equals the one the web shows (its CSV export).
func TestLeagueWeb_SameScheduleAsTheCommandLine(t *testing.T) {
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "kisen")
	if out, err := exec.Command("go", "build", "-o", bin, "kisen/cmd/kisen").CombinedOutput(); err != nil {
		t.Fatalf("go build kisen/cmd/kisen: %v\n%s", err, out)
	}
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f := newLeagueFixture(t, a, 11)
		rel := store.PlayerRelative{PlayerAID: f.players[3].ID, PlayerBID: f.players[8].ID, Relation: "兄弟", CreatedAt: a.now}
		if err := a.store.AddPlayerRelative(ctx, &rel); err != nil {
			t.Fatal(err)
		}
		a.signIn(a.client, f.sched.ID)
		resp, _ := a.postForm(f.base()+"/classes", url.Values{"class": {"C2"}, "members": {f.memberLines()}, "games_per_player": {"4"}})
		classURL := resp.Header.Get("Location")
		cid, _ := strconv.ParseInt(strings.TrimPrefix(classURL, "/league/"), 10, 64)
		// A changed setting travels too.
		_, body := a.get(classURL)
		vals := settingsValues(t, body)
		vals.Set("fellow_disciples.not_first", "2")
		vals.Del("sente_gote.split_last_two")
		if resp, _ = a.postForm(classURL+"/settings", vals); resp.StatusCode != 303 {
			t.Fatalf("settings: %d", resp.StatusCode)
		}
		dates := []string{"2026-06-09", "2026-07-07", "2026-08-04", "2026-09-01", "2026-10-06"}
		for _, seed := range []uint64{1, 42, 20260401} {
			if resp, body = a.postForm(classURL+"/generate", url.Values{"seed": {strconv.FormatUint(seed, 10)}, "draw_date": {"2026-05-01"}, "round_date": dates}); resp.StatusCode != 303 {
				t.Fatalf("generate: %d %s", resp.StatusCode, body)
			}
			// The web's schedule, from its CSV: one line per game (sente's row) and per rest.
			_, csvBody := a.get(classURL + "/schedule.csv")
			recs, err := csv.NewReader(strings.NewReader(csvBody)).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			number := map[string]int64{}
			for _, p := range f.players {
				number[*p.Number] = p.ID
			}
			var web []string
			for _, r := range recs[1:] { // class,junni,player,round,opponent,side,date,…
				switch r[5] {
				case "sente":
					web = append(web, "r"+r[3]+" "+strconv.FormatInt(number[r[2]], 10)+"-"+strconv.FormatInt(number[r[4]], 10)+" "+r[6])
				case "":
					web = append(web, "r"+r[3]+" rest "+strconv.FormatInt(number[r[2]], 10))
				}
			}
			// The same facts, written as `kisen draw league` input by hand.
			cl, err := a.store.LeagueClassByID(ctx, cid)
			if err != nil {
				t.Fatal(err)
			}
			type player struct {
				ID     string `json:"id"`
				Master string `json:"master,omitempty"`
			}
			var players []player
			for i, p := range f.players {
				pl := player{ID: strconv.FormatInt(p.ID, 10)}
				if i == 1 {
					pl.Master = strconv.FormatInt(f.players[0].ID, 10)
				}
				players = append(players, pl)
			}
			in, _ := json.Marshal(map[string]any{
				"kind": "junisen", "class": "C2", "seed": seed, "players": players,
				"relatives": [][2]string{{strconv.FormatInt(rel.PlayerAID, 10), strconv.FormatInt(rel.PlayerBID, 10)}},
				"dates":     dates, "settings": json.RawMessage(cl.Settings),
			})
			cmd := exec.Command(bin, "draw", "league")
			cmd.Stdin = bytes.NewReader(in)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("kisen draw league: %v\n%s", err, stderr.String())
			}
			var cli struct {
				Seed   uint64 `json:"seed"`
				Rounds []struct {
					Round int `json:"round"`
					Games []struct {
						Sente, Gote, Date string
					} `json:"games"`
					Rests []string `json:"rests"`
				} `json:"rounds"`
			}
			if err := json.Unmarshal(out, &cli); err != nil {
				t.Fatalf("output: %v\n%s", err, out)
			}
			var got []string
			for _, r := range cli.Rounds {
				for _, g := range r.Games {
					got = append(got, "r"+strconv.Itoa(r.Round)+" "+g.Sente+"-"+g.Gote+" "+g.Date)
				}
				for _, id := range r.Rests {
					got = append(got, "r"+strconv.Itoa(r.Round)+" rest "+id)
				}
			}
			slices.Sort(web)
			slices.Sort(got)
			if len(got) != 11*4/2+11 {
				t.Fatalf("seed %d: the command line gave %d lines", seed, len(got))
			}
			if !slices.Equal(web, got) {
				t.Errorf("seed %d: web and command line differ\n web %v\n cli %v", seed, web, got)
			}
		}
	})
}
