package api

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/relations"
)

// Relations are follows and blocks as the API uses them
// (relations.Service).
type Relations interface {
	Follow(ctx context.Context, cred players.Credential, name string) error
	Unfollow(ctx context.Context, cred players.Credential, name string) error
	Block(ctx context.Context, cred players.Credential, name string) error
	Unblock(ctx context.Context, cred players.Credential, name string) error
	Following(ctx context.Context, cred players.Credential) ([]relations.Followed, error)
	Blocking(ctx context.Context, cred players.Credential) ([]players.Player, error)
}

// relationsAPI is the API's part for follows and blocks, on lichess's
// paths (/api/rel/…).
type relationsAPI struct{ s *deps }

// RelatedPlayer is a player in the lists of /api/rel/following and
// /api/rel/blocking, one JSON object a line: lichess's id and username,
// and for a followed player whether they are online and the game they
// play now.
type RelatedPlayer struct {
	ID       string `json:"id"`
	Username string `json:"username"`
	Online   *bool  `json:"online,omitempty"`
	// PlayingID is the game a followed player plays now, absent for none.
	PlayingID string `json:"playingId,omitempty"`
	// Closed says a moderator closed the account (lichess's "disabled").
	Closed bool `json:"disabled,omitempty"`
}

// relationRoutes are the part's routes, on a server with relations.
func (a *relationsAPI) relationRoutes() []apiEndpoint {
	if a.s.relations == nil {
		return nil
	}
	r := a.s.relations
	return []apiEndpoint{
		{http.MethodGet, "/rel/following", a.following},
		{http.MethodGet, "/rel/blocking", a.blocking},
		{http.MethodPost, "/rel/follow/:name", a.relate(r.Follow)},
		{http.MethodPost, "/rel/unfollow/:name", a.relate(r.Unfollow)},
		{http.MethodPost, "/rel/block/:name", a.relate(r.Block)},
		{http.MethodPost, "/rel/unblock/:name", a.relate(r.Unblock)},
	}
}

// relate acts on the player the path names for the bearer's player and
// answers {"ok":true}, as lichess does.
func (a *relationsAPI) relate(act func(context.Context, players.Credential, string) error) echo.HandlerFunc {
	return func(c echo.Context) error {
		if err := act(c.Request().Context(), kit.Bearer(c), c.Param("name")); err != nil {
			return err
		}
		return c.JSON(http.StatusOK, map[string]bool{"ok": true})
	}
}

// following answers the players the bearer's player follows, the latest
// followed first, as NDJSON.
func (a *relationsAPI) following(c echo.Context) error {
	list, err := a.s.relations.Following(c.Request().Context(), kit.Bearer(c))
	if err != nil {
		return err
	}
	out := make([]RelatedPlayer, len(list))
	for i, f := range list {
		online := f.Online
		out[i] = RelatedPlayer{ID: players.NameKey(f.Name), Username: f.Name, Online: &online, PlayingID: f.Playing, Closed: f.Closed}
	}
	return ndjson(c, out)
}

// blocking answers the players the bearer's player blocks, the latest
// blocked first, as NDJSON.
func (a *relationsAPI) blocking(c echo.Context) error {
	list, err := a.s.relations.Blocking(c.Request().Context(), kit.Bearer(c))
	if err != nil {
		return err
	}
	out := make([]RelatedPlayer, len(list))
	for i, p := range list {
		out[i] = RelatedPlayer{ID: players.NameKey(p.Name), Username: p.Name}
	}
	return ndjson(c, out)
}

// ndjson answers list one JSON object a line.
func ndjson[T any](c echo.Context, list []T) error {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	for _, v := range list {
		if err := enc.Encode(v); err != nil {
			return errs.Internalf(err, "writing a list")
		}
	}
	return c.Blob(http.StatusOK, "application/x-ndjson", []byte(b.String()))
}
