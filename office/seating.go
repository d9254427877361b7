package office

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"kisen/pairing"
	"kisen/store"
)

// 席次: who sits at the 上座 of a game, and so who tosses the 振り駒 (000
// 第7条1, 001 第3条: the 上座 player's 歩; 003: the upper side). The order
// is pairing.Joza's (D-Z1, docs/seating.md); at an amateur event
// pairing.JozaAmateur's (D-Z2); an organiser's override of one game, with
// its reason, comes before both (OverrideJoza).

// JozaOf is who sits at the 上座 of a game and why; Note is the
// organiser's reason when Reason is pairing.JozaByOverride.
type JozaOf struct {
	PlayerID int64
	Reason   pairing.JozaReason
	Note     string
}

// seatStanding is a player's 席次 facts as the pairing room reads them.
func seatStanding(f store.SeatFacts) pairing.PlayerStanding {
	p := pairing.PlayerStanding{ID: strconv.FormatInt(f.ID, 10), Class: string(f.Class),
		RankSince: f.RankSince.Time(), ProSince: f.ProSince.Time()}
	if r, err := pairing.ParseRank(f.Rank); err == nil {
		p.Rank, p.HasRank = r, true
	}
	for _, t := range strings.Split(f.Titles, ",") {
		if t = strings.TrimSpace(t); t != "" {
			p.Titles = append(p.Titles, pairing.TitleHeld{Title: t})
		}
	}
	if n, err := strconv.Atoi(strings.TrimSpace(f.Number)); err == nil && n > 0 {
		p.Number = n
	}
	return p
}

// jozaOfPair decides the 上座 of a and b (a is the organiser's order when
// every criterion ties): the amateur order at an amateur event or when
// either player is an amateur, the federation's otherwise.
func jozaOfPair(facts map[int64]store.SeatFacts, junni map[int64]store.Junni, amateur bool, a, b int64, on time.Time) (int64, pairing.JozaReason) {
	fa, fb := facts[a], facts[b]
	fa.ID, fb.ID = a, b
	if fa.Kind == store.PlayerAmateur || fb.Kind == store.PlayerAmateur {
		amateur = true
	}
	var first string
	var why pairing.JozaReason
	if amateur {
		first, why = pairing.JozaAmateur(seatStanding(fa), seatStanding(fb))
	} else {
		sa, sb := seatStanding(fa), seatStanding(fb)
		// the 順位 of the term running that day, in the class the registry
		// names (a term of another class is not this class's 順位)
		for _, x := range []*pairing.PlayerStanding{&sa, &sb} {
			id, _ := strconv.ParseInt(x.ID, 10, 64)
			if j, ok := junni[id]; ok && string(j.Class) == x.Class {
				x.ClassRank = j.Junni
			}
		}
		first, why = pairing.Joza(sa, sb, on)
	}
	if first == strconv.FormatInt(b, 10) {
		return b, why
	}
	return a, why
}

// decideJoza reads what jozaOfPair needs for a and b on the day on (the
// registry's facts and, for official games, the 順位 of the 順位戦 term
// running that day); an override of gameID (0: the game does not exist
// yet) comes first.
func decideJoza(ctx context.Context, s *store.Store, eventID, gameID, a, b int64, on time.Time) (JozaOf, error) {
	if gameID != 0 {
		ovs, err := s.SeatOverridesOf(ctx, []int64{gameID})
		if err != nil {
			return JozaOf{}, err
		}
		if n := len(ovs); n > 0 && (ovs[n-1].JozaID == a || ovs[n-1].JozaID == b) {
			return JozaOf{PlayerID: ovs[n-1].JozaID, Reason: pairing.JozaByOverride, Note: ovs[n-1].Reason}, nil
		}
	}
	amateur, err := s.IsDayEvent(ctx, eventID)
	if err != nil {
		return JozaOf{}, err
	}
	facts, err := s.SeatFactsOf(ctx, []int64{a, b})
	if err != nil {
		return JozaOf{}, err
	}
	var junni map[int64]store.Junni
	if !amateur {
		if junni, err = s.JunniOn(ctx, []int64{a, b}, on.Format(time.DateOnly)); err != nil {
			return JozaOf{}, err
		}
	}
	first, why := jozaOfPair(facts, junni, amateur, a, b, on)
	if why == pairing.JozaByOrganiser && gameID != 0 {
		// Every criterion ties: the organiser's order is the draw's,
		// which its simulated toss recorded as the tosser.
		if id, ok, err := drawTosser(ctx, s, gameID, amateur); err != nil {
			return JozaOf{}, err
		} else if ok && (id == a || id == b) {
			first = id
		}
	}
	return JozaOf{PlayerID: first, Reason: why}, nil
}

// drawTosser is the tosser of a game's simulated 振り駒 — the bracket
// game's, or the day board's — when it has one.
func drawTosser(ctx context.Context, s *store.Store, gameID int64, amateur bool) (int64, bool, error) {
	raw := ""
	if kg, err := s.KnockoutGameByGameID(ctx, gameID); err == nil {
		raw = kg.Furigoma
	} else if !isErrNotFound(err) {
		return 0, false, err
	} else if amateur {
		p, err := s.DayPairingOfGame(ctx, gameID)
		if err != nil && !isErrNotFound(err) {
			return 0, false, err
		}
		raw = p.Furigoma
	}
	f, ok := decodeFurigoma(raw)
	if !ok {
		return 0, false, nil
	}
	id, err := strconv.ParseInt(f.Tosser, 10, 64)
	return id, err == nil, nil
}

