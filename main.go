// Command banchess serves the Ban Chess playground; "play" plays Ban Chess
// in the terminal, "match" plays engine matches and "uci" serves the
// engine over UCI.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/handlers/stream"
	"github.com/banchess/banchess/internal/connlimit"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/analysis"
	"github.com/banchess/banchess/botclient"
	"github.com/banchess/banchess/challenges"
	"github.com/banchess/banchess/chat"
	"github.com/banchess/banchess/computer"
	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/engine/match"
	"github.com/banchess/banchess/engine/tune"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/handlers"
	"github.com/banchess/banchess/lessons"
	"github.com/banchess/banchess/lobby"
	"github.com/banchess/banchess/moderation"
	"github.com/banchess/banchess/notify"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/puzzles"
	"github.com/banchess/banchess/puzzles/generate"
	"github.com/banchess/banchess/relations"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/store"
	"github.com/banchess/banchess/terminal"
	"github.com/banchess/banchess/tournament"
	"github.com/banchess/banchess/training"
	"github.com/banchess/banchess/uci"
)

// usage lists the ways to run banchess.
const usage = `usage: banchess [flags]          serve the playground (banchess -h lists the flags)
       banchess play [flags]     play in the terminal (banchess play -h)
       banchess match [flags]    play engine levels against each other or Stockfish (banchess match -h)
       banchess tune gen|fit [flags]  tune the engine's evaluation by self-play (docs/engine.md)
       banchess uci              the engine over UCI on stdin and stdout
       banchess bot [flags]      connect a UCI engine to a server through lichess's Bot API (banchess bot -h)
       banchess puzzles generate [flags]  generate verified puzzles (banchess puzzles generate -h)
       banchess admin grant-mod|revoke-mod [--db DSN] NAME  make a player a moderator, or no longer one`

func main() {
	ctx, stop := signalContext()
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run runs the command args name (the server when args start with a flag
// or are empty) and returns the exit code: 2 for an unknown command.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmd := ""
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd = args[0]
	}
	switch cmd {
	case "":
	case "play":
		return terminal.Run(ctx, args[1:], stdin, stdout, stderr)
	case "match":
		if err := match.Command(ctx, args[1:], stdout); err != nil {
			fmt.Fprintln(stderr, "banchess match:", err)
			return 1
		}
		return 0
	case "tune":
		if err := tune.Command(ctx, args[1:], stdout); err != nil {
			fmt.Fprintln(stderr, "banchess tune:", err)
			return 1
		}
		return 0
	case "puzzles":
		if err := puzzlesCommand(ctx, args[1:], stdout, stderr); err != nil {
			fmt.Fprintln(stderr, "banchess puzzles:", err)
			return 1
		}
		return 0
	case "admin":
		if err := adminCommand(ctx, args[1:], stdout, os.Getenv); err != nil {
			fmt.Fprintln(stderr, "banchess admin:", err)
			return 1
		}
		return 0
	case "bot":
		if err := botclient.Command(ctx, args[1:], stderr); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return 0
			}
			fmt.Fprintln(stderr, "banchess bot:", err)
			return 1
		}
		return 0
	case "uci":
		if len(args) > 1 {
			fmt.Fprintf(stderr, "banchess uci takes no arguments, not %q (set options with setoption)\n%s\n", args[1], usage)
			return 2
		}
		if err := uci.Run(ctx, stdin, stdout); err != nil {
			fmt.Fprintln(stderr, "banchess uci:", err)
			return 1
		}
		return 0
	default:
		fmt.Fprintf(stderr, "banchess: unknown command %q\n%s\n", args[0], usage)
		return 2
	}
	if err := serve(ctx, args, stdout, os.Getenv); err != nil {
		fmt.Fprintln(stderr, "banchess:", err)
		return 1
	}
	return 0
}

