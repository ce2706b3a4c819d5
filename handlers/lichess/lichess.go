// Package lichess serves lichess's Board API and Bot API shape under
// /api, so that a client written for lichess (a bot, a board), pointed at
// this server, plays its games here: the account and its upgrade to a bot
// account, the stream of a player's games starting and ending, each
// game's stream (gameFull, then gameState on every ply) and the moves,
// resignations, aborts, draw and takeback offers. Paths, JSON field
// names and status codes are lichess's; docs/bots.md says what differs.
package lichess

import (
	"context"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/handlers/stream"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
)

// Games is the games service as lichess's API uses it (kit.Games: reads
// give up after the server's game wait).
type Games interface {
	View(ctx context.Context, id string, cred players.Credential, fn games.ViewFunc) error
	Games(ctx context.Context, cred players.Credential, limit int) ([]games.Summary, error)
	Play(ctx context.Context, id string, cred players.Credential, in games.Input, then games.ViewFunc) error
	Resign(ctx context.Context, id string, cred players.Credential, side rules.Color, then games.ViewFunc) error
	Abort(ctx context.Context, id string, cred players.Credential, then games.ViewFunc) error
	MakeOffer(ctx context.Context, id string, cred players.Credential, offer games.Offer, then games.ViewFunc) error
	AnswerOffer(ctx context.Context, id string, cred players.Credential, offer games.Offer, accept bool, then games.ViewFunc) error
	Presence(id string) games.Presence
}

// Players is the players service as lichess's API uses it.
type Players interface {
	Grant(ctx context.Context, cred players.Credential) (players.Grant, error)
	Player(ctx context.Context, id string) (players.Player, error)
	Named(ctx context.Context, name string) (players.Player, error)
	UpgradeToBot(ctx context.Context, cred players.Credential) (players.Player, error)
}

// Loader makes a variant's new game, whose start is lichess's "startpos"
// (games.Loader).
type Loader interface {
	NewGame(variant string) (*rules.Game, error)
	Variants() []rules.Variant
	Variant(id string) (rules.Variant, error)
}

// Deps are what lichess's API serves: the kit the front ends share, the
// services and the live streams.
type Deps struct {
	Kit     *kit.Kit
	Players Players
	Loader  Loader
	Streams *stream.Server
	// Challenges serve lichess's challenges; nil: they are not served.
	Challenges Challenges
	// Lobby takes the Board API's seeks; nil: they are not served.
	Lobby Lobby
	// Chat is the games' chat (chatLine, the chat route); nil: none.
	Chat Chat
}

// deps are Deps as the handlers reach them.
type deps struct {
	kit     *kit.Kit
	games   Games
	players Players
	loader  Loader
	streams *stream.Server
	// challenges and lobby are nil when not served.
	challenges Challenges
	lobby      Lobby
	chat       Chat
}

// The API's parts, one for each capability.
type (
	accountAPI struct{ s *deps } // the bot upgrade
	eventsAPI  struct{ s *deps } // the stream of a player's games
	playAPI    struct {
		s    *deps
		kind api
	} // a game's stream and its actions, by the Board or the Bot API
)

// api is one of lichess's two APIs for playing: the Board API (any
// account but a bot, scope board:play) or the Bot API (bot accounts,
// scope bot:play).
type api struct {
	name  string // "board" or "bot", as the paths name it
	scope players.Scope
	bot   bool // only bot accounts may use it; else, bot accounts may not
}

// apis are lichess's two APIs for playing, the Board API first.
func apis() []api {
	return []api{{name: "board", scope: players.BoardPlay}, {name: "bot", scope: players.BotPlay, bot: true}}
}

// Register adds lichess's routes to g, the group mounted at /api that
// package api's routes are on (and its middleware: errors answered as
// JSON, no caching, the body limit).
func Register(g *echo.Group, d Deps) {
	s := &deps{kit: d.Kit, games: d.Kit.Games(), players: d.Players, loader: d.Loader, streams: d.Streams, challenges: d.Challenges, lobby: d.Lobby, chat: d.Chat}
	acc, ev := &accountAPI{s}, &eventsAPI{s}
	g.POST("/bot/account/upgrade", acc.upgrade, lichessErrors)
	g.GET("/stream/event", ev.events, lichessErrors)
	if d.Challenges != nil {
		(&challengesAPI{s}).register(g)
	}
	if d.Lobby != nil {
		g.POST("/board/seek", (&seekAPI{s}).seek, lichessErrors)
	}
	for _, kind := range apis() {
		p := &playAPI{s: s, kind: kind}
		base := "/" + kind.name + "/game"
		g.GET(base+"/stream/:id", p.stream, lichessErrors)
		g.POST(base+"/:id/move/:move", p.move, lichessErrors)
		g.POST(base+"/:id/resign", p.resign, lichessErrors)
		g.POST(base+"/:id/abort", p.abort, lichessErrors)
		g.POST(base+"/:id/draw/:accept", p.answer(games.OfferDraw), lichessErrors)
		g.POST(base+"/:id/chat", p.say, lichessErrors)
		if !kind.bot { // lichess's Bot API takes no takebacks
			g.POST(base+"/:id/takeback/:accept", p.answer(games.OfferTakeback), lichessErrors)
		}
	}
}

