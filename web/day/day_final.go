package day

import (
	"context"
	"errors"
	"math/bits"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"kisen/office/day"
	"kisen/web/site"
)

// The class's final knockout (決勝トーナメント, docs/final-knockout.md): the
// director previews the qualifiers' placement (GET, from the witnesses'
// number in ?seed or a fresh one) and builds it (POST → 303 to the stage's
// review page, where it is published as any stage).
func (s *Room) DayFinalRoutes(e *echo.Echo) {
	e.GET("/day/classes/:cid/final", s.dayFinalPage, site.RequireUser)
	e.POST("/day/classes/:cid/final", s.dayFinalBuild, site.RequireUser, s.ActsOnDayClass(false))
}

func dayFinalURL(classID int64) string {
	return "/day/classes/" + strconv.FormatInt(classID, 10) + "/final"
}

// dayFinalView is the final's page: the preview, or the built final.
type dayFinalView struct {
	ClassID     int64
	ClassName   string
	ClassURL    string
	Built       bool
	StageURL    string
	Seed        string
	Fingerprint string
	Size        int
	Qualifiers  []dayFinalQualifier
	Games       []dayFinalGame
	NotKept     []string
	Together    []string
	Consolation bool
	ThirdPlace  bool
	// Error is why the final cannot be previewed or built now.
	Error     string
	SeedError string
}

type dayFinalQualifier struct {
	Name string
	From string // 「A組 1位」 or 「予選 3位」
}

type dayFinalGame struct {
	N            int
	A, B         string // "" for a bye
	AFrom, BFrom string // where each comes from (block and place, or standing)
}

// dayFinalForm is the build form: the previewed seed and fingerprint and
// the two options.
type dayFinalForm struct {
	Seed        string `form:"seed"`
	Fingerprint string `form:"fingerprint"`
	Consolation string `form:"consolation"`
	ThirdPlace  string `form:"third_place"`
}

func (s *Room) dayFinalPage(c echo.Context) error {
	id, err := site.PathParam(c, "cid")
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	seed, ok := uint64(0), false
	if q := strings.TrimSpace(c.QueryParam("seed")); q != "" {
		seed, err = strconv.ParseUint(q, 10, 64)
		if err != nil {
			v := dayFinalView{SeedError: site.T(ctx, "day_final.err.seed")}
			return s.renderDayFinal(c, http.StatusUnprocessableEntity, id, v, 0, false)
		}
		ok = true
	}
	if !ok {
		if seed, err = day.NewSeed(); err != nil {
			return err
		}
	}
	return s.renderDayFinal(c, http.StatusOK, id, dayFinalView{}, seed, true)
}

func (s *Room) dayFinalBuild(c echo.Context) error {
	id, err := site.PathParam(c, "cid")
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	var in dayFinalForm
	if err := c.Bind(&in); err != nil {
		return err
	}
	v := dayFinalView{Consolation: in.Consolation != "", ThirdPlace: in.ThirdPlace != ""}
	seed, err := strconv.ParseUint(strings.TrimSpace(in.Seed), 10, 64)
	if err != nil {
		v.SeedError = site.T(ctx, "day_final.err.seed")
		return s.renderDayFinal(c, http.StatusUnprocessableEntity, id, v, 0, false)
	}
	fin, err := day.New(s.Office).BuildFinal(ctx, site.Actor(c), day.FinalInput{ClassID: id, Seed: seed, Fingerprint: in.Fingerprint,
		Consolation: v.Consolation, ThirdPlace: v.ThirdPlace})
	switch {
	case errors.Is(err, day.ErrDrawChanged):
		v.Error = site.T(ctx, "day_final.err.changed")
		return s.renderDayFinal(c, http.StatusConflict, id, v, seed, true)
	case err != nil:
		if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
			v.Error = strings.Join(msgList(msgs), " ")
			return s.renderDayFinal(c, http.StatusUnprocessableEntity, id, v, seed, false)
		}
		return err
	}
	return site.SeeOther(c, site.StageURL(fin.Stage.ID)+"#review")
}

func msgList(m site.FieldMsgs) []string {
	out := make([]string, 0, len(m))
	for _, msg := range m {
		out = append(out, msg)
	}
	return out
}

// renderDayFinal fills v from the class: the built final's link, or the
// preview from seed (when preview is set).
func (s *Room) renderDayFinal(c echo.Context, status int, classID int64, v dayFinalView, seed uint64, preview bool) error {
	ctx, a := c.Request().Context(), site.Actor(c)
	d := day.New(s.Office)
	cl, err := d.Class(ctx, a, classID)
	if err != nil {
		return err
	}
	v.ClassID, v.ClassName, v.ClassURL = classID, site.LocalName(ctx, cl.Name, cl.NameEn), DayClassURL(classID)
	if fin, built, err := d.FinalOf(ctx, a, classID); err != nil {
		return err
	} else if built {
		v.Built, v.StageURL = true, site.StageURL(fin.Stage.ID)
		return s.Render(c, status, DayFinalPage(s.Page(c, site.T(ctx, "day_final.title", "Class", v.ClassName)), v))
	}
	if preview {
		p, err := d.PreviewFinal(ctx, a, classID, seed)
		if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
			v.Error = strings.TrimSpace(v.Error + " " + strings.Join(msgList(msgs), " "))
		} else if err != nil {
			return err
		} else {
			fillDayFinal(ctx, &v, p)
		}
	}
	return s.Render(c, status, DayFinalPage(s.Page(c, site.T(ctx, "day_final.title", "Class", v.ClassName)), v))
}

func fillDayFinal(ctx context.Context, v *dayFinalView, p day.FinalPreview) {
	v.Seed, v.Fingerprint, v.Size = strconv.FormatUint(p.Seed, 10), p.Fingerprint, p.Size
	from := map[int64]string{}
	for _, q := range p.Qualifiers {
		x := dayFinalQualifier{Name: q.Name}
		if q.Block != "" {
			x.From = site.T(ctx, "day_final.from_block", "Block", q.Block, "Place", q.Place)
		} else {
			x.From = site.T(ctx, "day_final.from_standing", "Place", q.Standing)
		}
		from[q.PlayerID] = x.From
		v.Qualifiers = append(v.Qualifiers, x)
	}
	for k, g := range p.Games() {
		v.Games = append(v.Games, dayFinalGame{N: k + 1, A: p.Names[g[0]], B: p.Names[g[1]], AFrom: from[g[0]], BFrom: from[g[1]]})
	}
	for _, x := range p.NotKept {
		v.NotKept = append(v.NotKept, site.T(ctx, "day_final.not_kept", "A", x.Names[0], "B", x.Names[1], "Game", x.Board,
			"Relation", site.T(ctx, "day_final.relation."+x.Relation)))
	}
	for _, x := range p.Together {
		// The round as staff say it (準決勝, 決勝 …): the final knockout plays
		// to one winner over log2(size) rounds.
		round := site.KnockoutRound(ctx, x.Round, bits.TrailingZeros(uint(p.Size)), 0)
		v.Together = append(v.Together, site.T(ctx, "day_final.together", "A", x.Names[0], "B", x.Names[1], "Block", x.Block, "Round", round))
	}
}
