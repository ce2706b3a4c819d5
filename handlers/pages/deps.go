package pages

import (
	"context"
	"log/slog"
	"net/url"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/analysis"
	"github.com/banchess/banchess/boardimage"
	"github.com/banchess/banchess/chat"
	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/handlers/stream"
	"github.com/banchess/banchess/internal/ratelimit"
	"github.com/banchess/banchess/lessons"
	"github.com/banchess/banchess/lobby"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/puzzles"
	"github.com/banchess/banchess/rating"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/training"
	"github.com/banchess/banchess/views"
)

// Games are the games service as the pages use it (kit.Games: reads give
// up after the server's game wait).
type Games interface {
	Create(ctx context.Context, cred players.Credential, g *rules.Game) (string, error)
	CreateBot(ctx context.Context, cred players.Credential, g *rules.Game, settings games.BotSettings) (string, rules.Color, error)
	CreateInvite(ctx context.Context, cred players.Credential, g *rules.Game, settings games.InviteSettings) (id, code string, side rules.Color, err error)
	View(ctx context.Context, id string, cred players.Credential, fn games.ViewFunc) error
	Games(ctx context.Context, cred players.Credential, limit int) ([]games.Summary, error)
	PGN(ctx context.Context, id string, cred players.Credential, reviews kit.Reviews, played kit.PlayedGames, own ...rules.Tag) (string, error)
	Presence(id string) games.Presence
	Claim(ctx context.Context, id string, cred players.Credential) (bool, error)
	Hide(ctx context.Context, id string, cred players.Credential) error
	Play(ctx context.Context, id string, cred players.Credential, in games.Input, then games.ViewFunc) error
	Undo(ctx context.Context, id string, cred players.Credential, then games.UndoneFunc) (games.Undone, error)
	Resign(ctx context.Context, id string, cred players.Credential, side rules.Color, then games.ViewFunc) error
	Draw(ctx context.Context, id string, cred players.Credential, then games.ViewFunc) error
	Abort(ctx context.Context, id string, cred players.Credential, then games.ViewFunc) error
	Join(ctx context.Context, id string, cred players.Credential, code string) (games.Seats, error)
	MakeOffer(ctx context.Context, id string, cred players.Credential, offer games.Offer, then games.ViewFunc) error
	AnswerOffer(ctx context.Context, id string, cred players.Credential, offer games.Offer, accept bool, then games.ViewFunc) error
	Premoves() games.Premoves
	PlayVariation(ctx context.Context, id string, cred players.Credential, at games.Spot, text string) (games.Spot, error)
	PromoteVariation(ctx context.Context, id string, cred players.Credential, line rules.Path) (rules.Path, error)
	DeleteVariation(ctx context.Context, id string, cred players.Credential, line rules.Path) error
}

// Loader makes the games the pages create, and knows the variants played
// (games.Loader).
type Loader interface {
	Variants() []rules.Variant
	Variant(id string) (rules.Variant, error)
	NewGame(variant string) (*rules.Game, error)
	FromFEN(fen, variant string) (*rules.Game, error)
	FromLink(q url.Values) (*rules.Game, error)
	Link(g *rules.Game) string
	Import(text, variant string, n int) (*rules.Game, error)
	PGNGames(pgn string) ([]rules.PGNHeader, error)
	FromPly(g *rules.Game, n int, variant string) (*rules.Game, error)
}

