package office

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"kisen/adjudication"
	"kisen/store"
)

// A foul found after the game loses it, unless the same event's next game
// had already begun when it came to light: then the result at the end
// stands (D-X3, 000 第10条第5項, 001 第8条4). Kisen knows when its games
// started, so a claim derives that fact itself instead of asking for it.
//
// What counts, decided here (docs/adjudication.md, "The next game"):
//   - a game of the same event in which either player of the claimed game
//     plays (sente or gote), whoever the offender is;
//   - not the claimed game nor any game of its redo chain (千日手・持将棋
//     指し直し: the same game, D-R1), and not a void game (the event no
//     longer counts it);
//   - it comes after the claimed game: it started after the claimed game
//     started (when the claimed game shows no start, as stored before
//     starts were kept: it is scheduled on a later date, or on the same
//     day or without dates was created after it);
//   - it has started by the time of the claim. A game started when its
//     first record version was entered or when its result was first
//     entered (games.started_at), whichever was earlier.
//
// The first such game to start is the one named on the form and kept with
// the claim.

// Override values of FoulClaimInput.NextGame.
const (
	NextGameAsFound    = ""            // as derived
	NextGameStarted    = "started"     // the arbiter says the next game had begun
	NextGameNotStarted = "not_started" // the arbiter says it had not
)

// NextGame is what was found about the claimed game's next game.
type NextGame struct {
	// Started: a next game had begun by AsOf; Game and StartedAt name
	// the first to begin.
	Started   bool
	Game      store.Game
	StartedAt time.Time
	// Sente and Gote are the players' names of Game.
	Sente, Gote string
	AsOf        time.Time
}

// gameStart is when a game started as far as Kisen knows; ok is false
// when it has not started (or nothing shows it has).
func gameStart(g store.Game, st store.GameStarts) (time.Time, bool) {
	at, ok := st.FirstRecord[g.ID]
	if g.StartedAt != nil && (!ok || g.StartedAt.Before(at)) {
		at, ok = *g.StartedAt, true
	}
	return at.UTC(), ok
}

// nextGameOf finds the first game after g, of either of g's players in
// g's event, to have started by asOf (see above).
func nextGameOf(g store.Game, st store.GameStarts, asOf time.Time) (store.Game, time.Time, bool) {
	byID := make(map[int64]store.Game, len(st.Games))
	for _, h := range st.Games {
		byID[h.ID] = h
	}
	root := func(h store.Game) int64 {
		for range 1000 { // a longer chain is corrupt data
			if h.RedoOfID == nil {
				break
			}
			p, ok := byID[*h.RedoOfID]
			if !ok {
				break
			}
			h = p
		}
		return h.ID
	}
	chain := root(g)
	plays := func(h store.Game, id *int64) bool {
		return id != nil && ((h.SentePlayerID != nil && *h.SentePlayerID == *id) || (h.GotePlayerID != nil && *h.GotePlayerID == *id))
	}
	gStart, gStarted := gameStart(g, st)
	var best store.Game
	var bestAt time.Time
	found := false
	for _, h := range st.Games {
		if h.ID == g.ID || st.Void[h.ID] || root(h) == chain || !(plays(h, g.SentePlayerID) || plays(h, g.GotePlayerID)) {
			continue
		}
		at, ok := gameStart(h, st)
		if !ok || at.After(asOf) {
			continue
		}
		var later bool
		switch {
		case gStarted:
			later = at.After(gStart)
		case g.ScheduledOn != nil && h.ScheduledOn != nil && *h.ScheduledOn != *g.ScheduledOn:
			later = *h.ScheduledOn > *g.ScheduledOn
		default:
			later = h.ID > g.ID // created after it: a later round or board
		}
		if !later {
			continue
		}
		if !found || at.Before(bestAt) || (at.Equal(bestAt) && h.ID < best.ID) {
			best, bestAt, found = h, at, true
		}
	}
	return best, bestAt, found
}

// deriveNextGame answers 第10条第5項 for a claim on g made at asOf.
func deriveNextGame(ctx context.Context, s *store.Store, g store.Game, asOf time.Time) (NextGame, error) {
	// Only games either player sits in can be the next game; a redo
	// chain seats the same two players, so the claimed game's chain is
	// among them too.
	var players []int64
	for _, id := range []*int64{g.SentePlayerID, g.GotePlayerID} {
		if id != nil {
			players = append(players, *id)
		}
	}
	st, err := s.GameStartsOfPlayers(ctx, g.EventID, players)
	if err != nil {
		return NextGame{}, err
	}
	out := NextGame{AsOf: asOf.UTC()}
	h, at, ok := nextGameOf(g, st, asOf)
	if !ok {
		return out, nil
	}
	out.Started, out.Game, out.StartedAt = true, h, at
	for _, p := range []struct {
		id  *int64
		out *string
	}{{h.SentePlayerID, &out.Sente}, {h.GotePlayerID, &out.Gote}} {
		if p.id == nil { // a seat still waiting (corrupt for a game that began)
			continue
		}
		pl, err := s.PlayerByID(ctx, *p.id)
		if err != nil {
			return out, err
		}
		*p.out = pl.Name
	}
	return out, nil
}

