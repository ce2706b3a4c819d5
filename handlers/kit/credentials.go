package kit

import (
	"net/http"
	"strings"
	"time"

	"github.com/banchess/banchess/players"
	"github.com/labstack/echo/v4"
)

// PlayerCookie holds the browser's credential: one secret for all its
// games, which proves the seats it holds. It is HttpOnly, so no script
// reads it; the game ids in URLs are public.
const PlayerCookie = "banchess_player"

// LegacyCookie named the browser's one game before games had addresses
// and seats; its game is claimed for the browser and the cookie dropped.
const LegacyCookie = "banchess_game"

// playerMaxAge is how long the browser keeps its credential: as long as
// browsers allow (400 days), renewed on every game it creates.
const playerMaxAge = 400 * 24 * time.Hour

// player returns the browser's credential, or "" when it has none.
func Player(c echo.Context) players.Credential {
	if cred, ok := c.Get(PlayerCookie).(players.Credential); ok {
		return cred
	}
	ck, err := c.Cookie(PlayerCookie)
	if err != nil || !players.Credential(ck.Value).Valid() {
		return ""
	}
	return players.Credential(ck.Value)
}

// EnsurePlayer returns the browser's credential, giving it a new player's
// first if it has none the server issued (or had it signed out).
func (k *Kit) EnsurePlayer(c echo.Context) (players.Credential, error) {
	ctx := c.Request().Context()
	if cred := Player(c); cred != "" {
		id, err := k.players.PlayerID(ctx, cred)
		if err != nil || id != "" {
			return cred, err
		}
	}
	cred, _, err := k.players.NewPlayer(ctx, players.Cookie)
	if err != nil {
		return "", err
	}
	k.SetPlayer(c, cred)
	return cred, nil
}

// SetPlayer makes cred the browser's credential, from this request on.
func (k *Kit) SetPlayer(c echo.Context, cred players.Credential) {
	c.Set(PlayerCookie, cred)
	c.SetCookie(&http.Cookie{
		Name:     PlayerCookie,
		Value:    string(cred),
		Path:     "/",
		MaxAge:   int(playerMaxAge.Seconds()),
		HttpOnly: true,
		Secure:   k.Scheme(c) == "https",
		SameSite: http.SameSiteLaxMode,
	})
}

// dropPlayer deletes the browser's credential (signed out).
func DropPlayer(c echo.Context) {
	c.Set(PlayerCookie, players.Credential(""))
	c.SetCookie(&http.Cookie{Name: PlayerCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteLaxMode})
}

// DeviceCookie holds the browser's device token (players.SignedIn.Device):
// it says the browser signed in as a name before, so that its sign-ins as
// that name are limited for this browser alone. It proves nothing else.
const DeviceCookie = "banchess_device"

// Device returns the browser's device token, or "" when it has none.
func Device(c echo.Context) string {
	ck, err := c.Cookie(DeviceCookie)
	if err != nil {
		return ""
	}
	return ck.Value
}

// SetDevice makes token the browser's device token; "" changes nothing.
// Only this site's own requests carry it (SameSite=Strict).
func (k *Kit) SetDevice(c echo.Context, token string) {
	if token == "" {
		return
	}
	c.SetCookie(&http.Cookie{
		Name:     DeviceCookie,
		Value:    token,
		Path:     "/",
		MaxAge:   int(playerMaxAge.Seconds()),
		HttpOnly: true,
		Secure:   k.Scheme(c) == "https",
		SameSite: http.SameSiteStrictMode,
	})
}

// legacyGame returns the game id an old session cookie names ("" when it
// names none that could be a game), and whether the request has one at
// all: one that names nothing is dropped too.
func LegacyGame(c echo.Context) (string, bool) {
	ck, err := c.Cookie(LegacyCookie)
	switch {
	case err != nil:
		return "", false
	case !ValidID(ck.Value):
		return "", true
	}
	return ck.Value, true
}

// dropLegacy deletes the old session cookie.
func DropLegacy(c echo.Context) {
	c.SetCookie(&http.Cookie{Name: LegacyCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteLaxMode})
}

// bearer returns the API credential of an "Authorization: Bearer <token>"
// header, or "" when there is none.
func Bearer(c echo.Context) players.Credential {
	scheme, token, ok := strings.Cut(c.Request().Header.Get(echo.HeaderAuthorization), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return players.Credential(strings.TrimSpace(token))
}
