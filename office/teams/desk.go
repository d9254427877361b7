package teams

import (
	"context"
	"fmt"

	"kisen/adjudication"
	"kisen/office"
	"kisen/store"
)

// The desk's match entry (issue 25 item 5, docs/team-matches.md): a round's
// matches by table number, each board with its current game and the
// result version the page saw, and one tap storing a board's outcome
// through the one result-entry path (office.EnterChainOutcomeIn).

// DeskRoles may enter board results at the desk.
var DeskRoles = []string{office.RoleDirector, office.RoleArbiter, office.RoleRecorder}

// Desk outcomes: one button each.
const (
	DeskSenteWin     = "sente_win"
	DeskGoteWin      = "gote_win"
	DeskSennichite   = "sennichite"
	DeskJishogi      = "jishogi"
	DeskSenteForfeit = "sente_forfeit" // 先手の不戦勝
	DeskGoteForfeit  = "gote_forfeit"  // 後手の不戦勝
)

// DeskOutcomes lists the outcomes in button order.
var DeskOutcomes = []string{DeskSenteWin, DeskGoteWin, DeskSennichite, DeskJishogi, DeskSenteForfeit, DeskGoteForfeit}

// DeskBoard is one board at the desk: the match board, who holds sente in
// the board's current game (a redo game swaps them), that game and the
// result version the page saw.
type DeskBoard struct {
	MatchBoard
	Sente, Gote OrderBoard
	LastGameID  int64 // the chain's current game (0: no game)
	Version     int
	Decided     bool
	Redo        bool // a redo result waits for its game
}

// Enterable: the board takes a tap.
func (b DeskBoard) Enterable() bool {
	return b.LastGameID != 0 && !b.Decided && !b.Redo && b.Sente.PlayerID != 0 && b.Gote.PlayerID != 0
}

// DeskMatch is a match at the desk.
type DeskMatch struct {
	MatchView
	Boards []DeskBoard
}

// DeskView is a round at the desk.
type DeskView struct {
	Event   store.Event
	Round   RoundView
	Matches []DeskMatch
}

// Match is the match at table n.
func (v DeskView) Match(table int) (DeskMatch, bool) {
	for _, m := range v.Matches {
		if m.Match.TableNo == table {
			return m, true
		}
	}
	return DeskMatch{}, false
}

// DeskRound reads a round for the desk (directors, arbiters, recorders;
// others are refused, and a hidden event is not found). Statements: the
// round's matches view plus the event's game set — the same for any number
// of teams or boards.
func (t *Teams) DeskRound(ctx context.Context, actor office.Actor, roundID int64) (DeskView, error) {
	r, err := t.roundOf(ctx, roundID)
	if err != nil {
		return DeskView{}, err
	}
	e, _, err := t.EventSettings(ctx, actor, r.EventID)
	if err != nil {
		return DeskView{}, err
	}
	if err := office.RequireEventRoleIn(ctx, t.store, actor, r.EventID, DeskRoles...); err != nil {
		return DeskView{Event: e}, err
	}
	mv, err := t.RoundMatches(ctx, actor, roundID)
	if err != nil {
		return DeskView{Event: e}, err
	}
	out := DeskView{Event: e, Round: mv.Round}
	if len(mv.Matches) == 0 {
		return out, nil
	}
	gs, err := t.store.GameSetOfEvent(ctx, e.ID)
	if err != nil {
		return DeskView{}, err
	}
	for _, m := range mv.Matches {
		dm := DeskMatch{MatchView: m}
		for _, b := range m.Boards {
			db := DeskBoard{MatchBoard: b}
			if b.ASente {
				db.Sente, db.Gote = b.A, b.B
			} else {
				db.Sente, db.Gote = b.B, b.A
			}
			if b.GameID != 0 {
				last, eff, decided, err := office.DecidingIn(gs, b.GameID)
				if err != nil {
					return DeskView{}, err
				}
				db.LastGameID, db.Decided = last.ID, decided
				db.Redo = !decided && eff.Result == office.ResultRedo
				if latest, ok := gs.Latest(last.ID); ok {
					db.Version = latest.Version
				}
				if last.SentePlayerID != nil && *last.SentePlayerID == b.B.PlayerID {
					db.Sente, db.Gote = b.B, b.A
				} else if last.SentePlayerID != nil && *last.SentePlayerID == b.A.PlayerID {
					db.Sente, db.Gote = b.A, b.B
				}
			}
			dm.Boards = append(dm.Boards, db)
		}
		out.Matches = append(out.Matches, dm)
	}
	return out, nil
}

// DeskResultInput is one tap at the desk: the round, table and board from
// the path, the game and version the row showed, and the outcome.
type DeskResultInput struct {
	RoundID int64
	Table   int
	Board   int
	GameID  int64
	Version int
	Outcome string // one of DeskOutcomes
}

// EnterDeskResult stores one board's outcome (directors, arbiters,
// recorders) in one transaction: the role first, then the board must be
// this round's table's, then office.EnterChainOutcomeIn (stale: 409; a
// decided board refused in words).
func (t *Teams) EnterDeskResult(ctx context.Context, actor office.Actor, in DeskResultInput) error {
	return t.store.Tx(ctx, func(tx *store.Store) error {
		r, err := tx.TeamRoundByID(ctx, in.RoundID)
		if err != nil {
			return err
		}
		if err := office.RequireEventRoleIn(ctx, tx, actor, r.EventID, DeskRoles...); err != nil {
			return err
		}
		ms, err := tx.TeamMatchesOfRound(ctx, r.ID)
		if err != nil {
			return err
		}
		var root int64
		for _, m := range ms {
			if m.TableNo != in.Table {
				continue
			}
			bs, err := tx.TeamMatchBoardsOf(ctx, []int64{m.ID})
			if err != nil {
				return err
			}
			for _, b := range bs[m.ID] {
				if b.Board == in.Board && b.GameID != nil {
					root = *b.GameID
				}
			}
		}
		if root == 0 {
			return fmt.Errorf("team round %d table %d board %d: %w", in.RoundID, in.Table, in.Board, office.ErrNotFound)
		}
		co := office.ChainOutcomeInput{RootID: root, GameID: in.GameID, Version: in.Version, Reason: office.ReasonResignation}
		switch in.Outcome {
		case DeskSenteWin:
			co.Result = office.ResultSenteWin
		case DeskGoteWin:
			co.Result = office.ResultGoteWin
		case DeskSenteForfeit:
			co.Result, co.Reason = office.ResultSenteWin, office.ReasonForfeit
		case DeskGoteForfeit:
			co.Result, co.Reason = office.ResultGoteWin, office.ReasonForfeit
		case DeskSennichite:
			co.Result, co.Reason = office.ResultRedo, "sennichite"
		case DeskJishogi:
			co.Result, co.Reason = office.ResultRedo, string(adjudication.ReasonJishogiRedo)
		default:
			v := &office.ValidationError{}
			v.Add(0, "outcome", "teams.desk.err.outcome", nil)
			return v
		}
		return office.EnterChainOutcomeIn(ctx, tx, actor, co, t.now())
	})
}
