package site

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/pairing"
)

// Previews before every irreversible step (issue 13, docs/previews-and-undo.md).
// A form that stores a result, publishes a draw, or takes something back
// posts first without "confirm": the handler runs the write through
// office.DryRun (the write itself, rolled back) and answers with a page —
// or, for htmx, the form's preview slot — saying in words what will be
// stored, with a confirmation form that posts the same fields plus
// confirm=1 and the version the person saw. Only that second post writes.
// A direct POST without confirm therefore answers the preview (200) and
// saves nothing.

// confirmed reports whether the form carries the confirmation (the
// preview's button, or the correction page's, which is a preview too).
func Confirmed(c echo.Context) bool {
	return c.FormValue("confirm") == "1" || c.FormValue("correction_confirm") != ""
}

// confirmedGate is correctionGate for a form that is previewed first: the
// unconfirmed post goes straight to the handler (which shows the preview,
// and the correction page when later games are affected); the confirmed
// post goes through the correction gate as before.
func (s *Server) ConfirmedGate(kind string) echo.MiddlewareFunc {
	gate := s.CorrectionGate(kind)
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		gated := gate(next)
		return func(c echo.Context) error {
			if !Confirmed(c) {
				return next(c)
			}
			return gated(c)
		}
	}
}

// echoFields is the posted form as hidden fields for the confirmation,
// without the token (the template adds the current one) and the flags.
func EchoFields(c echo.Context, drop ...string) [][2]string {
	_ = c.Request().ParseForm()
	var out [][2]string
	for name, vals := range c.Request().PostForm {
		if name == "_csrf" || name == "confirm" || strings.HasPrefix(name, "correction_") {
			continue
		}
		skip := false
		for _, d := range drop {
			skip = skip || d == name
		}
		if skip {
			continue
		}
		for _, v := range vals {
			out = append(out, [2]string{name, v})
		}
	}
	// A stable order: the map's is random.
	slices.SortStableFunc(out, func(a, b [2]string) int { return strings.Compare(a[0], b[0]) })
	return out
}

// effectsView is office.Effects in the reader's words.
type EffectsView struct {
	Results   []string
	Advances  []string
	Created   []string
	Voided    []string
	Champions []string
	Public    string
	Notes     []string // things to check: a game dated in the future, a result waiting for confirmation
	Nothing   bool     // no later game changes
	Future    bool     // a result for a game dated after today: confirming answers the question
}

// effectResultWords says a result to be stored; a version that takes the
// only result back reads "no result".
func EffectResultWords(ctx context.Context, result, reason, sente, gote string) string {
	if result == office.ResultPending && reason == office.ReasonUndo {
		return T(ctx, "previews.result.none")
	}
	return resultWords(ctx, result, sente, gote)
}

func (s *Server) nameOr(ctx context.Context, id int64) string {
	if id == 0 {
		return T(ctx, "previews.undecided")
	}
	return s.PlayerName(ctx, &id)
}

// roundWords names the game a player goes on to as staff say it: 決勝,
// 準決勝 …, or the 三位決定戦 for a semi-final loser (issue 24 item 3).
func roundWords(ctx context.Context, a office.EffectAdvance) string {
	switch {
	case a.ThirdPlace:
		return ThirdPlaceWords(ctx)
	case a.Rounds > 0:
		return KnockoutRound(ctx, a.Round, a.Rounds, a.Qualifiers)
	case a.Final:
		return RoundWords(ctx, pairing.RoundName{Kind: pairing.RoundFinal})
	}
	return RoundWords(ctx, pairing.RoundName{Kind: pairing.RoundNumbered, N: a.Round})
}

