package office_test

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"kisen/office"
	"kisen/office/officetest"
	"kisen/pairing"
	"kisen/store"
	"kisen/store/storetest"
)

// knockoutFixture: an administrator, a director and an outsider, a
// knockout event and twelve players, two of them 師弟 pairs since 2000
// (1→2, 3→4) and one pair formed only after the draw date (5→6 from
// 2026-06-01).
type knockoutFixture struct {
	*fixture
	admin, director, outsider office.Actor
	event                     store.Event
	players                   []store.Player
}

const drawDay = officetest.DrawDay

var kanaNames = officetest.KanaNames

func newKnockoutFixture(t *testing.T, s *store.Store) *knockoutFixture {
	k := officetest.NewKnockoutFixture(t, s)
	return &knockoutFixture{fixture: adapt(k.Fixture), admin: k.Admin, director: k.Director, outsider: k.Outsider, event: k.Event, players: k.Players}
}

func (k *knockoutFixture) ot() *officetest.KnockoutFixture {
	return &officetest.KnockoutFixture{Fixture: k.fixture.ot, Admin: k.admin, Director: k.director, Outsider: k.outsider, Event: k.event, Players: k.players}
}

// stage creates a first preliminary with every player entered, unseeded.
func (k *knockoutFixture) stage() store.KnockoutStage {
	k.t.Helper()
	return k.ot().Stage()
}

func (k *knockoutFixture) draw(stageID int64, seed string) store.KnockoutStage {
	k.t.Helper()
	return k.ot().Draw(stageID, seed)
}

func slotsOf(t *testing.T, st store.KnockoutStage) []string {
	t.Helper()
	s, err := office.StageSlots(st)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// handRequest is the `kisen draw bracket` input written from the fixture's
// facts, not from the office's own request builder.
func (k *knockoutFixture) handRequest(seed uint64) pairing.DrawRequest {
	req := pairing.DrawRequest{Stage: pairing.FirstPreliminary, Seed: seed}
	for i, p := range k.players {
		e := pairing.Entrant{ID: strconv.FormatInt(p.ID, 10), Name: p.Name}
		switch i {
		case 1:
			e.Master = strconv.FormatInt(k.players[0].ID, 10)
		case 3:
			e.Master = strconv.FormatInt(k.players[2].ID, 10)
		}
		req.Entrants = append(req.Entrants, e)
	}
	return req
}

func TestKnockoutDraw_D_A1_ReproducibleAndEqualToPairing(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		k := newKnockoutFixture(t, s)
		st := k.stage()
		for _, seed := range []uint64{0, 1, 42, 20261121, 1 << 60} {
			got := slotsOf(t, k.draw(st.ID, strconv.FormatUint(seed, 10)))
			want, err := pairing.Draw(k.handRequest(seed))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want.Slots) {
				t.Fatalf("seed %d: web draw %v, pairing draw %v", seed, got, want.Slots)
			}
			// D-A1: no 師弟 game in round 1 of the first preliminary.
			for i := 0; i < len(got); i += 2 {
				pair := []string{got[i], got[i+1]}
				slices.Sort(pair)
				for _, bad := range [][2]int{{0, 1}, {2, 3}} {
					ban := []string{strconv.FormatInt(k.players[bad[0]].ID, 10), strconv.FormatInt(k.players[bad[1]].ID, 10)}
					slices.Sort(ban)
					if slices.Equal(pair, ban) {
						t.Fatalf("seed %d: 師弟 pair %v meets in round 1", seed, ban)
					}
				}
			}
		}
	})
}

func TestKnockoutDraw_D_A1_LineageAsOfDrawDate(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		k := newKnockoutFixture(t, s)
		st := k.stage()
		student := strconv.FormatInt(k.players[5].ID, 10)
		master := strconv.FormatInt(k.players[4].ID, 10)
		for _, c := range []struct {
			day  string
			want string
		}{{"2026-05-01", ""}, {"2026-05-31", ""}, {"2026-06-01", master}, {"2026-07-01", master}} {
			d, err := store.ParseCivilDate(c.day)
			if err != nil {
				t.Fatal(err)
			}
			req, err := k.o.StageDrawRequest(k.ctx, st, 7, d)
			if err != nil {
				t.Fatal(err)
			}
			i := slices.IndexFunc(req.Entrants, func(e pairing.Entrant) bool { return e.ID == student })
			if i < 0 || req.Entrants[i].Master != c.want {
				t.Errorf("on %s the student's master is %q, want %q", c.day, req.Entrants[i].Master, c.want)
			}
		}
	})
}

