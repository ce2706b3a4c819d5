package api

import (
	"context"
	"time"

	"github.com/banchess/banchess/analysis"
	"github.com/banchess/banchess/chat"
	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/handlers/stream"
	"github.com/banchess/banchess/lobby"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/puzzles"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/training"
)

// Games are the games service as the API uses it (kit.Games: reads give
// up after the server's game wait).
type Games interface {
	Create(ctx context.Context, cred players.Credential, g *rules.Game) (string, error)
	CreateBot(ctx context.Context, cred players.Credential, g *rules.Game, settings games.BotSettings) (string, rules.Color, error)
	CreateInvite(ctx context.Context, cred players.Credential, g *rules.Game, settings games.InviteSettings) (id, code string, side rules.Color, err error)
	View(ctx context.Context, id string, cred players.Credential, fn games.ViewFunc) error
	PGN(ctx context.Context, id string, cred players.Credential, reviews kit.Reviews, played kit.PlayedGames, own ...rules.Tag) (string, error)
	Play(ctx context.Context, id string, cred players.Credential, in games.Input, then games.ViewFunc) error
	Undo(ctx context.Context, id string, cred players.Credential, then games.UndoneFunc) (games.Undone, error)
	Resign(ctx context.Context, id string, cred players.Credential, side rules.Color, then games.ViewFunc) error
	Draw(ctx context.Context, id string, cred players.Credential, then games.ViewFunc) error
	Abort(ctx context.Context, id string, cred players.Credential, then games.ViewFunc) error
	Join(ctx context.Context, id string, cred players.Credential, code string) (games.Seats, error)
	MakeOffer(ctx context.Context, id string, cred players.Credential, offer games.Offer, then games.ViewFunc) error
	AnswerOffer(ctx context.Context, id string, cred players.Credential, offer games.Offer, accept bool, then games.ViewFunc) error
	Premoves() games.Premoves
}

// Loader makes the games the API creates (games.Loader).
type Loader interface {
	NewGame(variant string) (*rules.Game, error)
	FromFEN(fen, variant string) (*rules.Game, error)
	FromPGN(pgn, variant string) (*rules.Game, error)
	Variant(id string) (rules.Variant, error)
}

// Players are the players service as the API uses it.
type Players interface {
	PlayerID(ctx context.Context, cred players.Credential) (string, error)
	PlayedGame(ctx context.Context, player, game string) (players.PlayedGame, bool, error)
	Identify(ctx context.Context, cred players.Credential) (players.Player, error)
	NewPlayer(ctx context.Context, kind players.CredentialKind) (players.Credential, players.Player, error)
	Register(ctx context.Context, up players.SignUp) (players.SignedIn, error)
	Login(ctx context.Context, in players.SignIn) (players.SignedIn, error)
	SignOut(ctx context.Context, cred players.Credential) error
	Named(ctx context.Context, name string) (players.Player, error)
	Standings(ctx context.Context, player string) ([]players.Standing, error)
	NewRecoveryCodes(ctx context.Context, cred players.Credential) ([]string, error)
	Recover(ctx context.Context, in players.RecoverIn) (players.SignedIn, error)
	DeleteAccount(ctx context.Context, cred players.Credential, password string) error
}

// Lobby is the lobby as the API uses it.
type Lobby interface {
	View(ctx context.Context) (lobby.View, error)
	SeeksFor(ctx context.Context, v lobby.View, p players.Player, n int) (lobby.SeekPage, error)
	AddSeek(ctx context.Context, cred players.Credential, st lobby.SeekSettings) (lobby.Seek, error)
	AcceptSeek(ctx context.Context, cred players.Credential, id string) (string, error)
	CancelSeek(ctx context.Context, cred players.Credential, id string) error
	JoinPool(ctx context.Context, cred players.Credential, pool, address string) (string, lobby.Seek, error)
}

// Analyst is the engine's analysis and reviews as the API uses them.
type Analyst interface {
	AnalysePosition(ctx context.Context, fen, variant string, req analysis.Request) (engine.Result, error)
	AnalyseGame(ctx context.Context, id string, req analysis.Request) (engine.Result, error)
	RequestReview(ctx context.Context, id string, by analysis.Requester) (analysis.ReviewState, error)
	Review(ctx context.Context, id string) (analysis.ReviewState, error)
	kit.Reviews
}

// Training is the puzzle trainer as the API uses it.
type Training interface {
	Next(ctx context.Context, player string, t puzzles.Theme) (training.Puzzle, error)
	Daily(ctx context.Context) (training.Puzzle, error)
	Puzzle(ctx context.Context, id string) (training.Puzzle, error)
	Attempt(ctx context.Context, player, id string, actions []rules.Action) (training.Result, error)
	NextAt(ctx context.Context, player string, t puzzles.Theme, d training.Difficulty) (training.Puzzle, error)
	// Runs is Puzzle Streak and Puzzle Storm.
	Runs() *training.Runs
}

// Chat is the games' chat as the API uses it (chat.Service).
type Chat interface {
	Room(ctx context.Context, id string, cred players.Credential) (chat.View, error)
	Lines(ctx context.Context, id string, cred players.Credential, room chat.Room, after int64) ([]chat.Line, int64, error)
	Post(ctx context.Context, id string, cred players.Credential, room chat.Room, text string) (chat.Line, error)
	Since(ctx context.Context, id string, cred players.Credential, after int64) ([]chat.Line, int64, error)
}

// Deps are what the API serves: the kit the front ends share, the
// services, the live streams and the server's base URL.
type Deps struct {
	Kit      *kit.Kit
	Loader   Loader
	Players  Players
	Lobby    Lobby
	Analysis Analyst
	Training Training // nil: the puzzles are not served
	Chat     Chat     // nil: games have no chat
	// Relations serve /api/rel; nil: not served.
	Relations Relations
	Streams   *stream.Server
	BaseURL   string // scheme://host for the PGN's Site; "": the request's

	// Tournaments run arenas; nil: the tournaments' routes are not served.
	Tournaments Tournaments
	// Notify keeps named players' notifications; nil: not served.
	Notify Inbox
}

// deps are Deps as the API's handlers reach them.
type deps struct {
	kit       *kit.Kit
	games     Games
	loader    Loader
	players   Players
	lobby     Lobby
	analysis  Analyst
	training  Training
	chat      Chat
	relations Relations
	streams   *stream.Server
	encodings stream.Encodings // the API streams' events, shared by game
	baseURL   string

	tournaments Tournaments
	inbox       Inbox // nil: no notifications
}

func (d *deps) now() time.Time { return d.kit.Now() }
