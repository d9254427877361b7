package games

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/web/site"
)

// Appeals (異議, 000 第10条第8項; docs/appeals.md): the filing form for a
// ruling, the case page (the game, the ruling, the statements, the
// deadline, the body, the decision and the result it gave, in the
// players' names) with the decision form for the body, and the case as
// one Markdown document.
func (s *Room) AppealRoutes(e *echo.Echo) {
	e.GET("/games/:id/appeals/new", s.appealNewPage, site.RequireUser, s.ActsOnGame(office.ResultReviewRoles...))
	e.POST("/games/:id/appeals", s.appealSave, site.RequireUser, s.ActsOnGame(office.ResultReviewRoles...))
	e.GET("/games/:id/appeals/:aid", s.appealPage)
	e.GET("/games/:id/appeals/:aid/document", s.appealDocument)
	e.POST("/games/:id/appeals/:aid/decision", s.appealDecide, site.RequireUser)
}

type appealForm struct {
	Ruling          string `form:"ruling"`
	FiledBy         string `form:"filed_by"`
	StatementSente  string `form:"statement_sente"`
	StatementGote   string `form:"statement_gote"`
	StatementOthers string `form:"statement_others"`
	Body            string `form:"body"`
	LateReason      string `form:"late_reason"`
}

type decisionForm struct {
	Decision    string `form:"decision"`
	Replacement string `form:"replacement"`
	Reasons     string `form:"reasons"`
	Version     string `form:"version"`
}

// resultLine is one result version in words.
type resultLine struct {
	Version        int
	Result, Reason string
}

// appealView is the case page's (and the document's) view model.
type appealView struct {
	GameID, AppealID int64
	EventName, Label string
	Sente, Gote      string
	Ruling           rulingRow
	// RulingParty is the player the ruling names, "" for none.
	RulingParty       string
	FiledBy           string // the appealing party: side and name
	StatementSente    string
	StatementGote     string
	StatementOthers   string
	Body              string
	Deadline, FiledAt string
	EnteredBy         string
	LateReason        string
	Decided           bool
	Decision          string
	Replacement       string
	Reasons           string
	DecidedBy         string
	DecidedAt         string
	DecisionRuling    int64
	Before            *resultLine
	RulingResult      *resultLine
	Resulting         *resultLine
	Now               *resultLine
	CanDecide         bool
	Version           int
	Draft             bool
}

func lineOf(v *office.ResultVersion) *resultLine {
	if v == nil {
		return nil
	}
	return &resultLine{Version: v.Version, Result: v.Result, Reason: v.Reason}
}

// party names a side with its player: 先手 山田.
func party(ctx context.Context, side, sente, gote string) string {
	switch side {
	case "sente":
		return sideName(ctx, side) + " " + sente
	case "gote":
		return sideName(ctx, side) + " " + gote
	}
	return ""
}

func (s *Room) appealView(ctx context.Context, a office.Actor, gameID, appealID int64) (appealView, error) {
	c, err := s.Office.AppealCaseOf(ctx, a, gameID, appealID)
	if err != nil {
		return appealView{}, err
	}
	stages, err := s.LabelStages(ctx, c.Event.ID)
	if err != nil {
		return appealView{}, err
	}
	ap := c.Appeal
	r := c.Ruling
	v := appealView{GameID: c.Game.ID, AppealID: ap.ID, EventName: site.LocalName(ctx, c.Event.Name, c.Event.NameEn),
		Label: site.GameLabel(ctx, c.Game.Label, stages...), Sente: c.Sente, Gote: c.Gote,
		Ruling: rulingRow{ID: r.ID, Kind: r.Kind, Player: r.Player, Reason: r.Reason, Arbiter: site.ViaToken(ctx, r.ArbiterName, r.EnteredVia),
			ByOrganiser: r.ByOrganiser, At: site.ShowTime(r.MadeAt)},
		RulingParty: party(ctx, r.Player, c.Sente, c.Gote),
		FiledBy:     party(ctx, ap.FiledBy, c.Sente, c.Gote), StatementSente: ap.StatementSente, StatementGote: ap.StatementGote,
		StatementOthers: ap.StatementOthers, Body: ap.Body, Deadline: site.ShowTime(ap.DeadlineAt), FiledAt: site.ShowTime(ap.FiledAt),
		EnteredBy: ap.EnteredByName, LateReason: ap.LateReason,
		Before: lineOf(c.Before), RulingResult: lineOf(c.RulingResult), Resulting: lineOf(c.Resulting), Now: lineOf(c.Now),
		Version: c.Version, Draft: office.IsDraft(c.Event)}
	if d := ap.Decision; d != nil {
		v.Decided, v.Decision, v.Replacement, v.Reasons = true, d.Decision, d.Replacement, d.Reasons
		v.DecidedBy, v.DecidedAt = ap.DecidedByName, site.ShowTime(d.DecidedAt)
		if d.RulingID != nil {
			v.DecisionRuling = *d.RulingID
		}
	} else {
		v.CanDecide = s.Office.CanDecideAppeal(ctx, a, c.Event.ID, ap.Body)
	}
	return v, nil
}

