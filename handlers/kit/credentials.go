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
// reads it; the game ids in URLs are public. On HTTPS it is named with
// the __Host- prefix (HostPrefix + PlayerCookie; see Kit.Secure).
const PlayerCookie = "banchess_player"

// DeviceCookie holds the browser's device token (players.SignedIn.Device):
// it says the browser signed in as a name before, so that its sign-ins as
// that name are limited for this browser alone. It proves nothing else.
// On HTTPS it is named with the __Host- prefix, as PlayerCookie is.
const DeviceCookie = "banchess_device"

// HostPrefix starts the names of the browser's cookies on HTTPS. A
// browser keeps a cookie so named only when it is Secure, set by an HTTPS
// page, for Path=/ and with no Domain: no other host (a sibling
// subdomain) and no plain-HTTP page can set or overwrite it, so none can
// plant a credential for the browser to sign up or sign in with.
const HostPrefix = "__Host-"

// LegacyCookie named the browser's one game before games had addresses
// and seats; its game is claimed for the browser and the cookie dropped.
const LegacyCookie = "banchess_game"

// playerMaxAge is how long the browser keeps its credential: as long as
// browsers allow (400 days), renewed on every game it creates.
const playerMaxAge = 400 * 24 * time.Hour

// Secure reports whether the browser reaches the server over HTTPS, so
// that its cookies are Secure and __Host- named: the connection is TLS, a
// trusted proxy says so (see Scheme), or the base URL is https, which
// says the deployment is reached over HTTPS whatever the proxy in front
// tells.
func (k *Kit) Secure(c echo.Context) bool {
	return k.Scheme(c) == "https" || strings.HasPrefix(k.baseURL, "https://")
}

// cookie returns the value of the browser's cookie of name, read under
// the __Host- prefix first, then under the plain name (set over HTTP, or
// before the prefix was used), and whether it was the plain one.
func cookie(c echo.Context, name string) (value string, plain bool) {
	if ck, err := c.Cookie(HostPrefix + name); err == nil && ck.Value != "" {
		return ck.Value, false
	}
	if ck, err := c.Cookie(name); err == nil {
		return ck.Value, true
	}
	return "", false
}

// setCookie gives the browser its cookie of name: value, for maxAge, under
// the __Host- prefix when the server is on HTTPS, when it also deletes the
// plain-named one the browser may hold from before.
func (k *Kit) setCookie(c echo.Context, name, value string, maxAge time.Duration, sameSite http.SameSite) {
	secure := k.Secure(c)
	if secure {
		if _, err := c.Cookie(name); err == nil {
			c.SetCookie(&http.Cookie{Name: name, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, SameSite: sameSite})
		}
		name = HostPrefix + name
	}
	c.SetCookie(&http.Cookie{Name: name, Value: value, Path: "/", MaxAge: int(maxAge.Seconds()), HttpOnly: true, Secure: secure, SameSite: sameSite})
}

// dropCookie deletes the browser's cookie of name, under both names.
func dropCookie(c echo.Context, name string, sameSite http.SameSite) {
	c.SetCookie(&http.Cookie{Name: name, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, SameSite: sameSite})
	c.SetCookie(&http.Cookie{Name: HostPrefix + name, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, Secure: true, SameSite: sameSite})
}

// Player returns the browser's credential, or "" when it has none.
func Player(c echo.Context) players.Credential {
	if cred, ok := c.Get(PlayerCookie).(players.Credential); ok {
		return cred
	}
	v, _ := cookie(c, PlayerCookie)
	if !players.Credential(v).Valid() {
		return ""
	}
	return players.Credential(v)
}

// EnsurePlayer returns the browser's credential, giving it a new player's
// first if it has none the server issued (or had it signed out). On HTTPS
// a credential under the cookie's plain name moves to its __Host- name.
func (k *Kit) EnsurePlayer(c echo.Context) (players.Credential, error) {
	ctx := c.Request().Context()
	if cred := Player(c); cred != "" {
		id, err := k.players.PlayerID(ctx, cred)
		if err != nil || id != "" {
			if _, plain := cookie(c, PlayerCookie); err == nil && plain && k.Secure(c) {
				k.SetPlayer(c, cred)
			}
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
	k.setCookie(c, PlayerCookie, string(cred), playerMaxAge, http.SameSiteLaxMode)
}

// DropPlayer deletes the browser's credential (signed out).
func DropPlayer(c echo.Context) {
	c.Set(PlayerCookie, players.Credential(""))
	dropCookie(c, PlayerCookie, http.SameSiteLaxMode)
}

// Device returns the browser's device token, or "" when it has none.
func Device(c echo.Context) string {
	v, _ := cookie(c, DeviceCookie)
	return v
}

// SetDevice makes token the browser's device token; "" changes nothing.
// Only this site's own requests carry it (SameSite=Strict).
func (k *Kit) SetDevice(c echo.Context, token string) {
	if token != "" {
		k.setCookie(c, DeviceCookie, token, playerMaxAge, http.SameSiteStrictMode)
	}
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
