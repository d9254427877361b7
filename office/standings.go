package office

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"kisen/adjudication"

	"kisen/league"
	"kisen/store"
)

// LeagueCell is one player's round in the league table.
type LeagueCell struct {
	Rest     bool   // 抜け番
	Opponent int64  // player id
	Sente    bool   // the player is sente (先) in the scheduled game
	Result   string // "win", "loss", "both_lose" (a loss: neither came) or "" (not decided yet)
	GameID   int64  // the scheduled game (first of its redo chain); 0 before publication
	Date     string // YYYY-MM-DD or ""
}

// LeagueRow is one player's line: the league room's standings row and a
// cell per round, in 順位 order.
type LeagueRow struct {
	PlayerID int64
	Row      league.Row
	// Mark says whether the row's promotion and demotion marks are shown,
	// as provisional (暫定) or as decided (issue 13: honest tables).
	Mark league.MarkState
	// PointsBefore is the 降級点 held before this term (a fact, shown while
	// the term's own marks are not decided).
	PointsBefore int
	Cells        []LeagueCell
}

// LeagueGameView is one scheduled game with where its redo chain stands.
type LeagueGameView struct {
	Round   int
	GameID  int64 // the scheduled game
	Current int64 // the chain's last game: where the next result goes
	Sente   int64 // of the scheduled game
	Gote    int64
	// CurrentSente/CurrentGote are the seats of the chain's last game (a
	// redo game of an even game swaps colours, D-R1): the game to play.
	CurrentSente, CurrentGote int64
	// Version is the current game's newest result version (0: none), for
	// the quick result form (issue 11).
	Version int
	Date    string
	Decided bool
	Winner  int64 // 0 while undecided and for both_lose
	// BothLose: neither player came; decided as a loss for each (the
	// league room's Result.BothLose).
	BothLose bool
	Redos    int  // redo games played after the first (千日手 / 持将棋, D-R3)
	Pending  bool // a result waits for confirmation or a decision
}

// LeagueStandings is a class's public table.
type LeagueStandings struct {
	LeagueClassDetail
	Table league.Table
	Rows  []LeagueRow // 順位 order
	Games []LeagueGameView
	// Playoff is the stepladder when the final table ties for the
	// challenger place; nil otherwise.
	Playoff *LeaguePlayoff
}

// Standings computes a class's table from the deciding game of every
// scheduled game (D-R3: a redo chain counts once) with the league room.
//
// The table is kept under the event's revision (view_cache.go), read before
// the class's data, so an unchanged class is not recomputed.
func (o *Office) Standings(ctx context.Context, actor Actor, classID int64) (LeagueStandings, error) {
	c, err := o.store.LeagueClassByID(ctx, classID)
	if err != nil {
		return LeagueStandings{}, err
	}
	return o.StandingsRead(ctx, actor, ClassRead{Class: c})
}

// ClassRead is what a class page's conditional GET has read before the
// page (web's notModifiedClass): the class and, for the public, its
// event's PageRevision (event and revision, read after the class and before
// anything else of it). StandingsRead reads again only what is missing, so
// a computed page reads the event and the revision once (issue 12); the
// class is read again after the revision when the table is computed.
type ClassRead struct {
	Class store.LeagueClass
	// Page is PageRevision(actor, Class.EventID); its Event.ID is 0 when
	// it was not read.
	Page PageRevision
}

