package day

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"kisen/office"
	"kisen/pairing"
	"kisen/store"
)

// The public day (issue 23 §4, docs/amateur-day-public.md): what a player
// or a spectator reads of a class — a round's pairings by board and by
// name, and the 状況 of every standings line. Everything here is computed
// from a ClassView, which the caller read through ClassView or DayViews
// (the event's visibility rule: a draft is not found for the public).

// The 状況 (Shown) of a standings line.
const (
	ShownFinal     = "final"     // 決勝進出: a Swiss qualifier once the last round is in
	ShownInZone    = "in_zone"   // 進出圏: a Swiss place within the qualifiers while rounds remain
	ShownGame      = "game"      // 対局中: an undecided board in the round being played
	ShownQualified = "qualified" // 予選通過: a pools player with the wins needed
	ShownOut       = "out"       // 敗退
	ShownWithdrawn = "withdrawn" // 棄権
	ShownWaiting   = "waiting"   // 予選中: a pools player still in, no board now
)

// ShownKinds lists every 状況 (the API's enum).
func ShownKinds() []string {
	return []string{"", ShownFinal, ShownInZone, ShownGame, ShownQualified, ShownOut, ShownWithdrawn, ShownWaiting}
}

// playingNow is the players on an undecided board of the class.
func (v ClassView) playingNow() map[int64]bool {
	out := map[int64]bool{}
	for _, r := range v.Rounds {
		for _, b := range r.Boards {
			if !b.Decided {
				out[b.Sente], out[b.Gote] = true, true
			}
		}
	}
	return out
}

// swissOver reports whether a Swiss class's last round is drawn and in.
func (v ClassView) swissOver() bool {
	return v.Class.Format == FormatSwiss && len(v.Rounds) >= v.Class.Settings.Rounds && len(v.Rounds) > 0 && v.Rounds[len(v.Rounds)-1].Complete()
}

// losses counts each player's decided games lost (a forfeit counts).
func (v ClassView) losses() map[int64]int {
	out := map[int64]int{}
	for _, r := range v.Rounds {
		for _, b := range r.Boards {
			if !b.Decided || b.Winner == 0 {
				continue
			}
			if b.Winner == b.Sente {
				out[b.Gote]++
			} else {
				out[b.Sente]++
			}
		}
	}
	return out
}

// fillShown sets the losses of the Swiss lines and every line's 状況.
func (v ClassView) fillShown(st *Standings) {
	playing := v.playingNow()
	for i := range st.Pools {
		l := &st.Pools[i]
		switch {
		case l.Withdrawn:
			l.Shown = ShownWithdrawn
		case l.Status == pairing.StatusQualified:
			l.Shown = ShownQualified
		case l.Status == pairing.StatusOut:
			l.Shown = ShownOut
		case playing[l.PlayerID]:
			l.Shown = ShownGame
		default:
			l.Shown = ShownWaiting
		}
	}
	lost := v.losses()
	over, q, in := v.swissOver(), v.Class.Settings.Qualifiers, 0
	for i := range st.Swiss {
		l := &st.Swiss[i]
		l.Losses = lost[l.PlayerID]
		switch {
		case l.Withdrawn:
			l.Shown = ShownWithdrawn
			continue
		case playing[l.PlayerID]:
			l.Shown = ShownGame
		case q == 0:
		case over && in < q:
			l.Shown = ShownFinal
		case over:
			l.Shown = ShownOut
		case in < q:
			l.Shown = ShownInZone
		}
		in++
	}
}

// Seat is a player as the public pages name them.
type Seat struct {
	PlayerID int64
	Name     string
	Reading  string
	Rank     string // the declared rank (a rank id)
	Club     string
}

// PublicBoard is one board of a round as the public reads it.
type PublicBoard struct {
	Board int
	// Sente and Gote are the board's two players; while TossPending they
	// are only the two players (the 振り駒 at the board decides who is
	// sente).
	Sente, Gote Seat
	Handicap    string // 平手, 香落ち, …
	SenteBy     string // pairing.SenteBy*
	TossPending bool
	Decided     bool
	Winner      int64 // 0 while undecided or nobody won
	Result      string
	Forfeit     bool
	Redo        bool // being replayed (千日手, 持将棋)
}

