package handlers

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// BenchmarkChallengeBannerPoll serves the banner's poll of a player with
// one challenge open, as every page of theirs sends it every 2 s: unchanged
// (204), and changed (the banner drawn), and a page (the rules) that
// draws the banner in its layout.
func BenchmarkChallengeBannerPoll(b *testing.B) {
	e := newServer()
	send := func(jar map[string]*http.Cookie, method, target string, form url.Values, hx bool) *httptest.ResponseRecorder {
		c := &client{e: e, jar: jar}
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, c.request(method, target, form, hx))
		for _, ck := range rec.Result().Cookies() {
			jar[ck.Name] = ck
		}
		return rec
	}
	ann, bob := map[string]*http.Cookie{}, map[string]*http.Cookie{}
	for name, jar := range map[string]map[string]*http.Cookie{"Ann": ann, "Bob": bob} {
		if rec := send(jar, http.MethodPost, "/account", vals("name", name, "password", secret), false); rec.Code >= 400 {
			b.Fatalf("naming %s: %d", name, rec.Code)
		}
	}
	if rec := send(ann, http.MethodPost, "/challenges/new", vals("dest", "Bob"), false); rec.Code != http.StatusSeeOther {
		b.Fatalf("challenging: %d", rec.Code)
	}
	body := send(bob, http.MethodGet, "/challenges/incoming?have=", nil, true).Body.String()
	id := between(body, `data-challenge="`, `"`)
	if id == "" {
		b.Fatalf("no challenge in %s", body)
	}
	for _, c := range []struct {
		name, path string
		hx         bool
		code       int
	}{
		{"unchanged", "/challenges/incoming?have=" + id, true, http.StatusNoContent},
		{"changed", "/challenges/incoming?have=", true, http.StatusOK},
		{"page", "/rules", false, http.StatusOK},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if rec := send(bob, http.MethodGet, c.path, nil, c.hx); rec.Code != c.code || c.name == "page" && !strings.Contains(rec.Body.String(), id) {
					b.Fatal(rec.Code)
				}
			}
		})
	}
}
