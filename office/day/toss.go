package day

import (
	"context"
	"encoding/json"
	"fmt"

	"kisen/office"
	"kisen/pairing"
	"kisen/store"
)

// BoardTossInput is a 振り駒 seen at a board: who tossed (one of the two
// players; the 上座 player by the rules, but the form records whoever did)
// and how the 歩 fell — Pieces tossed (5, or 3 where the class allows the
// simplified toss, 003; 0 means 5), Fu face up, To face up, the rest
// standing or lying on another piece (not counted, D-F2). GameID and
// Version are the board's game and result version the form showed.
type BoardTossInput struct {
	ClassID int64
	Round   int
	Board   int
	GameID  int64
	Version int
	Tosser  int64
	Pieces  int
	Fu, To  int
}

// tossEntry is one observed toss in the desk log (LogToss).
type tossEntry struct {
	Game   int64        `json:"game"`
	Tosser int64        `json:"tosser"`
	Other  int64        `json:"other"`
	Toss   pairing.Toss `json:"toss"`
}

// observedTosses replays a class's observed tosses per game through
// pairing.Judge, the rule the bracket games use (D-F1..F3).
func observedTosses(log []store.DayLogEntry) (map[int64]pairing.Furigoma, error) {
	byGame := map[int64][]tossEntry{}
	var order []int64
	for _, e := range log {
		var t tossEntry
		if err := json.Unmarshal([]byte(e.Detail), &t); err != nil {
			return nil, fmt.Errorf("day log %d: %w", e.ID, err)
		}
		if _, ok := byGame[t.Game]; !ok {
			order = append(order, t.Game)
		}
		byGame[t.Game] = append(byGame[t.Game], t)
	}
	out := map[int64]pairing.Furigoma{}
	for _, g := range order {
		ts := byGame[g]
		tosses := make([]pairing.Toss, len(ts))
		for i, t := range ts {
			tosses[i] = t.Toss
		}
		// recorded tosses were checked against the class's setting when
		// entered; a three-歩 toss stays valid if the setting changes later
		f, err := pairing.JudgeWith(pairing.TossRule{AllowThree: true}, pid(ts[0].Tosser), pid(ts[0].Other), tosses)
		if err != nil {
			return nil, fmt.Errorf("tosses of game %d: %w", g, err)
		}
		out[g] = f
	}
	return out, nil
}

// EnterBoardToss records a physical 振り駒 seen at a board whose sente a
// toss decides (directors, arbiters, recorders), before the board has a
// result: a new desk-log record beside the simulated toss printed on the
// pairing sheet, never an overwrite. pairing.Judge rules on every toss
// observed so far (D-F1: more 歩 → the tosser is sente, more と → the
// other; D-F2: standing or overlapping pieces do not count; D-F3: a tie
// is tossed again, by the same player). Once a toss decides, the game's
// seats follow it and the board's sente is "observed". The game row is
// locked and the result version the form showed checked: a result entered
// meanwhile answers 409.
func (d *Day) EnterBoardToss(ctx context.Context, actor office.Actor, in BoardTossInput) (pairing.Furigoma, error) {
	var out pairing.Furigoma
	err := d.store.Tx(ctx, func(tx *store.Store) error {
		c, err := tx.DayClassByID(ctx, in.ClassID)
		if err != nil {
			return err
		}
		// Who may enter first, then whether the game is this board's
		// (issue 21): another board's or event's game is not found.
		if _, err := requireDay(ctx, tx, actor, c.EventID, resultRoles); err != nil {
			return err
		}
		root, err := boardGame(ctx, tx, c.ID, in.Round, in.Board)
		if err != nil {
			return err
		}
		if err := office.ChainHoldsIn(ctx, tx, root, in.GameID); err != nil {
			return err
		}
		// domain rule, not a tag: 振り駒 throws five 歩 (000 第7条1), or three
		// where the organiser allows the simplified toss (003, ThreePawnToss);
		// 歩 and と count to at most the pieces thrown.
		pieces := in.Pieces
		if pieces == 0 {
			pieces = pairing.PiecesPerToss
		}
		if pieces != pairing.PiecesPerToss && (pieces != pairing.PiecesSimplified || !ParseSettings(c.Settings).ThreePawnToss) {
			return invalid("pieces", "day.err.toss_pieces", nil)
		}
		if in.Fu < 0 || in.To < 0 || in.Fu+in.To > pieces {
			return invalid("fu", "day.err.toss_count", map[string]any{"N": pieces})
		}
		if in.GameID != root {
			return invalid("toss", "day.err.toss_after_result", nil) // a redo game: the board already has a result
		}
		g, err := tx.LockGame(ctx, root)
		if err != nil {
			return err
		}
		latest, has, err := tx.LatestResult(ctx, root)
		if err != nil {
			return err
		}
		if has && latest.Version != in.Version {
			return &office.StaleError{GameID: root, Seen: in.Version, Latest: latest, Has: true}
		}
		if has {
			return invalid("toss", "day.err.toss_after_result", nil)
		}
		if g.StartedAt != nil {
			return invalid("toss", "day.err.toss_started", nil)
		}
		ps, err := tx.DayPairingsOfClass(ctx, c.ID)
		if err != nil {
			return err
		}
		senteBy := ""
		for _, p := range ps {
			if p.GameID != nil && *p.GameID == root {
				senteBy = p.SenteBy
			}
		}
		if senteBy != pairing.SenteByFurigoma {
			return invalid("toss", "day.err.toss_not_by_furigoma", nil) // 手合割, rank or the Swiss colours fix sente
		}
		a, b := deref64(g.SentePlayerID), deref64(g.GotePlayerID)
		if in.Tosser != a && in.Tosser != b {
			return invalid("tosser", "day.err.choose", nil)
		}
		log, err := tx.DayLogOfClass(ctx, c.ID, LogToss)
		if err != nil {
			return err
		}
		seen, err := observedTosses(log)
		if err != nil {
			return err
		}
		entry := tossEntry{Game: root, Tosser: in.Tosser, Other: a + b - in.Tosser, Toss: pairing.Toss{Pieces: make([]pairing.Face, pieces)}}
		prev, tossed := seen[root]
		if tossed && prev.Decided {
			return invalid("toss", "day.err.toss_decided", nil)
		}
		if tossed && prev.Tosser != pid(in.Tosser) {
			return invalid("tosser", "day.err.toss_same_tosser", nil) // D-F3: the same player tosses again
		}
		for i := range entry.Toss.Pieces {
			switch {
			case i < in.Fu:
				entry.Toss.Pieces[i] = pairing.FaceFu
			case i < in.Fu+in.To:
				entry.Toss.Pieces[i] = pairing.FaceTo
			default:
				entry.Toss.Pieces[i] = pairing.FaceStanding
			}
		}
		out, err = pairing.JudgeWith(pairing.TossRule{AllowThree: true}, pid(entry.Tosser), pid(entry.Other), append(prev.Tosses, entry.Toss)) // the count was checked above
		if err != nil {
			return fmt.Errorf("board %d toss: %w", in.Board, err)
		}
		now := d.now()
		if out.Decided && out.Sente != pid(a) {
			if err := tx.SetGamePlayers(ctx, root, &b, &a, now); err != nil {
				return err
			}
		}
		return tx.AppendDayLog(ctx, &store.DayLogEntry{EventID: c.EventID, ClassID: &c.ID, Action: LogToss, Detail: mustJSON(entry), ActorID: actor.UserID, At: now})
	})
	return out, err
}
