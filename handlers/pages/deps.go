package pages

import (
	"log/slog"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/analysis"
	"github.com/banchess/banchess/boardimage"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/handlers/stream"
	"github.com/banchess/banchess/internal/ratelimit"
	"github.com/banchess/banchess/lobby"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/training"
	"github.com/banchess/banchess/views"
)

// Deps are what the pages serve: the kit the front ends share, the
// services, the live streams, the static files and the position images.
type Deps struct {
	Kit      *kit.Kit
	Loader   *games.Loader
	Players  *players.Service
	Lobby    *lobby.Service
	Analysis *analysis.Service
	Training *training.Service // nil: /learn and /training are not served
	Streams  *stream.Server
	Files    *StaticFiles
	Images   *boardimage.Renderer // nil: /img answers 503
	// ImagesPerSecond and ImageBurst bound the images one client asks
	// for; zero: no limit.
	ImagesPerSecond float64
	ImageBurst      int
	// Variants are the variants the service plays, as the pages offer
	// them.
	Variants []views.Variant
}

// deps are Deps as the pages' handlers reach them.
type deps struct {
	kit       *kit.Kit
	games     *kit.Games
	loader    *games.Loader
	players   *players.Service
	lobby     *lobby.Service
	analysis  *analysis.Service
	training  *training.Service
	streams   *stream.Server
	files     *StaticFiles
	images    *boardimage.Renderer
	imageRate *ratelimit.Limiter // images asked for per client; nil: no limit
	asset     string             // the static files' version, for cache busting
	variants  []views.Variant
	log       *slog.Logger
}

func (d *deps) now() time.Time { return d.kit.Now() }

// Pages serve the playground's pages, their fragments, the static files
// and the images.
type Pages struct{ s *deps }

// New returns the pages of d, and makes d's kit answer refusals outside
// the API with the pages' error pages.
func New(d Deps) *Pages {
	s := &deps{kit: d.Kit, games: d.Kit.Games(), loader: d.Loader, players: d.Players, lobby: d.Lobby, analysis: d.Analysis,
		training: d.Training, streams: d.Streams, files: d.Files, images: d.Images, asset: AssetVersion(), variants: d.Variants, log: d.Kit.Log(),
		imageRate: ratelimit.New(d.ImagesPerSecond, float64(d.ImageBurst), d.Kit.Now)}
	if s.files == nil {
		s.files = NewStaticFiles()
	}
	d.Kit.SetErrorPage(s.errorPage)
	return &Pages{s: s}
}

// Register adds the pages' routes to e.
func (p *Pages) Register(e *echo.Echo) { p.s.pageRoutes(e) }