func (s *Room) appealIDs(c echo.Context) (int64, int64, error) {
	id, err := site.PathID(c)
	if err != nil {
		return 0, 0, err
	}
	aid, err := site.PathParam(c, "aid")
	return id, aid, err
}

func (s *Room) appealPage(c echo.Context) error {
	id, aid, err := s.appealIDs(c)
	if err != nil {
		return err
	}
	return s.renderAppeal(c, http.StatusOK, id, aid, decisionForm{}, nil)
}

func (s *Room) renderAppeal(c echo.Context, status int, id, aid int64, f decisionForm, errs site.FieldMsgs) error {
	ctx := c.Request().Context()
	v, err := s.appealView(ctx, site.Actor(c), id, aid)
	if err != nil {
		return err
	}
	site.MarkDraft(c, v.Draft)
	title := site.T(ctx, "appeals.case.title", "ID", aid) + " — " + v.EventName
	return s.Render(c, status, AppealPage(s.Page(c, title), v, f, errs))
}

func (s *Room) appealDecide(c echo.Context) error {
	id, aid, err := s.appealIDs(c)
	if err != nil {
		return err
	}
	var f decisionForm
	if err := c.Bind(&f); err != nil {
		return err
	}
	seen, _ := strconv.Atoi(strings.TrimSpace(f.Version))
	// A decision that changes who plays a later game is a correction
	// (docs/corrections.md): the decision's reasons are its reason; later
	// games with a confirmed result are not made void from here (refused).
	ctx := office.WithCorrection(c.Request().Context(), site.Actor(c), office.CorrectionConsent{Kind: office.CorrectionResult,
		Reason: strings.TrimSpace(f.Reasons), GameID: id})
	_, err = s.Office.DecideAppeal(ctx, site.Actor(c), id, aid, office.AppealDecisionInput{
		Decision: f.Decision, Replacement: f.Replacement, Reasons: f.Reasons, Version: seen})
	if err != nil {
		if msgs, ok := site.FieldMsgsOf(c.Request().Context(), err); ok {
			return s.renderAppeal(c, http.StatusUnprocessableEntity, id, aid, f, msgs)
		}
		return err
	}
	return site.SeeOther(c, appealURL(id, aid))
}

func appealURL(gameID, appealID int64) string {
	return site.GameURL(gameID) + "/appeals/" + site.I64(appealID)
}

// appealNewView is the filing form's view model: the ruling appealed and
// its deadline.
type appealNewView struct {
	GameID      int64
	EventName   string
	Label       string
	Sente, Gote string
	Ruling      rulingRow
	RulingParty string
	Deadline    string
	Late        bool
	Days        int
}

func (s *Room) appealNewPage(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	return s.renderAppealNew(c, http.StatusOK, id, appealForm{Ruling: c.QueryParam("ruling"), Body: office.AppealBodyCouncil}, nil)
}

func (s *Room) renderAppealNew(c echo.Context, status int, id int64, f appealForm, errs site.FieldMsgs) error {
	ctx := c.Request().Context()
	a := site.Actor(c)
	g, e, err := s.Office.Game(ctx, a, id)
	if err != nil {
		return err
	}
	rid, err := strconv.ParseInt(strings.TrimSpace(f.Ruling), 10, 64)
	if err != nil {
		return echo.NewHTTPError(http.StatusNotFound)
	}
	rulings, err := s.Office.Rulings(ctx, g.ID)
	if err != nil {
		return err
	}
	var v appealNewView
	found := false
	for _, r := range rulings {
		if r.ID == rid {
			found = true
			v.Ruling = rulingRow{ID: r.ID, Kind: r.Kind, Player: r.Player, Reason: r.Reason, Arbiter: site.ViaToken(ctx, r.ArbiterName, r.EnteredVia),
				ByOrganiser: r.ByOrganiser, At: site.ShowTime(r.MadeAt)}
			deadline, err := s.Office.AppealDeadline(ctx, e.ID, r)
			if err != nil {
				return err
			}
			v.Deadline, v.Late = site.ShowTime(deadline), s.Office.Now().After(deadline)
		}
	}
	if !found {
		return echo.NewHTTPError(http.StatusNotFound)
	}
	stages, err := s.LabelStages(ctx, e.ID)
	if err != nil {
		return err
	}
	v.GameID, v.EventName, v.Label = g.ID, site.LocalName(ctx, e.Name, e.NameEn), site.GameLabel(ctx, g.Label, stages...)
	v.Sente, v.Gote = s.PlayerName(ctx, g.SentePlayerID), s.PlayerName(ctx, g.GotePlayerID)
	v.RulingParty = party(ctx, v.Ruling.Player, v.Sente, v.Gote)
	site.MarkDraft(c, office.IsDraft(e))
	return s.Render(c, status, AppealNewPage(s.Page(c, site.T(ctx, "appeals.new.title")+" — "+v.EventName), v, f, errs))
}

