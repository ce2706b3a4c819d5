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

// accountRequest is the body of POST /api/account and POST /api/token.
type accountRequest struct {
	Name     field[string] `json:"name"`
	Password field[string] `json:"password"`
}

// Token answers a new token: the token, and its player's name.
type Token struct {
	Token string `json:"token"`
	Name  string `json:"name"`
}

// Player is a player as the API writes them: their name, ratings
// by variant and speed, and results.
type Player struct {
	Name    *string                          `json:"name"` // null for an anonymous player
	Ratings map[string]map[string]ratingJSON `json:"ratings"`
	Results Results                          `json:"results"`
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
	in, err := a.s.players.Login(c.Request().Context(), players.SignIn{Name: req.Name.val, Password: req.Password.val,
		Client: kit.ClientKey(c.RealIP()), Device: kit.Device(c), Kind: players.Token})
	if err != nil {
		return err
	}
	a.s.kit.SetDevice(c, in.Device)
	return c.JSON(http.StatusCreated, Token{Token: string(in.Credential), Name: in.Player.Name})
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
	obj := Player{Ratings: map[string]map[string]ratingJSON{}, Results: Results{Win: p.Wins, Loss: p.Losses, Draw: p.Draws}}
	if p.Named() {
		obj.Name = &p.Name
	}
	standings, err := a.s.players.Standings(ctx, p.ID)
	if err != nil {
		return obj, err
	}
	for _, st := range standings {
		if obj.Ratings[st.Variant] == nil {
			obj.Ratings[st.Variant] = map[string]ratingJSON{}
		}
		obj.Ratings[st.Variant][string(st.Speed)] = ratingJSON{Rating: int(math.Round(st.Rating.Rating)), RD: int(math.Round(st.Rating.Deviation)),
			Games: st.Games, Provisional: st.Rating.Provisional()}
	}
	return obj, nil
}