// puzzlesCommand runs "banchess puzzles generate", reading games from
// the store --db names when given.
func puzzlesCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "generate" {
		return errors.New("usage: banchess puzzles generate [flags] (banchess puzzles generate -h)")
	}
	return generate.Command(ctx, args[1:], stdout, stderr, openGames)
}

// openGames opens the store of a --db value for reading its games; an
// SQLite file must exist.
func openGames(ctx context.Context, dsn string) (generate.Store, io.Closer, error) {
	if !store.IsPostgresURL(dsn) {
		if _, err := os.Stat(dsn); err != nil {
			return nil, nil, fmt.Errorf("--db: %w", err)
		}
	}
	s, err := openStore(ctx, dsn, store.Options{}, store.PostgresOptions{})
	if err != nil {
		return nil, nil, err
	}
	games, ok := s.(generate.Store)
	if !ok {
		s.Close()
		return nil, nil, fmt.Errorf("--db: the store %s cannot list its games", redact(dsn))
	}
	return games, s, nil
}

// signalContext returns a context that ends on SIGINT or SIGTERM.
func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// serve runs the playground until ctx ends; with -h or --help it prints
// the usage and returns nil.
func serve(ctx context.Context, args []string, out io.Writer, getenv func(string) string) error {
	fs := flag.NewFlagSet("banchess", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.Usage = func() {
		fmt.Fprintln(out, usage)
		fs.PrintDefaults()
	}
	addr := fs.String("addr", "localhost:8080", "address to listen on; the PORT environment variable, when set, listens on :PORT unless --addr is given")
	dbPath := fs.String("db", "banchess.db", "where the games are kept: a PostgreSQL URL (postgres://… or postgresql://…), which any number of servers may share, or else an SQLite file (:memory: keeps them only while the server runs); without --db, the DATABASE_URL environment variable when set")
	gameConns := fs.Int("db-game-conns", 0, "PostgreSQL: connections of the pool (pool_max_conns in the URL) that reading and saving games may hold at once, so the others stay free for players, the lobby and sign-ins while games are busy; 0: all but a quarter of the pool (at least one)")
	connWait := fs.Duration("db-conn-wait", store.DefaultConnWait, "PostgreSQL: how long a request waits for a free connection (games: for one of their share) before it is answered 503 busy")
	fsync := fs.Bool("fsync", false, "wait for the disk on every ply, so a power loss loses no acknowledged ply (slower; a killed process loses none either way)")
	cacheSize := fs.Int("cache", store.DefaultCacheSize, "games kept in memory; others are read from the database when asked for")
	cacheMB := fs.Int("cache-mb", store.DefaultCacheBytes>>20, "memory the games kept in memory may take, in MiB (estimated from their plies); the cache keeps within this and --cache")
	ttl := days(30 * 24 * time.Hour)
	fs.Var(&ttl, "game-ttl", "remove games idle for longer than this (e.g. 30d, 12h); 0 keeps them forever")
	baseURL := fs.String("base-url", "", "the public URL the server is reached at, such as https://chess.example.com: every absolute link (watch and share links) starts with it, and a request whose Host names another host is refused (421), all but /healthz; without it links take the request's Host header, which any client can set (a server listening beyond loopback warns of it at start)")
	trustProxy := fs.Bool("trust-proxy", false, "behind a reverse proxy: take the client's address from X-Forwarded-For, HTTPS from X-Forwarded-Proto and the host from X-Forwarded-Host when they come from a loopback or private address")
	limits := kit.DefaultLimits()
	fs.Float64Var(&limits.PostsPerSecond, "post-rate", limits.PostsPerSecond, "POST requests a second one client address may send, in bursts of twice as many; 0: no limit")
	analysts := fs.Int("analysts", 1, "analyses (searches of the engine) that run at once; each takes a core while it runs")
	analysisQueue := fs.Int("analysis-queue", 4, "analyses that may wait for a free analyst; more are refused with 429 busy")
	botTime := fs.Duration("bot-time", engine.DefaultPerPly, "how long the computer thinks a ply at level 8 (levels 1–7 are bound by depth and nodes)")
	fs.IntVar(&limits.GamesPerMinute, "games-per-minute", limits.GamesPerMinute, "games one client address may start in a minute; 0: no limit")
	connsPerIP := fs.Int("conns-per-ip", defaultConnsPerIP, "connections one client address (an IPv6 client by its /64) may hold open, live streams included; past it the address's longest idle connection is closed, or with none idle the new one refused; 0: no limit. It counts the connection's own peer: with --trust-proxy, loopback and private peers (the proxy) are not limited")
	clockSweep := fs.Duration("clock-sweep", games.DefaultClockSweep, "how often this server ends the games whose clock ran out or whose first action is overdue, whichever server they were played on (one that died leaves its games to the others); 0: never")
	beat := fs.Duration("heartbeat", lobby.DefaultBeat, "how often this server records in the database that it is alive")
	instanceTimeout := fs.Duration("instance-timeout", lobby.DefaultInstanceTimeout, "how long a server sharing the database may go without recording that it is alive before the lobby's seeks it held end (their makers' lobby pages were on it); 0: never, the seeks then lasting 30 s after their makers' last page")
	signups := fs.Int("signups-per-hour", 5, "players one client address may sign up (name, with a password) in an hour, on every server sharing the database together; 0: no limit")
	arenaEvery := fs.Duration("arena-schedule", time.Hour, "how often the server starts an arena of its own (a Ban Chess arena each hour by default, on the hour, UTC); 0: none")
	arenaClock := fs.String("arena-clock", "3+2", "the clock of the scheduled arenas (minutes+seconds)")
	arenaMinutes := fs.Int("arena-minutes", 57, "how long each scheduled arena lasts, in minutes (20–180)")
	tournamentLease := fs.Duration("tournament-lease", tournament.DefaultLease, "how long a server's claim on running a tournament lasts: another server takes over a tournament this long after its server died (1s–10m)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil // the usage is printed: that is all -h asks
		}
		return err
	}
	if limits.PostsPerSecond < 0 || limits.GamesPerMinute < 0 || *connsPerIP < 0 || *signups < 0 {
		return errors.New("--post-rate, --games-per-minute, --conns-per-ip and --signups-per-hour must be 0 (no limit) or more")
	}
	if *clockSweep < 0 {
		return errors.New("--clock-sweep must be 0 (never) or more")
	}
	if *beat <= 0 || *instanceTimeout < 0 || *instanceTimeout > 0 && *instanceTimeout < 2**beat {
		return errors.New("--heartbeat must be more than 0, and --instance-timeout 0 (never) or at least twice --heartbeat")
	}
	if *tournamentLease < time.Second || *tournamentLease > 10*time.Minute {
		return fmt.Errorf("--tournament-lease %v: want 1s to 10m", *tournamentLease)
	}
	if _, ok, err := games.ParseTimeControl(*arenaClock); *arenaEvery < 0 || *arenaEvery > tournament.MaxAhead || *arenaEvery > 0 && (err != nil || !ok || *arenaMinutes < tournament.MinMinutes || *arenaMinutes > tournament.MaxMinutes) {
		return errors.New("--arena-schedule must be from 0 to a week, --arena-clock must be a clock such as 3+2 and --arena-minutes from 20 to 180")
	}
	liveness := lobby.Liveness{Beat: *beat, Timeout: *instanceTimeout}
	if *instanceTimeout == 0 {
		liveness.Timeout = -1
	}
	sweepClocks := games.ClockSweep{Every: *clockSweep}
	if *clockSweep == 0 {
		sweepClocks.Every = -1
	}
	limits.PostBurst = 0 // twice the rate
	base, err := handlers.ParseBaseURL(*baseURL)
	if err != nil {
		return fmt.Errorf("--base-url: %w", err)
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if port := getenv("PORT"); port != "" && !set["addr"] {
		*addr = ":" + port
	}
	if url := getenv("DATABASE_URL"); url != "" && !set["db"] {
		*dbPath = url
	}

	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	tuneGC(getenv)
	if *cacheSize < 0 || *cacheMB < 0 {
		return errors.New("--cache and --cache-mb must not be negative")
	}
	if *gameConns < 0 || *connWait < 0 {
		return errors.New("--db-game-conns and --db-conn-wait must not be negative")
	}
	db, err := openStore(ctx, *dbPath, store.Options{Fsync: *fsync, CacheSize: *cacheSize, CacheBytes: int64(*cacheMB) << 20, TTL: time.Duration(ttl)},
		store.PostgresOptions{GameConns: int32(*gameConns), ConnWait: *connWait})
	if err != nil {
		return err
	}
	defer db.Close()
	// The background work (sweeps, the lobby, the tournaments) stops before
	// the store closes, whichever way serving ends.
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	go sweep(ctx, db, time.Duration(ttl), logger)

	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	feed := games.NewFeed()
	pool := engine.NewPool(*analysts, *analysisQueue, 32)
	blocks := relations.NewBlockList(db.Relations())
	pl := players.New(db, players.WithSignupsPerHour(*signups), players.WithSafety(db.Safety()), players.WithBlocks(blocks))
	inbox := notify.New(store.Notifications(db), pl)
	svc := games.New(db, pl, games.WithFeed(feed), games.WithComputer(computer.New(pool, computer.WithTimePerPly(*botTime))),
		games.WithClockSweep(sweepClocks), games.WithChanges(func(ctx context.Context, c games.Change) {
			logNotify(ctx, logger, inbox.Game(ctx, c))
		}))
	defer svc.Close()
	go svc.Clocks().Run(ctx, db, func(err error) { logger.Error("ending the games whose clocks are due", "err", err) })
	an := analysis.New(svc, svc.Loader(), db.Reviews(), pool)
	defer an.Close()
	// Pairing strangers: the lobby offers Ban Chess and classic chess.
	lb := lobby.New(db, svc, svc.Loader(), pl, lobby.WithVariants(rules.BanChess{}.ID(), rules.Classic{}.ID()), lobby.WithLiveness(liveness),
		lobby.WithBlocks(blocks))
	talk := chat.New(db.Chat(), svc, pl, chat.WithWaker(feed.Wake), chat.WithBlocks(blocks), chat.WithMutes(moderation.NewMuteList(db.Moderation(), nil)))
	rel := relations.New(db.Relations(), pl, db, lb)
	mods := moderation.New(db.Moderation(), pl, talk, db.Chat())
	// Arenas: each server runs the tournaments no other holds.
	arenas := tournament.New(db.Tournaments(), db, svc, pl, svc.Loader(), tournament.WithBerserk(svc.Clocks().Berserk),
		tournament.WithStarted(func(ctx context.Context, t *tournament.Tournament) { logNotify(ctx, logger, inbox.Tournament(ctx, t)) }),
		tournament.WithSchedule(tournament.Schedule{Every: *arenaEvery, Name: "Ban Chess arena", Variant: rules.BanChess{}.ID(),
			Clock: *arenaClock, Minutes: *arenaMinutes, Rated: true}),
		tournament.WithTick(tournament.DefaultTick, *tournamentLease))
	if l, ok := db.(changeListener); ok {
		// Other servers on the same database change games too: their
		// watchers here hear of it.
		go listen(ctx, l, feed, logger, lb.Notice, pl.Notice, talk.Notice, arenas.Notice)
	}
	go lb.Run(ctx)
	go arenas.Run(ctx, func(err error) { logger.Error("running the tournaments", "err", err) })
	shipped, err := puzzles.Shipped()
	if err != nil {
		return fmt.Errorf("the shipped puzzles: %w", err)
	}
	trainer := training.New(shipped, lessons.All(), db, training.WithAnalyser(pool))
	ch := challenges.New(db.Challenges(), svc, svc.Loader(), pl, challenges.WithBlocker(pl),
		challenges.WithNotices(func(ctx context.Context, c challenges.Challenge) { logNotify(ctx, logger, inbox.Challenge(ctx, c)) }))
	h := handlers.New(handlers.Services{Games: svc, Players: pl, Lobby: lb, Analysis: an, Training: trainer, Chat: talk, Relations: rel, Moderation: mods, Tournaments: arenas, Challenges: ch, Notify: inbox}, nil,
		handlers.WithStreamLimits(stream.DefaultLimits()),
		handlers.WithHealthCheck(db),
		handlers.WithLimits(limits),
		handlers.WithTrustProxy(*trustProxy),
		handlers.WithBaseURL(base),
		handlers.WithLogger(logger),
	)
	h.Register(e)

	tcp, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	ln := connlimit.New(tcp, connlimit.Config{PerAddr: *connsPerIP, Files: connlimit.FileLimit(), ExemptPrivate: *trustProxy, Log: logger})
	srv := newHTTPServer(e, ln, logger)
	h.WarnHostLinks(ln.Addr())
	// Live streams outlast WriteTimeout (each bounds its own writes) and
	// end cleanly when the server shuts down.
	srv.RegisterOnShutdown(h.CloseStreams)
	fmt.Fprintf(out, "banchess: listening on %s, playing at http://%s/\n", ln.Addr(), displayAddr(ln.Addr()))
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("shutdown: %w", err)
	}
	h.CloseStreams() // the streams that took over their connections end before the store closes
	return nil
}

