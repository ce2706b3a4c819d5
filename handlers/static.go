package handlers

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/static"
)

// assetVersion hashes the embedded static files: page links carry it, so a
// new binary's assets are never mixed with a browser's cached old ones.
func assetVersion() string {
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

// static serves an embedded asset; versioned URLs are cached for good.
func (p *pages) static(c echo.Context) error {
	name := c.Param("*")
	if info, err := fs.Stat(static.FS, name); err != nil || info.IsDir() {
		return refuse(c, http.StatusNotFound, "Not found", "There is no such file.")
	}
	if c.QueryParam("v") == p.asset {
		c.Response().Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		c.Response().Header().Set("Cache-Control", "no-cache")
	}
	http.ServeFileFS(c.Response(), c.Request(), static.FS, name)
	return nil
}
