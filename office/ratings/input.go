package ratings

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"time"

	"kisen/adjudication"
	"kisen/office"
	"kisen/rating"
	"kisen/rules"
	"kisen/store"
)

// ratingJST is Japan Standard Time, a fixed UTC+9: a game scheduled for a
// day is taken as played at the start of that day in Japan.
var ratingJST = time.FixedZone("JST", 9*3600)

// Reasons a game never reaches the rating package; they are reported
// beside the package's own reasons (rating.SkipReason).
const (
	skipNoPlayers      = "no_players"      // a seat is still empty
	skipUnconfirmed    = "unconfirmed"     // results entered, none confirmed
	skipRedoOfDecided  = "redo_of_decided" // the replayed game was later given a winner
	skipRedoDuplicated = "redo_duplicated" // a second redo of one game (CreateRedoGame refuses it)
)

// ratingInput is everything a recompute reads, and its fingerprint.
type ratingInput struct {
	settings    rating.Settings
	players     []int64
	games       []store.Game                  // games of public events
	effective   map[int64]store.ResultVersion // game → latest confirmed version
	awaiting    []int64                       // games with versions, none confirmed
	fingerprint string
}

// ratingFingerprint hashes what ratings depend on: the settings, a digest
// of every game of a public event (players, handicap, day, redo link,
// start; see store.RatingGamesDigest), and the counters of the
// append-only result tables and the roster. Equal fingerprints mean a
// recompute would give the stored ratings again. It is computed by
// aggregates in the database, in the background recompute only (never on
// a page): a revision bump that changed nothing a rating depends on costs
// this check instead of a recompute.
func ratingFingerprint(ctx context.Context, s *store.Store) (string, rating.Settings, error) {
	set, raw, err := ratingSettingsIn(ctx, s)
	if err != nil {
		return "", rating.Settings{}, err
	}
	c, err := s.RatingCounters(ctx)
	if err != nil {
		return "", rating.Settings{}, err
	}
	d, err := s.RatingGamesDigest(ctx, office.PublicStatuses)
	if err != nil {
		return "", rating.Settings{}, err
	}
	h := sha256.New()
	fmt.Fprintf(h, "v3|%s|%+v|%+v", raw, c, d)
	return hex.EncodeToString(h.Sum(nil)), set, nil
}

// loadRatingInput reads everything a recompute needs, inside tx; fp and
// set are ratingFingerprint's answer, read in the same transaction.
func loadRatingInput(ctx context.Context, s *store.Store, fp string, set rating.Settings) (ratingInput, error) {
	games, err := s.GamesOfEventsIn(ctx, office.PublicStatuses)
	if err != nil {
		return ratingInput{}, err
	}
	in := ratingInput{settings: set, games: games, fingerprint: fp, effective: map[int64]store.ResultVersion{}}
	if in.players, err = s.AllPlayerIDs(ctx); err != nil {
		return ratingInput{}, err
	}
	var events []int64
	for _, g := range games {
		events = append(events, g.EventID)
	}
	slices.Sort(events)
	for _, e := range slices.Compact(events) {
		eff, err := s.EffectiveResults(ctx, e)
		if err != nil {
			return ratingInput{}, fmt.Errorf("results of event %d: %w", e, err)
		}
		for gid, v := range eff {
			in.effective[gid] = v
		}
	}
	if in.awaiting, err = s.GamesAwaitingConfirmation(ctx); err != nil {
		return ratingInput{}, err
	}
	return in, nil
}

// ratingOutcome maps a stored result to the rating package's outcome. A
// redo is 千日手 or 持将棋 by its reason (D-R1, 000 第8条第7項, 第9条第9項);
// both players losing (両者敗け) and a pending decision have no winner.
func ratingOutcome(r store.ResultVersion) rating.Outcome {
	switch r.Result {
	case office.ResultSenteWin:
		return rating.SenteWin
	case office.ResultGoteWin:
		return rating.GoteWin
	case office.ResultRedo:
		switch adjudication.Reason(r.Reason) {
		case adjudication.ReasonJishogiRedo, adjudication.ReasonDeclarationRedo:
			return rating.Jishogi
		}
		return rating.Sennichite
	}
	return rating.NoResult
}

