package day

import (
	"context"
	"fmt"
	"sort"
	"time"

	"kisen/office"
	"kisen/pairing"
	"kisen/store"
)

// The director's view of the day (issue 14 part 7): per class, the round
// in play, the boards still playing and for how long, who waits for the
// next round, and the boards whose players' reports need the desk — read
// in a fixed number of statements whatever the day's size.

// PlayingBoard is a board still playing.
type PlayingBoard struct {
	Board     int
	Round     int
	GameID    int64 // the chain's current game
	SenteName string
	GoteName  string
	Since     time.Time // the game's start, or the round's draw
	Minutes   int
	// SeatsPending: the seats wait for the 振り駒 at the board
	// (Board.SeatsPending), so the pair is named without 先手/後手.
	SeatsPending bool
}

// DeskReport is a board whose players' reports the desk must settle.
type DeskReport struct {
	Board     int
	Round     int
	SenteName string
	GoteName  string
	SenteSaid string // the name sente reported as the winner, "" for none
	GoteSaid  string
	Disagree  bool // both reported, different winners
	Minutes   int  // since the first report, when only one side reported
	// One side alone: the report the desk may confirm, with the board's
	// current game and result version the confirmation is checked against.
	ReportID     int64
	ReporterName string
	WinnerName   string
	GameID       int64
	Version      int
}

// DirectorClass is one class on the director's view.
type DirectorClass struct {
	Class
	Paper    PaperSettings
	Round    int // the last drawn round (0: none yet)
	Rounds   int // Swiss: the class's number of rounds
	DrawnAt  time.Time
	Boards   int // boards of the last round
	Playing  []PlayingBoard
	Waiting  []string // names: finished this round or bye, still in the preliminary
	Byes     []string
	Desk     []DeskReport
	Complete bool // every board of the last round decided
	CanStart bool // the next round can be drawn now
	Finished bool // no further preliminary round
}

// DirectorView is the director's view of a day.
type DirectorView struct {
	Event   store.Event
	Classes []DirectorClass
	Now     time.Time
	CanDesk bool // may start rounds and change paper settings
}

// DirectorView reads the day for its director's view (directors, arbiters
// and recorders of the event).
func (d *Day) DirectorView(ctx context.Context, actor office.Actor, eventID int64) (DirectorView, error) {
	e, err := requireDay(ctx, d.store, actor, eventID, resultRoles)
	if err != nil {
		return DirectorView{}, err
	}
	v := DirectorView{Event: e, Now: d.now()}
	v.CanDesk = office.RequireEventRoleIn(ctx, d.store, actor, eventID, deskRoles...) == nil
	cs, err := d.store.DayClassesOfEvent(ctx, eventID)
	if err != nil {
		return v, err
	}
	es, err := d.store.DayEntrantsOfEvent(ctx, eventID)
	if err != nil {
		return v, err
	}
	rounds, err := d.store.DayRoundsOfEvent(ctx, eventID)
	if err != nil {
		return v, err
	}
	ps, err := d.store.DayPairingsOfEvent(ctx, eventID)
	if err != nil {
		return v, err
	}
	var gs store.GameSet
	observed := map[int64]pairing.Furigoma{}
	if len(ps) > 0 {
		if gs, err = d.store.GameSetOfEvent(ctx, eventID); err != nil {
			return v, err
		}
		if observed, err = observedOfEvent(ctx, d.store, eventID); err != nil {
			return v, err
		}
	}
	reps, err := d.store.DayReportsOfEvent(ctx, eventID)
	if err != nil {
		return v, err
	}
	ids := make([]int64, len(cs))
	for i, c := range cs {
		ids[i] = c.ID
	}
	papers, err := d.store.DayPaperOfClasses(ctx, ids)
	if err != nil {
		return v, err
	}
	names := map[int64]string{}
	entrants := map[int64]store.DayEntrantRow{}
	for _, en := range es {
		names[en.PlayerID] = en.Name
		entrants[en.PlayerID] = en
	}
	byClass := map[int64][]RoundState{}
	roundIdx := map[int64][2]int64{} // round id → class id, index
	for _, r := range rounds {
		roundIdx[r.ID] = [2]int64{r.ClassID, int64(len(byClass[r.ClassID]))}
		byClass[r.ClassID] = append(byClass[r.ClassID], RoundState{DayRound: r})
	}
	for _, p := range ps {
		at, ok := roundIdx[p.RoundID]
		if !ok {
			return v, fmt.Errorf("board %d of an unknown round", p.ID)
		}
		r := &byClass[at[0]][at[1]]
		if p.GameID == nil {
			if p.ByePlayerID != nil {
				r.Byes = append(r.Byes, *p.ByePlayerID)
			}
			continue
		}
		b, err := boardOf(gs, p)
		if err != nil {
			return v, err
		}
		observe(&b, observed)
		r.Boards = append(r.Boards, b)
	}
	repsOf := map[int64][]store.DayReport{}
	for _, r := range reps {
		repsOf[r.GameID] = append(repsOf[r.GameID], r)
	}
	for _, c := range cs {
		p, ok := papers[c.ID]
		dc := DirectorClass{Class: classOf(c), Paper: paperOf(p, ok)}
		dc.Rounds = dc.Settings.Rounds
		rs := byClass[c.ID]
		cv := ClassView{Class: dc.Class, Rounds: rs}
		dc.CanStart = v.CanDesk && cv.CanDraw()
		if len(rs) > 0 {
			last := rs[len(rs)-1]
			dc.Round, dc.DrawnAt, dc.Boards, dc.Complete = last.Number, last.DrawnAt, len(last.Boards), last.Complete()
			v.fillRound(&dc, last, names, repsOf)
			dc.Waiting = waiting(dc.Class, rs, names, entrants)
		}
		dc.Finished = dc.Format == FormatKnockout || (dc.Format == FormatSwiss && dc.Round >= dc.Rounds) ||
			(dc.Format == FormatPools && dc.Round > 0 && dc.Complete && len(dc.Waiting) == 0)
		if dc.Finished {
			dc.CanStart = false
		}
		v.Classes = append(v.Classes, dc)
	}
	return v, nil
}

