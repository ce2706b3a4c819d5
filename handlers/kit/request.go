package kit

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/lobby"
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

// LobbySince reads a lobby address's since (unix ms): pairings of the
// viewer from then on send the page to their game. Absent, or out of
// bounds (later than now, or more than lobby.PairingMemory before), it
// is now.
func LobbySince(c echo.Context, now time.Time) time.Time {
	ms, err := strconv.ParseInt(c.QueryParam("since"), 10, 64)
	if err != nil {
		return now
	}
	since := time.UnixMilli(ms)
	if since.After(now) || now.Sub(since) > lobby.PairingMemory {
		return now
	}
	return since
}

// parseBotLevel reads the computer's level, 1 to engine.Levels.
func ParseBotLevel(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > engine.Levels {
		return 0, &errs.Error{Code: errs.Invalid, Detail: errs.BadLevel, Msg: fmt.Sprintf("%q is not a level: choose 1 to %d.", TrimText(s), engine.Levels)}
	}
	return n, nil
}

// Learner is the player whose progress a page shows: the browser's, ""
// for a browser without one.
func (k *Kit) Learner(c echo.Context) (string, error) {
	cred := Player(c)
	if cred == "" {
		return "", nil
	}
	return k.players.PlayerID(c.Request().Context(), cred)
}

// EnsureLearner is Learner, making the browser a player first when it is
// none: an answer is kept for it.
func (k *Kit) EnsureLearner(c echo.Context) (string, error) {
	cred, err := k.EnsurePlayer(c)
	if err != nil {
		return "", err
	}
	return k.players.PlayerID(c.Request().Context(), cred)
}

// gamePath is the address of game id.
func GamePath(id string) string { return "/g/" + id }

// colorField reads a colour as the forms and the API name it: exactly
// "white" or "black"; with random, "" and "random" too, which name none
// (the server draws one).
func ColorField(v string, random bool) (rules.Color, bool) {
	switch v {
	case "white":
		return rules.White, true
	case "black":
		return rules.Black, true
	case "", "random":
		return 0, random
	}
	return 0, false
}

// Origin is scheme://host for absolute links: the base URL when the server
// has one (Config.BaseURL), else the request's, whose Host any client sets.
func (k *Kit) Origin(c echo.Context) string {
	if k.baseURL != "" {
		return k.baseURL
	}
	return k.Scheme(c) + "://" + c.Request().Host
}

// APINotFound refuses a path under /api that names nothing.
func APINotFound() error {
	return &errs.Error{Code: errs.NotFound, Msg: "There is nothing at this address: see the API's paths in the README."}
}
