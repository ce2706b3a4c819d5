package handlers

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestHostMustBeBaseURLs: with a base URL, a request naming another host
// (or port) in its Host — or in a trusted proxy's X-Forwarded-Host — is
// refused with 421 and says where the server is reached, before it makes
// a player or a game; /healthz answers whatever the Host, for load
// balancers. Without a base URL any Host is served.
func TestHostMustBeBaseURLs(t *testing.T) {
	const base = "https://chess.example.com"
	const proxy, public = "10.0.0.1:1000", "192.0.2.1:1000"
	tests := []struct {
		name      string
		base      string
		trust     bool
		remote    string
		host, xfh string
		ok        bool
	}{
		{"the base's host", base, false, public, "chess.example.com", "", true},
		{"in another case, with a final dot", base, false, public, "CHESS.Example.COM.", "", true},
		{"with a default port", base, false, public, "chess.example.com:443", "", true},
		{"another host", base, false, public, "evil.example", "", false},
		{"another port", base, false, public, "chess.example.com:8443", "", false},
		{"an address", base, false, public, "192.0.2.10:8080", "", false},
		{"no host", base, false, public, "", "", false},
		{"a trusted proxy's X-Forwarded-Host", base, true, proxy, "app1:8080", "chess.example.com", true},
		{"a trusted proxy's other X-Forwarded-Host", base, true, proxy, "chess.example.com", "evil.example", false},
		{"X-Forwarded-Host from a public address", base, true, public, "app1:8080", "chess.example.com", false},
		{"X-Forwarded-Host without --trust-proxy", base, false, proxy, "app1:8080", "chess.example.com", false},
		{"no base URL", "", false, public, "evil.example", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := limited(newTestClock(), WithBaseURL(tt.base), WithTrustProxy(tt.trust))
			send := func(method, target, body string) *httptest.ResponseRecorder {
				req := httptest.NewRequest(method, target, strings.NewReader(body))
				req.Host, req.RemoteAddr = tt.host, tt.remote
				if tt.xfh != "" {
					req.Header.Set("X-Forwarded-Host", tt.xfh)
				}
				if body != "" {
					req.Header.Set("Content-Type", "application/json")
				}
				rec := httptest.NewRecorder()
				e.ServeHTTP(rec, req)
				return rec
			}
			page := send(http.MethodGet, "/", "")
			api := send(http.MethodPost, "/api/games", "{}")
			if health := send(http.MethodGet, "/healthz", ""); health.Code != http.StatusOK {
				t.Errorf("/healthz: %d %s, want 200 whatever the Host", health.Code, health.Body)
			}
			if tt.ok {
				if page.Code != http.StatusOK || api.Code != http.StatusCreated {
					t.Errorf("page %d, API %d %s; want them served", page.Code, api.Code, api.Body)
				}
				return
			}
			if page.Code != http.StatusMisdirectedRequest || !strings.Contains(page.Body.String(), "This server is reached at https://chess.example.com") {
				t.Errorf("page: %d %s, want 421 naming the base URL", page.Code, page.Body)
			}
			var body struct{ Error, Code string }
			if err := json.Unmarshal(api.Body.Bytes(), &body); err != nil || api.Code != http.StatusMisdirectedRequest || body.Code != "misdirected" ||
				!strings.Contains(body.Error, "https://chess.example.com") {
				t.Errorf("API: %d %s, want 421 with code misdirected", api.Code, api.Body)
			}
			for _, rec := range []*httptest.ResponseRecorder{page, api} {
				if ck := rec.Header().Get("Set-Cookie"); ck != "" {
					t.Errorf("a refused request was given a cookie: %s", ck)
				}
			}
		})
	}
}

// TestWarnHostLinks: a server without a base URL that listens where other
// machines reach it warns, in its log, that its links follow the Host
// header; at a loopback address, or with a base URL, it does not.
func TestWarnHostLinks(t *testing.T) {
	tests := []struct {
		base string
		addr net.Addr
		warn bool
	}{
		{"", &net.TCPAddr{IP: net.IPv4zero, Port: 8080}, true},
		{"", &net.TCPAddr{IP: net.IPv6unspecified, Port: 8080}, true},
		{"", &net.TCPAddr{IP: net.ParseIP("192.0.2.1"), Port: 8080}, true},
		{"", &net.TCPAddr{IP: net.ParseIP("127.0.0.1"), Port: 8080}, false},
		{"", &net.TCPAddr{IP: net.IPv6loopback, Port: 8080}, false},
		{"https://chess.example.com", &net.TCPAddr{IP: net.IPv4zero, Port: 8080}, false},
	}
	for _, tt := range tests {
		var log bytes.Buffer
		s := New(newService(nil), nil, WithBaseURL(tt.base), WithLogger(slog.New(slog.NewTextHandler(&log, nil))))
		s.WarnHostLinks(tt.addr)
		warned := strings.Contains(log.String(), "level=WARN") && strings.Contains(log.String(), "--base-url")
		if warned != tt.warn {
			t.Errorf("base %q at %s: warned %v, want %v: %q", tt.base, tt.addr, warned, tt.warn, log.String())
		}
	}
}