func (s *Room) appealSave(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	var f appealForm
	if err := c.Bind(&f); err != nil {
		return err
	}
	rid, err := strconv.ParseInt(strings.TrimSpace(f.Ruling), 10, 64)
	if err != nil {
		return echo.NewHTTPError(http.StatusNotFound)
	}
	ap, err := s.Office.FileAppeal(c.Request().Context(), site.Actor(c), id, office.AppealInput{RulingID: rid, FiledBy: f.FiledBy,
		StatementSente: f.StatementSente, StatementGote: f.StatementGote, StatementOthers: f.StatementOthers, Body: f.Body, LateReason: f.LateReason})
	if err != nil {
		if msgs, ok := site.FieldMsgsOf(c.Request().Context(), err); ok {
			return s.renderAppealNew(c, http.StatusUnprocessableEntity, id, f, msgs)
		}
		return err
	}
	return site.SeeOther(c, appealURL(id, ap.ID))
}

// appealDocument is the case as one Markdown document, in the reader's
// language: what the page shows, for the record that leaves the building.
func (s *Room) appealDocument(c echo.Context) error {
	id, aid, err := s.appealIDs(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	v, err := s.appealView(ctx, site.Actor(c), id, aid)
	if err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, "text/markdown; charset=utf-8")
	name := fmt.Sprintf("appeal-%d-%d.md", id, aid)
	h.Set(echo.HeaderContentDisposition, ContentDisposition(name, name))
	return c.String(http.StatusOK, AppealMarkdown(ctx, v))
}

// AppealMarkdown writes the case as Markdown.
func AppealMarkdown(ctx context.Context, v appealView) string {
	t := func(id string, args ...any) string { return site.T(ctx, id, args...) }
	var b strings.Builder
	line := func(label, value string) {
		if value != "" {
			fmt.Fprintf(&b, "- **%s**: %s\n", label, mdText(value))
		}
	}
	result := func(r *resultLine) string {
		if r == nil {
			return t("appeals.case.no_result")
		}
		return fmt.Sprintf("v%d %s（%s）", r.Version, t("adjudication.result."+r.Result), t("adjudication.reason."+r.Reason))
	}
	fmt.Fprintf(&b, "# %s\n\n", mdText(t("appeals.case.title", "ID", v.AppealID)))
	line(t("appeals.case.event"), v.EventName)
	line(t("appeals.case.game"), v.Label)
	line(t("adjudication.side.sente"), v.Sente)
	line(t("adjudication.side.gote"), v.Gote)
	fmt.Fprintf(&b, "\n## %s\n\n", t("appeals.case.ruling"))
	line(t("appeals.case.ruling_kind"), t("adjudication.rulingkind."+v.Ruling.Kind))
	line(t("appeals.case.ruling_party"), v.RulingParty)
	line(t("appeals.case.ruling_reason"), v.Ruling.Reason)
	line(t("appeals.case.ruling_by"), v.Ruling.Arbiter)
	line(t("appeals.case.ruling_at"), v.Ruling.At)
	if v.RulingResult != nil {
		line(t("appeals.case.result_before"), result(v.Before))
		line(t("appeals.case.result_ruling"), result(v.RulingResult))
	}
	fmt.Fprintf(&b, "\n## %s\n\n", t("appeals.case.appeal"))
	line(t("appeals.case.filed_by"), v.FiledBy)
	line(t("appeals.case.filed_at"), v.FiledAt)
	line(t("appeals.case.deadline"), v.Deadline)
	line(t("appeals.case.late_reason"), v.LateReason)
	line(t("appeals.case.body"), t("appeals.body."+v.Body))
	line(t("appeals.case.entered_by"), v.EnteredBy)
	fmt.Fprintf(&b, "\n## %s\n\n", t("appeals.case.statements"))
	line(party(ctx, "sente", v.Sente, v.Gote), v.StatementSente)
	line(party(ctx, "gote", v.Sente, v.Gote), v.StatementGote)
	line(t("appeals.case.statement_others"), v.StatementOthers)
	fmt.Fprintf(&b, "\n## %s\n\n", t("appeals.case.decision"))
	if !v.Decided {
		fmt.Fprintf(&b, "%s\n", t("appeals.case.undecided"))
	} else {
		line(t("appeals.case.decision"), t("appeals.decision."+v.Decision))
		if v.Replacement != "" {
			line(t("appeals.case.replacement"), t("adjudication.result."+v.Replacement))
		}
		line(t("appeals.case.reasons"), v.Reasons)
		line(t("appeals.case.decided_by"), v.DecidedBy)
		line(t("appeals.case.decided_at"), v.DecidedAt)
		if v.Resulting != nil {
			line(t("appeals.case.result_decision"), result(v.Resulting))
		}
	}
	line(t("appeals.case.result_now"), result(v.Now))
	return b.String()
}

// mdText keeps a value on its Markdown line: line breaks become spaces and
// characters Markdown would read as markup are escaped.
func mdText(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	r := strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "`", "\\`", "#", `\#`, "[", `\[`, "]", `\]`, "<", `\<`, ">", `\>`)
	return r.Replace(s)
}
