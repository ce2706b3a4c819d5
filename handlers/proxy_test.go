package handlers

import (
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/banchess/banchess/handlers/kit"
)

// TestTrustProxy: without WithTrustProxy a client cannot dodge the rate
// limit by sending X-Forwarded-For; with it, the address the proxy names is
// the client.
func TestTrustProxy(t *testing.T) {
	oneEach := WithLimits(kit.Limits{PostsPerSecond: 1, PostBurst: 1})
	post := func(remote, xff string) hit {
		h := hit{method: http.MethodPost, target: "/api/games", json: "{}", remote: remote}
		if xff != "" {
			h.header = map[string]string{"X-Forwarded-For": xff}
		}
		return h
	}
	tests := []struct {
		name  string
		trust bool
		hits  []hit
		codes []int
	}{
		{"spoofed header ignored", false,
			[]hit{post("192.0.2.1:1000", "203.0.113.1"), post("192.0.2.1:1001", "203.0.113.2")},
			[]int{http.StatusCreated, http.StatusTooManyRequests}},
		{"spoofed header ignored from a private address", false,
			[]hit{post("10.0.0.1:1000", "203.0.113.1"), post("10.0.0.1:1001", "203.0.113.2")},
			[]int{http.StatusCreated, http.StatusTooManyRequests}},
		{"proxy names two clients", true,
			[]hit{post("10.0.0.1:1000", "203.0.113.1"), post("10.0.0.1:1001", "203.0.113.2")},
			[]int{http.StatusCreated, http.StatusCreated}},
		{"proxy names one client twice", true,
			[]hit{post("127.0.0.1:1000", "203.0.113.1"), post("10.0.0.1:1001", "198.51.100.9, 203.0.113.1")},
			[]int{http.StatusCreated, http.StatusTooManyRequests}},
		{"a public address is no proxy", true,
			[]hit{post("192.0.2.1:1000", "203.0.113.1"), post("192.0.2.1:1001", "203.0.113.2")},
			[]int{http.StatusCreated, http.StatusTooManyRequests}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := limited(newTestClock(), oneEach, WithTrustProxy(tt.trust))
			for i, h := range tt.hits {
				if rec := h.serve(t, e); rec.Code != tt.codes[i] {
					t.Errorf("request %d: %d, want %d: %s", i+1, rec.Code, tt.codes[i], rec.Body)
				}
			}
		})
	}
}

// TestSecureCookie: the credential cookie is Secure, and named with the
// __Host- prefix (Path=/, no Domain), over TLS, behind a trusted proxy
// that says the client used HTTPS, or with an https base URL; never on a
// header alone (issue 45, item 8). The share and watch links take the same
// scheme.
func TestSecureCookie(t *testing.T) {
	const proxy, public = "10.0.0.1:1000", "192.0.2.1:1000"
	tests := []struct {
		name   string
		trust  bool
		remote string
		tls    bool
		proto  string
		base   string
		secure bool
	}{
		{"plain http", false, proxy, false, "", "", false},
		{"tls", false, public, true, "", "", true},
		{"untrusted X-Forwarded-Proto", false, proxy, false, "https", "", false},
		{"trusted X-Forwarded-Proto", true, proxy, false, "https", "", true},
		{"X-Forwarded-Proto from a public address", true, public, false, "https", "", false},
		{"trusted proxy over http", true, proxy, false, "http", "", false},
		{"trusted proxy, no header", true, proxy, false, "", "", false},
		{"an https base URL", false, proxy, false, "", "https://chess.example.com", true},
		{"an http base URL", false, proxy, false, "", "http://chess.example.com", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := limited(newTestClock(), WithTrustProxy(tt.trust), WithBaseURL(tt.base))
			get := func(target string, cookie *http.Cookie) *httptest.ResponseRecorder {
				req := httptest.NewRequest(http.MethodGet, target, nil)
				req.RemoteAddr = tt.remote
				if tt.base != "" {
					req.Host = "chess.example.com" // the base URL's: another is refused (421)
				}
				if tt.tls {
					req.TLS = &tls.ConnectionState{}
				}
				if tt.proto != "" {
					req.Header.Set("X-Forwarded-Proto", tt.proto)
				}
				if cookie != nil {
					req.AddCookie(cookie)
				}
				rec := httptest.NewRecorder()
				e.ServeHTTP(rec, req)
				return rec
			}
			rec := get("/?fen="+url.QueryEscape("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), nil) // a link that opens a game
			ck := playerOf(rec)
			if ck == nil {
				t.Fatalf("no credential cookie: %d", rec.Code)
			}
			if ck.Secure != tt.secure || !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode || ck.Path != "/" || ck.Domain != "" {
				t.Errorf("cookie Secure %v HttpOnly %v SameSite %v Path %q Domain %q, want Secure %v", ck.Secure, ck.HttpOnly, ck.SameSite, ck.Path, ck.Domain, tt.secure)
			}
			if want := map[bool]string{true: kit.HostPrefix + kit.PlayerCookie, false: kit.PlayerCookie}[tt.secure]; ck.Name != want {
				t.Errorf("cookie %s, want %s", ck.Name, want)
			}
			loc := rec.Header().Get("Location")
			if rec = get(loc+"?export=1", ck); rec.Code != http.StatusOK {
				t.Fatalf("GET %s: %d", loc, rec.Code)
			}
			d := parse(t, rec)
			scheme := "http://"
			if tt.secure {
				scheme = "https://"
			}
			for _, sel := range []string{"#share", "[data-watch-link]"} {
				if link, _ := d.Find(sel).Attr("value"); !strings.HasPrefix(link, scheme) {
					t.Errorf("%s link %q, want %s…", sel, link, scheme)
				}
			}
		})
	}
}
