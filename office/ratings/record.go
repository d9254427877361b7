package ratings

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"kisen/office"
	"kisen/rating"
	"kisen/store"
)

// PlayerGame is one game of a player's record, from the player's side.
type PlayerGame struct {
	Game      store.Game
	Event     store.Event
	Opponent  store.Player // zero while the other seat is empty
	Sente     bool
	PlayedAt  time.Time
	Result    string // ResultSenteWin… of the effective result; "" while none is confirmed
	Reason    string
	Won, Lost bool
	HasRecord bool // a 棋譜 is stored for the game
	// Rated is set when the game moved the ratings; Before/After are the
	// player's rating around it.
	Rated         bool
	Before, After float64
}

// RecordGamesPerPage is the length of one page of a player's record.
const RecordGamesPerPage = 100

// RecordTotals count a player's games in public events (every page, not
// only the one shown).
type RecordTotals struct {
	Games  int
	Wins   int
	Losses int
}

// PlayerRecord is a player's public record: rating, rated history (for a
// chart), one page of the games in public events, and the opponents met.
type PlayerRecord struct {
	Player    store.Player
	Rating    store.PlayerRating
	HasRating bool                     // false only before the first recompute
	History   []store.RatingChartPoint // oldest first
	Games     []PlayerGame             // this page, newest first
	Totals    RecordTotals
	Page      int // 1-based
	Pages     int
	Opponents []store.Player
	Status    RatingStatus
}

// PlayerRecord gathers one page of a player's record (public; only games
// of public events), newest first, with the stored ratings as they are
// (Status says when they were computed). The statements are the same
// however many games the player has, and what every page shares (the
// lines, totals, opponents and events: recordPage) is kept by the record's
// revision, so a request at a known revision reads five rows and builds
// only the page it shows (issue 12). The result is shared with other
// requests: callers must not modify its slices.
func (o *Ratings) PlayerRecord(ctx context.Context, playerID int64, page int) (PlayerRecord, error) {
	return o.PlayerRecordAt(ctx, playerID, page, "")
}

// PlayerRecordAt is PlayerRecord for a caller that has just read the
// record's revision (store.PlayerGamesRevision, as PlayerPageRevisions
// gives it, read before this call): it is not read again. "" reads it.
func (o *Ratings) PlayerRecordAt(ctx context.Context, playerID int64, page int, gamesRevision string) (PlayerRecord, error) {
	p, err := o.store.PlayerByID(ctx, playerID)
	if err != nil {
		return PlayerRecord{}, err
	}
	status, err := o.RatingStatus(ctx)
	if err != nil {
		return PlayerRecord{}, err
	}
	rec := PlayerRecord{Player: p, Status: status}
	if rec.Rating, rec.HasRating, err = o.store.PlayerRatingOf(ctx, playerID); err != nil {
		return PlayerRecord{}, err
	}
	// The rating history and the record's page are kept by revision
	// (view_cache.go), each revision read before what it names: the stored
	// ratings' (status, above) and the player's games' (issue 12).
	pid := strconv.FormatInt(playerID, 10)
	if rec.History, err = office.KeptView(o.off, "history:"+pid, status.revision, func() ([]store.RatingChartPoint, error) {
		return o.store.RatingChartOf(ctx, playerID)
	}); err != nil {
		return PlayerRecord{}, err
	}
	grev := gamesRevision
	if grev == "" {
		if grev, err = o.store.PlayerGamesRevision(ctx, playerID); err != nil {
			return PlayerRecord{}, err
		}
	}
	rp, err := office.KeptView(o.off, "record:"+pid, grev, func() (recordPage, error) { return o.recordPageOf(ctx, playerID) })
	if err != nil {
		return PlayerRecord{}, err
	}
	rec.Totals, rec.Opponents = rp.totals, rp.opponents
	rec.Pages = max((len(rp.lines)+RecordGamesPerPage-1)/RecordGamesPerPage, 1)
	rec.Page = max(page, 1)
	from := min((rec.Page-1)*RecordGamesPerPage, len(rp.lines))
	to := min(from+RecordGamesPerPage, len(rp.lines))
	lines := rp.lines[from:to]
	at := make(map[int64]int, len(lines))
	rec.Games = make([]PlayerGame, len(lines))
	for i, l := range lines {
		at[l.Game.ID] = i
		rec.Games[i] = PlayerGame{Game: l.Game, Event: rp.events[l.Game.EventID], Opponent: rp.players[l.Opponent], Sente: l.Sente,
			PlayedAt: l.PlayedAt, Result: l.Result, Reason: l.Reason, Won: l.Won, Lost: l.Lost, HasRecord: rp.recorded[l.Game.ID]}
	}
	for _, h := range rec.History {
		if i, ok := at[h.GameID]; ok {
			g := &rec.Games[i]
			g.Rated, g.Before, g.After = true, h.RatingBefore, h.RatingAfter
		}
	}
	return rec, nil
}

