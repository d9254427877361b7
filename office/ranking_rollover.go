package office

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"kisen/pairing"
	"kisen/store"
)

// RankingTerm is the next term of a ranking event as the roll-over would
// make it (D-G5): each group's stage (its name and table line carried
// over) with its members, every player's move, and a fingerprint of it all
// that the confirmation posts back, so nothing is made that was not shown.
type RankingTerm struct {
	Groups      []RankingTermGroup
	Moves       []pairing.TermMove // Player is an entrant id; From 0 a new entrant
	Fingerprint string
}

// RankingTermGroup is one next-term group: the stage it comes from and its
// members' player ids (relegated from above, those who stay, promoted from
// below, new entrants).
type RankingTermGroup struct {
	Group   int
	From    store.KnockoutStage
	Members []int64
}

// RankingTermEvent is the event whose next term an administrator may
// preview and make. Anyone else is told it does not exist, like a missing
// event (the roll-over is no business of theirs, published or not).
func (o *Office) RankingTermEvent(ctx context.Context, actor Actor, eventID int64) (store.Event, error) {
	if actor.Anonymous() || !actor.Admin {
		return store.Event{}, fmt.Errorf("ranking event %d: %w", eventID, ErrNotFound)
	}
	return o.store.EventByID(ctx, eventID)
}

// PreviewRankingTerm is the next term of ranking event eventID with the
// organiser's new entrants joining the lowest group (administrators, who
// make events; anyone else: not found). Nothing is written. Refusals are
// said in words: a group still playing (on event), an unknown player or one
// already in a group (on new_entrants).
func (o *Office) PreviewRankingTerm(ctx context.Context, actor Actor, eventID int64, newEntrants []int64) (RankingTerm, error) {
	if _, err := o.RankingTermEvent(ctx, actor, eventID); err != nil {
		return RankingTerm{}, err
	}
	var term RankingTerm
	err := o.store.Tx(ctx, func(tx *store.Store) error {
		var err error
		term, err = rankingTerm(ctx, o, tx, eventID, newEntrants)
		return err
	})
	return term, err
}

// RankingTermInput confirms a roll-over: the new event (a knockout of the
// same organiser), the new entrants and the fingerprint of the preview the
// person saw.
type RankingTermInput struct {
	Event       EventInput
	NewEntrants []int64
	Fingerprint string
}

// RollOverRanking makes the next term previewed by PreviewRankingTerm: a
// new knockout event with one group stage per group (name, kind, allowance
// and table line carried over) holding its members, in one transaction. If
// the term differs from the preview the person saw (a result corrected
// since), nothing is made and the answer is a conflict.
func (o *Office) RollOverRanking(ctx context.Context, actor Actor, eventID int64, in RankingTermInput) (store.Event, error) {
	if _, err := o.RankingTermEvent(ctx, actor, eventID); err != nil {
		return store.Event{}, err
	}
	in.Event.Kind = EventKnockout
	return o.CreateEventThen(ctx, actor, in.Event, func(tx *store.Store, e store.Event) error {
		term, err := rankingTerm(ctx, o, tx, eventID, in.NewEntrants)
		if err != nil {
			return err
		}
		if term.Fingerprint != in.Fingerprint {
			return fmt.Errorf("ranking event %d: the next term changed since its preview: %w", eventID, ErrConflict)
		}
		now := o.now().UTC()
		for i, g := range term.Groups {
			st := store.KnockoutStage{EventID: e.ID, Position: i + 1, Name: g.From.Name, NameEn: g.From.NameEn, Kind: g.From.Kind,
				AllowanceMinutes: g.From.AllowanceMinutes, HandicapPolicy: g.From.HandicapPolicy, EvenGap: g.From.EvenGap,
				RankingRule: g.From.RankingRule, RoundDates: "[]", Status: StageSetup, Slots: "[]", CreatedAt: now, UpdatedAt: now}
			if err := tx.CreateStage(ctx, &st); err != nil {
				return err
			}
			for _, p := range g.Members {
				if err := tx.AddEntrant(ctx, &store.KnockoutEntrant{StageID: st.ID, PlayerID: p, EnterRound: 1, CreatedAt: now}); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// rankingTerm computes the next term through tx (the preview and, again,
// the confirmation).
func rankingTerm(ctx context.Context, o *Office, tx *store.Store, eventID int64, newEntrants []int64) (RankingTerm, error) {
	e, err := tx.EventByID(ctx, eventID)
	if err != nil {
		return RankingTerm{}, err
	}
	v := &ValidationError{}
	eb, ok, err := publishedBrackets(ctx, tx, e)
	if err != nil {
		return RankingTerm{}, err
	}
	var outcomes []pairing.GroupOutcome
	var stages []store.KnockoutStage
	if ok {
		for _, sb := range eb.Stages {
			if sb.Ranking != nil {
				outcomes = append(outcomes, sb.Ranking.Outcome)
				stages = append(stages, sb.Stage)
			}
		}
	}
	if len(outcomes) == 0 {
		v.Add(0, "event", "knockout.err.ranking_no_groups", nil)
		return RankingTerm{}, v
	}
	// The groups in table order (1組 first), whatever the stage order.
	idx := make([]int, len(outcomes))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return outcomes[a].Group - outcomes[b].Group })
	sortedOutcomes := make([]pairing.GroupOutcome, len(idx))
	sortedStages := make([]store.KnockoutStage, len(idx))
	for i, j := range idx {
		sortedOutcomes[i], sortedStages[i] = outcomes[j], stages[j]
	}
	// One statement for every new entrant, however many (the page's cost
	// is fixed).
	known, err := tx.PlayersByIDs(ctx, newEntrants)
	if err != nil {
		return RankingTerm{}, err
	}
	var newIDs []string
	for _, p := range newEntrants {
		if _, ok := known[p]; !ok {
			v.Add(0, "new_entrants", "knockout.err.player", nil)
			return RankingTerm{}, v
		}
		newIDs = append(newIDs, entrantID(p))
	}
	groups, moves, err := pairing.NextTerm(sortedOutcomes, newIDs)
	var fe *pairing.FieldError
	if errors.As(err, &fe) {
		code, args := RankingInputWords(fe, o.nameList(ctx, tx, idsIn(fe.Params)))
		field := "event"
		if fe.Code == pairing.FieldRankingMember {
			field = "new_entrants" // a new entrant already in the term
		}
		v.Add(0, field, code, args)
		return RankingTerm{}, v
	} else if err != nil {
		return RankingTerm{}, err
	}
	term := RankingTerm{Moves: moves}
	h := sha256.New()
	for i, members := range groups {
		g := RankingTermGroup{Group: i + 1, From: sortedStages[i]}
		fmt.Fprintf(h, "group %d stage %d:", g.Group, g.From.ID)
		for _, id := range members {
			p, ok := playerOfEntrant(id)
			if !ok {
				continue
			}
			g.Members = append(g.Members, p)
			fmt.Fprintf(h, " %s", strconv.FormatInt(p, 10))
		}
		fmt.Fprintln(h)
		term.Groups = append(term.Groups, g)
	}
	term.Fingerprint = hex.EncodeToString(h.Sum(nil))
	return term, nil
}
