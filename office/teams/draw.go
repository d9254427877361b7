package teams

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"kisen/office"
	"kisen/pairing"
	"kisen/store"
)

// Drawing a team Swiss round (issue 25, docs/team-matches.md "Drawing a
// round"): the director previews the round pairing.DrawTeamSwiss makes over
// the rounds before it — no rematch, teams of one affiliation kept apart
// where the field allows, at most one bye per team going to the lowest
// score group — in team names with table numbers and the bye, then
// confirms it. The confirmation draws again inside one transaction from
// the same seed and writes the matches and the bye only when the round is
// still at the version seen and the draw is the one previewed; otherwise
// it is stale (ErrConflict, 409) and the page previews afresh.

// DrawnMatch is one match of a drawn round.
type DrawnMatch struct {
	Table           int
	A, B            store.Team
	APoints         int // match points before the round, as the engine counts them (Scoring.Shown)
	BPoints         int
	SameAffiliation bool // the field left no way to keep them apart
}

// DrawPreview is a drawn round before (or as) it is written.
type DrawPreview struct {
	Event       store.Event
	Round       store.TeamRound
	Settings    Settings
	Scoring     Scoring
	Matches     []DrawnMatch
	Bye         *store.Team
	ByePoints   int    // the bye team's match points before the round (Scoring.Shown)
	Fingerprint string // the round as drawn, compared at confirmation
}

// DrawInput confirms a previewed round: the round's version and the
// preview's fingerprint.
type DrawInput struct {
	RoundID     int64
	Version     int
	Fingerprint string
}

// drawSeed is the lot's seed of a round: the same for every preview of it,
// so a preview shows what the confirmation writes.
func drawSeed(eventID int64, round int) uint64 {
	return uint64(eventID)<<16 ^ uint64(round)
}

// PreviewDraw draws a round without writing it (directors; a round the
// actor may not draw is not found or forbidden like any director page).
// A round already drawn, a round before it not finished or not drawn, or
// a field the engine cannot pair is refused in words.
func (t *Teams) PreviewDraw(ctx context.Context, actor office.Actor, roundID int64) (DrawPreview, error) {
	r, err := t.roundOf(ctx, roundID)
	if err != nil {
		return DrawPreview{}, err
	}
	if err := office.RequireEventRoleIn(ctx, t.store, actor, r.EventID, EditRoles...); err != nil {
		return DrawPreview{}, err
	}
	e, err := t.o.Event(ctx, actor, r.EventID)
	if err != nil {
		return DrawPreview{}, err
	}
	p, err := drawIn(ctx, t.store, r)
	p.Event = e
	return p, err
}

// ConfirmDraw writes the previewed round in one transaction: its matches
// (tables as drawn, team A the upper team) and its bye.
func (t *Teams) ConfirmDraw(ctx context.Context, actor office.Actor, in DrawInput) (DrawPreview, error) {
	r0, err := t.roundOf(ctx, in.RoundID)
	if err != nil {
		return DrawPreview{}, err
	}
	now := t.now().UTC()
	var out DrawPreview
	err = t.store.Tx(ctx, func(tx *store.Store) error {
		if _, err := requireTeamEvent(ctx, tx, actor, r0.EventID, MatchRoles); err != nil {
			return err
		}
		r, err := tx.TeamRoundByID(ctx, in.RoundID)
		if err != nil {
			return err
		}
		if r.Version != in.Version {
			return fmt.Errorf("team round %d changed since version %d: %w", r.ID, in.Version, office.ErrConflict)
		}
		p, err := drawIn(ctx, tx, r)
		if err != nil {
			return err
		}
		if p.Fingerprint != in.Fingerprint {
			return fmt.Errorf("team round %d: the draw changed since the preview: %w", r.ID, office.ErrConflict)
		}
		for _, m := range p.Matches {
			seed, err := newMatchSeed()
			if err != nil {
				return err
			}
			row := store.TeamMatch{EventID: r.EventID, RoundID: r.ID, TableNo: m.Table, TeamAID: m.A.ID, TeamBID: m.B.ID,
				Seed: seed, CreatedAt: now, UpdatedAt: now}
			if err := tx.CreateTeamMatch(ctx, &row); err != nil {
				return err
			}
		}
		if p.Bye != nil {
			if err := tx.CreateTeamRoundBye(ctx, &store.TeamRoundBye{RoundID: r.ID, EventID: r.EventID, TeamID: p.Bye.ID, CreatedAt: now}); err != nil {
				return err
			}
		}
		r.UpdatedAt = now
		if err := tx.BumpTeamRound(ctx, &r); err != nil {
			return err
		}
		p.Round = r
		out = p
		return nil
	})
	return out, err
}

