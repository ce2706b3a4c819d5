package api

import (
	"fmt"
	"net/http"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/banchess/banchess/players"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rules"
)

// Created is the answer to a new game: the game, and the token that
// holds its seats.
type Created struct {
	Game
	Token string `json:"token"`
	// Invite is the link that gives a game with a friend's free seat (a
	// browser opens it; a program joins with InviteCode), "" otherwise.
	Invite     string `json:"invite,omitempty"`
	InviteCode string `json:"inviteCode,omitempty"`
}

// create starts a game: new, from a FEN, or from a PGN. The caller's
// bearer token, if it sends one, holds the new game's seats; otherwise a
// new token does. Either way the answer carries it.
func (a *gamesAPI) create(c echo.Context) error {
	var req createRequest
	if err := readJSON(c, &req); err != nil {
		return err
	}
	mode, err := req.mode()
	if err != nil {
		return err
	}
	var g *rules.Game
	switch {
	case req.FEN.ok && req.PGN.ok:
		return &errs.Error{Code: errs.Invalid, Detail: errs.FENAndPGN, Msg: "Give a FEN or a PGN, not both."}
	case req.FEN.ok:
		g, err = a.s.loader.FromFEN(req.FEN.val, req.Variant.val)
	case req.PGN.ok:
		g, err = a.s.loader.FromPGN(req.PGN.val, req.Variant.val) // no variant: the PGN decides
	default:
		g, err = a.s.loader.NewGame(req.Variant.val)
	}
	if err != nil {
		return err
	}
	if err := a.s.kit.AllowGame(c); err != nil {
		return err
	}
	ctx := c.Request().Context()
	token, err := a.token(c)
	if err != nil {
		return err
	}
	obj := Created{Token: string(token)}
	var id string
	switch {
	case mode.bot != nil:
		id, _, err = a.s.games.CreateBot(ctx, token, g, *mode.bot)
	case mode.invite != nil:
		var code string
		id, code, _, err = a.s.games.CreateInvite(ctx, token, g, *mode.invite)
		obj.Invite = a.s.kit.Origin(c) + kit.GamePath(id) + "?invite=" + code
		obj.InviteCode = code
	default:
		id, err = a.s.games.Create(ctx, token, g)
	}
	if err != nil {
		return err
	}
	tags := a.pgnTags(c)
	if err := a.s.games.View(ctx, id, token, func(rec *games.Record, _ games.Seats) {
		obj.Game = recordJSON(rec, a.s.now(), tags...)
	}); err != nil {
		return err
	}
	c.Response().Header().Set("Location", "/api/games/"+id)
	return c.JSON(http.StatusCreated, obj)
}

// gameMode is who plays a new game: a game with a friend (invite), one
// against the computer (bot), or, with neither, a hot-seat game.
type gameMode struct {
	invite *games.InviteSettings
	bot    *games.BotSettings
}

// mode reads who plays the game req creates: its "mode", and the members
// that go with one ("color" and "clock" with a friend, "bot" and "clock"
// against the computer, which needs no "mode").
func (req *createRequest) mode() (gameMode, error) {
	only := func(format string, args ...any) (gameMode, error) {
		return gameMode{}, &errs.Error{Code: errs.Invalid, Detail: errs.BadMode, Msg: fmt.Sprintf(format, args...)}
	}
	if req.Bot.ok {
		bot, err := req.Bot.val.settings()
		switch {
		case err != nil:
			return gameMode{}, err
		case req.Mode.val != "" && req.Mode.val != "bot":
			return only(`"bot" starts a game against the computer: send no "mode", or "mode":"bot".`)
		case req.Color.ok:
			return only(`Say the computer's colour in "bot", not "color".`)
		}
		tc, ok, err := games.ParseTimeControl(req.Clock.val)
		if err != nil {
			return gameMode{}, err
		}
		if ok {
			bot.Clock = &tc
		}
		return gameMode{bot: bot}, nil
	}
	switch req.Mode.val {
	case "bot":
		return gameMode{}, &errs.Error{Code: errs.Invalid, Detail: errs.BadBot, Msg: `A game against the computer needs "bot":{"color":"white"|"black","level":1..8}.`}
	case "", "hotseat":
		switch {
		case req.Color.ok:
			return only(`"color" is for a game with a friend: send "mode":"invite" with it.`)
		case req.Clock.ok:
			return only(`"clock" is for a game with a friend or the computer: send "mode":"invite" or "bot" with it.`)
		}
		return gameMode{}, nil
	case "invite":
	default:
		return only(`%q is not a mode: use "hotseat" (one token plays both sides), "invite" (a game with a friend or a program, who joins) or "bot" (against the computer).`, kit.TrimText(req.Mode.val))
	}
	var settings games.InviteSettings
	var ok bool
	if settings.Color, ok = kit.ColorField(req.Color.val, true); !ok {
		return gameMode{}, &errs.Error{Code: errs.Invalid, Detail: errs.BadColor,
			Msg: fmt.Sprintf(`%q is not a colour to play: use "white", "black" or "random".`, kit.TrimText(req.Color.val))}
	}
	tc, ok, err := games.ParseTimeControl(req.Clock.val)
	if err != nil {
		return gameMode{}, err
	}
	if ok {
		settings.Clock = &tc
	}
	return gameMode{invite: &settings}, nil
}

// settings reads the computer's colour and level.
func (b botRequest) settings() (*games.BotSettings, error) {
	side, ok := kit.ColorField(string(b.Color.val), false)
	if !ok {
		return nil, &errs.Error{Code: errs.Invalid, Detail: errs.BadBot,
			Msg: fmt.Sprintf("%q is not the computer's colour: use white or black.", kit.TrimText(string(b.Color.val)))}
	}
	n, err := kit.ParseBotLevel(string(b.Level.val))
	if err != nil {
		return nil, err
	}
	return &games.BotSettings{Color: side.Other(), Level: n}, nil
}

// token returns the request's bearer token, or with none a new player's.
func (a *gamesAPI) token(c echo.Context) (players.Credential, error) {
	if token := kit.Bearer(c); token != "" {
		return token, nil
	}
	token, _, err := a.s.players.NewPlayer(c.Request().Context(), players.Token)
	return token, err
}
