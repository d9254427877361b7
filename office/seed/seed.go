// Package seed builds events of a chosen size through office's own use
// cases (the code paths the web uses), for the query-count tests and the
// load benchmark of issue 12: a knockout stage drawn, published and played
// for some rounds; a 順位戦 class scheduled, published and partly decided; a
// player with a long record; a registry of rated players.
package seed

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"kisen/office"
	"kisen/pairing"
	"kisen/store"
)

// Fixture is an administrator and an organiser to build events under.
type Fixture struct {
	O     *office.Office
	S     *store.Store
	Admin office.Actor
	Org   store.Organiser
	now   time.Time
	next  int // player numbers handed out so far
}

// New creates the administrator account and the organiser.
func New(ctx context.Context, o *office.Office, s *store.Store, now time.Time) (*Fixture, error) {
	u := store.User{Login: "seed-admin", DisplayName: "管理者", IsAdmin: true, PasswordHash: "-", CreatedAt: now, UpdatedAt: now}
	if err := s.DB(ctx).Create(&u).Error; err != nil {
		return nil, fmt.Errorf("seed admin: %w", err)
	}
	org := store.Organiser{Name: "日本将棋連盟", Kind: office.OrganiserFederation, Settings: "{}", CreatedAt: now, UpdatedAt: now}
	if err := s.CreateOrganiser(ctx, &org); err != nil {
		return nil, fmt.Errorf("seed organiser: %w", err)
	}
	return &Fixture{O: o, S: s, Admin: office.Actor{UserID: u.ID, Login: u.Login, DisplayName: u.DisplayName, Admin: true}, Org: org, now: now}, nil
}

var families = []string{"青木", "石田", "上野", "江口", "大山", "加藤", "木村", "久保", "小林", "佐藤", "清水", "鈴木", "高橋", "田中", "中村", "西田"}

// Players registers n professional players of the given class ("" for
// none), numbered from where the fixture left off.
func (f *Fixture) Players(ctx context.Context, n int, class store.PlayerClass) ([]store.Player, error) {
	out := make([]store.Player, 0, n)
	for range n {
		f.next++
		i := f.next
		p, err := f.O.CreatePlayer(ctx, f.Admin, office.PlayerInput{
			Number: fmt.Sprintf("S%05d", i), Name: fmt.Sprintf("%s 棋士%d", families[i%len(families)], i),
			Reading: "きし " + kana(i), Kind: "professional", Rank: "四段", Class: string(class)})
		if err != nil {
			return nil, fmt.Errorf("seed player %d: %w", i, err)
		}
		out = append(out, p)
	}
	return out, nil
}

// kana spells n in hiragana digits (readings must be kana).
func kana(n int) string {
	digits := []rune("わいにさしごろなはく")
	var b strings.Builder
	for _, d := range strconv.Itoa(n) {
		b.WriteRune(digits[d-'0'])
	}
	return b.String()
}

// event creates a published event of kind.
func (f *Fixture) event(ctx context.Context, name, kind string) (store.Event, error) {
	e, err := f.O.CreateEvent(ctx, f.Admin, office.EventInput{OrganiserID: f.Org.ID, Name: name, Kind: kind, StartDate: "2026-06-01", EndDate: "2027-03-31"})
	if err != nil {
		return e, fmt.Errorf("seed event %s: %w", name, err)
	}
	if err := f.O.SetEventStatus(ctx, f.Admin, e.ID, office.StatusPublished); err != nil {
		return e, fmt.Errorf("publish event %s: %w", name, err)
	}
	return e, nil
}

// Knockout is a published event with one knockout stage of n entrants,
// drawn with a fixed seed and published, and the first rounds rounds
// decided through the quick result form's use case (sente wins).
func (f *Fixture) Knockout(ctx context.Context, n, rounds int) (store.Event, store.KnockoutStage, error) {
	e, st, err := f.DrawnKnockout(ctx, n)
	if err != nil {
		return e, st, err
	}
	if err := f.O.PublishStage(ctx, f.Admin, st.ID); err != nil {
		return e, st, fmt.Errorf("seed publish: %w", err)
	}
	for r := 1; r <= rounds; r++ {
		if err := f.DecideRound(ctx, e.ID, st.ID, r); err != nil {
			return e, st, err
		}
	}
	st, err = f.S.StageByID(ctx, st.ID)
	return e, st, err
}

// DrawnKnockout is a published event with one knockout stage of n
// entrants, drawn with a fixed seed and not yet published (no game exists).
func (f *Fixture) DrawnKnockout(ctx context.Context, n int) (store.Event, store.KnockoutStage, error) {
	e, err := f.event(ctx, fmt.Sprintf("新人王戦 %d", n), office.EventKnockout)
	if err != nil {
		return e, store.KnockoutStage{}, err
	}
	st, err := f.O.CreateStage(ctx, f.Admin, office.StageInput{EventID: e.ID, Name: "本戦", Kind: string(pairing.MainEvent)})
	if err != nil {
		return e, st, fmt.Errorf("seed stage: %w", err)
	}
	ps, err := f.Players(ctx, n, "")
	if err != nil {
		return e, st, err
	}
	for _, p := range ps {
		if _, err := f.O.AddEntrant(ctx, f.Admin, office.EntrantInput{StageID: st.ID, PlayerID: p.ID}); err != nil {
			return e, st, fmt.Errorf("seed entrant: %w", err)
		}
	}
	if _, err := f.O.DrawStage(ctx, f.Admin, office.DrawInput{StageID: st.ID, Seed: "20261125", DrawDate: "2026-06-01"}); err != nil {
		return e, st, fmt.Errorf("seed draw: %w", err)
	}
	st, err = f.S.StageByID(ctx, st.ID)
	return e, st, err
}

