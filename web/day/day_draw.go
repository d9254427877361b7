package day

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"kisen/office/day"
	"kisen/pairing"
	"kisen/web/site"
)

// dayDrawView is the draw preview: nothing is written until confirmed.
type dayDrawView struct {
	ClassID     int64
	Name        string
	ClassURL    string
	Round       int
	Seed        string
	Fingerprint string
	Boards      []dayBoardRow
	Byes        []string
	NotKept     []string
	Blocks      []string // pools blocks: 「A: 名前、名前…」
	Colours     []string // colour rules no round could keep, in words
}

func (s *Room) DayDrawPreview(c echo.Context) error {
	ctx := c.Request().Context()
	cid, err := site.PathParam(c, "cid")
	if err != nil {
		return err
	}
	seed, err := day.NewSeed()
	if err != nil {
		return err
	}
	p, err := s.DayRoom().PreviewRound(ctx, site.Actor(c), cid, seed)
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		return s.renderClass(c, http.StatusUnprocessableEntity, firstMsg(msgs))
	}
	if err != nil {
		return err
	}
	cl, err := s.DayRoom().Class(ctx, site.Actor(c), cid)
	if err != nil {
		return err
	}
	v := dayDrawView{ClassID: cid, Name: site.LocalName(ctx, cl.Name, cl.NameEn), ClassURL: DayClassURL(cid), Round: p.Round,
		Seed: strconv.FormatUint(p.Seed, 10), Fingerprint: p.Fingerprint, Byes: p.ByeNames}
	for _, b := range p.Boards {
		row := dayBoardRow{Board: b.Board, Sente: b.SenteName, Gote: b.GoteName, Handicap: site.HandicapLabel(ctx, b.Handicap), Even: b.Handicap == "平手", SenteBy: site.T(ctx, "day.sente_by."+b.SenteBy)}
		if b.SenteBy == pairing.SenteByFurigoma {
			// The seats wait for the toss at the board (issue 23 §3).
			row.Pending, row.SenteBy = true, site.T(ctx, "day_seats.by_pending")
		}
		v.Boards = append(v.Boards, row)
	}
	v.Colours = colourBreakWords(ctx, p)
	for _, a := range p.NotKept {
		v.NotKept = append(v.NotKept, site.T(ctx, "day.notkept", "Relation", site.T(ctx, "day.relation."+a.Relation), "A", a.Names[0], "B", a.Names[1]))
	}
	names := map[int64]string{}
	if len(p.Blocks) > 0 {
		es, err := s.DayRoom().EntrantRowsOfClass(ctx, cid)
		if err != nil {
			return err
		}
		for _, e := range es {
			names[e.PlayerID] = e.Name
		}
	}
	for _, bl := range p.Blocks {
		var ns []string
		for _, id := range bl.Players {
			n, _ := strconv.ParseInt(id, 10, 64)
			ns = append(ns, names[n])
		}
		v.Blocks = append(v.Blocks, site.T(ctx, "day.block", "Block", bl.ID, "Names", strings.Join(ns, site.T(ctx, "day.list_sep"))))
	}
	return s.Render(c, http.StatusOK, DayDrawPage(s.Page(c, site.T(ctx, "day.draw.title", "Class", v.Name, "N", v.Round)), v))
}

// drawConfirmForm is the preview's confirmation.
type drawConfirmForm struct {
	Round       string `form:"round"`
	Seed        string `form:"seed"`
	Fingerprint string `form:"fingerprint"`
}

func (s *Room) DayDrawConfirm(c echo.Context) error {
	ctx := c.Request().Context()
	cid, err := site.PathParam(c, "cid")
	if err != nil {
		return err
	}
	var f drawConfirmForm
	if err := c.Bind(&f); err != nil {
		return err
	}
	round, err1 := strconv.Atoi(strings.TrimSpace(f.Round))
	seed, err2 := strconv.ParseUint(strings.TrimSpace(f.Seed), 10, 64)
	if err1 != nil || err2 != nil || f.Fingerprint == "" {
		return s.renderClass(c, http.StatusUnprocessableEntity, site.T(ctx, "day.err.draw_form"))
	}
	_, err = s.DayRoom().ConfirmRound(ctx, site.Actor(c), day.ConfirmInput{ClassID: cid, Round: round, Seed: seed, Fingerprint: f.Fingerprint})
	if errors.Is(err, day.ErrDrawChanged) {
		return s.renderClass(c, http.StatusConflict, site.T(ctx, "day.err.draw_changed"))
	}
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		return s.renderClass(c, http.StatusUnprocessableEntity, firstMsg(msgs))
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, DayClassURL(cid)+"#round-"+strconv.Itoa(round))
}

// firstMsg is one message of a validation error, for a page that shows a
// single line.
func firstMsg(m site.FieldMsgs) string {
	for _, k := range []string{"round", "format", "class", "player", "checkin", "board", "result"} {
		if m[k] != "" {
			return m[k]
		}
	}
	for _, v := range m {
		return v
	}
	return ""
}

func jsonUnmarshal(raw string, v any) error {
	if raw == "" {
		return nil
	}
	return json.Unmarshal([]byte(raw), v)
}

// colourBreakWords says, with the players' names, each colour rule the
// previewed Swiss round could not keep (docs/swiss.md): a third game in
// a row on one side, or a sente−gote past the event's limit.
func colourBreakWords(ctx context.Context, p day.RoundPreview) []string {
	names := map[int64]string{}
	for _, b := range p.Boards {
		names[b.Sente], names[b.Gote] = b.SenteName, b.GoteName
	}
	var out []string
	for _, cb := range p.ColourBreaks {
		seat := site.T(ctx, "day.col.gote")
		if cb.Sente {
			seat = site.T(ctx, "day.col.sente")
		}
		key := "day_seats.colour.third"
		if cb.Rule == pairing.RuleSwissBalance {
			key = "day_seats.colour.balance"
		}
		out = append(out, site.T(ctx, key, "Name", names[cb.PlayerID], "Board", cb.Board, "Seat", seat, "Limit", cb.Limit))
	}
	return out
}