func (s *Server) EffectsView(ctx context.Context, e office.Effects) EffectsView {
	var v EffectsView
	today := s.Office.LineageDay().String()
	for _, r := range e.Results {
		sente, gote := s.nameOr(ctx, r.Sente), s.nameOr(ctx, r.Gote)
		line := T(ctx, "previews.effect.result", "Game", GameLabel(ctx, r.Label, e.Stages...), "Sente", sente, "Gote", gote,
			"Result", EffectResultWords(ctx, r.Result, r.Reason, sente, gote), "Reason", reasonWords(ctx, r.Reason))
		if r.Before != "" && r.Before != r.Result && r.Before != office.ResultPending {
			line += " " + T(ctx, "previews.effect.result_before", "Before", EffectResultWords(ctx, r.Before, "", sente, gote))
		}
		v.Results = append(v.Results, line)
		if !r.Confirmed {
			v.Notes = append(v.Notes, T(ctx, "previews.note.unconfirmed"))
		}
		if r.ScheduledOn != "" && r.ScheduledOn > today {
			v.Notes = append(v.Notes, T(ctx, "previews.note.future", "Date", r.ScheduledOn))
			v.Future = true
		}
	}
	for _, a := range e.Advances {
		key := "previews.effect.advance"
		if a.Opponent == 0 {
			key = "previews.effect.advance_waiting"
		}
		v.Advances = append(v.Advances, T(ctx, key, "Player", s.nameOr(ctx, a.Player), "Stage", StageName(ctx, a.StageName, a.StageNameEn, a.StageKind),
			"Round", roundWords(ctx, a), "Opponent", s.nameOr(ctx, a.Opponent)))
	}
	for _, q := range e.Qualified {
		v.Advances = append(v.Advances, T(ctx, "previews.effect.qualified", "Player", s.nameOr(ctx, q.Player), "Stage", StageName(ctx, q.StageName, q.StageNameEn, q.StageKind)))
	}
	for _, g := range e.Created {
		key := "previews.effect.created"
		if g.RedoOf != 0 {
			key = "previews.effect.created_redo"
		}
		line := T(ctx, key, "Game", GameLabel(ctx, g.Label, e.Stages...), "Sente", s.nameOr(ctx, g.Sente), "Gote", s.nameOr(ctx, g.Gote))
		if g.ScheduledOn != "" {
			line += " " + T(ctx, "previews.effect.on", "Date", g.ScheduledOn)
		}
		v.Created = append(v.Created, line)
	}
	for _, g := range e.Voided {
		v.Voided = append(v.Voided, T(ctx, "previews.effect.voided", "Game", GameLabel(ctx, g.Label, e.Stages...), "Sente", s.nameOr(ctx, g.Sente), "Gote", s.nameOr(ctx, g.Gote)))
	}
	for _, c := range e.Champions {
		switch {
		case c.After == 0:
			v.Champions = append(v.Champions, T(ctx, "previews.effect.champion_undone", "Stage", StageName(ctx, c.StageName, c.StageNameEn, c.StageKind), "Before", s.nameOr(ctx, c.Before)))
		case c.Before == 0:
			v.Champions = append(v.Champions, T(ctx, "previews.effect.champion", "Stage", StageName(ctx, c.StageName, c.StageNameEn, c.StageKind), "After", s.nameOr(ctx, c.After)))
		default:
			v.Champions = append(v.Champions, T(ctx, "previews.effect.champion_changed", "Stage", StageName(ctx, c.StageName, c.StageNameEn, c.StageKind), "Before", s.nameOr(ctx, c.Before), "After", s.nameOr(ctx, c.After)))
		}
	}
	if e.EventGoesPublic {
		v.Public = T(ctx, "previews.effect.public")
	}
	v.Nothing = len(v.Advances)+len(v.Created)+len(v.Voided)+len(v.Champions) == 0
	return v
}

// confirmView is a preview page: what will be stored, and the one button
// that stores it.
type ConfirmView struct {
	Title   string
	Lead    string // what is about to happen, in one sentence
	Effects EffectsView
	Action  string
	Fields  [][2]string
	Submit  string
	Back    string
	// Reason: the confirmation asks for a reason (undo, unpublish).
	Reason      bool
	ReasonValue string
	Errs        FieldMsgs
	Danger      bool // a taking-back: the button is styled as such
}

func (s *Server) RenderConfirm(c echo.Context, status int, v ConfirmView) error {
	if v.Effects.Future && !slices.Contains(v.Fields, [2]string{futureOKField, "1"}) {
		// The preview showed the game's date: confirming it answers the
		// future-date question, which is then not asked again.
		v.Fields = append(v.Fields, [2]string{futureOKField, "1"})
	}
	if IsHTMX(c) { // a whole page: show it instead of a form's fragment
		c.Response().Header().Set("HX-Retarget", "body")
		c.Response().Header().Set("HX-Reswap", "innerHTML")
	}
	return s.Render(c, status, ConfirmPage(s.Page(c, v.Title), v))
}

// correctionFromPreview shows the correction page when the previewed
// write would change later games (issue 11's consent: a reason, and the
// choice to void games with a confirmed result); shown is false for any
// other outcome, which the caller answers itself.
func (s *Server) CorrectionFromPreview(c echo.Context, kind string, id int64, err error) (bool, error) {
	var need *office.CorrectionNeeded
	if !errors.As(err, &need) {
		return false, nil
	}
	consent := office.CorrectionConsent{Kind: kind, GameID: id}
	return true, s.renderCorrection(c, http.StatusOK, kind, id, need.Affected, consent, nil)
}

// previewVersion is the form's version for a preview; when the form has
// none, the preview still runs at the version stored now (so what is wrong
// with the form is said first) and the missing version is returned as the
// error to report after it.
func (s *Server) PreviewVersion(c echo.Context, gameID int64) (int, error) {
	seen, err := SeenVersion(c)
	if err == nil {
		return seen, nil
	}
	latest, has, lerr := s.Office.LatestResultOf(c.Request().Context(), Actor(c), gameID)
	if lerr != nil {
		return 0, lerr
	}
	if has {
		return latest.Version, err
	}
	return 0, err
}
