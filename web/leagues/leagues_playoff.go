package leagues

import (
	"context"
	"strconv"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/web/site"
)

// playoffView is the stepladder (パラマス) section of a class page.
type playoffView struct {
	Games      []playoffGameRow
	Next       int    // the game the staff may create now (0: none)
	NextText   string // "青木 太郎 – 石田 太郎"
	Challenger string
}

type playoffGameRow struct {
	Number  int
	Higher  string
	Lower   string // a name, or "winner of game k"
	GameID  int64
	Current int64
	Version int // the current game's newest result version (issue 11)
	Winner  string
}

func playoffViewOf(ctx context.Context, pl *office.LeaguePlayoff, n names) *playoffView {
	if pl == nil {
		return nil
	}
	lz := site.L(ctx)
	v := &playoffView{Next: pl.State.Next}
	name := func(id int64) string { return n[id].Name }
	for _, g := range pl.Games {
		r := playoffGameRow{Number: g.Number, Higher: name(g.Higher), GameID: g.GameID, Current: g.Current, Version: g.Version}
		if g.Lower != 0 {
			r.Lower = name(g.Lower)
		} else {
			r.Lower = lz.TData("league.playoff.winner_of", map[string]any{"N": g.LowerFrom})
		}
		if g.Winner != 0 {
			r.Winner = name(g.Winner)
		}
		v.Games = append(v.Games, r)
	}
	if pl.State.Next > 0 {
		v.NextText = name(pl.NextLower) + " – " + name(pl.NextHigher)
	}
	if pl.Challenger != 0 {
		v.Challenger = name(pl.Challenger)
	}
	return v
}

// leaguePlayoffCreate creates the next playoff game (directors and
// schedulers); office refuses it while the game before is undecided.
func (s *Room) leaguePlayoffCreate(c echo.Context) error {
	ctx := c.Request().Context()
	cid, err := site.PathParam(c, "cid")
	if err != nil {
		return err
	}
	_, err = s.Office.CreatePlayoffGame(ctx, site.Actor(c), office.PlayoffGameInput{ClassID: cid, Date: c.FormValue("date")})
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		return s.renderLeagueClass(c, 422, LeagueClassView{Errs: msgs})
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, "/league/"+strconv.FormatInt(cid, 10)+"#playoff")
}
