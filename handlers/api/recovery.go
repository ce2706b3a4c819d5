package api

import (
	"net/http"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/players"
)

// RecoveryCodes answers new recovery codes, shown this once.
type RecoveryCodes struct {
	Codes []string `json:"codes"`
}

// recoverRequest is the body of POST /api/account/recover.
type recoverRequest struct {
	Name     field[string] `json:"name"`
	Code     field[string] `json:"code"`
	Password field[string] `json:"password"`
}

// newRecoveryCodes makes the bearer's player new recovery codes (the old
// stop working) and answers them (201).
func (a *accountsAPI) newRecoveryCodes(c echo.Context) error {
	if err := readJSON(c, &emptyRequest{}); err != nil {
		return err
	}
	codes, err := a.s.players.NewRecoveryCodes(c.Request().Context(), kit.Bearer(c))
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusCreated, RecoveryCodes{Codes: codes})
}

// recover gives a program the account the body names back, with one of
// its recovery codes and a new password: every credential of the player
// is revoked and a new token answered (201). Limited as a sign-in is.
func (a *accountsAPI) recover(c echo.Context) error {
	var req recoverRequest
	if err := readJSON(c, &req); err != nil {
		return err
	}
	in, err := a.s.players.Recover(c.Request().Context(), players.RecoverIn{Name: req.Name.val, Code: req.Code.val, Password: req.Password.val,
		Client: kit.ClientKey(c.RealIP()), Device: kit.Device(c), Kind: players.Token})
	if err != nil {
		return err
	}
	a.s.kit.SetDevice(c, in.Device)
	return c.JSON(http.StatusCreated, Token{Token: string(in.Credential), Name: in.Player.Name})
}

// deleteRequest is the body of POST /api/account/delete.
type deleteRequest struct {
	Password field[string] `json:"password"`
}

// deleteAccount deletes the bearer's player's account once the body's
// password is theirs (204): every credential of it stops working.
func (a *accountsAPI) deleteAccount(c echo.Context) error {
	var req deleteRequest
	if err := readJSON(c, &req); err != nil {
		return err
	}
	if err := a.s.players.DeleteAccount(c.Request().Context(), kit.Bearer(c), req.Password.val); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