// StandingsRead is Standings for a class already read (r.Class must be the
// class row, as Standings reads it).
func (o *Office) StandingsRead(ctx context.Context, actor Actor, r ClassRead) (LeagueStandings, error) {
	c := r.Class
	var (
		rev string
		e   store.Event
		err error
	)
	if p := r.Page; p.Event.ID != 0 && p.Event.ID == c.EventID {
		e = p.Event
		if p.Known {
			rev = revisionKey(p.Revision)
		}
	} else {
		if rev, err = o.eventRevision(ctx, c.EventID); err != nil { // a class never changes event
			return LeagueStandings{}, err
		}
		if e, err = o.store.EventByID(ctx, c.EventID); err != nil {
			return LeagueStandings{}, err
		}
	}
	if err := requireLeagueView(ctx, o.store, actor, e); err != nil {
		return LeagueStandings{}, err
	}
	if err := mayViewClass(ctx, o.store, actor, c); err != nil {
		return LeagueStandings{}, err
	}
	st, err := kept(o.views, "standings:"+strconv.FormatInt(c.ID, 10), rev, func() (LeagueStandings, error) {
		// The class again: the row at hand was read before the revision,
		// and a table kept under rev must be computed from what was read
		// after it (a class changed in between would otherwise be kept
		// under the revision that change made). The event was read after
		// the revision.
		c, err := o.store.LeagueClassByID(ctx, c.ID)
		if err != nil {
			return LeagueStandings{}, err
		}
		if c.EventID != e.ID {
			return LeagueStandings{}, fmt.Errorf("class %d: %w", c.ID, ErrNotFound)
		}
		d, err := loadClassDetail(ctx, o.store, e, c) // visibility checked above
		if err != nil {
			return LeagueStandings{}, err
		}
		return o.standingsOf(ctx, d)
	})
	if err != nil {
		return LeagueStandings{}, err
	}
	// The class as the table was computed from it (read after the
	// revision): one unpublished meanwhile is hidden from this answer too.
	if err := mayViewClass(ctx, o.store, actor, st.Class); err != nil {
		return LeagueStandings{}, err
	}
	return st, nil
}

