package handlers

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
)

// sessionCookie names the browser's current game. It is the only state the
// browser holds.
const sessionCookie = "banchess_game"

// sessionGame returns the game id the request's session names, or "": the
// game this request started, if any, else the cookie's.
func sessionGame(c echo.Context) string {
	if id, ok := c.Get(sessionCookie).(string); ok {
		return id
	}
	ck, err := c.Cookie(sessionCookie)
	if err != nil || len(ck.Value) > 64 {
		return ""
	}
	return ck.Value
}

// setSessionGame makes id the session's current game. secure marks the
// cookie for HTTPS only.
func setSessionGame(c echo.Context, id string, secure bool) {
	c.Set(sessionCookie, id)
	c.SetCookie(&http.Cookie{
		Name:     sessionCookie,
		Value:    id,
		Path:     "/",
		MaxAge:   int((30 * 24 * time.Hour).Seconds()),
		HttpOnly: true,
		Secure:   secure,
		SameSite: http.SameSiteLaxMode,
	})
}
