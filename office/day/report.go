package day

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"kisen/office"
	"kisen/store"
)

// The players' own report (issue 14 part 5, docs/amateur-day-paper.md):
// a board's slip carries a QR code of a secret link; each player opens
// it on their phone and taps who won. Two reports that agree enter the
// result through the one result-entry path; a disagreement, or one side
// alone for longer than the class's wait, goes to the desk.

// ReasonPlayersReport is the reason code of a result the two players
// reported themselves (adjudication.reason.players_report in the result
// history).
const ReasonPlayersReport = "players_report"

// Default paper settings of a class without its own.
const (
	DefaultWaitMinutes = 10
	maxWaitMinutes     = 240
)

// Rate limit of wrong tokens per client address.
const (
	MissWindow = 10 * time.Minute
	MaxMisses  = 20
)

// Errors of the report link, each a page of its own on the web.
var (
	// ErrBadToken: no board has this link (a typo, an old slip printed
	// before the codes were issued again, or a guess). HTTP 404.
	ErrBadToken = fmt.Errorf("no board has this report link: %w", office.ErrNotFound)
	// ErrTooManyMisses: the address tried too many wrong links. HTTP 429.
	ErrTooManyMisses = errors.New("too many wrong report links from this address")
)

// ReportClosedError refuses a report once the board has a result in
// force (HTTP 409, the result shown).
type ReportClosedError struct{ Board ReportBoard }

func (e *ReportClosedError) Error() string {
	return fmt.Sprintf("board %d already has a result: %v", e.Board.Board, office.ErrConflict)
}

func (e *ReportClosedError) Unwrap() error { return office.ErrConflict }

// PaperSettings are a class's paper settings.
type PaperSettings struct {
	QR          bool
	WaitMinutes int
}

func paperOf(p store.DayClassPaper, ok bool) PaperSettings {
	if !ok {
		return PaperSettings{WaitMinutes: DefaultWaitMinutes}
	}
	return PaperSettings{QR: p.QR, WaitMinutes: p.WaitMinutes}
}

// PaperInput is the paper settings form as typed.
type PaperInput struct {
	ClassID     int64
	QR          bool
	WaitMinutes string
}

// SetPaper saves a class's paper settings (directors). A wait that is not
// a whole number of minutes from 1 to 240 is a field error.
func (d *Day) SetPaper(ctx context.Context, actor office.Actor, in PaperInput) error {
	wait, err := strconv.Atoi(strings.TrimSpace(in.WaitMinutes))
	bad := err != nil || wait < 1 || wait > maxWaitMinutes
	return d.store.Tx(ctx, func(tx *store.Store) error {
		c, err := tx.DayClassByID(ctx, in.ClassID)
		if err != nil {
			return err
		}
		if _, err := requireDay(ctx, tx, actor, c.EventID, deskRoles); err != nil {
			return err
		}
		if bad {
			return invalid("wait_minutes", "day_paper.err.wait", map[string]any{"Max": maxWaitMinutes})
		}
		return tx.SaveDayPaper(ctx, store.DayClassPaper{ClassID: c.ID, QR: in.QR, WaitMinutes: wait, UpdatedBy: actor.UserID, UpdatedAt: d.now()})
	})
}

// Paper reads a class's paper settings (anyone who may see the event).
func (d *Day) Paper(ctx context.Context, actor office.Actor, classID int64) (PaperSettings, error) {
	c, err := d.Class(ctx, actor, classID)
	if err != nil {
		return PaperSettings{}, err
	}
	m, err := d.store.DayPaperOfClasses(ctx, []int64{c.ID})
	if err != nil {
		return PaperSettings{}, err
	}
	p, ok := m[c.ID]
	return paperOf(p, ok), nil
}

// newToken is a random 128-bit token, URL-safe, and its stored hash.
func newToken() (token, hash string, err error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", "", fmt.Errorf("report token: %w", err)
	}
	token = base64.RawURLEncoding.EncodeToString(b[:])
	return token, hashToken(token), nil
}

