package kit

import (
	"strings"

	"github.com/banchess/banchess/rules"
	"github.com/labstack/echo/v4"
)

func IsHX(c echo.Context) bool {
	h := c.Request().Header
	return h.Get("HX-Request") == "true" && h.Get("HX-History-Restore-Request") != "true"
}

// validID reports whether id could name a game: URL-safe and short.
func ValidID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// trimText shortens input that a message echoes to rules.MaxQuote
// characters, or to max when given, as for a log (see rules.ClipTo).
func TrimText(s string, max ...int) string {
	if len(max) > 0 {
		return rules.ClipTo(s, max[0])
	}
	return rules.Clip(s)
}

// isAPI reports whether the request is for the JSON API, whose failures
// are JSON rather than pages.
func IsAPI(c echo.Context) bool {
	p := c.Request().URL.Path
	return p == "/api" || strings.HasPrefix(p, "/api/")
}
