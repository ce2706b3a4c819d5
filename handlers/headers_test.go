package handlers

import (
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/banchess/banchess/rules"
)

// documentHeaders are the headers only documents carry.
var documentHeaders = []string{"Content-Security-Policy", "X-Frame-Options", "Referrer-Policy", "Cross-Origin-Opener-Policy", "Permissions-Policy"}

// TestHeadersOnlyDocumentsNeed: a page and an SVG image carry the policy
// of what they may load and who may frame them; an htmx fragment or
// delta, an API answer and /healthz carry none of it (the page that asked
// for a fragment has it), all of them nosniff; and a ply's delta comes
// with few headers in all.
func TestHeadersOnlyDocumentsNeed(t *testing.T) {
	c := newClient(t)
	c.start()
	page := c.do(http.MethodGet, c.page(), nil, false)
	delta := c.do(http.MethodPost, c.path("ply"), vals("from", "e2", "to", "e4", "ply", "1"), true)
	fragment := c.do(http.MethodPost, c.path("undo"), vals("ply", "2"), true)
	image := c.do(http.MethodGet, imageURL(rules.StartFEN, "svg", ""), nil, false)
	api := c.do(http.MethodGet, "/api/games/"+c.id, nil, false)
	health := c.do(http.MethodGet, "/healthz", nil, false)
	if delta.Header().Get("Delta-Ply") == "" || fragment.Header().Get("Delta-Ply") != "" {
		t.Fatalf("the ply answered no delta (%v) or the undo one (%v)", delta.Header(), fragment.Header())
	}
	for _, tt := range []struct {
		name     string
		code     int
		h        http.Header
		document bool
	}{
		{"page", page.Code, page.Header(), true},
		{"svg image", image.Code, image.Header(), true},
		{"delta", delta.Code, delta.Header(), false},
		{"fragment", fragment.Code, fragment.Header(), false},
		{"api", api.Code, api.Header(), false},
		{"healthz", health.Code, health.Header(), false},
	} {
		if tt.code != http.StatusOK {
			t.Errorf("%s: %d", tt.name, tt.code)
		}
		if tt.h.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: no nosniff: %v", tt.name, tt.h)
		}
		for _, name := range documentHeaders {
			if has := tt.h.Get(name) != ""; has != tt.document {
				t.Errorf("%s: %s present %v, want %v", tt.name, name, has, tt.document)
			}
		}
	}
	size := 0
	for name, vs := range delta.Header() {
		size += len(name) + len(": \r\n") + len(strings.Join(vs, ", "))
	}
	if size > 300 {
		t.Errorf("a ply's delta has %d bytes of headers, want at most 300: %v", size, delta.Header())
	}
}

// TestStrictTransportSecurity: over HTTPS — TLS, or a trusted proxy
// saying the client used it — every answer tells the browser to keep to
// HTTPS for a year (not its subdomains: the server does not know them);
// over plain HTTP, or on an X-Forwarded-Proto nobody vouches for, none
// does.
func TestStrictTransportSecurity(t *testing.T) {
	const proxy, public = "10.0.0.1:1000", "192.0.2.1:1000"
	tests := []struct {
		name   string
		trust  bool
		remote string
		tls    bool
		proto  string
		hsts   bool
	}{
		{"plain http", false, public, false, "", false},
		{"tls", false, public, true, "", true},
		{"trusted proxy, https", true, proxy, false, "https", true},
		{"trusted proxy, http", true, proxy, false, "http", false},
		{"trusted proxy, no header", true, proxy, false, "", false},
		{"X-Forwarded-Proto without --trust-proxy", false, proxy, false, "https", false},
		{"X-Forwarded-Proto from a public address", true, public, false, "https", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := limited(newTestClock(), WithTrustProxy(tt.trust))
			for _, target := range []string{"/", "/healthz", "/api/games/nothing", "/static/nothing"} {
				req := httptest.NewRequest(http.MethodGet, target, nil)
				req.RemoteAddr = tt.remote
				if tt.tls {
					req.TLS = &tls.ConnectionState{}
				}
				if tt.proto != "" {
					req.Header.Set("X-Forwarded-Proto", tt.proto)
				}
				rec := httptest.NewRecorder()
				e.ServeHTTP(rec, req)
				got := rec.Header().Values("Strict-Transport-Security")
				switch {
				case tt.hsts && (len(got) != 1 || got[0] != "max-age=31536000"):
					t.Errorf("GET %s (%d): Strict-Transport-Security %q, want max-age=31536000", target, rec.Code, got)
				case !tt.hsts && len(got) > 0:
					t.Errorf("GET %s (%d): Strict-Transport-Security %q over plain HTTP", target, rec.Code, got)
				}
			}
		})
	}
}