// Players are the players service as the pages use it.
type Players interface {
	PlayerID(ctx context.Context, cred players.Credential) (string, error)
	Identify(ctx context.Context, cred players.Credential) (players.Player, error)
	Register(ctx context.Context, up players.SignUp) (players.SignedIn, error)
	Login(ctx context.Context, in players.SignIn) (players.SignedIn, error)
	SignOut(ctx context.Context, cred players.Credential) error
	SignOutEverywhere(ctx context.Context, cred players.Credential) error
	Named(ctx context.Context, name string) (players.Player, error)
	Standings(ctx context.Context, player string) ([]players.Standing, error)
	PlayedGames(ctx context.Context, player string, before players.PlayedGamesCursor, limit int) ([]players.PlayedGame, error)
	PlayedGame(ctx context.Context, player, game string) (players.PlayedGame, bool, error)
	Leaders(ctx context.Context, variant string, speed rating.Speed) ([]players.Leader, error)
	IssueToken(ctx context.Context, cred players.Credential, scopes players.Scopes) (players.Credential, error)
	NewRecoveryCodes(ctx context.Context, cred players.Credential) ([]string, error)
	RecoveryCodesLeft(ctx context.Context, cred players.Credential) (int, error)
	Recover(ctx context.Context, in players.RecoverIn) (players.SignedIn, error)
	Closed(ctx context.Context, id string) (bool, error)
	ResetLinkPlayer(ctx context.Context, token string) (string, error)
	ResetPassword(ctx context.Context, in players.ResetIn) (players.SignedIn, error)
	DeleteAccount(ctx context.Context, cred players.Credential, password string) error
}

// Lobby is the lobby as the pages use it.
type Lobby interface {
	View(ctx context.Context) (lobby.View, error)
	SeeksFor(ctx context.Context, v lobby.View, p players.Player, n int) (lobby.SeekPage, error)
	Plays(id string) bool
	PoolVariant() rules.Variant
	AddSeek(ctx context.Context, cred players.Credential, st lobby.SeekSettings) (lobby.Seek, error)
	AcceptSeek(ctx context.Context, cred players.Credential, id string) (string, error)
	CancelSeek(ctx context.Context, cred players.Credential, id string) error
	JoinPool(ctx context.Context, cred players.Credential, pool, address string) (string, lobby.Seek, error)
	Pairings(ctx context.Context, cred players.Credential, since time.Time) ([]lobby.Seek, error)
	Touch(ctx context.Context, cred players.Credential) error
}

// Analyst is the engine's analysis and reviews as the pages use them.
type Analyst interface {
	AnalysePosition(ctx context.Context, fen, variant string, req analysis.Request) (engine.Result, error)
	AnalyseGame(ctx context.Context, id string, req analysis.Request) (engine.Result, error)
	RequestReview(ctx context.Context, id string, by analysis.Requester) (analysis.ReviewState, error)
	Review(ctx context.Context, id string) (analysis.ReviewState, error)
	kit.Reviews
}

// Training is the trainer of lessons and puzzles as the pages use it.
type Training interface {
	Course(ctx context.Context, player string) (training.Learner, []training.Progress, error)
	Resume(ctx context.Context, player, id string) (lessons.Lesson, int, error)
	Lesson(id string, n int) (lessons.Lesson, error)
	Step(ctx context.Context, player, id string, n int) (training.Step, error)
	Answered(ctx context.Context, player, id string, n int, a rules.Action) (training.Step, error)
	TryStep(ctx context.Context, player, id string, n int, in games.Input) (training.Step, error)
	CarrySteps(ctx context.Context, from, to string) error
	Next(ctx context.Context, player string, t puzzles.Theme) (training.Puzzle, error)
	Daily(ctx context.Context) (training.Puzzle, error)
	Count(t puzzles.Theme) int
	Known(id string) error
	MomentOf(id string, w training.Where) (int, error)
	Look(ctx context.Context, player, id string, w training.Where) (training.Moment, error)
	Play(ctx context.Context, player, id string, in games.Input) (training.Played, error)
	Review(ctx context.Context, player, id string, at, line int) (r training.Review, ok bool, err error)
	History(ctx context.Context, player string) ([]training.Attempt, error)
	// Runs is Puzzle Streak and Puzzle Storm.
	Runs() *training.Runs
	NextAt(ctx context.Context, player string, t puzzles.Theme, d training.Difficulty) (training.Puzzle, error)
	Themes(ctx context.Context, player string) ([]training.ThemeStats, error)
}

