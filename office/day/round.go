package day

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"strconv"

	"kisen/office"
	"kisen/pairing"
	"kisen/rules"
	"kisen/store"
)

// DrawnBoard is one board of a previewed or confirmed round.
type DrawnBoard struct {
	Board     int
	Block     string // pools blocks mode
	Sente     int64
	Gote      int64
	SenteName string
	GoteName  string
	Handicap  string // 手合割 name; 平手 for even games
	SenteBy   string
	Furigoma  string // JSON of the simulated toss, "{}" when none
}

// Avoidance is a relation the draw could not keep apart, by name.
type Avoidance struct {
	Relation string
	Names    [2]string
	Board    int    // 0 when the pair shares a block without a game yet
	Block    string // pools blocks mode
}

// RoundPreview is a drawn round before it is written: what the director
// confirms. Seed and Fingerprint go back with the confirmation, which
// draws again from the same seed and refuses (409) if the field changed.
type RoundPreview struct {
	ClassID     int64
	Round       int
	Seed        uint64
	Fingerprint string
	Boards      []DrawnBoard
	Byes        []int64
	ByeNames    []string
	NotKept     []Avoidance
	Blocks      []pairing.PoolBlock
	// ColourBreaks names who this Swiss round gives a third game in a row
	// on one side or a sente−gote past the event's limit: only when no
	// round keeps the colour rules (docs/swiss.md). Shown with the
	// preview; not stored with the round (the seed draws it again).
	ColourBreaks []ColourBreak
}

// ColourBreak is one colour rule a Swiss round breaks, for one player.
type ColourBreak struct {
	PlayerID int64
	Board    int
	Sente    bool   // the seat this round gives them
	Rule     string // pairing.RuleSwissThirdInARow or pairing.RuleSwissBalance
	Limit    int    // the sente−gote limit that applied (balance only)
}

// NewSeed is a draw seed from crypto/rand (stored with the round so the
// draw can be checked again).
func NewSeed() (uint64, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return 0, fmt.Errorf("draw seed: %w", err)
	}
	return binary.LittleEndian.Uint64(b[:]), nil
}

// PreviewRound draws the next round of a class from seed without writing
// anything (directors). The previous round must be complete; only
// checked-in entrants who have not withdrawn are drawn.
func (d *Day) PreviewRound(ctx context.Context, actor office.Actor, classID int64, seed uint64) (RoundPreview, error) {
	c, err := d.store.DayClassByID(ctx, classID)
	if err != nil {
		return RoundPreview{}, err
	}
	e, err := requireDay(ctx, d.store, actor, c.EventID, deskRoles)
	if err != nil {
		return RoundPreview{}, err
	}
	st, err := loadClassState(ctx, d.store, c, d.today)
	if err != nil {
		return RoundPreview{}, err
	}
	return drawNext(ctx, d.store, e, st, seed)
}

func (d *Day) today() store.CivilDate { return office.JapanToday(d.now()) }

// ConfirmInput confirms a previewed round.
type ConfirmInput struct {
	ClassID     int64
	Round       int
	Seed        uint64
	Fingerprint string
}

