package players

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/web/site"
)

// masterForm is the master change, end and past-period forms as posted.
type masterForm struct {
	MasterID      string `form:"master_id"`
	MasterNumber  string `form:"master_number"`
	MasterName    string `form:"master_name"`
	MasterReading string `form:"master_reading"`
	Since         string `form:"master_since"`
	Until         string `form:"master_until"`
	// The picker's state when the form is shown again: the player whose
	// page this is, and the 師匠 chosen in the picker (by id).
	PlayerID   int64  `form:"-"`
	PickedID   int64  `form:"-"`
	PickedName string `form:"-"`
}

// picked is the form for one of the page's two who-fields: the picker
// keeps its choice only under the form that was sent.
func (f masterForm) picked(v masterFormView, which string) masterForm {
	f.PlayerID = v.Detail.Player.ID
	if v.Which != which {
		f.PickedID, f.PickedName, f.MasterNumber = 0, "", ""
	}
	return f
}

func (f masterForm) ref() office.MasterRef {
	id, _ := strconv.ParseInt(strings.TrimSpace(f.MasterID), 10, 64)
	if id < 0 {
		id = 0
	}
	return office.MasterRef{PlayerID: id, Number: f.MasterNumber, TeacherName: f.MasterName, TeacherReading: f.MasterReading}
}

// masterFormView is the master page: the lineage now, and three forms
// (change, end, past period); Which says which form the errors belong to.
type masterFormView struct {
	Detail playerDetailView
	Form   masterForm
	Which  string // "change", "end" or "period"
	Errs   playerErrs
}

func (s *Room) renderMasterForm(c echo.Context, status int, id int64, form masterForm, which string, errs playerErrs) error {
	ctx := c.Request().Context()
	p, err := s.Office.Player(ctx, id)
	if err != nil {
		return err
	}
	l, err := s.Office.Lineage(ctx, id, s.Office.LineageDay())
	if err != nil {
		return err
	}
	if mid := form.ref().PlayerID; mid > 0 {
		if mp, err := s.Office.Player(ctx, mid); err == nil {
			form.PickedID, form.PickedName = mp.ID, mp.Name
		}
	}
	v := masterFormView{Detail: playerDetailViewOf(p, l, true), Form: form, Which: which, Errs: errs}
	return s.Render(c, status, PlayerMasterPage(s.Page(c, site.L(ctx).T("players.master.title", "Name", p.Name)), v))
}

func (s *Room) playersMasterForm(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	return s.renderMasterForm(c, http.StatusOK, id, masterForm{Since: s.Office.LineageDay().String()}, "", nil)
}

// masterAction runs one of the master use cases and answers with 303 to
// the player's page, or the form again with the messages (422).
func (s *Room) masterAction(c echo.Context, which string, run func(id int64, f masterForm) error) error {
	ctx := c.Request().Context()
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	var f masterForm
	if err := c.Bind(&f); err != nil {
		return err
	}
	err = run(id, f)
	if errs, ok := playerErrsOf(ctx, err); ok {
		return s.renderMasterForm(c, http.StatusUnprocessableEntity, id, f, which, errs)
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, site.PlayerURL(id))
}

func (s *Room) playersMasterChange(c echo.Context) error {
	return s.masterAction(c, "change", func(id int64, f masterForm) error {
		return s.Office.ChangeMaster(c.Request().Context(), site.Actor(c), id, f.ref(), f.Since)
	})
}

func (s *Room) playersMasterEnd(c echo.Context) error {
	return s.masterAction(c, "end", func(id int64, f masterForm) error {
		return s.Office.EndMaster(c.Request().Context(), site.Actor(c), id, f.Until)
	})
}

func (s *Room) playersMasterPeriod(c echo.Context) error {
	return s.masterAction(c, "period", func(id int64, f masterForm) error {
		return s.Office.AddMasterPeriod(c.Request().Context(), site.Actor(c), id, f.ref(), f.Since, f.Until)
	})
}
