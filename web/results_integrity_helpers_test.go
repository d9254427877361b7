package web

import (
	"net/url"

	"github.com/PuerkitoBio/goquery"
)

// shown adds to form the hidden fields (version, game, game_id, result) of
// the form selected by sel on page path, as a browser posting that form
// would: the version and game the person saw (issue 11). Fields already
// in form are kept.
func (a *testApp) shown(path, sel string, form url.Values) url.Values {
	a.t.Helper()
	resp, body := a.get(path)
	if resp.StatusCode != 200 {
		a.t.Fatalf("GET %s: %d", path, resp.StatusCode)
	}
	f := doc(a.t, body).Find(sel)
	if f.Length() == 0 {
		a.t.Fatalf("%s: no %s", path, sel)
	}
	if !f.Is("form") {
		f = f.Find("form").First()
	}
	if form == nil {
		form = url.Values{}
	}
	f.First().Find(`input[type="hidden"]`).Each(func(_ int, s *goquery.Selection) {
		name, _ := s.Attr("name")
		val, _ := s.Attr("value")
		if name != "_csrf" && form.Get(name) == "" {
			form.Set(name, val)
		}
	})
	return form
}