// gamePlayedAt is when a game counts as played, for the canonical order:
// its scheduled day (start of the day in Japan) when set, so results
// entered later (history imports) keep their place; else when it
// started; else when its result was entered.
func gamePlayedAt(g store.Game, r store.ResultVersion) time.Time {
	if g.ScheduledOn != nil {
		if d, err := time.ParseInLocation(office.DateLayout, *g.ScheduledOn, ratingJST); err == nil {
			return d
		}
	}
	if g.StartedAt != nil {
		return g.StartedAt.In(ratingJST)
	}
	return r.EnteredAt.In(ratingJST)
}

func idString(id int64) string { return strconv.FormatInt(id, 10) }

// ratingGameOf is one game with its effective result as the rating
// package sees it.
func ratingGameOf(g store.Game, r store.ResultVersion) rating.Game {
	rg := rating.Game{
		ID: idString(g.ID), EventID: idString(g.EventID), Date: gamePlayedAt(g, r),
		Sente: idString(*g.SentePlayerID), Gote: idString(*g.GotePlayerID),
		Outcome: ratingOutcome(r), Confirmed: r.Confirmed() && r.Result != office.ResultPending,
		// 不戦: the game was not played, so it is not rated.
		Forfeit:  adjudication.Reason(r.Reason) == adjudication.ReasonForfeit && ratingOutcome(r).Decisive(),
		Handicap: g.Handicap != rules.Even.Name(),
	}
	if g.RedoOfID != nil {
		rg.RedoOf = idString(*g.RedoOfID)
	}
	return rg
}

// ratingGames turns the input into the rating package's games. Links the
// package would refuse as corrupt are resolved here, each with a reason,
// so one odd game never stops every rating: a redo whose earlier game was
// later given a winner is left out (the earlier result stands, D-R3); a
// second redo of the same game is left out.
func ratingGames(in ratingInput) ([]rating.Game, map[string]int) {
	skipped := map[string]int{}
	public := make(map[int64]bool, len(in.games))
	for _, g := range in.games {
		public[g.ID] = true
	}
	for _, id := range in.awaiting {
		if public[id] {
			skipped[skipUnconfirmed]++
		}
	}
	byID := map[string]rating.Game{}
	var order []string
	for _, g := range in.games {
		r, ok := in.effective[g.ID]
		if !ok {
			continue
		}
		if g.SentePlayerID == nil || g.GotePlayerID == nil {
			skipped[skipNoPlayers]++
			continue
		}
		rg := ratingGameOf(g, r)
		byID[rg.ID] = rg
		order = append(order, rg.ID)
	}
	out := make([]rating.Game, 0, len(order))
	redone := map[string]bool{}
	for _, id := range order { // by game id: the first redo of a game wins
		g := byID[id]
		if g.RedoOf != "" && redoParentAfter(g) {
			// A redo is created after the game it replays, so its id is
			// larger; a link forward could only be corrupt and could form
			// a cycle the rating package refuses. Rate the game on its own.
			g.RedoOf = ""
		}
		if g.RedoOf != "" {
			if redone[g.RedoOf] {
				skipped[skipRedoDuplicated]++
				continue
			}
			if parent, ok := byID[g.RedoOf]; ok {
				if parent.Outcome.Decisive() {
					skipped[skipRedoOfDecided]++
					continue
				}
				if !samePlayers(parent, g) {
					g.RedoOf = "" // not the same pairing: rate it as a game of its own
				}
			}
			if g.RedoOf != "" {
				redone[g.RedoOf] = true
			}
		}
		out = append(out, g)
	}
	return out, skipped
}

func samePlayers(a, b rating.Game) bool {
	return (a.Sente == b.Sente && a.Gote == b.Gote) || (a.Sente == b.Gote && a.Gote == b.Sente)
}

// redoParentAfter reports whether a game's redo link names a game with a
// larger id than its own.
func redoParentAfter(g rating.Game) bool {
	self, err1 := strconv.ParseInt(g.ID, 10, 64)
	parent, err2 := strconv.ParseInt(g.RedoOf, 10, 64)
	return err1 != nil || err2 != nil || parent >= self
}