// DecideRound enters sente's win in every undecided game of round r of the
// stage that has both players, as the stage page's quick result form does.
func (f *Fixture) DecideRound(ctx context.Context, eventID, stageID int64, r int) error {
	eb, err := f.O.EventBrackets(ctx, f.Admin, eventID)
	if err != nil {
		return err
	}
	for _, sb := range eb.Stages {
		if sb.Stage.ID != stageID || len(sb.Rounds) < r {
			continue
		}
		for _, g := range sb.Rounds[r-1] {
			if g.Result != "" || g.DecidingGameID == 0 || g.SenteID == 0 {
				continue
			}
			if err := f.O.QuickResult(ctx, f.Admin, office.QuickResultInput{StageID: stageID, BracketGame: g.ID,
				WinnerID: g.SenteID, Reason: office.ReasonResignation, GameID: g.DecidingGameID}); err != nil {
				return fmt.Errorf("seed result %s: %w", g.ID, err)
			}
		}
	}
	return nil
}

// League is a published 順位戦 term with one C2 class of n players,
// scheduled with a fixed witnesses' number and published, and the first
// decided scheduled games decided (sente wins) through the league page's
// quick result use case.
func (f *Fixture) League(ctx context.Context, n, decided int) (store.Event, store.LeagueClass, error) {
	e, err := f.event(ctx, fmt.Sprintf("第85期順位戦 %d", n), office.EventJunisenTerm)
	if err != nil {
		return e, store.LeagueClass{}, err
	}
	ps, err := f.Players(ctx, n, store.PlayerClassC2)
	if err != nil {
		return e, store.LeagueClass{}, err
	}
	var lines strings.Builder
	for _, p := range ps {
		lines.WriteString(*p.Number + "\n")
	}
	c, err := f.O.AddLeagueClass(ctx, f.Admin, office.LeagueClassInput{EventID: e.ID, Class: string(store.PlayerClassC2), Members: lines.String(), AllowanceMinutes: 360})
	if err != nil {
		return e, c, fmt.Errorf("seed class: %w", err)
	}
	if _, err := f.O.GenerateSchedule(ctx, f.Admin, office.ScheduleInput{ClassID: c.ID, Seed: "20261125", DrawDate: "2026-06-01"}); err != nil {
		return e, c, fmt.Errorf("seed schedule: %w", err)
	}
	if err := f.O.PublishSchedule(ctx, f.Admin, c.ID); err != nil {
		return e, c, fmt.Errorf("seed publish schedule: %w", err)
	}
	st, err := f.O.Standings(ctx, f.Admin, c.ID)
	if err != nil {
		return e, c, err
	}
	for i, g := range st.Games {
		if i >= decided {
			break
		}
		if err := f.O.EnterLeagueResult(ctx, f.Admin, office.LeagueResultInput{GameID: g.Current, Version: g.Version, Result: office.ResultSenteWin}); err != nil {
			return e, c, fmt.Errorf("seed league result %d: %w", g.GameID, err)
		}
	}
	c, err = f.S.LeagueClassByID(ctx, c.ID)
	return e, c, err
}

// Record gives one player n decided games against a rotating set of
// opponents in one published league event (created through CreateGame and
// RecordResult, as the game pages do), alternating sente and gote, wins and
// losses. It returns the player.
func (f *Fixture) Record(ctx context.Context, n int) (store.Player, error) {
	e, err := f.event(ctx, fmt.Sprintf("記録 %d", n), office.EventLeague)
	if err != nil {
		return store.Player{}, err
	}
	ps, err := f.Players(ctx, 11, "")
	if err != nil {
		return store.Player{}, err
	}
	me, opps := ps[0], ps[1:]
	day := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		op := opps[i%len(opps)]
		s, g := me.ID, op.ID
		if i%2 == 1 {
			s, g = g, s
		}
		date := day.AddDate(0, 0, i).Format("2006-01-02")
		game, err := f.O.CreateGame(ctx, f.Admin, office.GameInput{EventID: e.ID, Label: fmt.Sprintf("第%d局", i+1), SenteID: &s, GoteID: &g, AllowanceMinutes: 60, ScheduledOn: date})
		if err != nil {
			return me, fmt.Errorf("seed game %d: %w", i, err)
		}
		res := office.ResultSenteWin
		if i%3 == 2 {
			res = office.ResultGoteWin
		}
		if _, err := f.O.RecordResult(ctx, f.Admin, game.ID, office.ResultInput{Result: res, Reason: office.ReasonResignation}); err != nil {
			return me, fmt.Errorf("seed result %d: %w", i, err)
		}
	}
	return me, nil
}

// Records saves a short record on every game of the event that has both
// players, through the game page's use case (SaveRecord), so the record
// downloads have a record per game to write.
func (f *Fixture) Records(ctx context.Context, eventID int64) error {
	gs, err := f.S.GameSetOfEvent(ctx, eventID)
	if err != nil {
		return err
	}
	for id, g := range gs.Games {
		if g.SentePlayerID == nil || g.GotePlayerID == nil {
			continue
		}
		if _, _, err := f.O.SaveRecord(ctx, f.Admin, id, office.RecordInput{Text: "position startpos moves 7g7f 3c3d 2g2f 8c8d\n", Format: "usi"}); err != nil {
			return fmt.Errorf("seed record of game %d: %w", id, err)
		}
	}
	return nil
}