// recordPage is what every page of a player's record shares, computed
// once per revision of the record: the lines newest first (their games
// carry only the columns the page shows), the totals, the opponents by
// reading, and the players, events and stored 棋譜 the lines name.
type recordPage struct {
	lines     []recordLine
	totals    RecordTotals
	opponents []store.Player
	players   map[int64]store.Player
	events    map[int64]store.Event
	recorded  map[int64]bool
}

// recordPageOf computes a recordPage in three statements whatever the
// record's length: the narrow games with their result versions
// (store.PlayerRecordGames; the result in force is store.EffectiveOf's),
// then the opponents and the events named.
func (o *Ratings) recordPageOf(ctx context.Context, playerID int64) (recordPage, error) {
	games, err := o.store.PlayerRecordGames(ctx, playerID, office.PublicStatuses)
	if err != nil {
		return recordPage{}, err
	}
	rp := recordPage{lines: make([]recordLine, 0, len(games)), recorded: map[int64]bool{}}
	var oppIDs, eventIDs []int64
	seenEvent := map[int64]bool{}
	for _, g := range games {
		r, ok := store.EffectiveOf(g.Versions)
		l := lineOf(g.Game, playerID, r, ok)
		rp.lines = append(rp.lines, l)
		if g.HasRecord {
			rp.recorded[g.Game.ID] = true
		}
		rp.totals.Games++
		if l.Won {
			rp.totals.Wins++
		}
		if l.Lost {
			rp.totals.Losses++
		}
		if l.Opponent != 0 {
			oppIDs = append(oppIDs, l.Opponent)
		}
		if !seenEvent[g.Game.EventID] {
			seenEvent[g.Game.EventID] = true
			eventIDs = append(eventIDs, g.Game.EventID)
		}
	}
	rp.lines = newestFirst(rp.lines)
	if rp.players, err = o.store.PlayersByIDs(ctx, oppIDs); err != nil {
		return recordPage{}, err
	}
	if rp.events, err = o.store.EventsByIDs(ctx, eventIDs); err != nil {
		return recordPage{}, err
	}
	rp.opponents = make([]store.Player, 0, len(rp.players))
	for _, opp := range rp.players {
		rp.opponents = append(rp.opponents, opp)
	}
	slices.SortFunc(rp.opponents, func(a, b store.Player) int {
		return cmp.Or(strings.Compare(a.Reading, b.Reading), cmp.Compare(a.ID, b.ID))
	})
	return rp, nil
}

// PlayerPageRevisions names everything the player's public record page
// shows (store.PlayerPageRevisions), for conditional GETs and the render
// cache of anonymous pages, and, from the same statement, the record's own
// revision for PlayerRecordAt. Public.
func (o *Ratings) PlayerPageRevisions(ctx context.Context, playerID int64) (page, games string, err error) {
	return o.store.PlayerPageRevisions(ctx, playerID)
}

// EachRecordGame calls fn with each game of a player's whole record
// (public; games of public events), newest first, for the CSV export: the
// same lines as the pages of PlayerRecord. Every statement runs before the
// first call, a fixed number whatever the record's length: the player, the
// rating history, the light lines (sorting needs them all), the opponents,
// the events and the games with a record. Each PlayerGame is then built
// when fn is called with it and dropped after, so what is held is the
// lines, never the rows. An error from fn stops the calls and is returned
// as it is; an unknown player is ErrNotFound before any call.
func (o *Ratings) EachRecordGame(ctx context.Context, playerID int64, fn func(PlayerGame) error) error {
	if _, err := o.store.PlayerByID(ctx, playerID); err != nil {
		return err
	}
	hist, err := o.store.RatingHistoryOf(ctx, playerID)
	if err != nil {
		return err
	}
	lines, err := o.recordLines(ctx, playerID)
	if err != nil {
		return err
	}
	opps, err := o.opponentsOf(ctx, lines)
	if err != nil {
		return err
	}
	b, err := o.gameBuilderOf(ctx, playerID, lines, opps, hist)
	if err != nil {
		return err
	}
	for _, l := range lines {
		if err := fn(b.game(l)); err != nil {
			return err
		}
	}
	return nil
}

