package site

import (
	"net"
	"net/http/httptest"
	"testing"

	"github.com/labstack/echo/v4"
)

// Issue 11: X-Forwarded-For names the client only when the direct peer is
// a trusted proxy (--trusted-proxies); otherwise the TCP peer counts, so a
// client cannot rotate the header to escape the per-address sign-in limit.
func TestClientIP_ForwardedOnlyFromTrustedProxies(t *testing.T) {
	t.Parallel()
	_, proxies, _ := net.ParseCIDR("10.0.0.0/8")
	for _, tc := range []struct {
		name    string
		trusted []*net.IPNet
		peer    string
		xff     string
		want    string
	}{
		{"no proxy configured: the header is ignored", nil, "10.0.0.1:5000", "198.51.100.9", "10.0.0.1"},
		{"trusted peer: the client it forwards for", []*net.IPNet{proxies}, "10.0.0.1:5000", "198.51.100.9", "198.51.100.9"},
		{"trusted chain: the right-most untrusted address", []*net.IPNet{proxies}, "10.0.0.1:5000", "192.0.2.66, 198.51.100.9, 10.0.0.2", "198.51.100.9"},
		{"untrusted peer: its header is ignored", []*net.IPNet{proxies}, "203.0.113.1:5000", "198.51.100.9", "203.0.113.1"},
		{"loopback is not trusted unless listed", []*net.IPNet{proxies}, "127.0.0.1:5000", "198.51.100.9", "127.0.0.1"},
	} {
		e := echo.New()
		e.IPExtractor = IPExtractor(tc.trusted)
		req := httptest.NewRequest("POST", "/login", nil)
		req.RemoteAddr = tc.peer
		req.Header.Set("X-Forwarded-For", tc.xff)
		c := e.NewContext(req, httptest.NewRecorder())
		if got := c.RealIP(); got != tc.want {
			t.Errorf("%s: client %q, want %q", tc.name, got, tc.want)
		}
	}
}
