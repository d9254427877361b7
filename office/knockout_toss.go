package office

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"kisen/pairing"
	"kisen/store"
)

// TossInput is one physical 振り駒 toss as the director saw it: the five
// pieces, each 歩 / と / standing / on another piece (pairing.ParseFace
// spellings: fu, to, standing, overlapping or 歩, と, 立, 重).
// Tosser is who actually tossed: 0 for the 上座 player, who tosses by
// the rules (000 第7条1, 001 第3条, D-Z1); the form records whoever did.
type TossInput struct {
	StageID     int64
	BracketGame string
	Tosser      int64
	Pieces      [pairing.PiecesPerToss]string
}

// decodeFurigoma reads a stored toss record; "{}" or bad JSON is none.
func decodeFurigoma(raw string) (pairing.Furigoma, bool) {
	var f pairing.Furigoma
	if raw == "" || raw == "{}" || unmarshalFurigoma(raw, &f) != nil || f.Tosser == "" {
		return pairing.Furigoma{}, false
	}
	return f, true
}

// EnterToss adds one observed toss to a bracket game whose sente a 振り駒
// decides and whose game has not started (directors). pairing.Judge rules on
// all observed tosses so far (D-F1: more 歩 → the tosser is sente, more と →
// the other; D-F2: standing or overlapping pieces do not count; D-F3: a tie
// is tossed again, 000 第7条). Once a toss decides, the game's seats are set
// from it and sente_by becomes "observed"; a tie waits for the next toss.
// The simulated toss is kept beside it. Every toss is in the audit trail.
func (o *Office) EnterToss(ctx context.Context, actor Actor, in TossInput) (pairing.Furigoma, error) {
	var out pairing.Furigoma
	err := o.stageTx(ctx, actor, in.StageID, func(tx *store.Store, st store.KnockoutStage) error {
		kgs, err := tx.KnockoutGamesOfStage(ctx, st.ID)
		if err != nil {
			return err
		}
		i := slices.IndexFunc(kgs, func(k store.KnockoutGame) bool { return k.BracketGame == in.BracketGame })
		if i < 0 {
			return fmt.Errorf("stage %d has no game %q: %w", st.ID, in.BracketGame, ErrNotFound)
		}
		kg := kgs[i]
		v := &ValidationError{}
		sim, ok := decodeFurigoma(kg.Furigoma)
		if !ok || (kg.SenteBy != pairing.SenteByFurigoma && kg.SenteBy != pairing.SenteByObserved) {
			v.Add(0, "", "knockout.err.toss_not_by_furigoma", nil) // a handicap or a 番勝負's turn fixes sente
			return v
		}
		g, err := tx.GameByID(ctx, kg.GameID)
		if err != nil {
			return err
		}
		if g.StartedAt != nil {
			v.Add(0, "", "knockout.err.toss_started", nil)
			return v
		}
		toss := pairing.Toss{Pieces: make([]pairing.Face, len(in.Pieces))}
		for j, s := range in.Pieces {
			f, err := pairing.ParseFace(s)
			if err != nil {
				v.Add(0, fmt.Sprintf("piece_%d", j+1), "knockout.err.toss_piece", map[string]any{"N": j + 1})
				continue
			}
			toss.Pieces[j] = f
		}
		if err := v.OrNil(); err != nil {
			return err
		}
		prev, tossed := decodeFurigoma(kg.Observed)
		if prev.Decided {
			v.Add(0, "", "knockout.err.toss_decided", nil)
			return v
		}
		// The simulated toss was made by the 上座 player (decideStart,
		// OverrideJoza): the default tosser. Someone else may have tossed;
		// the record names who did, and a tie is tossed again by the same
		// player (D-F3).
		tosser, other := sim.Tosser, sim.Other
		if in.Tosser != 0 {
			switch t := strconv.FormatInt(in.Tosser, 10); t {
			case sim.Tosser:
			case sim.Other:
				tosser, other = sim.Other, sim.Tosser
			default:
				v.Add(0, "tosser", "knockout.err.toss_tosser", nil)
				return v
			}
		}
		if tossed && len(prev.Tosses) > 0 && prev.Tosser != tosser {
			v.Add(0, "tosser", "knockout.err.toss_same_tosser", nil)
			return v
		}
		out, err = pairing.Judge(tosser, other, append(prev.Tosses, toss))
		if err != nil {
			return fmt.Errorf("game %s toss: %w", in.BracketGame, err)
		}
		senteBy := pairing.SenteByFurigoma // a tie so far: the simulated toss stands until one decides
		if out.Decided {
			senteBy = pairing.SenteByObserved
			sente, okS := playerOfEntrant(out.Sente)
			gote, okG := playerOfEntrant(out.Tosser)
			if out.Sente == out.Tosser {
				gote, okG = playerOfEntrant(out.Other)
			}
			if !okS || !okG {
				return fmt.Errorf("game %s toss names %q and %q: %w", in.BracketGame, out.Tosser, out.Other, ErrInvalid)
			}
			if err := tx.SetGamePlayers(ctx, g.ID, &sente, &gote, o.now()); err != nil {
				return err
			}
		}
		if err := tx.SetKnockoutObserved(ctx, kg.ID, mustJSON(out), senteBy); err != nil {
			return err
		}
		return tx.AppendDrawLog(ctx, &store.DrawLogEntry{StageID: st.ID, Action: "toss", ActorID: actor.UserID, At: o.now(),
			Detail: mustJSON(map[string]any{"game": in.BracketGame, "tosser": out.Tosser, "pieces": toss.Pieces, "decided": out.Decided, "sente": out.Sente})})
	}, RoleDirector)
	return out, err
}