func hashToken(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// IssueSlipLinks issues a new secret link for every undecided board of a
// class round, for printing its slips (directors; the class must have QR
// slips on). The tokens are returned once, by the board's game, and only
// their hashes are kept: printing again issues new ones, and the codes on
// slips printed before stop working.
func (d *Day) IssueSlipLinks(ctx context.Context, actor office.Actor, classID int64, round int) (map[int64]string, error) {
	out := map[int64]string{}
	err := d.store.Tx(ctx, func(tx *store.Store) error {
		c, err := tx.DayClassByID(ctx, classID)
		if err != nil {
			return err
		}
		if _, err := requireDay(ctx, tx, actor, c.EventID, deskRoles); err != nil {
			return err
		}
		m, err := tx.DayPaperOfClasses(ctx, []int64{c.ID})
		if err != nil {
			return err
		}
		if p, ok := m[c.ID]; !ok || !p.QR {
			return invalid("qr", "day_paper.err.qr_off", nil)
		}
		st, err := loadClassView(ctx, tx, c)
		if err != nil {
			return err
		}
		if round < 1 || round > len(st.rounds) {
			return invalid("round", "day_paper.err.no_round", map[string]any{"N": round})
		}
		now := d.now()
		for _, b := range st.rounds[round-1].Boards {
			if b.Decided {
				continue
			}
			tok, h, err := newToken()
			if err != nil {
				return err
			}
			if err := tx.SaveDayReportLink(ctx, store.DayReportLink{GameID: b.Root.ID, TokenHash: h, IssuedBy: actor.UserID, IssuedAt: now}); err != nil {
				return err
			}
			out[b.Root.ID] = tok
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ReportBoard is what a report link's page shows: the board, its two
// players as they sit now (a redo swaps colours), what each has reported,
// and the result once in force.
type ReportBoard struct {
	ClassName   string
	ClassNameEn string
	Round       int
	Board       int
	Handicap    string
	Sente       int64
	Gote        int64
	SenteName   string
	GoteName    string
	Decided     bool
	Winner      int64 // with Decided; 0 when nobody won
	SenteSaid   int64 // whom sente named the winner (0: not yet)
	GoteSaid    int64
}

// NameOf is the name of one of the board's two players ("" otherwise).
func (b ReportBoard) NameOf(id int64) string {
	switch id {
	case b.Sente:
		return b.SenteName
	case b.Gote:
		return b.GoteName
	}
	return ""
}

// missCheck refuses an address over the rate limit.
func (d *Day) missCheck(ctx context.Context, ip string) error {
	n, err := d.store.DayReportMisses(ctx, ip, d.now().Add(-MissWindow))
	if err != nil {
		return err
	}
	if n >= MaxMisses {
		return ErrTooManyMisses
	}
	return nil
}

// miss records a wrong token (outside the failed transaction, so it is
// kept) and returns ErrBadToken.
func (d *Day) miss(ctx context.Context, ip string) error {
	now := d.now()
	if err := d.store.RecordDayReportMiss(ctx, ip, now, now.Add(-MissWindow)); err != nil {
		return err
	}
	return ErrBadToken
}

// ReportLink reads the board of a report link (no account needed). A
// wrong token counts towards the address's rate limit.
func (d *Day) ReportLink(ctx context.Context, token, ip string) (ReportBoard, error) {
	if err := d.missCheck(ctx, ip); err != nil {
		return ReportBoard{}, err
	}
	l, err := d.store.DayReportLinkByHash(ctx, hashToken(token))
	if errors.Is(err, store.ErrNotFound) {
		return ReportBoard{}, d.miss(ctx, ip)
	}
	if err != nil {
		return ReportBoard{}, err
	}
	b, _, _, _, err := reportBoardIn(ctx, d.store, l.GameID)
	return b, err
}

// reportBoardIn reads a board through s: the view, the chain's current
// game and its result version, and the reports that count (those made
// since the current game was created).
func reportBoardIn(ctx context.Context, s *store.Store, rootID int64) (ReportBoard, store.Game, int, []store.DayReport, error) {
	var b ReportBoard
	p, err := s.DayPairingOfGame(ctx, rootID)
	if err != nil {
		return b, store.Game{}, 0, nil, err
	}
	c, err := s.DayClassByID(ctx, p.ClassID)
	if err != nil {
		return b, store.Game{}, 0, nil, err
	}
	gs, err := s.GameSetOfChain(ctx, rootID)
	if err != nil {
		return b, store.Game{}, 0, nil, err
	}
	last, eff, decided, err := office.DecidingIn(gs, rootID)
	if err != nil {
		return b, store.Game{}, 0, nil, err
	}
	version := 0
	if v, ok := gs.Latest(last.ID); ok {
		version = v.Version
	}
	reps, err := s.DayReportsOfGame(ctx, rootID)
	if err != nil {
		return b, store.Game{}, 0, nil, err
	}
	var counted []store.DayReport
	for _, r := range reps {
		if last.ID == rootID || !r.At.Before(last.CreatedAt) {
			counted = append(counted, r)
		}
	}
	players := map[int64]string{}
	es, err := s.DayEntrantsOfClass(ctx, c.ID)
	if err != nil {
		return b, store.Game{}, 0, nil, err
	}
	for _, e := range es {
		players[e.PlayerID] = e.Name
	}
	b = ReportBoard{ClassName: c.Name, ClassNameEn: c.NameEn, Round: p.Round, Board: deref(p.Board), Handicap: last.Handicap,
		Sente: deref64(last.SentePlayerID), Gote: deref64(last.GotePlayerID), Decided: decided}
	b.SenteName, b.GoteName = players[b.Sente], players[b.Gote]
	if decided {
		switch eff.Result {
		case office.ResultSenteWin:
			b.Winner = b.Sente
		case office.ResultGoteWin:
			b.Winner = b.Gote
		}
	}
	b.SenteSaid, b.GoteSaid = said(counted, b.Sente), said(counted, b.Gote)
	return b, last, version, counted, nil
}

// said is whom a player last named the winner (0: no report).
func said(reps []store.DayReport, player int64) int64 {
	w := int64(0)
	for _, r := range reps {
		if r.ReporterID == player {
			w = r.WinnerID
		}
	}
	return w
}

// ReportInput is one tap on a report link: who reports and whom they
// name the winner (player ids of the board's two players).
type ReportInput struct {
	Token    string
	IP       string
	Reporter int64
	Winner   int64
}

// Report outcomes.
const (
	ReportWaiting  = "waiting"  // the other player has not reported yet
	ReportAgreed   = "agreed"   // both agree: the result is entered
	ReportDisagree = "disagree" // they disagree: the desk decides
)

// Report records one player's report in one transaction: the board's
// game row locked (two phones reporting at once take turns), the report
// appended, and — when the other player's latest report names the same
// winner — the result entered through office's result-entry path with
// the version read under the lock, reason "players' report", attributed
// to the director who issued the slip's link. After a result in force the
// link takes no report (*ReportClosedError).
func (d *Day) Report(ctx context.Context, in ReportInput) (string, ReportBoard, error) {
	if err := d.missCheck(ctx, in.IP); err != nil {
		return "", ReportBoard{}, err
	}
	l, err := d.store.DayReportLinkByHash(ctx, hashToken(in.Token))
	if errors.Is(err, store.ErrNotFound) {
		return "", ReportBoard{}, d.miss(ctx, in.IP)
	}
	if err != nil {
		return "", ReportBoard{}, err
	}
	var outcome string
	var board ReportBoard
	err = d.store.Tx(ctx, func(tx *store.Store) error {
		if _, err := tx.LockGame(ctx, l.GameID); err != nil {
			return err
		}
		// The link read under the lock: printing again may have replaced it.
		if cur, err := tx.DayReportLinkByHash(ctx, hashToken(in.Token)); err != nil || cur.GameID != l.GameID {
			return ErrBadToken
		}
		b, last, version, _, err := reportBoardIn(ctx, tx, l.GameID)
		if err != nil {
			return err
		}
		board = b
		if b.Decided {
			return &ReportClosedError{Board: b}
		}
		if in.Reporter != b.Sente && in.Reporter != b.Gote {
			return invalid("reporter", "day_paper.err.reporter", nil)
		}
		if in.Winner != b.Sente && in.Winner != b.Gote {
			return invalid("winner", "day_paper.err.winner", nil)
		}
		other := b.GoteSaid
		if in.Reporter == b.Gote {
			other = b.SenteSaid
		}
		now := d.now()
		rep := store.DayReport{GameID: l.GameID, ReporterID: in.Reporter, WinnerID: in.Winner, At: now}
		switch {
		case other == 0:
			outcome = ReportWaiting
		case other != in.Winner:
			outcome = ReportDisagree
		default:
			res := office.ResultSenteWin
			if in.Winner == b.Gote {
				res = office.ResultGoteWin
			}
			rv, err := office.EnterChainResultIn(ctx, tx, office.Actor{UserID: l.IssuedBy}, office.ChainResultInput{
				RootID: l.GameID, GameID: last.ID, Version: version, Result: res, Reason: ReasonPlayersReport}, now)
			if err != nil {
				return err
			}
			rep.ResultID = &rv.ID
			outcome = ReportAgreed
			board.Decided, board.Winner = rv.Confirmed(), in.Winner
		}
		if err := tx.AddDayReport(ctx, &rep); err != nil {
			return err
		}
		if in.Reporter == b.Sente {
			board.SenteSaid = in.Winner
		} else {
			board.GoteSaid = in.Winner
		}
		return nil
	})
	return outcome, board, err
}