func (o *Office) standingsOf(ctx context.Context, d LeagueClassDetail) (LeagueStandings, error) {
	out := LeagueStandings{LeagueClassDetail: d}
	// Every game of the event with its redo chain, results and void marks,
	// and the class's scheduled games (LeagueGames) with them, in two
	// statements, with only the columns a table is computed from; the table
	// is computed from it in memory.
	gs, lgs, err := o.store.GameSetOfLeagueClass(ctx, d.Class.EventID, d.Class.ID)
	if err != nil {
		return out, err
	}
	type key struct {
		round int
		sente int64
		gote  int64
	}
	// Sized up front, and the games are found by their index in out.Games
	// (issue 12: 305 games on every computed table).
	views := make(map[key]int, len(lgs))
	results := make([]league.Result, 0, len(lgs))
	out.Games = make([]LeagueGameView, 0, len(lgs))
	for _, lg := range lgs {
		g, ok := gs.Games[lg.GameID]
		if !ok {
			return out, fmt.Errorf("league game %d: %w", lg.GameID, store.ErrNotFound)
		}
		if g.SentePlayerID == nil || g.GotePlayerID == nil {
			return out, fmt.Errorf("league game %d has an empty seat", g.ID)
		}
		gv := LeagueGameView{Round: lg.Round, GameID: g.ID, Current: g.ID, Sente: *g.SentePlayerID, Gote: *g.GotePlayerID}
		if g.ScheduledOn != nil {
			gv.Date = *g.ScheduledOn
		}
		last, eff, ok, err := deciding(gs, g.ID)
		if err != nil {
			return out, err
		}
		gv.Current, gv.Redos = last.ID, last.RedoNumber
		gv.CurrentSente, gv.CurrentGote = gv.Sente, gv.Gote
		if last.SentePlayerID != nil && last.GotePlayerID != nil {
			gv.CurrentSente, gv.CurrentGote = *last.SentePlayerID, *last.GotePlayerID
		}
		if lv, ok := gs.Latest(last.ID); ok {
			gv.Version = lv.Version
		}
		if ok && last.SentePlayerID != nil && last.GotePlayerID != nil {
			switch eff.Result {
			case ResultSenteWin:
				gv.Decided, gv.Winner = true, *last.SentePlayerID
			case ResultGoteWin:
				gv.Decided, gv.Winner = true, *last.GotePlayerID
			case ResultBothLose:
				gv.Decided, gv.BothLose = true, true
			}
		}
		if !gv.Decided {
			vs := gs.Versions[last.ID]
			gv.Pending = len(vs) > 0 && (!vs[len(vs)-1].Confirmed() || vs[len(vs)-1].Result == ResultPending)
		}
		if gv.Decided {
			r := league.Result{Round: lg.Round, Sente: leaguePlayerID(gv.Sente), Gote: leaguePlayerID(gv.Gote), BothLose: gv.BothLose}
			if !gv.BothLose {
				r.Winner = leaguePlayerID(gv.Winner)
			}
			results = append(results, r)
		}
		views[key{lg.Round, gv.Sente, gv.Gote}] = len(out.Games)
		out.Games = append(out.Games, gv)
	}
	term := league.Term{Class: league.Class(d.Class.Class), Schedule: d.Schedule, Results: results, Points: map[string]int{}, Rules: d.Rules}
	for _, m := range d.Members {
		id := leaguePlayerID(m.PlayerID)
		term.Players = append(term.Players, id)
		term.Points[id] = m.Points
	}
	out.Table, err = league.Standings(term)
	if err != nil {
		return out, fmt.Errorf("league class %d standings: %w", d.Class.ID, err)
	}
	if out.Playoff, err = o.playoffOf(ctx, gs, d.Class.ID, &out.Table); err != nil {
		return out, err
	}
	marks := league.Marks(out.Table, term.Rules)
	rows := make(map[string]league.Row, len(out.Table.Rows))
	for _, r := range out.Table.Rows {
		rows[r.ID] = r
	}
	out.Rows = make([]LeagueRow, 0, len(d.Members))
	for _, m := range d.Members {
		id := leaguePlayerID(m.PlayerID)
		lr := LeagueRow{PlayerID: m.PlayerID, Row: rows[id], Mark: marks[id], PointsBefore: term.Points[id], Cells: make([]LeagueCell, len(d.Schedule.Rounds))}
		for ri, r := range d.Schedule.Rounds {
			cell := LeagueCell{Rest: true}
			for _, g := range r.Games {
				if g.Sente != id && g.Gote != id {
					continue
				}
				s, _ := playerOfLeagueID(g.Sente)
				t, _ := playerOfLeagueID(g.Gote)
				cell = LeagueCell{Sente: g.Sente == id, Opponent: t}
				if g.Gote == id {
					cell.Opponent = s
				}
				if !g.Date.IsZero() {
					cell.Date = g.Date.Format("2006-01-02")
				}
				if i, ok := views[key{r.Number, s, t}]; ok {
					gv := &out.Games[i]
					cell.GameID, cell.Date = gv.GameID, gv.Date
					if gv.Decided {
						cell.Result = "loss"
						if gv.BothLose {
							cell.Result = ResultBothLose
						} else if gv.Winner == m.PlayerID {
							cell.Result = "win"
						}
					}
				}
			}
			lr.Cells[ri] = cell
		}
		out.Rows = append(out.Rows, lr)
	}
	return out, nil
}

// LeagueResultInput is the quick result form of the league page.
type LeagueResultInput struct {
	// ClassID is the class whose page the form was posted from (0: any,
	// for callers outside the web); the game must be one of its games.
	ClassID int64
	// GameID is the game the row showed: the current (last) game of its
	// redo chain, where the result goes. If the chain has moved on (a
	// redo game was created since) the result is refused as stale.
	GameID int64
	// Version is that game's result version the person saw (0: none).
	Version int
	Result  string `field:"result" validate:"oneof=sente_win gote_win redo" msg:"league.err,oneof=result"` // sente_win, gote_win or redo
	Reason  string // resignation, forfeit, … (default resignation); redo: sennichite or jishogi
}

