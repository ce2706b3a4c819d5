package handlers

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"

	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/handlers/pages"
	"github.com/banchess/banchess/internal/race"
	"github.com/banchess/banchess/static"
)

// decode undoes a Content-Encoding.
func decode(t *testing.T, coding string, body []byte) []byte {
	t.Helper()
	var r io.Reader = bytes.NewReader(body)
	switch coding {
	case "":
		return body
	case "gzip":
		zr, err := gzip.NewReader(r)
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	case "br":
		r = brotli.NewReader(r)
	default:
		t.Fatalf("Content-Encoding %q", coding)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("decoding %s: %v", coding, err)
	}
	return out
}

// TestStaticEncodings fetches every static file with each Accept-Encoding:
// the coding chosen is the best the client accepts, the answer decodes to
// the file as served (pages.AsServed), each coding has its own ETag, which
// If-None-Match answers with 304, and the answers vary on Accept-Encoding.
func TestStaticEncodings(t *testing.T) {
	e := newServer()
	tests := []struct{ accept, want string }{
		{"", ""},
		{"gzip", "gzip"},
		{"gzip, deflate, br, zstd", "br"},
		{"br;q=0, gzip;q=0.5", "gzip"},
		{"gzip;q=0", ""},
		{"*", "br"},
		{"identity", ""},
	}
	// Compressing every file at the best levels is one goroutine's work,
	// ten times slower under the race detector: there a sample of files
	// (CI checks them all without it).
	files := 0
	err := fs.WalkDir(static.FS, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if files++; race.Enabled && files%4 != 1 {
			return nil
		}
		file, _ := fs.ReadFile(static.FS, name)
		plain := pages.AsServed(name, file)
		text := !strings.HasSuffix(name, ".png")
		etags := map[string]string{}
		for _, tt := range tests {
			req := httptest.NewRequest(http.MethodGet, "/static/"+name, nil)
			req.Header.Set("Accept-Encoding", tt.accept)
			rec := httptest.NewRecorder()
			e.ServeHTTP(rec, req)
			h := rec.Header()
			coding := h.Get("Content-Encoding")
			if rec.Code != http.StatusOK || (text && coding != tt.want) {
				t.Errorf("%s with %q: %d, coding %q, want %q", name, tt.accept, rec.Code, coding, tt.want)
			}
			if got := decode(t, coding, rec.Body.Bytes()); !bytes.Equal(got, plain) {
				t.Errorf("%s with %q: decodes to %d bytes, want the file's %d", name, tt.accept, len(got), len(plain))
			}
			if text && !strings.Contains(strings.Join(h.Values("Vary"), ","), "Accept-Encoding") {
				t.Errorf("%s: Vary %q", name, h.Values("Vary"))
			}
			etag := h.Get("ETag")
			if prev, ok := etags[coding]; etag == "" || ok && prev != etag {
				t.Errorf("%s %s: ETag %q, before %q", name, coding, etag, prev)
			}
			etags[coding] = etag
			req.Header.Set("If-None-Match", etag)
			rec = httptest.NewRecorder()
			e.ServeHTTP(rec, req)
			if rec.Code != http.StatusNotModified || rec.Body.Len() != 0 {
				t.Errorf("%s with If-None-Match %s: %d, %d bytes", name, etag, rec.Code, rec.Body.Len())
			}
		}
		if text && len(etags) != 3 {
			t.Errorf("%s: ETags %v, want one per coding", name, etags)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestCompressedAnswers: pages, fragments, deltas and JSON of 1 KB or more
// come gzipped to a client that accepts gzip, and decode to what a client
// that does not gets.
func TestCompressedAnswers(t *testing.T) {
	c := newClient(t)
	c.start()
	c.post(c.path("ply"), vals("text", "e2e4", "ply", "1"))
	c.post(c.path("ply"), vals("text", "d4", "ply", "2"))
	for _, tt := range []struct {
		target string
		hx     bool
	}{
		{c.page(), false},
		{c.page(), true},
		{c.path("delta") + "?ply=1", true},
		{c.path("export"), true},
		{c.path("history/1"), false},
		{"/api/games/" + c.id, false},
		{"/api/games/" + c.id + "/pgn", false},
	} {
		plain := c.do(http.MethodGet, tt.target, nil, tt.hx)
		req := c.request(http.MethodGet, tt.target, nil, tt.hx)
		req.Header.Set("Accept-Encoding", "gzip")
		rec := httptest.NewRecorder()
		c.e.ServeHTTP(rec, req)
		coding := rec.Header().Get("Content-Encoding")
		if want := plain.Body.Len() >= kit.CompressMin; (coding == "gzip") != want || rec.Code != plain.Code {
			t.Errorf("GET %s: %d, %q for %d bytes; want %d, gzip %v", tt.target, rec.Code, coding, plain.Body.Len(), plain.Code, want)
		}
		if got := decode(t, coding, rec.Body.Bytes()); !bytes.Equal(got, plain.Body.Bytes()) {
			t.Errorf("GET %s: the gzipped answer decodes to %d bytes, not the %d of the plain one", tt.target, len(got), plain.Body.Len())
		}
	}
}

// TestHead: HEAD answers every page and static file as GET does, without
// the body.
func TestHead(t *testing.T) {
	c := newClient(t)
	c.start()
	c.post(c.path("ply"), vals("text", "e2e4", "ply", "1"))
	srv := httptest.NewServer(c.e)
	defer srv.Close()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, target := range []string{"/", c.page(), c.page() + "?export=1", c.path("history/1"), c.path("pgn"), c.path("export"), c.path("delta") + "?ply=1",
		"/static/style.css", "/static/htmx.min.js", "/static/pieces/wK.svg", "/healthz", "/nowhere", c.path("history/9")} {
		do := func(method string) (*http.Response, []byte) {
			req, _ := http.NewRequest(method, srv.URL+target, nil)
			req.AddCookie(c.player())
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			return resp, b
		}
		get, body := do(http.MethodGet)
		head, hbody := do(http.MethodHead)
		if head.StatusCode != get.StatusCode || len(hbody) != 0 || head.Header.Get("Content-Type") != get.Header.Get("Content-Type") {
			t.Errorf("HEAD %s: %d, %q, %d bytes; GET: %d, %q", target, head.StatusCode, head.Header.Get("Content-Type"), len(hbody), get.StatusCode, get.Header.Get("Content-Type"))
		}
		if cl := head.Header.Get("Content-Length"); cl != "" && get.ContentLength >= 0 && head.ContentLength != int64(len(body)) {
			t.Errorf("HEAD %s: Content-Length %s, GET's body %d bytes", target, cl, len(body))
		}
	}
}