// Chat is the games' chat as the pages use it (chat.Service).
type Chat interface {
	RoomOf(ctx context.Context, rec *games.Record, seats games.Seats, cred players.Credential) (chat.View, error)
	Post(ctx context.Context, id string, cred players.Credential, room chat.Room, text string) (chat.Line, error)
	Since(ctx context.Context, id string, cred players.Credential, after int64) ([]chat.Line, int64, error)
	Lines(ctx context.Context, id string, cred players.Credential, room chat.Room, after int64) ([]chat.Line, int64, error)
	Off(ctx context.Context, cred players.Credential) (bool, error)
	SetOff(ctx context.Context, cred players.Credential, off bool) error
}

// Deps are what the pages serve: the kit the front ends share, the
// services, the live streams, the static files and the position images.
type Deps struct {
	Kit      *kit.Kit
	Loader   Loader
	Players  Players
	Lobby    Lobby
	Analysis Analyst
	Training Training // nil: /learn and /training are not served
	Chat     Chat     // nil: games have no chat
	// Relations serve follows and blocks; nil: not served.
	Relations Relations
	// Moderation serves reports and the moderators; nil: not served.
	Moderation Moderation
	Streams    *stream.Server
	Files      *StaticFiles
	Images     *boardimage.Renderer // nil: /img answers 503
	// ImagesPerSecond and ImageBurst bound the images one client asks
	// for; zero: no limit.
	ImagesPerSecond float64
	ImageBurst      int
	// Variants are the variants the service plays, as the pages offer
	// them.
	Variants []views.Variant

	// Tournaments run arenas; nil: /tournaments is not served.
	Tournaments Tournaments
	// Challenges serve players' challenges; nil: none.
	Challenges Challenges
	// Notify keeps named players' notifications (/inbox, the header's
	// bell); nil: none.
	Notify Inbox
}

// deps are Deps as the pages' handlers reach them.
type deps struct {
	kit        *kit.Kit
	games      Games
	turns      Turns
	loader     Loader
	players    Players
	lobby      Lobby
	analysis   Analyst
	training   Training
	chat       Chat
	relations  Relations
	moderation Moderation
	streams    *stream.Server
	files      *StaticFiles
	images     *boardimage.Renderer
	imageRate  *ratelimit.Limiter // images asked for per client; nil: no limit
	asset      string             // the static files' version, for cache busting
	variants   []views.Variant
	log        *slog.Logger

	tournaments Tournaments
	challenges  Challenges // nil: none
	inbox       Inbox      // nil: no inbox
}

func (d *deps) now() time.Time { return d.kit.Now() }

// Pages serve the playground's pages, their fragments, the static files
// and the images.
type Pages struct{ s *deps }

// New returns the pages of d, and makes d's kit answer refusals outside
// the API with the pages' error pages.
func New(d Deps) *Pages {
	s := &deps{kit: d.Kit, games: d.Kit.Games(), turns: games.TurnsOf(d.Kit.Games().Service), loader: d.Loader, players: d.Players, lobby: d.Lobby, analysis: d.Analysis,
		training: d.Training, chat: d.Chat, relations: d.Relations, moderation: d.Moderation, tournaments: d.Tournaments, streams: d.Streams, files: d.Files, images: d.Images, asset: AssetVersion(), variants: d.Variants, log: d.Kit.Log(),
		imageRate: ratelimit.New(d.ImagesPerSecond, float64(d.ImageBurst), d.Kit.Now), challenges: d.Challenges}
	s.inbox = d.Notify
	if s.files == nil {
		s.files = NewStaticFiles()
	}
	d.Kit.SetErrorPage(s.errorPage)
	d.Kit.SetErrorWords(sayRefusal)
	return &Pages{s: s}
}

// Register adds the pages' routes to e.
func (p *Pages) Register(e *echo.Echo) { p.s.pageRoutes(e) }
