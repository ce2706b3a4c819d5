// Package loadtest measures the playground under load, in tests and
// benchmarks only: it holds no code the server uses.
//
// BenchmarkLoad starts the real server (handlers.New without main's rate
// limits, the SQLite store on a file in a temporary directory with default
// options) on a loopback TCP port and drives concurrent sessions
// (LOAD_SESSIONS, default 200) that play random legal games, each session
// keeping a copy of its game to choose its next action: through the htmx
// endpoints (sub-benchmark html: POST /ply with the fields a click on a
// destination square sends, POST /new when a game ends), through the JSON
// API (api: POST /api/games/{id}/actions, checking the FEN answered, and
// POST /api/games), and, for the floor of HTTP on the same server and
// machine, against a route that answers "ok" (trivial, which runs first).
//
// One benchmark iteration is one ply (one request, for trivial), spread over
// the sessions, so -benchtime 20000x plays 20,000 plies. Each sub-benchmark
// reports plies (requests) per second, the p50 and p99 latency of a ply, the
// errors, the CPU the process got (cores) and spent per ply (client and
// server together), and html and api their rate as a multiple of trivial's:
//
//	go test ./loadtest -run '^$' -bench Load -benchtime 20000x -count 3
//
// By default the sessions send each ply as soon as the last is answered
// (a closed loop: the most the server answers). LOAD_RATE=N instead has
// them offer N plies a second in all, and a ply's latency counts from when
// it was due: the latency at a given load. Games end at their end or after
// LOAD_MAX_PLIES plies (default 160, a long human game; 0 for no bound: a
// random game lasts about 450), and each session's first game is already a
// random way into its course, so that the games in play are at every
// stage from the start. LOAD_STORE=fsync opens SQLite with Fsync,
// LOAD_STORE=memory uses the in-memory store; LOAD_LOG=1 adds main's request
// log (written to io.Discard). BenchmarkServe is the same without network
// or concurrency: one session calling the handler, for the server's own
// cost and for profiles.
//
// BenchmarkStreams runs the server in a process of its own and measures
// live streams: 2,000 open on 200 games while plies are played at 200 a
// second, the latency from a ply's acknowledgement to every watcher, the
// server's memory per stream, goroutines and CPU per ply.
//
// TestContention has 100 goroutines race conflicting actions into one
// game, ply after ply, and checks that exactly one wins each ply and the
// game equals a serial replay of the winners. TestMemory (run with
// LOAD_MEMORY=1) fills a SQLite file with 100,000 games, caches 10,000 and
// reports the resident memory.
package loadtest