// Colours of a player's line by name.
const (
	ColourSente   = "sente"
	ColourGote    = "gote"
	ColourPending = "pending" // 振り駒 at the board
)

// Outcomes of a player's line by name.
const (
	OutcomeWin     = "win"
	OutcomeLoss    = "loss"
	OutcomeOther   = "other" // decided without a winner
	OutcomePlaying = "playing"
	OutcomeBye     = "bye"
)

// PublicByName is one player's line of a round by name: their board,
// opponent, colour and result, or a bye.
type PublicByName struct {
	Seat
	Board    int // 0: a bye
	Opponent Seat
	Colour   string // Colour*; "" for a bye
	Outcome  string // Outcome*
	Forfeit  bool
}

// PublicRound is a drawn round of a class for the public: boards in board
// order, every player by reading, and the byes.
type PublicRound struct {
	Number   int
	Boards   []PublicBoard
	ByName   []PublicByName
	Byes     []Seat
	Complete bool
}

// Seat names a player of the class.
func (v ClassView) Seat(id int64) Seat {
	for _, e := range v.Entrants {
		if e.PlayerID == id {
			return Seat{PlayerID: id, Name: e.Name, Reading: e.Reading, Rank: e.DeclaredRank, Club: e.Affiliation}
		}
	}
	return Seat{PlayerID: id, Name: v.Names[id]}
}

// CurrentRound is the number of the round being played or last played (0:
// none drawn).
func (v ClassView) CurrentRound() int { return len(v.Rounds) }

// PublicRound is round n for the public; ok is false when it is not drawn.
func (v ClassView) PublicRound(n int) (PublicRound, bool) {
	r, ok := v.Round(n)
	if !ok {
		return PublicRound{}, false
	}
	seats := make(map[int64]Seat, len(v.Entrants))
	for _, e := range v.Entrants {
		seats[e.PlayerID] = Seat{PlayerID: e.PlayerID, Name: e.Name, Reading: e.Reading, Rank: e.DeclaredRank, Club: e.Affiliation}
	}
	seat := func(id int64) Seat {
		if s, ok := seats[id]; ok {
			return s
		}
		return Seat{PlayerID: id, Name: v.Names[id]}
	}
	out := PublicRound{Number: n, Complete: r.Complete()}
	for _, b := range r.Boards {
		pb := PublicBoard{Board: b.Board, Sente: seat(b.Sente), Gote: seat(b.Gote), Handicap: b.Last.Handicap, SenteBy: b.SenteBy,
			Decided: b.Decided, Winner: b.Winner, Redo: !b.Decided && (b.Last.ID != b.Root.ID || b.InForce.Result == office.ResultRedo)}
		pb.TossPending = b.SenteBy == pairing.SenteByFurigoma && !b.Decided && b.Last.ID == b.Root.ID
		if b.Decided {
			pb.Result, pb.Forfeit = b.InForce.Result, b.InForce.Reason == office.ReasonForfeit
		}
		out.Boards = append(out.Boards, pb)
		for i, me := range []Seat{pb.Sente, pb.Gote} {
			other := pb.Gote
			colour := ColourSente
			if i == 1 {
				other, colour = pb.Sente, ColourGote
			}
			if pb.TossPending {
				colour = ColourPending
			}
			line := PublicByName{Seat: me, Board: b.Board, Opponent: other, Colour: colour, Outcome: OutcomePlaying, Forfeit: pb.Forfeit}
			switch {
			case !b.Decided:
			case b.Winner == 0:
				line.Outcome = OutcomeOther
			case b.Winner == me.PlayerID:
				line.Outcome = OutcomeWin
			default:
				line.Outcome = OutcomeLoss
			}
			out.ByName = append(out.ByName, line)
		}
	}
	slices.SortFunc(out.Boards, func(a, b PublicBoard) int { return cmp.Compare(a.Board, b.Board) })
	for _, id := range r.Byes {
		s := seat(id)
		out.Byes = append(out.Byes, s)
		out.ByName = append(out.ByName, PublicByName{Seat: s, Outcome: OutcomeBye})
	}
	slices.SortFunc(out.ByName, func(a, b PublicByName) int {
		return cmp.Or(strings.Compare(readingKey(a.Seat), readingKey(b.Seat)), strings.Compare(a.Name, b.Name), cmp.Compare(a.PlayerID, b.PlayerID))
	})
	return out, true
}