// recordLine is one game of a player's record before its event and
// opponent are loaded: the game, the player's side and the result in
// force.
type recordLine struct {
	Game      store.Game
	Sente     bool
	Opponent  int64 // 0 while the other seat is empty
	PlayedAt  time.Time
	Result    string // "" while none is confirmed
	Reason    string
	Won, Lost bool
}

// recordLines lists the player's games in public events with their
// effective results, newest first: four statements whatever the record's
// length (issue 12). The results come from store.GameSetOfPlayer, the one
// definition of results in force.
func (o *Ratings) recordLines(ctx context.Context, playerID int64) ([]recordLine, error) {
	gs, err := o.store.GameSetOfPlayer(ctx, playerID)
	if err != nil {
		return nil, err
	}
	public, err := o.store.PublicEventsOfPlayer(ctx, playerID, office.PublicStatuses)
	if err != nil {
		return nil, err
	}
	// The games of public events that are not void
	// selects them), from the set already read.
	out := make([]recordLine, 0, len(gs.Games))
	for _, g := range gs.Games {
		if !public[g.EventID] || gs.Void[g.ID] {
			continue
		}
		r, ok := gs.Effective(g.ID)
		out = append(out, lineOf(g, playerID, r, ok))
	}
	return newestFirst(out), nil
}

// lineOf is game g from the player's side with its result in force r (ok
// false while none is confirmed).
func lineOf(g store.Game, playerID int64, r store.ResultVersion, ok bool) recordLine {
	l := recordLine{Game: g, Opponent: opponentOf(g, playerID), Sente: g.SentePlayerID != nil && *g.SentePlayerID == playerID}
	l.PlayedAt = gamePlayedAt(g, r)
	if ok {
		l.Result, l.Reason = r.Result, r.Reason
		l.Won = r.Result == office.ResultSenteWin && l.Sente || r.Result == office.ResultGoteWin && !l.Sente
		l.Lost = r.Result == office.ResultSenteWin && !l.Sente || r.Result == office.ResultGoteWin && l.Sente ||
			r.Result == office.ResultBothLose
	} else if g.ScheduledOn == nil && g.StartedAt == nil {
		l.PlayedAt = time.Time{} // not played and no day set
	}
	return l
}

// newestFirst sorts lines newest first, ties by game id (a total order),
// in place. Sorted by index, then moved once each along the permutation's
// cycles: a line holds a whole game, and a thousand of them moved in a sort
// or copied to a second slice cost more than reading them (issue 12).
func newestFirst(out []recordLine) []recordLine {
	idx := make([]int, len(out))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(i, j int) int {
		return cmp.Or(out[j].PlayedAt.Compare(out[i].PlayedAt), cmp.Compare(out[j].Game.ID, out[i].Game.ID))
	})
	// Line k takes the line at idx[k]; a line moved marks its place done.
	for k := range out {
		if idx[k] == k {
			continue
		}
		held, j := out[k], k
		for {
			n := idx[j]
			idx[j] = j
			if n == k {
				out[j] = held
				break
			}
			out[j] = out[n]
			j = n
		}
	}
	return out
}

// opponentsOf loads every opponent the lines name, keyed by id.
func (o *Ratings) opponentsOf(ctx context.Context, lines []recordLine) (map[int64]store.Player, error) {
	var ids []int64
	for _, l := range lines {
		if l.Opponent != 0 {
			ids = append(ids, l.Opponent)
		}
	}
	return o.store.PlayersByIDs(ctx, ids)
}

// playerGamesOf completes lines into PlayerGames (gameBuilderOf).
func (o *Ratings) playerGamesOf(ctx context.Context, playerID int64, lines []recordLine, opps map[int64]store.Player,
	hist []store.RatingHistoryEntry) ([]PlayerGame, error) {
	b, err := o.gameBuilderOf(ctx, playerID, lines, opps, hist)
	if err != nil {
		return nil, err
	}
	out := make([]PlayerGame, 0, len(lines))
	for _, l := range lines {
		out = append(out, b.game(l))
	}
	return out, nil
}

// gameBuilder completes a line into a PlayerGame from what was read for
// all the lines at once: their events, whether a record (棋譜) is stored,
// and the rating change of rated games (the player's stored history).
type gameBuilder struct {
	events   map[int64]store.Event
	opps     map[int64]store.Player
	recorded map[int64]bool
	rated    map[int64]store.RatingHistoryEntry
}

