package main

import (
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/PuerkitoBio/goquery"
)

// client is one browser: a cookie jar, no redirects followed.
type client struct {
	base string
	hc   *http.Client
}

func (p *probe) newClient() *client {
	jar, _ := cookiejar.New(nil)
	return &client{base: p.base, hc: &http.Client{Jar: jar, Timeout: 60 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

type answer struct {
	code int
	body string
	hdr  http.Header
	err  error
}

func (c *client) do(method, path string, form url.Values, hdr map[string]string) answer {
	var body io.Reader
	if form != nil {
		if form.Get("_csrf") == "" {
			form.Set("_csrf", c.csrf())
		}
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, c.base+path, body)
	if err != nil {
		return answer{err: err}
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", c.base)
		req.Header.Set("Sec-Fetch-Site", "same-origin")
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return answer{err: err}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return answer{code: resp.StatusCode, body: string(b), hdr: resp.Header, err: err}
}

func (c *client) get(path string) answer { return c.do(http.MethodGet, path, nil, nil) }

func (c *client) post(path string, form url.Values) answer {
	return c.do(http.MethodPost, path, form, nil)
}

func (c *client) csrf() string {
	u, _ := url.Parse(c.base)
	for range 2 {
		for _, ck := range c.hc.Jar.Cookies(u) {
			if ck.Name == "kisen_csrf" {
				return ck.Value
			}
		}
		c.get("/")
	}
	return ""
}

// must posts and wants a 303; it returns the Location.
func (c *client) must(path string, form url.Values) (string, error) {
	a := c.post(path, form)
	if a.err != nil {
		return "", a.err
	}
	if a.code != http.StatusSeeOther {
		return "", fmt.Errorf("POST %s: %d %s", path, a.code, snippet(a.body))
	}
	return a.hdr.Get("Location"), nil
}

func snippet(body string) string {
	d, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		return body
	}
	var errs []string
	d.Find(`[data-testid^="error-"]`).Each(func(_ int, s *goquery.Selection) {
		errs = append(errs, s.AttrOr("data-testid", "")+": "+strings.TrimSpace(s.Text()))
	})
	if len(errs) > 0 {
		return strings.Join(errs, "; ")
	}
	t := strings.Join(strings.Fields(d.Find("main").Text()), " ")
	if t == "" {
		t = strings.Join(strings.Fields(d.Text()), " ")
	}
	if len(t) > 300 {
		t = t[:300]
	}
	return t
}

// shown returns the hidden fields of the form found at sel on the page.
func (c *client) shown(path, sel string) (url.Values, *goquery.Selection, error) {
	a := c.get(path)
	if a.err != nil || a.code != 200 {
		return nil, nil, fmt.Errorf("GET %s: %d %v", path, a.code, a.err)
	}
	d, err := goquery.NewDocumentFromReader(strings.NewReader(a.body))
	if err != nil {
		return nil, nil, err
	}
	f := d.Find(sel).First()
	if f.Length() == 0 {
		return nil, nil, fmt.Errorf("%s: no %s", path, sel)
	}
	if !f.Is("form") {
		if in := f.Find("form"); in.Length() > 0 {
			f = in.First()
		} else {
			f = f.Closest("form")
		}
	}
	v := url.Values{}
	f.Find(`input[type="hidden"]`).Each(func(_ int, s *goquery.Selection) {
		if n := s.AttrOr("name", ""); n != "_csrf" {
			v.Set(n, s.AttrOr("value", ""))
		}
	})
	return v, f, nil
}

func clone(v url.Values) url.Values {
	out := url.Values{}
	for k, vs := range v {
		out[k] = append([]string(nil), vs...)
	}
	return out
}

// race posts forms[i] from n goroutines released together and counts the
// status codes.
func (c *client) race(path string, forms []url.Values) (map[int]int, []answer) {
	out := make([]answer, len(forms))
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i, f := range forms {
		f.Set("_csrf", c.csrf())
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			out[i] = c.post(path, f)
		}()
	}
	close(start)
	wg.Wait()
	codes := map[int]int{}
	for _, a := range out {
		if a.err != nil {
			codes[-1]++
			continue
		}
		if a.code == http.StatusConflict && !strings.Contains(a.body, `data-testid="stale-title"`) {
			codes[4090]++ // a 409 that is not the stale-result page
			continue
		}
		codes[a.code]++
	}
	return codes, out
}

func codesText(m map[int]int) string {
	var ks []int
	for k := range m {
		ks = append(ks, k)
	}
	sort.Ints(ks)
	var parts []string
	for _, k := range ks {
		name := strconv.Itoa(k)
		switch k {
		case -1:
			name = "transport error"
		case 4090:
			name = "409 (not the stale page)"
		case http.StatusConflict:
			name = "409 (stale page)"
		}
		parts = append(parts, fmt.Sprintf("%d × %s", m[k], name))
	}
	return strings.Join(parts, ", ")
}

func idOf(loc, prefix string) string {
	s := strings.TrimPrefix(loc, prefix)
	if i := strings.IndexAny(s, "/?#"); i >= 0 {
		s = s[:i]
	}
	return s
}

func (c *client) shownOptions(path, sel string) ([]string, *goquery.Document, error) {
	a := c.get(path)
	if a.code != 200 {
		return nil, nil, fmt.Errorf("GET %s: %d", path, a.code)
	}
	d, err := goquery.NewDocumentFromReader(strings.NewReader(a.body))
	if err != nil {
		return nil, nil, err
	}
	var out []string
	d.Find(sel).Each(func(_ int, s *goquery.Selection) {
		if v := s.AttrOr("value", ""); v != "" {
			out = append(out, v)
		}
	})
	return out, d, nil
}

func pageText(c *client, path, sel string) string {
	a := c.get(path)
	d, err := goquery.NewDocumentFromReader(strings.NewReader(a.body))
	if err != nil {
		return ""
	}
	return strings.Join(strings.Fields(d.Find(sel).Text()), " ")
}

// storable is a refused text's status and the field its page names.
func storable(a answer) string {
	d, err := goquery.NewDocumentFromReader(strings.NewReader(a.body))
	if err != nil {
		return strconv.Itoa(a.code)
	}
	f := d.Find(`[data-testid="unstorable-field"]`).Text()
	if i := strings.Index(f, "「"); i >= 0 {
		if j := strings.Index(f[i:], "」"); j > 0 {
			return fmt.Sprintf("%d naming %s", a.code, f[i:i+j+len("」")])
		}
	}
	if f = strings.TrimSpace(f); f != "" {
		return fmt.Sprintf("%d naming %q", a.code, f)
	}
	return strconv.Itoa(a.code)
}