// lichessErrors answers refusals with lichess's status codes: whatever is
// wrong with a move or its moment (illegal, banned, not one's turn, the
// game over, a stale or doubled request) is 400, as lichess answers it;
// the rest keep theirs (401, 403, 404, 429, 503). The body stays
// {"error": "…"} (with our "code" beside it).
func lichessErrors(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		err := next(c)
		if err == nil {
			return nil
		}
		e := kit.ErrorOf(err)
		switch e.Code {
		case errs.Illegal, errs.Banned, errs.Conflict, errs.GameOver:
			moved := *e
			moved.Code = errs.Invalid
			if moved.Detail == "" {
				moved.Detail = errs.Detail(kit.APICode(e))
			}
			return &moved
		}
		return err
	}
}

// ok is lichess's answer to an action done.
func ok(c echo.Context) error { return c.JSON(http.StatusOK, map[string]bool{"ok": true}) }

// caller is who is asking, and with what.
type caller struct {
	cred   players.Credential
	player players.Player
	scopes players.Scopes
}

// authorize says who the request's bearer token belongs to, if it may do
// what needs one of scopes (none: anything a token may): 401 without a
// token the server issued, 403 when the token is limited to other scopes.
// Like lichess it answers the token's scopes in X-OAuth-Scopes and those
// the route takes in X-Accepted-OAuth-Scopes.
func (s *deps) authorize(c echo.Context, scopes ...players.Scope) (caller, error) {
	h := c.Response().Header()
	accepted := make([]string, len(scopes))
	for i, sc := range scopes {
		accepted[i] = string(sc)
	}
	h.Set("X-Accepted-OAuth-Scopes", strings.Join(accepted, ", "))
	cred := kit.Bearer(c)
	if cred == "" {
		return caller{}, errs.Errorf(errs.Unauthorized, "No token: send one as Authorization: Bearer <token>.")
	}
	ctx := c.Request().Context()
	g, err := s.players.Grant(ctx, cred)
	if err != nil {
		return caller{}, err
	}
	if g.Player == "" {
		return caller{}, errs.Errorf(errs.Unauthorized, "No such token: it was not issued by this server, or was signed out.")
	}
	list := g.Scopes
	if !list.Limited() {
		list = players.AllScopes()
	}
	h.Set("X-OAuth-Scopes", strings.ReplaceAll(list.String(), " ", ", "))
	allowed := len(scopes) == 0
	for _, sc := range scopes {
		allowed = allowed || g.Scopes.Allow(sc)
	}
	if !allowed {
		return caller{}, errs.Errorf(errs.Forbidden, "Missing scope: this token is limited to %s, and this needs %s.",
			g.Scopes.String(), strings.Join(accepted, " or ")).WithDetail(errs.MissingScope)
	}
	p, err := s.players.Player(ctx, g.Player)
	if err != nil {
		return caller{}, err
	}
	return caller{cred: cred, player: p, scopes: g.Scopes}, nil
}

// authorizeFor is authorize for a route of kind: its scope, and the
// account it is for (a bot account for the Bot API, any other for the
// Board API).
func (s *deps) authorizeFor(c echo.Context, kind api) (caller, error) {
	who, err := s.authorize(c, kind.scope)
	switch {
	case err != nil:
		return caller{}, err
	case kind.bot && !who.player.Bot:
		return caller{}, errs.Errorf(errs.Forbidden, "The Bot API is for bot accounts: upgrade this one with POST /api/bot/account/upgrade, or use the Board API.").WithDetail(errs.BotNotAllowed)
	case !kind.bot && who.player.Bot:
		return caller{}, errs.Errorf(errs.Forbidden, "A bot account plays through the Bot API (/api/bot/…), not the Board API.").WithDetail(errs.BotNotAllowed)
	}
	return who, nil
}

// upgrade makes the token's account a bot account (scope bot:play): a
// named account that has played no rated game.
func (a *accountAPI) upgrade(c echo.Context) error {
	who, err := a.s.authorize(c, players.BotPlay)
	if err != nil {
		return err
	}
	if _, err := a.s.players.UpgradeToBot(c.Request().Context(), who.cred); err != nil {
		return err
	}
	return ok(c)
}
