package api

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/rules"
)

// OngoingGames answers GET /api/games: the bearer's games in play against
// someone, those awaiting their action first, and how many await it.
type OngoingGames struct {
	Games    []OngoingGame `json:"games"`
	Awaiting int           `json:"awaiting"`
}

// OngoingGame is one of the bearer's games in play.
type OngoingGame struct {
	ID      string `json:"id"`
	Variant string `json:"variant"`
	FEN     string `json:"fen"`
	Turn    string `json:"turn"`  // "white" or "black": who acts now
	Phase   string `json:"phase"` // "ban" or "move"
	// Color is the bearer's side; YourTurn says it acts now.
	Color    string `json:"color"`
	YourTurn bool   `json:"yourTurn"`
	// Opponent is the other side's name; null for an anonymous player, the
	// computer or a free seat.
	Opponent *string `json:"opponent"`
	// Speed is the clock's class ("blitz", "correspondence"…), Days its
	// days a move (correspondence), null without a clock.
	Speed *string `json:"speed"`
	Days  *int    `json:"days"`
	// Left is the milliseconds the side to act has left, null when no
	// clock runs for it (none, unlimited, or stopped).
	Left *int64 `json:"left"`
}

// ongoingSize is how many games GET /api/games lists.
const ongoingSize = 100

// ongoing answers the bearer's games in play (?status=ongoing, the one
// status listed).
func (a *gamesAPI) ongoing(c echo.Context) error {
	if st := c.QueryParam("status"); st != "" && st != "ongoing" {
		return errs.Errorf(errs.Invalid, "%q is not a status to list: only ongoing games are listed.", kit.TrimText(st)).WithDetail(errs.BadStatus)
	}
	ctx, cred := c.Request().Context(), kit.Bearer(c)
	if cred == "" {
		return errs.Errorf(errs.Unauthorized, "Your games need your token: send it as a bearer token.")
	}
	holder, err := a.s.players.PlayerID(ctx, cred)
	if err != nil {
		return err
	}
	if holder == "" {
		return errs.Errorf(errs.Unauthorized, "This token was not issued by this server, or was revoked.")
	}
	list, err := games.TurnsOf(a.s.kit.Games().Service).Ongoing(ctx, cred, ongoingSize)
	if err != nil {
		return err
	}
	out := OngoingGames{Games: make([]OngoingGame, 0, len(list))}
	now := a.s.now()
	for _, sum := range list {
		g := ongoingOf(sum, holder, now)
		if g.YourTurn {
			out.Awaiting++
		}
		out.Games = append(out.Games, g)
	}
	return c.JSON(http.StatusOK, out)
}

// ongoingOf describes game sum of holder's at now.
func ongoingOf(sum games.Summary, holder string, now time.Time) OngoingGame {
	g := OngoingGame{ID: sum.ID, Variant: sum.Variant, FEN: sum.FEN, Turn: sum.Actor, Phase: sum.Phase, Color: "white"}
	other := sum.BlackPlayer
	if sum.Black == holder && sum.White != holder {
		g.Color, other = "black", sum.WhitePlayer
	}
	g.YourTurn = sum.Actor == g.Color
	if other.Named() {
		g.Opponent = &other.Name
	}
	c := sum.Clock
	if c == nil {
		return g
	}
	speed := string(c.Control.Speed())
	g.Speed = &speed
	if c.Control.Correspondence() {
		days := max(c.Control.Days, 0)
		g.Days = &days
	}
	side, err := rules.ParseColor(sum.Actor)
	switch first, waiting := c.FirstActionLeft(now); {
	case err != nil || c.Control.Unlimited():
	case waiting:
		ms := first.Milliseconds()
		g.Left = &ms
	case c.Running == side:
		ms := c.Left(side, now).Milliseconds()
		g.Left = &ms
	}
	return g
}