// gameBuilderOf reads what the lines' games need: two statements.
func (o *Ratings) gameBuilderOf(ctx context.Context, playerID int64, lines []recordLine, opps map[int64]store.Player,
	hist []store.RatingHistoryEntry) (gameBuilder, error) {
	eventIDs := make([]int64, 0, len(lines))
	for _, l := range lines {
		eventIDs = append(eventIDs, l.Game.EventID)
	}
	events, err := o.store.EventsByIDs(ctx, eventIDs)
	if err != nil {
		return gameBuilder{}, err
	}
	recorded, err := o.store.RecordedGamesOfPlayer(ctx, playerID)
	if err != nil {
		return gameBuilder{}, err
	}
	rated := make(map[int64]store.RatingHistoryEntry, len(hist))
	for _, h := range hist {
		rated[h.GameID] = h
	}
	return gameBuilder{events: events, opps: opps, recorded: recorded, rated: rated}, nil
}

func (b gameBuilder) game(l recordLine) PlayerGame {
	pg := PlayerGame{Game: l.Game, Event: b.events[l.Game.EventID], Opponent: b.opps[l.Opponent], Sente: l.Sente,
		PlayedAt: l.PlayedAt, Result: l.Result, Reason: l.Reason, Won: l.Won, Lost: l.Lost, HasRecord: b.recorded[l.Game.ID]}
	if h, ok := b.rated[l.Game.ID]; ok {
		pg.Rated, pg.Before, pg.After = true, h.RatingBefore, h.RatingAfter
	}
	return pg
}

func opponentOf(g store.Game, playerID int64) int64 {
	switch {
	case g.SentePlayerID != nil && *g.SentePlayerID == playerID && g.GotePlayerID != nil:
		return *g.GotePlayerID
	case g.GotePlayerID != nil && *g.GotePlayerID == playerID && g.SentePlayerID != nil:
		return *g.SentePlayerID
	}
	return 0
}

// HeadToHeadRecord is two players' record against each other.
type HeadToHeadRecord struct {
	Player, Opponent store.Player
	rating.HeadToHead
	Games []PlayerGame // their games, newest first, from Player's side
}

// HeadToHead is the record between two players over confirmed games of
// public events (rating.HeadToHeadOf: handicap games count, forfeits and
// unconfirmed games do not; 千日手/持将棋 are counted apart). Public.
func (o *Ratings) HeadToHead(ctx context.Context, playerID, opponentID int64) (HeadToHeadRecord, error) {
	if playerID == opponentID {
		v := &office.ValidationError{}
		v.Add(0, "opponent", "rating.err.same_player", nil)
		return HeadToHeadRecord{}, v
	}
	p, err := o.store.PlayerByID(ctx, playerID)
	if err != nil {
		return HeadToHeadRecord{}, err
	}
	opp, err := o.store.PlayerByID(ctx, opponentID)
	if err != nil {
		return HeadToHeadRecord{}, err
	}
	lines, err := o.recordLines(ctx, playerID)
	if err != nil {
		return HeadToHeadRecord{}, err
	}
	lines = slices.DeleteFunc(lines, func(l recordLine) bool { return l.Opponent != opponentID })
	hist, err := o.store.RatingHistoryOf(ctx, playerID)
	if err != nil {
		return HeadToHeadRecord{}, err
	}
	all, err := o.playerGamesOf(ctx, playerID, lines, map[int64]store.Player{opponentID: opp}, hist)
	if err != nil {
		return HeadToHeadRecord{}, err
	}
	out := HeadToHeadRecord{Player: p, Opponent: opp}
	var games []rating.Game
	for _, g := range all {
		out.Games = append(out.Games, g)
		if g.Result == "" {
			continue
		}
		rg := ratingGameOf(g.Game, store.ResultVersion{GameResult: store.GameResult{Result: g.Result, Reason: g.Reason}})
		rg.Confirmed = g.Result != office.ResultPending // only confirmed versions reach here
		rg.Date = g.PlayedAt
		games = append(games, rg)
	}
	h, err := rating.HeadToHeadOf(idString(playerID), idString(opponentID), games)
	if err != nil {
		return HeadToHeadRecord{}, fmt.Errorf("head to head %d–%d: %w", playerID, opponentID, err)
	}
	out.HeadToHead = h
	return out, nil
}
