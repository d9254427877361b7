package leagues

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/web/site"
)

// memberView is one member of a class before its draw: 順位, name, the
// 降級点 carried (＊ each) and where the place came from, in words.
type memberView struct {
	PlayerID int64
	Junni    int
	Name     string
	Points   string
	Origin   string
}

// termChangeView is one member change of the term, said as a sentence.
type termChangeView struct {
	At     string
	Who    string
	What   string
	Reason string
}

// memberForm is what a member change form posted (kept on a 422).
type memberForm struct {
	Action   string `form:"action"`
	Player   string `form:"player"`
	PlayerID string `form:"player_id"`
	ToClass  string `form:"to_class"`
	Kind     string `form:"kind"`
	Reason   string `form:"reason"`
	Points   string `form:"points"`
}

// option is one choice of a select.
type option struct {
	Value string
	Label string
}

// membersOf fills the members list of a class page shown before the draw
// (no schedule yet): every member with the 降級点 carried and its origin.
func membersOf(ctx context.Context, st office.LeagueStandings) []memberView {
	out := make([]memberView, 0, len(st.Members))
	for _, m := range st.Members {
		mv := memberView{PlayerID: m.PlayerID, Junni: m.Junni, Name: st.Players[m.PlayerID].Name, Points: strings.Repeat("＊", m.Points)}
		if m.Origin != "" {
			mv.Origin = site.T(ctx, "term.origin."+m.Origin)
		}
		out = append(out, mv)
	}
	return out
}

// misfitsOf says in words each class setting that no longer fits the
// class's size, with the value that would (office.ClassFit).
func misfitsOf(ctx context.Context, ms []office.SettingMisfit) []string {
	lz := site.L(ctx)
	out := make([]string, 0, len(ms))
	for _, m := range ms {
		key := "term." + m.Code
		if m.Suggest > 0 {
			key += "_suggest"
		}
		out = append(out, lz.TData(key, map[string]any{"Value": m.Value, "Players": m.Players, "Classmates": m.Players - 1, "Suggest": m.Suggest}))
	}
	return out
}

// settingsMisfitMessage is the draw form's refusal when the settings no
// longer fit the class (office.SettingsMisfitError), or "".
func settingsMisfitMessage(ctx context.Context, err error) string {
	var me *office.SettingsMisfitError
	if !errors.As(err, &me) {
		return ""
	}
	return site.T(ctx, "term.fit.refused") + " " + strings.Join(misfitsOf(ctx, me.Misfits), " ")
}

// fillTermMembers adds the member change tools of a class before its
// draw for its staff: the term's member version, the changes that touched
// the class and the term's other classes.
func (s *Room) fillTermMembers(c echo.Context, v *LeagueClassView) error {
	ctx := c.Request().Context()
	tc, err := s.Office.TermMemberChanges(ctx, site.Actor(c), v.ClassID)
	if err != nil {
		return err
	}
	v.TermVersion = tc.Version
	lz := site.L(ctx)
	for _, ch := range tc.Changes {
		data := map[string]any{"Name": tc.Players[ch.PlayerID].Name, "Kind": lz.T("term.kind." + ch.Action + "." + ch.Kind),
			"From": ClassTitle(ctx, ch.FromClass), "To": ClassTitle(ctx, ch.ToClass), "Junni": ch.Junni, "Points": ch.Points}
		v.Changes = append(v.Changes, termChangeView{At: site.ShowTime(ch.At), Who: tc.Actors[ch.ActorID],
			What: lz.TData("term.change."+ch.Action, data), Reason: ch.Reason})
	}
	for _, k := range tc.Classes {
		if k != v.Class {
			v.OtherClasses = append(v.OtherClasses, option{Value: k, Label: ClassTitle(ctx, k)})
		}
	}
	return nil
}

// leagueMembers makes one member change from the class page before its
// draw (office.ChangeTermMember): 422 with the message beside the form,
// 409 when the term's members changed since the page was read.
func (s *Room) leagueMembers(c echo.Context) error {
	ctx := c.Request().Context()
	cid, err := site.PathParam(c, "cid")
	if err != nil {
		return err
	}
	var f memberForm
	if err := c.Bind(&f); err != nil {
		return err
	}
	in := office.TermMemberInput{ClassID: cid, Action: f.Action, Player: f.Player, ToClass: f.ToClass, Kind: f.Kind, Reason: f.Reason}
	if in.Version, err = site.SeenVersion(c); err == nil {
		if id := strings.TrimSpace(f.PlayerID); id != "" {
			in.PlayerID, _ = strconv.ParseInt(id, 10, 64)
		}
		if p := strings.TrimSpace(f.Points); p != "" {
			if in.Points, err = strconv.Atoi(p); err != nil {
				in.Points, err = -1, nil // said by the office as a bad 降級点 count
			}
		}
		err = s.Office.ChangeTermMember(ctx, site.Actor(c), in)
	}
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		return s.renderLeagueClass(c, http.StatusUnprocessableEntity, LeagueClassView{Member: f, Errs: msgs})
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, "/league/"+strconv.FormatInt(cid, 10)+"#members")
}

// formValue is what the person typed into the form of action, kept on a
// refusal; other forms start empty.
func formValue(v LeagueClassView, action, value string) string {
	if v.Member.Action == action {
		return value
	}
	return ""
}
