package pages

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/andybalholm/brotli"
	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/static"
)

// AssetVersion hashes the embedded static files: page links carry it, so a
// new binary's assets are never mixed with a browser's cached old ones.
func AssetVersion() string {
	h := sha256.New()
	_ = fs.WalkDir(static.FS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(static.FS, path)
		if err != nil {
			return err
		}
		h.Write([]byte(path))
		h.Write(b)
		return nil
	})
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// StaticFiles are the embedded assets, each read and compressed (gzip and
// brotli, at their best compression) once, when first asked for. They are
// the same for every Server of a process, which may share them
// (WithStaticFiles): compressing them all takes about 1.6 s of CPU, and
// 12 s under the race detector.
type StaticFiles struct {
	mu    sync.Mutex
	files map[string]*staticFile
}

// NewStaticFiles returns the embedded assets, none read yet.
func NewStaticFiles() *StaticFiles { return &StaticFiles{files: map[string]*staticFile{}} }

// staticFile is one asset and its encodings; gz and br are nil when they
// would not be smaller.
type staticFile struct {
	once        sync.Once
	plain       []byte
	gz, br      []byte
	ctype, etag string
	missing     bool
	name        string
}

// get returns the asset at name, nil when there is none.
func (s *StaticFiles) get(name string) *staticFile {
	s.mu.Lock()
	f, ok := s.files[name]
	if !ok {
		if info, err := fs.Stat(static.FS, name); err != nil || info.IsDir() {
			s.mu.Unlock()
			return nil
		}
		f = &staticFile{name: name}
		s.files[name] = f
	}
	s.mu.Unlock()
	f.once.Do(f.load)
	if f.missing {
		return nil
	}
	return f
}

// load reads the asset and compresses it.
func (f *staticFile) load() {
	b, err := fs.ReadFile(static.FS, f.name)
	if err != nil {
		f.missing = true
		return
	}
	b = AsServed(f.name, b)
	f.plain = b
	f.ctype = mime.TypeByExtension(path.Ext(f.name))
	if f.ctype == "" {
		f.ctype = http.DetectContentType(b)
	}
	sum := sha256.Sum256(b)
	f.etag = hex.EncodeToString(sum[:8])
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	_, _ = zw.Write(b)
	_ = zw.Close()
	if gz.Len() < len(b) {
		f.gz = gz.Bytes()
	}
	var br bytes.Buffer
	bw := brotli.NewWriterLevel(&br, brotli.BestCompression)
	_, _ = bw.Write(b)
	_ = bw.Close()
	if br.Len() < len(b) {
		f.br = br.Bytes()
	}
}

// AsServed is the static file name, which holds b, as it is served
// (before compression): our scripts are stripped (strippedJS).
func AsServed(name string, b []byte) []byte {
	if strings.HasSuffix(name, ".js") && !strings.HasSuffix(name, ".min.js") {
		return strippedJS(b)
	}
	return b
}

// strippedJS is one of our scripts as it is served: without its comment
// lines, its indentation or its blank lines, which are for its readers (a
// fifth of the first visit's scripts, compressed). Our scripts have no
// string or template that spans lines, so no line's start is in one.
func strippedJS(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for line := range bytes.Lines(b) {
		t := bytes.TrimLeft(line, " \t")
		if len(bytes.TrimSpace(t)) == 0 || bytes.HasPrefix(t, []byte("//")) {
			continue
		}
		out = append(out, t...)
	}
	return out
}

// accepts reports whether an Accept-Encoding header value accepts coding
// (a q of 0 refuses it; "*" accepts any coding not named).
func accepts(header, coding string) bool {
	star := false
	for part := range strings.SplitSeq(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		name = strings.ToLower(strings.TrimSpace(name))
		ok := true
		if q, found := strings.CutPrefix(strings.TrimSpace(params), "q="); found {
			v, err := strconv.ParseFloat(q, 64)
			ok = err == nil && v > 0
		}
		switch name {
		case coding:
			return ok
		case "*":
			star = ok
		}
	}
	return star
}

// static serves an embedded asset, brotli or gzip encoded when the client
// accepts it, with an ETag per encoding (If-None-Match answers 304);
// versioned URLs are cached for good.
func (p *site) static(c echo.Context) error {
	f := p.s.files.get(c.Param("*"))
	if f == nil {
		return kit.Titled(languageOf(c).T("error.title.pageNotFound"), &errs.Error{Code: errs.NotFound, Msg: "There is no such file."})
	}
	h := c.Response().Header()
	if c.QueryParam("v") == p.s.asset {
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	body, coding := f.plain, ""
	if f.gz != nil || f.br != nil {
		h.Add("Vary", "Accept-Encoding")
		ae := c.Request().Header.Get("Accept-Encoding")
		switch {
		case f.br != nil && accepts(ae, "br"):
			body, coding = f.br, "br"
		case f.gz != nil && accepts(ae, "gzip"):
			body, coding = f.gz, "gzip"
		}
	}
	h.Set("Content-Type", f.ctype)
	if coding != "" {
		h.Set("Content-Encoding", coding)
		h.Set("ETag", `"`+f.etag+"-"+coding+`"`)
	} else {
		h.Set("ETag", `"`+f.etag+`"`)
	}
	http.ServeContent(c.Response(), c.Request(), f.name, time.Time{}, bytes.NewReader(body))
	return nil
}