// TestKnockoutDraw_EqualsCommandLine runs `kisen draw bracket` on the JSON a
// scheduler would write by hand and compares its slots with the web draw.
func TestKnockoutDraw_EqualsCommandLine(t *testing.T) {
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "kisen")
	if out, err := exec.Command("go", "build", "-o", bin, "kisen/cmd/kisen").CombinedOutput(); err != nil {
		t.Skipf("cannot build the command (another package may be mid-edit): %v\n%s", err, out)
	}
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		k := newKnockoutFixture(t, s)
		st := k.stage()
		got := slotsOf(t, k.draw(st.ID, "987654321"))
		req := k.handRequest(987654321)
		type ent struct {
			ID     string `json:"id"`
			Master string `json:"master,omitempty"`
		}
		in := map[string]any{"stage": "first_preliminary", "seed": uint64(987654321), "draw_date": drawDay}
		var es []ent
		for _, e := range req.Entrants {
			es = append(es, ent{ID: e.ID, Master: e.Master})
		}
		in["entrants"] = es
		raw, _ := json.Marshal(in)
		cmd := exec.Command(bin, "draw", "bracket")
		cmd.Stdin = bytesReader(raw)
		cmd.Stderr = os.Stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("kisen draw bracket: %v", err)
		}
		var res struct {
			Slots []*string `json:"slots"`
		}
		if err := json.Unmarshal(out, &res); err != nil {
			t.Fatal(err)
		}
		cli := make([]string, len(res.Slots))
		for i, p := range res.Slots {
			if p != nil {
				cli[i] = *p
			}
		}
		if !slices.Equal(got, cli) {
			t.Fatalf("web %v, command line %v", got, cli)
		}
	})
}

func TestKnockoutSwap_D_A1_OverrideNeedsReason(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		k := newKnockoutFixture(t, s)
		st := k.stage()
		slots := slotsOf(t, k.draw(st.ID, "5"))
		m, d := strconv.FormatInt(k.players[0].ID, 10), strconv.FormatInt(k.players[1].ID, 10)
		a := slices.Index(slots, m) ^ 1 // the place opposite the master
		b := slices.Index(slots, d)
		in := office.SwapInput{StageID: st.ID, A: a, B: b}
		breaks, err := k.o.SwapBreaks(k.ctx, k.director, in)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(breaks, func(v pairing.Violation) bool { return v.Rule == pairing.RuleMasterStudent }) {
			t.Fatalf("putting the student opposite the master breaks D-A1, got %+v", breaks)
		}
		_, err = k.o.SwapSlots(k.ctx, k.director, in)
		if fieldCodes(err)["reason"] != "knockout.err.override_required" {
			t.Fatalf("swap without a reason: %v", err)
		}
		after, _ := s.StageByID(k.ctx, st.ID)
		if !slices.Equal(slotsOf(t, after), slots) {
			t.Fatal("a refused swap changed the bracket")
		}
		in.Reason = "主催者の要望"
		if _, err := k.o.SwapSlots(k.ctx, k.director, in); err != nil {
			t.Fatal(err)
		}
		after, _ = s.StageByID(k.ctx, st.ID)
		got := slotsOf(t, after)
		if got[a] != slots[b] || got[b] != slots[a] {
			t.Fatalf("swap not saved: %v", got)
		}
		log, err := k.o.DrawLog(k.ctx, k.director, st.ID)
		if err != nil {
			t.Fatal(err)
		}
		last := log[len(log)-1]
		if last.Action != "swap" || last.Reason != "主催者の要望" || last.ActorID != k.director.UserID {
			t.Fatalf("audit trail: %+v", last)
		}
	})
}

func TestKnockout_Permissions(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		k := newKnockoutFixture(t, s)
		// While the event is a draft an outsider is told it does not exist;
		// once published, that the write is not theirs.
		if _, err := k.o.CreateStage(k.ctx, k.outsider, office.StageInput{EventID: k.event.ID, Name: "x", Kind: "main"}); !errors.Is(err, office.ErrNotFound) {
			t.Fatalf("outsider creates a stage: %v", err)
		}
		st := k.stage()
		if _, err := k.o.DrawStage(k.ctx, k.outsider, office.DrawInput{StageID: st.ID, Seed: "1", DrawDate: drawDay}); !errors.Is(err, office.ErrNotFound) {
			t.Fatalf("outsider draws: %v", err)
		}
		k.draw(st.ID, "1")
		if err := k.o.PublishStage(k.ctx, k.outsider, st.ID); !errors.Is(err, office.ErrNotFound) {
			t.Fatalf("outsider publishes: %v", err)
		}
		if err := k.o.PublishStage(k.ctx, k.director, st.ID); err != nil {
			t.Fatal(err)
		}
		eb, err := k.o.EventBrackets(k.ctx, office.Actor{}, k.event.ID)
		if err != nil {
			t.Fatal(err)
		}
		g := eb.Stages[0].Rounds[0]
		i := slices.IndexFunc(g, func(x office.BracketGame) bool { return x.Status == pairing.StatusReady })
		w, _ := strconv.ParseInt(g[i].Players[0], 10, 64)
		err = k.o.QuickResult(k.ctx, k.outsider, office.QuickResultInput{StageID: st.ID, BracketGame: g[i].ID, WinnerID: w, Reason: office.ReasonResignation})
		if !errors.Is(err, office.ErrForbidden) {
			t.Fatalf("outsider records a result: %v", err)
		}
	})
}