// fillRound lists the last round's playing boards, byes and the boards
// whose reports need the desk.
func (v DirectorView) fillRound(dc *DirectorClass, r RoundState, names map[int64]string, repsOf map[int64][]store.DayReport) {
	wait := time.Duration(dc.Paper.WaitMinutes) * time.Minute
	for _, id := range r.Byes {
		dc.Byes = append(dc.Byes, names[id])
	}
	for _, b := range r.Boards {
		if b.Decided {
			continue
		}
		since := r.DrawnAt
		if b.Last.StartedAt != nil {
			since = *b.Last.StartedAt
		}
		dc.Playing = append(dc.Playing, PlayingBoard{Board: b.Board, Round: r.Number, GameID: b.Last.ID, SenteName: names[b.Sente], GoteName: names[b.Gote],
			Since: since, Minutes: minutesBetween(since, v.Now), SeatsPending: b.SeatsPending()})
		counted := countedReports(repsOf[b.Root.ID], b.Root.ID, b.Last)
		if len(counted) == 0 {
			continue
		}
		s, g := said(counted, b.Sente), said(counted, b.Gote)
		dr := DeskReport{Board: b.Board, Round: r.Number, SenteName: names[b.Sente], GoteName: names[b.Gote], SenteSaid: names[s], GoteSaid: names[g],
			GameID: b.Last.ID, Version: b.Version}
		switch {
		case s != 0 && g != 0 && s != g:
			dr.Disagree = true
		case (s == 0) != (g == 0) && v.Now.Sub(counted[0].At) >= wait:
			dr.Minutes = minutesBetween(counted[0].At, v.Now)
			lone := counted[len(counted)-1]
			dr.ReportID, dr.ReporterName, dr.WinnerName = lone.ID, names[lone.ReporterID], names[lone.WinnerID]
		default:
			continue // agreed and waiting for confirmation, or within the wait
		}
		dc.Desk = append(dc.Desk, dr)
	}
}

// waiting lists who has finished the last round (or had its bye) and is
// still in the preliminary: pools players short of N wins and M losses,
// every drawable Swiss player. Sorted by the reading.
func waiting(c Class, rs []RoundState, names map[int64]string, entrants map[int64]store.DayEntrantRow) []string {
	wins, losses := map[int64]int{}, map[int64]int{}
	for _, r := range rs {
		for _, b := range r.Boards {
			if b.Decided && b.Winner != 0 {
				wins[b.Winner]++
				if b.Winner == b.Sente {
					losses[b.Gote]++
				} else {
					losses[b.Sente]++
				}
			}
		}
		for _, id := range r.Byes {
			wins[id]++ // 不戦勝
		}
	}
	last := rs[len(rs)-1]
	var done []int64
	for _, b := range last.Boards {
		if b.Decided {
			done = append(done, b.Sente, b.Gote)
		}
	}
	done = append(done, last.Byes...)
	var out []int64
	for _, id := range done {
		e, ok := entrants[id]
		if !ok || e.Withdrawn() {
			continue
		}
		if c.Format == FormatPools && (wins[id] >= c.Settings.Wins || losses[id] >= c.Settings.Losses) {
			continue
		}
		out = append(out, id)
	}
	sort.Slice(out, func(i, j int) bool { return entrants[out[i]].Reading < entrants[out[j]].Reading })
	ns := make([]string, len(out))
	for i, id := range out {
		ns[i] = names[id]
	}
	return ns
}

func minutesBetween(from, to time.Time) int {
	m := int(to.Sub(from) / time.Minute)
	if m < 0 {
		return 0
	}
	return m
}
