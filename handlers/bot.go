package handlers

import (
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/views"
)

// parseBotLevel reads the computer's level, 1 to 8.
func parseBotLevel(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > 8 {
		return 0, invalidf("%q is not a level: choose 1 to 8.", trimText(s))
	}
	return n, nil
}

// newBot starts a game against the computer: this browser holds the seat
// of the colour chosen, the computer the other.
func (p *pages) newBot(c echo.Context, o views.Options) error {
	f := c.Request().Form
	settings, err := inviteSettings(c)
	if err != nil {
		return p.refuse(c, err)
	}
	level, err := parseBotLevel(f.Get("level"))
	if err != nil {
		return p.refuse(c, err)
	}
	g, err := p.s.games.NewGame(f.Get("variant"))
	if err != nil {
		return p.refuse(c, err)
	}
	if err := p.s.allowGame(c); err != nil {
		return p.refuse(c, err)
	}
	id, _, err := p.s.games.CreateBot(c.Request().Context(), p.s.ensurePlayer(c), g, games.BotSettings{Color: settings.Color, Level: level})
	if err != nil {
		return p.refuse(c, err)
	}
	o.Announce = "New game against the computer, level " + strconv.Itoa(level)
	return p.created(c, id, o, g, false)
}

// computer describes the computer's seat at a game against it; nil for
// another game.
func computer(rec *games.Record) *views.Computer {
	if rec.Bot == nil {
		return nil
	}
	return &views.Computer{Side: rec.Bot.Color, Level: rec.Bot.Level}
}

// botColor reads the API's bot colour ("white" or "black").
func botColor(s string) (rules.Color, error) {
	switch s {
	case "white", "black":
		side, _ := rules.ParseColor(s)
		return side, nil
	}
	return 0, invalidf("%q is not the computer's colour: use white or black.", trimText(s))
}
