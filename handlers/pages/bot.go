package pages

import (
	"strconv"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/views"
)

// newBot starts a game against the computer: this browser holds the seat
// of the colour chosen, the computer the other.
func (p *create) newBot(c echo.Context, o views.Options) error {
	f := c.Request().Form
	settings, err := inviteSettings(c)
	if err != nil {
		return err
	}
	level, err := kit.ParseBotLevel(f.Get("level"))
	if err != nil {
		return err
	}
	g, err := p.s.loader.NewGame(f.Get("variant"))
	if err != nil {
		return err
	}
	if err := p.s.kit.AllowGame(c); err != nil {
		return err
	}
	cred, err := p.s.kit.EnsurePlayer(c)
	if err != nil {
		return err
	}
	id, _, err := p.s.games.CreateBot(c.Request().Context(), cred, g, games.BotSettings{Color: settings.Color, Level: level})
	if err != nil {
		return err
	}
	o.Announce = "New game against the computer, level " + strconv.Itoa(level)
	return p.core.created(c, id, o, g, false)
}