// EnterLeagueResult records a result from the league page (directors,
// schedulers, arbiters, recorders). It goes to the chain's last game,
// which must be the game the row showed, at the version it showed (issue
// 11: checked in the writing transaction with the game row locked); a
// redo (千日手 / 持将棋) also creates the redo game through the same path as
// the game page (createRedoGame: colours swapped, D-R1, 000 第8条第4項;
// allowance by D-R2), at once, even while the redo result waits for
// confirmation.
func (o *Office) EnterLeagueResult(ctx context.Context, actor Actor, in LeagueResultInput) error {
	if in.ClassID != 0 { // the class the form was posted to: may the actor act there at all
		if err := o.RequireLeagueClassRole(ctx, actor, in.ClassID, LeagueResultRoles...); err != nil {
			return err
		}
	}
	first, err := chainRoot(ctx, o.store, in.GameID)
	if err != nil {
		return err
	}
	var classID int64
	if lg, err := o.store.LeagueGameOf(ctx, first.ID); errors.Is(err, store.ErrNotFound) {
		// A playoff game (パラマス) takes quick results too.
		pg, err := o.store.LeaguePlayoffGameOf(ctx, first.ID)
		if err != nil {
			return err
		}
		classID = pg.ClassID
	} else if err != nil {
		return err
	} else {
		classID = lg.ClassID
	}
	// The game must be one of the class's own (issue 21): another class's
	// or event's game is not found, as a missing one, before any check
	// that would describe it.
	if in.ClassID != 0 && classID != in.ClassID {
		return fmt.Errorf("game %d is not of league class %d: %w", in.GameID, in.ClassID, ErrNotFound)
	}
	if err := o.RequireEventRole(ctx, actor, first.EventID, LeagueResultRoles...); err != nil {
		return err
	}
	v := &ValidationError{}
	checkInput(v, 0, in)
	if in.Reason == "" {
		in.Reason = ReasonResignation
		if in.Result == ResultRedo {
			in.Reason = "sennichite"
		}
	}
	if err := v.OrNil(); err != nil {
		return err
	}
	return o.store.Tx(ctx, func(tx *store.Store) error {
		last, _, decided, err := lockChainGame(ctx, tx, first.ID, in.GameID, in.Version)
		if err != nil {
			return err
		}
		if _, void, err := tx.GameVoidOf(ctx, first.ID); err != nil {
			return err
		} else if void { // its schedule was taken back (UnpublishSchedule)
			return fmt.Errorf("game %d is void: %w", first.ID, ErrConflict)
		}
		if decided {
			return staleError(ctx, tx, last.ID, in.Version)
		}
		rin := ResultInput{Result: in.Result, Reason: in.Reason, Version: in.Version}
		return appendQuickResult(ctx, tx, actor, last, rin, o.now())
	})
}

// appendQuickResult stores a result entered with no clocks (the league's
// quick form, the team desk's tap) on the chain's last game, and for a
// redo creates the redo game at once. The one redo path
// (adjudication.NextRedo through createRedoGame, as the game page uses):
// colours swapped (D-R1), allowance by D-R2 from the time left — a quick
// entry has no clocks, so each side's full allowance counts as left; the
// arbiter corrects it on the game page. Like the game page, the redo game
// exists at once even when the redo result still waits for confirmation:
// the players replay after the break.
func appendQuickResult(ctx context.Context, tx *store.Store, actor Actor, last store.Game, rin ResultInput, now time.Time) error {
	if err := checkResult(last, rin).OrNil(); err != nil {
		return err
	}
	now = now.UTC()
	if _, err := appendResult(ctx, tx, actor, last, rin, now); err != nil {
		return err
	}
	if rin.Result != ResultRedo {
		return nil
	}
	left := adjudication.Times{
		Sente: adjudication.Duration(time.Duration(last.SenteAllowanceS) * time.Second),
		Gote:  adjudication.Duration(time.Duration(last.GoteAllowanceS) * time.Second),
	}
	plan, err := redoPlan(ctx, tx, last, left)
	if err != nil {
		return err
	}
	_, err = createRedoGame(ctx, tx, last, plan, now)
	return err
}