// ConfirmRound writes the round the director previewed, in one
// transaction (directors): the round with its seed, one game of the event
// per board (label 「A級 R2-B3」: round 2, board 3, in no one language, sente/gote and 手合割 by the class
// policy, the class's allowance), boards numbered from the class's first
// board, byes recorded without a game. The round is drawn again from the
// same seed inside the transaction; if it is not the previewed one (a
// check-in or result changed the field, or someone confirmed first) the
// confirmation is refused with ErrConflict. Under the forfeit policy a
// board given to a withdrawn player is forfeited at once.
func (d *Day) ConfirmRound(ctx context.Context, actor office.Actor, in ConfirmInput) (RoundPreview, error) {
	var out RoundPreview
	err := d.store.Tx(ctx, func(tx *store.Store) error {
		c, err := tx.DayClassByID(ctx, in.ClassID)
		if err != nil {
			return err
		}
		e, err := requireDay(ctx, tx, actor, c.EventID, deskRoles)
		if err != nil {
			return err
		}
		st, err := loadClassState(ctx, tx, c, d.today)
		if err != nil {
			return err
		}
		if len(st.rounds)+1 != in.Round { // confirmed already, here or elsewhere
			return fmt.Errorf("class %d round %d: %d rounds drawn: %w", c.ID, in.Round, len(st.rounds), ErrDrawChanged)
		}
		out, err = drawNext(ctx, tx, e, st, in.Seed)
		if err != nil {
			return err
		}
		if out.Round != in.Round || out.Fingerprint != in.Fingerprint {
			return fmt.Errorf("class %d round %d: the draw changed since the preview: %w", c.ID, in.Round, ErrDrawChanged)
		}
		now := d.now()
		r := store.DayRound{ClassID: c.ID, Number: out.Round, Seed: strconv.FormatUint(in.Seed, 10), Blocks: mustJSON(out.Blocks), NotKept: mustJSON(out.NotKept), DrawnBy: actor.UserID, DrawnAt: now}
		if out.Blocks == nil {
			r.Blocks = "[]"
		}
		if out.NotKept == nil {
			r.NotKept = "[]"
		}
		if err := tx.CreateDayRound(ctx, &r); errors.Is(err, store.ErrConflict) {
			return fmt.Errorf("class %d round %d: %w", c.ID, out.Round, ErrDrawChanged)
		} else if err != nil {
			return err
		}
		allow := st.class.Settings.AllowanceMinutes * 60
		for _, b := range out.Boards {
			sente, gote := b.Sente, b.Gote
			g := store.Game{EventID: c.EventID, Label: fmt.Sprintf("%s R%d-B%d", c.Name, out.Round, b.Board), SentePlayerID: &sente, GotePlayerID: &gote,
				Handicap: b.Handicap, SenteAllowanceS: allow, GoteAllowanceS: allow, CreatedAt: now, UpdatedAt: now}
			if err := tx.CreateGame(ctx, &g); err != nil {
				return err
			}
			board := b.Board
			if err := tx.AddDayPairing(ctx, &store.DayPairing{RoundID: r.ID, Board: &board, GameID: &g.ID, SenteBy: b.SenteBy, Furigoma: b.Furigoma}); err != nil {
				return err
			}
		}
		for _, id := range out.Byes {
			bye := id
			if err := tx.AddDayPairing(ctx, &store.DayPairing{RoundID: r.ID, ByePlayerID: &bye}); err != nil {
				return err
			}
		}
		if err := tx.AppendDayLog(ctx, &store.DayLogEntry{EventID: c.EventID, ClassID: &c.ID, Action: LogDraw,
			Detail: mustJSON(map[string]any{"round": out.Round, "seed": r.Seed, "boards": len(out.Boards), "byes": len(out.Byes)}), ActorID: actor.UserID, At: now}); err != nil {
			return err
		}
		if st.class.Settings.Withdrawal != WithdrawalForfeit {
			return nil
		}
		gone := map[int64]bool{}
		for _, en := range st.entrants {
			if en.Withdrawn() {
				gone[en.PlayerID] = true
			}
		}
		if len(gone) == 0 {
			return nil
		}
		_, err = forfeitOpen(ctx, tx, actor, c, gone, now)
		return err
	})
	return out, err
}

// ErrDrawChanged refuses a confirmation whose round is no longer the one
// previewed (HTTP 409: preview again).
var ErrDrawChanged = fmt.Errorf("the draw changed since the preview: %w", office.ErrConflict)

