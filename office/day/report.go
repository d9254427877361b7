package day

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
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
// history); ReasonPlayerReportConfirmed that of one player's report that a
// member of the desk confirmed.
const (
	ReasonPlayersReport         = "players_report"
	ReasonPlayerReportConfirmed = "players_report_one"
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

// Why a report link stopped working (ReportClosedError.Why).
const (
	ClosedResult  = "result"   // the board has a result in force
	ClosedRound   = "round"    // the round is over: a later round or the final is drawn, or the event finished
	ClosedIssuer  = "issuer"   // who printed the slips is disabled or no longer directs the event
	ClosedOldSlip = "old_slip" // a slip printed before each player had their own code (00130's one link)
)

// ReportClosedError refuses a link that no longer takes a report (HTTP
// 410). It carries only the reason: the page shows nothing of the game,
// so a link that stopped working tells no more than the public pages.
type ReportClosedError struct{ Why string }

func (e *ReportClosedError) Error() string {
	return fmt.Sprintf("report link closed (%s): %v", e.Why, office.ErrConflict)
}

func (e *ReportClosedError) Unwrap() error { return office.ErrConflict }

// newToken is a random 128-bit token (crypto/rand), URL-safe, and its
// stored hash. Only the SHA-256 is kept, so the lookup is by hash: a
// database index compares hashes, never the secret itself, and a
// database read gives no working link.
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

// SlipSecrets are the two secrets of one board's slip, one per player;
// each reports only as its player.
type SlipSecrets struct {
	Sente, Gote string
}

// IssueSlipLinks issues new secrets for every undecided board of a class
// round, one per player, for printing its slips (directors; the class
// must have QR slips on). The tokens are returned once, by the board's
// game, and only their hashes are kept: printing again issues new ones,
// and the codes on slips printed before stop working.
func (d *Day) IssueSlipLinks(ctx context.Context, actor office.Actor, classID int64, round int) (map[int64]SlipSecrets, error) {
	out := map[int64]SlipSecrets{}
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
			var sec SlipSecrets
			var rows []store.DayReportSecret
			for _, side := range []struct {
				player int64
				tok    *string
			}{{b.Sente, &sec.Sente}, {b.Gote, &sec.Gote}} {
				tok, h, err := newToken()
				if err != nil {
					return err
				}
				*side.tok = tok
				rows = append(rows, store.DayReportSecret{GameID: b.Root.ID, PlayerID: side.player, TokenHash: h, IssuedBy: actor.UserID, IssuedAt: now})
			}
			if err := tx.ReplaceDayReportSecrets(ctx, b.Root.ID, rows); err != nil {
				return err
			}
			out[b.Root.ID] = sec
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ReportBoard is what an open report link's page shows: the board, its
// two players as they sit now (a redo swaps colours), whose secret the
// link is (Me), what each has reported, and whether both agree.
type ReportBoard struct {
	ClassName    string
	ClassNameEn  string
	Round        int
	Board        int
	Handicap     string
	Sente        int64
	Gote         int64
	SenteName    string
	GoteName     string
	Me           int64 // the player whose secret the link is
	Decided      bool
	Winner       int64 // with Decided; 0 when nobody won
	SenteSaid    int64 // whom sente named the winner (0: not yet)
	GoteSaid     int64
	SeatsPending bool // Board.SeatsPending: the pair is named without 先手/後手
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

// secretOf finds the secret of a token. A token of a slip printed before
// each player had their own code (00130's single link) is closed
// (ClosedOldSlip); any other unknown token counts as a miss.
func (d *Day) secretOf(ctx context.Context, token, ip string) (store.DayReportSecret, error) {
	if err := d.missCheck(ctx, ip); err != nil {
		return store.DayReportSecret{}, err
	}
	h := hashToken(token)
	sec, err := d.store.DayReportSecretByHash(ctx, h)
	if errors.Is(err, store.ErrNotFound) {
		if _, oerr := d.store.DayReportLinkByHash(ctx, h); oerr == nil {
			return sec, &ReportClosedError{Why: ClosedOldSlip}
		} else if !errors.Is(oerr, store.ErrNotFound) {
			return sec, oerr
		}
		return sec, d.miss(ctx, ip)
	}
	return sec, err
}

// ReportLink reads the board of a report link (no account needed). A
// wrong token counts towards the address's rate limit; a link that no
// longer takes a report is a *ReportClosedError saying why.
func (d *Day) ReportLink(ctx context.Context, token, ip string) (ReportBoard, error) {
	sec, err := d.secretOf(ctx, token, ip)
	if err != nil {
		return ReportBoard{}, err
	}
	b, _, _, _, err := reportBoardIn(ctx, d.store, sec.GameID)
	if err != nil {
		return ReportBoard{}, err
	}
	if err := linkOpen(ctx, d.store, sec, b); err != nil {
		return ReportBoard{}, err
	}
	b.Me = sec.PlayerID
	return b, nil
}

// linkOpen refuses a secret whose board has a result in force, whose
// round is over (a later round of the class or its final is drawn, or the
// event is finished), whose issuer is disabled or no longer holds the
// director's role (an administrator keeps it while an administrator), or
// whose player no longer sits at the board.
func linkOpen(ctx context.Context, s *store.Store, sec store.DayReportSecret, b ReportBoard) error {
	if b.Decided {
		return &ReportClosedError{Why: ClosedResult}
	}
	p, err := s.DayPairingOfGame(ctx, sec.GameID)
	if err != nil {
		return err
	}
	c, err := s.DayClassByID(ctx, p.ClassID)
	if err != nil {
		return err
	}
	e, err := s.EventByID(ctx, c.EventID)
	if err != nil {
		return err
	}
	if e.Status == office.StatusFinished {
		return &ReportClosedError{Why: ClosedRound}
	}
	rs, err := s.DayRoundsOfClass(ctx, c.ID)
	if err != nil {
		return err
	}
	for _, r := range rs {
		if r.Number > p.Round {
			return &ReportClosedError{Why: ClosedRound}
		}
	}
	if _, ok, err := s.DayFinalOfClass(ctx, c.ID); err != nil {
		return err
	} else if ok {
		return &ReportClosedError{Why: ClosedRound}
	}
	u, err := s.UserByID(ctx, sec.IssuedBy)
	if errors.Is(err, store.ErrNotFound) || (err == nil && u.Disabled) {
		return &ReportClosedError{Why: ClosedIssuer}
	}
	if err != nil {
		return err
	}
	if !u.IsAdmin {
		ok, err := s.HasEventRole(ctx, e.ID, u.ID, deskRoles...)
		if err != nil {
			return err
		}
		if !ok {
			return &ReportClosedError{Why: ClosedIssuer}
		}
	}
	if sec.PlayerID != b.Sente && sec.PlayerID != b.Gote {
		return &ReportClosedError{Why: ClosedResult}
	}
	return nil
}

// reportBoardIn reads a board through s: the view, the chain's current
// game and its result version, and the reports that count (those made
// through a player's own secret since the current game was created).
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
	counted := countedReports(reps, rootID, last)
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
	if b.SeatsPending, err = seatsPendingIn(ctx, s, c.ID, rootID, p.SenteBy); err != nil {
		return b, store.Game{}, 0, nil, err
	}
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

// countedReports are the reports of a board that count: made through the
// player's own secret (00160) and, after a redo, since the redo game was
// created.
func countedReports(reps []store.DayReport, rootID int64, last store.Game) []store.DayReport {
	var counted []store.DayReport
	for _, r := range reps {
		if r.OwnSecret && (last.ID == rootID || !r.At.Before(last.CreatedAt)) {
			counted = append(counted, r)
		}
	}
	return counted
}

// said is whom a player last named the winner (0: no report).
func said(reps []store.DayReport, player int64) int64 {
	r, _ := latestOf(reps, player)
	return r.WinnerID
}

// latestOf is a player's latest report.
func latestOf(reps []store.DayReport, player int64) (store.DayReport, bool) {
	var out store.DayReport
	ok := false
	for _, r := range reps {
		if r.ReporterID == player {
			out, ok = r, true
		}
	}
	return out, ok
}

// ReportInput is one tap on a report link: whom the link's player names
// the winner. Who reports is not an input: it is the player whose secret
// the token is.
type ReportInput struct {
	Token  string
	IP     string
	Winner int64
}

// Report outcomes.
const (
	ReportWaiting  = "waiting"  // the other player has not reported yet
	ReportAgreed   = "agreed"   // both agree: the result is entered
	ReportDisagree = "disagree" // they disagree: the desk decides
)

// Report records one player's report in one transaction: the board's
// game row locked (two phones reporting at once take turns), the link
// checked open under the lock, the report appended as the secret's
// player, and — when the other player's latest report, made through the
// other player's own secret, names the same winner — the result entered
// through office's result-entry path with the version read under the
// lock, reason "players' report". The version's source (the two reports)
// is recorded in day_report_results; game_results.entered_by, which must
// name a user, holds the director who issued the secrets, and the result
// history shows the players' report instead.
func (d *Day) Report(ctx context.Context, in ReportInput) (string, ReportBoard, error) {
	sec, err := d.secretOf(ctx, in.Token, in.IP)
	if err != nil {
		return "", ReportBoard{}, err
	}
	var outcome string
	var board ReportBoard
	err = d.store.Tx(ctx, func(tx *store.Store) error {
		if _, err := tx.LockGame(ctx, sec.GameID); err != nil {
			return err
		}
		// The secret read under the lock: printing again may have replaced it.
		cur, err := tx.DayReportSecretByHash(ctx, hashToken(in.Token))
		if err != nil || cur.GameID != sec.GameID || cur.PlayerID != sec.PlayerID {
			return ErrBadToken
		}
		b, last, version, counted, err := reportBoardIn(ctx, tx, cur.GameID)
		if err != nil {
			return err
		}
		if err := linkOpen(ctx, tx, cur, b); err != nil {
			return err
		}
		me := cur.PlayerID
		b.Me = me
		board = b
		if in.Winner != b.Sente && in.Winner != b.Gote {
			return invalid("winner", "day_paper.err.winner", nil)
		}
		otherID := b.Gote
		if me == b.Gote {
			otherID = b.Sente
		}
		other, hasOther := latestOf(counted, otherID)
		now := d.now()
		rep := store.DayReport{GameID: cur.GameID, ReporterID: me, WinnerID: in.Winner, At: now, OwnSecret: true}
		var rv store.ResultVersion
		switch {
		case !hasOther:
			outcome = ReportWaiting
		case other.WinnerID != in.Winner:
			outcome = ReportDisagree
		default:
			res := office.ResultSenteWin
			if in.Winner == b.Gote {
				res = office.ResultGoteWin
			}
			rv, err = office.EnterChainResultIn(ctx, tx, office.Actor{UserID: cur.IssuedBy}, office.ChainResultInput{
				RootID: cur.GameID, GameID: last.ID, Version: version, Result: res, Reason: ReasonPlayersReport}, now)
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
		if outcome == ReportAgreed {
			src := store.DayReportResult{ResultID: rv.ID, GameID: cur.GameID, At: now}
			if me == b.Sente {
				src.SenteReportID, src.GoteReportID = &rep.ID, &other.ID
			} else {
				src.SenteReportID, src.GoteReportID = &other.ID, &rep.ID
			}
			if err := tx.AddDayReportResult(ctx, &src); err != nil {
				return err
			}
		}
		if me == b.Sente {
			board.SenteSaid = in.Winner
		} else {
			board.GoteSaid = in.Winner
		}
		return nil
	})
	return outcome, board, err
}

// LoneReportInput confirms one player's report from the director's view:
// the board, the report, and the chain's current game and result version
// the person saw.
type LoneReportInput struct {
	ClassID  int64
	Round    int
	Board    int
	ReportID int64
	GameID   int64
	Version  int
}

// ConfirmLoneReport enters the result one player reported when the other
// has not (directors, arbiters, recorders): the report must be of this
// board and still count — made through the player's own secret, the
// player's latest, and the opponent silent since — or nothing is written.
// The result goes through the one result-entry path (version checked, a
// stale one a *office.StaleError), entered by the person confirming, with
// reason ReasonPlayerReportConfirmed; day_report_results names the report
// and the person.
func (d *Day) ConfirmLoneReport(ctx context.Context, actor office.Actor, in LoneReportInput) error {
	return d.store.Tx(ctx, func(tx *store.Store) error {
		c, err := tx.DayClassByID(ctx, in.ClassID)
		if err != nil {
			return err
		}
		if _, err := requireDay(ctx, tx, actor, c.EventID, resultRoles); err != nil {
			return err
		}
		root, err := boardGame(ctx, tx, c.ID, in.Round, in.Board)
		if err != nil {
			return err
		}
		rep, err := tx.DayReportByID(ctx, in.ReportID)
		if err != nil || rep.GameID != root {
			return fmt.Errorf("report %d is not of board %d: %w", in.ReportID, in.Board, office.ErrNotFound)
		}
		if _, err := tx.LockGame(ctx, root); err != nil {
			return err
		}
		b, _, _, counted, err := reportBoardIn(ctx, tx, root)
		if err != nil {
			return err
		}
		other := b.Gote
		if rep.ReporterID == b.Gote {
			other = b.Sente
		}
		latest, ok := latestOf(counted, rep.ReporterID)
		if _, spoke := latestOf(counted, other); !ok || latest.ID != rep.ID || spoke || b.Decided {
			return invalid("report", "sec_qr.err.report_changed", nil)
		}
		res := office.ResultSenteWin
		if rep.WinnerID == b.Gote {
			res = office.ResultGoteWin
		}
		now := d.now()
		rv, err := office.EnterChainResultIn(ctx, tx, actor, office.ChainResultInput{RootID: root, GameID: in.GameID, Version: in.Version,
			Result: res, Reason: ReasonPlayerReportConfirmed}, now)
		if err != nil {
			return err
		}
		src := store.DayReportResult{ResultID: rv.ID, GameID: root, ConfirmedBy: &actor.UserID, At: now}
		if rep.ReporterID == b.Sente {
			src.SenteReportID = &rep.ID
		} else {
			src.GoteReportID = &rep.ID
		}
		return tx.AddDayReportResult(ctx, &src)
	})
}
