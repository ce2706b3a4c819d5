package api

import (
	"context"
	"math"
	"net/http"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/banchess/banchess/players"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/errs"
)

// accountRequest is the body of POST /api/account and POST /api/token
// (which alone reads "scopes").
type accountRequest struct {
	Name     field[string]   `json:"name"`
	Password field[string]   `json:"password"`
	Scopes   field[[]string] `json:"scopes"`
}

// Token answers a new token: the token, its player's name, and the
// scopes it is limited to (space-separated; absent when it is not).
type Token struct {
	Token  string `json:"token"`
	Name   string `json:"name"`
	Scopes string `json:"scopes,omitempty"`
}

// Player is a player as the API writes them: their name, ratings
// by variant and speed, and results; and the same as lichess's account
// and user objects write them (id, username, title, perfs), for
// lichess's clients.
type Player struct {
	Name    *string                          `json:"name"` // null for an anonymous player
	Ratings map[string]map[string]ratingJSON `json:"ratings"`
	Results Results                          `json:"results"`

	// ID is lichess's id: the name in lower case ("" for an anonymous
	// player).
	ID string `json:"id"`
	// Username is the name ("" for an anonymous player).
	Username string `json:"username"`
	// Title is "BOT" for a bot account, else absent.
	Title string `json:"title,omitempty"`
	// Perfs are the ratings as lichess keys them: Classic's by speed
	// ("blitz"), another variant's by its key ("banchess": its speed
	// with the most rated games).
	Perfs map[string]perfJSON `json:"perfs"`
	// CreatedAt is when the player was made, in unix milliseconds.
	CreatedAt int64 `json:"createdAt"`
}

// perfJSON is a rating as lichess's perfs write it.
type perfJSON struct {
	Games  int  `json:"games"`
	Rating int  `json:"rating"`
	RD     int  `json:"rd"`
	Prog   int  `json:"prog"`
	Prov   bool `json:"prov,omitempty"`
}

// ratingJSON is a rating as it stands now: rounded, with its deviation
// (grown with the time since the last rated game) and the rated games
// played; provisional while the deviation is over 110.
type ratingJSON struct {
	Rating      int  `json:"rating"`
	RD          int  `json:"rd"`
	Games       int  `json:"games"`
	Provisional bool `json:"provisional"`
}

// Results counts a player's finished games against another player.
type Results struct {
	Win  int `json:"win"`
	Loss int `json:"loss"`
	Draw int `json:"draw"`
}

// register names a player: the bearer token's, when it has no name yet
// (that token is revoked), or else a new one, and answers the player's new
// token (201).
func (a *accountsAPI) register(c echo.Context) error {
	var req accountRequest
	if err := readJSON(c, &req); err != nil {
		return err
	}
	if req.Scopes.ok {
		return &errs.Error{Code: errs.Invalid, Detail: errs.BadScope, Msg: `A new account's token is not limited: make a limited one with POST /api/token and "scopes".`}
	}
	in, err := a.s.players.Register(c.Request().Context(), players.SignUp{Name: req.Name.val, Password: req.Password.val,
		Client: kit.ClientKey(c.RealIP()), Credential: kit.Bearer(c), Kind: players.Token})
	if err != nil {
		return err
	}
	a.s.kit.SetDevice(c, in.Device)
	return c.JSON(http.StatusCreated, Token{Token: string(in.Credential), Name: in.Player.Name})
}

// newToken signs a program in as the player the body names: a new token
// of theirs (201). Failed sign-ins are limited per name and per address,
// or per device for a client that keeps the device cookie.
func (a *accountsAPI) newToken(c echo.Context) error {
	var req accountRequest
	if err := readJSON(c, &req); err != nil {
		return err
	}
	var scopes players.Scopes
	if req.Scopes.ok {
		var err error
		if scopes, err = players.ParseScopes(req.Scopes.val); err != nil {
			return err
		}
	}
	in, err := a.s.players.Login(c.Request().Context(), players.SignIn{Name: req.Name.val, Password: req.Password.val,
		Client: kit.ClientKey(c.RealIP()), Device: kit.Device(c), Kind: players.Token, Scopes: scopes})
	if err != nil {
		return err
	}
	a.s.kit.SetDevice(c, in.Device)
	return c.JSON(http.StatusCreated, Token{Token: string(in.Credential), Name: in.Player.Name, Scopes: scopes.String()})
}

// dropToken signs the bearer token out: it holds nothing from now on.
func (a *accountsAPI) dropToken(c echo.Context) error {
	if err := a.s.players.SignOut(c.Request().Context(), kit.Bearer(c)); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// account answers the bearer token's player.
func (a *accountsAPI) account(c echo.Context) error {
	ctx, cred := c.Request().Context(), kit.Bearer(c)
	p, err := a.s.players.Identify(ctx, cred)
	switch {
	case err != nil:
		return err
	case p.ID == "" && cred == "":
		return &errs.Error{Code: errs.Unauthorized, Msg: "Say who is asking: send your token as Authorization: Bearer <token>."}
	case p.ID == "":
		return &errs.Error{Code: errs.Unauthorized, Msg: "This token was not issued by this server, or was signed out."}
	}
	obj, err := a.playerObject(ctx, p)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, obj)
}

// playerPublic answers the player named in the path.
func (a *accountsAPI) playerPublic(c echo.Context) error {
	ctx := c.Request().Context()
	p, err := a.s.players.Named(ctx, c.Param("name"))
	if err != nil {
		return err
	}
	obj, err := a.playerObject(ctx, p)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, obj)
}

// playerObject describes player p, their ratings as they stand now.
func (a *accountsAPI) playerObject(ctx context.Context, p players.Player) (Player, error) {
	obj := Player{Ratings: map[string]map[string]ratingJSON{}, Results: Results{Win: p.Wins, Loss: p.Losses, Draw: p.Draws},
		Perfs: map[string]perfJSON{}, CreatedAt: p.Created.UnixMilli()}
	if p.Named() {
		obj.Name, obj.ID, obj.Username = &p.Name, players.NameKey(p.Name), p.Name
	}
	if p.Bot {
		obj.Title = "BOT"
	}
	standings, err := a.s.players.Standings(ctx, p.ID)
	if err != nil {
		return obj, err
	}
	for _, st := range standings {
		if obj.Ratings[st.Variant] == nil {
			obj.Ratings[st.Variant] = map[string]ratingJSON{}
		}
		r := ratingJSON{Rating: int(math.Round(st.Rating.Rating)), RD: int(math.Round(st.Rating.Deviation)),
			Games: st.Games, Provisional: st.Rating.Provisional()}
		obj.Ratings[st.Variant][string(st.Speed)] = r
		v, err := a.s.loader.Variant(st.Variant)
		if err != nil {
			continue // a variant this server no longer serves: ours lists it, lichess's has no key for it
		}
		key := kit.LichessVariantOf(v).Key
		if key == "standard" {
			key = string(st.Speed)
		}
		if old, ok := obj.Perfs[key]; !ok || st.Games > old.Games {
			obj.Perfs[key] = perfJSON{Games: r.Games, Rating: r.Rating, RD: r.RD, Prov: r.Provisional}
		}
	}
	return obj, nil
}