// drawNext draws the class's next round from seed: the pure draw, then
// each board's sente/gote and 手合割 by the class's policy.
func drawNext(ctx context.Context, s *store.Store, e store.Event, st *classState, seed uint64) (RoundPreview, error) {
	set := st.class.Settings
	out := RoundPreview{ClassID: st.class.ID, Seed: seed}
	if last, ok := st.lastRound(); ok && !last.Complete() {
		return out, invalid("round", "day.err.round_open", map[string]any{"N": last.Number})
	}
	out.Round = len(st.rounds) + 1
	type pair struct {
		a, b  int64
		block string
		board int // relative, 1..k
	}
	var pairs []pair
	switch st.class.Format {
	case FormatPools:
		req, err := st.poolsRequest(seed)
		if err != nil {
			return out, err
		}
		if len(req.Players) < 2 {
			return out, invalid("round", "day.err.too_few", nil)
		}
		pr, err := pairing.DrawPools(req)
		if err != nil {
			return out, drawError(err)
		}
		if pr.Finished {
			return out, invalid("round", "day.err.finished", nil)
		}
		if pr.Round != out.Round {
			return out, fmt.Errorf("class %d: pools drew round %d, expected %d", st.class.ID, pr.Round, out.Round)
		}
		if out.Round == 1 {
			out.Blocks = pr.Blocks
		}
		for _, p := range pr.Pairings {
			pairs = append(pairs, pair{idOf(p.Players[0]), idOf(p.Players[1]), p.Block, p.Board})
		}
		for _, id := range pr.Byes {
			out.Byes = append(out.Byes, idOf(id))
		}
		for _, nk := range pr.NotKept {
			b := 0
			if nk.Board > 0 {
				b = nk.Board + set.FirstBoard - 1
			}
			out.NotKept = append(out.NotKept, Avoidance{Relation: nk.Relation, Names: nk.Names, Board: b, Block: nk.Block})
		}
	case FormatSwiss:
		if out.Round > set.Rounds {
			return out, invalid("round", "day.err.finished", nil)
		}
		req, err := st.swissRequest(seed, out.Round, false)
		if err != nil {
			return out, err
		}
		drawn := 0
		for _, p := range req.Players {
			if !p.Withdrawn {
				drawn++
			}
		}
		if drawn < 2 {
			return out, invalid("round", "day.err.too_few", nil)
		}
		sp, err := pairing.DrawSwiss(req)
		if err != nil {
			return out, drawError(err)
		}
		for _, g := range sp.Games {
			pairs = append(pairs, pair{idOf(g.Sente), idOf(g.Gote), "", g.Board})
		}
		if sp.Bye != "" {
			out.Byes = append(out.Byes, idOf(sp.Bye))
		}
		for _, nk := range sp.Report.NotKept {
			out.NotKept = append(out.NotKept, Avoidance{Relation: normRelation(nk.Relation), Names: nk.Players, Board: nk.Board + set.FirstBoard - 1})
		}
		for _, cb := range sp.Report.ColourRulesBroken {
			out.ColourBreaks = append(out.ColourBreaks, ColourBreak{PlayerID: idOf(cb.ID), Board: cb.Board + set.FirstBoard - 1,
				Sente: cb.Colour == "sente", Rule: cb.Rule, Limit: cb.Limit})
		}
	default:
		return out, invalid("format", "day.err.no_preliminary", nil)
	}
	var table pairing.HandicapTable
	if set.Handicap == HandicapTable || set.Handicap == HandicapMixed {
		h, err := office.EventHandicapIn(ctx, s, e)
		if err != nil {
			return out, err
		}
		table = h.Table
	}
	for _, p := range pairs {
		board := p.board + set.FirstBoard - 1
		b, err := st.terms(table, seed, board, p.a, p.b)
		if err != nil {
			return out, err
		}
		b.Board, b.Block = board, p.block
		out.Boards = append(out.Boards, b)
	}
	for _, id := range out.Byes {
		out.ByeNames = append(out.ByeNames, st.names[id])
	}
	out.Fingerprint = fingerprint(out)
	return out, nil
}

// normRelation gives the Swiss draw's relation names the pools' spelling.
func normRelation(r string) string {
	if r == pairing.RelFellowDisciple {
		return pairing.RelationFellowDisciple
	}
	return r
}

// drawError turns "no pairing keeps the hard rules" into a message for the
// director; anything else is a fault.
func drawError(err error) error {
	var np *pairing.NoPairingError
	var ns *pairing.NoSwissPairingError
	if errors.As(err, &np) || errors.As(err, &ns) {
		return invalid("round", "day.err.no_pairing", nil)
	}
	return err
}