// readingKey is what a player's line is sorted by: the reading (よみ),
// else the name.
func readingKey(s Seat) string {
	if s.Reading != "" {
		return s.Reading
	}
	return s.Name
}

// DayViews reads every class of a day for its public pages (the day
// overview, the projector), in a fixed number of statements whatever the
// number of classes and players: the event through the visibility rule
// (a draft is ErrNotFound for the public), its classes, entrants, rounds,
// boards, games and observed tosses.
func (d *Day) DayViews(ctx context.Context, actor office.Actor, eventID int64) (store.Event, []ClassView, error) {
	e, err := d.o.Event(ctx, actor, eventID)
	if err != nil {
		return e, nil, err
	}
	if ok, err := d.store.IsDayEvent(ctx, eventID); err != nil || !ok {
		if err == nil {
			err = notDay(eventID)
		}
		return e, nil, err
	}
	classes, err := classesIn(ctx, d.store, eventID)
	if err != nil {
		return e, nil, err
	}
	entrants, err := d.store.DayEntrantsOfEvent(ctx, eventID)
	if err != nil {
		return e, nil, err
	}
	rounds, err := d.store.DayRoundsOfEvent(ctx, eventID)
	if err != nil {
		return e, nil, err
	}
	ps, err := d.store.DayPairingsOfEvent(ctx, eventID)
	if err != nil {
		return e, nil, err
	}
	var gs store.GameSet
	observed := map[int64]pairing.Furigoma{}
	if len(ps) > 0 {
		if gs, err = d.store.GameSetOfEvent(ctx, eventID); err != nil {
			return e, nil, err
		}
		log, err := d.store.DayLogOfEventAction(ctx, eventID, LogToss)
		if err != nil {
			return e, nil, err
		}
		if observed, err = observedTosses(log); err != nil {
			return e, nil, err
		}
	}
	names := map[int64]string{}
	for _, en := range entrants {
		names[en.PlayerID] = en.Name
	}
	views := make([]ClassView, len(classes))
	at := map[int64]int{}
	for i, c := range classes {
		views[i] = ClassView{Event: e, Class: c, Names: names}
		at[c.ID] = i
	}
	for _, en := range entrants {
		if i, ok := at[en.ClassID]; ok {
			views[i].Entrants = append(views[i].Entrants, en)
		}
	}
	slices.SortFunc(rounds, func(a, b store.DayRound) int { return cmp.Compare(a.Number, b.Number) })
	roundAt := map[int64][2]int{}
	for _, r := range rounds {
		if i, ok := at[r.ClassID]; ok {
			roundAt[r.ID] = [2]int{i, len(views[i].Rounds)}
			views[i].Rounds = append(views[i].Rounds, RoundState{DayRound: r})
		}
	}
	for _, p := range ps {
		ix, ok := roundAt[p.RoundID]
		if !ok {
			continue
		}
		r := &views[ix[0]].Rounds[ix[1]]
		if p.GameID == nil {
			if p.ByePlayerID != nil {
				r.Byes = append(r.Byes, *p.ByePlayerID)
			}
			continue
		}
		b, err := boardOf(gs, p)
		if err != nil {
			return e, nil, err
		}
		if f, ok := observed[*p.GameID]; ok {
			b.Observed = &f
			if f.Decided {
				b.SenteBy, b.Furigoma = pairing.SenteByObserved, mustJSON(f)
			}
		}
		r.Boards = append(r.Boards, b)
	}
	if !actor.Anonymous() {
		desk := d.o.RequireEventRole(ctx, actor, e.ID, deskRoles...) == nil
		enter := desk || d.o.RequireEventRole(ctx, actor, e.ID, resultRoles...) == nil
		for i := range views {
			views[i].CanDesk, views[i].CanEnter = desk, enter
		}
	}
	return e, views, nil
}