// GameJoza is who sits at the 上座 of a game the actor may see, and why
// (the game page, the slip, the observed-toss form). A game without both
// players has none (ok false).
func (o *Office) GameJoza(ctx context.Context, actor Actor, gameID int64) (j JozaOf, ok bool, err error) {
	g, _, err := o.Game(ctx, actor, gameID)
	if err != nil {
		return JozaOf{}, false, err
	}
	return o.JozaOfGame(ctx, g)
}

// JozaOfGame is GameJoza for a game the page has already read through
// Game (the game page): four statements, whatever the event's size.
func (o *Office) JozaOfGame(ctx context.Context, g Game) (JozaOf, bool, error) {
	if g.SentePlayerID == nil || g.GotePlayerID == nil {
		return JozaOf{}, false, nil
	}
	j, err := decideJoza(ctx, o.store, g.EventID, g.ID, *g.SentePlayerID, *g.GotePlayerID, gameDay(g, o.now()))
	return j, err == nil, err
}

// gameDay is the day a game is played: its scheduled day, else now's.
func gameDay(g store.Game, now time.Time) time.Time {
	if g.ScheduledOn != nil {
		if d, err := time.Parse(time.DateOnly, *g.ScheduledOn); err == nil {
			return d
		}
	}
	return now
}

// SeatOverrideInput is the organiser's decision of one game's 上座.
type SeatOverrideInput struct {
	GameID int64
	JozaID int64  // one of the game's two players
	Reason string // required: why the order is set aside
}

// OverrideJoza records the organiser's choice of a game's 上座, with its
// reason, as a new row (append-only; a later override supersedes). The
// directors of the game's event may, before the game starts and before a
// physical toss has decided sente. A bracket game whose sente a simulated
// 振り駒 decided is tossed again from its own seed by the new 上座, so the
// slip and the page name the player who tosses.
func (o *Office) OverrideJoza(ctx context.Context, actor Actor, in SeatOverrideInput) error {
	return o.store.Tx(ctx, func(tx *store.Store) error {
		g, err := tx.LockGame(ctx, in.GameID)
		if err != nil {
			return err
		}
		if err := requireEventRole(ctx, tx, actor, g.EventID, RoleDirector); err != nil {
			if verr := mayViewGame(ctx, tx, actor, g); verr != nil {
				return verr
			}
			return err
		}
		v := &ValidationError{}
		a, b := deref(g.SentePlayerID), deref(g.GotePlayerID)
		if in.JozaID == 0 || (in.JozaID != a && in.JozaID != b) {
			v.Add(0, "joza", "seating.err.joza", nil)
		}
		if strings.TrimSpace(in.Reason) == "" {
			v.Add(0, "reason", "seating.err.reason", nil)
		} else if !StorableText(in.Reason) {
			v.Add(0, "reason", storableMessage, nil)
		} else if len(in.Reason) > 1000 {
			v.Add(0, "reason", "seating.err.reason_long", nil)
		}
		if err := v.OrNil(); err != nil {
			return err
		}
		if g.StartedAt != nil {
			v.Add(0, "joza", "seating.err.started", nil)
			return v
		}
		kg, err := tx.KnockoutGameByGameID(ctx, g.ID)
		isBracket := err == nil
		if err != nil && !isErrNotFound(err) {
			return err
		}
		if isBracket && kg.SenteBy == pairing.SenteByObserved {
			v.Add(0, "joza", "seating.err.tossed", nil)
			return v
		}
		now := o.now()
		if err := tx.AddSeatOverride(ctx, &store.SeatOverride{GameID: g.ID, JozaID: in.JozaID, Reason: strings.TrimSpace(in.Reason), ActorID: actor.UserID, At: now}); err != nil {
			return err
		}
		if !isBracket || kg.SenteBy != pairing.SenteByFurigoma {
			return nil
		}
		sim, ok := decodeFurigoma(kg.Furigoma)
		if !ok || sim.Tosser == strconv.FormatInt(in.JozaID, 10) {
			return nil
		}
		st, err := tx.StageByID(ctx, kg.StageID)
		if err != nil {
			return err
		}
		rng, err := tossRand(st.DrawSeed, kg.BracketGame)
		if err != nil {
			return err
		}
		f, err := pairing.Simulate(rng, sim.Other, sim.Tosser, pairing.DefaultTossOdds())
		if err != nil {
			return err
		}
		sente, gote := a, b
		if f.Sente != strconv.FormatInt(a, 10) {
			sente, gote = b, a
		}
		if err := tx.SetGamePlayers(ctx, g.ID, &sente, &gote, now); err != nil {
			return err
		}
		if err := tx.SetKnockoutFurigoma(ctx, kg.ID, mustJSON(f)); err != nil {
			return err
		}
		return tx.AppendDrawLog(ctx, &store.DrawLogEntry{StageID: st.ID, Action: "seat_override", ActorID: actor.UserID, At: now,
			Detail: mustJSON(map[string]any{"game": kg.BracketGame, "joza": in.JozaID, "reason": strings.TrimSpace(in.Reason), "sente": f.Sente})})
	})
}

// isErrNotFound reports a missing row.
func isErrNotFound(err error) bool { return errors.Is(err, ErrNotFound) }