// terms decides one board's sente, gote and 手合割 by the class's policy.
// The 振り駒 is tossed by the 上座 player (000 第7条1, 003): at an amateur
// day the higher 段級, and between equal or unread ranks the draw's first
// player, the organiser's order (D-Z2, pairing.JozaAmateur).
func (st *classState) terms(table pairing.HandicapTable, seed uint64, board int, a, b int64) (DrawnBoard, error) {
	set := st.class.Settings
	out := DrawnBoard{Sente: a, Gote: b, Handicap: rules.Even.Name(), Furigoma: "{}"}
	toss := func() (DrawnBoard, error) {
		rng := pairing.NewRand(seed ^ (uint64(board)+1)*0x9e3779b97f4a7c15)
		tosser, other := st.joza(a, b)
		f, err := pairing.Simulate(rng, pid(tosser), pid(other), pairing.DefaultTossOdds())
		if err != nil {
			return out, err
		}
		if f.Sente == pid(b) {
			out.Sente, out.Gote = b, a
		}
		out.SenteBy, out.Furigoma = pairing.SenteByFurigoma, mustJSON(f)
		return out, nil
	}
	switch set.Handicap {
	case HandicapBalanced:
		out.SenteBy = pairing.SenteByDraw
		return st.named(out), nil
	case HandicapToss:
		o, err := toss()
		return st.named(o), err
	}
	ra, errA := pairing.ParseRank(st.ranks[a])
	rb, errB := pairing.ParseRank(st.ranks[b])
	if errA != nil || errB != nil {
		o, err := toss() // a rank the desk could not read: even, by toss
		return st.named(o), err
	}
	gap := ra.Step - rb.Step
	if gap < 0 {
		gap = -gap
	}
	if set.Handicap == HandicapMixed && gap > 0 && gap <= set.EvenGap {
		// 004: a small gap plays even, the lower rank sente.
		if rb.Step < ra.Step {
			out.Sente, out.Gote = b, a
		} else {
			out.Sente, out.Gote = a, b
		}
		out.SenteBy = pairing.SenteByRank
		return st.named(out), nil
	}
	t, err := pairing.DecideTerms(table, pid(a), ra, pid(b), rb, pid(a))
	if err != nil {
		return out, err
	}
	if t.Sente == "" {
		o, err := toss()
		return st.named(o), err
	}
	if t.Sente == pid(b) {
		out.Sente, out.Gote = b, a
	}
	out.Handicap = string(t.Handicap)
	out.SenteBy = pairing.SenteByHandicap
	if t.Handicap == pairing.Hirate {
		out.SenteBy = pairing.SenteByRank
	}
	return st.named(out), nil
}

func (st *classState) named(b DrawnBoard) DrawnBoard {
	b.SenteName, b.GoteName = st.names[b.Sente], st.names[b.Gote]
	return b
}

// fingerprint identifies a drawn round: boards, seats, 手合割 and byes.
func fingerprint(p RoundPreview) string {
	h := fnv.New64a()
	fmt.Fprintf(h, "r%d;", p.Round)
	for _, b := range p.Boards {
		fmt.Fprintf(h, "%d:%d-%d:%s;", b.Board, b.Sente, b.Gote, b.Handicap)
	}
	for _, id := range p.Byes {
		fmt.Fprintf(h, "bye:%d;", id)
	}
	return strconv.FormatUint(h.Sum64(), 16)
}

// joza is the 上座 of a board and the other player (D-Z2): the higher
// declared 段級, else a (the draw's first player).
func (st *classState) joza(a, b int64) (first, other int64) {
	standing := func(id int64) pairing.PlayerStanding {
		p := pairing.PlayerStanding{ID: pid(id)}
		if r, err := pairing.ParseRank(st.ranks[id]); err == nil {
			p.Rank, p.HasRank = r, true
		}
		return p
	}
	if f, _ := pairing.JozaAmateur(standing(a), standing(b)); f == pid(b) {
		return b, a
	}
	return a, b
}
