package handlers

import (
	"bytes"
	"image/png"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

func meta(d *goquery.Document, key string) string {
	v, _ := d.Find(`meta[property="` + key + `"], meta[name="` + key + `"]`).Attr("content")
	return v
}

// TestLinkPreviews: a game page and a history view carry Open Graph and
// Twitter tags whose image is the position's PNG at the server's base URL,
// whatever scheme the request came by.
func TestLinkPreviews(t *testing.T) {
	c := newClientOn(t, newServerOn(nil, WithBaseURL("https://chess.example.com")))
	c.host = "chess.example.com"
	c.start()
	c.post(c.path("ply"), url.Values{"text": {"b:d2d4"}})
	c.post(c.path("ply"), url.Values{"text": {"e2e4"}})
	d := c.post(c.path("ply"), url.Values{"text": {"b:d7d5"}})

	for _, tc := range []struct {
		name  string
		doc   *goquery.Document
		title string
		url   string
	}{
		{"game page", d, "Move 1 · Black to move — d7→d5 is banned", "https://chess.example.com" + c.page()},
		{"history view", c.get(c.page() + "/history/2"), "Move 1 · White played e4", "https://chess.example.com" + c.page() + "/history/2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := meta(tc.doc, "og:title"); got != tc.title || meta(tc.doc, "twitter:title") != tc.title {
				t.Errorf("og:title %q, want %q", got, tc.title)
			}
			if got := meta(tc.doc, "og:url"); got != tc.url {
				t.Errorf("og:url %q, want %q", got, tc.url)
			}
			if got := meta(tc.doc, "og:description"); got != "Ban Chess · White vs Black · in play, move 1" {
				t.Errorf("og:description %q", got)
			}
			img := meta(tc.doc, "og:image")
			path, ok := strings.CutPrefix(img, "https://chess.example.com/img/")
			if !ok || !strings.Contains(img, "last=e2e4") || meta(tc.doc, "twitter:card") != "summary_large_image" {
				t.Fatalf("og:image %q", img)
			}
			rec := getImage(t, "/img/"+path)
			if rec.Code != http.StatusOK {
				t.Fatalf("GET %s: %d %s", img, rec.Code, rec.Body)
			}
			p, err := png.Decode(bytes.NewReader(rec.Body.Bytes()))
			if err != nil || p.Bounds().Dx() != 600 || meta(tc.doc, "og:image:width") != "600" {
				t.Errorf("the preview image: %v, %v", err, p.Bounds())
			}
		})
	}
}

// TestPreviewFromRequest: without a base URL the preview's URLs are the
// request's; the fragments htmx swaps carry none.
func TestPreviewFromRequest(t *testing.T) {
	c := newClient(t)
	d := c.start()
	if img := meta(d, "og:image"); !strings.HasPrefix(img, "http://example.com/img/") {
		t.Errorf("og:image %q", img)
	}
	rec := c.do(http.MethodPost, c.path("ply"), url.Values{"text": {"b:e2e4"}}, true)
	if rec.Code != http.StatusOK || strings.Contains(rec.Body.String(), "og:title") {
		t.Errorf("a fragment (%d) carries preview tags", rec.Code)
	}
}