// drawIn draws round r over the event's rounds before it. Statements: the
// settings, the scoring, the teams, the rounds, the matches, their boards,
// the games and the byes — the same for any number of teams.
func drawIn(ctx context.Context, s *store.Store, r store.TeamRound) (DrawPreview, error) {
	out := DrawPreview{Round: r}
	te, err := s.TeamEventByID(ctx, r.EventID)
	if err != nil {
		return out, err
	}
	out.Settings = settingsOf(te)
	if out.Scoring, err = readScoring(ctx, s, r.EventID); err != nil {
		return out, err
	}
	play, err := readEventPlay(ctx, s, r.EventID)
	if err != nil {
		return out, err
	}
	teamRows, rounds, ms, boards, gs := play.teams, play.rounds, play.matches, play.boards, play.games
	byes, err := s.TeamByesOfEvent(ctx, r.EventID)
	if err != nil {
		return out, err
	}
	_, drawn := byes[r.ID]
	for _, m := range ms {
		drawn = drawn || m.RoundID == r.ID
	}
	if drawn {
		return out, invalid("", "teams.err.draw_done", map[string]any{"Round": r.Number})
	}
	byID := map[int64]store.Team{}
	names := map[string]string{}
	req := pairing.TeamSwissRequest{Seed: drawSeed(r.EventID, r.Number)}
	for _, tm := range teamRows {
		id := strconv.FormatInt(tm.ID, 10)
		byID[tm.ID] = tm
		names[id] = tm.Name
		req.Teams = append(req.Teams, pairing.Team{ID: id, Name: tm.Name, Affiliation: strings.TrimSpace(tm.Affiliation)})
	}
	for _, pr := range rounds {
		if pr.Number >= r.Number {
			break
		}
		var tr pairing.TeamRound
		if b, ok := byes[pr.ID]; ok {
			tr.Bye = strconv.FormatInt(b.TeamID, 10)
		}
		for _, m := range ms {
			if m.RoundID != pr.ID {
				continue
			}
			mv, err := matchView(m, boards[m.ID], gs, byID, nil, te.Boards)
			if err != nil {
				return out, err
			}
			if !mv.Result.Final {
				return out, invalid("", "teams.err.draw_pending", map[string]any{"Round": pr.Number, "Table": m.TableNo})
			}
			outcomes := make([]pairing.BoardOutcome, te.Boards)
			for _, b := range mv.Boards {
				outcomes[b.Board-1] = b.Outcome
			}
			tr.Matches = append(tr.Matches, pairing.TeamMatch{Table: m.TableNo, A: strconv.FormatInt(m.TeamAID, 10),
				B: strconv.FormatInt(m.TeamBID, 10), Boards: outcomes})
		}
		if len(tr.Matches) == 0 && tr.Bye == "" {
			return out, invalid("", "teams.err.draw_previous", map[string]any{"Round": pr.Number})
		}
		req.Rounds = append(req.Rounds, tr)
	}
	req.Settings = pairing.TeamSwissSettings{TeamSettings: out.Scoring.engine(te.Boards), Rounds: len(req.Rounds) + 1,
		Affiliation: pairing.RelationAvoid}
	// The match points so far (the standings' own count, byes included).
	st, err := pairing.TeamStandings(pairing.TeamStandingsRequest{Teams: req.Teams, Settings: req.Settings.TeamSettings, Rounds: req.Rounds, Seed: req.Seed})
	if err != nil {
		code, args := office.TeamInputWords(err, names)
		return out, invalid("", code, args)
	}
	points := map[int64]int{}
	for _, l := range st {
		id, _ := strconv.ParseInt(l.ID, 10, 64)
		points[id] = l.MatchPoints
	}
	drawn0, err := pairing.DrawTeamSwiss(req)
	if err != nil {
		code, args := office.TeamInputWords(err, names)
		return out, invalid("", code, args)
	}
	same := map[int]bool{}
	for _, sa := range drawn0.Report.SameAffiliation {
		same[sa.Table] = true
	}
	var fp strings.Builder
	fmt.Fprintf(&fp, "round %d v%d;", r.ID, r.Version)
	for _, m := range drawn0.Matches {
		a, _ := strconv.ParseInt(m.A, 10, 64)
		b, _ := strconv.ParseInt(m.B, 10, 64)
		out.Matches = append(out.Matches, DrawnMatch{Table: m.Table, A: byID[a], B: byID[b], APoints: points[a], BPoints: points[b],
			SameAffiliation: same[m.Table]})
		fmt.Fprintf(&fp, "%d:%d-%d(%d,%d);", m.Table, a, b, points[a], points[b])
	}
	if drawn0.Bye != "" {
		id, _ := strconv.ParseInt(drawn0.Bye, 10, 64)
		tm := byID[id]
		out.Bye, out.ByePoints = &tm, points[id]
		fmt.Fprintf(&fp, "bye:%d(%d)", id, points[id])
	}
	sum := sha256.Sum256([]byte(fp.String()))
	out.Fingerprint = hex.EncodeToString(sum[:12])
	return out, nil
}

// RoundBye is the team with a round's bye, if any (anyone who may see the
// round's matches; the caller has read them through RoundMatches).
func (t *Teams) RoundBye(ctx context.Context, eventID, roundID int64) (store.Team, bool, error) {
	byes, err := t.store.TeamByesOfEvent(ctx, eventID)
	if err != nil {
		return store.Team{}, false, err
	}
	b, ok := byes[roundID]
	if !ok {
		return store.Team{}, false, nil
	}
	tm, err := t.store.TeamByID(ctx, b.TeamID)
	return tm, err == nil, err
}
