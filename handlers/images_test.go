package handlers

import (
	"bytes"
	"image/png"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/rules"
)

// imageURL is the address of fen's image with the query q.
func imageURL(fen, ext, q string) string {
	u := kit.ImagePrefix + url.PathEscape(fen) + "." + ext
	if q != "" {
		u += "?" + q
	}
	return u
}

func getImage(t *testing.T, target string, header ...string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, target, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	newServer().ServeHTTP(rec, req)
	return rec
}

func TestImages(t *testing.T) {
	banned := "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 4:d7d5"
	for _, tc := range []struct {
		name, target, typ string
		size              int // PNG only
	}{
		{"png, default size", imageURL(rules.StartFEN, "png", ""), "image/png", 512},
		{"png, small, flipped, last", imageURL(banned, "png", "size=128&flip=1&last=e2e4"), "image/png", 128},
		{"png, underscores", kit.ImagePrefix + strings.ReplaceAll(banned, " ", "_") + ".png?size=200", "image/png", 200},
		{"svg", imageURL(banned, "svg", "ban=-"), "image/svg+xml", 0},
		{"unescaped slashes", kit.ImagePrefix + strings.ReplaceAll(rules.StartFEN, " ", "%20") + ".svg", "image/svg+xml", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := getImage(t, tc.target)
			if rec.Code != http.StatusOK {
				t.Fatalf("%s: %d %s", tc.target, rec.Code, rec.Body)
			}
			h := rec.Header()
			if h.Get("Content-Type") != tc.typ || !strings.Contains(h.Get("Cache-Control"), "immutable") || h.Get("ETag") == "" {
				t.Errorf("headers %v", h)
			}
			if tc.size > 0 {
				img, err := png.Decode(bytes.NewReader(rec.Body.Bytes()))
				if err != nil || img.Bounds().Dx() != tc.size {
					t.Errorf("PNG: %v, %v", err, img.Bounds())
				}
			}
			again := getImage(t, tc.target, "If-None-Match", h.Get("ETag"))
			if again.Code != http.StatusNotModified || again.Body.Len() != 0 {
				t.Errorf("If-None-Match: %d, %d bytes", again.Code, again.Body.Len())
			}
		})
	}
}

func TestImageRefusals(t *testing.T) {
	for _, tc := range []struct {
		target string
		code   int
		want   string
	}{
		{imageURL(rules.StartFEN, "gif", ""), http.StatusNotFound, ".svg or .png"},
		{imageURL("nonsense", "png", ""), http.StatusBadRequest, "FEN"},
		{imageURL(rules.StartFEN, "png", "size=2000"), http.StatusBadRequest, "128 to 1024"},
		{imageURL(rules.StartFEN, "png", "size=x"), http.StatusBadRequest, "128 to 1024"},
		{imageURL(rules.StartFEN, "png", "flip=yes"), http.StatusBadRequest, "flip=1"},
		{imageURL(rules.StartFEN, "png", "last=e2"), http.StatusBadRequest, "two squares"},
		{imageURL(rules.StartFEN, "png", "ban=e2e2"), http.StatusBadRequest, "two squares"},
		{imageURL(rules.StartFEN+" 1:e2e5", "svg", ""), http.StatusBadRequest, "no ban can be in force"},
	} {
		rec := getImage(t, tc.target)
		if rec.Code != tc.code || !strings.Contains(rec.Body.String(), tc.want) {
			t.Errorf("%s: %d, want %d with %q: %s", tc.target, rec.Code, tc.code, tc.want, rec.Body)
		}
	}
}

// FuzzImage: no image address makes the server fail.
func FuzzImage(f *testing.F) {
	for _, s := range []string{
		imageURL(rules.StartFEN, "png", "size=128"),
		imageURL("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 4:d7d5", "svg", "last=e2e4&flip=1"),
		"/img/8_8_8.png", "/img/.svg", "/img/%zz.png", "/img/" + strings.Repeat("K", 500) + ".svg?ban=a1h8",
	} {
		f.Add(s)
	}
	e := newServer()
	f.Fuzz(func(t *testing.T, target string) {
		if !strings.HasPrefix(target, kit.ImagePrefix) || strings.ContainsAny(target, " \n\r#") || len(target) > 2000 {
			return
		}
		req, err := http.NewRequest(http.MethodGet, target, nil)
		if err != nil {
			return
		}
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("%s: %d %s", target, rec.Code, rec.Body)
		}
	})
}
