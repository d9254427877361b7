package site

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"kisen/office"
)

// Corrections that change who advanced (issue 11, docs/corrections.md).
// correctionGate wraps the POSTs that can change a decided bracket game —
// ending a game again on /games/:id, a foul claim, a stage withdrawal. The
// first submission is tried under office.PreviewOnly (rolled back): when it
// would void later games, the correction page lists them with their
// players now and after, and asks for a reason and, where one of them has
// a confirmed result, the choice to void them. That page posts the same
// fields back with correction_confirm; the write then runs under
// office.WithCorrection and is refused (422, the page again with the
// message) while the consent is incomplete.
func (s *Server) CorrectionGate(kind string) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			req := c.Request()
			if err := req.ParseForm(); err != nil {
				return next(c)
			}
			ctx, a := req.Context(), Actor(c)
			id, err := PathParam(c, "id")
			if err != nil {
				return err
			}
			consent := office.CorrectionConsent{Kind: kind, Reason: strings.TrimSpace(req.PostForm.Get("correction_reason")),
				Void: req.PostForm.Get("correction_void") != ""}
			if kind == office.CorrectionWithdrawal {
				consent.StageID = id
			} else {
				consent.GameID = id
			}
			if req.PostForm.Get("correction_confirm") == "" {
				hx := req.Header.Get("HX-Request")
				c.SetRequest(req.WithContext(office.PreviewOnly(ctx, a)))
				err := next(c)
				affected, ok := office.CorrectionPreview(err)
				c.SetRequest(req.WithContext(ctx))
				if !ok {
					return err
				}
				if len(affected) == 0 {
					if hx != "" {
						req.Header.Set("HX-Request", hx)
					}
					return next(c)
				}
				return s.renderCorrection(c, http.StatusOK, kind, id, affected, consent, nil)
			}
			if consent.Reason != "" && strings.TrimSpace(req.PostForm.Get("note")) == "" && kind != office.CorrectionWithdrawal {
				req.PostForm.Set("note", consent.Reason) // the new version's note is the reason
				req.Form.Set("note", consent.Reason)
			}
			c.SetRequest(req.WithContext(office.WithCorrection(ctx, a, consent)))
			err = next(c)
			var need *office.CorrectionNeeded
			if errors.As(err, &need) {
				c.SetRequest(req.WithContext(ctx))
				return s.renderCorrection(c, http.StatusUnprocessableEntity, kind, id, need.Affected, consent, need)
			}
			return err
		}
	}
}

// correctionView is the correction page.
type correctionView struct {
	Action, Back string
	Kind         string
	Fields       [][2]string // the original form, posted back as it was
	Games        []affectedView
	Reason       string
	Void         bool
	NeedsVoid    bool
	Error        string // why the save was refused ("" on the first showing)
}

// affectedView is one later game the correction would void.
type affectedView struct {
	GameID    int64
	Label     string
	Now       string
	After     string
	Result    string
	Confirmed bool
}

func (s *Server) renderCorrection(c echo.Context, status int, kind string, id int64, affected []office.AffectedGame, consent office.CorrectionConsent, need *office.CorrectionNeeded) error {
	ctx := c.Request().Context()
	l := L(ctx)
	v := correctionView{Kind: kind, Reason: consent.Reason, Void: consent.Void}
	if kind == office.CorrectionWithdrawal {
		v.Action, v.Back = "/stages/"+strconv.FormatInt(id, 10)+"/withdraw", "/stages/"+strconv.FormatInt(id, 10)
	} else {
		v.Back = "/games/" + strconv.FormatInt(id, 10)
		v.Action = strings.TrimSuffix(c.Request().URL.Path, "/preview") // a preview's correction saves through the form's own route
	}
	for name, vals := range c.Request().PostForm {
		if name == "_csrf" || strings.HasPrefix(name, "correction_") {
			continue
		}
		for _, val := range vals {
			v.Fields = append(v.Fields, [2]string{name, val})
		}
	}
	name := func(id int64) string {
		if id == 0 {
			return l.T("corrections.nobody")
		}
		return s.PlayerName(ctx, &id)
	}
	for _, a := range affected {
		av := affectedView{GameID: a.GameID, Label: GameLabel(ctx, a.Label, a.Stage), Confirmed: a.Confirmed,
			Now: l.T("corrections.pair", "A", name(a.Now[0]), "B", name(a.Now[1]))}
		switch {
		case a.AfterStatus == "gone":
			av.After = l.T("corrections.after.gone")
		case a.After[0] == 0 && a.After[1] == 0:
			av.After = l.T("corrections.after.unknown")
		case a.AfterStatus == "walkover":
			av.After = l.T("corrections.after.walkover", "A", name(a.After[0]+a.After[1]))
		default:
			av.After = l.T("corrections.pair", "A", name(a.After[0]), "B", name(a.After[1]))
		}
		if a.HasResult {
			av.Result = l.T("adjudication.result." + a.Result)
		} else {
			av.Result = l.T("corrections.no_result")
		}
		v.Games = append(v.Games, av)
		v.NeedsVoid = v.NeedsVoid || a.Confirmed
	}
	if need != nil {
		var msgs []string
		if need.MissingReason {
			msgs = append(msgs, l.T("corrections.err.reason"))
		}
		if need.MissingVoid {
			msgs = append(msgs, l.T("corrections.err.void"))
		}
		v.Error = strings.Join(msgs, " ")
	}
	if IsHTMX(c) { // a whole page: show it instead of a form's fragment
		c.Response().Header().Set("HX-Retarget", "body")
		c.Response().Header().Set("HX-Reswap", "innerHTML")
	}
	return s.Render(c, status, CorrectionPage(s.Page(c, l.T("corrections.title")), v))
}

// voidedGameView is a void game of a bracket slot.
type VoidedGameView struct {
	GameID int64
	Label  string
	Sente  string
	Gote   string
}

// voidedOf lists the void bracket games of an event's stages for the
// trees, by stage: two statements however many there are (issue 12).
func (s *Server) VoidedOf(ctx context.Context, eventID int64) (map[int64][]VoidedGameView, error) {
	vs, err := s.Office.VoidBracketGames(ctx, eventID)
	if err != nil || len(vs) == 0 {
		return nil, err
	}
	var ids []int64
	for _, games := range vs {
		for _, v := range games {
			ids = append(ids, v.SenteID, v.GoteID)
		}
	}
	ps, err := s.Office.PlayersByIDs(ctx, ids)
	if err != nil {
		return nil, err
	}
	name := func(id int64) string {
		if p, ok := ps[id]; ok {
			return p.Name
		}
		if id == 0 {
			return ""
		}
		return "#" + strconv.FormatInt(id, 10)
	}
	out := make(map[int64][]VoidedGameView, len(vs))
	for stage, games := range vs {
		for _, v := range games {
			out[stage] = append(out[stage], VoidedGameView{GameID: v.GameID, Label: GameLabel(ctx, v.Label), Sente: name(v.SenteID), Gote: name(v.GoteID)})
		}
	}
	return out, nil
}