// lowerIDWins plays every ready game, the player with the smaller id
// winning, until nothing is ready.
func (k *knockoutFixture) lowerIDWins(stageID int64) office.EventBracket {
	k.t.Helper()
	for range 50 {
		eb, err := k.o.EventBrackets(k.ctx, k.director, k.event.ID)
		if err != nil {
			k.t.Fatal(err)
		}
		played := false
		for _, round := range eb.Stages[0].Rounds {
			for _, g := range round {
				if g.Status != pairing.StatusReady || g.GameID == 0 {
					continue
				}
				a, _ := strconv.ParseInt(g.Players[0], 10, 64)
				b, _ := strconv.ParseInt(g.Players[1], 10, 64)
				if err := k.o.QuickResult(k.ctx, k.director, office.QuickResultInput{StageID: stageID, BracketGame: g.ID, WinnerID: min(a, b), Reason: office.ReasonResignation, GameID: g.DecidingGameID}); err != nil {
					k.t.Fatal(err)
				}
				played = true
			}
		}
		if !played {
			return eb
		}
	}
	k.t.Fatal("the bracket never finished")
	return office.EventBracket{}
}

func TestKnockoutAdvance_D_R3_RedoChainAndWalkover(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		k := newKnockoutFixture(t, s)
		st := k.stage()
		k.draw(st.ID, "11")
		if err := k.o.PublishStage(k.ctx, k.director, st.ID); err != nil {
			t.Fatal(err)
		}
		ev, _ := s.EventByID(k.ctx, k.event.ID)
		if ev.Status != office.StatusPublished {
			t.Fatalf("publishing the stage leaves the event %s", ev.Status)
		}
		eb, err := k.o.EventBrackets(k.ctx, k.director, k.event.ID)
		if err != nil {
			t.Fatal(err)
		}
		// A redo (千日手) in one round-1 game: the redo game decides (D-R3).
		var g office.BracketGame
		for _, x := range eb.Stages[0].Rounds[0] {
			if x.Status == pairing.StatusReady {
				g = x
				break
			}
		}
		if g.GameID == 0 || g.Furigoma == nil || !g.Furigoma.Decided {
			t.Fatalf("round-1 game without its game or 振り駒: %+v", g)
		}
		if _, err := k.o.RecordResult(k.ctx, k.director, g.GameID, office.ResultInput{Result: office.ResultRedo, Reason: "sennichite"}); err != nil {
			t.Fatal(err)
		}
		redo, err := k.o.CreateRedoGameFromRemaining(k.ctx, k.director, g.GameID, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		// gote of the redo game wins: that is the original game's sente (D-R1 swap).
		if err := k.o.QuickResult(k.ctx, k.director, office.QuickResultInput{StageID: st.ID, BracketGame: g.ID, WinnerID: *redo.GotePlayerID, Reason: office.ReasonResignation, GameID: redo.ID}); err != nil {
			t.Fatal(err)
		}
		eb, _ = k.o.EventBrackets(k.ctx, k.director, k.event.ID)
		r1 := eb.Stages[0].Rounds[0]
		done := r1[slices.IndexFunc(r1, func(x office.BracketGame) bool { return x.ID == g.ID })]
		if done.Winner != strconv.FormatInt(*redo.GotePlayerID, 10) || done.DecidingGameID != redo.ID {
			t.Fatalf("redo chain: winner %q deciding %d, want %d from game %d", done.Winner, done.DecidingGameID, *redo.GotePlayerID, redo.ID)
		}
		// Withdrawal: the smallest-id player leaves; nobody else is affected.
		withdrawn := k.players[0].ID
		if err := k.o.WithdrawEntrant(k.ctx, k.director, st.ID, withdrawn, "体調不良"); err != nil {
			t.Fatal(err)
		}
		eb = k.lowerIDWins(st.ID)
		sb := eb.Stages[0]
		if !sb.Finished {
			t.Fatal("bracket not finished")
		}
		// Oracle: lower id always wins, so the champion is the smallest id
		// among players still in — unless the redo game's loser is smaller.
		redoLoser := *redo.SentePlayerID
		best := int64(1 << 62)
		for _, p := range k.players {
			if p.ID != withdrawn && p.ID != redoLoser {
				best = min(best, p.ID)
			}
		}
		if sb.Champion != strconv.FormatInt(best, 10) {
			t.Fatalf("champion %s, want %d", sb.Champion, best)
		}
		walkover := false
		for _, round := range sb.Rounds {
			for _, x := range round {
				if x.Status == pairing.StatusWalkover && x.Winner != "" && slices.Contains(x.Players[:], strconv.FormatInt(withdrawn, 10)) {
					walkover = true
				}
			}
		}
		if !walkover && !slices.Contains(sb.Withdrawn, strconv.FormatInt(withdrawn, 10)) {
			t.Fatal("the withdrawn player is not recorded")
		}
	})
}