// logNotify logs a notification that could not be stored: the event it
// tells of happened all the same.
func logNotify(ctx context.Context, logger *slog.Logger, err error) {
	if err != nil {
		logger.ErrorContext(ctx, "notifying a player", "err", err)
	}
}

// defaultConnsPerIP is --conns-per-ip's default: a client address may
// hold its 64 live streams (stream.DefaultLimits) and as many other
// connections, far more than a browser opens (six to a host).
const defaultConnsPerIP = 128

// idleTimeout is how long a connection is kept open waiting for its next
// request; when the open-file limit is near, the longest idle are closed
// sooner (package connlimit).
const idleTimeout = 30 * time.Second

// newHTTPServer returns the server of h on ln, whose idle connections it
// tells ln of, logging its own errors (accepting, a bad TLS handshake) to
// logger.
func newHTTPServer(h http.Handler, ln *connlimit.Listener, logger *slog.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       idleTimeout,
		ConnState:         ln.ConnState,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
}

// tuneGC trades memory for speed unless GOGC or GOMEMLIMIT say otherwise:
// a page allocates a lot that dies at once, and with the default GOGC=100
// the collector took a fifth of a ply's time. GOGC=400 lets the heap grow to
// five times what is live; a 512 MiB soft limit makes the collector work
// harder before that gets large (the default cache holds at most 64 MiB of
// games, by its estimate).
func tuneGC(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(512 << 20)
	}
}

// days is a duration flag that also takes whole days, such as "30d".
type days time.Duration

func (d *days) String() string {
	if *d != 0 && time.Duration(*d)%(24*time.Hour) == 0 {
		return fmt.Sprintf("%dd", time.Duration(*d)/(24*time.Hour))
	}
	return time.Duration(*d).String()
}

func (d *days) Set(s string) error {
	if n, ok := strings.CutSuffix(s, "d"); ok {
		v, err := strconv.ParseUint(n, 10, 16)
		if err != nil {
			return fmt.Errorf("%q is not a number of days", s)
		}
		*d = days(time.Duration(v) * 24 * time.Hour)
		return nil
	}
	v, err := time.ParseDuration(s)
	if err != nil || v < 0 {
		return fmt.Errorf("%q is not a duration such as 30d or 12h", s)
	}
	*d = days(v)
	return nil
}

// displayAddr turns a listening address into one a browser can open.
func displayAddr(a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() || ip.IsLoopback() {
		host = "localhost"
	}
	return net.JoinHostPort(host, port)
}
