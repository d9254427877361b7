package knockouts

import (
	"context"
	"io"
	"strconv"

	"github.com/a-h/templ"

	"kisen/web/site"
)

// bracketBox is one game of the tree; a bye is the seeded player going on
// with a シード mark (it is not a game: no label, no date).
//
// It is written in Go rather than templ: a 1,024-entrant bracket draws
// 2,000 boxes, and templ's generated code formats every text through
// fmt.Sprint and renders every nested component through a closure, ten
// allocations and more a box, a third of a computed bracket page's
// (issue 12). Every text is escaped as templ escapes it (html.EscapeString);
// TestBracketBox_Golden holds the output of the templ component it
// replaced, for every kind of box, in both languages. Static class
// attributes only (computed class lists cost more than the rest of the
// page).
func BracketBox(g BracketGameView) templ.Component { return &bracketBoxComponent{g: g} }

type bracketBoxComponent struct {
	g   BracketGameView
	num [20]byte // a game id's digits (the component is on the heap already)
}

func (c *bracketBoxComponent) Render(ctx context.Context, w io.Writer) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	hw := htmlWriter{w: w}
	g := &c.g
	switch {
	case g.Bye:
		hw.raw(`<div class="bracket-game status-bye" data-testid="bye-`)
		hw.text(g.ID)
		hw.raw(`"><div class="bracket-side">`)
		hw.text(g.ByeName)
		hw.raw(` <span class="bye-mark">`)
		hw.text(site.T(ctx, "knockout.seed_bye"))
		hw.raw(`</span></div></div>`)
	case g.Status == "empty":
		hw.raw(`<div class="bracket-game status-empty" aria-hidden="true"></div>`)
	default:
		hw.raw(`<div class="bracket-game" data-status="`)
		hw.text(g.Status)
		hw.raw(`" data-testid="game-`)
		hw.text(g.ID)
		hw.raw(`">`)
		for i := range g.Sides {
			sd := &g.Sides[i]
			switch {
			case sd.Winner:
				hw.raw(`<div class="bracket-side winner">`)
			case sd.Bye:
				hw.raw(`<div class="bracket-side bye">`)
			default:
				hw.raw(`<div class="bracket-side">`)
			}
			bracketSideBody(ctx, &hw, sd)
			hw.raw(`</div>`)
		}
		hw.raw(`<div class="bracket-meta muted">`)
		if g.GameID != 0 { // gameLink
			hw.raw(`<a href="/games/`)
			hw.digits(strconv.AppendInt(c.num[:0], g.GameID, 10))
			hw.raw(`">`)
			hw.text(g.Name())
			hw.raw(`</a>`)
		} else {
			hw.text(g.Name())
		}
		if g.Date != "" {
			hw.raw(" ")
			hw.text(g.Date)
			hw.raw(" ")
		}
		if g.Handicap != "" {
			hw.raw(`<span data-testid="handicap-`)
			hw.text(g.ID)
			hw.raw(`"> `)
			hw.text(site.HandicapLabel(ctx, g.Handicap))
			hw.raw(`</span> `)
		}
		if g.Status == "walkover" {
			hw.raw(" ")
			hw.text(site.T(ctx, "knockout.walkover"))
			hw.raw(" ")
		}
		if g.Kind == "forfeit" {
			hw.raw(" ")
			hw.text(site.T(ctx, "knockout.forfeit"))
			hw.raw(" ")
		}
		if g.Redos > 0 {
			hw.raw(" ")
			hw.text(site.T(ctx, "knockout.redos", "N", g.Redos))
		}
		hw.raw(`</div></div>`)
	}
	return hw.err
}

// bracketSideBody is one player line of a box.
func bracketSideBody(ctx context.Context, hw *htmlWriter, sd *BracketSide) {
	if sd.Mark != "" {
		hw.raw(`<span class="result-mark">`)
		hw.text(sd.Mark)
		hw.raw(`</span> `)
	}
	switch {
	case sd.Bye:
		hw.text(site.T(ctx, "knockout.bye"))
	case sd.Wait:
		hw.raw(`<span class="muted">`)
		hw.text(site.T(ctx, "knockout.tbd"))
		hw.raw(`</span>`)
	default:
		hw.text(sd.Name)
		hw.raw(" ")
		if sd.Sente {
			hw.raw(`<span class="muted" title="`)
			hw.text(site.T(ctx, "knockout.sente"))
			hw.raw(`">☗</span>`)
		}
	}
}

// htmlWriter writes markup and escaped text, keeping the first error.
type htmlWriter struct {
	w   io.Writer
	err error
}

// raw writes markup written in this file, never data.
func (hw *htmlWriter) raw(s string) {
	if hw.err == nil {
		_, hw.err = io.WriteString(hw.w, s)
	}
}

// digits writes a number's digits.
func (hw *htmlWriter) digits(b []byte) {
	if hw.err == nil {
		_, hw.err = hw.w.Write(b)
	}
}

// text writes s escaped as html.EscapeString (and so templ) escapes it.
func (hw *htmlWriter) text(s string) {
	last := 0
	for i := 0; i < len(s); i++ {
		var esc string
		switch s[i] {
		case '&':
			esc = "&amp;"
		case '\'':
			esc = "&#39;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '"':
			esc = "&#34;"
		default:
			continue
		}
		hw.raw(s[last:i])
		hw.raw(esc)
		last = i + 1
	}
	hw.raw(s[last:])
}