// ClaimNextGame is what a foul claim on the game would find about the
// event's next game now (000 第10条第5項), for the claim form. Directors
// and arbiters, as for the claim.
func (o *Office) ClaimNextGame(ctx context.Context, actor Actor, gameID int64) (NextGame, error) {
	g, err := o.store.GameByID(ctx, gameID)
	if err != nil {
		return NextGame{}, err
	}
	if err := o.RequireEventRole(ctx, actor, g.EventID, ResultReviewRoles...); err != nil {
		return NextGame{}, err
	}
	return deriveNextGame(ctx, o.store, g, o.now())
}

// nextGameInput checks the override part of a claim before anything is
// read: a known value, and a reason whenever the arbiter overrides.
func nextGameInput(in *FoulClaimInput, v *ValidationError) {
	in.NextGame = strings.TrimSpace(in.NextGame)
	in.NextGameReason = strings.TrimSpace(in.NextGameReason)
	switch in.NextGame {
	case NextGameAsFound:
		in.NextGameReason = "" // nothing overridden, nothing to justify
	case NextGameStarted, NextGameNotStarted:
		if in.NextGameReason == "" {
			v.Add(0, "next_game_reason", "adjudication.err.next_game_reason", nil)
		}
	default:
		v.Add(0, "next_game", "adjudication.err.next_game", nil)
	}
}

// settleNextGame fills the claim's NextGameStarted and the basis kept for
// the ruling log: derived as of the claim, or the arbiter's override with
// its reason. A foul found during the game has no next game to ask about;
// an override saying it started is refused by the room (D-X3).
func settleNextGame(ctx context.Context, s *store.Store, g store.Game, in FoulClaimInput, claim *adjudication.FoulClaim, asOf time.Time) error {
	if claim.Found != adjudication.FoundAfter {
		claim.NextGameStarted = in.NextGame == NextGameStarted
		return nil
	}
	ng, err := deriveNextGame(ctx, s, g, asOf)
	if err != nil {
		return err
	}
	basis := &adjudication.NextGameBasis{Source: adjudication.NextGameDerived, Found: ng.Started, AsOf: ng.AsOf}
	if ng.Started {
		at := ng.StartedAt
		basis.GameID, basis.StartedAt = strconv.FormatInt(ng.Game.ID, 10), &at
	}
	claim.NextGameStarted = ng.Started
	if in.NextGame != NextGameAsFound {
		basis.Source, basis.Reason = adjudication.NextGameOverridden, in.NextGameReason
		claim.NextGameStarted = in.NextGame == NextGameStarted
	}
	claim.NextGame = basis
	return nil
}

// ClaimBasis is how one result version's new foul claim settled whether
// the next game had begun (the ruling log of 000 第10条第5項).
type ClaimBasis struct {
	adjudication.NextGameBasis
	// Started is the value the claim was decided on.
	Started bool
	// NextGameID is the game found to have started (0 when none).
	NextGameID int64
}

// ClaimBases maps each result version (by id) that added a foul claim
// found after the game to how its next-game fact was settled. Claims
// stored before the fact was derived (a checkbox the arbiter ticked)
// carry no basis and are left out: their versions read as they always
// did. Public like the result history it annotates.
func (o *Office) ClaimBases(ctx context.Context, gameID int64) (map[int64]ClaimBasis, error) {
	rows, err := o.store.GameAdjudications(ctx, gameID)
	if err != nil {
		return nil, err
	}
	out := map[int64]ClaimBasis{}
	prev := 0
	for _, r := range rows {
		var facts struct {
			Fouls []adjudication.FoulClaim `json:"fouls"`
		}
		if err := json.Unmarshal([]byte(r.Facts), &facts); err != nil {
			return nil, fmt.Errorf("stored facts of game %d: %w", gameID, err)
		}
		// A claim appends one foul to the facts before it; an ending
		// entered again starts the list afresh.
		if n := len(facts.Fouls); n == prev+1 {
			if c := facts.Fouls[n-1]; c.NextGame != nil {
				b := ClaimBasis{NextGameBasis: *c.NextGame, Started: c.NextGameStarted}
				b.NextGameID, _ = strconv.ParseInt(c.NextGame.GameID, 10, 64)
				out[r.ResultID] = b
			}
		}
		prev = len(facts.Fouls)
	}
	return out, nil
}
