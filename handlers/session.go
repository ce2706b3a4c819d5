package handlers

import (
	"net/http"
	"strings"
	"time"

	"github.com/banchess/banchess/players"

	"github.com/labstack/echo/v4"
)

// playerCookie holds the browser's credential: one secret for all its
// games, which proves the seats it holds. It is HttpOnly, so no script
// reads it; the game ids in URLs are public.
const playerCookie = "banchess_player"

// legacyCookie named the browser's one game before games had addresses
// and seats; its game is claimed for the browser and the cookie dropped.
const legacyCookie = "banchess_game"

// playerMaxAge is how long the browser keeps its credential: as long as
// browsers allow (400 days), renewed on every game it creates.
const playerMaxAge = 400 * 24 * time.Hour

// player returns the browser's credential, or "" when it has none.
func player(c echo.Context) players.Credential {
	if cred, ok := c.Get(playerCookie).(players.Credential); ok {
		return cred
	}
	ck, err := c.Cookie(playerCookie)
	if err != nil || !players.Credential(ck.Value).Valid() {
		return ""
	}
	return players.Credential(ck.Value)
}

// ensurePlayer returns the browser's credential, giving it a new player's
// first if it has none the server issued (or had it signed out).
func (s *Server) ensurePlayer(c echo.Context) (players.Credential, error) {
	ctx := c.Request().Context()
	if cred := player(c); cred != "" {
		id, err := s.players.PlayerID(ctx, cred)
		if err != nil || id != "" {
			return cred, err
		}
	}
	cred, _, err := s.players.NewPlayer(ctx, players.Cookie)
	if err != nil {
		return "", err
	}
	s.setPlayer(c, cred)
	return cred, nil
}

// setPlayer makes cred the browser's credential, from this request on.
func (s *Server) setPlayer(c echo.Context, cred players.Credential) {
	c.Set(playerCookie, cred)
	c.SetCookie(&http.Cookie{
		Name:     playerCookie,
		Value:    string(cred),
		Path:     "/",
		MaxAge:   int(playerMaxAge.Seconds()),
		HttpOnly: true,
		Secure:   s.scheme(c) == "https",
		SameSite: http.SameSiteLaxMode,
	})
}

// dropPlayer deletes the browser's credential (signed out).
func dropPlayer(c echo.Context) {
	c.Set(playerCookie, players.Credential(""))
	c.SetCookie(&http.Cookie{Name: playerCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteLaxMode})
}

// legacyGame returns the game id an old session cookie names ("" when it
// names none that could be a game), and whether the request has one at
// all: one that names nothing is dropped too.
func legacyGame(c echo.Context) (string, bool) {
	ck, err := c.Cookie(legacyCookie)
	switch {
	case err != nil:
		return "", false
	case !validID(ck.Value):
		return "", true
	}
	return ck.Value, true
}

// dropLegacy deletes the old session cookie.
func dropLegacy(c echo.Context) {
	c.SetCookie(&http.Cookie{Name: legacyCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteLaxMode})
}

// bearer returns the API credential of an "Authorization: Bearer <token>"
// header, or "" when there is none.
func bearer(c echo.Context) players.Credential {
	scheme, token, ok := strings.Cut(c.Request().Header.Get(echo.HeaderAuthorization), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return players.Credential(strings.TrimSpace(token))
}
